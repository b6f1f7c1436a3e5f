// The per-domain activation calendar (models/common/edge_scheduler.h): blocks run at the
// edges they asked for, within an edge in the order they were bound (never the order they
// asked in), the deliver stage of every domain before the issue stage; a block woken for
// the edge being run runs again, in the same pass when it comes later in the order, else in
// the next; an earlier request replaces a later one; requests beyond the calendar's near
// window keep their cycle; a DVFS change moves pending activations to the new edges; a
// wake-up from another domain lands on the next edge and is not lost to a later request;
// SystemC processes due at the same time run before the blocks; a destroyed block leaves
// the calendar, its requests with it; running instants ahead of the kernel's time changes
// none of this (at the end of the file).
// Expected times are computed by hand in femtoseconds.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/clock_domain.h"
#include "models/common/edge_scheduler.h"
#include "models/common/wakeup.h"

namespace test_edge_scheduler {

using gputlm::clock_domain;
using gputlm::wakeup;

namespace {
struct run_record {
  std::string who;
  std::uint64_t cycle;
  std::uint64_t fs;
};

struct block {
  std::string name;
  clock_domain& clk;
  std::vector<run_record>& log;
  wakeup wake;
  std::function<void()> action;  // done on every run
  block(std::string n, clock_domain& c, std::vector<run_record>& l,
        gputlm::edge_stage stage = gputlm::edge_stage::deliver)
      : name(std::move(n)), clk(c), log(l) {
    wake.bind<block, &block::run>(this, clk, stage);
  }
  void run() {
    wake.fired();
    log.push_back({name, clk.now_cycle(), sc_core::sc_time_stamp().value()});
    if (action) action();
  }
};

// Runs `f` at time `at` from a thread (requests made from outside any domain's pass).
struct driver : sc_core::sc_module {
  std::vector<std::pair<sc_core::sc_time, std::function<void()>>> steps;
  SC_HAS_PROCESS(driver);
  explicit driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(go); }
  void go() {
    for (auto& [at, f] : steps) {
      if (at > sc_core::sc_time_stamp()) wait(at - sc_core::sc_time_stamp());
      f();
    }
  }
};

constexpr std::uint64_t ns = 1'000'000;  // fs

// One run: which block, at which cycle of its clock, at which time (fs).
void expect_run(const run_record& r, const std::string& who, std::uint64_t cycle,
                std::uint64_t fs) {
  EXPECT_EQ(r.who, who);
  EXPECT_EQ(r.cycle, cycle);
  EXPECT_EQ(r.fs, fs);
}

// The blocks' names in the order they ran, every run expected at time `fs`.
std::vector<std::string> run_order(const std::vector<run_record>& log, std::uint64_t fs) {
  std::vector<std::string> out;
  for (const auto& r : log) {
    EXPECT_EQ(r.fs, fs) << r.who;
    out.push_back(r.who);
  }
  return out;
}

std::vector<std::string> names_at(const std::vector<run_record>& log, std::uint64_t cycle) {
  std::vector<std::string> out;
  for (const auto& r : log)
    if (r.cycle == cycle) out.push_back(r.who);
  return out;
}
}  // namespace

TEST(edge_scheduler, binding_order_passes_and_superseding) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block a("a", clk, log), b("b", clk, log), c("c", clk, log), d("d", clk, log);
  bool once = false;
  c.action = [&] {  // a has run at this edge already: it runs again, in a second pass
    if (!once) a.wake.at(clk.now_cycle());
    once = true;
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         c.wake.at(5);  // asked first, runs after a and b (bound earlier)
                         a.wake.at(5);
                         b.wake.at(5);
                         b.wake.at(7);  // later than pending: ignored
                         d.wake.at(20);
                         d.wake.at(10);  // earlier: replaces 20
                       }});
  sc_core::sc_start();
  EXPECT_EQ(names_at(log, 5), (std::vector<std::string>{"a", "b", "c", "a"}));
  for (const auto& r : log) {
    if (r.cycle == 5) {
      EXPECT_EQ(r.fs, 5 * ns);
    }
  }
  EXPECT_TRUE(names_at(log, 7).empty());
  EXPECT_EQ(names_at(log, 10), std::vector<std::string>{"d"});
  EXPECT_TRUE(names_at(log, 20).empty());
  EXPECT_EQ(log.size(), 5u);
}

