#include "models/power/power_component.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::pm {

power_component::power_component(std::string name, std::vector<power_state> states,
                                 std::vector<power_event> events, operating_point at,
                                 std::uint32_t elements, std::uint32_t initial_state)
    : m_name(std::move(name)),
      m_states(std::move(states)),
      m_events(std::move(events)),
      m_period_fs(at.period_fs),
      m_static_scale(at.volts / reference_volts),
      m_dynamic_scale(m_static_scale * m_static_scale),
      m_nominal_period_fs(at.period_fs),
      m_clock_scale(m_dynamic_scale),
      m_state(elements, static_cast<std::uint8_t>(initial_state)),
      m_since(elements, 0),
      m_count(m_states.size(), 0),
      m_closed(m_states.size(), 0),
      m_sum_since(m_states.size(), 0),
      m_residency_before(m_states.size(), 0),
      m_event_count(m_events.size(), 0),
      m_counts(m_event_count.data()),
      m_epoch_count(m_events.size(), 0) {
  if (m_states.empty() || m_states.size() > 255 || initial_state >= m_states.size() ||
      !(at.volts > 0))
    throw std::invalid_argument("power component " + m_name + ": bad states or voltage");
  m_count[initial_state] = elements;
  m_ustate = static_cast<std::uint8_t>(initial_state);
  for (const power_state& s : m_states) m_has_clock = m_has_clock || s.clock_watts != 0;
}

void power_component::materialize() {
  std::fill(m_state.begin(), m_state.end(), m_ustate);
  std::fill(m_since.begin(), m_since.end(), m_usince);
  m_uniform = false;
}

void power_component::charge_from_on(std::uint32_t state, std::uint64_t n) {
  m_transitions += n;
  const power_state& s = m_states[state];
  const double saving = m_states[0].static_watts - s.static_watts;  // W, at 1 V
  if (s.break_even_cycles != 0 && saving > 0)
    m_transition_joules += double(n) * double(s.break_even_cycles) * double(m_period_fs) * 1e-15 *
                           saving * m_static_scale;
}

void power_component::set_all(std::uint32_t state, std::uint64_t at_fs) {
  if (!m_uniform) {
    for (std::uint32_t e = 0; e < elements(); ++e) set_state(e, state, at_fs);
    return;
  }
  const std::uint32_t old = m_ustate;
  if (old == state) return;
  const std::uint64_t n = m_state.size();
  const std::uint64_t from = entered(0);
  if (at_fs < from) at_fs = from;
  m_closed[old] += wide(n) * (at_fs - from);
  m_sum_since[old] -= wide(n) * from;
  m_count[old] -= n;
  m_sum_since[state] += wide(n) * at_fs;
  m_count[state] += n;
  m_ustate = static_cast<std::uint8_t>(state);
  m_usince = at_fs;
  if (old == 0) charge_from_on(state, n);
}

std::unique_ptr<power_component> power_component::unmodelled(std::string name,
                                                             const std::vector<std::string>& events,
                                                             std::uint32_t elements) {
  std::vector<power_event> evs;
  for (const auto& e : events) evs.push_back({e, 0.0});
  return std::make_unique<power_component>(
      std::move(name), std::vector<power_state>{{"on", 0.0, 0, 0}}, std::move(evs),
      operating_point{}, elements ? elements : 1);
}

void power_component::start_in(std::uint32_t state) {
  if (state >= m_states.size() || m_transitions != 0)
    throw std::logic_error("power component " + m_name + ": start_in after a change");
  std::fill(m_count.begin(), m_count.end(), 0);
  m_count[state] = static_cast<std::uint64_t>(m_state.size());
  std::fill(m_state.begin(), m_state.end(), static_cast<std::uint8_t>(state));
  m_ustate = static_cast<std::uint8_t>(state);
}

void power_component::set_state(std::uint32_t element, std::uint32_t state, std::uint64_t at_fs) {
  if (m_uniform) {
    if (m_ustate == state) return;
    materialize();
  }
  const std::uint32_t old = m_state[element];
  if (old == state) return;
  const std::uint64_t from = entered(element);
  if (at_fs < from) at_fs = from;
  m_closed[old] += at_fs - from;
  m_sum_since[old] -= from;
  --m_count[old];
  m_sum_since[state] += at_fs;
  ++m_count[state];
  m_state[element] = static_cast<std::uint8_t>(state);
  m_since[element] = at_fs;
  if (old == 0) charge_from_on(state, 1);
}

