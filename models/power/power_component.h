// A power component of a block (an L1 bank's data array, an SMX's register banks, a
// router...), or an array of identical elements down to single 32-byte cache lines, with
// power states (ON, clock-gated, Sleep/drowsy, OFF, or named voltage levels), each with its
// static power, wake-up latency and break-even time, and dynamic energy per activity event.
// The shape follows the GPUWattch/AccelWattch component split and the tri-modal (ON/Sleep/
// OFF) cache-line states of Snooze and the register-bank levels of Slumber
// (../shared/reference/power-models.md, seed-000).
//
// Residency is accounted by events, not by ticking: an element records when it changes
// state; totals are integrated lazily from the number of elements in each state since the
// last change. Per element the component keeps one byte (its state), so an L2 of 147 K lines
// costs 147 KB. Coefficients are at the domain's nominal voltage V0; static power scales
// with V/V0 and dynamic energy with (V/V0)^2 (DVFS).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::power {

struct power_state {
  std::string name;
  double static_watts = 0;            // per element, at nominal voltage
  std::uint64_t wake_cycles = 0;      // to return to state 0 (ON)
  std::uint64_t break_even_cycles = 0;
};

struct power_event {
  std::string name;
  double joules = 0;                  // per event, at nominal voltage
};

class power_component {
 public:
  power_component(std::string name, std::vector<power_state> states,
                  std::vector<power_event> events, double nominal_volts,
                  std::uint32_t elements = 1, std::uint32_t initial_state = 0);

  const std::string& name() const { return m_name; }
  std::uint32_t elements() const { return static_cast<std::uint32_t>(m_state.size()); }
  const std::vector<power_state>& states() const { return m_states; }
  const std::vector<power_event>& events() const { return m_events; }

  std::uint32_t state_of(std::uint32_t element) const { return m_state[element]; }
  std::uint64_t in_state(std::uint32_t state) const { return m_count[state]; }
  // Moves one element to `state` at time `now_fs`.
  void set_state(std::uint32_t element, std::uint32_t state, std::uint64_t now_fs);
  // `count` occurrences of event `event` at the current voltage.
  void record(std::uint32_t event, std::uint64_t count = 1) {
    m_event_count[event] += count;
    m_dynamic_joules += double(count) * m_events[event].joules * m_dynamic_scale;
  }
  // The supply changed at `now_fs` (DVFS).
  void set_voltage(double volts, std::uint64_t now_fs);

  // Totals up to `now_fs`.
  double static_joules(std::uint64_t now_fs) const;
  double dynamic_joules() const { return m_dynamic_joules; }
  // Element-seconds spent in `state` (sum over elements).
  double residency_seconds(std::uint32_t state, std::uint64_t now_fs) const;
  std::uint64_t event_count(std::uint32_t event) const { return m_event_count[event]; }

 private:
  void settle(std::uint64_t now_fs);

  std::string m_name;
  std::vector<power_state> m_states;
  std::vector<power_event> m_events;
  double m_nominal_volts;
  double m_static_scale = 1;   // V / V0
  double m_dynamic_scale = 1;  // (V / V0)^2
  std::vector<std::uint8_t> m_state;         // per element
  std::vector<std::uint64_t> m_count;        // elements per state
  std::vector<double> m_residency_fs;        // element-fs per state, up to m_epoch_fs
  double m_static_acc = 0;                   // joules up to m_epoch_fs
  std::uint64_t m_epoch_fs = 0;
  std::vector<std::uint64_t> m_event_count;
  double m_dynamic_joules = 0;
};

}  // namespace gputlm::power
