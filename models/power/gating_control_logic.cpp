#include "models/power/gating_control_logic.h"

namespace gputlm::pm {

const char* to_string(uc_component c) {
  static const char* const names[uc_components] = {
      "ifid",   "sch",      "idoc_sp", "oc_sp",     "ocex_sp", "ex_sp",     "idoc_sfu",
      "oc_sfu", "ocex_sfu", "ex_sfu",  "idoc_ldst", "oc_ldst", "ocex_ldst", "ex_ldst"};
  return std::size_t(c) < uc_components ? names[std::size_t(c)] : "?";
}

uc_component uc_stage(uc_component sp_stage, uc_pipe p) {
  return uc_component(std::size_t(sp_stage) + 4 * std::size_t(p));
}

int uc_pipe_of(uc_component c, uc_component sp_stage) {
  if (c < sp_stage) return -1;
  const std::size_t d = std::size_t(c) - std::size_t(sp_stage);
  return d % 4 == 0 && d / 4 < uc_pipes ? int(d / 4) : -1;
}

double uc_interval::utilization(uc_component c) const {
  const double w = width[std::size_t(c)];
  return w > 0 && cycles > 0 ? busy[std::size_t(c)] / (w * double(cycles)) : 0.0;
}

double uc_interval::sch_utilization(uc_pipe k) const {
  const double w = width[std::size_t(uc_component::sch)];
  return w > 0 && cycles > 0 ? sch_busy[std::size_t(k)] / (w * double(cycles)) : 0.0;
}

double uc_interval::response_time() const { return arrivals ? job_cycles / double(arrivals) : 0.0; }

void job_integral::set(std::uint64_t now, std::uint32_t count) {
  if (now > m_since) m_sum += double(m_count) * double(now - m_since);
  m_since = now > m_since ? now : m_since;
  m_count = count;
}

double job_integral::take(std::uint64_t now) {
  set(now, m_count);
  const double s = m_sum;
  m_sum = 0;
  return s;
}

void gating_control_logic::set(uc_component c, bool down, std::vector<uc_component>& changed) {
  bool& d = m_down[std::size_t(c)];
  if (d == down) return;
  d = down;
  if (down) ++m_tune_downs[std::size_t(c)];
  changed.push_back(c);
}

void gating_control_logic::decide(const uc_interval& iv, std::vector<uc_component>& changed) {
  using C = uc_component;
  switch (m_phase) {
    case 1:  // the execution units
      set(C::ex_sp, iv.utilization(C::ex_sp) < m_p.th_u, changed);
      set(C::ex_sfu, iv.utilization(C::ex_sfu) < m_p.th_u, changed);
      set(C::ex_ldst, iv.response_time() > m_p.th_rt, changed);
      break;
    case 2:  // each pipeline's registers and collectors against its execution units
      for (C stage : {C::ocex_sp, C::oc_sp, C::idoc_sp})
        for (uc_pipe p : {uc_pipe::sp, uc_pipe::sfu, uc_pipe::ldst}) {
          // Down while its ratio to the execution units' utilization is below 1 (§4); an
          // unused component (0 of 0) is not the bottleneck either.
          const C c = uc_stage(stage, p);
          const double u = iv.utilization(c);
          set(c, u < iv.utilization(uc_stage(C::ex_sp, p)) || u == 0, changed);
        }
      break;
    default: {  // the front end
      // Not tuned down when the schedulers' issues to some pipeline are more utilized than
      // its execution units (§4: "if SCH utilization is higher for at least one of the
      // instruction types, SCH is considered to be the bottleneck"): a pipeline they issue
      // to no more than its units take (equal, or both unused) does not hold them up.
      bool below = iv.utilization(C::sch) < m_p.sch_factor * m_p.th_u;
      for (uc_pipe p : {uc_pipe::sp, uc_pipe::sfu, uc_pipe::ldst})
        below = below && iv.sch_utilization(p) <= iv.utilization(uc_stage(C::ex_sp, p));
      set(C::sch, below, changed);
      set(C::ifid, below && iv.utilization(C::ifid) < iv.utilization(C::sch), changed);
      break;
    }
  }
  m_phase = m_phase % 3 + 1;
}

}  // namespace gputlm::pm
