#!/usr/bin/env bash
# The validation set (compare-set.sh) on the shipped platforms and with each Accel-Sim-faithful
# choice of docs/fidelity.md undone, one at a time: writes bench/fidelity/results/NAME.csv,
# from which bench/fidelity/fidelity-tables.py writes the tables of docs/fidelity.md. About
# seven minutes on two cores. Usage: bench/fidelity/ablations.sh [BUILD] [NAME...]
#   default        the shipped yaml/volta.yaml, pascal.yaml, fermi.yaml
#   line_requests  smx.coalescing_segment=128: one request per 128 B line on every platform
#   one_lookup     smx.l1.lookups_per_cycle=1, smx.l1_requests_per_cycle=1
#   line_mshr      smx.l1.mshr_per_sector=false, l2.mshr_per_sector=false
#   line_atoms     dram.sector_atoms=false
#   silicon        TITAN V only: icnt.partition_indexing=random (yaml/variants/volta-silicon.yaml)
#   l1_stores      TITAN X only: smx.l1.bypass_global_stores=false
#   perfect_icache GTX480 only: smx.icache_perfect=true (every fetch hits)
#   voq_inputs     icnt.input_queueing=voq: a queue per output at every crossbar input
#   port_per_sm    TITAN V only: icnt.smx_per_port=1 (a crossbar port per SM, not per cluster)
#   no_atomic_wait smx.atomic_wait=false: warps issue past their atomics in flight
#   parallel_inputs TITAN X, GTX480: icnt.serial_inputs=false (an input starts a packet a cycle)
#   no_alloc_step  TITAN X, GTX480: icnt.allocation_steps=0 (no switch step per packet)
#   packet_outputs TITAN X, GTX480: icnt.output_speedup=0 (an output takes a packet a cycle)
#   line_replies   icnt.sector_replies=false: one reply packet per request
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$here/../.." && pwd)/build
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$(cd "$1" && pwd); shift; fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(default line_requests one_lookup line_mshr line_atoms silicon l1_stores perfect_icache
                                 voq_inputs port_per_sm no_atomic_wait parallel_inputs no_alloc_step
                                 packet_outputs line_replies)
mkdir -p "$here/results"
for n in "${names[@]}"; do
  case $n in
    default) args=() ;;
    line_requests) args=(--set smx.coalescing_segment=128) ;;
    one_lookup) args=(--set smx.l1.lookups_per_cycle=1 --set smx.l1_requests_per_cycle=1) ;;
    line_mshr) args=(--set smx.l1.mshr_per_sector=false --set l2.mshr_per_sector=false) ;;
    line_atoms) args=(--set dram.sector_atoms=false) ;;
    silicon) args=(--platform titanv --set icnt.partition_indexing=random) ;;
    l1_stores) args=(--platform titanx --set smx.l1.bypass_global_stores=false) ;;
    perfect_icache) args=(--platform gtx480 --set smx.icache_perfect=true) ;;
    voq_inputs) args=(--set icnt.input_queueing=voq) ;;
    port_per_sm) args=(--platform titanv --set icnt.smx_per_port=1) ;;
    no_atomic_wait) args=(--set smx.atomic_wait=false) ;;
    parallel_inputs) args=(--platform titanx --platform gtx480 --set icnt.serial_inputs=false) ;;
    no_alloc_step) args=(--platform titanx --platform gtx480 --set icnt.allocation_steps=0) ;;
    packet_outputs) args=(--platform titanx --platform gtx480 --set icnt.output_speedup=0) ;;
    line_replies) args=(--set icnt.sector_replies=false) ;;
    *) echo "unknown ablation $n" >&2; exit 2 ;;
  esac
  out=$here/results/$n.csv
  "$here/compare-set.sh" "$build" "${args[@]}" --csv "$out.partial" >/dev/null
  mv "$out.partial" "$out"
  echo "wrote $out" >&2
done
