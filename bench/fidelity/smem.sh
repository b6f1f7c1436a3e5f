#!/usr/bin/env bash
# Shared-memory load latency under 1-, 2-, 4- and 32-way bank conflicts per platform
# (`trace gen smem_bank`): the difference of two run lengths per load, which cancels the
# launch. Not a unit test. Usage:
#   bench/fidelity/smem.sh [BUILD] [PLATFORM...]      (default build/; volta pascal fermi)
source "$(dirname "$0")/run_cycles.sh"
n1=512 n2=1024
echo "| platform | 1-way | 2-way | 4-way | 32-way |"
echo "|---|---:|---:|---:|---:|"
for p in "${platforms[@]}"; do
  row="| $p"
  for s in 1 2 4 32; do
    c1=$(cycles "$p" smem_bank stride="$s" iterations="$n1")
    c2=$(cycles "$p" smem_bank stride="$s" iterations="$n2")
    row+=" | $(per "$c2" "$c1" $((n2 - n1)))"
  done
  echo "$row |"
done
echo "(core cycles per shared load, each waiting for the previous one's write)"
