#include "models/core/functional_units.h"

#include <algorithm>

namespace gputlm::core {

unit_pool::unit_pool(std::uint32_t count, std::uint32_t latency, std::uint32_t initiation,
                     std::uint32_t schedulers, bool sub_core)
    : m_next_free(count, 0),
      m_latency(latency),
      m_initiation(initiation ? initiation : 1),
      m_schedulers(schedulers ? schedulers : 1),
      m_partitioned(sub_core && count >= schedulers && schedulers > 1) {
  for (std::uint32_t sc = 0; sc < m_schedulers; ++sc) m_ranges.push_back({first(sc), last(sc)});
}

std::uint32_t unit_pool::first(std::uint32_t s) const {
  return m_partitioned ? static_cast<std::uint32_t>(s * m_next_free.size() / m_schedulers) : 0;
}

std::uint32_t unit_pool::last(std::uint32_t s) const {
  return m_partitioned ? static_cast<std::uint32_t>((s + 1) * m_next_free.size() / m_schedulers)
                       : static_cast<std::uint32_t>(m_next_free.size());
}

void unit_pool::set_tuned_down(bool down) {
  m_tuned_down = down;
  for (std::uint32_t sc = 0; sc < m_ranges.size(); ++sc) {
    const std::uint32_t a = first(sc), b = last(sc);
    m_ranges[sc] = {a, down && b - a > 1 ? a + (b - a) / 2 : b};
  }
}

int unit_pool::free_unit(std::uint32_t s, std::uint64_t cycle) const {
  const unit_range r = range(s);
  for (std::uint32_t u = r.first; u < r.last; ++u)
    if (m_next_free[u] <= cycle) return static_cast<int>(u);
  return -1;
}

std::uint64_t unit_pool::next_free(std::uint32_t s) const {
  std::uint64_t best = ~0ull;
  const unit_range r = range(s);
  for (std::uint32_t u = r.first; u < r.last; ++u) best = std::min(best, m_next_free[u]);
  return best;
}

}  // namespace gputlm::core