void power_component::set_operating_point(const operating_point& at, std::uint64_t now_fs) {
  if (now_fs < m_epoch_fs) now_fs = m_epoch_fs;
  // Close the epoch: its static and clock energy at the old point; every element re-enters
  // its state at now_fs.
  for (std::uint32_t s = 0; s < m_states.size(); ++s) {
    const double fs = double(epoch_residency(s, now_fs));
    m_residency_before[s] += fs;
    m_static_before += fs * 1e-15 * m_states[s].static_watts * m_static_scale;
    m_clock_before += fs * 1e-15 * m_states[s].clock_watts * m_clock_scale;
    m_closed[s] = 0;
    m_sum_since[s] = wide(m_count[s]) * now_fs;
  }
  m_epoch_fs = now_fs;
  m_dynamic_before = event_joules();
  for (std::size_t e = 0; e < m_events.size(); ++e) m_epoch_count[e] = m_counts[e];
  m_static_scale = at.volts / reference_volts;
  m_dynamic_scale = m_static_scale * m_static_scale;
  m_period_fs = at.period_fs;
  m_clock_scale = m_dynamic_scale;
  if (m_period_fs && m_nominal_period_fs)  // f / f0 = period0 / period
    m_clock_scale *= double(m_nominal_period_fs) / double(m_period_fs);
}

double power_component::clock_joules(std::uint64_t now_fs) const {
  if (!m_has_clock) return 0;
  if (now_fs < m_epoch_fs) now_fs = m_epoch_fs;
  double j = 0;
  for (std::uint32_t s = 0; s < m_states.size(); ++s)
    j += double(epoch_residency(s, now_fs)) * 1e-15 * m_states[s].clock_watts;
  return m_clock_before + j * m_clock_scale;
}

double power_component::event_joules() const {
  double j = 0;
  for (std::size_t e = 0; e < m_events.size(); ++e)
    j += double(m_counts[e] - m_epoch_count[e]) * m_events[e].joules;
  return m_dynamic_before + j * m_dynamic_scale;
}

double power_component::static_joules(std::uint64_t now_fs) const {
  if (now_fs < m_epoch_fs) now_fs = m_epoch_fs;
  double j = m_static_before;
  for (std::uint32_t s = 0; s < m_states.size(); ++s)
    j += double(epoch_residency(s, now_fs)) * 1e-15 * m_states[s].static_watts * m_static_scale;
  return j;
}

double power_component::residency_seconds(std::uint32_t state, std::uint64_t now_fs) const {
  if (now_fs < m_epoch_fs) now_fs = m_epoch_fs;
  return (m_residency_before[state] + double(epoch_residency(state, now_fs))) * 1e-15;
}

void power_component::bind_policy(gating_policy* p, std::uint32_t slot) {
  const bool first = m_policy == nullptr && p != nullptr;
  m_policy = p;
  m_policy_slot = slot;
  if (first && m_on_gated) m_on_gated();
}

void power_component::on_gated(std::function<void()> f) {
  if (m_policy)
    f();
  else
    m_on_gated = std::move(f);
}

void power_component::reshape(std::uint32_t elements) {
  if (elements == 0) elements = 1;
  if (elements == this->elements()) return;
  if (!m_uniform || m_ustate != 0 || m_usince != 0 || m_epoch_fs != 0 || m_transitions != 0)
    throw std::logic_error(m_name + ": reshaped after it changed state");
  // Static power is per element: the component's total stays what the table gives.
  const double scale = double(this->elements()) / double(elements);
  for (power_state& st : m_states) {
    st.static_watts =
        st.whole_static_watts >= 0 ? st.whole_static_watts / elements : st.static_watts * scale;
    st.clock_watts =
        st.whole_clock_watts >= 0 ? st.whole_clock_watts / elements : st.clock_watts * scale;
  }
  m_state.assign(elements, 0);
  m_since.assign(elements, 0);
  m_count.assign(m_states.size(), 0);
  m_count[0] = elements;
}

double power_component::idle_watts() const {
  double w = 0;
  for (std::size_t s = 0; s < m_states.size(); ++s)
    w += double(m_count[s]) *
         (m_states[s].static_watts * m_static_scale + m_states[s].clock_watts * m_clock_scale);
  return w;
}

}  // namespace gputlm::pm
