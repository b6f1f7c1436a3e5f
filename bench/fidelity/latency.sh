#!/usr/bin/env bash
# Load latencies of each bundled platform as a pointer chase measures them (`trace gen
# pchase`, Mei & Chu's fine-grained P-chase): one thread's dependent loads at a 128-byte
# stride over a footprint that fits the L1 (4 KiB), the L2 but not the L1 (256 KiB), or
# neither (64 MiB, every load a first touch); and the 4 KiB footprint again with global
# loads bypassing the L1 (--set smx.l1.bypass_global_loads=true: the L2 hit without the
# L1's pipeline, as the papers' ld.cg). Latency = (cycles of n2 loads - cycles of n1
# loads) / (n2 - n1), which cancels the launch and, for L1 and L2, the first pass's cold
# misses (n1 is past the first pass). Not a unit test. Usage:
#   bench/fidelity/latency.sh [BUILD] [PLATFORM...]      (default build/; volta pascal fermi)
source "$(dirname "$0")/run_cycles.sh"
# level footprint n1 n2 L1-bypass
cases=("L1 4096 1024 2048 0" "L2 262144 4096 8192 0" "DRAM 67108864 1024 2048 0"
  "L2-bypass 4096 1024 2048 1")
echo "| platform | L1 hit | L2 hit | DRAM (first touch) | L2 hit, L1 bypassed |"
echo "|---|---:|---:|---:|---:|"
for p in "${platforms[@]}"; do
  row="| $p"
  for c in "${cases[@]}"; do
    read -r _ fp n1 n2 bypass <<<"$c"
    sets=()
    [ "$bypass" = 1 ] && sets=(smx.l1.bypass_global_loads=true)
    c1=$(cycles "$p" pchase footprint="$fp" stride=128 iterations="$n1")
    c2=$(cycles "$p" pchase footprint="$fp" stride=128 iterations="$n2")
    row+=" | $(per "$c2" "$c1" $((n2 - n1)))"
  done
  echo "$row |"
done
echo "(core cycles per dependent load; a platform that bypasses L1 for global loads shows its L2 latency as L1's)"
