"""gputlm's outputs in Python: a run's statistics and an experiment's results as nested dicts
and pandas tables, and the experiment plots (docs/experiments.md, "Reading statistics and
results from Python").

    import sys; sys.path.insert(0, "<gputlm>/python")
    import gputlm
    df = gputlm.stats_frame("stats.json")           # one row per statistic of a block
    points = gputlm.load_results("build/experiments/demo")   # one row per point

gputlm.stats    load_stats, full_form, block_table, stats_frame, histograms_frame,
                run_summary, kernels_frame, tb_log_frame: one `gputlm run --stats FILE.json`
                (either form)
gputlm.results  load_results, summary_frame, paper_frame: an experiment's results.json
gputlm.plots    the plots of scripts/plot-experiment.py (not imported here: importing it
                selects matplotlib's Agg backend)

Needs Debian's python3-pandas for the tables (imported when a table is made) and
python3-matplotlib for the plots; nothing else.
"""
from .results import load_results, paper_frame, summary_frame
from .stats import (block_table, full_form, histograms_frame, kernels_frame, load_stats,
                    run_summary, stats_frame, tb_log_frame)

__all__ = ["load_stats", "full_form", "block_table", "stats_frame", "histograms_frame", "run_summary", "kernels_frame",
           "tb_log_frame", "load_results", "summary_frame", "paper_frame"]
