"""An experiment's results (`gputlm experiment`'s results.json) as pandas tables.

results.json (docs/experiments.md, "Outputs") holds the experiment's platforms,
configurations, workloads, metrics ({name, value, compare, mean, label, unit, baseline}), its
points ({platform, configuration, workload, repetition, key, status, reused, seconds, error,
stats, metrics: {name: value}}), the summary ({metric: {platform: {configuration: {cell:
{value, compared, of?, count?, min?, max?}}}}}, a cell being a workload, "group:<g>" or
"geomean"; min and max a repeated workload's range over its repetitions) and the
paper values. results.csv, written beside it, has the same points for spreadsheets; these
functions read results.json only.

load_results   one row per point, a column per metric and per comparison with the baseline
summary_frame  one row per summary cell
paper_frame    one row per paper value, ours beside it

Each takes the experiment's output folder, its results.json or that file's JSON as a dict.
"""
import json
import math
import os

from .stats import _pandas

__all__ = ["load_results", "summary_frame", "paper_frame"]

POINT_COLUMNS = ["platform", "configuration", "workload", "group", "repetition", "status",
                 "reused", "seconds", "key", "stats", "error"]


def _read(source):
    """(results.json's JSON, the folder its relative paths start from, or None)."""
    if isinstance(source, dict):
        return source, None
    path = os.fspath(source)
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not an experiment's results.json (not a JSON object)")
    return data, os.path.dirname(path)


def _num(v):
    return math.nan if v is None else v


def compare(kind, value, base):
    """A value compared with its baseline value as results.csv's `<metric>.vs_baseline`:
    normalized this / baseline, speedup baseline / this, difference this - baseline; None
    when either is missing or the division is by zero."""
    if value is None or base is None:
        return None
    if kind == "normalized":
        return value / base if base != 0 else None
    if kind == "speedup":
        return base / value if value != 0 else None
    if kind == "difference":
        return value - base
    return None


def load_results(source):
    """One row per point, in results.json's order: platform, configuration, workload, group
    (the workload's group, or None), repetition, status ("ok" or "failed"), reused, seconds
    (host time of its run, 0 when reused), key (its folder is points/<key>), stats (the path
    of its statistics file, joined to the experiment's folder when read from a path; None for
    a failed point), error; then per metric, in the experiment's order, its value (NaN when
    the point has none) and, unless the metric's compare is none, `<metric>.vs_baseline`: the
    comparison with the point of the metric's baseline configuration at the same platform,
    workload and repetition, as results.csv has it. A metric named like one of the columns
    before it is a ValueError."""
    pd = _pandas()
    data, folder = _read(source)
    metrics = [m for m in data.get("metrics") or [] if isinstance(m, dict)]
    baseline = (data.get("experiment") or {}).get("baseline")
    groups = {w.get("name"): w.get("group") for w in data.get("workloads") or []
              if isinstance(w, dict)}
    points = data.get("points") or []
    for m in metrics:
        if m.get("name") in POINT_COLUMNS:
            raise ValueError(f"metric {m.get('name')!r} has the name of a column of the points")

    def value(p, name):
        return (p.get("metrics") or {}).get(name) if p.get("status") == "ok" else None

    at = {(p.get("platform"), p.get("configuration"), p.get("workload"), p.get("repetition")): p
          for p in points}
    rows = []
    for p in points:
        stats = p.get("stats")
        if stats is not None and folder is not None:
            stats = os.path.join(folder, stats)
        row = {"platform": p.get("platform"), "configuration": p.get("configuration"),
               "workload": p.get("workload"), "group": groups.get(p.get("workload")),
               "repetition": p.get("repetition"), "status": p.get("status"),
               "reused": p.get("reused"), "seconds": p.get("seconds"), "key": p.get("key"),
               "stats": stats, "error": p.get("error")}
        for m in metrics:
            name, kind = m.get("name"), m.get("compare", "normalized")
            v = value(p, name)
            row[name] = _num(v)
            if kind == "none":
                continue
            q = at.get((p.get("platform"), m.get("baseline") or baseline, p.get("workload"),
                        p.get("repetition")))
            row[f"{name}.vs_baseline"] = _num(compare(kind, v, None if q is None else
                                                      value(q, name)))
        rows.append(row)
    columns = list(POINT_COLUMNS)
    for m in metrics:
        columns.append(m.get("name"))
        if m.get("compare", "normalized") != "none":
            columns.append(f"{m.get('name')}.vs_baseline")
    return pd.DataFrame(rows, columns=columns)


def _ordered(keys, order):
    """`keys` with those in `order` first, in that order, then the others as they come."""
    keys = list(keys)
    return [k for k in order if k in keys] + [k for k in keys if k not in order]


def summary_frame(source):
    """One row per summary cell: metric, platform, configuration, cell (a workload,
    "group:<g>" or "geomean"), value (the mean over the repetitions; for a mean cell, the
    mean of the workloads' values where the metric's compare is none), compared (compared
    with the baseline; for a mean cell, the mean of the workloads' comparisons), of and count
    (a mean cell: the workloads in it, and those with a value; NaN for a workload's cell),
    min and max (a workload with repetitions: the least and greatest over its repetitions of
    the number the summary shows; NaN otherwise). A missing number is NaN. Rows in the experiment's order: metrics, platforms,
    configurations, then the workloads, the groups' means and the overall mean."""
    pd = _pandas()
    data, _ = _read(source)
    summary = data.get("summary") or {}
    metrics = [m.get("name") for m in data.get("metrics") or [] if isinstance(m, dict)]
    cells = [w.get("name") if isinstance(w, dict) else w for w in data.get("workloads") or []]
    cells += [f"group:{g}" for g in data.get("groups") or []] + ["geomean"]
    rows = []
    for metric in _ordered(summary, metrics):
        by_platform = summary[metric] or {}
        for platform in _ordered(by_platform, data.get("platforms") or []):
            by_config = by_platform[platform] or {}
            for config in _ordered(by_config, data.get("configurations") or []):
                by_cell = by_config[config] or {}
                for cell in _ordered(by_cell, cells):
                    c = by_cell[cell] or {}
                    rows.append((metric, platform, config, cell, _num(c.get("value")),
                                 _num(c.get("compared")), _num(c.get("of")),
                                 _num(c.get("count")), _num(c.get("min")),
                                 _num(c.get("max"))))
    return pd.DataFrame(rows, columns=["metric", "platform", "configuration", "cell", "value",
                                       "compared", "of", "count", "min", "max"])


def paper_frame(source):
    """One row per paper value of the experiment file, in its order: metric, platform,
    configuration, workload, value (as the paper reports it, in the metric's comparison
    form), as_reported, source, ours (our value beside it; NaN where there is none or the
    comparison cannot move on that platform) and cannot_move."""
    pd = _pandas()
    data, _ = _read(source)
    columns = ["metric", "platform", "configuration", "workload", "value", "as_reported",
               "source", "ours", "cannot_move"]
    rows = [[_num(e.get(c)) if c in ("value", "ours") else e.get(c) for c in columns]
            for e in data.get("paper") or [] if isinstance(e, dict)]
    return pd.DataFrame(rows, columns=columns)
