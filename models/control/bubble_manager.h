// SMX-occupancy bubble manager: the SMX monitoring logic and Diversion Control Registers of
// Wang's thesis ch. 6 (§6.2, Fig. 36, 37; docs/dvfs.md). A controller beside the SMX
// scheduler: every `sample` cycles it reads each SMX's occupancy (resident warps / warp
// slots) and, below `threshold` (a bubble), diverts the SMX (DVR: no new TB goes there)
// when another undiverted SMX can take the next TB, drains it (DRN: at most
// `drain_window` samples for its TBs to finish, else the diversion aborts), and asks the
// voltage regulator for the lowest P-state; a diverted low SMX resumes (back to nominal,
// then undiverted) when TBs wait and no undiverted SMX can take them, at most one per
// sample. When every SMX is idle with work still to come, the whole GPU goes low (every
// domain the regulator drives) and comes back when TBs arrive. With `draining: false` an
// SMX goes low as soon as it is diverted, its warps running on at the low frequency.
//
// Bound by path: `scheduler` -> the scheduler's `monitor` (control::dispatch_monitor), the
// scheduler's `events` -> `watch`, `regulator` -> the regulator's `control`, the
// regulator's `status` -> `status` (yaml/mechanisms/bubble-dvfs.yaml).
//
// It samples only while a sample can act (TBs waiting, an SMX draining, or every SMX idle
// with work to come); bubble occurrence and the ideal counterfactual are counted at every
// sample instant of the run from the occupancy changes, without ticking. With `enabled:
// false` it only counts (the baseline's occurrence and ideal saving).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"
#include "models/control/dispatch_monitor.h"
#include "models/power/voltage_regulator.h"

namespace gputlm::control {

class bubble_manager : public component, public dispatch_events, public pm::regulator_status {
 public:
  SC_HAS_PROCESS(bubble_manager);
  bubble_manager(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  void add_traces(vcd_writer& vcd) override;
  std::string added_hardware() const override;

  required_port<dispatch_monitor> scheduler{"scheduler"};
  required_port<pm::voltage_regulator> regulator{"regulator"};
  sc_core::sc_export<dispatch_events> watch{"watch"};
  sc_core::sc_export<pm::regulator_status> status{"status"};

  // dispatch_events
  void tb_dispatched(std::size_t smx, std::uint64_t cycle) override;
  void tb_completed(std::size_t smx, std::uint64_t cycle) override;
  void tbs_arrived(std::uint64_t cycle) override;
  // regulator_status
  void transition_done(std::size_t target, pm::pstate_level level) override;

  // An SMX's place in Fig. 36: accepting TBs, diverted and draining, going low, low
  // (diverted, DVFS bit set), resuming (going back to nominal, still diverted).
  enum class smx_mode : std::uint8_t { active, draining, going_low, low, resuming };
  enum class gpu_mode : std::uint8_t { nominal, going_low, low, going_up };

 private:
  void sample();
  bool in_bubble(std::uint32_t warps, std::size_t smx) const;                 // below the threshold
  bool below(std::size_t smx) const { return in_bubble(m_warps[smx], smx); }  // last change
  bool below_now(std::size_t smx) const {  // now, from the scheduler
    return in_bubble(scheduler->resident_warps(smx), smx);
  }
  bool all_idle() const;
  // Sample instants in (the SMX's last occupancy change, until].
  std::uint64_t instants(std::size_t smx, std::uint64_t until) const {
    return until / m_sample->value - m_since[smx] / m_sample->value;
  }
  // The SMX domain's static and clock energy over `samples` sample periods.
  double idle_joules(std::size_t smx, std::uint64_t samples);
  bool sampling_needed() const;
  void wake(std::uint64_t now);
  void occupancy_changed(std::size_t smx, std::uint64_t now);
  // Counts SMX s's sample instants up to `until` (and those in a bubble).
  void count_samples(std::size_t smx, std::uint64_t until);
  void set_mode(std::size_t smx, smx_mode m);
  bool lower(std::size_t smx);
  bool bound_here(std::size_t smx) const { return *m_keep_bound && scheduler->tbs_bound_to(smx); }

  param<bool> m_enabled{*this, "enabled", true,
                        "divert, drain and lower SMXs (false: only count bubbles)"};
  param<cycles> m_sample{*this, "sample", {500}, "sampling period (cycles of its clock)"};
  param<double> m_threshold{*this, "threshold", 0.0625,
                            "occupancy below which an SMX is in a bubble (0.0625: 4 of 64 warps)"};
  param<std::uint64_t> m_window{*this, "drain_window", 10,
                                "samples a diverted SMX may drain before the diversion aborts"};
  param<bool> m_draining{*this, "draining", true,
                         "drain a diverted SMX before lowering it (false: lower at once)"};
  param<bool> m_gpu_level{*this, "gpu_level", true,
                          "the whole GPU goes low while every SMX is idle"};
  choice_param m_room{*this,
                      "room",
                      "next_tb",
                      "what a diversion needs of another undiverted SMX: room for the next "
                      "waiting TB (next_tb, Fig. 36; no diversion without a waiting TB) or a "
                      "free warp slot (any)",
                      {"next_tb", "any"}};
  param<bool> m_keep_bound{*this, "keep_bound", true,
                           "an SMX the TB policy holds TBs for (LaPerm's bound queue, PAVER's "
                           "group registers) is not diverted and stops draining (false: "
                           "diverted and drained as Fig. 36 is written; a low SMX resumes "
                           "for such TBs either way)"};

  sc_core::sc_event m_sample_event;
  std::uint64_t m_next_sample = ~std::uint64_t(0);  // the cycle asked for (none: max)
  std::uint64_t m_sample_fs = 0;                    // one sample period
  bool m_done = false;                              // the workload finished
  std::vector<smx_mode> m_mode;
  std::vector<std::uint32_t> m_drain_samples;
  std::vector<std::uint64_t> m_resumed_at;  // the cycle each SMX's last resume ended
  gpu_mode m_gpu = gpu_mode::nominal;
  // Occurrence: per SMX, the occupancy since the cycle it last changed.
  std::vector<std::uint32_t> m_warps;
  std::vector<std::uint64_t> m_since;
  std::vector<traced_value> m_dvr_trace, m_drn_trace;
  traced_value m_gpu_trace;

  counter m_samples;
  std::uint64_t m_smx_samples = 0, m_bubble_samples = 0;  // up to each SMX's m_since
  counter m_diversions, m_drains, m_drained, m_drain_aborts, m_lowered, m_resumes, m_gpu_lows;
  double m_ideal_joules = 0;
};

}  // namespace gputlm::control
