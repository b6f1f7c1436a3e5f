# Sourced by the microbenchmark scripts of bench/fidelity/: the build's gputlm ($bin, from
# the first argument, default build/), the platforms (the other arguments, default volta
# pascal fermi), a scratch directory removed at exit ($work), and
#   cycles PLATFORM KERNEL PARAM...   the total cycles of `trace gen KERNEL -p PARAM...`
#                                     replayed on yaml/PLATFORM.yaml (each trace made once),
#                                     with the overrides in the array $sets (--set k=v each)
#   seconds                           the simulated seconds of the last run
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/sc_main/gputlm
shift || true
platforms=("$@")
[ ${#platforms[@]} -eq 0 ] && platforms=(volta pascal fermi)
[ -x "$bin" ] || { echo "no $bin (build first: make)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sets=()
stat() {
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
    "$work/s.json" "$1"
}
cycles() {
  local platform=$1 kernel=$2
  shift 2
  local d="$work/$kernel" p args=() set=()
  for p in "$@"; do
    d+="-${p//=/_}"
    args+=(-p "$p")
  done
  for p in "${sets[@]}"; do set+=(--set "$p"); done
  [ -d "$d" ] || "$bin" trace gen "$kernel" "${args[@]}" -o "$d" >/dev/null
  "$bin" run "yaml/$platform.yaml" "$d" "${set[@]}" --no-tb-log --no-wall-clock \
    --stats "$work/s.json" >/dev/null
  stat total_cycles
}
seconds() { stat simulated_seconds; }
# (a - b) / n with one decimal
per() { /usr/bin/python3 -c "print(f'{($1 - $2) / $3:.1f}')"; }
