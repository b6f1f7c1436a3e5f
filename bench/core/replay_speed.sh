#!/usr/bin/env bash
# Replay speed of the `gputlm run` main job: simulated warp instructions per second (KIPS)
# and simulated core cycles per second, per platform and trace. A timed run, not a unit
# test. Usage:
#   bench/core/replay_speed.sh [BUILD_DIR] [PLATFORM.yaml...]
# Uses the bundled samples plus two larger generated workloads (written to a temp dir).
# Each run is repeated RUNS times (default 3) and the fastest is reported: on a shared
# machine the other runs measure the neighbours too.
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
"$gputlm" trace gen sgemm_tiled -p M=256 -p N=256 -p K=256 -o "$work/sgemm_256" >/dev/null
"$gputlm" trace convert "$work/sgemm_256" "$work/sgemm_256.gtb" >/dev/null
"$gputlm" trace gen vectoradd -p n=1000000 -o "$work/vectoradd_1m" >/dev/null
"$gputlm" trace convert "$work/vectoradd_1m" "$work/vectoradd_1m.gtb" >/dev/null

traces=(traces/samples/*/ "$work/sgemm_256.gtb" "$work/vectoradd_1m.gtb")
printf "%-16s %-24s %12s %12s %9s %10s %12s\n" platform trace warp_insts cycles wall_s KIPS Mcycles/s
for p in "${platforms[@]}"; do
  for t in "${traces[@]}"; do
    for ((r = 0; r < ${RUNS:-3}; ++r)); do
      "$gputlm" run "$p" "$t" --no-tb-log --stats "$work/stats.$r.json" >/dev/null
    done
    python3 - "$p" "$t" "$work"/stats.*.json <<'PY'
import json, os, sys
p, t = sys.argv[1:3]
runs = [json.load(open(f)) for f in sys.argv[3:]]
j = min(runs, key=lambda r: r["wall_seconds"])
w = j["wall_seconds"]
print("%-16s %-24s %12d %12d %9.3f %10.0f %12.3f" % (
    os.path.basename(p)[:-5], os.path.basename(t.rstrip("/")), j["warp_instructions"],
    j["total_cycles"], w, j["warp_instructions"] / w / 1e3, j["total_cycles"] / w / 1e6))
PY
    rm -f "$work"/stats.*.json
  done
done
