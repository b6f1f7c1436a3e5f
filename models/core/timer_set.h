// The SMX's wake-up times: the cycles at which something it waits for happens (a result
// written back, a functional unit or the LDST unit freed), as a set. A bit per cycle for
// the 64 cycles after the last pop (results and units are mostly that close), a min-heap
// for the others. A host-side structure of the event-driven SMX, not hardware.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace gputlm::core {

class timer_set {
 public:
  static constexpr std::uint64_t never = ~0ull;

  bool empty() const { return m_bits == 0 && m_far.empty(); }
  std::uint64_t top() const {  // the earliest (not empty)
    const std::uint64_t near = m_bits ? m_base + std::uint64_t(__builtin_ctzll(m_bits)) : never;
    return m_far.empty() ? near : std::min(near, m_far.top());
  }
  void push(std::uint64_t cycle) {
    if (cycle >= m_base && cycle - m_base < 64)
      m_bits |= 1ull << (cycle - m_base);
    else
      push_far(cycle);  // rare: kept out of line so that push() inlines
  }
  void pop_through(std::uint64_t cycle) {  // removes every cycle up to `cycle`
    while (!m_far.empty() && m_far.top() <= cycle) m_far.pop();
    if (cycle < m_base) return;
    const std::uint64_t shift = cycle + 1 - m_base;
    m_bits = shift >= 64 ? 0 : m_bits >> shift;
    m_base = cycle + 1;
  }

 private:
  [[gnu::noinline]] void push_far(std::uint64_t cycle) { m_far.push(cycle); }
  std::uint64_t m_base = 0;  // the cycle of bit 0
  std::uint64_t m_bits = 0;
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> m_far;
};

}  // namespace gputlm::core
