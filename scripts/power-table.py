#!/usr/bin/env python3
"""Writes the `power:` section of a platform YAML (docs/power.md explains every rule).

Usage: scripts/power-table.py fermi|kepler|pascal|volta|latoa|ucbig|ucsmall

The coefficients are first-order and NOT calibrated against hardware: a few sourced
totals (chip leakage, AccelWattch constant and static power) are split over the blocks by
stated assumptions, and per-event energies are assumed order-of-magnitude values for a
40 nm process, scaled by process node. Replace the table with fitted values to study
absolute power; relative comparisons of gating policies need only the state ratios.
"""
import sys

# Per-platform inputs. Sources (tags as in docs/references.md, "Sources"): the platform
# sections of docs/references.md and its "GPUWattch and AccelWattch".
PLATFORMS = {
    # GTX480: leakage 46.4 W (S004 Table 6.4, GPUWattch); 40 nm (gpuwattch_gtx480.xml).
    "fermi": dict(node=40, sms=15, l2=12, channels=6, routers=1, noc="crossbar",
                  static_total=46.4, static_src="46.4 W chip leakage (S004 Table 6.4, GPUWattch)",
                  constant=0.0, dram="gddr5", atom=64, dram_bg=1.0, l1_sectors=True,
                  idle_core=1.59, idle_src="gpuwattch_gtx480.xml idle_core_power"),
    # K20c: no leakage figure in the references; the Fermi per-SM and per-bank values scaled
    # to 28 nm.
    "kepler": dict(node=28, sms=13, l2=20, channels=10, routers=1, noc="crossbar",
                   static_total=None, constant=0.0, dram="gddr5", atom=32, dram_bg=0.5),
    # TITAN X (Pascal): as Kepler, 16 nm; GDDR5X.
    "pascal": dict(node=16, sms=28, l2=24, channels=12, routers=1, noc="crossbar",
                   static_total=None, constant=0.0, dram="gddr5x", atom=32, dram_bg=0.5),
    # TITAN V: AccelWattch QV100 (accelwattch_sass_sim.xml): constant 32.325 W; static of the
    # INT+FP category with 32 active lanes: static_cat2_flane 18.62 W + 31 x addlane 0.645 W.
    "volta": dict(node=12, sms=80, l2=48, channels=24, routers=1, noc="crossbar",
                  static_total=(18.62 + 31 * 0.645) / 0.6,
                  static_src="AccelWattch QV100 INT+FP static 18.62 W + 31 x 0.645 W = 38.6 W "
                             "for the SMs, taken as 60 % of the chip's static power",
                  constant=32.325, dram="hbm2", atom=32, dram_bg=0.25,
                  idle_core=0.2828, idle_src="accelwattch_sass_sim.xml idle_core_power"),
    # LATOA: 56 Fermi-like cores (GPGPU-Sim 3.2 GTX480 model): the Fermi per-SM and per-bank
    # values; an 8 x 8 mesh.
    "latoa": dict(node=40, sms=56, l2=8, channels=8, routers=64, noc="mesh",
                  static_total=None, constant=0.0, dram="ddr3", atom=64, dram_bg=0.5),
    # uC-States' chips (S002 Table 3): 16 cores, 12 L2 banks, 6 GDDR5 channels, a crossbar;
    # GTX480 (40 nm) components. The big core doubles the parts S002 sec. 2.1 doubles
    # (UC_BIG_CORE below); its datapath components have two groups with uC-States' states.
    "ucbig": dict(node=40, sms=16, l2=12, channels=6, routers=1, noc="crossbar",
                  static_total=None, constant=0.0, dram="gddr5", atom=64, dram_bg=1.0,
                  l1_sectors=True, uc="big"),
    "ucsmall": dict(node=40, sms=16, l2=12, channels=6, routers=1, noc="crossbar",
                    static_total=None, constant=0.0, dram="gddr5", atom=64, dram_bg=1.0,
                    l1_sectors=True, uc="small"),
}

