#!/usr/bin/env python3
"""The table of bench/fidelity/compare.sh: REFERENCE.csv against DIR/<platform>-<workload>.json.

gputlm's hit rates are per request to each cache (a load's MSHR merge counts as a hit, as
Accel-Sim counts it), Accel-Sim's per 32-byte sector: a few points apart mean little. DRAM
traffic is compared in bytes on the bus (Accel-Sim's DRAM reads and writes count column
accesses, each of its config's atom: REF_ATOM)."""
import csv
import json
import math
import sys

# Accel-Sim's DRAM atom per platform (burst length x bus width x chips per channel of each
# config: SM7_TITANV 2 x 16 x 1, SM6_TITANX 8 x 4 x 1, SM2_GTX480 8 x 4 x 2).
REF_ATOM = {"volta": 32.0, "pascal": 32.0, "fermi": 64.0}


def load_stats(path):
    with open(path) as f:
        return json.load(f)


def caches(stats, kind):
    # kind "l1": gpu.smx[i].l1; "l2": gpu.l2[i]
    out = []
    for name, b in stats["blocks"].items():
        if kind == "l1" and name.endswith(".l1"):
            out.append(b)
        elif kind == "l2" and name.startswith("gpu.l2["):
            out.append(b)
    return out


def load_hit_pct(blocks, kind):
    hits = sum(b.get("hits", 0) + b.get("mshr_hits", 0) for b in blocks)
    writes = "stores" if kind == "l1" else "writes"
    loads = sum(b.get("accesses", 0) - b.get(writes, 0) - b.get("bypassed", 0) for b in blocks)
    return None if loads <= 0 else 100.0 * min(hits, loads) / loads


def main():
    ref_path, directory = sys.argv[1], sys.argv[2]
    rows = []
    with open(ref_path) as f:
        for r in csv.reader(line for line in f if not line.startswith("#")):
            if r:
                rows.append(r)
    print("| platform | workload | warp instr (ours / A-S) | cycles ours | cycles A-S | ratio "
          "| L1 ld hit ours / A-S | L2 rd hit ours / A-S | DRAM bytes ratio |")
    print("|---|---|---|---:|---:|---:|---|---|---:|")
    ours_c, theirs_c = [], []
    for platform, workload, winstr, cycles, l1, l2, rd, wr in rows:
        s = load_stats(f"{directory}/{platform}-{workload}.json")
        c_ours, c_ref = float(s["total_cycles"]), float(cycles)
        ours_c.append(c_ours)
        theirs_c.append(c_ref)
        l1_ours = load_hit_pct(caches(s, "l1"), "l1")
        l2_ours = load_hit_pct(caches(s, "l2"), "l2")
        dram = sum(b.get("bytes", 0) for n, b in s["blocks"].items() if n.startswith("gpu.dram["))
        ref_bytes = REF_ATOM[platform] * (float(rd) + float(wr))
        fmt = lambda v: "—" if v is None or v == "" else f"{float(v):.1f}"
        print(f"| {platform} | {workload} | {int(s['warp_instructions'])} / {winstr} "
              f"| {c_ours:.0f} | {c_ref:.0f} | {c_ours / c_ref:.2f} "
              f"| {fmt(l1_ours)} / {fmt(l1) if l1 else 'bypassed/none'} | {fmt(l2_ours)} / {fmt(l2)} "
              f"| {dram / ref_bytes if ref_bytes else float('nan'):.2f} |")
    n = len(ours_c)
    mae = sum(abs(o / t - 1) for o, t in zip(ours_c, theirs_c)) / n
    mo, mt = sum(ours_c) / n, sum(theirs_c) / n
    cov = sum((o - mo) * (t - mt) for o, t in zip(ours_c, theirs_c))
    so = math.sqrt(sum((o - mo) ** 2 for o in ours_c))
    st = math.sqrt(sum((t - mt) ** 2 for t in theirs_c))
    worst = max(max(o / t, t / o) for o, t in zip(ours_c, theirs_c))
    print(f"\n{n} cases: mean absolute error of cycles {100 * mae:.1f} %, "
          f"Pearson correlation {cov / (so * st):.3f}, worst ratio {worst:.2f}")


if __name__ == "__main__":
    main()
