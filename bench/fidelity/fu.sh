#!/usr/bin/env bash
# Functional-unit latency and throughput of each bundled platform as the dissection papers
# time them (`trace gen fu_chain`): unrolled chains of one operation class on one SM.
# Latency: one warp, one chain, every operation waiting for the previous one's result;
# throughput: 32 warps of 8 independent chains each. Both from two loop lengths, (cycles of
# n2 trips - cycles of n1 trips) / (8 x (n2 - n1)) operations, which cancels the launch;
# the loop's own 3 instructions a trip (counter, compare, branch) are included, as in the
# papers' loops. Not a unit test. Usage:
#   bench/fidelity/fu.sh [BUILD] [PLATFORM...]      (default build/; volta pascal fermi)
source "$(dirname "$0")/run_cycles.sh"
echo "| platform | unit | dependent: cycles per op | independent: warp ops per cycle per SM |"
echo "|---|---|---:|---:|"
for p in "${platforms[@]}"; do
  for u in fp32 int fp64 sfu; do
    d1=$(cycles "$p" fu_chain unit=$u iterations=128)
    d2=$(cycles "$p" fu_chain unit=$u iterations=256)
    t1=$(cycles "$p" fu_chain unit=$u chains=8 warps=32 iterations=32)
    t2=$(cycles "$p" fu_chain unit=$u chains=8 warps=32 iterations=64)
    lat=$(per "$d2" "$d1" $((8 * 128)))
    thr=$(/usr/bin/python3 -c "print(f'{32 * 8 * 8 * 32 / ($t2 - $t1):.2f}')")
    echo "| $p | $u | $lat | $thr |"
  done
done
