// What an SMX lets a gating controller beside it do to its datapath (export `datapath`):
// μC-States' tune-down of a component (Kayiran et al., "μC-States: Fine-grained GPU
// Datapath Power Management", PACT 2016, §2.3; seed 002), which gates the component's group
// 1 and halves its peak throughput (group 0 is always on). Of the paper's 14 components
// (pm::uc_component), the SMX has two groups for fetch/decode (half the warps fetched a
// cycle), the schedulers (the upper half gated, each active scheduler s serving its own
// warps first and then those of s + n/2, one issue a cycle between them; not with the
// sub-core model, whose schedulers own their units), the SP and SFU execution units
// (functional_units.h), the LD/ST unit (its address generation: a warp's active lanes over
// 16 lanes instead of 32, ceil(lanes / 16) cycles), and where the platform bounds them each
// type's issue-to-collector and collector-to-execution registers (half the slots,
// pipeline_registers.h) and collector set (half the units).
// The SMX also hands over the power of each tunable component (its fetch/decode,
// scheduler, sp, sfu, ldst, operand_collector, register_file and pipeline_registers entries
// of smx_power.h), whose elements the controller makes the groups.
#pragma once

#include <systemc>
#include <vector>

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
  // The power that component c's group 1 draws, which a controller beside the SMX may take
  // over: each entry a power component, reshaped into `elements` elements (the groups; the
  // components shared by the three pipelines, the collectors and the pipeline registers,
  // have two per pipeline and stage), of which `element` is c's group 1. An OC set's group 1
  // also holds the register-file banks' share that feeds it (S002 §4, phase 2: the banks
  // follow OC). Empty: c draws no power of its own here (timing only).
  struct power_group {
    pm::power_component* component = nullptr;
    std::uint32_t elements = 2;
    std::uint32_t element = 1;
  };
  virtual std::vector<power_group> group_power(pm::uc_component c) = 0;
};

}  // namespace gputlm::core
