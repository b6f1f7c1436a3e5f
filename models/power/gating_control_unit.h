// μC-States' Gating Control Unit of one SMX (Kayiran et al., "μC-States: Fine-grained GPU
// Datapath Power Management", PACT 2016, §3.2 and §4; seed 002): a controller beside the
// SMX (`gpu.smx[i].gcu`), bound to the SMX's `datapath` (core::datapath_gates) and hearing
// its `events` (core::smx_events, export `watch`).
//
// Static form (the paper's Table 2 configurations): `static_tune_down` names the components
// whose group 1 is gated for the whole run, e.g. [ex_sp] (C_SP).
//
// Run-time form (`run_time: true`): Algorithm 1 (gating_control_logic.h) decides one phase
// every `interval` cycles while the SMX holds a TB (the intervals start anew with the first
// TB after the SMX had none), from counters kept at the SMX's events:
// fetch/decode busy by the instructions fetched, the schedulers by the warp instructions
// issued (and by pipeline: SP for the SP, INT, DP, tensor and branch pipes, SFU, LD/ST),
// an execution unit by a warp's 32 lanes per instruction issued to it (divergence-agnostic,
// as the paper's wavefront counts), Little's law's J by the warps waiting for memory (the
// SMX's warp census) and λ by the instructions issued to LD/ST. It applies a decision to a
// component the SMX has a second group for (fetch/decode, the schedulers, the SP and SFU
// execution units); the other components' decisions (EX_LDST, the pipeline registers and
// collectors, for which the model counts nothing yet) are not applied. Counted per applied
// component: tune-downs and cycles tuned down.
//
// A component the SMX has no second group for is refused in `static_tune_down` in one line.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/ports.h"
#include "models/common/stats.h"
#include "models/core/datapath_gates.h"
#include "models/core/smx_events.h"
#include "models/power/gating_control_logic.h"

namespace gputlm::pm {

class gating_control_unit : public component, public core::smx_events {
 public:
  SC_HAS_PROCESS(gating_control_unit);
  gating_control_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  std::string added_hardware() const override;
  void start_of_simulation() override;

  required_port<core::datapath_gates> datapath{"datapath"};
  sc_core::sc_export<core::smx_events> watch{"watch"};

  // smx_events
  void tb_started(std::uint32_t slot, std::uint32_t warps, std::uint64_t cycle) override;
  void tb_finished(std::uint32_t slot, std::uint64_t cycle) override;
  void fetched(std::uint32_t warp, std::uint32_t instructions, std::uint64_t cycle) override;
  void issued(std::uint32_t warp, core::unit_pipe pipe, std::uint32_t lanes, std::uint32_t reads,
              std::uint32_t writes, std::uint64_t cycle) override;
  void warps_waiting(const core::warp_census& census, std::uint64_t cycle) override;

 private:
  void decide();               // a phase decision at an interval's end
  void arm(std::uint64_t at);  // the next decision at cycle `at`
  std::uint64_t down_cycles(uc_component c) const;

  string_list_param m_static{*this,
                             "static_tune_down",
                             {},
                             "components tuned down for the whole run (Table 2): ifid, sch, "
                             "idoc_sp, oc_sp, ocex_sp, ex_sp, ..., ex_ldst"};
  param<bool> m_run_time{*this, "run_time", false,
                         "Algorithm 1's phases at run time (the components the SMX can tune)"};
  param<cycles> m_interval{*this, "interval", {2048}, "cycles between phase decisions (T)"};
  param<double> m_th_u{*this, "th_u", 0.15, "utilization below which EX_SP, EX_SFU go down"};
  param<double> m_th_rt{*this, "th_rt", 100,
                        "EX_LDST response time (cycles) above which it goes down"};
  param<double> m_sch_factor{*this, "sch_factor", 2, "the schedulers' threshold, x th_u"};

  std::vector<uc_component> m_components;  // parsed from m_static
  std::unique_ptr<gating_control_logic> m_logic;
  uc_interval m_counts;  // this interval's
  std::array<double, uc_components> m_widths{};  // each component's, from the SMX (fixed)
  job_integral m_jobs;
  std::uint32_t m_resident = 0;  // TBs on the SMX
  std::uint64_t m_next = 0;      // cycle of the armed decision (0: none)
  std::uint64_t m_start = 0;     // cycle this interval started
  sc_core::sc_event m_decide;
  std::array<bool, uc_components> m_applied_down{};
  std::array<std::uint64_t, uc_components> m_down_since{};
  std::array<counter, uc_components> m_tune_downs, m_down_total;
  counter m_tuned, m_decisions;
};

}  // namespace gputlm::pm
