// The DVFS regulator and the bubble manager of Wang's thesis ch. 6 (docs/dvfs.md) on their
// own: the regulator drives per-SMX domains of a hand-made platform, the manager watches a
// mock SMX scheduler whose occupancy, TB queue and DVR bits the test sets and reads.
// Expected times are worked by hand from the 706 MHz core period (1,416,431 fs) and the
// 500-cycle sample and transition (Fig. 36; wave-b gap analysis §6.3).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "models/control/bubble_manager.h"
#include "models/power/dvfs_regulator.h"
#include "models/power/power_model.h"
#include "tests/memory/mem_testbench.h"

namespace test_dvfs {

using namespace gputlm;
using control::bubble_manager;
using pm::dvfs_regulator;
using pm::pstate_level;

namespace {

constexpr std::uint64_t core_fs = 1416431;  // llround(1e15 / 706 MHz)

// The scheduler as the manager sees it: per SMX resident warps (of 64), whether the next
// TB fits, its DVR bit; whether TBs wait; kernels still open.
struct mock_scheduler : control::dispatch_monitor {
  std::vector<std::uint32_t> warps;
  std::vector<bool> fits, dvr, bound;
  bool waiting = false;
  std::uint32_t open = 1;
  explicit mock_scheduler(std::size_t n)
      : warps(n, 0), fits(n, true), dvr(n, false), bound(n, false) {}
  std::size_t smx_count() const override { return warps.size(); }
  std::uint32_t resident_warps(std::size_t s) const override { return warps[s]; }
  std::uint32_t warp_slots(std::size_t) const override { return 64; }
  bool tbs_waiting() const override { return waiting; }
  bool next_tb_fits(std::size_t s) const override { return waiting && fits[s]; }
  bool tbs_bound_to(std::size_t s) const override { return bound[s]; }
  void divert(std::size_t s, bool on) override { dvr[s] = on; }
  const char* diversion_unsupported() const override { return ""; }
  std::uint32_t open_kernels() const override { return open; }
  bool claim(std::size_t, std::uint32_t, std::uint32_t, std::uint32_t) override { return false; }
  void take(std::size_t, std::uint32_t, std::uint32_t, std::uint32_t) override {}
  void release_claim(std::size_t, std::uint32_t, std::uint32_t, std::uint32_t) override {}
};

struct bench {
  test::block_env env;
  mock_scheduler sched;
  std::unique_ptr<dvfs_regulator> reg;
  std::unique_ptr<bubble_manager> mgr;
  clock_domain* core;

