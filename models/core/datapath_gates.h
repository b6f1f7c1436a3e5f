// What an SMX lets a gating controller beside it do to its datapath (export `datapath`):
// μC-States' tune-down of a component (Kayiran et al., "μC-States: Fine-grained GPU
// Datapath Power Management", PACT 2016, §2.3; seed 002), which gates the component's group
// 1 and halves its peak throughput (group 0 is always on). Of the paper's 14 components
// (pm::uc_component), the SMX has two groups today for fetch/decode (half the warps
// fetched a cycle), the schedulers (the upper half gated, each active scheduler s serving
// its own warps first and then those of s + n/2, one issue a cycle between them; not with
// the sub-core model, whose schedulers own their units), the SP and SFU execution units
// (functional_units.h), the LD/ST unit (its address generation: a warp's active lanes
// over 16 lanes instead of 32, ceil(lanes / 16) cycles), and where the platform bounds
// them each type's issue-to-collector registers (half the slots) and collector set (half
// the units); the OCEX registers answer tunable() false.
// The SMX also hands over the power component of each tunable component (its fetch/decode,
// scheduler, sp, sfu and ldst entries of smx_power.h), whose elements the controller makes
// the two groups (the collectors' one component six: two per pipeline; none for the IDOC
// registers).
#pragma once

#include <systemc>

#include "models/core/smx_events.h"
#include "models/power/gating_control_logic.h"

namespace gputlm::pm {
class power_component;
}

namespace gputlm::core {

// The pipeline an SMX pipe counts under for μC-States (its collector set and pipeline
// registers): SP for the SP, INT, DP, tensor and branch pipes; SFU; LD/ST.
inline pm::uc_pipe datapath_pipe(unit_pipe p) {
  return p == unit_pipe::sfu    ? pm::uc_pipe::sfu
         : p == unit_pipe::ldst ? pm::uc_pipe::ldst
                                : pm::uc_pipe::sp;
}

class datapath_gates : public virtual sc_core::sc_interface {
 public:
  // Whether component c has a group 1 to gate on this SMX.
  virtual bool tunable(pm::uc_component c) const = 0;
  // Gates (down) or ungates component c's group 1, from the next cycle on.
  virtual void tune(pm::uc_component c, bool down) = 0;
  virtual bool tuned_down(pm::uc_component c) const = 0;
  // Component c's total width (both groups) in the units a controller counts it busy in:
  // fetch/decode, instructions a cycle; the schedulers, issues a cycle; an execution unit,
  // lanes a cycle (a warp's 32 lanes over its initiation interval). 0: not modelled.
  virtual double width(pm::uc_component c) const = 0;
  // The power component of component c (nullptr: none), which a controller beside the SMX
  // may take over (reshape into `power_elements` elements and gate), and the element that is
  // c's group 1 (components sharing one power component, the three pipelines' collector
  // sets, each have two of its elements).
  virtual pm::power_component* group_power(pm::uc_component c) = 0;
  virtual std::uint32_t power_elements(pm::uc_component c) const {
    (void)c;
    return 2;
  }
  virtual std::uint32_t group_element(pm::uc_component c) const {
    (void)c;
    return 1;
  }
};

}  // namespace gputlm::core
