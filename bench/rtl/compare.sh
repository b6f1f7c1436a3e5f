#!/usr/bin/env bash
# Every bundled sample on the given platforms (default the TITAN V and the GTX480) with
# each RTL block in place of its C++ model (docs/rtl.md): every L1's MSHR table
# (smx.l1.mshr.implementation=rtl) and the TB dispatch unit
# (smx_scheduler.dispatch.implementation=rtl): whether the statistics are byte-identical to
# the C++ run's (the trace path, host figures and the RTL's own edge counters aside),
# whether the RTL ran at all (its `rtl_edges` statistic: an L1 that every global load
# bypasses never uses its MSHR table, and a match there proves nothing: "not exercised"),
# and the replay speed of each (KIPS, from the statistics). A sample the platform cannot run
# (the C++ run refuses it) is skipped, named with the reason. Not a unit test. Exit 1 when
# a run differs or an RTL block was not exercised. Usage:
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
# identical / DIFFERENT / not exercised: $1 the C++ run, $2 the RTL run.
same() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
def load(p):
    j = json.load(open(p))
    edges = 0
    for values in j.get("blocks", {}).values():
        for k in [k for k in values if k.endswith(".rtl_edges")]:
            edges += values.pop(k)
    def host(k):  # the host's figures and the trace's path differ between any two runs
        return k == "trace" or "wall" in k or "kips" in k or k.startswith("host") \
            or k == "analysis_seconds"
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if not host(k)}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(j), edges
cpp, _ = load(sys.argv[1])
rtl, edges = load(sys.argv[2])
print("not exercised" if edges == 0 else "identical" if cpp == rtl else "DIFFERENT")
PY
}
printf "%-8s %-14s %-14s %-14s %9s %9s %9s\n" platform sample "MSHR RTL" "TBD RTL" "KIPS C++" \
  "MSHR RTL" "TBD RTL"
fail=0
for p in "${platforms[@]}"; do
  for d in traces/samples/*/; do
    [ -f "$d/kernelslist.g" ] || continue
    s=$(basename "$d")
    if ! "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --stats-form=full --stats "$work/c.json" >/dev/null \
      2>"$work/err"; then
      printf "%-8s %-14s skipped: %s\n" "$p" "$s" "$(head -n 1 "$work/err")"
      continue
    fi
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --set smx.l1.mshr.implementation=rtl \
      --stats-form=full --stats "$work/m.json" >/dev/null
    "$bin" run "yaml/$p.yaml" "$d" --no-tb-log --set smx_scheduler.dispatch.implementation=rtl \
      --stats-form=full --stats "$work/t.json" >/dev/null
    m=$(same "$work/c.json" "$work/m.json")
    t=$(same "$work/c.json" "$work/t.json")
    [ "$m" = identical ] && [ "$t" = identical ] || fail=1
    printf "%-8s %-14s %-14s %-14s %9s %9s %9s\n" "$p" "$s" "$m" "$t" "$(kips "$work/c.json")" \
      "$(kips "$work/m.json")" "$(kips "$work/t.json")"
  done
done
exit $fail
