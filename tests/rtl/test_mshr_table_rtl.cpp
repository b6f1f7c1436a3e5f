// The L1 MSHR table in RTL (rtl/mshr_table/mshr_table.sv, Verilated) through its transactor
// (models/rtl/mshr_table_rtl.h), in the SystemC testbench of tests/rtl/rtl_testbench.h (one
// operation or group of operations per clock cycle), against the C++ mshr_table, the
// reference: hand-worked cases (a full table, merges of one line, fills counted down, a
// release's slots in arrival order, the last freed entry reused first), the pins'
// back-pressure while a release is streamed, and a long random sequence of operations
// compared result by result.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "Vmshr_table.h"
#include "models/memory/mshr_table.h"
#include "models/rtl/mshr_table_rtl.h"
#include "tests/rtl/rtl_testbench.h"
#include "verilated.h"

namespace test_mshr_table_rtl {

using gputlm::memory::mshr_table;
using gputlm::rtl::mshr_table_rtl;
using testbench = gputlm::testing::rtl_testbench;
using gputlm::testing::run_testbench;

namespace {
int token[64];  // requesters: addresses of these
void* req(int i) { return &token[i]; }
}  // namespace

TEST(mshr_table_rtl, full_table_merges_fills_and_release_order) {
  run_testbench([](testbench& tb) {
    mshr_table_rtl t(4, 3);
    tb.cycle();
    EXPECT_EQ(t.capacity(), 4u);
    EXPECT_FALSE(t.full());
    // Four primary misses fill the table: entries 0, 1, 2, 3 in order.
    for (int i = 0; i < 4; ++i) EXPECT_EQ(t.allocate(0x1000 + 128 * i, 0x1, req(i)), i);
    EXPECT_TRUE(t.full());
    EXPECT_EQ(t.used(), 4u);
    EXPECT_EQ(t.find(0x1080), 1);
    EXPECT_EQ(t.find(0x9999), -1);
    tb.cycle();
    // Two secondary misses on line 0x1080, the second asking for sectors 2 and 3 too.
    EXPECT_TRUE(t.can_merge(1));
    t.merge(1, req(10), 0x1, 0x0);
    t.merge(1, req(11), 0xc, 0xc);
    EXPECT_FALSE(t.can_merge(1));  // 3 slots, the merge limit
    EXPECT_EQ(t.slot_count(1), 3u);
    EXPECT_EQ(t.slots_used(), 6u);
    const mshr_table_rtl::entry e = t.at(1);
    EXPECT_EQ(e.line, 0x1080u);
    EXPECT_EQ(e.pending_sectors, 0xd);
    EXPECT_EQ(e.outstanding_fills, 2u);
    tb.cycle();
    // The first fill is not the last; the second is.
    EXPECT_FALSE(t.fill_arrived(1));
    EXPECT_TRUE(t.fill_arrived(1));
    std::vector<mshr_table::slot> out;
    t.release(1, out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].requester, req(1));
    EXPECT_EQ(out[0].sectors, 0x1);
    EXPECT_EQ(out[1].requester, req(10));
    EXPECT_EQ(out[2].requester, req(11));
    EXPECT_EQ(out[2].sectors, 0xc);
    EXPECT_FALSE(t.full());
    EXPECT_EQ(t.used(), 3u);
    EXPECT_EQ(t.slots_used(), 3u);
    EXPECT_EQ(t.find(0x1080), -1);
    // The freed entry is the next one allocated (as the C++ table's free list).
    EXPECT_EQ(t.allocate(0x5000, 0xf, req(20), 7), 1);
    EXPECT_EQ(t.at(1).frame, 7);
    EXPECT_EQ(t.order(), (std::vector<int>{0, 2, 3, 1}));
  });
}

TEST(mshr_table_rtl, a_table_larger_than_the_rtl_is_refused) {
  EXPECT_THROW(mshr_table_rtl(mshr_table_rtl::rtl_entries + 1, 8), std::invalid_argument);
  EXPECT_THROW(mshr_table_rtl(8, mshr_table_rtl::rtl_merge + 1), std::invalid_argument);
  EXPECT_THROW(mshr_table_rtl(0, 8), std::invalid_argument);
}

// At the pins: while a release streams its slots, the request channel is not ready, and a
// response not taken (rsp_ready low) stays on the channel unchanged.
TEST(mshr_table_rtl, pins_hold_back_requests_and_responses) {
  VerilatedContext ctx;
  Vmshr_table m(&ctx, "m");
  auto edge = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  };
  m.cfg_entries = 8;
  m.rst_n = 0;
  m.clk = 0;
  m.req_valid = 0;
  m.rsp_ready = 0;
  m.eval();
  m.rst_n = 1;
  m.eval();
  // ALLOCATE line 0x40 with handle 5, then MERGE handle 6 into it; take both responses.
  auto send = [&](unsigned op, unsigned idx, unsigned handle) {
    m.req_op = op;
    m.req_line = 0x40;
    m.req_idx = static_cast<std::uint16_t>(idx);
    m.req_sectors = 1;
    m.req_extra = 0;
    m.req_handle = handle;
    m.req_frame = 0;
    m.req_valid = 1;
    m.eval();
    ASSERT_TRUE(m.req_ready);
    edge();
    m.req_valid = 0;
    m.eval();
  };
  send(1, 0, 5);
  ASSERT_TRUE(m.rsp_valid);
  EXPECT_EQ(m.rsp_idx, 0);
  EXPECT_FALSE(m.req_ready);  // one request at a time: the response is still held
  m.rsp_ready = 1;
  edge();
  m.rsp_ready = 0;
  m.eval();
  send(2, 0, 6);
  m.rsp_ready = 1;
  edge();
  m.rsp_ready = 0;
  // RELEASE entry 0: two slots follow, handles 5 then 6.
  send(4, 0, 0);
  EXPECT_FALSE(m.rsp_valid);
  edge();
  ASSERT_TRUE(m.rsp_valid);
  EXPECT_EQ(m.rsp_handle, 5u);
  EXPECT_FALSE(m.rsp_last);
  for (int k = 0; k < 5; ++k) {  // not taken: held, and no new request accepted
    edge();
    EXPECT_TRUE(m.rsp_valid);
    EXPECT_EQ(m.rsp_handle, 5u);
    EXPECT_FALSE(m.req_ready);
  }
  m.rsp_ready = 1;
  edge();
  EXPECT_TRUE(m.rsp_valid);
  EXPECT_EQ(m.rsp_handle, 6u);
  EXPECT_TRUE(m.rsp_last);
  edge();
  EXPECT_FALSE(m.rsp_valid);
  EXPECT_TRUE(m.req_ready);
  EXPECT_EQ(m.used, 0);
  m.final();
}

