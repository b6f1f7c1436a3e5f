// Power-gating policies: the strategy that decides when an element of a power component
// (a cache line, a bank, a register bank, a functional-unit group) leaves the ON state and
// what an access to it must wait. Blocks only report accesses (power_component::access)
// and never know the policy; the platform YAML chooses it (`power.policy`). A policy that
// needs more than accesses (Snooze: the caches' queue events) has a controller block the
// cache instantiates and drives.
//
//   always_on     the baseline: every element stays ON (GPUWattch/AccelWattch's view).
//   idle_timeout  an element not accessed for `after` cycles of its block's clock drops to
//                 `state` (e.g. sleep); the next access wakes it and waits that state's
//                 wake-up latency. `components` (globs over "type.component", default all
//                 components that have the state) says where it applies. The drop is dated
//                 back to when the timer ran out, found at the next access or at the end.
//                 Each drop from ON costs the state's transition energy (power_component.h).
//   snooze        Snooze's tri-modal switches on cache data arrays, driven by the caches'
//                 queues through their tri-modal switch controllers (snooze_policy.h).
//   slumber, wrf  the SMX register file's 128-byte registers under Slumber's rule or the
//                 Warped Register File's, through the Slumber control unit beside the
//                 register file (slumber_policy.h).
// The platform may choose one policy per block type (power_spec.h, policy_spec::by_type).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/power/power_spec.h"

namespace gputlm::pm {

class power_component;

class gating_policy {
 public:
  virtual ~gating_policy() = default;
  const std::string& name() const { return m_name; }
  // A component declared by a block; `period_fs` is its clock's period (for cycle params).
  virtual void attach(power_component& c, const std::string& key, std::uint64_t period_fs) {
    (void)c, (void)key, (void)period_fs;
  }
  // Element `e` of `c` is used at now_fs: returns the wake-up cycles the access waits.
  virtual std::uint64_t access(power_component& c, std::uint32_t e, std::uint64_t now_fs) {
    (void)c, (void)e, (void)now_fs;
    return 0;
  }
  // Applies every transition due up to now_fs (before statistics or a voltage change).
  virtual void settle(power_component& c, std::uint64_t now_fs) { (void)c, (void)now_fs; }
  // The GPU has no kernel left running (the last one exited): Snooze's "kernel exit".
  virtual void gpu_idle(std::uint64_t now_fs) { (void)now_fs; }
  // The component's clock period changed (DVFS).
  virtual void set_period(power_component& c, std::uint64_t period_fs) { (void)c, (void)period_fs; }

 protected:
  explicit gating_policy(std::string name) : m_name(std::move(name)) {}

 private:
  std::string m_name;
};

// The policy `spec` names; throws input_error for an unknown type or parameter.
std::unique_ptr<gating_policy> make_policy(const policy_spec& spec);
// The policy types, for messages and documentation.
const std::vector<std::string>& policy_types();

}  // namespace gputlm::pm
