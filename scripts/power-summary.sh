#!/bin/sh
# What the bundled power tables give on two larger workloads, always-on: average power over
# the run and the dynamic share, per platform (docs/power.md, "Measured"). Writes the
# markdown table's rows to stdout.
#   scripts/power-summary.sh [build/sc_main/gputlm]
set -eu
GPUTLM=${1:-build/sc_main/gputlm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row() {  # platform label, yaml, arch
  cells=""
  for w in "sgemm_tiled -p M=256 -p N=256 -p K=256" "vectoradd -p n=1048576"; do
    name=${w%% *}
    # shellcheck disable=SC2086
    "$GPUTLM" trace gen $w --arch "$3" -o "$work/$name-$3" --force >/dev/null
    "$GPUTLM" run "$2" "$work/$name-$3" --no-wall-clock --no-tb-log --stats "$work/s.json" >/dev/null
    cells="$cells | $(python3 -c "
import json; d = json.load(open('$work/s.json'))
print('%.0f W, %.0f %%' % (d['average_watts'], 100 * d['dynamic_joules'] / d['energy_joules']))")"
  done
  echo "| $1$cells |"
}
echo "| platform | SGEMM 256³ (tiled) | vectorAdd 2^20 |"
echo "|---|---|---|"
row "Fermi GTX480" yaml/fermi.yaml 35
row "Kepler K20c" yaml/kepler.yaml 35
row "Pascal TITAN X" yaml/pascal.yaml 61
row "Volta TITAN V" yaml/volta.yaml 70
row "LATOA 56-core mesh" yaml/latoa.yaml 35
