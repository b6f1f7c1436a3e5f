// Warp scheduling policies of one SMX warp scheduler, as GPGPU-Sim names them
// (-gpgpu_scheduler): loose round robin (lrr) starts after the warp that issued last;
// greedy-then-oldest (gto) keeps issuing from the warp that issued last and otherwise takes
// the oldest (earliest launched). Chosen by name in the platform YAML.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

class warp_scheduler_policy {
 public:
  virtual ~warp_scheduler_policy() = default;
  // `warps`: this scheduler's warp slots, oldest first; `version` changes whenever the list
  // does. The order is valid until the list or the policy changes.
  virtual warp_order view(const std::vector<std::uint32_t>& warps, std::uint64_t version) = 0;
  // The same order written out as a list.
  void order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
             std::vector<std::uint32_t>& out);
  virtual void issued(std::uint32_t warp) { m_last = warp; m_has_last = true; }
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
  std::uint32_t m_last = 0;
  bool m_has_last = false;
};

class lrr_policy : public warp_scheduler_policy {
 public:
  warp_order view(const std::vector<std::uint32_t>& warps, std::uint64_t version) override;
  void issued(std::uint32_t warp) override {
    warp_scheduler_policy::issued(warp);
    m_start_valid = false;
  }
  order_rule rule() const override { return order_rule::rotate_after_last_issuer; }

 private:
  std::vector<std::uint32_t> m_by_slot;  // the warps in slot order, for `m_version`
  std::uint64_t m_version = ~0ull;
  std::uint32_t m_start = 0;             // where the order starts in m_by_slot ...
  bool m_start_valid = false;            // ... unless the list or the last issuer changed
};

class gto_policy : public warp_scheduler_policy {
 public:
  warp_order view(const std::vector<std::uint32_t>& warps, std::uint64_t version) override;
  order_rule rule() const override { return order_rule::last_issuer_then_list; }
};

std::unique_ptr<warp_scheduler_policy> make_warp_scheduler_policy(const std::string& name);

}  // namespace gputlm::core