  explicit bench(std::size_t smxs, std::map<std::string, std::string> manager = {},
                 std::map<std::string, std::string> regulator = {},
                 pm::power_model* power = nullptr)
      : sched(smxs) {
    env.power = power;
    core = &env.clock("core", 706e6);
    for (std::size_t i = 0; i < smxs; ++i)
      env.clock("sm[" + std::to_string(i) + "]", 706e6)
          .set_pstates({pstate{706e6, 1.0}, pstate{100e6, 0.55}});
    env.clock("l2", 706e6).set_pstates({pstate{706e6, 1.0}, pstate{100e6, 0.55}});
    regulator.emplace("smx_domains", "sm");
    regulator.emplace("gpu_domains", "[l2]");
    block_context rc{env.config("gpu.regulator", "dvfs_regulator", regulator),
                     *core,
                     env.stats,
                     env.work,
                     power,
                     nullptr,
                     &env.clocks};
    reg = std::make_unique<dvfs_regulator>("regulator", rc);
    reg->validate();
    block_context mc{env.config("gpu.smx_scheduler.bubble", "bubble_manager", manager),
                     *core,
                     env.stats,
                     env.work,
                     nullptr,
                     nullptr,
                     &env.clocks};
    mgr = std::make_unique<bubble_manager>("bubble", mc);
    mgr->validate();
    mgr->scheduler.connect(sched);
    mgr->regulator.connect(*reg);
    reg->status.connect(*mgr);
    mgr->validate_bound();
  }
  clock_domain& sm(std::size_t i) { return *env.clocks[1 + i]; }
  clock_domain& l2() { return *env.clocks.back(); }
  // Runs up to half a core cycle past cycle c (what is due at c has run).
  void run_to(std::uint64_t c) {
    const auto t = sc_core::sc_time::from_value(c * core_fs + core_fs / 2);
    sc_core::sc_start(t - sc_core::sc_time_stamp());
  }
  double stat(const std::string& block, const std::string& name) const {
    const auto& e = env.stats.blocks().at(block).at(name);
    if (e.count) return double(e.count->value());
    return e.derived();
  }
};

}  // namespace

TEST(dvfs_regulator, a_request_applies_at_the_first_edge_after_the_transition) {
  bench b(2);
  b.sched.open = 0;  // (the manager stays out of the way)
  b.run_to(1000);
  ASSERT_TRUE(b.reg->request(0, pstate_level::lowest));
  EXPECT_FALSE(b.reg->request(0, pstate_level::nominal));  // in a transition: refused
  EXPECT_TRUE(b.reg->in_transition(0));
  EXPECT_FALSE(b.reg->in_transition(1));
  b.run_to(1499);
  EXPECT_EQ(b.sm(0).frequency(), 706e6);  // still the old point
  EXPECT_EQ(b.sm(0).voltage(), 1.0);
  b.run_to(1501);
  // Requested at 1000.5 T: the transition ends at 1500.5 T, and the new period starts at
  // sm[0]'s next edge, 1501 (the same period as the core's); numbering continues.
  const std::uint64_t switch_fs = 1501 * core_fs;
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  EXPECT_EQ(b.sm(0).voltage(), 0.55);
  EXPECT_EQ(b.sm(0).edge_fs(1501), switch_fs);
  EXPECT_EQ(b.sm(0).edge_fs(1503), switch_fs + 2 * 10000000ull);
  EXPECT_EQ(b.sm(0).cycle_at_fs(switch_fs + 25000000ull), 1503u);
  EXPECT_EQ(b.sm(1).frequency(), 706e6);  // another SMX's domain is untouched
  EXPECT_EQ(b.stat("regulator", "transitions"), 1.0);
  // Residency: at P0 until the regulator switched (1500.5 T), at P1 since.
  b.run_to(3000);
  const double end = double(1500 * core_fs + core_fs / 2) * 1e-15;
  const double now_s = double(3000 * core_fs + core_fs / 2) * 1e-15;
  EXPECT_NEAR(b.stat("regulator", "sm[0].p0_seconds"), end, 1e-18);
  EXPECT_NEAR(b.stat("regulator", "sm[0].p1_seconds"), now_s - end, 1e-18);
  EXPECT_NEAR(b.stat("regulator", "sm[1].p0_seconds"), now_s, 1e-18);
  EXPECT_EQ(b.stat("regulator", "sm[1].p1_seconds"), 0.0);
}

TEST(dvfs_regulator, going_up_the_voltage_rises_at_the_request_the_frequency_after) {
  bench b(1);
  b.sched.open = 0;
  ASSERT_TRUE(b.reg->request(0, pstate_level::lowest));
  b.run_to(600);
  ASSERT_EQ(b.sm(0).frequency(), 100e6);
  ASSERT_TRUE(b.reg->request(0, pstate_level::nominal));
  EXPECT_EQ(b.sm(0).voltage(), 1.0);      // at once: energy at the higher supply
  EXPECT_EQ(b.sm(0).frequency(), 100e6);  // the frequency when the transition ends
  b.run_to(1099);
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  b.run_to(1120);
  EXPECT_EQ(b.sm(0).frequency(), 706e6);
}

TEST(dvfs_regulator, the_gpu_level_drives_every_domain_and_waits_for_smx_transitions) {
  bench b(2);
  b.sched.open = 0;
  ASSERT_TRUE(b.reg->request(1, pstate_level::lowest));
  EXPECT_FALSE(b.reg->request(pm::voltage_regulator::gpu_level, pstate_level::lowest));
  b.run_to(501);
  ASSERT_TRUE(b.reg->request(pm::voltage_regulator::gpu_level, pstate_level::lowest));
  EXPECT_FALSE(b.reg->request(0, pstate_level::lowest));  // the GPU level is in a transition
  b.run_to(1002);                                         // requested at 501.5 T: done at 1001.5 T
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  EXPECT_EQ(b.sm(1).frequency(), 100e6);
  EXPECT_EQ(b.l2().frequency(), 100e6);
  EXPECT_EQ(b.core->frequency(), 706e6);  // the regulator's own clock is not driven
  EXPECT_EQ(b.stat("regulator", "gpu_transitions"), 1.0);
}

// Fig. 36 on two SMXs: SMX 0 with 2 warps (below 4 of 64), SMX 1 with room and TBs waiting.
TEST(bubble_manager, divert_drain_lower_and_resume_one_smx) {
  bench b(2);
  b.sched.warps = {2, 10};
  b.sched.waiting = true;
  b.mgr->tbs_arrived(0);  // wakes the sampler: first sample at cycle 500
  b.run_to(499);
  EXPECT_FALSE(b.sched.dvr[0]);
  b.run_to(500);
  EXPECT_TRUE(b.sched.dvr[0]);  // diverted and draining
  EXPECT_FALSE(b.sched.dvr[1]);
  EXPECT_EQ(b.stat("bubble", "drains"), 1.0);
  EXPECT_FALSE(b.reg->in_transition(0));
  // SMX 0 empties at cycle 1700: lowered at the sample of 2000, low from 2500.
  b.run_to(1700);
  b.sched.warps[0] = 0;
  b.mgr->tb_completed(0, 1700);
  b.run_to(1999);
  EXPECT_FALSE(b.reg->in_transition(0));
  b.run_to(2000);
  EXPECT_TRUE(b.reg->in_transition(0));
  EXPECT_EQ(b.stat("bubble", "drained"), 1.0);
  b.run_to(2499);
  EXPECT_EQ(b.sm(0).frequency(), 706e6);
  b.run_to(2500);
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  EXPECT_TRUE(b.sched.dvr[0]);
  // SMX 1 fills up: the next TB fits nowhere undiverted; SMX 0 resumes at 3000, takes TBs
  // from 3500.
  b.sched.warps[1] = 64;
  b.sched.fits[1] = false;
  b.run_to(3000);
  EXPECT_EQ(b.stat("bubble", "resumes"), 1.0);
  EXPECT_TRUE(b.sched.dvr[0]);  // still diverted through the transition
  b.run_to(3499);
  EXPECT_TRUE(b.sched.dvr[0]);
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  b.run_to(3500);
  EXPECT_FALSE(b.sched.dvr[0]);
  EXPECT_EQ(b.sm(0).frequency(), 706e6);
  EXPECT_EQ(b.stat("bubble", "diversions"), 1.0);
  EXPECT_EQ(b.stat("bubble", "lowered"), 1.0);
}

TEST(bubble_manager, a_drain_aborts_after_the_window) {
  bench b(2);
  b.sched.warps = {2, 10};
  b.sched.waiting = true;
  b.mgr->tbs_arrived(0);
  b.run_to(500);  // diverted at sample k = 500
  ASSERT_TRUE(b.sched.dvr[0]);
  b.run_to(500 + 10 * 500 - 1);  // W = 10 samples waited ...
  EXPECT_TRUE(b.sched.dvr[0]);
  b.run_to(500 + 10 * 500);  // ... and at sample k + 10 it still holds warps: aborted
  EXPECT_FALSE(b.sched.dvr[0]);
  EXPECT_EQ(b.stat("bubble", "drain_aborts"), 1.0);
  EXPECT_EQ(b.stat("bubble", "lowered"), 0.0);
}

TEST(bubble_manager, at_most_one_smx_resumes_per_sample_and_one_is_never_diverted) {
  bench b(3, {{"draining", "false"}});
  b.sched.warps = {1, 1, 1};  // every SMX in a bubble
  b.sched.waiting = true;
  b.mgr->tbs_arrived(0);
  b.run_to(500);
  // SMX 0 and 1 are diverted (another undiverted SMX can take the next TB); SMX 2 is the
  // last undiverted one and stays.
  EXPECT_TRUE(b.sched.dvr[0]);
  EXPECT_TRUE(b.sched.dvr[1]);
  EXPECT_FALSE(b.sched.dvr[2]);
  // Without draining they go low at once, warps and all.
  EXPECT_TRUE(b.reg->in_transition(0));
  EXPECT_TRUE(b.reg->in_transition(1));
  b.run_to(1000);
  ASSERT_EQ(b.sm(1).frequency(), 100e6);
  b.sched.warps[2] = 64;  // SMX 2 full: both low SMXs could resume, one per sample
  b.sched.fits[2] = false;
  b.run_to(1500);
  EXPECT_EQ(b.stat("bubble", "resumes"), 1.0);
  EXPECT_TRUE(b.reg->in_transition(0));
  EXPECT_FALSE(b.reg->in_transition(1));
  b.run_to(1999);
  EXPECT_EQ(b.stat("bubble", "resumes"), 1.0);
}

TEST(bubble_manager, the_whole_gpu_goes_low_while_every_smx_is_idle) {
  bench b(2);
  b.sched.warps = {0, 0};
  b.mgr->tb_completed(0, 100);  // the last TB of a kernel; a child kernel is still to come
  b.run_to(500);
  EXPECT_TRUE(b.sched.dvr[0] && b.sched.dvr[1]);  // no TB at the low point
  b.run_to(1000);
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  EXPECT_EQ(b.sm(1).frequency(), 100e6);
  EXPECT_EQ(b.l2().frequency(), 100e6);
  EXPECT_EQ(b.stat("bubble", "gpu_lows"), 1.0);
  // The child's TBs arrive at 1200: back at the sample of 1500, dispatch from 2000.
  b.run_to(1200);
  b.sched.waiting = true;
  b.mgr->tbs_arrived(1200);
  b.run_to(1999);
  EXPECT_TRUE(b.sched.dvr[0]);
  EXPECT_EQ(b.sm(0).frequency(), 100e6);
  EXPECT_EQ(b.sm(0).voltage(), 1.0);  // raised at the request (1500)
  b.run_to(2000);
  EXPECT_FALSE(b.sched.dvr[0] || b.sched.dvr[1]);
  EXPECT_EQ(b.sm(0).frequency(), 706e6);
  EXPECT_EQ(b.l2().frequency(), 706e6);
}

TEST(bubble_manager, the_workload_s_end_cuts_a_transition_and_stops_sampling) {
  bench b(2);
  b.sched.warps = {0, 0};
  b.mgr->tb_completed(0, 100);
  b.run_to(600);  // the GPU level going down
  ASSERT_TRUE(b.reg->in_transition(pm::voltage_regulator::gpu_level));
  b.sched.open = 0;  // the last kernel finished
  b.mgr->tb_completed(1, 600);
  EXPECT_FALSE(b.reg->in_transition(pm::voltage_regulator::gpu_level));
  EXPECT_EQ(b.stat("regulator", "transitions_cut"), 1.0);
  // Nothing is left to happen: the simulation ends here.
  EXPECT_FALSE(sc_core::sc_pending_activity());
  EXPECT_EQ(b.sm(0).frequency(), 706e6);
}

// Occurrence: every sample instant of the run, from the occupancy changes alone.
TEST(bubble_manager, counting_only_occurrence_and_ideal_energy) {
  bench b(2, {{"enabled", "false"}});
  // SMX 0: 2 warps from 0 to 1250, 8 warps after; SMX 1: 8 warps all along.
  b.sched.warps = {2, 8};
  b.mgr->tb_dispatched(0, 0);
  b.mgr->tb_dispatched(1, 0);
  b.run_to(1250);
  b.sched.warps[0] = 8;
  b.mgr->tb_dispatched(0, 1250);
  b.run_to(3000);
  // Instants 500 .. 3000 (6) x 2 SMXs; below 4 warps: SMX 0 at 500 and 1000.
  EXPECT_EQ(b.stat("bubble", "smx_samples"), 12.0);
  EXPECT_EQ(b.stat("bubble", "bubble_samples"), 2.0);
  EXPECT_NEAR(b.stat("bubble", "occurrence"), 2.0 / 12.0, 1e-12);
  EXPECT_EQ(b.stat("bubble", "ideal_pg_joules"), 0.0);  // no power table here
  EXPECT_EQ(b.stat("bubble", "diversions"), 0.0);
  EXPECT_FALSE(b.sched.dvr[0]);
  EXPECT_EQ(b.stat("bubble", "samples"), 0.0);  // counting only: nothing sampled
}

// LaPerm binds child TBs to an SMX: a diversion must not strand them there.
TEST(bubble_manager, tbs_bound_to_an_smx_keep_it_and_bring_it_back) {
  bench b(3, {{"draining", "false"}});
  b.sched.warps = {1, 1, 10};
  b.sched.bound[1] = true;  // TBs wait that only SMX 1 takes
  b.sched.waiting = true;
  b.mgr->tbs_arrived(0);
  b.run_to(500);
  EXPECT_TRUE(b.sched.dvr[0]);   // in a bubble, SMX 2 takes the next TB: diverted
  EXPECT_FALSE(b.sched.dvr[1]);  // in a bubble, but its bound TBs keep it
  b.sched.bound[1] = false;
  b.run_to(1000);  // SMX 0 low since 1000; SMX 1 now diverted (SMX 2 still has room)
  ASSERT_EQ(b.sm(0).frequency(), 100e6);
  ASSERT_TRUE(b.sched.dvr[1]);
  // A child bound to SMX 0 arrives: it resumes although SMX 2 could take other TBs.
  b.sched.bound[0] = true;
  b.run_to(1500);
  EXPECT_EQ(b.stat("bubble", "resumes"), 1.0);
  EXPECT_TRUE(b.reg->in_transition(0));
}

TEST(bubble_manager, keep_bound_false_diverts_as_fig_36_is_written) {
  bench b(3, {{"draining", "false"}, {"keep_bound", "false"}});
  b.sched.warps = {1, 1, 10};
  b.sched.bound[1] = true;
  b.sched.waiting = true;
  b.mgr->tbs_arrived(0);
  b.run_to(500);
  EXPECT_TRUE(b.sched.dvr[0]);
  EXPECT_TRUE(b.sched.dvr[1]);  // its bound TBs wait for it: stranded until it resumes
  EXPECT_FALSE(b.sched.dvr[2]);
}

// A block on SMX 0's domain with one power component: 1 W static and 0.5 W clock power at
// 1 V and 706 MHz, 2 nJ per event.
struct powered : component {
  pm::power_component& pc;
  powered(const sc_core::sc_module_name& n, const block_context& ctx)
      : component(n, ctx), pc(declare_power("core", {"op"})) {}
};

// Static power scales with V, event energy with V^2, clock power with V^2 x f/f0 (f0 =
// 706 MHz): worked by hand across a change to 100 MHz / 0.55 V, and split by P-state.
TEST(dvfs_regulator, energy_follows_the_operating_point) {
  pm::power_spec spec;
  spec.present = true;
  spec.components.push_back(
      test::power_entry("powered", "core", {{"on", 1.0, 0, 0, {}, 0.5}}, {{"op", 2e-9, {}}}));
  pm::power_model model(spec);
  bench b(1, {}, {}, &model);
  b.sched.open = 0;
  block_context pc{b.env.config("gpu.smx[0]", "powered", {}),
                   b.sm(0),
                   b.env.stats,
                   b.env.work,
                   &model,
                   nullptr,
                   &b.env.clocks};
  powered blk("smx0", pc);
  b.run_to(1000);
  blk.pc.record(0, 10);  // at 1 V
  ASSERT_TRUE(b.reg->request(0, pstate_level::lowest));
  b.run_to(2000);
  blk.pc.record(0, 10);  // at 0.55 V
  const double T = double(core_fs) * 1e-15, half = double(core_fs / 2) * 1e-15;
  const double t_switch = 1500 * T + half;  // requested at 1000 T + half, plus 500 T
  const double t_end = 2000 * T + half;
  const double clock_low = 0.55 * 0.55 * double(core_fs) / 1e7;  // V^2 x f/f0
  const double before = 1.0 * t_switch + 0.5 * t_switch + 10 * 2e-9;
  const double after =
      0.55 * (t_end - t_switch) + 0.5 * clock_low * (t_end - t_switch) + 10 * 2e-9 * 0.3025;
  const std::uint64_t now = clock_domain::now_fs();
  EXPECT_NEAR(model.static_joules(now) + model.dynamic_joules(now), before + after, 1e-15);
  EXPECT_NEAR(b.stat("regulator", "sm[0].p0_joules"), before, 1e-15);
  EXPECT_NEAR(b.stat("regulator", "sm[0].p1_joules"), after, 1e-15);
  EXPECT_NEAR(b.reg->idle_watts(0), 0.55 + 0.5 * clock_low, 1e-12);
}

}  // namespace test_dvfs
