#!/usr/bin/python3
"""Draws the plots of an experiment from its results.json (PNG + SVG, matplotlib).

Usage: /usr/bin/python3 scripts/plot-experiment.py OUT/results.json OUT/plots

Writes OUT/plots/<file>.png and OUT/plots/<file>.svg for every entry of results["plots"].
All figures are rendered before any file is renamed into place, so an error leaves no
partial output. Errors print one line `plot-experiment: <file>: <what>` and exit 2.
The output is deterministic: the same results.json gives byte-identical files.

The drawing is python/gputlm/plots.py; its docstring lists the fields of results.json it
reads and how each kind of plot looks.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "python"))
from gputlm.plots import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv))
