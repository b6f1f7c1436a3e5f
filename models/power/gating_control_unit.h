// μC-States' Gating Control Unit of one SMX (Kayiran et al., "μC-States: Fine-grained GPU
// Datapath Power Management", PACT 2016, §3.2 and §4; seed 002): a controller beside the
// SMX (`gpu.smx[i].gcu`), bound to the SMX's `datapath` (core::datapath_gates) and hearing
// its `events` (core::smx_events, export `watch`).
//
// Static form (the paper's Table 2): `static_config` names a configuration, C_X being every
// component tuned down except X (c_half: all; c_comp: all except fetch/decode, the
// schedulers and the SP and SFU pipelines; c_mem: all except fetch/decode, the schedulers
// and the LD/ST pipeline), applied to the components the SMX has a second group for (the
// others are counted, `untuned_components`); or `static_tune_down` names the components.
//
// Run-time form (`run_time: true`): Algorithm 1 (gating_control_logic.h) decides one phase
// every `interval` cycles while the SMX holds a TB (the intervals start anew with the first
// TB after the SMX had none), from counters kept at the SMX's events:
// fetch/decode busy by the instructions fetched, the schedulers by the warp instructions
// issued (and by pipeline: SP for the SP, INT, DP, tensor and branch pipes, SFU, LD/ST),
// an execution unit by a warp's 32 lanes per instruction issued to it (divergence-agnostic,
// as the paper's wavefront counts), Little's law's J by the warps waiting for memory (the
// SMX's warp census), λ by the instructions issued to LD/ST, an IDOC or OCEX register by a
// slot for each issue of its type (an instruction passes each in one cycle), an OC set by
// the cycles its units are held (smx_events::operands_collected). It applies a decision to
// a component the SMX has a second group for (fetch/decode, the schedulers, the execution
// units, and where the platform bounds them the IDOC and OCEX registers and OC sets).
// Counted per applied component: tune-downs and cycles tuned down; per component its
// utilization over the run by the same counts; EX_LDST's response time over the run.
//
// Power (§2.3): the unit takes over the SMX's power components of each component it gates
// (datapath_gates::group_power), makes their elements the groups (two; the collectors' and
// the register file's six, two per pipeline; the pipeline registers' twelve, two per
// pipeline and stage) and moves group 1 into the table's `pg` state (power-gated:
// fetch/decode's decoder, the schedulers, the SP and SFU units) or `cg` state (clock-gated:
// the LD/ST unit's queue, the pipeline registers, the operand collectors and with each OC
// set the register-file banks' share that feeds it, §4 phase 2) when it is tuned down;
// leaving it charges nothing, entering it the state's transition energy
// (power_component.h). Tuned back up, a power-gated group is usable after the state's
// wake-up latency (9 cycles in the big-core table), a clock-gated one from the next cycle.
// A platform without a power table (or a table without the component) gates the timing
// only.
//
// VCD (per component the SMX can tune): `<c>` 0 on, 1 tuned down, 2 waking up (from the
// decision until the SMX is told, the cycle before the group takes work).
//
// A component the SMX has no second group for is refused in `static_tune_down` in one line.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/ports.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"
#include "models/core/datapath_gates.h"
#include "models/core/smx_events.h"
#include "models/power/gating_control_logic.h"
#include "models/power/gating_policy.h"

namespace gputlm::pm {

class gating_control_unit : public component, public core::smx_events, public gating_policy {
 public:
  SC_HAS_PROCESS(gating_control_unit);
  gating_control_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  std::string added_hardware() const override;
  void start_of_simulation() override;
  void add_traces(vcd_writer& vcd) override;

  // gating_policy: group 0 is always on, so an access never waits.
  std::string gate_name() const override { return "gcu"; }

  required_port<core::datapath_gates> datapath{"datapath"};
  sc_core::sc_export<core::smx_events> watch{"watch"};

