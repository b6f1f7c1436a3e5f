// Residency and energy of a power component against hand-worked sequences: a four-line
// cache bank with Snooze's tri-modal states, and a DVFS change mid-run.
#include <gtest/gtest.h>

#include "models/power/power_component.h"

using namespace gputlm::power;

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

TEST(power_component, one_byte_per_element_for_an_l2_of_32_byte_lines) {
  // 4.5 MB of 32 B lines = 147,456 elements; setting every line's state stays cheap.
  const std::uint32_t lines = 4608 * 1024 / 32;
  power_component l2("l2_lines", {{"on", 1e-6, 0, 0}, {"off", 1e-8, 2, 40}}, {}, 1.0, lines);
  for (std::uint32_t i = 0; i < lines; i += 2)
    l2.set_state(i, 1, 10 * ns);
  EXPECT_EQ(l2.in_state(1), lines / 2);
  EXPECT_NEAR(l2.residency_seconds(0, 20 * ns), double(lines) * 10e-9 + double(lines / 2) * 10e-9,
              1e-15);
}
