"""The plots of an experiment, drawn from its results.json (PNG + SVG, matplotlib).

scripts/plot-experiment.py is its command line: main(["plot-experiment.py", RESULTS, OUTDIR])
writes OUTDIR/<file>.png and OUTDIR/<file>.svg for every entry of results["plots"] and
returns 0. All figures are rendered before any file is renamed into place, so an error
leaves no partial output. Errors print one line `plot-experiment: <file>: <what>` on stderr
and return 2. The output is deterministic: the same results.json gives byte-identical files.
Importing this module selects matplotlib's Agg backend and sets the plots' rcParams, so the
package's __init__ does not import it.

Fields of results.json read here (the experiment runner writes more):
  experiment      {"name", "baseline"}
  platforms       [name, ...]                  one panel per platform, in this order
  configurations  [name, ...]                  order of bars and colours
  workloads       [{"name", "group", "configurations"?}, ...]
                  order on the x axis of bar charts; "configurations": those it runs under
                  (absent: every one)
  groups          [name, ...]                  workload groups (may be empty)
  metrics         [{"name", "label", "compare", "mean", "unit"}, ...]
                  compare: speedup | normalized | difference | none
                  mean: geometric | arithmetic (default: geometric for a ratio)
  sweeps          [{"name", "parameter", "values": [...], "configurations": [...]}]
  summary         {metric: {platform: {configuration: {cell: {"value", "compared",
                  "min"?, "max"?}}}}}
                  cell: a workload name, "geomean" or "group:<g>"; any level may be absent
                  and any number null. Plotted: "compared", or "value" for compare none;
                  min and max (a repeated workload's) as its error bar.
  paper           [{"metric", "platform", "configuration", "workload", "value"}, ...]
  plots           [{"metric", "kind": "bars" | "line", "file", "title"?, "sweep"?,
                    "configurations"?: [name, ...]}, ...]   (bars: those drawn, else all)

bars: one panel per platform, stacked; per workload one bar per configuration, then the
  group means and the overall mean, named as the report names them (geomean, geomean <g>;
  mean, mean <g> for an arithmetic mean). A workload that none of the drawn configurations
  runs is left out, and so is a group left with none. The baseline's bars (all 1.0, or 0 for
  difference) are left out and drawn as a dashed line; a missing cell is a gap marked "x"
  where the bars start. A ratio panel whose numbers all lie within ZOOM is zoomed: its bars
  start at 1.0 and the axis spans the numbers and 1.0 (at least MIN_SPAN) with a margin;
  other bars start at 0. Each bar carries its value, formatted as in the report, when the
  bars are at least LABEL_BAR_IN wide.
line: one panel per platform, side by side; the sweep's values evenly spaced on the x axis,
  one line per workload and the mean as a thick black line; a missing cell breaks the line.
Both: a panel whose every number (values, ranges, paper values) is the baseline's own (1 for
a ratio, 0 for a difference) is not drawn; a line under the title says so, and a figure
with no panel left holds the title and those lines. A repeated workload's min-max over its
repetitions is an error bar. Paper values are hollow black diamonds over their bar or sweep
point.
"""
import json
import math
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import EngFormatter, MaxNLocator  # noqa: E402

DPI = 200
COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442",
          "#999999"]  # Okabe-Ito, colour-blind safe; then repeated with hatching
HATCHES = ["", "////", "....", "xxxx"]
MARKERS = ["o", "s", "^", "v", "P", "X", "<", ">", "h", "*"]
PAPER = dict(marker="D", markersize=5.5, markerfacecolor="none", markeredgecolor="black",
             markeredgewidth=1.1, linestyle="none", label="paper (reported)")
REFERENCE = {"speedup": 1.0, "normalized": 1.0, "difference": 0.0, "none": None}
RATIOS = ("speedup", "normalized")
ZOOM = (0.5, 2.0)      # a ratio panel whose numbers all lie here is zoomed around 1
MIN_SPAN = 0.05        # the least a zoomed axis spans, so that 1.001 does not look like 2
LABEL_PT = 5.5         # value labels' font size
LABEL_BAR_IN = 0.08    # the narrowest bar (inches) that gets a value label
PANEL_AXES_IN = 1.6    # a bar panel's plotting height, inches, about (1.9 with title, ticks)
RANGE_LABEL = "min–max over repetitions"

