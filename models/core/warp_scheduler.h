// Warp scheduling policies of an SMX's warp schedulers, as GPGPU-Sim names them
// (-gpgpu_scheduler): loose round robin (lrr) starts after the warp that issued last;
// greedy-then-oldest (gto) keeps issuing from the warp that issued last and otherwise takes
// the oldest (earliest launched). A strategy (models/common/strategy.h) chosen in the
// platform YAML (`scheduler_policy: gto`, or `{type: gto, ...}` with a policy's parameters);
// one object serves every warp scheduler of the SMX, each with its own state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/strategy.h"

namespace gputlm::core {

// A priority order without building a list: `first` (when `has_first`), then
// list[start], list[start + 1], ... wrapping around after list[n - 1], skipping `first`.
struct warp_order {
  const std::uint32_t* list = nullptr;
  std::uint32_t n = 0;
  std::uint32_t start = 0;
  bool has_first = false;
  std::uint32_t first = 0;
};

class warp_scheduler_policy : public strategy {
 public:
  using strategy::strategy;
  // The SMX has `schedulers` warp schedulers (scheduler s is asked about its own warps).
  virtual void resize(std::uint32_t schedulers) { m_last.assign(schedulers, last_issuer{}); }
  // `warps`: scheduler s's warp slots, oldest first; `version` changes whenever the list
  // does. The order is valid until the list or the policy changes.
  virtual warp_order view(std::uint32_t s, const std::vector<std::uint32_t>& warps,
                          std::uint64_t version) = 0;
  // The same order written out as a list.
  void order(std::uint32_t s, const std::vector<std::uint32_t>& warps, std::uint64_t version,
             std::vector<std::uint32_t>& out);
  virtual void issued(std::uint32_t s, std::uint32_t warp) { m_last[s] = {warp, true}; }
  // When the order always follows one of two simple rules, the SMX walks its warp bitmaps
  // by that rule instead of asking view() every cycle. `last` is the warp last passed to
  // issued():
  // - rotate_after_last_issuer: slot numbers ascending from the first slot above `last`
  //   (from the lowest before any issue), wrapping around;
  // - last_issuer_then_list: `last` if its slot is in the list, then the list's order
  //   (oldest first).
  // The SMX does not call view() or issued() of a policy with one of these rules.
  enum class order_rule : std::uint8_t { custom, rotate_after_last_issuer, last_issuer_then_list };
  virtual order_rule rule() const { return order_rule::custom; }

 protected:
  struct last_issuer {
    std::uint32_t warp = 0;
    bool valid = false;
  };
  std::vector<last_issuer> m_last;  // per scheduler
};

}  // namespace gputlm::core
