#include "models/power/power_component.h"

#include <stdexcept>

namespace gputlm::power {

power_component::power_component(std::string name, std::vector<power_state> states,
                                 std::vector<power_event> events, double nominal_volts,
                                 std::uint32_t elements, std::uint32_t initial_state)
    : m_name(std::move(name)),
      m_states(std::move(states)),
      m_events(std::move(events)),
      m_nominal_volts(nominal_volts),
      m_state(elements, static_cast<std::uint8_t>(initial_state)),
      m_count(m_states.size(), 0),
      m_residency_fs(m_states.size(), 0),
      m_event_count(m_events.size(), 0) {
  if (m_states.empty() || m_states.size() > 255 || initial_state >= m_states.size() ||
      !(nominal_volts > 0))
    throw std::invalid_argument("power component " + m_name + ": bad states or voltage");
  m_count[initial_state] = elements;
}

void power_component::settle(std::uint64_t now_fs) {
  if (now_fs <= m_epoch_fs) return;
  const double dt = double(now_fs - m_epoch_fs);
  for (std::size_t s = 0; s < m_states.size(); ++s) {
    if (m_count[s] == 0) continue;
    const double element_fs = double(m_count[s]) * dt;
    m_residency_fs[s] += element_fs;
    m_static_acc += element_fs * 1e-15 * m_states[s].static_watts * m_static_scale;
  }
  m_epoch_fs = now_fs;
}

void power_component::set_state(std::uint32_t element, std::uint32_t state, std::uint64_t now_fs) {
  const std::uint32_t old = m_state[element];
  if (old == state) return;
  settle(now_fs);
  --m_count[old];
  ++m_count[state];
  m_state[element] = static_cast<std::uint8_t>(state);
}

void power_component::set_voltage(double volts, std::uint64_t now_fs) {
  settle(now_fs);
  m_static_scale = volts / m_nominal_volts;
  m_dynamic_scale = m_static_scale * m_static_scale;
}

double power_component::static_joules(std::uint64_t now_fs) const {
  double j = m_static_acc;
  if (now_fs > m_epoch_fs) {
    const double dt = double(now_fs - m_epoch_fs) * 1e-15;
    for (std::size_t s = 0; s < m_states.size(); ++s)
      j += double(m_count[s]) * dt * m_states[s].static_watts * m_static_scale;
  }
  return j;
}

double power_component::residency_seconds(std::uint32_t state, std::uint64_t now_fs) const {
  double fs = m_residency_fs[state];
  if (now_fs > m_epoch_fs) fs += double(m_count[state]) * double(now_fs - m_epoch_fs);
  return fs * 1e-15;
}

}  // namespace gputlm::power
