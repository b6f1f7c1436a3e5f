#include "models/core/warp_scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::core {

void warp_scheduler_policy::order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
                                  std::vector<std::uint32_t>& out) {
  const warp_order o = view(warps, version);
  out.clear();
  if (o.has_first) out.push_back(o.first);
  for (std::uint32_t k = 0; k < o.n; ++k) {
    const std::uint32_t w = o.list[(o.start + k) % o.n];
    if (!o.has_first || w != o.first) out.push_back(w);
  }
}

warp_order lrr_policy::view(const std::vector<std::uint32_t>& warps, std::uint64_t version) {
  // Round robin goes by slot number, starting after the warp that issued last.
  if (version != m_version) {
    m_by_slot.assign(warps.begin(), warps.end());
    std::sort(m_by_slot.begin(), m_by_slot.end());
    m_version = version;
    m_start_valid = false;
  }
  if (!m_start_valid) {
    std::size_t start = 0;
    if (m_has_last) {
      start = static_cast<std::size_t>(
          std::upper_bound(m_by_slot.begin(), m_by_slot.end(), m_last) - m_by_slot.begin());
      if (start == m_by_slot.size()) start = 0;
    }
    m_start = static_cast<std::uint32_t>(start);
    m_start_valid = true;
  }
  warp_order o;
  o.list = m_by_slot.data();
  o.n = static_cast<std::uint32_t>(m_by_slot.size());
  o.start = m_start;
  return o;
}

warp_order gto_policy::view(const std::vector<std::uint32_t>& warps, std::uint64_t) {
  // The warp that issued last, then the others oldest first.
  warp_order o;
  o.list = warps.data();
  o.n = static_cast<std::uint32_t>(warps.size());
  if (m_has_last && std::find(warps.begin(), warps.end(), m_last) != warps.end()) {
    o.has_first = true;
    o.first = m_last;
  }
  return o;
}

std::unique_ptr<warp_scheduler_policy> make_warp_scheduler_policy(const std::string& name) {
  if (name == "lrr") return std::make_unique<lrr_policy>();
  if (name == "gto") return std::make_unique<gto_policy>();
  throw std::invalid_argument("unknown warp scheduling policy " + name);
}

}  // namespace gputlm::core
