#include "models/core/pipeline_registers.h"

#include <algorithm>

namespace gputlm::core {

void pipeline_registers::configure(const std::uint32_t (&width)[types]) {
  m_bounded = false;
  for (std::uint32_t k = 0; k < types; ++k) {
    m_width[k] = m_limit[k] = width[k];
    m_bounded = m_bounded || width[k] != 0;
    m_book[k].fill(booking{});
  }
}

void pipeline_registers::tune(std::uint32_t k, bool down) {
  m_limit[k] = down ? std::max(1u, m_width[k] / 2) : m_width[k];
}

bool pipeline_registers::free(std::uint32_t k, std::uint64_t cycle) const {
  if (m_limit[k] == 0) return true;
  const booking& b = m_book[k][cycle % horizon];
  return b.cycle != cycle || b.used < m_limit[k];
}

std::uint64_t pipeline_registers::take(std::uint32_t k, std::uint64_t cycle) {
  if (m_limit[k] == 0) return cycle;
  for (;; ++cycle) {
    booking& b = m_book[k][cycle % horizon];
    if (b.cycle != cycle) b = {cycle, 0};
    if (b.used < m_limit[k]) {
      ++b.used;
      return cycle;
    }
  }
}

}  // namespace gputlm::core
