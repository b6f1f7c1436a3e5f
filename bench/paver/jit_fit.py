#!/usr/bin/env python3
"""Fits the host-time model of PAVER's JIT grouping to this machine.

PAVER's JIT pass (Tripathy thesis §3.4) runs Prim's algorithm or METIS on each kernel's
locality graph before the kernel starts, and the thesis adds that host time to kernel time.
gputlm counts the pass's work in statistics (paver_jit_calls: Prim and METIS calls;
paver_jit_entries: vertices + adjacency entries handed to them) and models its time as

    paver_jit_ns = calls x jit_ns_per_call + entries x jit_ns_per_entry

so that results stay deterministic, with constants per policy (k-way-TS calls METIS's k-way partition once
per kernel and Prim once per part, RB-TS METIS's bisection once per split, MST-TS Prim
once per kernel). This script measures the host time: it replays each
kernel of its set under MST-TS, k-way-TS and RB-TS on the GTX480 and the TITAN V with the
locality graphs already cached (a first run builds them), reads the measured partition time
(the summary's analysis_seconds, which with cached graphs is the partition alone) beside the
two counts, and fits the two constants of each policy by least squares on relative error (each run weighs
the same whatever its size), both kept non-negative. It prints every run and the fit.

    bench/paver/jit_fit.py [--gputlm build/sc_main/gputlm] [--work DIR] [--repeats N]
                           [--remeasure]

Measurements are kept in DIR/runs.csv (default build/paver-jit-fit/): a later call measures
only what is missing there (all with --remeasure) and fits on everything.

Host time varies with the machine and its load: run it on an idle machine.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (name, generator, parameters): kernels of yaml/experiments/paver.yaml, small to large graphs,
# one kernel to 29.
KERNELS = [
    ("syrk", "syrk", ["n=256", "k=64"]),
    ("mm", "sgemm_naive", ["M=208", "N=208", "K=208"]),
    ("hotspot", "hotspot", ["n=512", "pyramid_height=2", "iterations=2"]),
    ("pathfinder", "pathfinder", []),
    ("dwt2d", "dwt2d", []),
    ("mergesort", "mergesort", ["n=131072"]),
    ("btree", "btree", ["queries=2000"]),
    ("bfs", "bfs", ["scale=16"]),
    ("spmv", "spmv", ["rows=65536"]),
]
PLATFORMS = [("fermi", "yaml/fermi.yaml"), ("volta", "yaml/volta.yaml")]
POLICIES = ["mst_ts", "kway_ts", "rb_ts"]


def run(gputlm, platform, trace, policy, stats):
    subprocess.run([gputlm, "run", os.path.join(ROOT, platform), trace, "--set",
                    "smx.scheduler_policy=gto", "--set", f"smx_scheduler.policy={policy}",
                    "--stats", stats, "--stats-form=full", "--no-tb-log"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(stats) as f:
        d = json.load(f)
    s = d["blocks"]["gpu.smx_scheduler"]
    return (s["paver_jit_calls"], s["paver_jit_entries"], d["analysis_seconds"])


def least_squares(x, t):
    """(a, b) >= 0 minimising the sum of ((a x0 + b x1 - t) / t)^2: the 2 x 2 normal
    equations; a negative constant is held at 0 and the other refitted."""
    rows = [(x0 / ti, x1 / ti) for (x0, x1), ti in zip(x, t)]
    s00 = sum(r[0] * r[0] for r in rows)
    s01 = sum(r[0] * r[1] for r in rows)
    s11 = sum(r[1] * r[1] for r in rows)
    y0 = sum(r[0] for r in rows)  # right-hand side: each weighted target is 1
    y1 = sum(r[1] for r in rows)
    det = s00 * s11 - s01 * s01
    if det > 0:
        a = (y0 * s11 - y1 * s01) / det
        b = (s00 * y1 - s01 * y0) / det
        if a >= 0 and b >= 0:
            return a, b
    a1 = y0 / s00 if s00 else 0.0
    b1 = y1 / s11 if s11 else 0.0
    cost = lambda a, b: sum((a * r[0] + b * r[1] - 1) ** 2 for r in rows)
    return (a1, 0.0) if cost(a1, 0.0) <= cost(0.0, b1) else (0.0, b1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gputlm", default=os.path.join(ROOT, "build/sc_main/gputlm"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build/paver-jit-fit"))
    ap.add_argument("--repeats", type=int, default=1, help="measured runs per point (median)")
    ap.add_argument("--remeasure", action="store_true", help="measure again what runs.csv has")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    log = os.path.join(a.work, "runs.csv")
    kept = {}
    if os.path.exists(log) and not a.remeasure:
        with open(log) as f:
            for r in csv.reader(f):
                kept[tuple(r[:3])] = (r[0], r[1], r[2], float(r[3]), float(r[4]), float(r[5]))
    rows = []
    for name, gen, params in KERNELS:
        if all((name, p, q) in kept for p, _ in PLATFORMS for q in POLICIES):
            rows += [kept[(name, p, q)] for p, _ in PLATFORMS for q in POLICIES]
            continue
        trace = os.path.join(a.work, name)
        if not os.path.exists(os.path.join(trace, "kernelslist.g")):
            cmd = [a.gputlm, "trace", "gen", gen, "--arch", "35", "-o", trace, "--force"]
            for p in params:
                cmd += ["-p", p]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        stats = os.path.join(a.work, name + ".json")
        run(a.gputlm, PLATFORMS[0][1], trace, "kway_ts", stats)  # builds the graph cache
        for pname, platform in PLATFORMS:
            for policy in POLICIES:
                got = [run(a.gputlm, platform, trace, policy, stats) for _ in range(a.repeats)]
                calls, entries = got[0][0], got[0][1]
                ns = statistics.median(g[2] for g in got) * 1e9
                rows.append((name, pname, policy, calls, entries, ns))
                with open(log, "a") as f:
                    csv.writer(f).writerow(rows[-1])
                print(f"{name:10} {pname:6} {policy:8} calls {calls:8.0f} entries {entries:11.0f}"
                      f" host {ns / 1e6:9.3f} ms", flush=True)
    for policy in POLICIES:
        mine = [r for r in rows if r[2] == policy]
        fit = least_squares([(r[3], r[4]) for r in mine], [r[5] for r in mine])
        err = sorted(abs(fit[0] * r[3] + fit[1] * r[4] - r[5]) / r[5] for r in mine)
        print(f"fit {policy:8}: jit_ns_per_call {fit[0]:.0f}  jit_ns_per_entry {fit[1]:.1f}  "
              f"(relative error median {statistics.median(err):.2f}, max {err[-1]:.2f}, "
              f"{len(mine)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