TEST(edge_scheduler, a_block_woken_later_in_the_order_runs_in_the_same_pass) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block a("a", clk, log), b("b", clk, log), c("c", clk, log);
  a.action = [&] {  // c comes after a: it joins this pass, after b
    if (clk.now_cycle() == 3) c.wake.at(3);
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         b.wake.at(3);
                         a.wake.at(3);
                       }});
  sc_core::sc_start();
  EXPECT_EQ(names_at(log, 3), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(log.size(), 3u);
}

TEST(edge_scheduler, deliver_stage_of_every_domain_runs_before_issue_stage) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);
  clock_domain l2("l2", 1e9, 1.0);  // same edges as core
  std::vector<run_record> log;
  // The core's issue-stage block is bound first, and asks first; the deliver-stage blocks
  // of both domains still run before it at the shared edge.
  block smx("smx", core, log, gputlm::edge_stage::issue);
  block l1("l1", core, log), l2b("l2b", l2, log);
  bool once = false;
  smx.action = [&] {  // a request sent during issue: the L1 runs again after the SMX
    if (!once) l1.wake.at(core.now_cycle());
    once = true;
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         smx.wake.at(6);
                         l2b.wake.at(6);
                         l1.wake.at(6);
                       }});
  sc_core::sc_start();
  EXPECT_EQ(names_at(log, 6), (std::vector<std::string>{"l1", "l2b", "smx", "l1"}));
}

TEST(edge_scheduler, wake_between_edges_is_not_lost_to_a_later_request) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);  // 1 ns
  clock_domain mem("mem", 400e6, 1.0);  // 2.5 ns
  std::vector<run_record> log;
  block a("a", core, log), m("m", mem, log);
  // At core cycle 3 (3 ns, between mem edges 1 and 2) a wakes m "now", which means m's
  // next edge (cycle 2, 5 ns).
  // At core cycle 5 (5 ns, mem's edge 2, core's calendar runs first) a asks m for its
  // cycle 10: the request for edge 2 stands.
  a.action = [&] {
    if (core.now_cycle() == 3) {
      m.wake.at(mem.now_cycle());
      a.wake.at(5);
    } else {
      m.wake.at(10);
    }
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] { a.wake.at(3); }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 3u);
  expect_run(log[0], "a", 3, 3 * ns);
  expect_run(log[1], "a", 5, 5 * ns);
  expect_run(log[2], "m", 2, 5 * ns);
}

namespace {
// A SystemC method that sets a flag at a given time (a delivery made outside the calendar,
// like a TB launch through a control register).
struct flag_setter : sc_core::sc_module {
  bool flag = false;
  sc_core::sc_event ev;
  bool by_thread = false;
  SC_HAS_PROCESS(flag_setter);
  explicit flag_setter(sc_core::sc_module_name n, bool thread = false)
      : sc_module(n), by_thread(thread) {
    SC_METHOD(set);
    sensitive << ev;
    dont_initialize();
    SC_THREAD(wait_then_set);
  }
  void set() { flag = true; }
  void wait_then_set() {
    if (!by_thread) return;
    wait(sc_core::sc_time::from_value(4 * ns));
    flag = true;
  }
};
}  // namespace

TEST(edge_scheduler, systemc_processes_at_the_same_time_deliver_first) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block a("a", clk, log), b("b", clk, log);
  flag_setter early("early"), late("late"), timed("timed", true);
  std::vector<bool> seen;
  a.action = [&] { seen.push_back(early.flag && timed.flag); };
  b.action = [&] { seen.push_back(late.flag); };
  driver drv("drv");
  // `early`'s event is notified before the blocks ask, `late`'s after: both set their flag
  // before the blocks run at 4 ns.
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         early.ev.notify(sc_core::sc_time::from_value(4 * ns));
                         a.wake.at(4);
                         b.wake.at(4);
                         late.ev.notify(sc_core::sc_time::from_value(4 * ns));
                       }});
  sc_core::sc_start();
  EXPECT_EQ(seen, (std::vector<bool>{true, true}));
}

