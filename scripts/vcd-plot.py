#!/usr/bin/env python3
"""Draws signals of a gputlm VCD file as stacked step plots (PNG), time in core cycles.

    scripts/vcd-plot.py run.vcd out.png --clock-mhz 700 [--signal gpu.cb(7).write_fill ...]

Without --signal every signal of the file is drawn, in file order. A view for documents
and for machines without GTKWave; the VCD itself opens in GTKWave (docs/waveforms.md).
"""
import argparse
import sys


def parse(path):
    """{full name: [(time_fs, value)]}, names in file order."""
    scale = 1
    scopes, ids, series = [], {}, {}
    time = 0
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "$timescale":
                unit = {"fs": 1, "ps": 10**3, "ns": 10**6, "us": 10**9}
                scale = int(t[1]) * unit[t[2]]
            elif t[0] == "$scope":
                scopes.append(t[2])
            elif t[0] == "$upscope":
                scopes.pop()
            elif t[0] == "$var":
                name = ".".join(scopes + [t[4]])
                ids.setdefault(t[3], []).append(name)
                series[name] = []
            elif t[0].startswith("#"):
                time = int(t[0][1:]) * scale
            elif t[0][0] == "b" and len(t) == 2:
                for n in ids.get(t[1], []):
                    series[n].append((time, int(t[0][1:], 2)))
            elif t[0][0] in "01" and len(t) == 1:
                for n in ids.get(t[0][1:], []):
                    series[n].append((time, int(t[0][0])))
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vcd")
    ap.add_argument("png")
    ap.add_argument("--clock-mhz", type=float, default=1000.0, help="core clock for the time axis")
    ap.add_argument("--signal", action="append", default=[], help="full name, as gpu.cb(7).write_fill")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    series = parse(a.vcd)
    names = a.signal or list(series)
    missing = [n for n in names if n not in series]
    if missing:
        print(f"vcd-plot.py: {a.vcd}: no signal {missing[0]} (has: {', '.join(series)})", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    period_fs = 1e9 / a.clock_mhz
    end = max((s[-1][0] for s in series.values() if s), default=0) / period_fs
    fig, axes = plt.subplots(len(names), 1, sharex=True, figsize=(11, 1.1 * len(names) + 0.8))
    if len(names) == 1:
        axes = [axes]
    for ax, n in zip(axes, names):
        pts = series[n]
        xs = [t / period_fs for t, _ in pts] + [end]
        ys = [v for _, v in pts] + [pts[-1][1] if pts else 0]
        ax.step(xs, ys, where="post", linewidth=1)
        ax.set_ylabel(n.split(".", 1)[-1], rotation=0, ha="right", va="center", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.margins(x=0)
    axes[-1].set_xlabel("core cycles")
    if a.title:
        axes[0].set_title(a.title, fontsize=9)
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
