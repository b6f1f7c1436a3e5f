// The SMX's register file: its banks with operand collection (register_banks.h: bank
// conflicts, collector units) and, when a register-level power controller is bound beside
// the SMX (register_gate.h: Slumber or WRF), the register accesses it reports to it with
// each operand's compiler hint (traces/register_hints.h, derived from the warp's trace when
// its TB is launched). Fermi's 128 KB file of 1024 warp registers in banks (Tripathy's
// thesis §6.1.1; GPGPU-Sim's register_bank()).
//
// Interface (what the SMX's issue logic, write-back and TB launch call):
//   read / bank_of / collector_free / conflicts: the banks, as register_banks;
//   with a control unit (power_managed()):
//     allocate / warp_exited / release       TB allocation, warp exit, TB end
//     read_operands -> wait                  the sources of an instruction issued now
//     operands_idle                          their modes after the read
//     fixed_results -> write wait            destinations of a fixed-latency instruction
//     load_results, load_written -> wait     a load's destinations and their write-back
#pragma once

#include <algorithm>
#include <cstdint>
#include <systemc>
#include <vector>

#include "models/core/register_banks.h"
#include "models/core/register_gate.h"
#include "traces/register_hints.h"
#include "traces/trace_types.h"

namespace gputlm::core {

class register_file : public sc_core::sc_module {
 public:
  using outlook = register_gate::outlook;

  explicit register_file(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}

  void configure(std::uint32_t banks, std::uint32_t port_throughput, std::uint32_t schedulers,
                 bool sub_core, std::uint32_t collector_units) {
    m_banks = register_banks(banks, port_throughput, schedulers, sub_core, collector_units);
  }
  std::uint32_t bank_of(std::uint32_t reg, std::uint32_t warp, std::uint32_t scheduler) const {
    return m_banks.bank_of(reg, warp, scheduler);
  }
  bool collector_free(std::uint64_t cycle, std::uint32_t kind = 0) {
    return m_banks.collector_free(cycle, kind);
  }
  std::uint64_t read(const std::uint16_t* regs, std::uint32_t n, std::uint32_t warp,
                     std::uint32_t scheduler, std::uint64_t cycle, std::uint32_t kind = 0) {
    return m_banks.read(regs, n, warp, scheduler, cycle, kind);
  }
  register_banks& banks() { return m_banks; }
  const register_banks& banks_view() const { return m_banks; }
  std::uint64_t conflicts() const { return m_banks.conflicts(); }

  // --- Register-level power management
  // `ibuffer_entries`: the warp's instruction buffer, whose entries show the lookahead the
  // uses of registers ahead.
  void manage(register_gate& unit, std::uint32_t warp_slots, std::uint32_t ibuffer_entries);
  bool power_managed() const { return m_unit != nullptr; }
  // A register (not RZ) within the warp's allocation.
  bool tracked(std::uint32_t warp, std::uint16_t reg) const {
    return reg < 255 && m_unit->tracked(warp, reg);
  }

  void allocate(std::uint32_t warp, const traces::warp_trace& trace, std::uint32_t nregs,
                std::uint64_t cycle);
  void warp_exited(std::uint32_t warp, std::uint64_t cycle) { m_unit->warp_exited(warp, cycle); }
  void release(std::uint32_t warp, std::uint64_t cycle) { m_unit->release(warp, cycle); }