TEST(edge_scheduler, a_destroyed_block_leaves_the_calendar) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block a("a", clk, log);
  {
    block gone("gone", clk, log);
    gone.wake.at(100000);  // far beyond the near window (a heap entry) ...
    gone.wake.at(5);       // ... superseded by a near one
  }
  block c("c", clk, log);  // bound after the removal: takes the freed place in the order
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         c.wake.at(5);
                         a.wake.at(5);
                       }});
  sc_core::sc_start();
  EXPECT_EQ(names_at(log, 5), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(log.size(), 2u);
}

TEST(edge_scheduler, far_requests_keep_cycle_and_order) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block e("e", clk, log), f("f", clk, log), g("g", clk, log), h("h", clk, log);
  driver drv("drv");
  // e asks for cycle 2000 at time 0 (far beyond the near window), f for the same cycle at
  // cycle 1600 (inside it by then): e was bound first and runs first.
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         e.wake.at(2000);
                         g.wake.at(1000);
                         h.wake.at(100000);
                       }});
  drv.steps.push_back({sc_core::sc_time::from_value(1600 * ns), [&] { f.wake.at(2000); }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 4u);
  expect_run(log[0], "g", 1000, 1000 * ns);
  expect_run(log[1], "e", 2000, 2000 * ns);
  expect_run(log[2], "f", 2000, 2000 * ns);
  expect_run(log[3], "h", 100000, 100000 * ns);
}

TEST(edge_scheduler, dvfs_moves_pending_activations) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  std::vector<run_record> log;
  block a("a", clk, log), b("b", clk, log);
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] { a.wake.at(10); }});
  // At 2 ns (edge 2) the period becomes 0.5 ns: edge 10 is at 2 + 8 x 0.5 = 6 ns, earlier
  // than the 10 ns it was asked at.
  drv.steps.push_back(
      {sc_core::sc_time::from_value(2 * ns), [&] { clk.set_operating_point(2e9, 1.1); }});
  // At 7 ns (edge 12) b asks for edge 20; at 8 ns (edge 14) the period becomes 2 ns: edge
  // 20 is at 8 + 6 x 2 = 20 ns, later than the 11 ns it was asked at.
  drv.steps.push_back({sc_core::sc_time::from_value(7 * ns), [&] { b.wake.at(20); }});
  drv.steps.push_back(
      {sc_core::sc_time::from_value(8 * ns), [&] { clk.set_operating_point(500e6, 0.9); }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 2u);
  expect_run(log[0], "a", 10, 6 * ns);
  expect_run(log[1], "b", 20, 20 * ns);
}

TEST(edge_scheduler, wake_from_another_domain_lands_on_the_next_edge) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);   // 1 ns
  clock_domain mem("mem", 400e6, 1.0);   // 2.5 ns
  std::vector<run_record> log;
  block a("a", core, log), m("m", mem, log);
  // At core cycle 3 (3 ns) a wakes m "now": m's last edge was 2.5 ns (cycle 1), so it runs
  // at its next edge, 5 ns (cycle 2).
  a.action = [&] { m.wake.at(mem.now_cycle()); };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] { a.wake.at(3); }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 2u);
  expect_run(log[0], "a", 3, 3 * ns);
  expect_run(log[1], "m", 2, 5 * ns);
}

TEST(edge_scheduler, domains_with_the_same_edge_run_in_the_order_made) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);
  clock_domain l2("l2", 1e9, 1.0);  // same edges as core
  std::vector<run_record> log;
  block x("x", l2, log), a("a", core, log), b("b", core, log);
  // A domain's calendar is made when the first block binds to it: x binds to l2 before a
  // and b bind to core, so l2's blocks run first in an instant.
  bool once = false;
  x.action = [&] {  // at edge 4, l2's x wakes core's b for now: b runs in the same instant
    if (!once) b.wake.at(core.now_cycle());
    once = true;
  };
  a.action = [&] {  // and core's a wakes l2's x for now: x runs again in the same instant
    if (log.size() < 4) x.wake.at(l2.now_cycle());
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         a.wake.at(4);
                         x.wake.at(4);
                       }});
  sc_core::sc_start();
  EXPECT_EQ(run_order(log, 4 * ns), (std::vector<std::string>{"x", "a", "b", "x"}));
}

