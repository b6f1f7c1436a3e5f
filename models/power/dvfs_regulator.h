// A DVFS voltage regulator (Wang thesis §6.2.4, Fig. 37 and §6.3.1; docs/dvfs.md): it drives
// the supply and clock of one domain per SMX (the platform's per-instance domain
// `smx_domains`, e.g. `sm[0]` .. `sm[12]`) and, for the GPU level, those and
// `gpu_domains` (e.g. l2, icnt). A requester writes a target's P-state register through the
// export `control` (pm::voltage_regulator); after `transition` the new operating point
// applies at the domain's next edge (cycle numbering continues, clock_domain) and the
// regulator writes the status back through its port `status` (pm::regulator_status).
// The transition time is the thesis's P: 500 cycles for an on-chip regulator, 10,000 for
// an off-chip one, counted in cycles of the regulator's own clock as elaborated (a fixed
// time: 500 cycles at 706 MHz = 0.708 us).
//
// During a transition the domain keeps its old frequency; going up, the voltage rises at
// the request (the order a regulator follows so that the frequency never outruns the
// supply), going down it falls with the frequency at the end. Energy through a transition
// is thus charged at the higher voltage (the thesis is silent).
//
// Statistics per domain and P-state: seconds and energy (the components on that domain,
// static and dynamic) spent there; transitions made, and those cut by the workload's end.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/power/voltage_regulator.h"

namespace gputlm::pm {

class dvfs_regulator : public component, public voltage_regulator {
 public:
  SC_HAS_PROCESS(dvfs_regulator);
  dvfs_regulator(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  std::string added_hardware() const override;

  sc_core::sc_export<voltage_regulator> control{"control"};
  required_port<regulator_status> status{"status"};

  // voltage_regulator
  std::size_t smx_domains() const override { return m_smx_domains; }
  bool request(std::size_t target, pstate_level level) override;
  bool in_transition(std::size_t target) const override;
  double idle_watts(std::size_t smx) override;
  void abandon() override;

 private:
  struct domain {
    clock_domain* clock = nullptr;
    std::size_t nominal = 0;  // index of the elaborated point in its P-states
    std::size_t current = 0;  // P-state in effect (its frequency)
    std::uint64_t since_fs = 0;
    double joules_at_change = 0;
    std::vector<double> seconds;  // per P-state, closed stays
    std::vector<double> joules;
  };
  struct pending {
    std::uint64_t end_fs;
    std::size_t target;
    pstate_level level;
  };
  void complete();
  void switch_to(domain& d, std::size_t k, std::uint64_t now);
  std::size_t index_of(const domain& d, pstate_level level) const {
    return level == pstate_level::nominal ? d.nominal : d.clock->pstates().size() - 1;
  }
  // Time at P-state k so far: its closed stays and the open one.
  double seconds_at(const domain& d, std::size_t k) const {
    return d.seconds[k] + (d.current == k ? double(now_fs() - d.since_fs) * 1e-15 : 0);
  }
  // The domains a target drives (an SMX's, or every one for gpu_level).
  template <class F>
  void each_domain(std::size_t target, F&& f) {
    if (target == gpu_level)
      for (domain& d : m_domains) f(d);
    else
      f(m_domains[target]);
  }

  param<cycles> m_transition{*this,
                             "transition",
                             {500},
                             "time a P-state change takes (cycles of the regulator's clock as "
                             "elaborated: 500 on-chip, 10000 off-chip, thesis §6.3.1)"};
  param<std::string> m_smx_family{*this, "smx_domains", "",
                                  "the per-instance clock domain of the SMXs (one per SMX)"};
  string_list_param m_gpu_names{
      *this, "gpu_domains", {}, "further domains the GPU level drives (e.g. [l2, icnt])"};

  std::vector<domain> m_domains;  // the SMXs' first, then gpu_domains
  std::size_t m_smx_domains = 0;
  std::uint64_t m_transition_fs = 0;
  std::vector<pending> m_pending;    // in request order
  std::vector<std::uint8_t> m_busy;  // per SMX target
  bool m_gpu_busy = false;
  sc_core::sc_event m_done;
  counter m_transitions, m_gpu_transitions, m_cut;
};

}  // namespace gputlm::pm
