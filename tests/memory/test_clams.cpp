// CLAMS (models/memory/clams_chooser.h, models/core/clams_ranker.h): the core rank's
// encoding worked by hand; the chooser's criticality-first and FR-FCFS orders on hand-made
// queues of one bank, with the command times of the default timing (tRP = tRCD = CL = 12,
// two-cycle bursts); Dynamic CLAMS's switch fraction over two windows.
#include <gtest/gtest.h>

#include <vector>

#include "models/common/strategy.h"
#include "models/core/clams_ranker.h"
#include "models/memory/clams_chooser.h"
#include "models/memory/dram_engine.h"

namespace test_clams {

using namespace gputlm;
using namespace gputlm::memory;

TEST(clams_rank, ready_over_live_warps_quantised_down_by_hand) {
  using core::clams_ranker;
  // 8 live, 6 waiting: 2/8 = 0.25, level 2 of 8 -> 1 + 2 x 16.
  EXPECT_EQ(clams_ranker::encode({8, 6}, 3), 33);
  EXPECT_DOUBLE_EQ(clams_ranker::rank_of(33), 0.25);
  // 3 live, 1 waiting: 2/3 -> level floor(16/3) = 5 -> 81, rank 0.625.
  EXPECT_EQ(clams_ranker::encode({3, 1}, 3), 81);
  EXPECT_DOUBLE_EQ(clams_ranker::rank_of(81), 0.625);
  // Every warp ready: the top level, 7/8 with 3 bits, 1/2 with one bit.
  EXPECT_EQ(clams_ranker::encode({5, 0}, 3), 113);
  EXPECT_EQ(clams_ranker::encode({5, 0}, 1), 65);
  EXPECT_EQ(clams_ranker::encode({0, 0}, 3), 113);
  // Every warp waiting: rank 0, the byte 1 (0 means no rank).
  EXPECT_EQ(clams_ranker::encode({4, 4}, 3), 1);
  // 7 bits: 3/4 -> 96/128 exactly.
  EXPECT_EQ(clams_ranker::encode({4, 1}, 7), 97);
  EXPECT_DOUBLE_EQ(clams_ranker::rank_of(0), 1.0);
}

namespace {

struct channel : dram_engine {
  channel(const char* chooser, std::map<std::string, std::string> p = {})
      : dram_engine(dram_timing{}, 16), m_chooser(chooser, p) {}
  clams_chooser& clams() { return dynamic_cast<clams_chooser&>(*m_chooser); }
  void push_from(int* tag, std::uint32_t bank, std::uint32_t row, std::uint8_t priority,
                 std::uint64_t at) {
    dram_engine::request r{tag, bank, row, false, 1, at};
    r.from.smx = 0;
    r.from.priority = priority;
    push(r);
  }
  // Steps from `now` until the queue is empty: the completions in order.
  std::vector<completion> drain(std::uint64_t now) {
    std::vector<completion> all, done;
    for (int guard = 0; guard < 10000 && !empty(); ++guard) {
      const std::uint64_t next = step(now, done, *m_chooser);
      all.insert(all.end(), done.begin(), done.end());
      done.clear();
      now = next;
    }
    return all;
  }
  standalone_strategy<dram_chooser> m_chooser;
};

constexpr std::uint8_t rank_0 = 1, rank_7_8 = 113;  // critical; not critical

}  // namespace

TEST(clams_chooser, a_lone_critical_row_miss_goes_before_older_row_hits) {
  channel c("clams");
  int open = 0, hit1 = 1, hit2 = 2, crit = 3;
  c.push_from(&open, 0, 1, rank_7_8, 0);
  c.drain(0);  // row 1 of bank 0 open
  c.push_from(&hit1, 0, 1, rank_7_8, 100);
  c.push_from(&hit2, 0, 1, rank_7_8, 100);
  c.push_from(&crit, 0, 2, rank_0, 100);  // 1 critical of 3: below one half
  const auto done = c.drain(100);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[0].tag, &crit);
  // PRE at 100, ACT at 100 + tRP, RD at + tRCD, its data CL + 2 later.
  EXPECT_EQ(done[0].done, 100u + 12 + 12 + 12 + 2);
  EXPECT_FALSE(done[0].row_hit);
  EXPECT_EQ(done[1].tag, &hit1);
  EXPECT_EQ(done[2].tag, &hit2);
  EXPECT_EQ(c.clams().critical_served(), 1u);
  EXPECT_GT(c.clams().critical_first_commands(), 0u);
}

TEST(clams_chooser, fr_fcfs_order_when_critical_requests_reach_the_switch_fraction) {
  // Two of four critical: not below one half, so FR-FCFS serves the row hits first; with a
  // switch fraction of 3/4 the same queue is criticality-first.
  for (const char* fraction : {"0.5", "0.75"}) {
    channel c("clams", {{"switch_fraction", fraction}});
    int open = 0, hit1 = 1, hit2 = 2, crit = 3, crit_other_bank = 4;
    c.push_from(&open, 0, 1, rank_7_8, 0);
    c.drain(0);
    c.push_from(&hit1, 0, 1, rank_7_8, 100);
    c.push_from(&hit2, 0, 1, rank_7_8, 100);
    c.push_from(&crit, 0, 2, rank_0, 100);
    c.push_from(&crit_other_bank, 1, 7, rank_0, 100);
    const auto done = c.drain(100);
    ASSERT_EQ(done.size(), 4u);
    std::vector<void*> bank0;
    for (const auto& d : done)
      if (d.tag != &crit_other_bank) bank0.push_back(d.tag);
    if (std::string(fraction) == "0.5") {
      EXPECT_EQ(bank0, (std::vector<void*>{&hit1, &hit2, &crit})) << fraction;
      EXPECT_TRUE(done[0].row_hit);
      EXPECT_EQ(c.clams().critical_first_commands(), 0u);
    } else {
      EXPECT_EQ(bank0, (std::vector<void*>{&crit, &hit1, &hit2})) << fraction;
      EXPECT_GT(c.clams().critical_first_commands(), 0u);
    }
  }
}

TEST(clams_chooser, fr_fcfs_without_critical_requests_matches_the_fr_fcfs_chooser) {
  // Same requests, no critical one: the same completions as FR-FCFS itself.
  auto run = [](const char* name) {
    channel c(name);
    static int tags[24];
    for (int i = 0; i < 24; ++i)
      c.push_from(&tags[i], std::uint32_t(i * 7 % 5), std::uint32_t(i * 3 % 4), rank_7_8,
                  std::uint64_t(i / 8) * 10);
    std::vector<std::pair<void*, std::uint64_t>> out;
    for (const auto& d : c.drain(0)) out.push_back({d.tag, d.done});
    return out;
  };
  EXPECT_EQ(run("clams"), run("fr_fcfs"));
}

TEST(clams_chooser, dynamic_clams_climbs_and_turns_by_served_requests) {
  channel c("clams_dynamic", {{"window", "100"}, {"step", "0.1"}});
  int a = 0, b = 1;
  c.push_from(&a, 0, 1, rank_0, 0);
  c.drain(0);  // served in the first window [0, 100)
  EXPECT_DOUBLE_EQ(c.clams().switch_fraction(), 0.5);
  c.push_from(&b, 0, 1, rank_0, 250);
  c.drain(250);
  // Window 1 served one: up to 0.6. Window 2 served none (fewer): turn, back to 0.5.
  EXPECT_NEAR(c.clams().switch_fraction(), 0.5, 1e-12);
}

}  // namespace test_clams
