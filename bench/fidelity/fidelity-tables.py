#!/usr/bin/env python3
"""Writes the validation-set tables of docs/fidelity.md from bench/fidelity/results/*.csv
(written by bench/fidelity/ablations.sh, one file per configuration).

Usage: bench/fidelity/fidelity-tables.py [--check] [--results DIR] FILE.md...

A table sits between an opening marker and `<!-- end fidelity -->`; what is between them is
replaced, everything else stays byte for byte:

  <!-- fidelity: cases results=default platform=titanv -->
      one row per case: cycles ours and Accel-Sim's, their ratio, L1 and L2 load hit rates
      and DRAM megabytes, both sides
  <!-- fidelity: summary results=default "shipped"; line_requests "line requests" -->
      one row per configuration and platform: mean absolute error of cycles, cases within
      0.9-1.1 and 0.8-1.25 of Accel-Sim's, faster / slower, worst ratio; and over all

--check writes nothing and exits 1 if a table differs from the results. A malformed marker
or a missing results file is one line `error: FILE:LINE: what`, exit 2, nothing written.
"""
import argparse
import csv
import os
import re
import shlex
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
END = "<!-- end fidelity -->"
PLATFORMS = {"titanv": "TITAN V", "titanx": "TITAN X", "gtx480": "GTX480"}


class Bad(Exception):
    pass


def load(results, name):
    path = os.path.join(results, name + ".csv")
    if not os.path.exists(path):
        raise Bad(f"no results file {os.path.relpath(path)} (run bench/fidelity/ablations.sh {name})")
    with open(path) as fh:
        return list(csv.DictReader(fh))


def num(v):
    return None if v in ("", None) else float(v)


def cell(v, spec):
    return "—" if v is None else spec.format(v)


def stats(ratios):
    n = len(ratios)
    worst = max(ratios, key=lambda r: max(r, 1 / r))
    return [f"{100 * sum(abs(r - 1) for r in ratios) / n:.1f} %",
            f"{sum(1 for r in ratios if 0.9 <= r <= 1.1)} / {n}",
            f"{sum(1 for r in ratios if 0.8 <= r <= 1.25)} / {n}",
            f"{sum(1 for r in ratios if r < 1)} / {sum(1 for r in ratios if r > 1)}",
            f"{worst:.2f}"]


def cases_table(rows, platform):
    out = ["| case | cycles | Accel-Sim | ratio | L1 load hit % | L2 load hit % | DRAM MB |",
           "|---|---:|---:|---:|---|---|---|"]
    for r in rows:
        if r["platform"] != platform:
            continue
        hit = lambda k: f"{cell(num(r[k + '_ours']), '{:.1f}')} / {cell(num(r[k + '_peer']), '{:.1f}')}"
        out.append(f"| {r['case']} | {int(num(r['cycles_ours']))} | {int(num(r['cycles_peer']))} | "
                   f"{num(r['ratio']):.2f} | {hit('l1')} | {hit('l2')} | "
                   f"{cell(num(r['dram_mb_ours']), '{:.3f}')} / {cell(num(r['dram_mb_peer']), '{:.3f}')} |")
    if len(out) == 2:
        raise Bad(f"no case of platform {platform}")
    out.append("")
    out.append("(ours / Accel-Sim's; hit rates per 32-byte sector on both sides where the cache "
               "is sectored, — where no load reached it)")
    return out


def agreement(rows):
    # Hit rates within 1 point and DRAM megabytes within 5 %, of the cases where both sides
    # have the figure (a cache some load reached; some DRAM traffic).
    def close(kind, ok):
        pairs = [(num(r[kind + "_ours"]), num(r[kind + "_peer"])) for r in rows]
        pairs = [(a, b) for a, b in pairs if a is not None and b]
        return f"{sum(1 for a, b in pairs if ok(a, b))} / {len(pairs)}"
    return [close("l1", lambda a, b: abs(a - b) <= 1), close("l2", lambda a, b: abs(a - b) <= 1),
            close("dram_mb", lambda a, b: abs(a / b - 1) <= 0.05)]


def summary_table(results, spec):
    out = ["| configuration | platform | MAE of cycles | within 0.9–1.1 | within 0.8–1.25 "
           "| faster / slower | worst | L1 hit ±1 pt | L2 hit ±1 pt | DRAM MB ±5 % |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, label in spec:
        rows = load(results, name)
        every = []
        for p, pname in PLATFORMS.items():
            mine = [r for r in rows if r["platform"] == p and r["ratio"]]
            if mine:
                every += mine
                out.append(f"| {label} | {pname} | " +
                           " | ".join(stats([num(r["ratio"]) for r in mine]) + agreement(mine)) + " |")
        if len({r["platform"] for r in rows}) > 1:
            out.append(f"| {label} | all | " +
                       " | ".join(stats([num(r["ratio"]) for r in every]) + agreement(every)) + " |")
    return out


def parse_marker(text):
    m = re.fullmatch(r"<!-- fidelity: (cases|summary) (.*) -->", text.strip())
    if not m:
        raise Bad("malformed marker (<!-- fidelity: cases|summary ... -->)")
    kind, rest = m.groups()
    if kind == "cases":
        kv = dict(w.split("=", 1) for w in rest.split() if "=" in w)
        if set(kv) != {"results", "platform"} or kv["platform"] not in PLATFORMS:
            raise Bad("a cases marker takes results=NAME platform=titanv|titanx|gtx480")
        return kind, kv
    m = re.fullmatch(r"results=(.*)", rest.strip())
    if not m:
        raise Bad('a summary marker takes results=NAME "label"; NAME "label"...')
    spec = []
    for part in m.group(1).split(";"):
        words = shlex.split(part)
        if len(words) != 2:
            raise Bad(f"summary entry '{part.strip()}': NAME \"label\"")
        spec.append((words[0], words[1]))
    return kind, spec


def rewrite(path, results):
    lines = open(path).read().split("\n")
    out, i, changed = [], 0, False
    fence = False
    while i < len(lines):
        line = lines[i]
        out.append(line)
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("<!-- fidelity:"):
            try:
                kind, arg = parse_marker(line)
                j = i + 1
                while j < len(lines) and lines[j] != END:
                    j += 1
                if j == len(lines):
                    raise Bad(f"no {END} after the marker")
                table = (cases_table(load(results, arg["results"]), arg["platform"])
                         if kind == "cases" else summary_table(results, arg))
            except Bad as e:
                raise Bad(f"{path}:{i + 1}: {e}")
            if lines[i + 1:j] != table:
                changed = True
            out += table
            out.append(END)
            i = j + 1
            continue
        i += 1
    return "\n".join(out), changed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    new = {}
    try:
        for f in a.files:
            new[f] = rewrite(f, a.results)
    except (Bad, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    differ = [f for f, (_, ch) in new.items() if ch]
    if a.check:
        for f in differ:
            print(f"{f}: tables differ from the results")
        return 1 if differ else 0
    for f in differ:
        text = new[f][0]
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(f)))
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, f)
        print(f"{f}: tables rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
