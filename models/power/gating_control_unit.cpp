#include "models/power/gating_control_unit.h"

#include <algorithm>

#include "models/common/block_factory.h"
#include "models/power/power_component.h"

namespace gputlm::pm {

namespace {
std::size_t at(uc_component c) { return std::size_t(c); }
// The components Table 2's configuration `name` tunes down (empty name: none); false for an
// unknown name.
bool table_2(const std::string& name, std::vector<uc_component>& out) {
  using c = uc_component;
  auto stages = [](uc_pipe k) {
    return std::vector<uc_component>{uc_stage(c::idoc_sp, k), uc_stage(c::oc_sp, k),
                                     uc_stage(c::ocex_sp, k), uc_stage(c::ex_sp, k)};
  };
  std::vector<uc_component> keep;  // C_X: all except X
  if (name == "none") return true;
  if (name == "c_half") {
  } else if (name == "c_ifid") {
    keep = {c::ifid};
  } else if (name == "c_sch") {
    keep = {c::sch};
  } else if (name == "c_sp") {
    keep = {c::ex_sp};
  } else if (name == "c_sfu") {
    keep = {c::ex_sfu};
  } else if (name == "c_ldst") {
    keep = {c::ex_ldst};
  } else if (name == "c_comp" || name == "c_mem") {
    keep = {c::ifid, c::sch};
    for (uc_pipe k : name == "c_comp" ? std::vector<uc_pipe>{uc_pipe::sp, uc_pipe::sfu}
                                      : std::vector<uc_pipe>{uc_pipe::ldst})
      for (uc_component x : stages(k)) keep.push_back(x);
  } else {
    return false;
  }
  for (std::size_t i = 0; i < uc_components; ++i)
    if (std::find(keep.begin(), keep.end(), uc_component(i)) == keep.end())
      out.push_back(uc_component(i));
  return true;
}
// Power-gated (stateless) rather than clock-gated (S002 §2.3): the decoder, the schedulers
// (unless sch_gating says cg), the SP and SFU units.
bool power_gated(uc_component c, bool sch_pg) {
  return c == uc_component::ifid || c == uc_component::ex_sp || c == uc_component::ex_sfu ||
         (c == uc_component::sch && sch_pg);
}
}  // namespace

gating_control_unit::gating_control_unit(const sc_core::sc_module_name& name,
                                         const block_context& ctx)
    : component(name, ctx) {
  declare_port("datapath", datapath);
  watch.bind(*this);
  declare_export("watch", watch);
  SC_METHOD(decide);
  sensitive << m_decide;
  dont_initialize();
  SC_METHOD(woken);
  sensitive << m_wake;
  dont_initialize();
  add_stat("static_tune_downs", m_tuned, "components tuned down for the whole run");
  add_stat("decisions", m_decisions, "phase decisions taken (run_time)");
  add_stat("untuned_components", m_untuned,
           "components of static_config the SMX has no second group for (not tuned)");
  add_stat("wake_ups", m_wakes, "groups tuned back up");
  add_stat(
      "ldst_response_cycles", [this] { return m_run.response_time(); },
      "EX_LDST's response time by Little's law over the run, J / λ (run_time)");
  for (std::size_t c = 0; c < uc_components; ++c) {
    const std::string n = to_string(uc_component(c));
    add_stat(
        "utilization." + n,
        [this, c] {
          uc_interval run = m_run;  // (over the run's cycles so far)
          run.cycles = clock().now_cycle();
          return run.utilization(uc_component(c));
        },
        "busy width-cycles over (its width x the run's cycles), as Algorithm 1 counts them");
    add_stat("tune_downs." + n, m_tune_downs[c], "times its group 1 was gated (run_time)");
    add_stat(
        "down_cycles." + n, [this, c] { return double(down_cycles(uc_component(c))); },
        "cycles its group 1 was gated (run_time)");
  }
}

void gating_control_unit::validate() {
  m_components.clear();
  for (const std::string& n : *m_static) {
    std::size_t c = 0;
    while (c < uc_components && n != to_string(uc_component(c))) ++c;
    m_static.require(c < uc_components, "unknown component '" + n +
                                            "' (expected ifid, sch, idoc_sp, oc_sp, ocex_sp, "
                                            "ex_sp, idoc_sfu, ..., ex_ldst)");
    if (c < uc_components) m_components.push_back(uc_component(c));
  }
  m_configured.clear();
  m_config.require(table_2(*m_config, m_configured),
                   "unknown configuration '" + *m_config +
                       "' (expected none, c_half, c_ifid, c_sch, c_sp, c_sfu, c_ldst, c_comp, "
                       "c_mem)");
  m_config.require(*m_config == "none" || (*m_static).empty(),
                   "static_config and static_tune_down exclude each other");
  m_interval.require(m_interval->value >= 1, "must be at least 1 cycle");
  m_th_u.require(*m_th_u >= 0 && *m_th_u <= 1, "expected [0, 1]");
  m_th_rt.require(*m_th_rt >= 0, "must not be negative");
  m_sch_factor.require(*m_sch_factor >= 0, "must not be negative");
  m_sch_gating.require(*m_sch_gating == "pg" || *m_sch_gating == "cg", "expected pg or cg");
  m_run_time.require(!*m_run_time || ((*m_static).empty() && *m_config == "none"),
                     "the run-time phases and a static configuration exclude each other");
}

void gating_control_unit::validate_bound() {
  for (uc_component c : m_components)
    m_static.require(datapath->tunable(c), std::string("'") + to_string(c) +
                                               "' has no second group to gate in this SMX's "
                                               "model (ifid, sch, ex_sp, ex_sfu and ex_ldst "
                                               "have; idoc_* and ocex_* with id_oc_widths "
                                               "and oc_ex_widths of 2 or more, oc_* with "
                                               "per_type collector sets of 2 or more)");
  for (uc_component c : m_configured) {
    if (datapath->tunable(c))
      m_components.push_back(c);
    else
      ++m_untuned;
  }
  m_logic = std::make_unique<gating_control_logic>(
      gating_control_logic::params{*m_th_u, *m_th_rt, *m_sch_factor});
  for (std::size_t c = 0; c < uc_components; ++c) {
    m_widths[c] = datapath->width(uc_component(c));
    if (datapath->tunable(uc_component(c))) take_power(uc_component(c));
  }
  m_counts.width = m_run.width = m_widths;
}

void gating_control_unit::take_power(uc_component c) {
  const param<std::string>& which = power_gated(c, *m_sch_gating == "pg") ? m_pg_state : m_cg_state;
  std::size_t n = 0;
  for (const core::datapath_gates::power_group& g : datapath->group_power(c)) {
    power_component* pc = g.component;
    // No power table (the component has only its unmodelled ON state): the timing only.
    if (pc == nullptr || pc->states().size() < 2 || n == m_power[at(c)].size()) continue;
    std::uint32_t s = 1;
    while (s < pc->states().size() && pc->states()[s].name != *which) ++s;
    which.require(s < pc->states().size(), "the power table's " + pc->name() + " has no state '" +
                                               *which + "' (group 1 of " + to_string(c) +
                                               " is gated into it)");
    const bool ours = pc->policy_bound(this);  // (taken for another pipeline or stage)
    which.require(ours || !pc->gated(), pc->name() +
                                            " is gated already (by power.policy or another "
                                            "controller)");
    if (s >= pc->states().size() || (pc->gated() && !ours)) continue;
    if (!ours) {
      pc->reshape(g.elements);  // the groups
      pc->bind_policy(this, std::uint32_t(c));
    }
    m_power[at(c)][n++] = {pc, s, g.element};
  }
}

std::string gating_control_unit::added_hardware() const {
  return *m_run_time ? "μC-States gating control unit: utilization counters, a divider and a "
                       "comparator (S002 §5.1: 32 bytes)"
                     : "μC-States gating control unit: static tune-down of " +
                           std::to_string(m_components.size()) + " components";
}

void gating_control_unit::start_of_simulation() {
  for (uc_component c : m_components) {
    apply(c, true, 0);
    ++m_tuned;
  }
}

void gating_control_unit::add_traces(vcd_writer& vcd) {
  for (std::size_t c = 0; c < uc_components; ++c)
    if (datapath->tunable(uc_component(c)))
      m_trace[c].trace(vcd, name(), to_string(uc_component(c)), 2);
}

void gating_control_unit::apply(uc_component c, bool down, std::uint64_t now) {
  const std::uint64_t now_fs = clock().edge_fs(now);
  if (down) {
    m_wake_at[at(c)] = 0;  // (a wake-up still running is cut short)
    for (const group_power& g : m_power[at(c)])
      if (g.component) g.component->set_state(g.element, g.gated, now_fs);
    datapath->tune(c, true);
    m_trace[at(c)].set(1);
    return;
  }
  ++m_wakes;
  std::uint64_t wake = 0;  // the longest of its parts'
  for (const group_power& g : m_power[at(c)])
    if (g.component) {
      wake = std::max(wake, g.component->states()[g.gated].wake_cycles);
      g.component->set_state(g.element, 0, now_fs);
    }
  if (wake <= 1) {  // usable from the next cycle (datapath_gates::tune)
    datapath->tune(c, false);
    m_trace[at(c)].set(0);
    return;
  }
  // Waking up: usable `wake` cycles after the decision (tune() is called the cycle before).
  m_wake_at[at(c)] = now + wake - 1;
  m_trace[at(c)].set(2);
  m_wake.notify(clock_domain::kernel_delay_to(clock().edge_fs(now + wake - 1)));
}

void gating_control_unit::woken() {
  const std::uint64_t now = clock().now_cycle();
  std::uint64_t next = 0;
  for (std::size_t c = 0; c < uc_components; ++c) {
    if (m_wake_at[c] == 0) continue;
    if (m_wake_at[c] <= now) {
      m_wake_at[c] = 0;
      datapath->tune(uc_component(c), false);
      m_trace[c].set(0);
    } else if (next == 0 || m_wake_at[c] < next) {
      next = m_wake_at[c];
    }
  }
  if (next != 0) m_wake.notify(clock_domain::kernel_delay_to(clock().edge_fs(next)));
}

void gating_control_unit::arm(std::uint64_t when) {
  m_next = when;
  m_decide.notify(clock_domain::kernel_delay_to(clock().edge_fs(when)));
}

void gating_control_unit::tb_started(std::uint32_t, std::uint32_t, std::uint64_t cycle) {
  if (m_resident++ == 0 && *m_run_time && m_next == 0) {
    m_start = cycle;
    m_jobs.take(cycle);
    arm(cycle + m_interval->value);
  }
}

void gating_control_unit::tb_finished(std::uint32_t, std::uint64_t) {
  if (m_resident > 0 && --m_resident == 0 && m_next != 0) {
    // No TB left: no decision until the next one (a pending one would outlive the run).
    m_decide.cancel();
    m_next = 0;
  }
}

void gating_control_unit::fetched(std::uint32_t, std::uint32_t instructions, std::uint64_t) {
  count(uc_component::ifid, instructions);
}

void gating_control_unit::issued(std::uint32_t, core::unit_pipe pipe, std::uint32_t, std::uint32_t,
                                 std::uint32_t, std::uint64_t) {
  if (pipe == core::unit_pipe::none) return;
  const uc_pipe k = core::datapath_pipe(pipe);
  count(uc_component::sch, 1);
  m_counts.sch_busy[std::size_t(k)] += 1;
  count(uc_stage(uc_component::ex_sp, k), 32);   // a warp's lanes
  count(uc_stage(uc_component::idoc_sp, k), 1);  // its issue-to-collector slot
  count(uc_stage(uc_component::ocex_sp, k), 1);  // its collector-to-execution slot
  if (k == uc_pipe::ldst) {
    ++m_counts.arrivals;
    ++m_run.arrivals;
  }
}

void gating_control_unit::operands_collected(std::uint32_t, core::unit_pipe pipe,
                                             std::uint64_t cycles, std::uint64_t) {
  count(uc_stage(uc_component::oc_sp, core::datapath_pipe(pipe)), double(cycles));
}

void gating_control_unit::warps_waiting(const core::warp_census& census, std::uint64_t cycle) {
  m_jobs.set(cycle, census.memory_wait);
}

void gating_control_unit::decide() {
  const std::uint64_t now = clock().now_cycle();
  m_next = 0;
  m_counts.cycles = now > m_start ? now - m_start : 1;
  m_counts.job_cycles = m_jobs.take(now);
  m_run.job_cycles += m_counts.job_cycles;
  std::vector<uc_component> changed;
  m_logic->decide(m_counts, changed);
  ++m_decisions;
  for (uc_component c : changed) {
    if (!datapath->tunable(c)) continue;
    const bool down = m_logic->tuned_down(c);
    apply(c, down, now);
    bool& d = m_applied_down[at(c)];
    if (down && !d) {
      ++m_tune_downs[at(c)];
      m_down_since[at(c)] = now;
    } else if (!down && d) {
      m_down_total[at(c)] += now - m_down_since[at(c)];
    }
    d = down;
  }
  m_counts = uc_interval{};
  m_counts.width = m_widths;
  m_start = now;
  if (m_resident > 0) arm(now + m_interval->value);
}

std::uint64_t gating_control_unit::down_cycles(uc_component c) const {
  const std::uint64_t open = m_applied_down[at(c)] ? clock().now_cycle() - m_down_since[at(c)] : 0;
  return m_down_total[at(c)].value() + open;
}

GPUTLM_BLOCK("gating_control_unit", gating_control_unit,
             "μC-States gating control unit: tunes an SMX's datapath components down", {});

}  // namespace gputlm::pm
