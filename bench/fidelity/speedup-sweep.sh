#!/usr/bin/env bash
# The GTX480's small streaming write with the crossbar's internal_speedup at 1 to 4, beside
# Accel-Sim's cycles with its BookSim internal_speedup set the same (peer-speedup.csv): what
# docs/fidelity.md quotes for the BookSim router keys. Usage: bench/fidelity/speedup-sweep.sh [BUILD]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
bin=$build/sc_main/gputlm
[ -x "$bin" ] || { echo "error: no gputlm binary at $bin (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" trace gen stream -p mode=write -p footprint=1048576 -p passes=2 --arch 61 -o "$tmp/trace" >/dev/null
echo "| internal_speedup | gputlm cycles | Accel-Sim cycles | ratio |"
echo "|---:|---:|---:|---:|"
grep -v '^#' "$here/peer-speedup.csv" | tail -n +2 | while IFS=, read -r s peer _ _; do
  "$bin" run "$root/yaml/fermi.yaml" "$tmp/trace" --no-wall-clock --no-tb-log \
    --set icnt.internal_speedup="$s" --stats "$tmp/s.json" >/dev/null
  ours=$(python3 -c "import json,sys; print(int(json.load(open(sys.argv[1]))['total_cycles']))" "$tmp/s.json")
  python3 -c "import sys; s,o,p=sys.argv[1:]; print(f'| {s} | {o} | {p} | {int(o)/int(p):.2f} |')" "$s" "$ours" "$peer"
done
