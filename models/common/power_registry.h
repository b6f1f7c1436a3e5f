// The platform's power table as a block sees it (docs/power.md): the component base
// declares its power components here and the SMX scheduler reports the GPU idle. The
// power model (models/power/power_model.h) implements it; blocks never see the model, its
// table or its gating policies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm {

class clock_domain;
namespace pm {
class power_component;
}

class power_registry {
 public:
  // One of a block's power components, from the table entry `<block_type>.<name>`.
  struct declared {
    pm::power_component& component;
    bool modelled;  // the table has coefficients for it (else zero and not reported)
  };

  // Declares the component `block`.`name` clocked by `clock`: its supply scales the
  // coefficients and its period turns break-even cycles into transition energy, both
  // followed when the domain's operating point changes (DVFS). `events` are indexed in
  // the order given; elements: capacity_bytes / the entry's granularity when both are
  // set, else `elements`.
  virtual declared declare_component(const std::string& block, const std::string& block_type,
                                     const std::string& name,
                                     const std::vector<std::string>& events,
                                     std::uint64_t capacity_bytes, std::uint32_t elements,
                                     clock_domain& clock) = 0;
  // The last running kernel exited at now_fs: every gate hears.
  virtual void gpu_idle(std::uint64_t now_fs) = 0;
  // The static and clock power (W) drawn now by the modelled components clocked by `clock`,
  // in their current states and at its current operating point: what an idle block of that
  // domain costs (the ideal power-gating counterfactual of a DVFS study).
  virtual double idle_watts(const clock_domain& clock) = 0;
  // The energy (J, static and dynamic) of those components up to now.
  virtual double joules(const clock_domain& clock) = 0;

 protected:
  ~power_registry() = default;
};

}  // namespace gputlm
