#!/usr/bin/env python3
"""Writes the Stencil Processing Unit platform for a p x p grid (docs/spu.md).

The SPU (Rajasree 2016, ../shared/reference/seed-004-spu.md) is the GTX480 (yaml/fermi.yaml,
its base) with p x p SMs, 4p interface units, 2p(p+1) neighbour links and the runtime. The
bindings of a grid depend on p, so each grid size is a file of its own:

    scripts/spu-platform.py 4 > yaml/spu.yaml
    scripts/spu-platform.py 2 --base ../fermi.yaml > yaml/variants/spu-p2.yaml
"""
import argparse
import sys

SIDES = [("north", "south"), ("south", "north"), ("west", "east"), ("east", "west")]


def platform(p: int, base: str) -> str:
    sms, ius = p * p, 4 * p
    links = 2 * p * (p + 1)
    hv = p * (p + 1)  # first vertical link
    # SPU-Sim's unit order: SMs, then the north, south, west and east IUs (seed-004 §2.1).
    off = {"north": sms, "south": sms + p, "west": sms + 2 * p, "east": sms + 3 * p}
    out = []
    w = out.append
    w(f"# The Stencil Processing Unit, a {p} x {p} grid (Rajasree, MS thesis, Colorado State 2016;")
    w("# ../shared/reference/seed-004-spu.md). Written by scripts/spu-platform.py "
      f"{p}: do not edit by hand.")
    w("#   T = the thesis (section, table); SS = Uguen's SPU-Sim (gpgpusim.config = GTX480 with")
    w("#   -gpgpu_n_clusters 32 and -gpgpu_shader_cta 1); everything else is the GTX480's (base).")
    w(f"base: {base}")
    w("platform:")
    w(f"  name: spu-{p}x{p}")
    w(f"  description: Stencil Processing Unit, {p} x {p} GTX480 SMs, {ius} interface units, "
      f"{links} CB links, L1D and L2 off")
    w("gpu:")
    w(f"  kmu: {{ smxs: {sms} }}")
    w(f"  tb_scheduler: {{ smxs: {sms}, policy: spu, runtime: gpu.spu }}   # CTAs placed by the runtime")
    w("  smx:")
    w(f"    count: {sms}                      # T §2.2.1: a {p} x {p} grid, SM (x, y) = smx[y * {p} + x]")
    w("    max_tbs: 1                     # T §6.1.1, SS -gpgpu_shader_cta 1: one CTA per SM")
    w("    l1: { bypass_global_loads: true }   # T §6.1.1: L1D off (global loads bypass it; stores pass through)")
    w("    links: { type: spu_link_port }      # the SM's CB.PUSH/POP and BAR.BLOCKSYNC path")
    w("    viu:                           # the SM acting as a partial pass's east/south unit (SS set_possible_vius)")
    w("      type: interface_unit")
    w("      side: east")
    w("      implementation: sm           # the SM's own hardware: no leakage of its own")
    w("      ni: { type: network_interface, request_buffer: 8, response_buffer: 32, latency: 0cycles }")
    w("      bind:")
    w("        - mem -> ni.in")
    w("    bind:")
    w("      - ldst -> l1.core")
    w("      - l1.icnt -> iu.in")
    w("      - viu.cb -> links.unit_cb")
    w("      - viu.cb_sync -> links.unit_sync")
    w("      - viu.global_sync -> links.unit_global")
    w(f"  icnt: {{ smx_ports: {2 * sms + ius} }}          # SMs, the IUs ({ius}), the SMs' units")
    w("  l2: { bypass: true }            # T §6.1.1: L2 off")
    w("  cb:")
    w("    type: communication_buffer")
    w(f"    count: {links}                      # 2p(p+1) links: west->east rows, then north->south columns")
    w("    size: 4KiB                     # T §6.1.2 (16 KiB: T §6.3.4)")
    w("    banks: 32                      # T §5.2.1 like shared memory: GS4 -gpgpu_shmem_num_banks 32")
    w("    bank_width: 4B")
    w("    latency: 26cycles              # GS4 -gpgpu_smem_latency 26")
    w("    sync_latency: 0cycles          # SS: no barrier-network latency")
    for side, _ in SIDES:
        w(f"  iu_{side}:")
        w("    type: interface_unit")
        w(f"    count: {p}")
        w(f"    side: {side}")
        w("    implementation: truncated_sm   # T §5.2.2 (dma: T §7.2)")
        w("    outstanding: 32")
        w("    request_size: 128B")
        w("    ni: { type: network_interface, request_buffer: 8, response_buffer: 32, latency: 0cycles }")
        w("    bind:")
        w("      - mem -> ni.in")
    w("  spu_sync:")
    w("    type: global_sync")
    w(f"    units: {sms + ius}                      # SMs, then the IUs")
    w("    sync_latency: 0cycles          # SS")
    w("  spu:")
    w("    type: spu_runtime")
    w(f"    p: {p}")
    w("    pass_mode: overlapped          # T §4.3 (by_pass: the original runtime)")
    w("    spill_base: 0x7f8000000000")
    w("  bind:")
    w("    - kmu.kd -> kd.kmu")
    w("    - tb_scheduler.kd -> kd.scheduler")
    w("    - kd.doorbell -> tb_scheduler.doorbell")
    w("    - tb_scheduler.smx[*] -> smx[i].tbcr")
    w("    - smx[*].launch -> kmu.smx[i]")
    w("    - smx[*].iu.out -> icnt.smx[i]")
    w("    - icnt.mem[*] -> l2_iu[i].in")
    w("    - l2_iu[*].out -> l2[i].icnt")
    w("    - l2[*].dram -> dram[i/2].l2[i%2]")
    # The SMs' links: SM i = (i % p, i / p); west of column x is horizontal link y(p+1) + x,
    # north of row y vertical link hv + x(p+1) + y.
    h = f"(i/{p})*{p + 1} + i%{p}"
    v = f"{hv} + (i%{p})*{p + 1} + i/{p}"
    for name, link, end in (("west", h, "reader"), ("east", f"{h} + 1", "writer"),
                            ("north", v, "reader"), ("south", f"{v} + 1", "writer")):
        w(f"    - smx[*].links.{name} -> cb[{link}].{end}")
        w(f"    - smx[*].links.{name}_sync -> cb[{link}].{end}_sync")
    w("    - smx[*].links.global_sync -> spu_sync.unit[i]")
    w(f"    - smx[*].viu.ni.out -> icnt.smx[{sms + ius} + i]")
    iu_link = {"west": (f"i*{p + 1}", "writer"), "east": (f"i*{p + 1} + {p}", "reader"),
               "north": (f"{hv} + i*{p + 1}", "writer"),
               "south": (f"{hv} + i*{p + 1} + {p}", "reader")}
    for side, _ in SIDES:
        link, end = iu_link[side]
        w(f"    - iu_{side}[*].cb -> cb[{link}].{end}")
        w(f"    - iu_{side}[*].cb_sync -> cb[{link}].{end}_sync")
        w(f"    - iu_{side}[*].global_sync -> spu_sync.unit[{off[side]} + i]")
        w(f"    - iu_{side}[*].ni.out -> icnt.smx[{off[side]} + i]")
    w("")
    w("power:")
    w("  # The GTX480's table (base) with the SPU's refinements (T §5.2-5.3; docs/spu.md, Power):")
    w("  # L1D and L2 off in the power model too; each buffer a RAM like the shared memory")
    w("  # (222.7 mW for 48 KiB: 4.64 mW per KiB; an access per bank row as a shared-memory")
    w("  # access, the thesis's CB_ACC); an interface unit is the SM's components it keeps")
    w("  # (T Table 5.2: fetch/decode 148.5, register file 593.9, scheduler 74.24, collectors")
    w("  # 92.8, LD/ST 74.24 mW, and the integer half of the SP pipe, 199.5 mW), a DMA engine")
    w("  # only the register file, the integer ALU and the LD/ST port (T Table 7.1); the build a")
    w("  # unit is not (its `implementation`) stays off.")
    w("  components:")
    w("    l1_cache:")
    w("      data: { states: { on: 0W }, events: { read: 0J, write: 0J } }")
    w("      tag: { states: { on: 0W }, events: { lookup: 0J } }")
    w("      mshr: { states: { on: 0W }, events: { allocate: 0J, merge: 0J } }")
    w("    l2_cache:")
    w("      data: { states: { on: 0W }, events: { read: 0J, write: 0J } }")
    w("      tag: { states: { on: 0W }, events: { lookup: 0J } }")
    w("      mshr: { states: { on: 0W }, events: { allocate: 0J, merge: 0J } }")
    w("    communication_buffer:")
    w("      ram: { granularity: 1KiB, states: { on: 4.64mW }, events: { access: 860pJ } }")
    w("    interface_unit:")
    w("      truncated_sm: { states: { on: 1183mW, off: { static: 0W, wake: 0cycles, break_even: 0cycles } }, events: { request: 645pJ, cb_access: 645pJ, sync: 258pJ } }")
    w("      dma: { states: { on: 867.6mW, off: { static: 0W, wake: 0cycles, break_even: 0cycles } }, events: { request: 645pJ, cb_access: 645pJ, sync: 258pJ } }")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("p", type=int, help="SMs per side (>= 2)")
    ap.add_argument("--base", default="fermi.yaml", help="the GTX480 platform, relative to the output")
    a = ap.parse_args()
    if a.p < 2 or a.p > 32:
        print("spu-platform.py: p must be between 2 and 32", file=sys.stderr)
        return 2
    sys.stdout.write(platform(a.p, a.base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
