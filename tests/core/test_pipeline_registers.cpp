// The pipeline registers' slot counters (models/core/pipeline_registers.h), by hand: a
// register of width 2 passes two instructions of its type a cycle, the third waits for the
// next cycle; tuned down (μC-States, half the slots) one; width 0 never holds one back; the
// types are counted apart; a booking far ahead of earlier ones does not disturb them.
#include <gtest/gtest.h>

#include "models/core/pipeline_registers.h"

namespace test_pipeline_registers {

using gputlm::core::pipeline_registers;

TEST(pipeline_registers, a_width_of_two_passes_two_a_cycle_and_the_third_waits) {
  pipeline_registers r;
  const std::uint32_t w[3] = {2, 1, 0};
  r.configure(w);
  EXPECT_TRUE(r.bounded());
  EXPECT_EQ(r.take(0, 5), 5u);
  EXPECT_TRUE(r.free(0, 5));
  EXPECT_EQ(r.take(0, 5), 5u);
  EXPECT_FALSE(r.free(0, 5));
  EXPECT_EQ(r.take(0, 5), 6u);  // the next cycle
  EXPECT_EQ(r.take(0, 5), 6u);
  EXPECT_EQ(r.take(0, 5), 7u);
  // The SFU type (width 1) is counted apart; MEM (0) is unbounded.
  EXPECT_EQ(r.take(1, 5), 5u);
  EXPECT_EQ(r.take(1, 5), 6u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(r.take(2, 5), 5u);
  EXPECT_TRUE(r.free(2, 5));
}

TEST(pipeline_registers, tuned_down_a_register_keeps_half_its_slots) {
  pipeline_registers r;
  const std::uint32_t w[3] = {4, 1, 0};
  r.configure(w);
  r.tune(0, true);
  r.tune(1, true);  // (width 1: one slot stays)
  EXPECT_TRUE(r.tuned_down(0));
  EXPECT_FALSE(r.tuned_down(1));
  EXPECT_EQ(r.take(0, 10), 10u);
  EXPECT_EQ(r.take(0, 10), 10u);
  EXPECT_EQ(r.take(0, 10), 11u);
  EXPECT_EQ(r.take(1, 10), 10u);
  EXPECT_EQ(r.take(1, 10), 11u);
  r.tune(0, false);
  EXPECT_EQ(r.take(0, 11), 11u);  // four slots again: 11 has three used now
  EXPECT_EQ(r.take(0, 11), 11u);
  EXPECT_EQ(r.take(0, 11), 11u);
  EXPECT_EQ(r.take(0, 11), 12u);
}

TEST(pipeline_registers, bookings_ahead_and_unbounded_registers) {
  pipeline_registers r;
  const std::uint32_t none[3] = {0, 0, 0};
  r.configure(none);
  EXPECT_FALSE(r.bounded());
  EXPECT_EQ(r.take(0, 3), 3u);
  const std::uint32_t one[3] = {1, 1, 1};
  r.configure(one);
  EXPECT_EQ(r.take(0, 100), 100u);
  EXPECT_EQ(r.take(0, 140), 140u);  // ahead, within the horizon
  EXPECT_FALSE(r.free(0, 100));
  EXPECT_FALSE(r.free(0, 140));
  EXPECT_TRUE(r.free(0, 101));
  EXPECT_EQ(r.take(0, 100), 101u);
}

}  // namespace test_pipeline_registers