# Assumed energy per bit moved to or from the DRAM devices (core + I/O), pJ/bit.
DRAM_PJ_PER_BIT = {"gddr5": 20.0, "gddr5x": 15.0, "hbm2": 4.0, "ddr3": 40.0}
# Assumed row command energies (nJ): ACT, PRE.
DRAM_ROW_NJ = {"gddr5": (2.0, 1.0), "gddr5x": (1.8, 0.9), "hbm2": (0.8, 0.4), "ddr3": (3.0, 1.5)}
# Process scaling of on-chip dynamic energy and of leakage per block, relative to 40 nm
# (assumed; 12 nm is set so that SGEMM 256^3 on the TITAN V draws about its 250 W
# board power).
NODE_SCALE = {40: 1.0, 28: 0.7, 16: 0.45, 12: 0.22}

# Split of the chip's static power: non-core 40 % (S002 sec. 5); of it L2 60 %, NoC 25 %,
# the rest (memory controllers, host interface) 15 % (assumed). SM share split below.
NONCORE, L2_SHARE, NOC_SHARE = 0.40, 0.60, 0.25
# Per SM: register file 32 % of the SM's leakage (S000, citing [54, 86]); the rest assumed.
SM_SPLIT = {"register_file": 0.32, "shared_memory": 0.12, "sp": 0.215, "sfu": 0.04,
            "dp": 0.0, "int": 0.0, "tensor": 0.0, "branch": 0.0, "ldst": 0.04,
            "fetch_decode": 0.08, "scheduler": 0.04, "operand_collector": 0.05}
L1_SHARE = {"data": 0.08, "tag": 0.01, "mshr": 0.005}  # of the SM's leakage (assumed)
L2_SPLIT = {"data": 0.85, "tag": 0.10, "mshr": 0.05}   # of a bank's leakage (assumed)

# Per-event energies at 40 nm, 1 V (pJ): assumed first-order values for the circuit itself
# (an FMA lane, an SRAM access), then all multiplied by DYNAMIC_CALIBRATION, which stands for
# what a bottom-up count leaves out (pipeline registers, clock tree, control, wires). It is
# set so that SGEMM 256^3 (scripts/power-calibration.sh) on Fermi splits 60 % dynamic /
# 40 % static, the chip-level split S002 sec. 6.3 reports (S000 assumes 2:1): with the
# values below alone it splits 6 % / 94 %, so the factor is 43.
DYNAMIC_CALIBRATION = 43
SM_EVENTS = {"fetch_decode": {"fetch": 12}, "scheduler": {"issue": 6},
             "register_file": {"read": 25, "write": 30}, "operand_collector": {"collect": 4},
             "sp": {"op": 4}, "sfu": {"op": 20}, "dp": {"op": 15}, "int": {"op": 1.5},
             "tensor": {"op": 2}, "branch": {"op": 1}, "ldst": {"op": 15},
             "shared_memory": {"access": 20}}
L1_EVENTS = {"data": {"read": 40, "write": 45}, "tag": {"lookup": 4},
             "mshr": {"allocate": 3, "merge": 1.5}}
L2_EVENTS = {"data": {"read": 80, "write": 90}, "tag": {"lookup": 6},
             "mshr": {"allocate": 4, "merge": 2}}
FLIT_PJ = {"crossbar": 25, "mesh": 15}

