// Register file banks and operand collection. A warp register lives in bank
// (register + warp) mod banks, within the issuing scheduler's banks under the sub-core
// model (as GPGPU-Sim's register_bank()); each bank serves `port_throughput` reads per
// cycle. An instruction's source reads start in its issue cycle; reads that collide on a
// bank wait for the next free slot, delaying the instruction's execution. The number of
// instructions collecting operands at once is limited by the collector units (0: no limit):
// one pool of them, or (set_collector_sets) GPGPU-Sim's sets per instruction type, SP, SFU
// and MEM, with generic units any type may use once its own set is busy. A set may be
// limited to its first units (μC-States' OC tune-down, S002 §2.3).
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::core {

class register_banks {
 public:
  register_banks() = default;
  register_banks(std::uint32_t banks, std::uint32_t port_throughput, std::uint32_t schedulers,
                 bool sub_core, std::uint32_t collector_units);

  std::uint32_t bank_of(std::uint32_t reg, std::uint32_t warp, std::uint32_t scheduler) const;
  // The collector sets: SP, SFU and MEM units (kinds 0, 1, 2) and generic ones, instead of
  // one pool of collector_units.
  static constexpr std::uint32_t collector_kinds = 3;
  void set_collector_sets(const std::uint32_t (&units)[collector_kinds], std::uint32_t generic);
  bool collector_sets() const { return m_sets; }
  std::uint32_t collector_units(std::uint32_t kind) const {
    return std::uint32_t(m_set[kind].size());
  }
  // Set `kind` uses its first `units` only (at least one).
  void limit_collectors(std::uint32_t kind, std::uint32_t units) { m_enabled[kind] = units; }
  bool collectors_limited(std::uint32_t kind) const { return m_enabled[kind] < m_set[kind].size(); }
  // True if a collector unit an instruction of `kind` may take is free at `cycle`.
  bool collector_free(std::uint64_t cycle, std::uint32_t kind = 0);
  // Reserves the reads of `regs` (no_reg entries skipped) starting at `cycle`; returns the
  // cycle in which the last operand is read (== cycle without conflicts).
  std::uint64_t read(const std::uint16_t* regs, std::uint32_t n, std::uint32_t warp,
                     std::uint32_t scheduler, std::uint64_t cycle, std::uint32_t kind = 0);
  // With collector sets: an instruction of `kind` holds a unit from `cycle` to `until`
  // (a memory instruction's operands, read in its issue cycle).
  void hold_collector(std::uint32_t kind, std::uint64_t cycle, std::uint64_t until);
  // The unit the last read (or hold) took stays held until `until` (the instruction waits in
  // it for the collector-to-execution register).
  void extend_hold(std::uint64_t until) {
    if (m_last_held && *m_last_held < until) *m_last_held = until;
  }
  std::uint64_t conflicts() const { return m_conflicts; }
  std::uint32_t banks() const { return static_cast<std::uint32_t>(m_banks.size()); }

 private:
  struct bank_state {
    std::uint64_t cycle = 0;  // the cycle whose reads `used` counts
    std::uint32_t used = 0;
  };
  std::vector<bank_state> m_banks;
  // The collector units' busy-until: per kind with collector sets (m_sets), and the generic
  // units any kind takes (without sets: every unit, the one pool); the units of each kind
  // in use.
  bool m_sets = false;
  std::vector<std::uint64_t> m_set[collector_kinds], m_generic;
  std::uint32_t m_enabled[collector_kinds] = {};
  // The unit of `kind` (or a generic one) an instruction takes at `cycle`, or null.
  std::uint64_t* set_unit(std::uint32_t kind, std::uint64_t cycle);
  // Takes that unit (if any) until `until`.
  void take_unit(std::uint32_t kind, std::uint64_t cycle, std::uint64_t until);
  std::uint64_t* m_last_held = nullptr;  // the unit the last instruction took (or null)
  std::uint32_t m_throughput = 1;
  std::uint32_t m_schedulers = 1;
  bool m_sub_core = false;
  std::uint32_t m_group = 1;  // banks a register may be in: all, or a scheduler's share
  bool m_group_pow2 = true;   // then a bank within the group needs no division
  std::uint64_t m_conflicts = 0;
};

}  // namespace gputlm::core