plt.rcParams.update({
    "font.family": "DejaVu Sans", "font.size": 8, "axes.titlesize": 8.5,
    "axes.labelsize": 8, "legend.fontsize": 7.5, "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5, "axes.linewidth": 0.7, "svg.hashsalt": "gputlm-plot",
    "svg.fonttype": "path", "hatch.linewidth": 0.5, "figure.dpi": DPI,
})


class InputError(Exception):
    pass


def num(x):
    """A finite float, or None for anything else (null, missing, text, NaN)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x) if math.isfinite(x) else None


def get(d, *keys):
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def dict_values(d):
    return d.values() if isinstance(d, dict) else ()


def load(path):
    """Reads and checks results.json; returns [(plot, draw function, its arguments)]."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(getattr(e, "strerror", None) or str(e)) from e
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON: {e}") from e
    if not isinstance(data, dict):
        raise InputError("not a JSON object")
    for key, kind in (("platforms", list), ("configurations", list), ("workloads", list),
                      ("metrics", list), ("plots", list), ("summary", dict)):
        if not isinstance(data.get(key), kind):
            raise InputError(f"missing or malformed `{key}`")
    if not data["platforms"]:
        raise InputError("no platforms")
    data["workloads"] = [w if isinstance(w, dict) else {"name": w} for w in data["workloads"]]
    metrics = {m.get("name"): m for m in data["metrics"] if isinstance(m, dict)}
    sweeps = {s.get("name"): s for s in data.get("sweeps") or [] if isinstance(s, dict)}
    jobs = []
    for i, p in enumerate(data["plots"]):
        file = p.get("file") if isinstance(p, dict) else None
        if not isinstance(file, str) or not file or "/" in file or file.startswith("."):
            raise InputError(f"plots[{i}]: missing or bad file name")
        metric, sweep = metrics.get(p.get("metric")), sweeps.get(p.get("sweep"))
        if metric is None:
            raise InputError(f"plot {file}: unknown metric {p.get('metric')!r}")
        if metric.setdefault("compare", "normalized") not in REFERENCE:
            raise InputError(f"metric {metric['name']}: unknown compare {metric['compare']!r}")
        if p.get("kind") == "bars":
            jobs.append((p, draw_bars, (data, p, metric)))
        elif p.get("kind") == "line":
            if not isinstance(get(sweep, "values"), list) or not sweep["values"]:
                raise InputError(f"plot {file}: unknown or empty sweep {p.get('sweep')!r}")
            jobs.append((p, draw_line, (data, p, metric, sweep)))
        else:
            raise InputError(f"plot {file}: unknown plot kind {p.get('kind')!r}")
    return jobs


def point(data, metric, platform, config, cell):
    """The plotted number of one summary cell, or None."""
    field = "value" if metric["compare"] == "none" else "compared"
    return num(get(data["summary"], metric["name"], platform, config, cell, field))


def paper_values(data, metric):
    """{(platform, configuration, cell): value} of the paper's values for this metric (none
    where the experiment found the comparison cannot move on that platform)."""
    return {(e.get("platform"), e.get("configuration"), e.get("workload", "geomean")):
            num(e.get("value")) for e in data.get("paper") or []
            if isinstance(e, dict) and e.get("metric") == metric["name"]
            and not e.get("cannot_move") and num(e.get("value")) is not None}


def mean_name(metric):
    """The report's name of the metric's mean over workloads (and groups): geomean for a
    geometric mean, mean for an arithmetic one."""
    kind = metric.get("mean") or ("geometric" if metric["compare"] in RATIOS else "arithmetic")
    return "geomean" if kind == "geometric" else "mean"


def number_format(data, metric):
    """The report's format of the metric's plotted numbers (results.cpp, number_format): a
    ratio with three decimals; a difference or a value not compared as an integer when every
    number of its kind in the report is one, else with the decimals that give the largest
    four significant digits (0 to 9)."""
    decimals = 3
    if metric["compare"] not in RATIOS:
        field = "value" if metric["compare"] == "none" else "compared"
        xs = [num(get(c, field)) for by_config in dict_values(get(data["summary"], metric["name"]))
              for cells in dict_values(by_config) for c in dict_values(cells)]
        if metric["compare"] == "difference":
            xs += [num(e.get("value")) for e in data.get("paper") or []
                   if isinstance(e, dict) and e.get("metric") == metric["name"]]
        xs = [x for x in xs if x is not None]
        largest = max((abs(x) for x in xs), default=0.0)
        if largest == 0 or all(x == math.floor(x) for x in xs):
            decimals = 0
        else:
            decimals = min(9, max(0, 3 - math.floor(math.log10(largest))))

    def fmt(v):
        s = f"{v:.{decimals}f}"
        return s[1:] if s.startswith("-") and not s.strip("-0.") else s  # -0.000
    return fmt


