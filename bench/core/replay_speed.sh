#!/usr/bin/env bash
# Replay speed of the `gputlm run` main job: simulated warp instructions per second (KIPS)
# and simulated core cycles per second, per platform and trace. A timed run, not a unit
# test. Usage:
#   bench/core/replay_speed.sh [BUILD_DIR] [PLATFORM.yaml...]
# Uses the bundled samples plus two larger generated workloads (written to a temp dir).
# LARGE=1 adds the memory-heavy kernels at sizes where the run, not its warm-up, is timed:
# histogram of 262,144 values (80 TBs of global atomics), SpMV of 65,536 rows, BFS and
# BFS with CDP on 2^14-vertex graphs (10-15 s per run of the four, per platform, on the
# machine of docs/performance.md).
# Each run is repeated RUNS times (default 3) and the fastest is reported: on a shared
# machine the other runs measure the neighbours too. wall_s, KIPS and Mcycles/s time the
# simulation itself (the statistics' wall_seconds); command_s is the whole `gputlm run`
# command as a user waits for it (reading the platform and trace, building the platform,
# simulating, writing the statistics), the fastest of the runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(yaml/fermi.yaml yaml/volta.yaml)
gputlm="$build/sc_main/gputlm"
[ -x "$gputlm" ] || { echo "build $gputlm first (make)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
traces=()
for d in traces/samples/*/; do  # traces only (not the locality caches beside them)
  [ -f "$d/kernelslist.g" ] && traces+=("$d")
done
generated() {  # NAME KERNEL [PARAMS...]: a generated workload, as a binary trace, appended
  local name=$1 kernel=$2
  shift 2
  "$gputlm" trace gen "$kernel" "$@" -o "$work/$name" >/dev/null
  "$gputlm" trace convert "$work/$name" "$work/$name.gtb" >/dev/null
  traces+=("$work/$name.gtb")
}
generated sgemm_256 sgemm_tiled -p M=256 -p N=256 -p K=256
generated vectoradd_1m vectoradd -p n=1000000
if [ "${LARGE:-0}" = 1 ]; then
  generated histogram_256k histogram -p n=262144 -p grid=80
  generated spmv_64k spmv -p rows=65536
  generated bfs_s14 bfs -p scale=14
  generated bfs_cdp_s14 bfs_cdp -p scale=14
fi
printf "%-16s %-24s %12s %12s %9s %10s %12s %9s\n" platform trace warp_insts cycles wall_s KIPS Mcycles/s command_s
for p in "${platforms[@]}"; do
  for t in "${traces[@]}"; do
    for ((r = 0; r < ${RUNS:-3}; ++r)); do
      start=$(date +%s%N)
      "$gputlm" run "$p" "$t" --no-tb-log --stats "$work/stats.$r.json" >/dev/null
      echo $(($(date +%s%N) - start)) > "$work/command.$r"
    done
    python3 - "$p" "$t" "$work" "${RUNS:-3}" <<'PY'
import json, os, sys
p, t, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
runs = [json.load(open(f"{work}/stats.{r}.json")) for r in range(n)]
command = min(int(open(f"{work}/command.{r}").read()) for r in range(n)) / 1e9
j = min(runs, key=lambda r: r["wall_seconds"])
w = j["wall_seconds"]
print("%-16s %-24s %12d %12d %9.3f %10.0f %12.3f %9.3f" % (
    os.path.basename(p)[:-5], os.path.basename(t.rstrip("/")), j["warp_instructions"],
    j["total_cycles"], w, j["warp_instructions"] / w / 1e3, j["total_cycles"] / w / 1e6,
    command))
PY
    rm -f "$work"/stats.*.json "$work"/command.*
  done
done
