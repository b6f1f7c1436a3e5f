// The control interface of a DVFS voltage regulator (Wang thesis §6.2.4, Fig. 37; the
// DVFS part of docs/dvfs.md): a requester writes a target's P-state register (one target
// per SMX domain, and the whole GPU), the regulator applies it after its transition time and
// writes the status back to the requester's `regulator_status`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace gputlm::pm {

enum class pstate_level : std::uint8_t {
  nominal,  // each domain's elaborated operating point
  lowest    // each domain's last P-state
};

class voltage_regulator : public virtual sc_core::sc_interface {
 public:
  static constexpr std::size_t gpu_level = ~std::size_t(0);  // every domain it drives
  // Per-SMX domains it drives (target i: SMX i's domain).
  virtual std::size_t smx_domains() const = 0;
  // Writes the P-state register of `target` (an SMX, or gpu_level): the new point applies
  // after the transition time. False, and nothing done, while that target is in a
  // transition (for gpu_level: any target; for an SMX: also the GPU level).
  virtual bool request(std::size_t target, pstate_level level) = 0;
  virtual bool in_transition(std::size_t target) const = 0;
  // Static and clock power (W) drawn now by the components on SMX `smx`'s domain.
  virtual double idle_watts(std::size_t smx) = 0;
  // The workload is done: transitions still in progress are dropped (counted), so that
  // the run ends where its work ends.
  virtual void abandon() = 0;
};

// The status write-back: `target` reached `level`.
class regulator_status : public virtual sc_core::sc_interface {
 public:
  virtual void transition_done(std::size_t target, pstate_level level) = 0;
};

}  // namespace gputlm::pm
