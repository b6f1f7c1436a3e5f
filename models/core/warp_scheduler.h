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

class warp_scheduler_policy {
 public:
  virtual ~warp_scheduler_policy() = default;
  // `warps`: this scheduler's warp slots, oldest first; `version` changes whenever the list
  // does. Writes them in priority order.
  virtual void order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
                     std::vector<std::uint32_t>& out) = 0;
  virtual void issued(std::uint32_t warp) { m_last = warp; m_has_last = true; }

 protected:
  std::uint32_t m_last = 0;
  bool m_has_last = false;
};

class lrr_policy : public warp_scheduler_policy {
 public:
  void order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
             std::vector<std::uint32_t>& out) override;

 private:
  std::vector<std::uint32_t> m_by_slot;  // the warps in slot order, for `m_version`
  std::uint64_t m_version = ~0ull;
};

class gto_policy : public warp_scheduler_policy {
 public:
  void order(const std::vector<std::uint32_t>& warps, std::uint64_t version,
             std::vector<std::uint32_t>& out) override;
};

std::unique_ptr<warp_scheduler_policy> make_warp_scheduler_policy(const std::string& name);

}  // namespace gputlm::core
