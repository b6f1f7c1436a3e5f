#!/usr/bin/env bash
# Streaming bandwidth of each bundled platform as the dissection papers measure it (`trace
# gen stream`: coalesced grid-stride 4-byte accesses by 640 TBs of 256 threads): reads of a
# 512 KiB array (fits every platform's L2) with the L1 bypassed for global loads, as the
# papers' ld.cg does, 4 and 8 passes: bandwidth = bytes of the 4 further passes / their
# time, which cancels the launch and the first pass's cold misses. From DRAM: one pass of
# reads or writes over 16 MiB and over 48 MiB (every access a first touch): the further
# 32 MiB over their time. (Repeated passes over a DRAM-sized array are not used: with more
# TBs than fit at once, a TB's stores run ahead into its next pass while its lines are still
# in the L2.) Bytes a core cycle and GB/s. Not a unit test.
# Usage: bench/fidelity/bandwidth.sh [BUILD] [PLATFORM...]   (default build/; volta pascal fermi)
source "$(dirname "$0")/run_cycles.sh"
# name mode footprint1 passes1 footprint2 passes2 L1-bypass
cases=("L2-read read 524288 4 524288 8 1" "DRAM-read read 16777216 1 50331648 1 0"
  "DRAM-write write 16777216 1 50331648 1 0")
echo "| platform | case | bytes / core cycle | GB/s |"
echo "|---|---|---:|---:|"
for p in "${platforms[@]}"; do
  for c in "${cases[@]}"; do
    read -r name mode f1 p1 f2 p2 bypass <<<"$c"
    sets=()
    [ "$bypass" = 1 ] && sets=(smx.l1.bypass_global_loads=true)
    c1=$(cycles "$p" stream mode="$mode" footprint="$f1" passes="$p1")
    s1=$(seconds)
    c2=$(cycles "$p" stream mode="$mode" footprint="$f2" passes="$p2")
    s2=$(seconds)
    /usr/bin/python3 -c "b = $f2 * $p2 - $f1 * $p1; print(f'| $p | ${name/-/ } | {b / ($c2 - $c1):.1f} | {b / ($s2 - $s1) / 1e9:.0f} |')"
  done
done
