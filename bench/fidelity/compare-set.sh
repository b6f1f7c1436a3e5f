#!/usr/bin/env bash
# gputlm against Accel-Sim on the fidelity validation set: every case of cases.csv (a generator
# kernel at a small "-s" and a large "-l" size) on three platforms, against the peer's numbers
# stored in peer.csv (Accel-Sim is deterministic: they never need rerunning). Regenerates each
# case's trace (--arch 70 for titanv, 61 for titanx and gtx480), replays it on yaml/volta.yaml,
# yaml/pascal.yaml and yaml/fermi.yaml (two replays at a time) and prints, per platform, each
# case's cycles ours / peer, L1 and L2 load hit rates and DRAM megabytes, then the mean absolute
# relative error of cycles and how many cases lie within 10 % and within 0.8-1.25. A case with
# no peer row prints n/a. Not a unit test (about a minute). Usage:
#   bench/fidelity/compare-set.sh [BUILD] [--bin PATH] [--set k=v]... [--yaml-dir DIR]
#                                 [--csv OUT] [--case NAME]... [--platform NAME]... [-j N]
#     BUILD      build directory (default the checkout's build/; its sc_main/gputlm), or --bin a gputlm binary
#     --set      parameter override for every replay (e.g. to try a change)
#     --yaml-dir DIR holding volta.yaml, pascal.yaml and fermi.yaml (default yaml/, for variants)
#     --csv      also write per-case rows to OUT;  --case/--platform: only these (repeatable)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build bin= yamldir=$root/yaml csv= jobs=2
sets=() only_cases=() plats=()
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --set=*) sets+=(--set "${1#--set=}"); shift ;;
    --yaml-dir) yamldir=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --case) only_cases+=("$2"); shift 2 ;;
    --platform) plats+=("$2"); shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) build=$1; shift ;;
  esac
done
[ -n "$bin" ] || bin=$build/sc_main/gputlm
[ -x "$bin" ] || { echo "no $bin (build first: make, or give --bin)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
yamldir=$(cd "$yamldir" && pwd)
[ ${#plats[@]} -gt 0 ] || plats=(titanv titanx gtx480)
for p in "${plats[@]}"; do
  case $p in titanv | titanx | gtx480) ;; *) echo "unknown platform $p" >&2; exit 2 ;; esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

yaml_of() { case $1 in titanv) echo volta.yaml ;; titanx) echo pascal.yaml ;; gtx480) echo fermi.yaml ;; esac; }
arch_of() { case $1 in titanv) echo 70 ;; *) echo 61 ;; esac; }
wanted() {  # case -> 0 if selected
  [ ${#only_cases[@]} -eq 0 ] && return 0
  local c; for c in "${only_cases[@]}"; do [ "$c" = "$1" ] && return 0; done; return 1
}

: >"$work/jobs"
while IFS=, read -r c kernel params; do
  [ "$c" = case ] && continue
  wanted "$c" || continue
  args=()
  for kv in $params; do args+=(-p "$kv"); done
  for p in "${plats[@]}"; do
    a=$(arch_of "$p") d=$work/traces/$a/$c
    [ -d "$d" ] || "$bin" trace gen "$kernel" "${args[@]}" --arch "$a" -o "$d" </dev/null >/dev/null
    echo "$p $c" >>"$work/jobs"
  done
done < <(grep -v '^#' "$here/cases.csv")
[ -s "$work/jobs" ] || { echo "no case selected" >&2; exit 2; }

replay() {  # platform case
  local d=$work/runs/$1; mkdir -p "$d"
  if "$bin" run "$yamldir/$(yaml_of "$1")" "$work/traces/$(arch_of "$1")/$2" ${sets[@]+"${sets[@]}"} \
       --no-wall-clock --no-tb-log --stats-form=full --stats "$d/$2.json" >"$d/$2.log" 2>&1; then :; else
    echo "replay failed: $1 $2 (rc $?): $(tail -n 1 "$d/$2.log")" >&2
    rm -f "$d/$2.json"; touch "$work/failed"
  fi
}
export -f replay yaml_of arch_of
export work bin yamldir
export sets_str="${sets[*]-}"
# xargs runs a fresh bash: pass the --set overrides as words (values hold no blanks)
xargs -P "$jobs" -L 1 bash -c 'sets=($sets_str); replay "$0" "$1"' <"$work/jobs"

/usr/bin/python3 "$here/compare_set.py" "$here/cases.csv" "$here/peer.csv" "$work/runs" "$work/jobs" \
  ${csv:+--csv "$csv"}
[ ! -e "$work/failed" ] || { echo "some replays failed (above)" >&2; exit 1; }