def spread(data, metric, platform, config, cell):
    """(min, max) over a repeated workload's repetitions (results.json writes them), or None."""
    c = get(data["summary"], metric["name"], platform, config, cell)
    lo, hi = num(get(c, "min")), num(get(c, "max"))
    return None if lo is None or hi is None else (lo, hi)


def unmoved(platform, numbers, missing, same, fmt):
    """The line that says a panel is not drawn, when every number it would plot (values,
    spreads, paper values) is the baseline's own (`same`: 1 for a ratio, 0 for a
    difference); else None."""
    if same is None or not numbers or any(v != same for v in numbers):
        return None
    gaps = f", {missing} without a result" if missing else ""
    return f"{platform}: every value {fmt(same)}{gaps} (not drawn)"


def labels(data, metric, plot, what):
    """(y label, name of the mean, baseline line (y, label) or None, title)."""
    y = metric.get("label") or metric["name"]
    y += f" ({metric['unit']})" if metric.get("unit") else ""
    base = metric.get("baseline") or get(data, "experiment", "baseline")
    ref = REFERENCE[metric["compare"]]
    ref = None if ref is None or not base else (ref, f"{base} (baseline)")
    title = plot.get("title") or f"{get(data, 'experiment', 'name') or 'experiment'}: {y}{what}"
    return y, mean_name(metric), ref, str(title)


def inches(artist, fig):
    box = artist.get_window_extent(renderer=fig.canvas.get_renderer())
    return box.width / fig.dpi, box.height / fig.dpi


def layout(fig, width, panels_h, title, handles, legend_at_right=False, notes=()):
    """Lays the panels out in width x panels_h inches, then grows the figure for a title
    on top, the notes under it (one line each: the panels not drawn) and a legend on top
    (or at the right), keeping the panels' size in inches. A figure without panels holds
    the title and the notes only."""
    wrap = max(48, int(width * 13))
    t = fig.suptitle(textwrap.fill(title, wrap), fontsize=9, fontweight="bold", va="top")
    t.set_in_layout(False)
    note = None
    if notes:
        note = fig.text(0.5, 1, "\n".join(textwrap.fill(n, int(wrap * 1.1)) for n in notes),
                        ha="center", va="top", fontsize=7.5, color="#333333")
        note.set_in_layout(False)
    panels_h = panels_h if fig.axes else 0.05
    fig.set_size_inches(width, panels_h)
    if fig.axes:
        for _ in range(2):  # the second pass sees the ticks of the final axes size
            fig.tight_layout(pad=0.3, h_pad=0.8, w_pad=1.2)
    sp = fig.subplotpars
    left, right = sp.left * width, sp.right * width
    bottom, top = sp.bottom * panels_h, sp.top * panels_h
    title_h = inches(t, fig)[1]
    note_h = inches(note, fig)[1] + 0.05 if note else 0.0
    w, h = width, panels_h + title_h + note_h + 0.12
    kw = dict(handles=handles, frameon=False, handlelength=1.6)
    if handles and fig.axes and legend_at_right:
        leg = fig.legend(loc="center left", ncol=1 + (len(handles) > 14), **kw)
        w += inches(leg, fig)[0] + 0.1
        leg.set_bbox_to_anchor((right / w, (bottom + top) / 2 / h))
    elif handles and fig.axes:
        for rows in range(1, len(handles) + 1):  # as few rows as fit the width
            leg = fig.legend(loc="upper center", ncol=math.ceil(len(handles) / rows),
                             columnspacing=1.2, **kw)
            if inches(leg, fig)[0] <= width - 0.1 or rows == len(handles):
                break
            leg.remove()
        below_title, h = h - panels_h, h + inches(leg, fig)[1]
        leg.set_bbox_to_anchor((0.5, 1 - below_title / h))
    fig.set_size_inches(w, h)
    if fig.axes:
        fig.subplots_adjust(left=left / w, right=right / w, bottom=bottom / h, top=top / h)
    t.set_y(1 - 0.06 / h)
    if note:
        note.set_y(1 - (0.06 + title_h + 0.05) / h)


