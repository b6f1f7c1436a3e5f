#!/usr/bin/env bash
# Host instructions and data-cache misses of whole `gputlm run`s, counted by valgrind's
# cachegrind: the same binary and inputs give the same counts, so a change can be judged on
# a shared machine whose timings move by tens of percent. Data caches of a 48 KiB L1 and a
# 2 MiB last level, about one host core's own (docs/performance.md). Not a unit test, and
# slow (valgrind). Usage:
#   bench/core/count_instructions.sh BUILD [PLATFORM...]     (default: volta fermi)
# Prints per platform and workload: instructions, L1 and L2 data misses, and the functions
# with the most instructions (the cachegrind files stay in $OUT, default a temporary dir).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: count_instructions.sh BUILD [PLATFORM...]}
shift
platforms=("$@")
[ ${#platforms[@]} -eq 0 ] && platforms=(volta fermi)
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
bin="$build/sc_main/gputlm"
[ -x "$bin" ] || { echo "no $bin"; exit 1; }
out=${OUT:-$(mktemp -d)}
"$bin" trace gen sgemm_tiled -p M=256 -p N=256 -p K=256 -o "$out/sgemm" >/dev/null
"$bin" trace convert "$out/sgemm" "$out/sgemm_256.gtb" >/dev/null
"$bin" trace gen vectoradd -p n=1000000 -o "$out/va" >/dev/null
"$bin" trace convert "$out/va" "$out/vectoradd_1m.gtb" >/dev/null
for p in "${platforms[@]}"; do
  for t in vectoradd_1m sgemm_256; do
    f="$out/cg.$p.$t"
    valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64 \
      --cachegrind-out-file="$f" "$bin" run "yaml/$p.yaml" "$out/$t.gtb" --no-tb-log \
      >/dev/null 2>"$f.log"
    python3 - "$f" "$p" "$t" <<'PY'
import collections, sys
events, fn, tot = None, None, collections.defaultdict(lambda: None)
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        events = line.split()[1:]
    elif line.startswith("fn="):
        fn = line[3:].strip()
    elif line[:1].isdigit():
        v = list(map(int, line.split()[1:]))
        if tot[fn] is None:
            tot[fn] = [0] * len(events)
        for i, x in enumerate(v):
            tot[fn][i] += x
ix = {e: i for i, e in enumerate(events)}
s = [sum(t[i] for t in tot.values() if t) for i in range(len(events))]
print("%s %s: %.3f G instructions, L1d misses %.1f M, L2 misses %.2f M" % (
    sys.argv[2], sys.argv[3], s[ix["Ir"]] / 1e9, (s[ix["D1mr"]] + s[ix["D1mw"]]) / 1e6,
    (s[ix["DLmr"]] + s[ix["DLmw"]]) / 1e6))
for k, v in sorted(tot.items(), key=lambda kv: -kv[1][ix["Ir"]])[:8]:
    print("  %5.1f %%  %s" % (100.0 * v[ix["Ir"]] / s[ix["Ir"]], k[:100]))
PY
  done
done
