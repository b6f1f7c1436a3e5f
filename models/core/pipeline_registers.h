// The pipeline registers of an SMX's three pipelines (SP, SFU, MEM) between two stages:
// issue to the operand collectors (IDOC) or the collectors to the execution units (OCEX),
// bounded as GPGPU-Sim's gpgpu_pipeline_widths bounds ID_OC_* and OC_EX_* (μC-States,
// Kayiran et al., PACT 2016, §2.1: the big core doubles them). A register of width w passes
// at most w instructions of its type a cycle; width 0 is unbounded (the shipped platforms).
// μC-States' tune-down of IDOC_k or OCEX_k (§2.3) gates half the slots (at least one stays).
// Slots are booked by cycle, up to `horizon` cycles ahead (an instruction reaches OCEX when
// its last operand is read, a few cycles after issue).
#pragma once

#include <array>
#include <cstdint>

namespace gputlm::core {

class pipeline_registers {
 public:
  static constexpr std::uint32_t types = 3;
  static constexpr std::uint32_t horizon = 64;

  void configure(const std::uint32_t (&width)[types]);
  bool bounded() const { return m_bounded; }
  std::uint32_t width(std::uint32_t k) const { return m_width[k]; }
  bool tuned_down(std::uint32_t k) const { return m_limit[k] < m_width[k]; }
  void tune(std::uint32_t k, bool down);
  // True if an instruction of type k may pass in `cycle`.
  bool free(std::uint32_t k, std::uint64_t cycle) const;
  // Books the first slot of type k at or after `cycle`; returns its cycle.
  std::uint64_t take(std::uint32_t k, std::uint64_t cycle);

 private:
  struct booking {
    std::uint64_t cycle = ~0ull;
    std::uint32_t used = 0;
  };
  bool m_bounded = false;
  std::uint32_t m_width[types] = {}, m_limit[types] = {};
  std::array<booking, horizon> m_book[types];
};

}  // namespace gputlm::core
