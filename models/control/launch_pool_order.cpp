// The KMU's launch-pool order (see launch_pool_order.h).
#include "models/control/launch_pool_order.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::control {

launch_pool_order::launch_pool_order(const std::string& name, std::uint32_t levels,
                                     std::size_t smxs)
    : m_levels(levels), m_smxs(std::max<std::size_t>(1, smxs)) {
  if (name == "fifo")
    m_order = order::fifo;
  else if (name == "priority")
    m_order = order::priority;
  else if (name == "smx_bound")
    m_order = order::smx_bound;
  else
    throw std::invalid_argument("unknown launch pool order " + name);
}

std::uint64_t launch_pool_order::earliest(const std::deque<pending_launch>& pool) const {
  if (pool.empty()) return 0;
  if (m_order == order::fifo) return pool.front().eligible_cycle;
  std::uint64_t t = pool.front().eligible_cycle;
  for (const pending_launch& p : pool) t = std::min(t, p.eligible_cycle);
  return t;
}

std::size_t launch_pool_order::pick(const std::deque<pending_launch>& pool, std::uint64_t now,
                                    std::uint64_t* scan) {
  *scan = 0;
  if (m_order == order::fifo) return 0;
  auto prio = [&](std::size_t i) { return std::min(pool[i].depth, m_levels); };
  // The eligible kernel of the highest priority among those `take` accepts (first wins).
  auto best_of = [&](auto&& take) {
    std::size_t best = pool.size();
    for (std::size_t i = 0; i < pool.size(); ++i)
      if (pool[i].eligible_cycle <= now && take(i) && (best == pool.size() || prio(i) > prio(best)))
        best = i;
    return best;
  };
  const auto any = [](std::size_t) { return true; };
  if (m_order == order::priority) return best_of(any);
  for (std::size_t k = 0; k < m_smxs; ++k) {
    const std::size_t s = (m_scan_smx + k) % m_smxs;
    const std::size_t i = best_of([&](std::size_t j) { return pool[j].launch_smx == s; });
    if (i == pool.size()) continue;
    if (k > 0) {  // SMXs with nothing eligible were examined first
      m_scan_smx = s;
      *scan = k;
      return i;
    }
    m_scan_smx = (s + 1) % m_smxs;
    return i;
  }
  return best_of(any);  // (a kernel bound to no SMX the KMU serves)
}

}  // namespace gputlm::control
