// Residency and energy of a power component against hand-worked sequences: a four-line
// cache bank with Snooze's tri-modal states, a DVFS change mid-run, changes dated back, and
// the idle-timeout gating policy.
#include <gtest/gtest.h>

#include "models/common/input_error.h"
#include "models/power/gating_policy.h"
#include "models/power/power_component.h"

using namespace gputlm::pm;

namespace {
constexpr std::uint64_t ns = 1'000'000;  // fs
enum { on, sleep_, off };
enum { ev_read, ev_write };

power_component bank() {
  // Per line: ON 10 mW, Sleep 22.8 % of it, OFF 1.5 % (Snooze's ratios); read 20 pJ, write 25 pJ.
  return power_component("data_array",
                         {{"on", 10e-3, 0, 0}, {"sleep", 2.28e-3, 2, 10}, {"off", 0.15e-3, 2, 40}},
                         {{"read", 20e-12}, {"write", 25e-12}}, 1.0, 4);
}
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
  EXPECT_NEAR(p.dynamic_joules(), 5 * 20e-12 + 2 * 25e-12, 1e-24);
  EXPECT_EQ(p.event_count(ev_read), 5u);
  EXPECT_EQ(p.in_state(on), 3u);
  EXPECT_EQ(p.in_state(off), 1u);
}

TEST(power_component, dvfs_scales_static_by_v_and_dynamic_by_v_squared) {
  power_component p = bank();
  p.record(ev_read, 10);                  // at 1.0 V
  p.set_voltage(0.8, 500 * ns);        // all four lines ON throughout
  p.record(ev_read, 10);                  // at 0.8 V
  const std::uint64_t end = 1000 * ns;
  const double expected_static = 4 * 10e-3 * (500e-9 * 1.0 + 500e-9 * 0.8);
  EXPECT_NEAR(p.static_joules(end), expected_static, expected_static * 1e-12);
  EXPECT_NEAR(p.dynamic_joules(), 10 * 20e-12 * (1.0 + 0.64), 1e-24);
}

TEST(power_component, an_l2_of_32_byte_lines_is_one_component_of_147k_elements) {
  // 4.5 MB of 32 B lines = 147,456 elements (9 B each: state and time of the last change).
  const std::uint32_t lines = 4608 * 1024 / 32;
  power_component l2("l2_lines", {{"on", 1e-6, 0, 0}, {"off", 1e-8, 2, 40}}, {}, 1.0, lines);
  for (std::uint32_t i = 0; i < lines; i += 2)
    l2.set_state(i, 1, 10 * ns);
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
}

TEST(idle_timeout, lines_sleep_after_the_timeout_and_wake_with_the_states_latency) {
  // Policy: after 100 cycles (1 ns each) without an access a line goes to sleep; an access
  // to a sleeping line waits the sleep state's wake-up (2 cycles).
  policy_spec spec;
  spec.type = "idle_timeout";
  spec.values["after"].text = "100cycles";
  spec.values["state"].text = "sleep";
  auto policy = make_policy(spec);
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
}

TEST(idle_timeout, applies_only_to_the_components_it_names_and_rejects_bad_parameters) {
  policy_spec spec;
  spec.type = "idle_timeout";
  spec.values["after"].text = "10";
  spec.values["state"].text = "sleep";
  spec.values["components"].is_sequence = true;
  spec.values["components"].items = {"l2_cache.*"};
  auto policy = make_policy(spec);
  power_component p = bank();
  policy->attach(p, "l1_cache.data", ns);
  EXPECT_EQ(p.access(0, 500 * ns), 0u);  // not managed: always ON
  EXPECT_EQ(p.in_state(on), 4u);

  policy_spec bad = spec;
  bad.values["afte"].text = "10";
  EXPECT_THROW(make_policy(bad), gputlm::input_error);
  policy_spec none;
  none.type = "snooze_typo";
  EXPECT_THROW(make_policy(none), gputlm::input_error);
}
