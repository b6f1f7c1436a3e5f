// The Slumber control unit of one SMX (Tripathy's thesis §6.3, Fig. 6.9, 6.10): the 2-bit
// mode of each 128-byte warp register (ON / SS / DS / OFF through its mux from the
// tri-modal switch's rails), its 10-bit wake-up counter, the per-warp 2-bit MSHR tracker
// (L1 hit / L1 miss / L2 miss of the warp's last load), and the rules that set a mode after
// each access from the compiler hint and the predicted idle period. It also runs the WRF
// baseline's rule on the same registers (`rule: wrf`; Abdel-Majeed & Annavaram, HPCA 2013,
// as the thesis states it). A controller beside the SMX (a child block, `slumber`), bound to
// it in the platform (`registers -> slumber.registers`, core::register_gate): the SMX hands
// it its register file, whose power elements become the 128-byte warp registers.
// yaml/mechanisms/slumber.yaml adds it. docs/power.md, "Slumber", states the decisions.
//
// Parameters: rule (slumber | wrf), idle_prediction (register: from the register's own next
// use; warp: from the warp's next instruction), hints (static | exact), lookahead_warps (3),
// counter_bits (the wake-up counter's width, default 10),
// l1_latency, l2_latency, dram_latency (the minimum round trips of a load served by the L1,
// the L2 and DRAM that the MSHR tracker's prediction uses; cycles, default 0: the smallest
// round trip the unit has observed so far, as a microbenchmark would measure it), ss_state,
// ds_state, off_state (the register file's states used as SS, DS and OFF; default
// shallow_sleep, deep_sleep, off), wrf_wake (WRF's drowsy wake-up: 1 cycle as in WRF's
// paper, whose drowsy cells wake in a cycle; 0: ds_state's wake-up from the power table),
// read_stage (cycles from issue to the operand collector's register read, 1 as in
// GPGPU-Sim's pipeline, which the SMX folds into the units' latencies: a wake-up that ends
// by then costs nothing).
//
// Slumber, per register (T: predicted idle cycles; thresholds are Table 6.1's wake-up
// delays, 4 / 13 / 16, as the thesis uses them):
//   choose(T, dead): dead (next access a write) and T >= 16: OFF; T >= 13: DS; T >= 4: SS;
//   else ON.
//   source read at issue: T = the cycles until the instruction that next uses the register
//     can issue, and no sooner than the warp's next instruction (idle_prediction: register;
//     `warp`: the warp's next instruction alone) (ready next cycle: 0, ON; waiting for a
//     register with a known ready time: that; for a load that missed L1: its predicted
//     return; no prediction: SS); no later use: OFF for good (the register file finds the
//     next use, core::register_file::idle_of); a DS/OFF register's
//     counter brings it to SS, SS's wake-up before the predicted end; the scheduler's
//     lookahead wakes a warp's SS and DS registers to ON once the warp is about to issue.
//   ALU destination at issue: T = the unit's fixed latency, choose(T, dead) (the next access
//     is the write); the counter wakes it to ON for the write-back. After the write-back: ON
//     when the warp's next instruction reads it, else SS.
//   load destination: ON until the L1's outcome (l1 latency after issue); an L1 miss ->
//     choose(predicted - l1, dead) with the counter waking it to ON at the predicted return
//     (L2 or DRAM minimum latency, by the warp's MSHR tracker); after the write-back, as a
//     source read (from the warp's state then).
//   warp exited: all its registers OFF; registers allocated but unused, and unallocated
//   ones, OFF (an OFF register wakes for the instruction that uses it).
// WRF: after every access a register is drowsy (DS's leakage, wrf_wake's wake-up); the
// registers of an instruction start waking when it is decoded into the instruction buffer; the
// destination of a pending operation stays ON until it is written; an exited warp's registers stay
// drowsy until its TB's registers are freed; unallocated registers are OFF.
//
// A register that is accessed before it is ON waits: a read (read_stage after issue) delays
// its instruction, a write its write-back (the SMX applies both). Event-driven: each register keeps
// its plan (mode since t0, when its counter fires, what wakes it) and its residency is settled at
// its next access or at the end, so nothing ticks; states and residency live in the power component
// whose elements are the registers.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock_domain.h"
#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"
#include "models/core/register_gate.h"
#include "models/power/gating_policy.h"
#include "models/power/power_component.h"