TEST(edge_scheduler, a_deliver_block_woken_for_now_runs_before_the_issue_stage) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);
  clock_domain l2("l2", 1e9, 1.0);  // same edges as core
  std::vector<run_record> log;
  // At edge 1000 the core has only issue-stage work (s); l2's x wakes the core's
  // deliver-stage d for now. Every deliver block runs before any issue block: x, d, then s
  // and l2's own issue block y (core's first: made first).
  block d("d", core, log), s("s", core, log, gputlm::edge_stage::issue);
  block x("x", l2, log), y("y", l2, log, gputlm::edge_stage::issue);
  x.action = [&] { d.wake.at(core.now_cycle()); };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         x.wake.at(1000);  // far beyond the near window when asked
                         y.wake.at(1000);
                       }});
  // Asked at 600 ns: within the core calendar's window, in the bucket of edge 1000.
  drv.steps.push_back({sc_core::sc_time::from_value(600 * ns), [&] { s.wake.at(1000); }});
  sc_core::sc_start();
  EXPECT_EQ(run_order(log, 1000 * ns), (std::vector<std::string>{"x", "d", "s", "y"}));
}

TEST(edge_scheduler, a_block_of_an_idle_domain_woken_for_now_runs_in_that_instant) {
  clock_domain::init_time_resolution();
  clock_domain core("core", 1e9, 1.0);
  clock_domain l2("l2", 1e9, 1.0);  // same edges as core
  std::vector<run_record> log;
  // The core has nothing asked for since time 0: its calendar's window still starts there,
  // so d's request for edge 3000 is beyond it. Made by x's run at that edge, it is met in
  // the same instant's deliver stage, before l2's issue-stage y.
  block d("d", core, log);
  block x("x", l2, log), y("y", l2, log, gputlm::edge_stage::issue);
  x.action = [&] { d.wake.at(core.now_cycle()); };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         x.wake.at(3000);
                         y.wake.at(3000);
                       }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 3u);
  expect_run(log[0], "x", 3000, 3000 * ns);
  expect_run(log[1], "d", 3000, 3000 * ns);
  expect_run(log[2], "y", 3000, 3000 * ns);
}

TEST(edge_scheduler, more_domains_than_a_bitmap_word_keep_the_order) {
  clock_domain::init_time_resolution();
  // 70 domains with the same edges: the dispatcher's bitmap of due domains spans two words.
  std::vector<std::unique_ptr<clock_domain>> clocks;
  std::vector<std::unique_ptr<block>> blocks;
  std::vector<run_record> log;
  for (int i = 0; i < 70; ++i) {
    clocks.push_back(std::make_unique<clock_domain>("d" + std::to_string(i), 1e9, 1.0));
    blocks.push_back(std::make_unique<block>("b" + std::to_string(i), *clocks.back(), log));
  }
  // At edge 7 blocks 2, 65 and 69 are due. Block 2 wakes block 66 for now: later in the
  // order, it runs in the same pass. Block 69 wakes block 3 and block 1: both earlier,
  // they run in the next pass, in their order.
  blocks[2]->action = [&] { blocks[66]->wake.at(clocks[66]->now_cycle()); };
  blocks[69]->action = [&] {
    blocks[3]->wake.at(clocks[3]->now_cycle());
    blocks[1]->wake.at(clocks[1]->now_cycle());
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         blocks[69]->wake.at(7);
                         blocks[65]->wake.at(7);
                         blocks[2]->wake.at(7);
                       }});
  sc_core::sc_start();
  EXPECT_EQ(run_order(log, 7 * ns),
            (std::vector<std::string>{"b2", "b65", "b66", "b69", "b1", "b3"}));
}