// Random operations on both tables, as a cache issues them: a miss finds its line and
// merges (when the entry has room) or allocates (when the table has room); fills arrive
// for outstanding entries and the last one releases the entry. Every result, occupancy and
// entry field must agree; returns the step of the first disagreement (-1: none).
template <class Rtl>
int compare_random_operations(testbench& tb, std::size_t* released_out = nullptr,
                              std::size_t* edges = nullptr) {
  const std::size_t entries = 16, merge = 4;
  mshr_table ref(entries, merge);
  Rtl rtl(entries, merge);
  std::mt19937 rng(12345);
  std::vector<mshr_table::slot> a, b;
  std::size_t ops = 0, released = 0;
  for (int step = 0; step < 6000; ++step) {
    const bool fill = rng() % 3 == 0 && ref.used() > 0;
    if (fill) {
      const std::vector<int> live = ref.order();
      if (!(live == rtl.order())) return step;
      const int idx = live[rng() % live.size()];
      const bool last_ref = ref.fill_arrived(idx), last_rtl = rtl.fill_arrived(idx);
      if (!(last_ref == last_rtl)) return step;
      if (last_ref) {
        a.clear();
        b.clear();
        ref.release(idx, a);
        rtl.release(idx, b);
        if (!(a.size() == b.size())) return step;
        for (std::size_t k = 0; k < a.size(); ++k) {
          if (!(a[k].requester == b[k].requester)) return step;
          if (!(a[k].sectors == b[k].sectors)) return step;
        }
        ++released;
      }
    } else {
      const std::uint64_t line = 128 * (rng() % 40);
      const std::uint8_t sectors = std::uint8_t(1u << (rng() % 4));
      void* who = req(int(rng() % 64));
      const int found = ref.find(line);
      if (!(found == rtl.find(line))) return step;
      if (found >= 0) {
        if (!(ref.can_merge(found) == rtl.can_merge(found))) return step;
        if (ref.can_merge(found)) {
          const std::uint8_t extra = std::uint8_t(sectors & ~ref.at(found).pending_sectors);
          ref.merge(found, who, sectors, extra);
          rtl.merge(found, who, sectors, extra);
        }
      } else {
        if (!(ref.full() == rtl.full())) return step;
        if (!ref.full()) {
          const int frame = int(rng() % 100) - 1;
          if (ref.allocate(line, sectors, who, frame) != rtl.allocate(line, sectors, who, frame))
            return step;
        }
      }
    }
    ++ops;
    tb.cycle();  // one operation per cycle
    if (!(ref.used() == rtl.used())) return step;
    if (!(ref.slots_used() == rtl.slots_used())) return step;
    for (int idx : ref.order()) {
      const mshr_table::entry& x = ref.at(idx);
      const mshr_table::entry y = rtl.at(idx);
      if (!(x.line == y.line)) return step;
      if (!(x.slots == y.slots)) return step;
      if (!(x.pending_sectors == y.pending_sectors)) return step;
      if (!(x.outstanding_fills == y.outstanding_fills)) return step;
      if (!(x.frame == y.frame)) return step;
    }
  }
  if (released_out) *released_out = released;
  if (edges) *edges = rtl.edges() / std::max<std::size_t>(ops, 1);
  return -1;
}

TEST(mshr_table_rtl, random_operations_agree_with_the_cpp_table) {
  std::size_t released = 0, edges_per_op = 0;
  int diverged = 0;
  run_testbench([&](testbench& tb) {
    diverged = compare_random_operations<mshr_table_rtl>(tb, &released, &edges_per_op);
  });
  EXPECT_EQ(diverged, -1);
  EXPECT_GT(released, 500u);  // the sequence exercised releases
  EXPECT_GE(edges_per_op, 2u);
}

// The same comparison catches the RTL built with a one-off fill count (MSHR_OFF_BY_ONE).
TEST(mshr_table_rtl, the_comparison_catches_an_off_by_one_rtl) {
  int diverged = -1;
  run_testbench([&](testbench& tb) {
    diverged = compare_random_operations<gputlm::rtl::mshr_table_rtl_off_by_one>(tb);
  });
  EXPECT_GE(diverged, 0);
}

}  // namespace test_mshr_table_rtl
