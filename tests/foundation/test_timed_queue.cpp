// models/common/timed_queue.h against the plain reference it replaces: a min-heap on
// (cycle, push sequence). Random pushes near and far (beyond the wheel's window), takes at
// increasing times with small steps and long jumps, pushes made between takes of one time
// (due at once); every taken item and every next() must match the reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <tuple>
#include <vector>

#include "models/common/timed_queue.h"

namespace test_timed_queue {

using gputlm::timed_queue;

namespace {
struct lcg {  // Knuth's MMIX LCG, high bits
  std::uint64_t x;
  std::uint64_t operator()() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  }
};
using ref_item = std::tuple<std::uint64_t, std::uint64_t, int>;  // cycle, sequence, value
using reference = std::priority_queue<ref_item, std::vector<ref_item>, std::greater<ref_item>>;
}  // namespace

TEST(timed_queue, matches_a_heap_on_cycle_then_push_order) {
  for (std::uint64_t seed : {1u, 7u, 42u}) {
    lcg rnd{seed};
    timed_queue<int> q;
    reference ref;
    std::uint64_t now = 0, seq = 0;
    int value = 0;
    for (int step = 0; step < 20000; ++step) {
      // Pushes: mostly near (within the window), some far, some due now; several per cycle.
      for (std::uint64_t n = rnd() % 4; n-- > 0;) {
        const std::uint64_t r = rnd() % 10;
        const std::uint64_t w = timed_queue<int>::window;
        const std::uint64_t at = r == 0   ? now
                                 : r < 7 ? now + rnd() % 40
                                 : r < 9 ? now + w - 4 + rnd() % 8  // around the wheel's edge
                                         : now + w + rnd() % 700;
        q.push(at, value);
        ref.emplace(at, seq++, value);
        ++value;
      }
      ASSERT_EQ(q.size(), ref.size());
      ASSERT_EQ(q.next(), ref.empty() ? timed_queue<int>::never : std::get<0>(ref.top()));
      // Takes everything due by now, in order.
      int got = 0;
      while (q.take_due(now, got)) {
        ASSERT_FALSE(ref.empty());
        ASSERT_LE(std::get<0>(ref.top()), now);
        ASSERT_EQ(got, std::get<2>(ref.top())) << "seed " << seed << " step " << step;
        ref.pop();
      }
      ASSERT_TRUE(ref.empty() || std::get<0>(ref.top()) > now) << "seed " << seed << " step " << step;
      // Time moves: usually one cycle, sometimes a long idle jump past the window.
      now += rnd() % 50 == 0 ? 300 + rnd() % 2000 : 1 + rnd() % 3;
    }
    // Drain.
    for (int got = 0; !ref.empty(); ref.pop()) {
      now = std::max(now, std::get<0>(ref.top()));
      ASSERT_TRUE(q.take_due(now, got));
      ASSERT_EQ(got, std::get<2>(ref.top()));
    }
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.next(), timed_queue<int>::never);
  }
}

TEST(timed_queue, items_of_one_cycle_keep_push_order_across_the_far_heap) {
  // Cycle 1000 is beyond the window at first: its first two items wait in the heap; once
  // time reaches 900 the third is pushed straight into the wheel; the heap's come first.
  timed_queue<int> q;
  q.push(1000, 1);
  q.push(1000, 2);
  int got = 0;
  EXPECT_FALSE(q.take_due(900, got));  // moves the base to 900: the heap's items come in
  q.push(1000, 3);
  q.push(999, 4);
  EXPECT_EQ(q.next(), 999u);
  std::vector<int> order;
  while (q.take_due(1000, got)) order.push_back(got);
  EXPECT_EQ(order, (std::vector<int>{4, 1, 2, 3}));
}

}  // namespace test_timed_queue
