// The policy example of docs/tb-scheduling.md ("Adding a policy"), compiled and run by
// test_tb_policy.cpp, which also checks that the page shows exactly this code.
#pragma once

#include <map>

#include "models/control/tb_policy.h"

namespace gputlm::control {

// Kept as the page shows it:
// clang-format off
// --- example ---
// Least-loaded: the FCFS kernel's next TB to the SMX with the fewest TBs it placed.
class least_loaded_policy : public tb_policy {
 public:
  tb_choice pick(tb_scheduler_view& v) override {
    tb_choice c;
    const auto& es = v.entries();
    for (std::size_t i = 0; i < es.size(); ++i) {
      if (!es[i].tbs_left() || !v.ready(i)) continue;
      if (c.entry >= 0 && es[i].fcfs_order > es[std::size_t(c.entry)].fcfs_order) continue;
      int best = -1;
      for (std::size_t s = 0; s < v.smx_count(); ++s)
        if (v.fits(s, i) && (best < 0 || m_placed[s] < m_placed[std::size_t(best)]))
          best = int(s);
      if (best >= 0) c = {int(i), best, tb_choice::none_tb, 0};
    }
    if (c.entry >= 0) ++m_placed[std::size_t(c.smx)];
    return c;
  }
  void tb_completed(std::size_t smx, std::uint32_t) override { --m_placed[smx]; }

 private:
  std::map<std::size_t, long> m_placed;
};
// --- end ---
// clang-format on

}  // namespace gputlm::control
