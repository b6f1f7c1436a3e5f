#!/usr/bin/env bash
# Replay speed of two gputlm builds on the same workloads, runs alternated so that machine
# load hits both alike: min and mean user CPU seconds per build and workload, and the
# relative difference of the minima. A timed run, not a unit test. Usage:
#   bench/core/compare_speed.sh BUILD_A BUILD_B [RUNS] [PLATFORM.yaml]
# e.g. the cost of a change with tracing off: a build of the commit before it against one
# of the change (git worktree add ../before <commit>; cmake ... ).
set -euo pipefail
cd "$(dirname "$0")/../.."
a=$1 b=$2 runs=${3:-5} platform=${4:-yaml/volta.yaml}
for bin in "$a/sc_main/gputlm" "$b/sc_main/gputlm"; do
  [ -x "$bin" ] || { echo "no $bin"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen="$b/sc_main/gputlm"
"$gen" trace gen sgemm_tiled -p M=256 -p N=256 -p K=256 -o "$work/sgemm" >/dev/null
"$gen" trace convert "$work/sgemm" "$work/sgemm_256.gtb" >/dev/null
"$gen" trace gen vectoradd -p n=1000000 -o "$work/va" >/dev/null
"$gen" trace convert "$work/va" "$work/vectoradd_1m.gtb" >/dev/null
for t in sgemm_256 vectoradd_1m; do
  for ((i = 0; i < runs; ++i)); do
    for side in A B; do
      dir=$a; [ $side = B ] && dir=$b
      # Each build with its own copy of the platform (the YAML schema may differ).
      yaml="$dir/../$platform"; [ -f "$yaml" ] || yaml=$platform
      /usr/bin/time -f "$t $side %U" "$dir/sc_main/gputlm" run "$yaml" "$work/$t.gtb" \
        --no-tb-log >/dev/null 2>>"$work/times"
    done
  done
done
python3 - "$work/times" <<'PY'
import collections, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3:
        t[(parts[0], parts[1])].append(float(parts[2]))
print("%-14s %8s %8s %8s %8s %8s" % ("workload", "A min", "A mean", "B min", "B mean", "B/A-1"))
for w in sorted({k[0] for k in t}):
    a, b = t[(w, "A")], t[(w, "B")]
    print("%-14s %8.2f %8.2f %8.2f %8.2f %+7.1f%%" % (
        w, min(a), sum(a) / len(a), min(b), sum(b) / len(b), 100 * (min(b) / min(a) - 1)))
PY