# Every static power here is at 1 V, the reference gputlm scales a domain's voltage against.
# A state's break-even time sets what a move into it from ON costs under a gating policy:
# break_even x clock period x (P_on - P_state) (docs/power.md).
# Snooze's tri-modal switch per 32 B line (S000 Table 5.2): ON 100 %, Sleep 22.8 % (2 cycles
# to wake), OFF 1.5 % (2 cycles). Break-even (assumed): 10 and 40 cycles.
SNOOZE = [("sleep", 0.228, 2, 10), ("off", 0.015, 2, 40)]
# Slumber's register levels (S000 Table 6.1): shallow sleep 94 % (4 cycles), deep sleep 42 %
# (13 cycles), power-gated 0 % (16 cycles). Break-even (assumed) = 2 x wake-up.
SLUMBER = [("shallow_sleep", 0.94, 4, 8), ("deep_sleep", 0.42, 13, 26), ("off", 0.0, 16, 32)]
# uC-States: a gated group has zero static power (S002 sec. 5); wake-up (assumed) 10 cycles.
GATED = [("off", 0.0, 10, 20)]
# uC-States' group states (S002 sec. 2.3, sec. 6.4, citing Hu et al.): power-gated (the
# stateless decoder, schedulers, SP and SFU units): no static and no clock power, wake-up 9
# cycles, break-even 19; clock-gated (the stateful LD/ST queue, collectors, pipeline
# registers): static power kept, no clock power, next-cycle wake-up, no break-even.
UC_PG = ("pg", 0.0, 9, 19)
# The big core (S002 sec. 2.1): twice a small core's SP, SFU, LD/ST, schedulers, fetch/decode
# and operand collectors; 36,864 registers instead of 32,768 (Table 3); the same 48 KB shared
# memory and 16 KB L1. A part's static and clock power scale with its size (S002 sec. 5:
# static power proportional to area).
UC_BIG_CORE = {"sp": 2, "sfu": 2, "ldst": 2, "scheduler": 2, "fetch_decode": 2,
               "operand_collector": 2, "pipeline_registers": 2, "register_file": 36864 / 32768}
# One warp instruction latched into a pipeline register (IDOC or OCEX), at 40 nm before the
# calibration (assumed, as SM_EVENTS).
UC_PIPELINE_REGISTER_PJ = 3
# Clock power of a busy or idle uC-States core (what clock gating saves): the GTX480 idle
# core's 1.59 W (gpuwattch_gtx480.xml idle_core_power, the clock tree and idle toggling), split
# over the core's components as its static power is and scaled as they are. Drawn by every
# component in ON whether the core holds a TB or not (so no separate idle-core state):
# GPUWattch folds a busy core's clock into its per-event energies instead, so a busy core's
# dynamic power is higher here by this clock power (assumed; docs/uc-states.md).
# An SM holding no TB draws the idle-core dynamic power (GPUWattch/AccelWattch IDLE_COREP:
# idle_core_power per idle core): the `core` component's `idle` state, as clock power. An
# SM at work draws none there: its clock is in the per-event energies (GPUWattch's
# accounting). Platforms without a figure of their own: the GTX480's x the node scale.
FERMI_IDLE_CORE = 1.59

# uC-States' static split (S002 sec. 5: "the static power of each core component directly
# proportional to its area", from GPUWattch's area estimates): the area of one GTX480 SM as
# GPUWattch's McPAT computes it for gpuwattch_gtx480.xml (GPGPU-Sim 4.0.1 src/gpuwattch,
# print level 5; the pipeline registers' and the undifferentiated core's areas, which McPAT
# counts in the core but does not print, read from its Processor object), mm^2; they add
# up to McPAT's 44.029 mm^2 core. Its core leakage, 2.8356 W (subthreshold 2.1638 W + gate
# 0.6718 W), is the small core's static power; 16 such cores and McPAT's L2, NoC and memory
# controllers make its 46.42 W chip (the 46.4 W above).
MCPAT_SM_AREA = {
    "fetch_decode": 0.001776 + 0.187406,  # instruction buffer + decoder (IFID)
    "shared_memory": 1.792926,            # x 1.1 of the LSU's layout overhead, as McPAT counts it
    "ldst": 1.201924,                     # the load/store queue
    "register_file": 1.852247,            # the banks
    "operand_collector": 0.001015,
    "scheduler": 0.015351,
    "sp": 2.520558 + 29.446321,           # the integer ALUs and the FPUs (Fermi's SP lanes do both)
    "sfu": 0.833078,                      # the complex ALUs
    "dp": 0.0, "int": 0.0, "tensor": 0.0, "branch": 0.0,
    "pipeline_registers": 0.507840,
    "l1": 1.332650,                       # the L1 data cache (data, tag, MSHR: L1_SHARE's ratio)
    # Never gated: the instruction cache 0.378310, the constant and texture caches 1.332650
    # each, the undifferentiated core logic 1.292435 (the `core` component).
    "core": 0.378310 + 2 * 1.332650 + 1.292435,
}
MCPAT_SM_LEAKAGE = 2.163769 + 0.671833  # W

