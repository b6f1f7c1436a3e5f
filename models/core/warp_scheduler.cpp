#include "models/core/warp_scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::core {

void lrr_policy::order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
                       std::vector<std::uint32_t>& out) {
  // Round robin goes by slot number, starting after the warp that issued last.
  if (version != m_version) {
    m_by_slot.assign(warps.begin(), warps.end());
    std::sort(m_by_slot.begin(), m_by_slot.end());
    m_version = version;
  }
  std::size_t start = 0;
  if (m_has_last) {
    start = static_cast<std::size_t>(
        std::upper_bound(m_by_slot.begin(), m_by_slot.end(), m_last) - m_by_slot.begin());
    if (start == m_by_slot.size()) start = 0;
  }
  out.clear();
  out.insert(out.end(), m_by_slot.begin() + static_cast<std::ptrdiff_t>(start), m_by_slot.end());
  out.insert(out.end(), m_by_slot.begin(), m_by_slot.begin() + static_cast<std::ptrdiff_t>(start));
}

void gto_policy::order(const std::vector<std::uint32_t>& warps, std::uint64_t,
                       std::vector<std::uint32_t>& out) {
  // The warp that issued last, then the others oldest first.
  out.clear();
  bool greedy_present = false;
  if (m_has_last)
    for (std::uint32_t w : warps)
      if (w == m_last) greedy_present = true;
  if (greedy_present) out.push_back(m_last);
  for (std::uint32_t w : warps)
    if (!greedy_present || w != m_last) out.push_back(w);
}

std::unique_ptr<warp_scheduler_policy> make_warp_scheduler_policy(const std::string& name) {
  if (name == "lrr") return std::make_unique<lrr_policy>();
  if (name == "gto") return std::make_unique<gto_policy>();
  throw std::invalid_argument("unknown warp scheduling policy " + name);
}

}  // namespace gputlm::core
