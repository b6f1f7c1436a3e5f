#!/usr/bin/env bash
# gputlm against Accel-Sim on the workloads of docs/references.md, "Accel-Sim reference runs"
# (reference.csv here): regenerates each workload with the listed generator command,
# replays it on yaml/{volta,pascal,fermi}.yaml, and prints per platform and workload our
# cycles / Accel-Sim's, the L1 and L2 load hit-rate differences (points), the DRAM bytes
# ratio and the warp-instruction check; over all: the mean absolute relative error of
# cycles and the Pearson correlation of cycles. Not a unit test (about 15 s). Usage:
#   bench/fidelity/compare.sh [BUILD] [--set k=v]...   (default build/; overrides apply to
#                                                        every platform, e.g. to try a change)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/sc_main/gputlm
shift || true
sets=("$@")
[ -x "$bin" ] || { echo "no $bin (build first: make)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
arch_of() { case $1 in volta) echo 70 ;; *) echo 61 ;; esac; }
gen() {  # workload arch -> directory
  local w=$1 a=$2 d="$work/$1-$2"
  [ -d "$d" ] && { echo "$d"; return; }
  case $w in
    bfs) "$bin" trace gen bfs -p scale=14 --arch "$a" -o "$d" >/dev/null ;;
    spmv) "$bin" trace gen spmv -p rows=32768 --arch "$a" -o "$d" >/dev/null ;;
    histogram) "$bin" trace gen histogram -p n=262144 -p grid=80 --arch "$a" -o "$d" >/dev/null ;;
  esac
  echo "$d"
}
grep -v '^#' bench/fidelity/reference.csv | while IFS=, read -r platform workload rest; do
  trace=$(gen "$workload" "$(arch_of "$platform")")
  "$bin" run "yaml/$platform.yaml" "$trace" ${sets[@]+"${sets[@]}"} --no-wall-clock --no-tb-log \
    --stats-form=full --stats "$work/$platform-$workload.json" >/dev/null
done
/usr/bin/python3 bench/fidelity/compare.py bench/fidelity/reference.csv "$work"
