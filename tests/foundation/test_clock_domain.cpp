// Clock domains count cycles without ticking, and a DVFS change mid-run moves later edges
// by the new period. Expected times are computed by hand in femtoseconds.
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "models/common/clock_domain.h"

namespace test_clock_domain {

using gputlm::clock_domain;
using sc_core::sc_time;

namespace {
struct waiter : sc_core::sc_module {
  clock_domain& clk;
  std::vector<std::uint64_t> times_fs;
  std::vector<std::uint64_t> cycles;
  SC_HAS_PROCESS(waiter);
  waiter(sc_core::sc_module_name n, clock_domain& c) : sc_module(n), clk(c) { SC_THREAD(run); }
  void run() {
    wait(clk.delay_cycles(3));  // edge 3 of 1 GHz: 3 ns
    record();
    wait(sc_time(400, sc_core::SC_PS));  // 3.4 ns: between edges 3 and 4
    record();
    clk.set_operating_point(500e6, 0.8);  // takes effect at edge 4 (4 ns), then 2 ns periods
    wait(clk.delay_cycles(0));            // next edge: 4 ns
    record();
    wait(clk.delay_cycles(2));            // edge 6: 4 + 2*2 = 8 ns
    record();
    sc_core::sc_stop();
  }
  void record() {
    times_fs.push_back(sc_core::sc_time_stamp().value());
    cycles.push_back(clk.now_cycle());
  }
};
}  // namespace

TEST(clock_domain, cycles_and_dvfs_change) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  EXPECT_EQ(clk.period().value(), 1'000'000u);  // 1 ns in fs
  waiter w("w", clk);
  sc_core::sc_start();
  ASSERT_EQ(w.times_fs.size(), 4u);
  EXPECT_EQ(w.times_fs[0], 3'000'000u);
  EXPECT_EQ(w.cycles[0], 3u);
  EXPECT_EQ(w.times_fs[1], 3'400'000u);
  EXPECT_EQ(w.cycles[1], 3u);
  EXPECT_EQ(w.times_fs[2], 4'000'000u);
  EXPECT_EQ(w.cycles[2], 4u);
  EXPECT_EQ(w.times_fs[3], 8'000'000u);
  EXPECT_EQ(w.cycles[3], 6u);
  EXPECT_DOUBLE_EQ(clk.voltage(), 0.8);
  EXPECT_EQ(clk.edge_time(10).value(), 4'000'000u + 6 * 2'000'000u);
}

TEST(clock_domain, non_integer_period_stays_exact) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 700e6, 1.0);
  // 1/700 MHz = 1428571.43 fs -> 1428571 fs; after 1e6 cycles the error is < 1 ns.
  sc_time t = clk.edge_time(1'000'000);
  EXPECT_NEAR(t.to_seconds(), 1e6 / 700e6, 1e-9);
  EXPECT_EQ(clk.cycle_at(t), 1'000'000u);
  EXPECT_EQ(clk.cycle_at(t - sc_time::from_value(1)), 999'999u);
}

}  // namespace test_clock_domain
