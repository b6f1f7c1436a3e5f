#!/usr/bin/env python3
"""The tables of bench/fidelity/compare-set.sh: our replays against the peer's stored numbers.

  compare_set.py CASES.csv PEER.csv RUNS_DIR JOBS [--csv OUT]

RUNS_DIR/<platform>/<case>.json are gputlm statistics; JOBS lists "platform case" lines (the
replays asked for). Figures as the peer's collect.py defines them, so both sides mean the same:
  L1 hit  1-(line_misses+sector_misses)/(accesses-stores-bypassed) over gpu.smx[i].l1 (a load's
          MSHR merge is a hit); the peer's per 32 B sector, n/a where global loads bypass L1.
  L2 hit  1-sector_read_misses/sector_reads over gpu.l2[i] (per 32-byte sector, as the peer
          counts: a Fermi line request is four sector lookups there), less the instruction
          lines the L1Is read (GPGPU-Sim counts them as INST_ACC_R, not GLOBAL_ACC_R): 4 sectors
          per gpu.smx[i].icache_misses, 4 missed per instruction_fill_bytes / 128 (code lines
          miss whole). Builds without the sector counters: per request.
  DRAM MB the bytes on the DRAM bus / 2^20: ours `bytes` over gpu.dram[i] (column accesses x
          atom), the peer's (reads+writes) x its atom (PEER_ATOM: its n_rd and n_wr_bk count
          column accesses; a 32-byte sector on the GTX480's 64-byte atom is 64 on both sides).
gputlm counts hits per request, the peer per sector: read a few points' difference with that
in mind, and compare DRAM traffic in megabytes."""
import csv
import json
import os
import re
import sys

PLATFORMS = {"titanv": "TITAN V: yaml/volta.yaml vs SM7_TITANV",
             "titanx": "TITAN X (Pascal): yaml/pascal.yaml vs SM6_TITANX",
             "gtx480": "GTX 480: yaml/fermi.yaml vs SM2_GTX480 (sm_61 traces)"}


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def ours(path):
    if not os.path.exists(path):
        return None
    s = json.load(open(path))
    sums = {"l1": {}, "l2": {}, "dram": {}, "smx": {}}
    for name, blk in s["blocks"].items():
        if re.fullmatch(r"gpu\.smx\[\d+\]\.l1", name):
            tgt = sums["l1"]
        elif re.fullmatch(r"gpu\.smx\[\d+\]", name):
            tgt = sums["smx"]
        elif re.fullmatch(r"gpu\.l2\[\d+\]", name):
            tgt = sums["l2"]
        elif re.fullmatch(r"gpu\.dram\[\d+\]", name):
            tgt = sums["dram"]
        else:
            continue
        for k, v in blk.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                tgt[k] = tgt.get(k, 0) + v
    l1, l2, dr = sums["l1"], sums["l2"], sums["dram"]
    loads = l1.get("accesses", 0) - l1.get("stores", 0) - l1.get("bypassed", 0)
    code_reads = sums["smx"].get("icache_misses", 0)
    code_misses = l2.get("instruction_fill_bytes", 0) / 128
    reads = l2.get("accesses", 0) - l2.get("writes", 0) - code_reads
    miss = lambda b: b.get("line_misses", 0) + b.get("sector_misses", 0)
    return {
        "cycles": float(s["total_cycles"]),
        "warp_insn": int(s["warp_instructions"]),
        "l1": 100.0 * (1 - miss(l1) / loads) if loads > 0 else None,
        "l2": l2_hit(l2, code_reads, code_misses, reads),
        # The bytes on the DRAM bus: column accesses x atom (a read sector on the GTX480's
        # 64-byte atom moves 64, 32 of them asked for), as the peer's are counted below.
        "dram_mb": dr["bytes"] / 2**20 if "bytes" in dr else None,
    }


# The peer's DRAM atom, the bytes of one column access (GPGPU-Sim dram_atom_size =
# -gpgpu_dram_burst_length x -gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr of each config):
# its n_rd and n_wr_bk count column accesses.
PEER_ATOM = {"titanv": 2 * 16 * 1, "titanx": 8 * 4 * 1, "gtx480": 8 * 4 * 2}


def l2_hit(l2, code_reads, code_misses, reads):
    """The L2's read hit rate in %: per 32-byte sector where the build counts sectors (a line
    request to a sectored L2 is four sector lookups, as GPGPU-Sim breaks it up), per request
    otherwise; instruction reads left out (code lines: 4 sectors, missing whole)."""
    if "sector_reads" in l2:
        sectors = l2["sector_reads"] - 4 * code_reads
        missed = l2["sector_read_misses"] - 4 * code_misses
        return 100.0 * (1 - missed / sectors) if sectors > 0 else None
    miss = l2.get("line_misses", 0) + l2.get("sector_misses", 0)
    return 100.0 * (1 - (miss - code_misses) / reads) if reads > 0 else None