namespace gputlm::pm {

struct slumber_params {
  bool wrf = false;                   // WRF's rule instead of Slumber's
  std::uint32_t lookahead_warps = 3;  // beyond the current warp (0: unlimited)
  bool per_register = true;           // idleness from the register's own next use
  bool static_hints = true;           // one hint per static operand (else exact)
  std::uint32_t counter_bits = 10;
  std::uint64_t l1_latency = 0, l2_latency = 0, dram_latency = 0;  // cycles; 0: learned
  std::uint64_t wrf_wake = 1;    // WRF's drowsy wake-up, cycles (0: the table's DS wake-up)
  std::uint64_t read_stage = 1;  // cycles from issue to the operand collector's bank read
};

class slumber_control_unit : public component, public core::register_gate, public gating_policy {
 public:
  static constexpr std::uint64_t never = ~0ull;
  enum mode : std::uint8_t { on, ss, ds, off };
  using outlook = core::register_gate::outlook;

  slumber_control_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  // Placed where no SMX hands it a register file (its export `registers` unbound).
  std::string unattached() const override {
    return m_rf ? std::string()
                : "acts on no register file: bind an SMX's port to it (registers -> " +
                      std::string(basename()) + ".registers)";
  }
  void add_traces(vcd_writer& vcd) override;
  // The SMX's register file, handed over at the end of elaboration (register_gate).
  void take_over(power_component& rf, std::uint32_t warp_registers, std::uint32_t warp_slots,
                 std::uint32_t banks) override;
  sc_core::sc_export<core::register_gate> registers_export{"registers"};
  const slumber_params& params() const { return m_params; }
  // The SMX's warp slots and register banks (for the MSHR tracker and utilisation).
  void configure(std::uint32_t warp_slots, std::uint32_t banks);

  // Takes over the register file `rf`, whose elements are the warp registers; every
  // register starts OFF (unallocated).
  void control(power_component& rf, std::uint32_t ss_state, std::uint32_t ds_state,
               std::uint32_t off_state);
  bool wrf() const { return m_params.wrf; }
  bool wakes_at_decode() const override { return m_params.wrf; }
  bool idle_per_register() const override { return !m_params.wrf && m_params.per_register; }
  bool static_hints() const override { return m_params.static_hints; }

  // --- The TB scheduler's register allocation and the warps' ends
  // Warp slot `warp` gets `nregs` registers at `cycle`; false when no contiguous run of
  // free registers is left (its registers are then not tracked, and counted).
  bool allocate(std::uint32_t warp, std::uint32_t nregs, std::uint64_t cycle) override;
  void warp_exited(std::uint32_t warp, std::uint64_t cycle) override;
  void release(std::uint32_t warp, std::uint64_t cycle) override;

