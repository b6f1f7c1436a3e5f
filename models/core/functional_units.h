// The SMX's execution units of one class (SP, SFU, DP, INT, tensor, branch): `count`
// pipelines, each accepting an instruction every `initiation` cycles and producing its
// result `latency` cycles later (Accel-Sim trace.config latency,initiation). An instruction
// of a class without units of its own runs on another class's units with its own class's
// latency and initiation (the SMX passes them). With the sub-core model (Volta, Pascal)
// each warp scheduler owns its share of the units.
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::core {

class unit_pool {
 public:
  unit_pool() = default;
  unit_pool(std::uint32_t count, std::uint32_t latency, std::uint32_t initiation,
            std::uint32_t schedulers, bool sub_core);

  bool exists() const { return !m_next_free.empty(); }
  std::uint32_t count() const { return static_cast<std::uint32_t>(m_next_free.size()); }
  std::uint32_t latency() const { return m_latency; }
  std::uint32_t initiation() const { return m_initiation; }
  // A unit scheduler `s` may use that is free at `cycle`, or -1.
  int free_unit(std::uint32_t s, std::uint64_t cycle) const;
  // Occupies unit `u` from `cycle` for `initiation` cycles; returns when it accepts its next
  // instruction.
  std::uint64_t occupy(int u, std::uint64_t cycle, std::uint32_t initiation) {
    return m_next_free[static_cast<std::size_t>(u)] = cycle + initiation;
  }
  // The earliest cycle at which one of scheduler s's units is free.
  std::uint64_t next_free(std::uint32_t s) const;
  // μC-States' tune-down (Kayiran et al., PACT'16, §2.3): group 1 is gated, and free_unit
  // and next_free see group 0 only, the lower half of each scheduler's units (rounded down,
  // at least one); false turns group 1 back on. An instruction in a gated unit finishes.
  void set_tuned_down(bool down);
  bool tuned_down() const { return m_tuned_down; }

 private:
  std::uint32_t first(std::uint32_t s) const;
  std::uint32_t last(std::uint32_t s) const;
  // Scheduler s's units [first, last), kept per scheduler (no division per lookup).
  struct unit_range {
    std::uint32_t first, last;
  };
  unit_range range(std::uint32_t s) const {
    return s < m_ranges.size() ? m_ranges[s] : unit_range{first(s), last(s)};
  }

  std::vector<std::uint64_t> m_next_free;
  std::vector<unit_range> m_ranges;  // what free_unit and next_free see
  bool m_tuned_down = false;
  std::uint32_t m_latency = 0;
  std::uint32_t m_initiation = 1;
  std::uint32_t m_schedulers = 1;
  bool m_partitioned = false;
};

}  // namespace gputlm::core