FERMI_SM_STATIC = 46.4 * (1 - NONCORE) / 15           # W per SM
# The SM's static power above covers the SMX split and the L1 (together 1.0 of it).
FERMI_SM_SHARE = 1.0
FERMI_L2_STATIC = 46.4 * NONCORE * L2_SHARE / 12     # W per L2 bank
FERMI_NOC_STATIC = 46.4 * NONCORE * NOC_SHARE


def watts(w):
    return "0W" if w == 0 else ("%.4gmW" % (w * 1e3) if w < 1 else "%.4gW" % w)


def joules(pj):
    return "%.4gnJ" % (pj / 1e3) if pj >= 1000 else "%.4gpJ" % pj


def states(on, extra, clock=None):
    parts = ["on: %s" % watts(on) if clock is None else
             "on: {static: %s, clock: %s}" % (watts(on), watts(clock))]
    for name, frac, wake, be in extra:
        if clock is None:
            parts.append("%s: {static: %s, wake: %dcycles, break_even: %dcycles}" %
                         (name, watts(on * frac), wake, be))
        else:  # a uC-States group state: clock power only while ON
            parts.append("%s: {static: %s, clock: 0W, wake: %dcycles, break_even: %dcycles}" %
                         (name, watts(on * frac), wake, be))
    return "{" + ", ".join(parts) + "}"


def idle_core(out, p, k):
    w = p.get("idle_core", FERMI_IDLE_CORE * k)
    src = p.get("idle_src", "the GTX480's %s W x %.2f for %d nm" % (FERMI_IDLE_CORE, k, p["node"]))
    out.append("      # %s" % src)
    out.append("      core:")
    out.append("        states: {busy: 0W, idle: {static: 0W, clock: %s}}" % watts(w))


def component(out, name, on, events, extra=(), granularity=None, clock=None):
    out.append("      %s:" % name)
    if granularity:
        out.append("        granularity: %s" % granularity)
    out.append("        states: %s" % states(on, extra, clock))
    if events:
        out.append("        events: {%s}" % ", ".join("%s: %s" % (k, joules(v)) for k, v in events.items()))


# Where the SP share goes on chips with INT, DP and tensor units of their own (assumed).
UNIT_SPLIT = {"kepler": {"sp": 0.19, "dp": 0.025},
              "pascal": {"sp": 0.17, "int": 0.03, "dp": 0.015},
              "volta": {"sp": 0.12, "int": 0.04, "dp": 0.03, "tensor": 0.025}}