  // --- Register accesses (reg below 255; registers beyond the allocation are not tracked)
  // Whether the register is tracked.
  bool tracked(std::uint32_t warp, std::uint16_t reg) const override { return reg < m_nregs[warp]; }
  void untracked_access() override { ++m_stats.untracked_accesses; }
  // The cycle of the register's last write (after any wait for its wake-up).
  std::uint64_t written(std::uint32_t warp, std::uint16_t reg) const {
    return m_regs[m_base[warp] + reg].written;
  }
  // From when the scheduler's lookahead sees an instruction that waits for the register's
  // last write as about to be ready: SS's wake-up ahead of the write, once its cycle is known
  // (a fixed-latency result's at its issue, a load's when its data return).
  std::uint64_t ready_seen(std::uint32_t warp, std::uint16_t reg) const override {
    const reg_plan& p = m_regs[m_base[warp] + reg];
    return std::max(p.written > m_wake[ss] ? p.written - m_wake[ss] : 0, p.known);
  }
  // The warp issued its instruction `index` at `cycle` from warp scheduler `scheduler`; the
  // scheduler's lookahead saw it from `ready` on (Slumber: in the buffer and about to be
  // ready, and, with lookahead_warps, once the warp was among the scheduler's next
  // lookahead_warps warps after the current one; WRF: decoded). Called before the
  // instruction's accesses.
  void issued(std::uint32_t warp, std::uint32_t index, std::uint64_t ready, std::uint64_t cycle,
              std::uint32_t scheduler) override;
  // A source read at `cycle` by the warp's instruction `index`: returns the cycles it waits.
  std::uint64_t read(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank, std::uint64_t cycle,
                     std::uint32_t index) override;
  // After an access: the register's new mode, from `cycle` (the access, after any wait) on.
  // `dead`: its next access is a write (the hint); `o`: what the warp's next instruction,
  // `next` (its index), says, or per register, the instruction that next uses it (o unknown
  // when that is not the warp's next one; no_next_use: none, it stays OFF).
  void after_access(std::uint32_t warp, std::uint16_t reg, std::uint64_t cycle, bool dead,
                    const outlook& o, std::uint32_t next) override;
  // The destination of an instruction of fixed latency `latency` issued at `cycle`, its
  // result due at `result`: returns the cycles its write-back waits. `next_reads`: the
  // warp's next instruction reads it (then it stays ON after the write).
  // `next_use`: the instruction that next accesses it (index + 1 but per register), which
  // the lookahead wakes it for after the write.
  std::uint64_t fixed_destination(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                                  std::uint64_t cycle, std::uint32_t index, std::uint64_t latency,
                                  std::uint64_t result, bool next_reads,
                                  std::uint32_t next_use) override;
  // The destination of the warp's load `index`, which leaves for the L1 at `cycle`.
  void load_destination(std::uint32_t warp, std::uint16_t reg, std::uint64_t cycle,
                        std::uint32_t index) override;
  // A load issued at `issued` by `warp` was answered at `cycle` by `served`
  // (mem_request::served_by): the MSHR tracker and the latencies learn from it.
  void load_answered(std::uint32_t warp, std::uint64_t issued, std::uint64_t cycle,
                     std::uint8_t served) override;
  // The load's destination is written at `cycle`: returns the cycles the write waits.
  std::uint64_t load_written(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                             std::uint64_t cycle, std::uint8_t served) override;
  // The predicted return of the warp's latest load that missed L1 (0: none pending).
  std::uint64_t load_due(std::uint32_t warp) const override { return m_load_due[warp]; }

  // Settles every register's residency up to now_fs (before totals are read); as the
  // register file's gate too.
  void settle(std::uint64_t now_fs);
  void settle(power_component&, std::uint64_t now_fs) override { settle(now_fs); }
  std::string gate_name() const override { return *m_rule; }

  struct statistics {
    counter reads, writes;               // register accesses seen
    counter wakes;                       // registers woken from SS, DS or OFF
    counter read_waits;                  // reads that waited for a wake-up
    counter wake_wait_cycles;            // cycles reads waited
    counter write_waits;                 // write-backs that waited
    counter write_wait_cycles;           // cycles write-backs waited
    counter fetch_misses;                // accesses whose next use missed L1I: rules (c)/(d)
    counter idle_ss, idle_ds, idle_off;  // register-cycles of allocated registers in each
    counter idle_periods;                // inter-access gaps of one register
    counter idle_periods_over_16;        // of them, longer than 16 cycles
    counter idle_cycles;                 // their total length
    counter idle_cycles_over_16;         // cycles in gaps longer than 16
    counter rf_access_cycles;            // cycles in which the register file was accessed
    counter bank_access_cycles;          // sum over banks of their accessed cycles
    counter warp_access_cycles;          // sum over warp slots of their registers' accessed cycles
    counter register_access_cycles;      // sum over registers of their accessed cycles
    counter unplaced_warps;              // warps whose registers found no room (not tracked)
    counter untracked_accesses;          // accesses to registers beyond a warp's allocation
  };
  const statistics& stats() const { return m_stats; }
  statistics& stats() { return m_stats; }
  std::uint32_t registers() const { return static_cast<std::uint32_t>(m_regs.size()); }
  std::uint32_t banks() const { return static_cast<std::uint32_t>(m_bank_seen.size()); }
  std::uint32_t warp_slots() const { return static_cast<std::uint32_t>(m_base.size()); }
  // Registers per mode, as last decided (unallocated ones OFF).
  std::uint32_t in_mode(mode m) const { return m_in_mode[m]; }

