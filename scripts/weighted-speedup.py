#!/usr/bin/python3
"""Writes the weighted-speedup tables of the docs from an experiment's results.csv.

Usage: scripts/weighted-speedup.py [--results-root DIR] [--check] FILE.md...

A multi-programmed experiment (yaml/experiments/uc-states.yaml) runs each application
alone and each mix of them (a workload named A+B, `merge: [A, B]`: application i is stream
i). The weighted speedup of a mix under a configuration is

    WS = sum over i of IPC_i / IPC_i,alone

where IPC_i is the metric naming stream i's IPC in that run (its instructions over its own
time) and IPC_i,alone the `ipc` of application i alone under the `alone=` configuration
(the whole GPU). A table sits between

  <!-- weighted-speedup: experiment=uc-states alone=baseline streams=ipc_memory,ipc_compute
       columns: baseline "16 big, shared"; het "8 big + 8 half" -->
  <!-- end weighted-speedup -->

and has a row per mix and a geomean row. Everything between the markers is replaced,
everything else stays byte for byte. --check writes nothing and exits 1 listing the
tables that differ. Bad input (a malformed marker, an unknown experiment, configuration
or metric, a missing point) is one line `error: FILE:LINE: what`, exit status 2, nothing
written. A file is written to a temporary file and renamed into place.
"""
import argparse
import csv
import math
import os
import re
import sys
import tempfile

OPEN = re.compile(r"^<!--\s*weighted-speedup:(.*)$")
END = "<!-- end weighted-speedup -->"


class Bad(Exception):
    pass


def parse_marker(lines, i):
    """The marker starting at lines[i] (it may span lines up to `-->`): its settings and
    the index of its last line."""
    text = lines[i]
    j = i
    while "-->" not in lines[j]:
        j += 1
        if j == len(lines):
            raise Bad("%d: the marker has no closing -->" % (i + 1))
        text += " " + lines[j]
    body = OPEN.match(text.strip()).group(1).split("-->")[0]
    head, _, cols = body.partition("columns:")
    settings = dict(kv.split("=", 1) for kv in head.split())
    for key in ("experiment", "alone", "streams"):
        if key not in settings:
            raise Bad("%d: the marker has no %s=" % (i + 1, key))
    columns = []
    for part in cols.split(";"):
        m = re.match(r'\s*(\S+)\s+"([^"]*)"\s*$', part)
        if not m:
            raise Bad("%d: a column is not NAME \"label\": %r" % (i + 1, part.strip()))
        columns.append((m.group(1), m.group(2)))
    return settings, columns, j


def table(settings, columns, root, line):
    path = os.path.join(root, settings["experiment"], "results.csv")
    if not os.path.exists(path):
        raise Bad("%d: no results file %s" % (line, path))
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    streams = settings["streams"].split(",")
    for s in streams + ["ipc"]:
        if rows and s not in rows[0]:
            raise Bad("%d: experiment %s has no metric %s" % (line, settings["experiment"], s))
    value = {(r["configuration"], r["workload"]): r for r in rows if r["status"] == "ok"}
    configs = {r["configuration"] for r in rows}
    for c, _ in columns + [(settings["alone"], "")]:
        if c not in configs:
            raise Bad("%d: experiment %s has no configuration %s" % (line, settings["experiment"], c))
    mixes = []
    for r in rows:
        if "+" in r["workload"] and r["workload"] not in mixes:
            mixes.append(r["workload"])
    out = ["| mix | " + " | ".join(label for _, label in columns) + " |",
           "|---|" + "---:|" * len(columns)]
    logs = {c: [] for c, _ in columns}
    for mix in mixes:
        apps = mix.split("+")
        if len(apps) != len(streams):
            raise Bad("%d: mix %s has %d applications, streams= names %d" %
                      (line, mix, len(apps), len(streams)))
        cells = []
        for c, _ in columns:
            ws = 0.0
            for app, metric in zip(apps, streams):
                alone = value.get((settings["alone"], app))
                shared = value.get((c, mix))
                if alone is None or shared is None:
                    raise Bad("%d: no result for %s under %s" %
                              (line, app if alone is None else mix, settings["alone"] if alone is None else c))
                ws += float(shared[metric]) / float(alone["ipc"])
            logs[c].append(math.log(ws))
            cells.append("%.3f" % ws)
        out.append("| %s | %s |" % (mix, " | ".join(cells)))
    out.append("| **geomean** | %s |" % " | ".join(
        "%.3f" % math.exp(sum(logs[c]) / len(logs[c])) if logs[c] else "\u2014" for c, _ in columns))
    return out


def rewrite(path, root):
    with open(path) as f:
        lines = f.read().split("\n")
    out, i, changed = [], 0, False
    while i < len(lines):
        if not OPEN.match(lines[i].strip()):
            out.append(lines[i])
            i += 1
            continue
        settings, columns, j = parse_marker(lines, i)
        out.extend(lines[i:j + 1])
        k = j + 1
        while k < len(lines) and lines[k].strip() != END:
            k += 1
        if k == len(lines):
            raise Bad("%d: no %s" % (i + 1, END))
        new = [""] + table(settings, columns, root, i + 1) + [""]
        if lines[j + 1:k] != new:
            changed = True
            print("%s:%d: weighted-speedup table of experiment %s rewritten" %
                  (path, i + 1, settings["experiment"]))
        out.extend(new)
        out.append(lines[k])
        i = k + 1
    return "\n".join(out), changed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results-root", default="build/experiments")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    results, differ = [], []
    for path in a.files:
        try:
            text, changed = rewrite(path, a.results_root)
        except Bad as e:
            print("error: %s:%s" % (path, e), file=sys.stderr)
            return 2
        except OSError as e:
            print("error: %s: %s" % (path, e.strerror), file=sys.stderr)
            return 2
        results.append((path, text, changed))
    for path, text, changed in results:
        if not changed:
            continue
        if a.check:
            differ.append(path)
            continue
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)))
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    if differ:
        print("differs from the results: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
