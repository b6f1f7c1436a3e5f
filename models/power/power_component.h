// A power component of a block (an L1 bank's data array, an SMX's register banks, a
// router...), or an array of identical elements down to single 32-byte cache lines, with
// power states (ON, clock-gated, Sleep/drowsy, OFF, or named voltage levels), each with its
// static power, wake-up latency and break-even time, and dynamic energy per activity event.
// The shape follows the GPUWattch/AccelWattch component split and the tri-modal (ON/Sleep/
// OFF) cache-line states of Snooze and the register-bank levels of Slumber
// (docs/references.md: "GPUWattch and AccelWattch", "Snooze cache leakage",
// "Slumber register leakage").
//
// Residency is accounted by events, not by ticking: an element records when it changes
// state, and totals follow from per-state sums (element-time closed so far, plus the open
// intervals: elements in the state x now - the sum of their entry times), so a change costs
// O(1) and a total O(states). A gating policy may date a change back (a line that went to
// sleep when its idle timer ran out, noticed at its next access), as far as the element's
// previous change or the last voltage change. Per element the component keeps its state
// (1 byte) and the time of its last change (8 bytes): an L2 of 147 K lines costs 1.3 MB.
// Coefficients are at the reference voltage of 1 V (reference_volts): at a supply V static
// power scales with V/1V and dynamic energy with (V/1V)^2, from the block's clock domain's
// voltage at the start and at every DVFS change.
//
// Clock power: a state may draw dynamic power while an element is in it (the clock tree and
// idle toggling: GPUWattch's IDLE_COREP, what clock gating saves in uC-States), given at
// 1 V and the block's clock frequency as elaborated; at a supply V and frequency f it scales
// with (V/1V)^2 x f/f0. Its energy is residency x power, part of the dynamic energy and
// also totalled apart (clock_joules).
//
// Transition energy: when an element goes from ON (state 0) into a state s, it is charged
// E = break_even_s x clock period x (P_on - P_s) (per element, at the current supply): the
// energy whose leakage saving takes break_even_s cycles to earn back, the break-even time
// of Snooze/Slumber and uC-States (Tripathy's thesis Fig. 6.5; Kayiran et al. §2.3;
// docs/references.md, "Slumber register leakage" and "uC-States").
// It is part of the dynamic energy and also totalled apart (transition_joules).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/power/gating_policy.h"

namespace gputlm::pm {

struct power_state {
  std::string name;
  double static_watts = 0;              // per element, at 1 V
  std::uint64_t wake_cycles = 0;        // to return to state 0 (ON)
  std::uint64_t break_even_cycles = 0;  // a stay from ON into this state costs this many
                                        // cycles of its leakage saving (transition energy)
  double whole_static_watts = -1;       // the whole component's, as the table gives it (-1:
                                        // not known; reshape() scales the element's)
  double clock_watts = 0;               // per element, dynamic, at 1 V and the nominal clock
  double whole_clock_watts = -1;        // the whole component's (as whole_static_watts)
};

struct power_event {
  std::string name;
  double joules = 0;  // per event, at 1 V
};

// The supply and clock of a component's block: its clock domain's voltage and period.
struct operating_point {
  double volts = 1.0;
  std::uint64_t period_fs = 0;  // break-even cycles -> time (0: no transition energy)
};

class power_component {
 public:
  // The voltage the power table's coefficients are given at (scripts/power-table.py).
  static constexpr double reference_volts = 1.0;

  power_component(std::string name, std::vector<power_state> states,
                  std::vector<power_event> events, operating_point at, std::uint32_t elements = 1,
                  std::uint32_t initial_state = 0);

  // A component with no coefficients (one ON state of 0 W, events of 0 J): what a block
  // declares when the platform's power table does not cover it.
  static std::unique_ptr<power_component> unmodelled(std::string name,
                                                     const std::vector<std::string>& events,
                                                     std::uint32_t elements);

  const std::string& name() const { return m_name; }
  std::uint32_t elements() const { return static_cast<std::uint32_t>(m_state.size()); }
  const std::vector<power_state>& states() const { return m_states; }
  const std::vector<power_event>& events() const { return m_events; }

