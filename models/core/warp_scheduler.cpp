#include "models/core/warp_scheduler.h"

#include <algorithm>

namespace gputlm::core {

void warp_scheduler_policy::order(std::uint32_t s, const std::vector<std::uint32_t>& warps,
                                  std::uint64_t version, std::vector<std::uint32_t>& out) {
  const warp_order o = view(s, warps, version);
  out.clear();
  if (o.has_first) out.push_back(o.first);
  for (std::uint32_t k = 0; k < o.n; ++k) {
    const std::uint32_t w = o.list[(o.start + k) % o.n];
    if (!o.has_first || w != o.first) out.push_back(w);
  }
}

namespace {

// Loose round robin: by slot number, starting after the warp that issued last.
class lrr final : public warp_scheduler_policy {
 public:
  using warp_scheduler_policy::warp_scheduler_policy;
  void resize(std::uint32_t schedulers) override {
    warp_scheduler_policy::resize(schedulers);
    m_state.assign(schedulers, state{});
  }
  warp_order view(std::uint32_t s, const std::vector<std::uint32_t>& warps,
                  std::uint64_t version) override {
    state& st = m_state[s];
    if (version != st.version) {
      st.by_slot.assign(warps.begin(), warps.end());
      std::sort(st.by_slot.begin(), st.by_slot.end());
      st.version = version;
      st.start_valid = false;
    }
    if (!st.start_valid) {
      std::size_t start = 0;
      if (m_last[s].valid) {
        start = static_cast<std::size_t>(
            std::upper_bound(st.by_slot.begin(), st.by_slot.end(), m_last[s].warp) -
            st.by_slot.begin());
        if (start == st.by_slot.size()) start = 0;
      }
      st.start = static_cast<std::uint32_t>(start);
      st.start_valid = true;
    }
    warp_order o;
    o.list = st.by_slot.data();
    o.n = static_cast<std::uint32_t>(st.by_slot.size());
    o.start = st.start;
    return o;
  }
  void issued(std::uint32_t s, std::uint32_t warp) override {
    warp_scheduler_policy::issued(s, warp);
    m_state[s].start_valid = false;
  }
  order_rule rule() const override { return order_rule::rotate_after_last_issuer; }

 private:
  struct state {
    std::vector<std::uint32_t> by_slot;  // the warps in slot order, for `version`
    std::uint64_t version = ~0ull;
    std::uint32_t start = 0;   // where the order starts in by_slot ...
    bool start_valid = false;  // ... unless the list or the last issuer changed
  };
  std::vector<state> m_state;  // per scheduler
};

// Greedy then oldest: the warp that issued last, then the others oldest first.
class gto final : public warp_scheduler_policy {
 public:
  using warp_scheduler_policy::warp_scheduler_policy;
  warp_order view(std::uint32_t s, const std::vector<std::uint32_t>& warps,
                  std::uint64_t) override {
    warp_order o;
    o.list = warps.data();
    o.n = static_cast<std::uint32_t>(warps.size());
    if (m_last[s].valid && std::find(warps.begin(), warps.end(), m_last[s].warp) != warps.end()) {
      o.has_first = true;
      o.first = m_last[s].warp;
    }
    return o;
  }
  order_rule rule() const override { return order_rule::last_issuer_then_list; }
};

GPUTLM_STRATEGY(warp_scheduler_policy, "lrr", lrr,
                "loose round robin: slot order, starting after the warp that issued last");
GPUTLM_STRATEGY(warp_scheduler_policy, "gto", gto,
                "greedy then oldest: the warp that issued last, then the oldest");

}  // namespace
}  // namespace gputlm::core
