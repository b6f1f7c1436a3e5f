#!/usr/bin/env python3
"""The determinism gate: every platform and variant, every mechanism on and off.

Runs each case of runs.txt (a platform, a trace or generator invocation, options) with
--no-wall-clock, flattens its statistics into sorted `path = value` lines (so that the
digest does not depend on how the JSON nests blocks and keys) and writes one digest per
case. A refactoring must leave every digest unchanged; a change that moves the model on
purpose regenerates expected.txt and says so.

    bench/gate/gate.py                      # run all, compare with bench/gate/expected.txt
    bench/gate/gate.py --write              # run all, rewrite expected.txt
    bench/gate/gate.py --only spu --keep DIR  # a subset; keep the flattened statistics
    bench/gate/gate.py --diff OLD_DIR NEW_DIR # first differing lines of kept statistics
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def flatten(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}[{i}]", out)
    else:
        out.append(f"{prefix} = {json.dumps(value)}")


def read_cases(path):
    cases = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) < 3:
                sys.exit(f"{path}:{n}: expected 'name | platform | trace | options'")
            name, platform, trace = parts[:3]
            opts = parts[3] if len(parts) > 3 else ""
            cases.append((name, platform, trace, opts))
    return cases


def make_trace(gputlm, trace, scratch):
    """A sample path, or `gen NAME k=v ...` generated once into scratch."""
    if not trace.startswith("gen "):
        return os.path.join(ROOT, trace)
    words = shlex.split(trace)[1:]
    key = hashlib.sha1(trace.encode()).hexdigest()[:12]
    out = os.path.join(scratch, "trace-" + key)
    if not os.path.exists(out):
        cmd = [gputlm, "trace", "gen", words[0]]
        for w in words[1:]:
            if w.startswith("--"):
                cmd.append(w)
            else:
                cmd += ["-p", w]
        cmd += ["-o", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out


def run_case(gputlm, case, scratch, keep):
    name, platform, trace, opts = case
    stats = os.path.join(scratch, name + ".json")
    cmd = [gputlm, "run", os.path.join(ROOT, platform), trace, "--stats", stats, "--stats-form=full",
           "--no-wall-clock"] + shlex.split(opts)
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        return name, "FAILED(exit %d): %s" % (r.returncode, r.stderr.strip().splitlines()[-1:])
    with open(stats) as f:
        data = json.load(f)
    lines = []
    flatten(data, "", lines)
    lines.sort()
    # A generated trace's path names the scratch folder: not part of the result.
    text = ("\n".join(lines) + "\n").replace(scratch, "<generated>")
    if keep:
        with open(os.path.join(keep, name + ".txt"), "w") as f:
            f.write(text)
    os.remove(stats)
    return name, hashlib.sha256(text.encode()).hexdigest()[:16]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gputlm", default=os.path.join(ROOT, "build/sc_main/gputlm"))
    ap.add_argument("--runs", default=os.path.join(HERE, "runs.txt"))
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.txt"))
    ap.add_argument("--write", action="store_true", help="rewrite the expected digests")
    ap.add_argument("--only", help="cases whose name contains this")
    ap.add_argument("--keep", help="write each case's flattened statistics here")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    ap.add_argument("--digests-of", metavar="DIR",
                    help="print the digests of statistics kept earlier (--keep) in DIR")
    a = ap.parse_args()

    if a.digests_of:
        for n, _, _, _ in read_cases(a.runs):
            f = os.path.join(a.digests_of, n + ".txt")
            if os.path.exists(f):
                text = open(f).read()
                print(n, hashlib.sha256(text.encode()).hexdigest()[:16])
        return 0

    if a.diff:
        bad = 0
        for f in sorted(os.listdir(a.diff[0])):
            old = sorted(open(os.path.join(a.diff[0], f)).read().splitlines())
            newp = os.path.join(a.diff[1], f)
            if not os.path.exists(newp):
                print(f"{f}: missing in {a.diff[1]}")
                bad += 1
                continue
            new = sorted(open(newp).read().splitlines())
            if old != new:
                bad += 1
                so, sn = set(old), set(new)
                print(f"{f}: {len(so - sn)} lines only before, {len(sn - so)} only after")
                for l in sorted(so - sn)[:5]:
                    print("  - " + l)
                for l in sorted(sn - so)[:5]:
                    print("  + " + l)
        return 1 if bad else 0

    cases = read_cases(a.runs)
    if a.only:
        cases = [c for c in cases if a.only in c[0]]
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gputlm-gate-") as scratch:
        prepared = [(n, p, make_trace(a.gputlm, t, scratch), o) for n, p, t, o in cases]
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
            results = list(ex.map(lambda c: run_case(a.gputlm, c, scratch, a.keep), prepared))
    digests = dict(results)
    if a.write:
        with open(a.expected, "w") as f:
            f.write("# bench/gate/gate.py --write: one digest of flattened statistics per case\n")
            for n, _, _, _ in read_cases(a.runs):
                if n in digests:
                    f.write(f"{n} {digests[n]}\n")
        failed = [n for n, d in results if d.startswith("FAILED")]
        for n in failed:
            print(f"{n}: {digests[n]}")
        print(f"{len(results)} cases written to {a.expected}")
        return 1 if failed else 0
    expected = {}
    if os.path.exists(a.expected):
        for line in open(a.expected):
            if line.startswith("#") or not line.strip():
                continue
            n, d = line.split()
            expected[n] = d
    bad = 0
    for n, d in results:
        if expected.get(n) != d:
            bad += 1
            print(f"{n}: {d} (expected {expected.get(n, 'nothing')})")
    print(f"{len(results) - bad} of {len(results)} cases identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
