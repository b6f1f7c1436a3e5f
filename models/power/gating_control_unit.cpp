#include "models/power/gating_control_unit.h"

#include "models/common/block_factory.h"

namespace gputlm::pm {

namespace {
std::size_t at(uc_component c) { return std::size_t(c); }
// The pipeline (SP, SFU, LD/ST) an SMX pipe counts under.
uc_pipe pipe_of(core::unit_pipe p) {
  return p == core::unit_pipe::sfu    ? uc_pipe::sfu
         : p == core::unit_pipe::ldst ? uc_pipe::ldst
                                      : uc_pipe::sp;
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
  add_stat("static_tune_downs", m_tuned, "components tuned down for the whole run");
  add_stat("decisions", m_decisions, "phase decisions taken (run_time)");
  for (std::size_t c = 0; c < uc_components; ++c) {
    const std::string n = to_string(uc_component(c));
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
  m_interval.require(m_interval->value >= 1, "must be at least 1 cycle");
  m_th_u.require(*m_th_u >= 0 && *m_th_u <= 1, "expected [0, 1]");
  m_th_rt.require(*m_th_rt >= 0, "must not be negative");
  m_sch_factor.require(*m_sch_factor >= 0, "must not be negative");
  m_run_time.require(!*m_run_time || (*m_static).empty(),
                     "the run-time phases and static_tune_down exclude each other");
}

void gating_control_unit::validate_bound() {
  for (uc_component c : m_components)
    m_static.require(datapath->tunable(c), std::string("'") + to_string(c) +
                                               "' has no second group to gate in this SMX's "
                                               "model (only ifid, sch, ex_sp and ex_sfu have)");
  m_logic = std::make_unique<gating_control_logic>(
      gating_control_logic::params{*m_th_u, *m_th_rt, *m_sch_factor});
  for (std::size_t c = 0; c < uc_components; ++c) m_widths[c] = datapath->width(uc_component(c));
  m_counts.width = m_widths;
}

std::string gating_control_unit::added_hardware() const {
  return *m_run_time ? "μC-States gating control unit: utilization counters, a divider and a "
                       "comparator (S002 §5.1: 32 bytes)"
                     : "μC-States gating control unit: static tune-down of " +
                           std::to_string(m_components.size()) + " components";
}

void gating_control_unit::start_of_simulation() {
  for (uc_component c : m_components) {
    datapath->tune(c, true);
    ++m_tuned;
  }
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
  m_counts.busy[at(uc_component::ifid)] += instructions;
}

void gating_control_unit::issued(std::uint32_t, core::unit_pipe pipe, std::uint32_t, std::uint32_t,
                                 std::uint32_t, std::uint64_t) {
  if (pipe == core::unit_pipe::none) return;
  const uc_pipe k = pipe_of(pipe);
  m_counts.busy[at(uc_component::sch)] += 1;
  m_counts.sch_busy[std::size_t(k)] += 1;
  m_counts.busy[at(uc_stage(uc_component::ex_sp, k))] += 32;  // a warp's lanes
  if (k == uc_pipe::ldst) ++m_counts.arrivals;
}

void gating_control_unit::warps_waiting(const core::warp_census& census, std::uint64_t cycle) {
  m_jobs.set(cycle, census.memory_wait);
}

void gating_control_unit::decide() {
  const std::uint64_t now = clock().now_cycle();
  m_next = 0;
  m_counts.cycles = now > m_start ? now - m_start : 1;
  m_counts.job_cycles = m_jobs.take(now);
  std::vector<uc_component> changed;
  m_logic->decide(m_counts, changed);
  ++m_decisions;
  for (uc_component c : changed) {
    if (!datapath->tunable(c)) continue;
    const bool down = m_logic->tuned_down(c);
    datapath->tune(c, down);
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