  // The warp's instruction `i` issued at `cycle` (in its buffer from `landed`): its sources
  // are read; returns the cycles the reads wait.
  std::uint64_t read_operands(std::uint32_t warp, std::uint32_t scheduler, std::uint32_t i,
                              const traces::warp_instruction& in, std::uint64_t landed,
                              std::uint64_t cycle);
  // The sources' modes after the read at `cycle`, from the warp's next instruction (`o`) and,
  // per register, from the outlook of the instruction that next uses each
  // (`outlook_at(j)`).
  template <class OutlookAt>
  void operands_idle(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                     std::uint64_t cycle, const outlook& o, OutlookAt&& outlook_at) {
    std::uint16_t regs[6];
    bool reads[6];
    const std::size_t n = traces::registers_of(in, regs, reads);
    for (std::size_t r = 0; r < n; ++r) {
      if (!reads[r] || !tracked(warp, regs[r])) continue;
      bool written = false;  // a destination too: its write decides
      for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
        written = written || in.dst[k] == regs[r];
      if (written) continue;
      std::uint32_t wake_for = 0;
      const outlook ro = idle_of(warp, i, in, regs[r], i + 1, o, wake_for, outlook_at);
      m_unit->after_access(warp, regs[r], cycle, (m_hints[warp][i] >> r) & 1, ro, wake_for);
    }
  }
  // Destinations of a fixed-latency instruction (latency `latency`, result at `result`):
  // returns the cycles its write-back waits. `next`: the warp's next instruction (or null).
  std::uint64_t fixed_results(std::uint32_t warp, std::uint32_t scheduler, std::uint32_t i,
                              const traces::warp_instruction& in, std::uint64_t cycle,
                              std::uint64_t latency, std::uint64_t result,
                              const traces::warp_instruction* next);
  // Destinations of the warp's load `i`, sent at `cycle`.
  void load_results(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                    std::uint64_t cycle);
  // Whether register `reg` of instruction `i` is next accessed by a write (hint W).
  bool dead_after(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                  std::uint16_t reg) const;
  // The index of the instruction that next accesses register `reg` of instruction `i`
  // (register_gate::no_next_use: none does); `i + 1` unless the unit predicts per register.
  std::uint32_t next_use(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                         std::uint16_t reg) const;
  // Register `reg` of instruction `i` after the access: its outlook and the instruction the
  // lookahead wakes it for (`wake_for`): the warp's next instruction's (`o`; `next`), or per
  // register, the instruction j that next uses it: idle until both the warp's next
  // instruction and j can issue (`outlook_at(j)`: j's operands; in order, j comes no sooner
  // than the warp's next one), woken for the instruction from which j is in the warp's
  // instruction buffer (ibuffer_entries before j); no further use: dead for good.
  template <class OutlookAt>
  outlook idle_of(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                  std::uint16_t reg, std::uint32_t next, const outlook& o, std::uint32_t& wake_for,
                  OutlookAt&& outlook_at) const {
    wake_for = m_per_register ? next_use(warp, i, in, reg) : next;
    if (!m_per_register || wake_for == next || wake_for == register_gate::no_next_use) return o;
    const outlook oj = outlook_at(wake_for);
    // Woken once the instruction from which j is in the warp's instruction buffer is about
    // to issue: the buffer's entries are what shows the lookahead a use ahead.
    wake_for = std::max(next, wake_for - std::min(wake_for, m_ibuffer_entries));
    return {std::max(o.idle, oj.idle), o.known && oj.known, o.not_in_l1i || oj.not_in_l1i};
  }

 private:
  // A register the unit manages; an access to one beyond the warp's allocation is counted.
  bool managed(std::uint32_t warp, std::uint16_t reg);
  register_banks m_banks;
  // The slot of register `reg` among the registers `in` accesses (traces::registers_of's
  // order); 6 when `in` does not access it.
  static std::size_t operand_slot(const traces::warp_instruction& in, std::uint16_t reg);
  register_gate* m_unit = nullptr;
  std::vector<std::vector<std::uint8_t>> m_hints;  // per warp slot: per instruction
  std::vector<std::uint8_t> m_scratch;
  // Per register (the unit predicting per register): per warp slot, per instruction and
  // register, the distance to its next use (traces::warp_next_uses).
  bool m_per_register = false;
  std::uint32_t m_ibuffer_entries = 2;
  bool m_static_hints = false;
  std::vector<std::vector<std::uint8_t>> m_next_use;
  std::vector<std::uint32_t> m_scratch_at;
};

}  // namespace gputlm::core
