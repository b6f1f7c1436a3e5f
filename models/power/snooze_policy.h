// Snooze (Tripathy's thesis ch. 5) as a gating policy: it manages the data arrays of the
// caches of the block types it is chosen for (`power.policy: {l1_cache: snooze_block,
// l2_cache: snooze_bank}`, or for every block), each through the tri-modal switch
// controller its cache instantiates (tri_modal_switch_controller.h), which the cache's
// queues drive. Parameters: granularity (bank | block; the names snooze_bank and
// snooze_block set it), lookahead (cycles, default 2: no Sleep with an access this close),
// reservation_queue (entries, default 32), sleep_state and off_state (the data array's
// states used as Sleep and OFF, default `sleep` and `off`).
#pragma once

#include <string>
#include <vector>

#include "models/power/gating_policy.h"
#include "models/power/tri_modal_switch_controller.h"

namespace gputlm::pm {

class snooze_policy final : public gating_policy {
 public:
  explicit snooze_policy(const policy_spec& spec);

  const snooze_params& params() const { return m_params; }
  const policy_spec& spec() const { return m_spec; }
  // The cache data arrays it manages (block type `l1_cache` or `l2_cache`, component
  // `data`): those must have the Sleep and OFF states.
  void attach(power_component& c, const std::string& key, std::uint64_t period_fs) override;
  // The controller of a managed component; `off_when_idle`: it switches off when the GPU
  // has no kernel left (an L2 bank's "kernel exit").
  void adopt(power_component& c, tri_modal_switch_controller& ctrl, bool off_when_idle);
  void gpu_idle(std::uint64_t now_fs) override;
  bool manages(const power_component& c) const { return c.policy_bound(this); }
  std::uint32_t sleep_state(const power_component& c) const;
  std::uint32_t off_state(const power_component& c) const;

  std::uint64_t access(power_component& c, std::uint32_t e, std::uint64_t now_fs) override {
    return m_controllers[c.policy_slot()]->access(e, now_fs);
  }
  void settle(power_component& c, std::uint64_t now_fs) override;
  void set_period(power_component& c, std::uint64_t period_fs) override;

 private:
  std::uint32_t state_index(const power_component& c, const std::string& name) const;
  snooze_params m_params;
  std::string m_sleep = "sleep", m_off = "off";
  policy_spec m_spec;
  std::vector<tri_modal_switch_controller*> m_controllers;  // by policy slot
  std::vector<tri_modal_switch_controller*> m_off_when_idle;
};

}  // namespace gputlm::pm
