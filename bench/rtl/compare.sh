#!/usr/bin/env bash
# Every bundled sample on the given platforms (default the TITAN V and the GTX480) with
# every L1's MSHR table in C++ and in RTL (smx.l1.mshr_implementation=rtl, docs/rtl.md):
# whether the statistics are byte-identical (the trace path aside), and the replay speed
# of each (KIPS, from the statistics' wall_seconds). Not a unit test. Usage:
#   bench/rtl/compare.sh [BUILD] [PLATFORM...]      (default build/; volta fermi)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/sc_main/gputlm
shift || true
platforms=("$@")
[ ${#platforms[@]} -eq 0 ] && platforms=(volta fermi)
[ -x "$bin" ] || { echo "no $bin (build first: make)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
kips() { /usr/bin/python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["kips"]))' "$1"; }
printf "%-8s %-14s %-10s %10s %10s\n" platform sample statistics "KIPS C++" "KIPS RTL"
fail=0
for p in "${platforms[@]}"; do
  for d in traces/samples/*/; do
    [ -f "$d/kernelslist.g" ] || continue
    s=$(basename "$d")
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --stats "$work/c.json" >/dev/null
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --set smx.l1.mshr_implementation=rtl \
      --stats "$work/r.json" >/dev/null
    same=identical
    if ! cmp -s <(grep -v -e '"trace"' -e wall -e kips -e '"host' "$work/c.json") \
      <(grep -v -e '"trace"' -e wall -e kips -e '"host' "$work/r.json"); then
      same=DIFFERENT
      fail=1
    fi
    printf "%-8s %-14s %-10s %10s %10s\n" "$p" "$s" "$same" "$(kips "$work/c.json")" \
      "$(kips "$work/r.json")"
  done
done
exit $fail
