#!/usr/bin/env bash
# Global atomic throughput of each bundled platform (`trace gen atomics`: 80 TBs of 256
# threads, each thread atomicAdd(&A[gid mod addresses * spacing / 4], 1) with the result
# unused, i.e. RED.E.ADD): every thread on one address; each thread its own word, a warp's
# 32 words in one line (spacing 4 B); each thread its own 32-byte sector (spacing 32 B: a
# request per lane; 640 KiB, within every L2). Throughput =
# thread atomics of 16 further iterations / their cycles (two runs, 16 and 32 iterations,
# which cancels the launch). Atomics a core cycle, whole GPU. Not a unit test. Usage:
#   bench/fidelity/atomics.sh [BUILD] [PLATFORM...]      (default build/; volta pascal fermi)
source "$(dirname "$0")/run_cycles.sh"
threads=$((80 * 256))
# name addresses spacing
cases=("one-address 1 4" "a-word-each $threads 4" "a-sector-each $threads 32")
echo "| platform | one address | a word each (32 in a line) | a sector each |"
echo "|---|---:|---:|---:|"
for p in "${platforms[@]}"; do
  row="| $p"
  for c in "${cases[@]}"; do
    read -r _ n s <<<"$c"
    c1=$(cycles "$p" atomics addresses="$n" spacing="$s" iterations=16 grid=80)
    c2=$(cycles "$p" atomics addresses="$n" spacing="$s" iterations=32 grid=80)
    row+=" | $(/usr/bin/python3 -c "print(f'{$threads * 16 / ($c2 - $c1):.2f}')")"
  done
  echo "$row |"
done
echo "(thread atomics per core cycle, whole GPU)"