 private:
  void add_statistics();
  choice_param m_rule{
      *this, "rule", "slumber", "the register-state rule: Slumber's or WRF's", {"slumber", "wrf"}};
  param<std::uint64_t> m_counter_bits{*this, "counter_bits", 10, "wake-up counter bits (1..20)"};
  choice_param m_idle_prediction{
      *this,
      "idle_prediction",
      "register",
      "what a register's idle period is predicted from: its own next use (register) or the "
      "warp's next instruction (warp)",
      {"register", "warp"}};
  choice_param m_hints{*this,
                       "hints",
                       "static",
                       "the compiler hints: one per static operand (PC, register), R where "
                       "the warp's instances disagree (static), or exact per instance (exact)",
                       {"static", "exact"}};
  param<std::uint64_t> m_lookahead_warps{
      *this, "lookahead_warps", 3,
      "warps the scheduler's lookahead sees beyond the current one (0: every ready warp)"};
  param<cycles> m_l1_latency{
      *this, "l1_latency", {0}, "minimum round trip of a load the L1 serves (0: learned)"};
  param<cycles> m_l2_latency{
      *this, "l2_latency", {0}, "minimum round trip of a load the L2 serves (0: learned)"};
  param<cycles> m_dram_latency{
      *this, "dram_latency", {0}, "minimum round trip of a load DRAM serves (0: learned)"};
  param<cycles> m_wrf_wake{*this,
                           "wrf_wake",
                           {1},
                           "WRF's drowsy wake-up (WRF's paper: 1 cycle; 0: the power table's "
                           "wake-up of ds_state)"};
  param<cycles> m_read_stage{*this,
                             "read_stage",
                             {1},
                             "cycles from an instruction's issue to its operand collector's "
                             "register read, which a wake-up may overlap (GPGPU-Sim: 1)"};
  param<std::string> m_ss_name{*this, "ss_state", "shallow_sleep",
                               "the register file's state used as SS"};
  param<std::string> m_ds_name{*this, "ds_state", "deep_sleep",
                               "the register file's state used as DS"};
  param<std::string> m_off_name{*this, "off_state", "off", "the register file's state used as OFF"};

