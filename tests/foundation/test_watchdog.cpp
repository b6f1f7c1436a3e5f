// The livelock watchdog of the edge dispatcher (models/common/edge_scheduler.h): busy
// instants in a row without forward progress are counted, and the count passing the limit
// stops the simulation, noting the time and the blocks that still ask to run; progress
// resets the count; a limit of 0 lets a long run end by itself. Expected cycles are counted
// by hand: the count goes up at each instant whose previous instant made no progress (the
// first instant counts 1), and the instant that would make it limit + 1 does not run.
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock_domain.h"
#include "models/common/edge_scheduler.h"
#include "models/common/wakeup.h"

namespace test_watchdog {

using gputlm::clock_domain;
using gputlm::edge_dispatcher;
using gputlm::wakeup;

namespace {
constexpr std::uint64_t ns = 1'000'000;  // fs; the clock below runs at 1 GHz

// Runs at every cycle from 0 up to `last` (never stops when last is ~0); reports progress on
// its runs up to `progress_until`, if any.
struct ticker : sc_core::sc_module {
  clock_domain& clk;
  wakeup wake;
  std::uint64_t last;
  std::uint64_t progress_until;
  bool reports;
  std::vector<std::uint64_t> runs;
  ticker(sc_core::sc_module_name n, clock_domain& c, std::uint64_t last_cycle,
         bool report_progress = false, std::uint64_t progress_to = 0)
      : sc_module(n), clk(c), last(last_cycle), progress_until(progress_to),
        reports(report_progress) {
    wake.bind<ticker, &ticker::run>(this, clk);
    SC_HAS_PROCESS(ticker);
    SC_THREAD(start);
  }
  void start() { wake.at(0); }  // a request from outside any pass, at time 0
  void run() {
    wake.fired();
    const std::uint64_t now = clk.now_cycle();
    runs.push_back(now);
    if (reports && now <= progress_until) edge_dispatcher::progress();
    if (now < last) wake.at(now + 1);
  }
};
}  // namespace

namespace {
// A block that never stops, with a limit of 100: instants at cycles 0..99 count 1..100;
// the one at cycle 100 would count 101. The same with the dispatcher running instants
// ahead of the SystemC kernel or not.
void expect_the_spinner_stopped_at_cycle_100(bool run_ahead) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  ticker spinner("spinner", clk, ~std::uint64_t(0));
  edge_dispatcher::instance().set_watchdog(100);
  edge_dispatcher::instance().set_run_ahead(run_ahead);
  sc_core::sc_start();
  const auto& report = edge_dispatcher::instance().livelock_report();
  ASSERT_TRUE(report.stopped);
  EXPECT_EQ(report.at_fs, 100 * ns);
  ASSERT_EQ(spinner.runs.size(), 100u);
  EXPECT_EQ(spinner.runs.back(), 99u);
  EXPECT_EQ(report.waking, std::vector<std::string>{"spinner"});
}
}  // namespace

TEST(watchdog, stops_a_block_that_runs_without_progress) {
  expect_the_spinner_stopped_at_cycle_100(false);
}

TEST(watchdog, progress_resets_the_count) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  // The worker reports progress at cycles 0..499 and stops running after cycle 599; the
  // spinner never stops.
  ticker worker("worker", clk, 599, true, 499);
  ticker spinner("spinner", clk, ~std::uint64_t(0));
  edge_dispatcher::instance().set_watchdog(100);
  sc_core::sc_start();
  // The instant at cycle 500 follows progress (count 0); cycles 501..600 count 1..100; the
  // one at cycle 601 would count 101.
  const auto& report = edge_dispatcher::instance().livelock_report();
  ASSERT_TRUE(report.stopped);
  EXPECT_EQ(report.at_fs, 601 * ns);
  EXPECT_EQ(worker.runs.size(), 600u);
  EXPECT_EQ(spinner.runs.back(), 600u);
  EXPECT_EQ(report.waking, std::vector<std::string>{"spinner"});
}

// The same count with the dispatcher running instants ahead of the SystemC kernel: the
// first instant (cycle 0) is the only one the kernel starts, so the stop and the run's end
// are read from the blocks' clock, at the instant that would have counted 101.
TEST(watchdog, stops_at_the_same_instant_when_running_ahead) {
  expect_the_spinner_stopped_at_cycle_100(true);
  EXPECT_EQ(edge_dispatcher::instance().kernel_activations(), 1u);
  EXPECT_EQ(sc_core::sc_time_stamp().value(), 0u);
  EXPECT_EQ(clock_domain::now_fs(), 100 * ns);
}

TEST(watchdog, off_lets_a_long_quiet_run_end) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  ticker spinner("spinner", clk, 4999);
  edge_dispatcher::instance().set_watchdog(0);
  sc_core::sc_start();
  EXPECT_FALSE(edge_dispatcher::instance().livelock_report().stopped);
  EXPECT_EQ(spinner.runs.size(), 5000u);
  EXPECT_EQ(sc_core::sc_time_stamp().value(), 4999 * ns);
}

TEST(watchdog, a_limit_the_run_stays_under_does_not_stop_it) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  ticker spinner("spinner", clk, 4999);  // 5000 quiet instants
  edge_dispatcher::instance().set_watchdog(5000);
  sc_core::sc_start();
  EXPECT_FALSE(edge_dispatcher::instance().livelock_report().stopped);
  EXPECT_EQ(spinner.runs.size(), 5000u);
}

}  // namespace test_watchdog
