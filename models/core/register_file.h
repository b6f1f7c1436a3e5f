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

#include <cstdint>
#include <systemc>
#include <vector>

#include "models/core/register_banks.h"
#include "models/core/register_gate.h"
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
  bool collector_free(std::uint64_t cycle) { return m_banks.collector_free(cycle); }
  std::uint64_t read(const std::uint16_t* regs, std::uint32_t n, std::uint32_t warp,
                     std::uint32_t scheduler, std::uint64_t cycle) {
    return m_banks.read(regs, n, warp, scheduler, cycle);
  }
  std::uint64_t conflicts() const { return m_banks.conflicts(); }

  // --- Register-level power management
  void manage(register_gate& unit, std::uint32_t warp_slots);
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
  // The sources' modes after the read at `cycle`, from the warp's next instruction.
  void operands_idle(std::uint32_t warp, std::uint32_t i, const traces::warp_instruction& in,
                     std::uint64_t cycle, const outlook& o);
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

 private:
  // A register the unit manages; an access to one beyond the warp's allocation is counted.
  bool managed(std::uint32_t warp, std::uint16_t reg);
  register_banks m_banks;
  register_gate* m_unit = nullptr;
  std::vector<std::vector<std::uint8_t>> m_hints;  // per warp slot: per instruction
  std::vector<std::uint8_t> m_scratch;
};

}  // namespace gputlm::core
