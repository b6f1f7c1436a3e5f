#include "models/power/dvfs_regulator.h"

#include <algorithm>

#include "models/base/units.h"
#include "models/common/block_factory.h"

namespace gputlm::pm {

dvfs_regulator::dvfs_regulator(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  control.bind(*this);
  declare_export("control", control);
  declare_port("status", status);
  SC_METHOD(complete);
  sensitive << m_done;
  dont_initialize();
  add_stat("transitions", m_transitions,
           "P-state changes completed (per target, the GPU level one)");
  add_stat("gpu_transitions", m_gpu_transitions, "of which GPU-level changes");
  add_stat("transitions_cut", m_cut, "changes still in progress when the workload ended");
}

void dvfs_regulator::validate() {
  m_transition.require(m_transition->value >= 1 && m_transition->value <= 1000000,
                       "must be 1 to 1000000 cycles");
  m_transition_fs = m_transition->value * std::uint64_t(clock().period().value());
  m_smx_family.require(!m_smx_family->empty(),
                       "names no clock domain: give the SMXs' per-instance domain (e.g. sm)");
  auto add = [&](clock_domain* c, const param_base& key, const std::string& name) {
    key.require(c != nullptr, "no clock domain '" + name + "'");
    key.require(!c->pstates().empty(), "clock domain '" + name + "' lists no P-states (clocks." +
                                           name.substr(0, name.find('[')) + ".pstates)");
    key.require(std::none_of(m_domains.begin(), m_domains.end(),
                             [&](const domain& d) { return d.clock == c; }),
                "drives clock domain '" + name + "' twice");
    key.require(c != &clock(), "'" + name +
                                   "' is the regulator's own clock (its transition "
                                   "time is counted in it): put the regulator on a domain it does "
                                   "not drive");
    domain d;
    d.clock = c;
    d.nominal = c->own_pstate();  // (one of them: the platform checked)
    d.current = d.nominal;
    d.seconds.assign(c->pstates().size(), 0);
    d.joules.assign(c->pstates().size(), 0);
    m_domains.push_back(std::move(d));
  };
  for (std::size_t i = 0;; ++i) {
    clock_domain* c = find_clock(*m_smx_family + "[" + std::to_string(i) + "]");
    if (!c) break;
    add(c, m_smx_family, c->name());
  }
  m_smx_family.require(!m_domains.empty(), "'" + *m_smx_family +
                                               "' is not a per-instance clock domain (clocks." +
                                               *m_smx_family + " with count:)");
  m_smx_domains = m_domains.size();
  for (const std::string& n : *m_gpu_names) add(find_clock(n), m_gpu_names, n);
  m_busy.assign(m_smx_domains, 0);

  add_stat(
      "smx_lowest_share",
      [this] {
        double low = 0, all = 0;
        for (std::size_t di = 0; di < m_smx_domains; ++di) {
          const domain& d = m_domains[di];
          for (std::size_t k = 0; k < d.seconds.size(); ++k) all += seconds_at(d, k);
          low += seconds_at(d, d.seconds.size() - 1);
        }
        return all > 0 ? low / all : 0.0;
      },
      "share of the SMX domains' time spent at their lowest P-state");
  // Statistics per domain and P-state.
  for (std::size_t di = 0; di < m_domains.size(); ++di) {
    const clock_domain& c = *m_domains[di].clock;
    for (std::size_t k = 0; k < c.pstates().size(); ++k) {
      const std::string at = c.name() + ".p" + std::to_string(k);
      const std::string point = units::format_frequency(c.pstates()[k].hz) + "/" +
                                units::format_voltage(c.pstates()[k].volts);
      add_stat(
          at + "_seconds", [this, di, k] { return seconds_at(m_domains[di], k); },
          "time domain " + c.name() + " spent at P-state " + std::to_string(k) + " (" + point +
              ")");
      if (power())
        add_stat(
            at + "_joules",
            [this, di, k] {
              domain& d = m_domains[di];
              return d.joules[k] +
                     (d.current == k ? power()->joules(*d.clock) - d.joules_at_change : 0);
            },
            "energy of the components on domain " + c.name() + " while at P-state " +
                std::to_string(k) + " (static and dynamic)");
    }
  }
}

std::string dvfs_regulator::added_hardware() const {
  return "DVFS regulator: " + std::to_string(m_domains.size()) + " domains, " +
         units::format_cycles(m_transition->value) + " per transition";
}

bool dvfs_regulator::in_transition(std::size_t target) const {
  if (m_gpu_busy) return true;
  if (target != gpu_level) return m_busy[target] != 0;
  return std::any_of(m_busy.begin(), m_busy.end(), [](std::uint8_t b) { return b != 0; });
}

bool dvfs_regulator::request(std::size_t target, pstate_level level) {
  if (target != gpu_level && target >= m_smx_domains) return false;
  if (in_transition(target)) return false;
  const std::uint64_t now = now_fs();
  // Going up: the voltage rises now, the frequency when the transition ends.
  each_domain(target, [&](domain& d) {
    const std::size_t k = index_of(d, level);
    if (k < d.current) {
      const pstate& p = d.clock->pstates()[k];
      if (p.volts != d.clock->voltage())
        d.clock->set_operating_point(d.clock->frequency(), p.volts);
    }
  });
  if (target == gpu_level)
    m_gpu_busy = true;
  else
    m_busy[target] = 1;
  m_pending.push_back({now + m_transition_fs, target, level});
  m_done.notify(clock_domain::kernel_delay_to(m_pending.front().end_fs));
  return true;
}

void dvfs_regulator::switch_to(domain& d, std::size_t k, std::uint64_t now) {
  if (k == d.current && d.clock->voltage() == d.clock->pstates()[k].volts) return;
  d.seconds[d.current] += double(now - d.since_fs) * 1e-15;
  if (power()) {
    const double j = power()->joules(*d.clock);
    d.joules[d.current] += j - d.joules_at_change;
    d.joules_at_change = j;
  }
  d.since_fs = now;
  d.current = k;
  const pstate& p = d.clock->pstates()[k];
  d.clock->set_operating_point(p.hz, p.volts);
}

void dvfs_regulator::complete() {
  const std::uint64_t now = now_fs();
  // Requests end in the order made (one transition time for all).
  while (!m_pending.empty() && m_pending.front().end_fs <= now) {
    const pending p = m_pending.front();
    m_pending.erase(m_pending.begin());
    each_domain(p.target, [&](domain& d) { switch_to(d, index_of(d, p.level), now); });
    if (p.target == gpu_level) {
      m_gpu_busy = false;
      ++m_gpu_transitions;
    } else {
      m_busy[p.target] = 0;
    }
    ++m_transitions;
    status->transition_done(p.target, p.level);
  }
  if (!m_pending.empty()) m_done.notify(clock_domain::kernel_delay_to(m_pending.front().end_fs));
}

double dvfs_regulator::idle_watts(std::size_t smx) {
  return power() && smx < m_smx_domains ? power()->idle_watts(*m_domains[smx].clock) : 0.0;
}

void dvfs_regulator::abandon() {
  m_cut += m_pending.size();
  m_pending.clear();
  m_done.cancel();
  std::fill(m_busy.begin(), m_busy.end(), 0);
  m_gpu_busy = false;
}

GPUTLM_BLOCK("dvfs_regulator", dvfs_regulator,
             "DVFS voltage regulator of the SMX domains and the GPU level", {});

}  // namespace gputlm::pm
