// Residency and energy of a power component against hand-worked sequences: a four-line
// cache bank with Snooze's tri-modal states, a DVFS change mid-run, changes dated back, the
// idle-timeout gating policy, and the transition energy of each move from ON into a lower
// state (break-even cycles x period x the static power it saves).
#include <gtest/gtest.h>

#include "models/base/input_error.h"
#include "models/power/gating_policy.h"
#include "models/power/power_component.h"
#include "models/power/power_model.h"

namespace test_power_component {

using namespace gputlm::pm;

namespace {
constexpr std::uint64_t ns = 1'000'000;  // fs
enum { on, sleep_, off };
enum { ev_read, ev_write };

power_component bank(double volts = 1.0) {
  // Per line: ON 10 mW, Sleep 22.8 % of it, OFF 1.5 % (Snooze's ratios); read 20 pJ, write
  // 25 pJ; break-even 10 cycles (Sleep) and 40 (OFF) of a 1 ns clock. Four lines.
  return power_component("data_array",
                         {{"on", 10e-3, 0, 0}, {"sleep", 2.28e-3, 2, 10}, {"off", 0.15e-3, 2, 40}},
                         {{"read", 20e-12}, {"write", 25e-12}}, operating_point{volts, ns}, 4);
}
// Transition energy per line, by hand: break-even x 1 ns x (P_on - P_state).
constexpr double to_sleep = 10 * 1e-9 * (10e-3 - 2.28e-3);  // 10 x 1 ns x 7.72 mW = 77.2 pJ
constexpr double to_off = 40 * 1e-9 * (10e-3 - 0.15e-3);    // 40 x 1 ns x 9.85 mW = 394 pJ
}  // namespace

TEST(power_component, residency_and_energy_of_a_hand_built_sequence) {
  power_component p = bank();
  p.set_state(0, sleep_, 100 * ns);
  for (int i = 0; i < 5; ++i) p.record(ev_read);
  p.set_state(1, off, 300 * ns);
  p.record(ev_write, 2);
  p.set_state(0, on, 500 * ns);
  const std::uint64_t end = 1000 * ns;
  // Line 0: ON 0-100 and 500-1000 (600 ns), Sleep 100-500 (400 ns).
  // Line 1: ON 0-300 (300 ns), OFF 300-1000 (700 ns). Lines 2, 3: ON 1000 ns each.
  EXPECT_NEAR(p.residency_seconds(on, end), 2900e-9, 1e-18);
  EXPECT_NEAR(p.residency_seconds(sleep_, end), 400e-9, 1e-18);
  EXPECT_NEAR(p.residency_seconds(off, end), 700e-9, 1e-18);
  const double expected_static = 2900e-9 * 10e-3 + 400e-9 * 2.28e-3 + 700e-9 * 0.15e-3;
  EXPECT_NEAR(p.static_joules(end), expected_static, expected_static * 1e-12);
  // Two moves out of ON: line 0 into Sleep at 100, line 1 into OFF at 300 (line 0's return
  // to ON at 500 costs nothing): 77.2 pJ + 394 pJ = 471.2 pJ, on top of the events'
  // 5 x 20 pJ + 2 x 25 pJ = 150 pJ.
  EXPECT_EQ(p.transitions(), 2u);
  EXPECT_NEAR(p.transition_joules(), to_sleep + to_off, 1e-21);
  EXPECT_NEAR(p.transition_joules(), 471.2e-12, 1e-21);
  EXPECT_NEAR(p.event_joules(), 5 * 20e-12 + 2 * 25e-12, 1e-24);
  EXPECT_NEAR(p.dynamic_joules(end), 150e-12 + 471.2e-12, 1e-21);
  EXPECT_EQ(p.event_count(ev_read), 5u);
  EXPECT_EQ(p.in_state(on), 3u);
  EXPECT_EQ(p.in_state(off), 1u);
}

TEST(power_component, a_supply_below_1v_scales_static_by_v_and_dynamic_by_v_squared) {
  // The coefficients are at 1 V: a component starting at 0.5 V leaks 0.5 x and spends
  // 0.25 x per event. Four lines ON for 1000 ns: 4 x 10 mW x 1000 ns x 0.5 = 20 nJ;
  // 10 reads: 10 x 20 pJ x 0.25 = 50 pJ; a move into Sleep saves 0.5 x 7.72 mW, so it
  // costs 10 x 1 ns x 3.86 mW = 38.6 pJ.
  power_component p = bank(0.5);
  p.record(ev_read, 10);
  const std::uint64_t end = 1000 * ns;
  EXPECT_NEAR(p.static_joules(end), 20e-9, 20e-9 * 1e-12);
  EXPECT_NEAR(p.dynamic_joules(end), 50e-12, 1e-24);
  p.set_state(3, sleep_, end);
  EXPECT_NEAR(p.transition_joules(), 38.6e-12, 1e-21);
}

TEST(power_component, dvfs_scales_static_by_v_and_dynamic_by_v_squared) {
  power_component p = bank();
  p.record(ev_read, 10);         // at 1.0 V
  p.set_voltage(0.8, 500 * ns);  // all four lines ON throughout
  p.record(ev_read, 10);         // at 0.8 V
  const std::uint64_t end = 1000 * ns;
  const double expected_static = 4 * 10e-3 * (500e-9 * 1.0 + 500e-9 * 0.8);
  EXPECT_NEAR(p.static_joules(end), expected_static, expected_static * 1e-12);
  EXPECT_NEAR(p.dynamic_joules(end), 10 * 20e-12 * (1.0 + 0.64), 1e-24);
}

TEST(power_component, an_l2_of_32_byte_lines_is_one_component_of_147k_elements) {
  // 4.5 MB of 32 B lines = 147,456 elements (9 B each: state and time of the last change).
  const std::uint32_t lines = 4608 * 1024 / 32;
  power_component l2("l2_lines", {{"on", 1e-6, 0, 0}, {"off", 1e-8, 2, 40}}, {},
                     operating_point{1.0, ns}, lines);
  for (std::uint32_t i = 0; i < lines; i += 2) l2.set_state(i, 1, 10 * ns);
  EXPECT_EQ(l2.in_state(1), lines / 2);
  EXPECT_NEAR(l2.residency_seconds(0, 20 * ns), double(lines) * 10e-9 + double(lines / 2) * 10e-9,
              1e-15);
}

TEST(power_component, a_change_dated_back_counts_from_its_own_time) {
  // A policy notices at 900 ns that line 2 went to sleep at 400 ns: residency follows the
  // dated change, not the time it was noticed; a change dated before the line's previous
  // change is taken at that change.
  power_component p = bank();
  p.set_state(1, off, 300 * ns);
  p.set_state(2, sleep_, 400 * ns);  // noticed later, recorded in any order
  p.set_state(1, on, 200 * ns);      // before line 1's last change (300): taken at 300
  const std::uint64_t end = 1000 * ns;
  // Line 0, 3: ON 1000 each; line 1: ON 300 + 700 (OFF for 0 ns); line 2: ON 400, Sleep 600.
  EXPECT_NEAR(p.residency_seconds(on, end), 3400e-9, 1e-18);
  EXPECT_NEAR(p.residency_seconds(sleep_, end), 600e-9, 1e-18);
  EXPECT_NEAR(p.residency_seconds(off, end), 0.0, 1e-18);
  EXPECT_EQ(p.changed_at(1), 300 * ns);
  // Line 1 into OFF and line 2 into Sleep, each charged once: 394 pJ + 77.2 pJ.
  EXPECT_NEAR(p.transition_joules(), to_off + to_sleep, 1e-21);
}

namespace {
// A policy made from `spec` with its own configuration (as the power model keeps one).
struct made_policy {
  gputlm::block_config config{"power.policy", "gating policy", {}};
  gputlm::param_owner owner{config};
  std::unique_ptr<gating_policy> policy;
  explicit made_policy(const policy_spec& spec) : policy(make_policy(spec, owner)) {}
  gating_policy* operator->() const { return policy.get(); }
};
}  // namespace

TEST(idle_timeout, lines_sleep_after_the_timeout_and_wake_with_the_states_latency) {
  // Policy: after 100 cycles (1 ns each) without an access a line goes to sleep; an access
  // to a sleeping line waits the sleep state's wake-up (2 cycles).
  policy_spec spec;
  spec.type = "idle_timeout";
  spec.values["after"].text = "100cycles";
  spec.values["state"].text = "sleep";
  made_policy policy(spec);
  power_component p = bank();
  policy->attach(p, "l1_cache.data", ns);
  EXPECT_EQ(p.access(0, 50 * ns), 0u);   // line 0 used at 50: ON (idle 50 < 100)
  EXPECT_EQ(p.access(0, 400 * ns), 2u);  // slept at 150, woken at 400: waits 2 cycles
  EXPECT_EQ(p.access(1, 90 * ns), 0u);
  policy->settle(p, 1000 * ns);
  // Line 0: ON [0,150) + [400,500), Sleep [150,400) + [500,1000).
  // Line 1: ON [0,190), Sleep [190,1000). Lines 2, 3 (never used): ON [0,100), Sleep after.
  const std::uint64_t end = 1000 * ns;
  EXPECT_NEAR(p.residency_seconds(on, end), (250 + 190 + 100 + 100) * 1e-9, 1e-18);
  EXPECT_NEAR(p.residency_seconds(sleep_, end), (750 + 810 + 900 + 900) * 1e-9, 1e-18);
  EXPECT_EQ(p.in_state(sleep_), 4u);
  const double expected = 640e-9 * 10e-3 + 3360e-9 * 2.28e-3;
  EXPECT_NEAR(p.static_joules(end), expected, expected * 1e-12);
  // Five moves into Sleep (line 0 at 150 and 500, line 1 at 190, lines 2 and 3 at 100), each
  // 10 cycles x 1 ns x (10 - 2.28) mW = 77.2 pJ: 386 pJ, the whole dynamic energy (the
  // policy test records no events).
  EXPECT_EQ(p.transitions(), 5u);
  EXPECT_NEAR(p.transition_joules(), 5 * 77.2e-12, 1e-21);
  EXPECT_NEAR(p.dynamic_joules(end), 386e-12, 1e-21);
}

TEST(idle_timeout, applies_only_to_the_components_it_names_and_rejects_bad_parameters) {
  policy_spec spec;
  spec.type = "idle_timeout";
  spec.values["after"].text = "10";
  spec.values["state"].text = "sleep";
  spec.values["components"].is_sequence = true;
  spec.values["components"].items = {"l2_cache.*"};
  made_policy policy(spec);
  power_component p = bank();
  policy->attach(p, "l1_cache.data", ns);
  EXPECT_EQ(p.access(0, 500 * ns), 0u);  // not managed: always ON
  EXPECT_EQ(p.in_state(on), 4u);

  policy_spec bad = spec;
  bad.values["afte"].text = "10";
  EXPECT_THROW(made_policy{bad}, gputlm::input_error);
  policy_spec none;
  none.type = "snooze_typo";
  EXPECT_THROW(made_policy{none}, gputlm::input_error);
}

TEST(power_model, the_on_state_takes_no_wake_up_or_break_even_time) {
  // Nothing wakes into ON or moves into it from ON: such a time would do nothing.
  auto spec = [](std::uint64_t wake, std::uint64_t break_even) {
    power_spec s;
    s.present = true;
    component_spec c;
    c.block_type = "l1_cache";
    c.component = "data";
    c.states = {{"on", 0.1, wake, break_even, {}}, {"sleep", 0.02, 2, 10, {}}};
    s.components.push_back(c);
    return s;
  };
  EXPECT_NO_THROW(power_model(spec(0, 0)));
  EXPECT_THROW(power_model(spec(2, 0)), gputlm::input_error);
  EXPECT_THROW(power_model(spec(0, 10)), gputlm::input_error);
}

TEST(power_component, set_all_equals_every_element_moved_one_by_one) {
  // A bank switched as one (Snooze's bank granularity), with a voltage change between
  // moves, then one line alone: against the same moves made element by element.
  power_component whole = bank(), lines = bank();
  whole.start_in(off);
  lines.start_in(off);
  auto both = [&](std::uint32_t s, std::uint64_t at) {
    whole.set_all(s, at);
    for (std::uint32_t e = 0; e < 4; ++e) lines.set_state(e, s, at);
  };
  both(on, 10 * ns);
  both(sleep_, 50 * ns);
  whole.set_voltage(0.8, 200 * ns);
  lines.set_voltage(0.8, 200 * ns);
  both(on, 300 * ns);
  both(sleep_, 250 * ns);  // dated before the previous change: taken at it (300 ns)
  whole.set_state(2, on, 700 * ns);
  lines.set_state(2, on, 700 * ns);
  both(off, 900 * ns);
  const std::uint64_t end = 1000 * ns;
  for (std::uint32_t s : {on, sleep_, off}) {
    EXPECT_DOUBLE_EQ(whole.residency_seconds(s, end), lines.residency_seconds(s, end)) << s;
    EXPECT_EQ(whole.in_state(s), lines.in_state(s)) << s;
  }
  EXPECT_DOUBLE_EQ(whole.static_joules(end), lines.static_joules(end));
  EXPECT_DOUBLE_EQ(whole.transition_joules(), lines.transition_joules());
  EXPECT_EQ(whole.transitions(), lines.transitions());
  // By hand: ON 10-50 and 300-300 for all four, line 2 also 700-900: 4 x 40 + 200 = 360 ns.
  EXPECT_NEAR(whole.residency_seconds(on, end), 360e-9, 1e-21);
  // Moves from ON: 4 to Sleep at 50, 4 to Sleep at 300 (0.8 V), line 2 to OFF at 900.
  EXPECT_NEAR(whole.transition_joules(), 4 * to_sleep + 4 * to_sleep * 0.8 + to_off * 0.8, 1e-21);
  for (std::uint32_t e = 0; e < 4; ++e) EXPECT_EQ(whole.state_of(e), std::uint32_t(off));
}

// Clock power (dynamic power while in a state): a component of two elements given ON at
// 0.8 W static + 0.2 W clock and a clock-gated state at 0.8 W static + 0 W clock (whole
// component), at 1 V and 700 MHz (a 1,428,571 fs period). Element 1 is clock-gated from
// cycle 2048 to cycle 8192: 6144 cycles = 8.777 us, so the clock energy falls by
// 0.1 W x 8.777 us = 0.878 uJ and the static energy does not move. Then at cycle 10000 the
// point drops to 0.55 V / 100 MHz: for the next 100 ns both elements' 0.2 W of clock power
// scales by 0.55^2 x 100/700 = 0.0432.
TEST(power_component, clock_power_is_charged_per_state_and_scales_with_v_squared_and_f) {
  constexpr std::uint64_t period = 1428571;  // fs, 700 MHz
  power_component p("core", {{"on", 0.4, 0, 0, 0.8, 0.1, 0.2}, {"cg", 0.4, 1, 0, 0.8, 0.0, 0.0}},
                    {}, operating_point{1.0, period}, 2);
  EXPECT_TRUE(p.has_clock_power());
  p.set_state(1, 1, 2048 * period);
  p.set_state(1, 0, 8192 * period);
  const std::uint64_t t1 = 10000 * period;
  const double gated_s = 6144 * period * 1e-15;
  EXPECT_NEAR(gated_s, 8.777e-6, 1e-9);
  const double full = 0.2 * (t1 * 1e-15);  // both elements' clock power throughout
  EXPECT_NEAR(p.clock_joules(t1), full - 0.1 * gated_s, 1e-15);
  EXPECT_NEAR(full - p.clock_joules(t1), 0.878e-6, 1e-9);
  EXPECT_NEAR(p.static_joules(t1), 0.8 * (t1 * 1e-15), 1e-15);
  EXPECT_NEAR(p.dynamic_joules(t1), p.clock_joules(t1), 1e-21);  // no events, no transitions
  p.set_operating_point({0.55, 10'000'000}, t1);                 // 100 MHz
  const std::uint64_t t2 = t1 + 100 * ns;
  const double scale = 0.55 * 0.55 * double(period) / 1e7;
  EXPECT_NEAR(scale, 0.0432, 1e-4);
  EXPECT_NEAR(p.clock_joules(t2) - p.clock_joules(t1), 0.2 * 100e-9 * scale, 1e-18);
  // A component whose states draw no clock power reports none.
  EXPECT_FALSE(bank().has_clock_power());
  EXPECT_EQ(bank().clock_joules(1000 * ns), 0.0);
}

}  // namespace test_power_component