// ---- Running ahead of the kernel's time ---------------------------------------------------
// With run-ahead on, the dispatcher runs the next instant at once while no SystemC process
// is due before it or at it. The blocks see the same cycles and times (their clock
// domain's), a SystemC event a block notifies fires at the time asked for (not at the
// kernel's lagging time), and a SystemC process due before the next instant runs first,
// at its own time. The scenario, counted by hand (1 GHz, edges at whole ns):
//  - x runs at cycles 1..4, waking itself for the next cycle; y runs at cycle 2 and
//    notifies q's event for now (a delta notification when not ahead); p's event is due at
//    3.5 ns, and p wakes z for the next edge (4).
//  - Kernel activation at 1 ns: instant 1; the kernel's next activity is p at 3.5 ns, so
//    instant 2 runs at once (kernel time still 1 ns). There y notifies q for 2 ns: the
//    kernel is due at 2 ns, before instant 3, so the dispatcher hands back. q runs at 2 ns.
//  - Kernel activation at 3 ns: instant 3; p is due at 3.5 ns, before instant 4: hand back.
//    p runs at 3.5 ns and wakes z for 4.
//  - Kernel activation at 4 ns: instant 4 (x, then z in binding order). Nothing after.
// So 4 instants and 3 kernel activations ahead; 4 and 4 without.
namespace {
struct systemc_method : sc_core::sc_module {
  sc_core::sc_event ev;
  std::function<void()> action;
  std::vector<std::uint64_t> kernel_fs, now_fs;  // when it ran: kernel's time, blocks' time
  SC_HAS_PROCESS(systemc_method);
  explicit systemc_method(sc_core::sc_module_name n) : sc_module(n) {
    SC_METHOD(run);
    sensitive << ev;
    dont_initialize();
  }
  void run() {
    kernel_fs.push_back(sc_core::sc_time_stamp().value());
    now_fs.push_back(clock_domain::now_fs());
    if (action) action();
  }
};

struct ahead_outcome {
  std::vector<run_record> log;             // blocks' runs with their clock's time
  std::vector<std::uint64_t> x_kernel_fs;  // the kernel's time at x's runs
  std::vector<std::uint64_t> q_kernel_fs, q_now_fs, p_kernel_fs, p_now_fs;
  std::uint64_t instants = 0, kernel_activations = 0, end_fs = 0;
};

ahead_outcome run_ahead_scenario(bool ahead) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  auto& dispatcher = gputlm::edge_dispatcher::instance();
  dispatcher.set_run_ahead(ahead);
  ahead_outcome out;
  std::vector<run_record> raw;  // (the block helper records the kernel's time)
  block x("x", clk, raw), y("y", clk, raw), z("z", clk, raw);
  systemc_method q("q"), p("p");
  auto note = [&](const std::string& who) {
    out.log.push_back({who, clk.now_cycle(), clock_domain::now_fs()});
  };
  x.action = [&] {
    note("x");
    out.x_kernel_fs.push_back(sc_core::sc_time_stamp().value());
    if (clk.now_cycle() < 4) x.wake.at(clk.now_cycle() + 1);
  };
  y.action = [&] {
    note("y");
    q.ev.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
  };
  z.action = [&] { note("z"); };
  p.action = [&] { z.wake.at(clk.next_cycle()); };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         x.wake.at(1);
                         y.wake.at(2);
                         p.ev.notify(sc_core::sc_time::from_value(3 * ns + ns / 2));
                       }});
  sc_core::sc_start();
  out.q_kernel_fs = q.kernel_fs;
  out.q_now_fs = q.now_fs;
  out.p_kernel_fs = p.kernel_fs;
  out.p_now_fs = p.now_fs;
  out.instants = dispatcher.instants();
  out.kernel_activations = dispatcher.kernel_activations();
  out.end_fs = clock_domain::now_fs();
  return out;
}

void expect_same_runs_either_way(const ahead_outcome& o) {
  ASSERT_EQ(o.log.size(), 6u);
  expect_run(o.log[0], "x", 1, 1 * ns);
  expect_run(o.log[1], "x", 2, 2 * ns);
  expect_run(o.log[2], "y", 2, 2 * ns);
  expect_run(o.log[3], "x", 3, 3 * ns);
  expect_run(o.log[4], "x", 4, 4 * ns);
  expect_run(o.log[5], "z", 4, 4 * ns);
  // The SystemC processes ran at their own times, which the blocks' clock agreed with.
  EXPECT_EQ(o.q_kernel_fs, std::vector<std::uint64_t>{2 * ns});
  EXPECT_EQ(o.q_now_fs, std::vector<std::uint64_t>{2 * ns});
  EXPECT_EQ(o.p_kernel_fs, std::vector<std::uint64_t>{3 * ns + ns / 2});
  EXPECT_EQ(o.p_now_fs, std::vector<std::uint64_t>{3 * ns + ns / 2});
  EXPECT_EQ(o.instants, 4u);
  EXPECT_EQ(o.end_fs, 4 * ns);
}
}  // namespace

