// Power gating: what switches the elements of a power component (a cache line, a bank, a
// register, a functional-unit group) out of the ON state, and what an access to one must
// wait. A component has at most one such gate (power_component::bind_policy):
//
//   - the platform's gating policy (`power.policy`, one per block type or one for all), a
//     strategy (models/common/strategy.h) with its parameters:
//       always_on     the baseline: every element stays ON (GPUWattch/AccelWattch's view).
//       idle_timeout  an element not accessed for `after` cycles of its block's clock drops
//                     to `state` (e.g. sleep); the next access wakes it and waits that
//                     state's wake-up latency. `components` (globs over "type.component",
//                     default all components that have the state) says where it applies.
//                     The drop is dated back to when the timer ran out, found at the next
//                     access or at the end. Each drop from ON costs the state's transition
//                     energy (power_component.h).
//   - a controller beside the block (a component bound to it in the platform, driven by the
//     block's events): Snooze's tri-modal switch controller on a cache's data array, the
//     Slumber control unit on an SMX's register file (docs/power.md). Blocks only report
//     accesses and events; they never know what gates their components.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/param.h"
#include "models/power/power_spec.h"

namespace gputlm::pm {

class power_component;

class gating_policy {
 public:
  virtual ~gating_policy() = default;
  // What gates, for reports (a policy's type; a controller's rule: snooze_bank, wrf ...).
  virtual std::string gate_name() const = 0;
  // Checks the parameters together, once every key is known to be one of the policy's.
  virtual void validate() {}
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
};

// The platform's policy `spec` names, with its parameters (read into `owner`'s
// configuration, which outlives the policy); throws input_error for an unknown type or
// parameter.
std::unique_ptr<gating_policy> make_policy(const policy_spec& spec, param_owner& owner);

}  // namespace gputlm::pm
