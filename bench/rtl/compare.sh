#!/usr/bin/env bash
# Every bundled sample on the given platforms (default the TITAN V and the GTX480) with
# each RTL block in place of its C++ model (docs/rtl.md): every L1's MSHR table
# (smx.l1.mshr.implementation=rtl) and the TB dispatch unit
# (smx_scheduler.dispatch.implementation=rtl): whether the statistics are byte-identical to
# the C++ run's (the trace path and host figures aside), and the replay speed of each (KIPS,
# from the statistics). Not a unit test. Usage:
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
same() {
  if cmp -s <(grep -v -e '"trace"' -e wall -e kips -e '"host' "$1") \
    <(grep -v -e '"trace"' -e wall -e kips -e '"host' "$2"); then
    echo identical
  else
    echo DIFFERENT
  fi
}
printf "%-8s %-14s %-10s %-10s %9s %9s %9s\n" platform sample "MSHR RTL" "TBD RTL" "KIPS C++" \
  "MSHR RTL" "TBD RTL"
fail=0
for p in "${platforms[@]}"; do
  for d in traces/samples/*/; do
    [ -f "$d/kernelslist.g" ] || continue
    s=$(basename "$d")
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --stats "$work/c.json" >/dev/null
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --set smx.l1.mshr.implementation=rtl \
      --stats "$work/m.json" >/dev/null
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --set smx_scheduler.dispatch.implementation=rtl \
      --stats "$work/t.json" >/dev/null
    m=$(same "$work/c.json" "$work/m.json")
    t=$(same "$work/c.json" "$work/t.json")
    [ "$m$t" = identicalidentical ] || fail=1
    printf "%-8s %-14s %-10s %-10s %9s %9s %9s\n" "$p" "$s" "$m" "$t" "$(kips "$work/c.json")" \
      "$(kips "$work/m.json")" "$(kips "$work/t.json")"
  done
done
exit $fail