  // smx_events
  void tb_started(std::uint32_t slot, std::uint32_t warps, std::uint64_t cycle) override;
  void tb_finished(std::uint32_t slot, std::uint64_t cycle) override;
  void fetched(std::uint32_t warp, std::uint32_t instructions, std::uint64_t cycle) override;
  void issued(std::uint32_t warp, core::unit_pipe pipe, std::uint32_t lanes, std::uint32_t reads,
              std::uint32_t writes, std::uint64_t cycle) override;
  void warps_waiting(const core::warp_census& census, std::uint64_t cycle) override;
  void operands_collected(std::uint32_t warp, core::unit_pipe pipe, std::uint64_t cycles,
                          std::uint64_t cycle) override;

 private:
  void decide();               // a phase decision at an interval's end
  void arm(std::uint64_t at);  // the next decision at cycle `at`
  std::uint64_t down_cycles(uc_component c) const;
  // Gates (down) or ungates component c's group 1 at cycle `now`: its power state, and the
  // SMX's datapath at once (down) or after the wake-up latency (up).
  void apply(uc_component c, bool down, std::uint64_t now);
  void woken();  // the groups whose wake-up latency ran out
  void take_power(uc_component c);
  // Component c busy for `amount` width-cycles: this interval's count and the run's.
  void count(uc_component c, double amount) {
    m_counts.busy[std::size_t(c)] += amount;
    m_run.busy[std::size_t(c)] += amount;
  }

  string_list_param m_static{*this,
                             "static_tune_down",
                             {},
                             "components tuned down for the whole run: ifid, sch, idoc_sp, "
                             "oc_sp, ocex_sp, ex_sp, ..., ex_ldst"};
  param<std::string> m_config{*this, "static_config", "none",
                              "a Table 2 configuration tuned down for the whole run: none, "
                              "c_half, c_ifid, c_sch, c_sp, c_sfu, c_ldst, c_comp, c_mem"};
  param<std::string> m_pg_state{*this, "pg_state", "pg",
                                "the power table's state of a power-gated group 1"};
  param<std::string> m_cg_state{*this, "cg_state", "cg",
                                "the power table's state of a clock-gated group 1"};
  param<std::string> m_sch_gating{*this, "sch_gating", "pg",
                                  "how the schedulers' group 1 is gated: pg or cg (S002 §2.3 "
                                  "says pg, §4 cg)"};
  param<bool> m_run_time{*this, "run_time", false,
                         "Algorithm 1's phases at run time (the components the SMX can tune)"};
  param<cycles> m_interval{*this, "interval", {2048}, "cycles between phase decisions (T)"};
  param<double> m_th_u{*this, "th_u", 0.15, "utilization below which EX_SP, EX_SFU go down"};
  param<double> m_th_rt{*this, "th_rt", 100,
                        "EX_LDST response time (cycles) above which it goes down"};
  param<double> m_sch_factor{*this, "sch_factor", 2, "the schedulers' threshold, x th_u"};

  std::vector<uc_component> m_components;  // tuned down for the whole run
  std::vector<uc_component> m_configured;  // static_config's
  std::unique_ptr<gating_control_logic> m_logic;
  uc_interval m_counts;  // this interval's
  // The run's counts (its cycles set when a statistic is read; J up to the last decision).
  uc_interval m_run;
  std::array<double, uc_components> m_widths{};  // each component's, from the SMX (fixed)
  job_integral m_jobs;
  std::uint32_t m_resident = 0;  // TBs on the SMX
  std::uint64_t m_next = 0;      // cycle of the armed decision (0: none)
  std::uint64_t m_start = 0;     // cycle this interval started
  sc_core::sc_event m_decide;
  std::array<bool, uc_components> m_applied_down{};
  std::array<std::uint64_t, uc_components> m_down_since{};
  std::array<std::uint64_t, uc_components> m_wake_at{};  // cycle group 1 is usable (0: none)
  sc_core::sc_event m_wake;
  struct group_power {
    power_component* component = nullptr;  // nullptr: the timing only
    std::uint32_t gated = 0;               // its state while tuned down
    std::uint32_t element = 1;             // the component's element that is group 1
  };
  // Per component: its own power component's group, and one that follows it (an OC set's
  // register-file banks).
  std::array<std::array<group_power, 2>, uc_components> m_power{};
  std::array<traced_value, uc_components> m_trace;
  std::array<counter, uc_components> m_tune_downs, m_down_total;
  counter m_tuned, m_decisions, m_untuned, m_wakes;
};

}  // namespace gputlm::pm