def peer_rows(path):
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            rd, wr = num(r["dram_reads"]), num(r["dram_writes"])
            out[(r["platform"], r["case"])] = {
                "cycles": num(r["cycles"]), "warp_insn": num(r["warp_instructions"]),
                "l1": num(r["l1_load_hit_pct"]), "l2": num(r["l2_read_hit_pct"]),
                "dram_mb": (rd + wr) * PEER_ATOM[r["platform"]] / 2**20
                if rd is not None and wr is not None else None}
    return out


def f(v, spec="{:.1f}"):
    return "n/a" if v is None else spec.format(v)


def summary(label, ratios):
    if not ratios:
        return f"{label}: no case with both sides"
    n = len(ratios)
    mae = sum(abs(r - 1) for r in ratios) / n
    w10 = sum(1 for r in ratios if 0.9 <= r <= 1.1)
    w25 = sum(1 for r in ratios if 0.8 <= r <= 1.25)
    fast = sum(1 for r in ratios if r < 1)
    slow = sum(1 for r in ratios if r > 1)
    worst = max(ratios, key=lambda r: max(r, 1 / r))
    return (f"{label}: n={n}, MAE of cycles {100 * mae:.1f} %, within 0.9-1.1: {w10}/{n}, "
            f"within 0.8-1.25: {w25}/{n}, faster than the peer: {fast}, slower: {slow}, "
            f"worst ratio {worst:.2f}")


def main():
    cases_csv, peer_csv, runs, jobs = sys.argv[1:5]
    out_csv = sys.argv[sys.argv.index("--csv") + 1] if "--csv" in sys.argv else None
    with open(cases_csv) as fh:
        order = [r["case"] for r in csv.DictReader(line for line in fh if not line.startswith("#"))]
    asked = {}
    for line in open(jobs):
        p, c = line.split()
        asked.setdefault(p, set()).add(c)
    peer = peer_rows(peer_csv)
    rows, all_ratios, notes = [], [], []
    for plat in PLATFORMS:
        if plat not in asked:
            continue
        print(f"### {plat} — {PLATFORMS[plat]}\n")
        print("| case | cycles ours | cycles peer | ratio | L1 hit % ours / peer "
              "| L2 hit % ours / peer | DRAM MB ours / peer (ratio) |")
        print("|---|---:|---:|---:|---|---|---|")
        ratios = []
        for c in (c for c in order if c in asked[plat]):
            g = ours(os.path.join(runs, plat, c + ".json"))
            p = peer.get((plat, c))
            ratio = g["cycles"] / p["cycles"] if g and p and p["cycles"] else None
            if ratio is not None:
                ratios.append(ratio)
            dram_ratio = (g["dram_mb"] / p["dram_mb"] if g and p and g["dram_mb"] is not None
                          and p["dram_mb"] else None)
            gv = lambda k: g[k] if g else None
            pv = lambda k: p[k] if p else None
            cyc_ours = f(gv("cycles"), "{:.0f}") if g else "failed"
            print(f"| {c} | {cyc_ours} | {f(pv('cycles'), '{:.0f}')} | "
                  f"{'**' + f(ratio, '{:.2f}') + '**' if ratio else 'n/a'} "
                  f"| {f(gv('l1'))} / {f(pv('l1'))} | {f(gv('l2'))} / {f(pv('l2'))} "
                  f"| {f(gv('dram_mb'), '{:.2f}')} / {f(pv('dram_mb'), '{:.2f}')} "
                  f"({f(dram_ratio, '{:.2f}')}) |")
            if g and p and p["warp_insn"] is not None and g["warp_insn"] != p["warp_insn"]:
                notes.append(f"{plat}/{c}: warp instructions ours {g['warp_insn']}, "
                             f"peer {p['warp_insn']:.0f}")
            rows.append([plat, c, gv("cycles") and int(gv("cycles")), pv("cycles") and int(pv("cycles")), ratio, gv("l1"), pv("l1"),
                         gv("l2"), pv("l2"), gv("dram_mb"), pv("dram_mb")])
        all_ratios += ratios
        print("\n" + summary(f"**{plat}**", ratios) + "\n")
    print(summary("**all platforms**", all_ratios))
    if notes:
        print("\nWarp-instruction counts differ (not the same trace?): " + "; ".join(notes))
    if out_csv:
        with open(out_csv, "w") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["platform", "case", "cycles_ours", "cycles_peer", "ratio", "l1_ours",
                        "l1_peer", "l2_ours", "l2_peer", "dram_mb_ours", "dram_mb_peer"])
            fmt = lambda v: "" if v is None else (f"{v:.4f}" if isinstance(v, float) else v)
            w.writerows([[fmt(v) for v in r] for r in rows])


if __name__ == "__main__":
    main()