  std::uint32_t state_of(std::uint32_t element) const {
    return m_uniform ? m_ustate : m_state[element];
  }
  std::uint64_t in_state(std::uint32_t state) const { return m_count[state]; }
  // Moves one element to `state` at time `at_fs` (not before its previous change or the
  // last voltage change; an earlier time is taken as that one). From ON into a state with
  // a break-even time, charges the transition energy.
  void set_state(std::uint32_t element, std::uint32_t state, std::uint64_t at_fs);
  // Moves every element to `state` at `at_fs`, as set_state does one by one; O(1) while the
  // elements have only ever changed together (a bank switched as one).
  void set_all(std::uint32_t state, std::uint64_t at_fs);
  // Every element starts in `state` instead of ON (before any change, at time 0; no
  // transition is charged): hardware that powers up with its switches off.
  void start_in(std::uint32_t state);
  // When the element last changed state (fs).
  std::uint64_t changed_at(std::uint32_t element) const { return entered(element); }
  // `count` occurrences of event `event` at the current voltage. Only counted here (the
  // hot path); energy = counts x energy per event x (V/1V)^2, folded at voltage changes.
  void record(std::uint32_t event, std::uint64_t count = 1) { m_counts[event] += count; }
  // Counts the events in `counters` (one per event, zero, owned by the block and outliving
  // this component) instead of its own: a block's hot path then increments its own memory.
  void bind_counters(std::uint64_t* counters) { m_counts = counters; }
  // Element `e` is used at now_fs: its gate (the platform's gating policy, or a controller
  // beside the block that took the component over) wakes it; returns the wake-up cycles the
  // access waits (0 when ON or ungated).
  std::uint64_t access(std::uint32_t e, std::uint64_t now_fs) {
    return m_policy ? m_policy->access(*this, e, now_fs) : 0;
  }
  // `p` switches the elements from now on (`slot`: its own index for the component). A
  // component has one gate; a second is a logic error the caller reports first.
  void bind_policy(gating_policy* p, std::uint32_t slot);
  bool policy_bound(const gating_policy* p) const { return m_policy == p; }
  // A gate switches the elements (else access() is always 0 and may be skipped).
  bool gated() const { return m_policy != nullptr; }
  gating_policy* gate() const { return m_policy; }
  std::uint32_t policy_slot() const { return m_policy_slot; }
  // Called once when a gate is first bound (the block registers the statistics a gated
  // component has: transition energy); at once when one is bound already.
  void on_gated(std::function<void()> f);
  // A controller taking the component over with elements of its own (a register file's
  // warp registers instead of its banks): only before any state changed or time passed.
  void reshape(std::uint32_t elements);

  // The supply changed at `now_fs` (DVFS).
  void set_voltage(double volts, std::uint64_t now_fs) {
    set_operating_point({volts, m_period_fs}, now_fs);
  }
  // The supply and the clock changed at `now_fs` (DVFS): static and clock energy so far at
  // the old point; later transitions are charged with the new period.
  void set_operating_point(const operating_point& at, std::uint64_t now_fs);

  // Totals up to `now_fs`.
  double static_joules(std::uint64_t now_fs) const;
  // Events, transitions and clock power.
  double dynamic_joules(std::uint64_t now_fs) const {
    return event_joules() + m_transition_joules + clock_joules(now_fs);
  }
  double event_joules() const;
  // Energy of the states' clock power up to now_fs.
  double clock_joules(std::uint64_t now_fs) const;
  // Some state draws clock power.
  bool has_clock_power() const { return m_has_clock; }
  double transition_joules() const { return m_transition_joules; }
  // Static and clock power now (W): every element's state's, at the current supply.
  double idle_watts() const;
  // Transitions from ON into another state so far.
  std::uint64_t transitions() const { return m_transitions; }
  // Element-seconds spent in `state` (sum over elements).
  double residency_seconds(std::uint32_t state, std::uint64_t now_fs) const;
  std::uint64_t event_count(std::uint32_t event) const { return m_counts[event]; }

 private:
  __extension__ typedef unsigned __int128
      wide;  // element-fs sums: 147 K lines x 1 s overflows 64 bits
  std::uint64_t entered(std::uint32_t element) const {
    const std::uint64_t since = m_uniform ? m_usince : m_since[element];
    return since > m_epoch_fs ? since : m_epoch_fs;
  }
  // The per-element state and entry time from the shared ones (before a lone change).
  void materialize();
  // Charges the transition energy of `n` elements moving from ON into `state`.
  void charge_from_on(std::uint32_t state, std::uint64_t n);
  // Element-fs in `state` since the last voltage change, up to now_fs.
  wide epoch_residency(std::uint32_t state, std::uint64_t now_fs) const {
    return m_closed[state] + wide(m_count[state]) * now_fs - m_sum_since[state];
  }

  std::string m_name;
  std::vector<power_state> m_states;
  std::vector<power_event> m_events;
  std::uint64_t m_period_fs;
  double m_static_scale;              // V / 1V
  double m_dynamic_scale;             // (V / 1V)^2
  std::uint64_t m_nominal_period_fs;  // the clock the states' clock power is given at
  double m_clock_scale;               // (V / 1V)^2 x f / f0
  double m_clock_before = 0;          // clock energy before this epoch
  bool m_has_clock = false;
  // While every element has only changed with all the others (set_all), they share one
  // state and entry time (m_ustate, m_usince) and the per-element vectors are not kept.
  bool m_uniform = true;
  std::uint8_t m_ustate = 0;
  std::uint64_t m_usince = 0;
  std::vector<std::uint8_t> m_state;         // per element
  std::vector<std::uint64_t> m_since;        // per element: time of its last change (fs)
  std::vector<std::uint64_t> m_count;        // elements per state
  std::vector<wide> m_closed;                // per state: element-fs of finished stays, this epoch
  std::vector<wide> m_sum_since;             // per state: sum of entry times of its elements
  std::vector<double> m_residency_before;    // per state: element-fs before this epoch
  double m_static_before = 0;                // joules before this epoch
  std::uint64_t m_epoch_fs = 0;              // last voltage change
  std::vector<std::uint64_t> m_event_count;  // own counters (unless bound to a block's)
  std::uint64_t* m_counts;                   // the counters in use
  std::vector<std::uint64_t> m_epoch_count;  // event counts at the last voltage change
  double m_dynamic_before = 0;               // joules of the events before it
  double m_transition_joules = 0;            // charged at each transition, at its supply
  std::uint64_t m_transitions = 0;
  gating_policy* m_policy = nullptr;
  std::uint32_t m_policy_slot = 0;
  std::function<void()> m_on_gated;
};

}  // namespace gputlm::pm
