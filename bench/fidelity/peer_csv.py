#!/usr/bin/env python3
"""Write peer.csv from Accel-Sim runs made by run-pair.sh (.../peer only).

  peer_csv.py RESULTS_DIR CASES.csv OUT.csv

RESULTS_DIR/<platform>/<case>/peer/{peer.log,time.txt,rc}. A run that failed (rc != 0, no
cycles) or is missing gets no row. The figures are those of the peer's collect.py:
  cycles            gpu_tot_sim_cycle of the last kernel (the whole trace)
  warp_instructions gpgpu_n_tot_w_icount
  l1_load_hit_pct   Total_core_cache_stats_breakdown[GLOBAL_ACC_R], 1-(MISS+SECTOR_MISS)/(HIT+
                    HIT_RESERVED+MISS+SECTOR_MISS), per 32 B sector; n/a when no global load
                    reaches L1 (TITAN X: global loads bypass it; write-only cases)
  l2_read_hit_pct   L2_cache_stats_breakdown[GLOBAL_ACC_R], the same
  dram_reads/writes per-channel n_rd+n_rd_L2_A / n_write+n_wr_bk of the last DRAM[i] block
                    (column accesses, each of the config's atom: a read sector one, a
                    write-back ceil(bytes / atom))
  peer_wall_s       /usr/bin/time elapsed of the whole peer command."""
import csv
import os
import re
import sys

PLATFORMS = ("titanv", "titanx", "gtx480")
HEADER = """# Accel-Sim ("the peer") on the cases of cases.csv, for compare-set.sh: accel-sim-framework
# 73f9fac, gpgpu-sim 667834cf (dev), trace mode; configs SM7_TITANV (titanv, --arch 70 traces),
# SM6_TITANX (titanx) and SM2_GTX480 (gtx480, both --arch 61 traces: Accel-Sim has no Fermi
# opcode map), the shipped gpgpusim.config with -power_simulation_enabled 0; SM2_GTX480's
# trace.config is home-made from its own latencies (int/sp 4,1; dp 8,8; sfu 20,8). Measured %s.
# Hit rates per 32 B sector (MSHR merges as hits; n/a: no global load reached that cache, e.g.
# TITAN X's L1, which loads bypass, or a write-only case); DRAM reads/writes count column accesses;
# peer_wall_s: one single-threaded run (nice 5) on this project's 2-core machine, beside a compile.
"""


def last_num(text, key):
    m = re.findall(r"^\s*" + re.escape(key) + r"\s*=\s*(-?[0-9.]+)", text, re.M)
    return float(m[-1]) if m else None


def hit_pct(text, prefix):
    d = {}
    for st in ("HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS"):
        m = re.findall(r"%s\[GLOBAL_ACC_R\]\[%s\] = (\d+)" % (re.escape(prefix), st), text)
        d[st] = int(m[-1]) if m else 0
    tot = sum(d.values())
    return None if tot == 0 else 100.0 * (1.0 - (d["MISS"] + d["SECTOR_MISS"]) / tot)


def wall_seconds(path):
    if not os.path.exists(path):
        return None
    for line in open(path):
        line = line.strip()
        if line.startswith("Elapsed (wall clock)"):
            s = 0.0
            for p in line.split(": ")[-1].split(":"):
                s = s * 60 + float(p)
            return s
    return None


def parse(d):
    log, rcf = os.path.join(d, "peer.log"), os.path.join(d, "rc")
    if not (os.path.exists(log) and os.path.exists(rcf)) or open(rcf).read().strip() != "0":
        return None
    text = open(log, errors="replace").read()
    cycles = last_num(text, "gpu_tot_sim_cycle")
    if cycles is None or "unsupported binary version" in text:
        return None
    ch = {}
    for m in re.finditer(r"^DRAM\[(\d+)\]: .*busW=(\d+) BL=(\d+).*\n.*n_rd=(\d+) n_rd_L2_A=(\d+) "
                         r"n_write=(\d+) n_wr_bk=(\d+)", text, re.M):
        ch[int(m.group(1))] = [int(x) for x in m.groups()[3:]]
    return {
        "warp_instructions": int(last_num(text, "gpgpu_n_tot_w_icount")),
        "cycles": int(cycles),
        "l1_load_hit_pct": hit_pct(text, "Total_core_cache_stats_breakdown"),
        "l2_read_hit_pct": hit_pct(text, "L2_cache_stats_breakdown"),
        "dram_reads": sum(v[0] + v[1] for v in ch.values()),
        "dram_writes": sum(v[2] + v[3] for v in ch.values()),
        "peer_wall_s": wall_seconds(os.path.join(d, "time.txt")),
    }


def main():
    root, cases_csv, out = sys.argv[1:4]
    with open(cases_csv) as f:
        cases = [r["case"] for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    date = os.environ.get("PEER_DATE") or __import__("datetime").date.today().isoformat()
    pct = lambda v: "n/a" if v is None else f"{v:.1f}"
    rows = []
    for plat in PLATFORMS:
        for c in cases:
            r = parse(os.path.join(root, plat, c, "peer"))
            if r:
                rows.append([plat, c, r["warp_instructions"], r["cycles"], pct(r["l1_load_hit_pct"]),
                             pct(r["l2_read_hit_pct"]), r["dram_reads"], r["dram_writes"],
                             "" if r["peer_wall_s"] is None else f"{r['peer_wall_s']:.1f}"])
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(HEADER % date)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["platform", "case", "warp_instructions", "cycles", "l1_load_hit_pct",
                    "l2_read_hit_pct", "dram_reads", "dram_writes", "peer_wall_s"])
        w.writerows(rows)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
