#include "models/control/dispatch_policies.h"

#include <stdexcept>

namespace gputlm::control {

int fcfs_tb_selection::pick(const std::vector<kde_record>& entries,
                            const std::function<bool(std::size_t)>& can_place) {
  int best = -1;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const kde_record& e = entries[i];
    if (!e.tbs_left()) continue;  // (native TBs, or aggregated groups, left to schedule)
    if (best >= 0 && entries[static_cast<std::size_t>(best)].fcfs_order < e.fcfs_order) continue;
    if (can_place(i)) best = static_cast<int>(i);
  }
  return best;
}

int round_robin_smx_selection::pick(std::size_t smx_count,
                                    const std::function<bool(std::size_t)>& fits) {
  for (std::size_t k = 0; k < smx_count; ++k) {
    std::size_t s = (m_next + k) % smx_count;
    if (fits(s)) {
      m_next = (s + 1) % smx_count;
      return static_cast<int>(s);
    }
  }
  return -1;
}

std::unique_ptr<tb_selection_policy> make_tb_selection(const std::string& name) {
  if (name == "fcfs") return std::make_unique<fcfs_tb_selection>();
  throw std::invalid_argument("unknown TB selection policy " + name);
}

std::unique_ptr<smx_selection_policy> make_smx_selection(const std::string& name) {
  if (name == "round_robin") return std::make_unique<round_robin_smx_selection>();
  throw std::invalid_argument("unknown SMX selection policy " + name);
}

}  // namespace gputlm::control