TEST(edge_scheduler, run_ahead_runs_instants_before_the_kernel_and_hands_back_for_processes) {
  const ahead_outcome o = run_ahead_scenario(true);
  expect_same_runs_either_way(o);
  EXPECT_EQ(o.kernel_activations, 3u);
  // x's run at 2 ns happened with the kernel still at 1 ns.
  EXPECT_EQ(o.x_kernel_fs, (std::vector<std::uint64_t>{1 * ns, 1 * ns, 3 * ns, 4 * ns}));
}

TEST(edge_scheduler, without_run_ahead_the_kernel_runs_every_instant) {
  const ahead_outcome o = run_ahead_scenario(false);
  expect_same_runs_either_way(o);
  EXPECT_EQ(o.kernel_activations, 4u);
  EXPECT_EQ(o.x_kernel_fs, (std::vector<std::uint64_t>{1 * ns, 2 * ns, 3 * ns, 4 * ns}));
}

// A block that stops the simulation while the dispatcher runs ahead: no later instant
// runs, and the simulation's end is the instant that stopped it, though the kernel's time
// stayed at the first instant.
TEST(edge_scheduler, run_ahead_ends_at_the_instant_that_called_sc_stop) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  gputlm::edge_dispatcher::instance().set_run_ahead(true);
  std::vector<run_record> log;
  block x("x", clk, log);
  x.action = [&] {  // asks for every next cycle: only the stop ends the run
    x.wake.at(clk.now_cycle() + 1);
    if (clk.now_cycle() == 3) sc_core::sc_stop();
  };
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] { x.wake.at(1); }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 3u);  // cycles 1, 2, 3 (recorded with the kernel's time: 1 ns)
  for (const auto& r : log) EXPECT_EQ(r.fs, 1 * ns);
  EXPECT_EQ(log.back().cycle, 3u);
  EXPECT_EQ(clock_domain::now_fs(), 3 * ns);
  EXPECT_EQ(gputlm::edge_dispatcher::instance().kernel_activations(), 1u);
}

// DVFS made by a block while the dispatcher runs ahead (a governor on the calendar): the
// change takes effect at the instant's edge, and the pending requests move with the clock,
// as in dvfs_moves_pending_activations. g runs at edge 2 (2 ns) and sets 2 GHz: edge 10 is
// at 2 + 8 x 0.5 = 6 ns and edge 14 at 8 ns, where g sets 500 MHz: edge 20 is at
// 8 + 6 x 2 = 20 ns. No SystemC process is due after time 0, so the kernel starts only
// the first instant.
TEST(edge_scheduler, run_ahead_follows_a_period_change_made_by_a_block) {
  clock_domain::init_time_resolution();
  clock_domain clk("core", 1e9, 1.0);
  gputlm::edge_dispatcher::instance().set_run_ahead(true);
  std::vector<run_record> log;  // (records the kernel's time; the clock's is checked below)
  std::vector<std::uint64_t> at_fs;
  block g("g", clk, log), a("a", clk, log), b("b", clk, log);
  auto note = [&] { at_fs.push_back(clock_domain::now_fs()); };
  g.action = [&] {
    note();
    if (clk.now_cycle() == 2) {
      clk.set_operating_point(2e9, 1.1);
      g.wake.at(14);
    } else {
      clk.set_operating_point(500e6, 0.9);
    }
  };
  a.action = note;
  b.action = note;
  driver drv("drv");
  drv.steps.push_back({sc_core::SC_ZERO_TIME, [&] {
                         g.wake.at(2);
                         a.wake.at(10);
                         b.wake.at(20);
                       }});
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(names_at(log, 2), std::vector<std::string>{"g"});
  EXPECT_EQ(names_at(log, 10), std::vector<std::string>{"a"});
  EXPECT_EQ(names_at(log, 14), std::vector<std::string>{"g"});
  EXPECT_EQ(names_at(log, 20), std::vector<std::string>{"b"});
  EXPECT_EQ(at_fs, (std::vector<std::uint64_t>{2 * ns, 6 * ns, 8 * ns, 20 * ns}));
  EXPECT_EQ(gputlm::edge_dispatcher::instance().kernel_activations(), 1u);
  EXPECT_EQ(gputlm::edge_dispatcher::instance().instants(), 4u);
}

}  // namespace test_edge_scheduler
