#!/usr/bin/env bash
# Shared-memory load latency under 1-, 2-, 4- and 32-way bank conflicts per platform
# (`trace gen smem_bank`): the difference of two run lengths per load, which cancels the
# launch. Not a unit test. Usage:
#   bench/fidelity/smem.sh [BUILD] [PLATFORM...]      (default build/; volta pascal fermi)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/sc_main/gputlm
shift || true
platforms=("$@")
[ ${#platforms[@]} -eq 0 ] && platforms=(volta pascal fermi)
[ -x "$bin" ] || { echo "no $bin (build first: make)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n1=512 n2=1024
cycles() {  # platform stride iterations
  local d="$work/sm-$2-$3"
  [ -d "$d" ] || "$bin" trace gen smem_bank -p stride="$2" -p iterations="$3" -o "$d" >/dev/null
  "$bin" run "yaml/$1.yaml" "$d" --no-tb-log --no-wall-clock --stats "$work/s.json" >/dev/null
  /usr/bin/python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["total_cycles"]))' \
    "$work/s.json"
}
echo "| platform | 1-way | 2-way | 4-way | 32-way |"
echo "|---|---:|---:|---:|---:|"
for p in "${platforms[@]}"; do
  row="| $p"
  for s in 1 2 4 32; do
    c1=$(cycles "$p" "$s" "$n1")
    c2=$(cycles "$p" "$s" "$n2")
    row+=" | $(/usr/bin/python3 -c "print(f'{($c2 - $c1) / ($n2 - $n1):.1f}')")"
  done
  echo "$row |"
done
echo "(core cycles per shared load, each waiting for the previous one's write)"