  // One register's plan: mode `m` from t0; its counter fires at `fire` and brings it to `to`
  // (ON, or SS whence the lookahead wakes it); not ON before `not_on_before` (a wake-up
  // begun earlier). `write_at`: a write known at issue ends the plan then, after which the
  // mode is `after` (woken by the lookahead when not ON).
  struct reg_plan {
    std::uint64_t t0 = 0, fire = never, not_on_before = 0, write_at = never;
    std::uint64_t lead_on = never;   // a load's destination: ON from here until t0
    std::uint64_t written = 0;       // last write
    std::uint64_t known = 0;         // when the last write's cycle became known
    std::uint32_t wake_after = 0;    // the lookahead wakes it for the warp's instructions from this
    std::uint64_t accessed = never;  // last access (cycle)
    std::uint8_t m = off, to = on, after = on;
    bool allocated = false;
  };
  std::uint64_t wake(std::uint8_t m) const { return m_wake[m]; }
  mode choose(std::uint64_t idle, bool dead) const;
  std::uint64_t counter_max() const { return (1ull << m_params.counter_bits) - 1; }
  // Applies the register's plan up to `end` (states, residency, idle split); the register is
  // woken at `trigger` (never: only by its counter). Returns the cycle it is ON (never: not
  // woken). The plan itself is left for the caller to replace.
  std::uint64_t close(std::uint32_t e, std::uint64_t end, std::uint64_t trigger);
  // The plan's write known at issue, when it has happened by `end`.
  void close_pending_write(std::uint32_t e, std::uint64_t end);
  // Register e's mode at `cycle` after close(): ON when it was woken (`woken`, close()'s
  // answer, not never), else its plan's, or SS once its counter brought it there.
  mode mode_at(std::uint32_t e, std::uint64_t cycle, std::uint64_t woken) const {
    const reg_plan& p = m_regs[e];
    if (woken != never) return on;
    return p.to == ss && p.fire <= cycle ? ss : mode(p.m);
  }
  void begin(std::uint32_t e, mode m, std::uint64_t t0, std::uint64_t fire, mode to);
  void set_mode(std::uint32_t e, mode m);
  void set_state(std::uint32_t e, mode m, std::uint64_t cycle);
  // One access at `cycle` (utilisation and idle periods).
  void accessed(std::uint32_t warp, std::uint32_t e, std::uint32_t bank, std::uint64_t cycle);
  std::uint64_t predicted_return(std::uint32_t warp) const;
  // When the lookahead wakes register e for the warp's instruction `index` (never: it does
  // not): WRF at the instruction's decode; Slumber once the warp is in the lookahead (about
  // to be ready) after the register's plan began. (Settles a write the plan ended with.)
  std::uint64_t trigger(std::uint32_t e, std::uint32_t warp, std::uint32_t index);
  // The warps' last `history` issues, for the lookahead (per warp slot, by index).
  static constexpr std::uint32_t history = 64;
  struct issue_record {
    std::uint64_t ready = 0, issued = 0;
  };
  std::vector<issue_record> m_issues;
  // Per warp scheduler, its last `history` issues (warp slot, cycle), newest at count - 1:
  // the order the lookahead's depth is counted in.
  struct scheduler_issue {
    std::uint32_t warp = 0;
    std::uint64_t cycle = 0;
  };
  struct scheduler_history {
    scheduler_issue last[history];
    std::uint64_t count = 0;
  };
  std::vector<scheduler_history> m_scheduler_issues;
  // From when `warp`, issuing now from `scheduler`, was among that scheduler's current warp
  // and the next lookahead_warps warps (0: as far back as the history shows).
  std::uint64_t in_lookahead_from(std::uint32_t scheduler, std::uint32_t warp) const;

  slumber_params m_params;
  power_component* m_rf = nullptr;
  std::uint32_t m_state[4] = {0, 0, 0, 0};  // power-component state per mode
  std::uint64_t m_wake[4] = {0, 4, 13, 16};
  std::vector<reg_plan> m_regs;           // per warp register (element)
  std::vector<std::uint32_t> m_base;      // per warp slot: its first register
  std::vector<std::uint32_t> m_nregs;     // per warp slot: registers it holds (0: none)
  std::vector<std::uint8_t> m_tracker;    // per warp slot: MSHR tracker (0, 1, 2)
  std::vector<std::uint64_t> m_load_due;  // per warp slot
  // Which of the last 256 cycles (up to the newest one seen) had an access to a unit: writes
  // are reported at issue for their later cycle, so accesses do not come in cycle order.
  struct seen_cycles {
    std::uint64_t newest = never;
    std::uint64_t bits[4] = {0, 0, 0, 0};
    bool mark(std::uint64_t cycle);  // true: the first access in that cycle
  };
  std::vector<seen_cycles> m_warp_seen;  // per warp slot
  std::vector<seen_cycles> m_bank_seen;  // per bank
  seen_cycles m_rf_seen;
  std::uint64_t m_min_latency[4] = {0, 0, 0, 0};  // learned, by mem_request::served_by
  std::uint32_t m_in_mode[4] = {0, 0, 0, 0};
  statistics m_stats;
  traced_value m_trace_mode[4];
};

}  // namespace gputlm::pm