def table(name):
    p = PLATFORMS[name]
    k = NODE_SCALE[p["node"]]
    split = dict(SM_SPLIT, **UNIT_SPLIT.get(name, {}))
    if p["static_total"]:
        sm = p["static_total"] * (1 - NONCORE) / p["sms"]
        l2 = p["static_total"] * NONCORE * L2_SHARE / p["l2"]
        noc = p["static_total"] * NONCORE * NOC_SHARE
        src = p["static_src"]
    else:
        sm, l2 = FERMI_SM_STATIC * k, FERMI_L2_STATIC * k
        noc = FERMI_NOC_STATIC * k * (p["sms"] / 15)
        src = "the Fermi per-SM/per-bank leakage (46.4 W chip, S004 Table 6.4) x %.2f for %d nm" % (k, p["node"])
    uc = p.get("uc")
    if uc:
        # A core's static power split over its parts by their McPAT areas; the big core's
        # doubled parts twice theirs. Non-core static is 40 % of the big chip's (S002 sec. 5),
        # the same on both chips.
        area = sum(MCPAT_SM_AREA.values())
        share = {c: a / area for c, a in MCPAT_SM_AREA.items()}
        split = {c: f for c, f in share.items() if c not in ("l1", "core")}
        sm = MCPAT_SM_LEAKAGE
        big_sm = sm * sum(f * UC_BIG_CORE.get(c, 1) for c, f in share.items())
        noncore = p["sms"] * big_sm * NONCORE / (1 - NONCORE)
        l2, noc = noncore * L2_SHARE / p["l2"], noncore * NOC_SHARE
        small_chip = p["sms"] * sm + noncore
        big_chip = p["sms"] * big_sm + noncore
        src = ("GPUWattch's McPAT core leakage (%.4g W, gpuwattch_gtx480.xml) split by its "
               "component areas (S002 sec. 5), big-core parts doubled;\n  # non-core 40 %% of "
               "the big chip's (S002 sec. 5): %.2f W; chip static: big cores %.2f W, small "
               "cores %.2f W (big / small %.3f)" %
               (sm, noncore, big_chip, small_chip, big_chip / small_chip))
    out = ["power:",
           "  # Generated by scripts/power-table.py %s; every rule is in docs/power.md." % name,
           "  # First-order, not calibrated: static from %s," % src,
           "  # split by stated assumptions; on-chip event energies assumed for 40 nm x %.2f (%d nm)," % (k, p["node"]),
           "  # x %d so that SGEMM on Fermi is 60 %% dynamic (S002 sec. 6.3)." % DYNAMIC_CALIBRATION,
           "  source: \"scripts/power-table.py %s (docs/power.md)\"" % name,
           "  policy: always_on",
           "  components:"]
    if p["constant"]:
        out.append("    gpu:")
        component(out, "constant", p["constant"], {})
    out.append("    smx:")
    events = dict(SM_EVENTS, pipeline_registers={"write": UC_PIPELINE_REGISTER_PJ})
    for c, frac in split.items():
        extra = SLUMBER if c == "register_file" else GATED
        clock = None
        scale = UC_BIG_CORE.get(c, 1) if uc == "big" else 1
        if uc:
            clock = FERMI_IDLE_CORE * frac * scale
            if c == "register_file":  # its banks follow the collectors (clock-gated)
                extra = SLUMBER + [("cg", 1.0, 1, 0)]
            elif c in UC_BIG_CORE:  # a datapath component's group states
                extra = [UC_PG, ("cg", 1.0, 1, 0)]
        component(out, c, sm * frac * scale,
                  {e: v * k * DYNAMIC_CALIBRATION for e, v in events[c].items()}, extra,
                  clock=clock)
    if uc:
        out.append("      # never gated: the instruction, constant and texture caches and the "
                   "undifferentiated core logic;")
        out.append("      # the core's clock power is in its components' ON states, busy or idle (uC-States)")
        out.append("      core:")
        on = "{static: %s, clock: %s}" % (watts(sm * share["core"]),
                                          watts(FERMI_IDLE_CORE * share["core"]))
        out.append("        states: {busy: %s, idle: %s}" % (on, on))
    else:
        idle_core(out, p, k)
    out.append("    l1_cache:")
    l1_total = sum(L1_SHARE.values())
    for c, frac in L1_SHARE.items():
        static = sm * share["l1"] * frac / l1_total if uc else sm * frac
        component(out, c, static, {e: v * k * DYNAMIC_CALIBRATION for e, v in L1_EVENTS[c].items()},
                  SNOOZE if c == "data" else (), "32B" if c == "data" else None,
                  clock=FERMI_IDLE_CORE * share["l1"] * frac / l1_total if uc else None)
    out.append("    l2_cache:")
    for c, frac in L2_SPLIT.items():
        component(out, c, l2 * frac, {e: v * k * DYNAMIC_CALIBRATION for e, v in L2_EVENTS[c].items()},
                  SNOOZE if c == "data" else (), "32B" if c == "data" else None)
    out.append("    %s:" % p["noc"])
    component(out, "router", noc, {"flit": FLIT_PJ[p["noc"]] * k * DYNAMIC_CALIBRATION}, GATED)
    out.append("    dram_channel:")
    act, pre = DRAM_ROW_NJ[p["dram"]]
    burst = DRAM_PJ_PER_BIT[p["dram"]] * p["atom"] * 8
    component(out, "device", p["dram_bg"],
              {"activate": act * 1e3, "precharge": pre * 1e3, "read": burst, "write": burst})
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in PLATFORMS:
        sys.exit("usage: power-table.py " + "|".join(PLATFORMS))
    sys.stdout.write(table(sys.argv[1]))