def style(ax, platform):
    """Paper style for a finished panel. Large raw values get SI prefixes (500k, 1.5M)
    rather than an offset text, which would collide with the panel title; others never
    get an offset (1.000 is written 1.000, not 0 with +1 above the axis)."""
    ax.grid(axis="y", color="#d0d0d0", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    if max(abs(y) for y in ax.get_ylim()) >= 1e4:
        ax.yaxis.set_major_formatter(EngFormatter(sep=""))
    else:
        ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(str(platform), loc="left", fontweight="bold", pad=3)


def draw_bars(data, plot, metric):
    ylabel, mean, ref, title = labels(data, metric, plot, "")
    same, fmt = REFERENCE[metric["compare"]], number_format(data, metric)
    base = get(data, "experiment", "baseline")
    chosen = plot.get("configurations") or data["configurations"]
    configs = [c for c in data["configurations"] if c in chosen and (ref is None or c != base)]
    papers = paper_values(data, metric)
    drawn = [w for w in data["workloads"]
             if not isinstance(w.get("configurations"), list)
             or any(c in w["configurations"] for c in configs)]
    cells = [(w.get("name"), str(w.get("name"))) for w in drawn]
    groups = {w.get("group") for w in drawn}
    means = [(f"group:{g}", f"{mean} {g}") for g in data.get("groups") or [] if g in groups]
    means.append(("geomean", mean))
    gap = 0.5 if cells else 0.0  # between the workloads and the means
    xs = list(range(len(cells))) + [len(cells) + gap + i for i in range(len(means))]
    cells += means
    n = max(1, len(configs))
    bar_w = 0.82 / n
    width = min(16.0, max(4.5, 1.0 + len(cells) * (0.14 + 0.085 * n)))
    # Each platform's bars (x, colour, value, spread, paper value); a panel whose numbers are
    # all the baseline's is not drawn.
    panels, notes = [], []
    for platform in data["platforms"]:
        bars = [(x + (ci - (n - 1) / 2) * bar_w, ci,
                 point(data, metric, platform, config, cell),
                 spread(data, metric, platform, config, cell),
                 papers.get((platform, config, cell)))
                for ci, config in enumerate(configs) for x, (cell, _) in zip(xs, cells)]
        numbers = [v for _, _, y, s, p in bars for v in (y, p, *(s or ())) if v is not None]
        note = unmoved(platform, numbers, sum(y is None for _, _, y, _, _ in bars), same, fmt)
        if note:
            notes.append(note)
        else:
            panels.append((platform, bars, numbers))
    # Value labels: written over (or under) each bar when the bar is at least LABEL_BAR_IN
    # wide (the axes are about width - 1 inches wide); upright unless the widest fits flat.
    bar_in = bar_w * (width - 1.0) / (xs[-1] - xs[0] + 1.1)
    texts = [fmt(y) for _, bars, _ in panels for _, _, y, _, _ in bars if y is not None]
    text_w = max(map(len, texts), default=0) * 0.58 * LABEL_PT / 72  # inches, about
    labelled, upright = bar_in >= LABEL_BAR_IN, text_w > bar_in
    room = ((text_w if upright else 1.2 * LABEL_PT / 72) + 5.0 / 72) / PANEL_AXES_IN
    if panels:
        fig, axes = plt.subplots(len(panels), 1, sharex=True, squeeze=False)
        axes = list(axes.flat)
    else:
        fig, axes = plt.figure(), []
    any_missing = any_paper = False
    range_handle = None
    for ax, (platform, bars, numbers) in zip(axes, panels):
        # A ratio whose numbers all lie within ZOOM is drawn zoomed: its bars start at 1 and
        # the axis spans the numbers and 1 (at least MIN_SPAN); other bars start at 0.
        zoom = metric["compare"] in RATIOS and all(ZOOM[0] <= v <= ZOOM[1] for v in numbers)
        start = 1.0 if zoom else 0.0
        ends = numbers + [start] + ([] if same is None else [same])
        lo, hi = min(ends), max(ends)
        if zoom and hi - lo < MIN_SPAN:
            lo, hi = (lo + hi - MIN_SPAN) / 2, (lo + hi + MIN_SPAN) / 2
        up = down = False  # labels above, below the bars
        for bx, ci, y, s, p in bars:
            if p is not None:
                any_paper = True
                ax.plot([bx], [p], zorder=4, **PAPER)
            if y is None:  # a gap, marked where the bars start
                any_missing = True
                ax.text(bx, start, "×", ha="center", va="bottom", color="#888888", fontsize=7)
                continue
            ax.bar(bx, y - start, bar_w, bottom=start, color=COLORS[ci % 8],
                   hatch=HATCHES[ci // 8 % 4], edgecolor="#333333", linewidth=0.4, zorder=2)
            if s:
                bar = ax.errorbar([bx], [(s[0] + s[1]) / 2], yerr=[(s[1] - s[0]) / 2],
                                  fmt="none", ecolor="black", elinewidth=0.6, capsize=1.6,
                                  capthick=0.6, zorder=3)
                range_handle = range_handle or bar
            if labelled:
                rising = y >= start
                tips = [y, *(s or ()), *([] if p is None else [p])]
                tip = max(tips) if rising else min(tips)
                off = 1.5 if tip != p else 5.0  # clear of a paper diamond
                ax.annotate(fmt(y), (bx, tip), xytext=(0, off if rising else -off),
                            textcoords="offset points", ha="center",
                            va="bottom" if rising else "top", rotation=90 if upright else 0,
                            fontsize=LABEL_PT, color="#222222", zorder=5)
                up, down = up or rising, down or not rising
        top = 0.05 + (room if up else 0.0)
        bottom = 0.05 + (room if down else 0.0) if zoom or lo < start else 0.0
        scale = ((hi - lo) or 1.0) / (1 - top - bottom)
        ax.set_ylim(lo - bottom * scale, hi + top * scale)
        if ref is not None:
            ax.axhline(ref[0], color="black", linestyle="--", linewidth=0.8, zorder=3)
        if gap:
            ax.axvline(len(cells) - len(means) - 0.5 + gap / 2, color="#999999",
                       linewidth=0.6, linestyle=":")
        ax.set_xlim(xs[0] - 0.55, xs[-1] + 0.55)
        # Wrapped to the panel's height (1.9 in, about 26 characters of the axis font), so
        # that the stacked panels' labels do not run into each other.
        ax.set_ylabel(textwrap.fill(ylabel, 26))
        style(ax, platform)
    names = [label for _, label in cells]
    longest = max(len(name) for name in names)
    rotated = longest * 0.058 > (width - 1.0) / len(cells)  # wider than its slot, inches
    if axes:
        axes[-1].set_xticks(xs)
        axes[-1].set_xticklabels(names, **(dict(rotation=35, ha="right",
                                                rotation_mode="anchor") if rotated else {}))
        axes[-1].tick_params(axis="x", length=0)
    handles = [Patch(facecolor=COLORS[i % 8], hatch=HATCHES[i // 8 % 4], edgecolor="#333333",
                     linewidth=0.4, label=str(c)) for i, c in enumerate(configs)]
    if ref is not None:
        handles.append(Line2D([], [], color="black", linestyle="--", linewidth=0.8, label=ref[1]))
    if range_handle:
        range_handle.set_label(RANGE_LABEL)
        handles.append(range_handle)
    if any_paper:
        handles.append(Line2D([], [], **PAPER))
    if any_missing:
        handles.append(Line2D([], [], marker="x", color="#888888", linestyle="none",
                              markersize=4, label="no result"))
    layout(fig, width, 1.9 * len(axes) + 0.3 + (0.033 * longest if rotated else 0.15),
           title, handles, notes=notes)
    return fig


def draw_line(data, plot, metric, sweep):
    ylabel, mean, ref, title = labels(data, metric, plot, f" vs. {sweep.get('name')}")
    same, fmt = REFERENCE[metric["compare"]], number_format(data, metric)
    values = [str(v) for v in sweep["values"]]
    configs = sweep.get("configurations") or [f"{sweep.get('name')}={v}" for v in values]
    configs = (list(configs) + [None] * len(values))[:len(values)]  # one per value
    papers, xs = paper_values(data, metric), list(range(len(values)))
    panel_w = max(2.6, min(4.0, 0.9 + 0.45 * len(values)))
    longest = max(len(v) for v in values)
    rotated = longest * 0.058 > (panel_w - 0.7) / len(values)  # wider than its slot, inches
    series = [(w.get("name"), str(w.get("name")), dict(color=COLORS[i % 8], linewidth=1.0,
               marker=MARKERS[i % len(MARKERS)], markersize=3.5))
              for i, w in enumerate(data["workloads"])]
    series.append(("geomean", mean, dict(color="black", linewidth=2.4, marker="o",
                                         markersize=4.5)))
    panels, notes = [], []
    for platform in data["platforms"]:
        ys = [[point(data, metric, platform, c, cell) for c in configs] for cell, _, _ in series]
        spreads = [[spread(data, metric, platform, c, cell) for c in configs]
                   for cell, _, _ in series]
        marks = [(x, papers[(platform, c, cell)]) for x, c in zip(xs, configs)
                 for cell, _, _ in series if (platform, c, cell) in papers]
        numbers = [v for row in ys for v in row if v is not None] + [p for _, p in marks]
        numbers += [v for row in spreads for s in row if s for v in s]
        note = unmoved(platform, numbers, sum(v is None for row in ys for v in row), same, fmt)
        if note:
            notes.append(note)
        else:
            panels.append((platform, ys, spreads, marks))
    if panels:
        fig, axes = plt.subplots(1, len(panels), squeeze=False)
        axes = list(axes.flat)
    else:
        fig, axes = plt.figure(), []
    handles = []
    for ax, (platform, ys, spreads, marks) in zip(axes, panels):
        lines = [ax.plot(xs, [math.nan if y is None else y for y in row], label=label,
                         zorder=3, **kw)[0] for row, (_, label, kw) in zip(ys, series)]
        ranges = []
        for row, (_, _, kw) in zip(spreads, series):
            at = [(x, s) for x, s in zip(xs, row) if s]
            if at:
                ranges.append(ax.errorbar([x for x, _ in at], [(s[0] + s[1]) / 2 for _, s in at],
                                          yerr=[(s[1] - s[0]) / 2 for _, s in at], fmt="none",
                                          ecolor=kw["color"], elinewidth=0.7, capsize=2.0,
                                          capthick=0.7, zorder=2))
        if ref is not None:
            lines.append(ax.axhline(ref[0], color="#555555", linestyle="--", linewidth=0.8,
                                    label=ref[1]))
        drawn = [ax.plot([x], [p], zorder=5, **PAPER)[0] for x, p in marks]
        handles = handles or lines
        if ranges and not any(h.get_label() == RANGE_LABEL for h in handles):
            ranges[0].set_label(RANGE_LABEL)
            handles.append(ranges[0])
        handles += [] if any(h.get_label() == PAPER["label"] for h in handles) else drawn[:1]
        ax.set_xticks(xs)
        ax.set_xticklabels(values, **(dict(rotation=35, ha="right", rotation_mode="anchor")
                                      if rotated else {}))
        ax.set_xlim(-0.4, len(values) - 0.6)
        ax.set_xlabel(str(sweep.get("parameter") or sweep.get("name")))
        style(ax, platform)
    if axes:
        axes[0].set_ylabel(ylabel)
    layout(fig, panel_w * max(1, len(axes)), 2.55 + (0.033 * longest if rotated else 0.15),
           title, handles, legend_at_right=True, notes=notes)
    return fig


def main(argv):
    if len(argv) != 3:
        return print("usage: plot-experiment.py RESULTS.json OUTDIR", file=sys.stderr) or 2
    results, outdir = argv[1], argv[2]
    temps = []
    try:
        jobs = load(results)
        os.makedirs(outdir, exist_ok=True)
        for plot, draw, args in jobs:
            fig = draw(*args)
            for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
                temps.append((os.path.join(outdir, f".{plot['file']}.{ext}.tmp"),
                              os.path.join(outdir, f"{plot['file']}.{ext}")))
                fig.savefig(temps[-1][0], format=ext, dpi=DPI, metadata=meta)
            plt.close(fig)
        for tmp, final in temps:
            os.replace(tmp, final)
        return 0
    except InputError as e:
        print(f"plot-experiment: {results}: {e}", file=sys.stderr)
    except OSError as e:
        print(f"plot-experiment: {e.filename or outdir}: {e.strerror or e}", file=sys.stderr)
    except Exception as e:  # a bug or an input shape nobody foresaw: still one line
        print(f"plot-experiment: {results}: {type(e).__name__}: {e}", file=sys.stderr)
    for tmp, _ in temps:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
