// Snooze's tri-modal switch controller on one L1 bank between a traffic generator and a
// fixed-latency memory (1 GHz: cycles are ns), with Table 5.2's states (ON; Sleep 22.8 %,
// wake-up 2 cycles; OFF 1.5 %, wake-up 2 cycles) and a scripted sequence of requests,
// fills, reservation fails and a kernel-end switch-off. The mode sequence, the residency per
// state, the wake-up delays and the lines lost are worked out by hand in each test from the
// FSM of the thesis's §5.2.2 (docs/power.md, "Snooze").
#include "models/memory/l1_cache.h"
#include "models/memory/l2_cache.h"
#include "models/power/power_model.h"
#include "models/power/tri_modal_switch_controller.h"
#include "tests/memory/mem_testbench.h"

namespace test_snooze {

using namespace gputlm;
using namespace gputlm::test;
using gputlm::memory::l1_cache;
using gputlm::memory::l2_cache;

namespace {
constexpr double ns = 1e-9;

// Table 5.2 on a 100 mW data array: Sleep 22.8 mW, OFF 1.5 mW, wake-up 2 cycles each;
// break-even 10 cycles for Sleep (the transition energy). `policy`: snooze_bank or
// snooze_block (a switch controller beside the cache, at that granularity) or always_on.
pm::power_spec table(const std::string& policy, const std::string& granularity = "") {
  pm::power_spec s;
  s.present = true;
  pm::component_spec data =
      power_entry("l1_cache", "data",
                  {{"on", 0.1, 0, 0, {}}, {"sleep", 0.0228, 2, 10, {}}, {"off", 0.0015, 2, 0, {}}},
                  {{"read", 40e-12, {}}, {"write", 45e-12, {}}});
  if (!granularity.empty()) data.granularity_bytes = *units::parse_bytes(granularity);
  s.components.push_back(data);
  s.components.push_back(
      power_entry("l1_cache", "tag", {{"on", 0.01, 0, 0, {}}}, {{"lookup", 4e-12, {}}}));
  s.policy.type = "always_on";
  s.source = policy;  // (read back by the benches: which controller, if any)
  return s;
}

// The controller beside `cache` as the platform binds it (yaml/mechanisms/snooze-l1.yaml):
// the cache's events to it, it to the cache's data array; then it takes the array over.
template <class Cache>
std::unique_ptr<pm::tri_modal_switch_controller> snooze_beside(
    block_env& env, clock_domain& clk, Cache& cache, const std::string& policy,
    bool off_when_gpu_idle, std::map<std::string, std::string> params = {}) {
  if (policy.rfind("snooze_", 0) != 0) return nullptr;
  params["granularity"] = policy.substr(7);
  params["off_when_gpu_idle"] = off_when_gpu_idle ? "true" : "false";
  auto ctrl = env.make<pm::tri_modal_switch_controller>("switch", clk, std::move(params),
                                                        "tri_modal_switch_controller");
  cache.events.connect(*ctrl);
  ctrl->array.connect(dynamic_cast<memory::switched_array&>(*cache.array.get_interface()));
  ctrl->validate_bound();
  return ctrl;
}

struct bench {
  pm::power_model model;
  block_env env;
  clock_domain& clk = env.clock("core", 1e9);  // 1 ns cycles
  std::unique_ptr<l1_cache> l1;
  std::unique_ptr<pm::tri_modal_switch_controller> ctrl;
  std::unique_ptr<traffic_generator> tg;
  std::unique_ptr<fixed_memory> mem;
  bench(pm::power_spec spec, std::vector<tg_request> script,
        std::map<std::string, std::string> params = {},
        std::map<std::string, std::string> switch_params = {})
      : model(spec) {
    env.power = &model;
    l1 = env.make<l1_cache>("l1", clk, fermi_l1_params(std::move(params)), "l1_cache");
    ctrl = snooze_beside(env, clk, *l1, spec.source, false, std::move(switch_params));
    tg = std::make_unique<traffic_generator>("tg", clk, std::move(script));
    mem = std::make_unique<fixed_memory>("mem", clk, 50);
    tg->socket.bind(l1->core);
    l1->icnt.bind(mem->socket);
    model.check_table();
  }
  pm::power_component& data() {
    for (const auto& e : model.entries())
      if (e->key == "l1_cache.data") return *e->component;
    throw std::runtime_error("no data");
  }
  // The L1's statistics, or its controller's (`switch.<name>`).
  double s(const std::string& name) {
    if (name.rfind("switch.", 0) == 0) return stat(env.stats, "switch", name.substr(7));
    return stat(env.stats, "l1", name);
  }
  // Runs to `end_ns` and settles; returns now (fs).
  std::uint64_t run(std::uint64_t end_ns) {
    sc_core::sc_start(double(end_ns), sc_core::SC_NS);
    const std::uint64_t now = component::now_fs();
    model.settle(now);
    return now;
  }
};

tg_request at(std::uint64_t addr, std::uint64_t cycle, access_kind k = access_kind::global_load) {
  tg_request r;
  r.addr = addr;
  r.not_before = cycle;
  r.kind = k;
  return r;
}
}  // namespace

TEST(snooze, bank_granularity_mode_sequence_residency_and_wake_delays) {
  // The whole array one element. A: miss at 10 (fill back at 60); B: hit at 1000; C: hit at
  // 1001, inside the lookahead. Hand-worked FSM:
  //   OFF [0,10) -> ON at 10 (A arrives; its lookup uses cycle 10) -> idle from 11; the fill
  //   at 60 finds it idle 49 > 2 cycles: Sleep [11,60), ON [60,61) -> Sleep [61,1000) ->
  //   ON at 1000 (B arrives, waits the 2-cycle wake-up: 35 + 2) -> idle from 1001; C at 1001
  //   (0 cycles later) keeps it ON, and waits the wake-up's last cycle (35 + 1, ready at
  //   1037 with B's answer: one answer per cycle, so 1038) -> idle from 1002 -> Sleep
  //   [1002, 2000).
  bench b(table("snooze_bank"), {at(0x1000, 10), at(0x1000, 1000), at(0x1000, 1001)});
  const std::uint64_t now = b.run(2000);
  ASSERT_EQ(b.tg->completed, 3u);
  EXPECT_EQ(b.tg->latency(0), 50u);  // the fill is not delayed
  EXPECT_EQ(b.tg->latency(1), 35u + 2u);
  EXPECT_EQ(b.tg->latency(2), 35u + 1u + 1u);
  pm::power_component& d = b.data();
  const double on = (1 + 1 + 2) * ns, off = 10 * ns, sleep = 2000 * ns - on - off;
  EXPECT_NEAR(d.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(d.residency_seconds(1, now), sleep, 1e-18);
  EXPECT_NEAR(d.residency_seconds(2, now), off, 1e-18);
  EXPECT_EQ(b.s("switch.wakes"), 3);
  EXPECT_EQ(b.s("switch.sleeps"), 3);
  EXPECT_EQ(b.s("switch.wake_wait_cycles"), 2 + 1);
  // Three moves from ON into Sleep, 10 cycles x 1 ns x (100 - 22.8) mW each; none into
  // OFF (the array starts there).
  EXPECT_NEAR(d.transition_joules(), 3 * 10 * 1e-9 * (0.1 - 0.0228), 1e-21);
  const double static_j = on * 0.1 + sleep * 0.0228 + off * 0.0015;
  EXPECT_NEAR(d.static_joules(now), static_j, static_j * 1e-12);
}

TEST(snooze, seeing_queued_requests_only_a_bank_sleeps_in_a_gap_the_oracle_would_bridge) {
  // `sees: queued`, lookahead 2. A: miss at 10 (fill at 60); B: hit at 1000; C: hit at
  // 1002. As in the oracle's sequence up to B: OFF [0,10), ON [10,11), Sleep [11,60) (the
  // fill was not queued at 11), ON [60,61), Sleep [61,1000), ON at 1000 (B waits the 2-cycle
  // wake-up: 35 + 2), idle from 1001. C enters the input at 1002: nothing was queued when
  // the idleness began at 1001, so the bank slept [1001,1002) although C comes within the
  // lookahead; it wakes as C arrives and C waits the whole wake-up (35 + 2). Idle from 1003:
  // Sleep [1003,2000). ON 4 cycles, OFF 10, Sleep the rest; four wakes and four sleeps.
  bench b(table("snooze_bank"), {at(0x1000, 10), at(0x1000, 1000), at(0x1000, 1002)}, {},
          {{"sees", "queued"}});
  const std::uint64_t now = b.run(2000);
  ASSERT_EQ(b.tg->completed, 3u);
  EXPECT_EQ(b.tg->latency(0), 50u);
  EXPECT_EQ(b.tg->latency(1), 35u + 2u);
  EXPECT_EQ(b.tg->latency(2), 35u + 2u);
  pm::power_component& d = b.data();
  const double on = 4 * ns, off = 10 * ns, sleep = 2000 * ns - on - off;
  EXPECT_NEAR(d.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(d.residency_seconds(1, now), sleep, 1e-18);
  EXPECT_NEAR(d.residency_seconds(2, now), off, 1e-18);
  EXPECT_EQ(b.s("switch.wakes"), 4);
  EXPECT_EQ(b.s("switch.sleeps"), 4);
  EXPECT_EQ(b.s("switch.wake_wait_cycles"), 2 + 2);
}

TEST(snooze, the_oracle_lookahead_bridges_the_gap_and_wake_latency_overrides_the_table) {
  // The same requests with `sees: all` (the default) and a 5-cycle wake-up: B waits 5
  // (35 + 5, the bank ready at 1005); C at 1002 is within the 2-cycle lookahead of the
  // idleness that began at 1001, so the bank stays ON and C waits what is left of B's
  // wake-up, 3 cycles: ready at 1040 with B's answer, answered in the next cycle (one answer
  // per cycle), 35 + 3 + 1. ON [10,11), [60,61), [1000,1003): 5 cycles; three wakes, three
  // sleeps.
  bench b(table("snooze_bank"), {at(0x1000, 10), at(0x1000, 1000), at(0x1000, 1002)}, {},
          {{"wake_latency", "5cycles"}});
  const std::uint64_t now = b.run(2000);
  ASSERT_EQ(b.tg->completed, 3u);
  EXPECT_EQ(b.tg->latency(1), 35u + 5u);
  EXPECT_EQ(b.tg->latency(2), 35u + 3u + 1u);
  pm::power_component& d = b.data();
  EXPECT_NEAR(d.residency_seconds(0, now), 5 * ns, 1e-18);
  EXPECT_NEAR(d.residency_seconds(2, now), 10 * ns, 1e-18);
  EXPECT_EQ(b.s("switch.wakes"), 3);
  EXPECT_EQ(b.s("switch.sleeps"), 3);
  EXPECT_EQ(b.s("switch.wake_wait_cycles"), 5 + 3);
}

TEST(snooze, a_reservation_fail_lets_the_array_sleep_until_its_set_fills) {
  // One MSHR entry. A: miss at 10 (set 0, fill at 60). B: a miss to set 1 at 11 fails its
  // reservation (MSHR full): set 1 enters the reservation queue and the array is idle from
  // 12 (its failed lookup used cycle 11). The fill at 60 wakes it (Sleep [12,60)) and frees
  // the entry: B is looked up again in the next cycle, 61, and sent; its fill at 111 erases
  // set 1.
  bench b(table("snooze_bank"), {at(0x1000, 10), at(0x1080, 11)}, {{"mshr_entries", "1"}});
  const std::uint64_t now = b.run(500);
  ASSERT_EQ(b.tg->completed, 2u);
  EXPECT_EQ(b.tg->records[1].accepted, 61u);
  EXPECT_EQ(b.tg->records[1].responded, 111u);
  EXPECT_EQ(b.l1->logic().tags().size(), 128u);
  EXPECT_EQ(b.s("switch.resq_full"), 0);
  EXPECT_EQ(b.s("switch.resq_inserts"), 1);
  EXPECT_EQ(b.s("reservation_fails.mshr_full"), 1);
  // ON [10,12) (A's lookup, then B's failed one), Sleep [12,60), ON [60,62) (the fill, then
  // B's lookup), Sleep [62,111), ON [111,112) (B's fill), Sleep [112,500); OFF [0,10).
  pm::power_component& d = b.data();
  const double on = (2 + 2 + 1) * ns, off = 10 * ns;
  EXPECT_NEAR(d.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(d.residency_seconds(2, now), off, 1e-18);
  EXPECT_EQ(b.s("switch.sleeps"), 3);
}

TEST(snooze, block_granularity_switches_only_the_accessed_block) {
  // 32 B switched lines, non-sectored 128 B blocks: 512 elements in 128 groups of 4. A: miss
  // at 10 whose fill at 60 writes the block (OFF [0,60) -> ON [60,61) -> Sleep); B: hit at
  // 1000 wakes it (35 + 2) -> ON [1000,1001) -> Sleep to 2000. The other 127 blocks stay OFF.
  bench b(table("snooze_block", "32B"), {at(0x1000, 10), at(0x1000, 1000)});
  const std::uint64_t now = b.run(2000);
  ASSERT_EQ(b.tg->completed, 2u);
  EXPECT_EQ(b.tg->latency(1), 35u + 2u);
  pm::power_component& d = b.data();
  ASSERT_EQ(d.elements(), 512u);
  const double on = 4 * 2 * ns, off = (508 * 2000 + 4 * 60) * ns;
  EXPECT_NEAR(d.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(d.residency_seconds(2, now), off, 1e-15);
  EXPECT_NEAR(d.residency_seconds(1, now), 512 * 2000 * ns - on - off, 1e-15);
  EXPECT_EQ(b.s("switch.wakes"), 2);   // the block: from OFF at 60, from Sleep at 1000
  EXPECT_EQ(b.s("switch.sleeps"), 2);  // at 61 and 1001
  EXPECT_EQ(d.in_state(2), 508u);
}

TEST(snooze, switch_off_loses_clean_lines_and_keeps_dirty_ones_asleep) {
  // Block granularity, no kernel-end invalidation of its own: the switch-off decides. A
  // clean line (0x1000, global load) and a dirty one (0x3000: local load, then a local
  // store, written back later) are in the L1 when the kernel-end flush comes at 500. The
  // clean block goes OFF and its line is lost: the load at 1000 misses (50 cycles). The
  // dirty block sleeps with its line: the local load at 1100 hits after the wake-up (35 + 2).
  bench b(table("snooze_block", "32B"),
          {at(0x1000, 10), at(0x3000, 100, access_kind::local_load),
           at(0x3000, 200, access_kind::local_store), at(0, 500, access_kind::flush),
           at(0x1000, 1000), at(0x3000, 1100, access_kind::local_load)},
          {{"flush_at_kernel_end", "false"}});
  b.run(2000);
  ASSERT_EQ(b.tg->completed, 6u);
  EXPECT_EQ(b.s("switch.lines_lost"), 1);
  EXPECT_EQ(b.s("switch.dirty_kept"), 1);
  EXPECT_EQ(b.tg->latency(4), 50u);       // lost: a miss
  EXPECT_EQ(b.tg->latency(5), 35u + 2u);  // kept asleep: a hit after the wake-up
}

TEST(snooze, a_table_without_sleep_and_off_is_an_input_error_at_the_controller) {
  pm::power_spec s = table("snooze_bank");
  s.components[0].states.pop_back();  // no OFF
  try {
    bench b(s, {});
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "switch.off_state: the data array this controller switches (l1.data) has "
                  "no state 'off' (not the first) in the platform's power table"),
              std::string::npos)
        << e.what();
  }
}

TEST(snooze, with_always_on_nothing_switches) {
  bench b(table("always_on"), {at(0x1000, 10), at(0x1000, 1000)});
  const std::uint64_t now = b.run(2000);
  EXPECT_EQ(b.tg->latency(1), 35u);
  EXPECT_NEAR(b.data().residency_seconds(0, now), 2000 * ns, 1e-18);
  EXPECT_THROW(b.s("switch.wakes"), std::exception);
}

namespace {
// One L2 bank (sectored 64 KiB, 64 sets x 8 ways of 128 B, write-back, ROP 10 cycles)
// between a traffic generator (the interconnect) and a fixed-latency memory (DRAM, 50
// cycles), block granularity over 32-byte lines: each sector its own group, 2048 groups.
struct l2_bench {
  pm::power_model model;
  block_env env;
  clock_domain& clk = env.clock("l2", 1e9);
  std::unique_ptr<l2_cache> l2;
  std::unique_ptr<pm::tri_modal_switch_controller> ctrl;
  std::unique_ptr<traffic_generator> tg;
  std::unique_ptr<fixed_memory> mem;
  explicit l2_bench(std::vector<tg_request> script, const std::string& policy = "snooze_block")
      : model(spec()) {
    env.power = &model;
    l2 = env.make<l2_cache>("l2", clk, test_l2_params(), "l2_cache");
    ctrl = snooze_beside(env, clk, *l2, policy, true);
    tg = std::make_unique<traffic_generator>("tg", clk, std::move(script));
    mem = std::make_unique<fixed_memory>("mem", clk, 50);
    tg->socket.bind(l2->icnt);
    l2->dram.bind(mem->socket);
    model.check_table();
  }
  static pm::power_spec spec() {
    pm::power_spec s = table("always_on", "32B");
    for (auto& c : s.components) c.block_type = "l2_cache";
    return s;
  }
  double s(const std::string& name) {
    if (name.rfind("switch.", 0) == 0) return stat(env.stats, "switch", name.substr(7));
    return stat(env.stats, "l2", name);
  }
};
}  // namespace

TEST(snooze, the_l2_switches_off_when_the_last_kernel_exits) {
  // A: a load of sector 0 of 0x1000 at 10 (a miss; its fill wakes that one sector from OFF).
  // B: a store to 0x2000 at 200: write-back with lazy fetch, the sector is written and dirty.
  // At 500 the GPU has no kernel left: every group OFF, A's clean line is lost, B's dirty
  // sector sleeps with its data. C: the load of 0x1000 at 600 misses again (its latency is
  // A's); D: the load of 0x2000 at 800 hits its sleeping sector, after the 2-cycle wake-up;
  // E: the same load at 801, inside the lookahead, waits only the wake-up's last cycle.
  tg_request st = at(0x2000, 200, access_kind::global_store);
  l2_bench b({at(0x1000, 10), st, at(0x1000, 600), at(0x2000, 800), at(0x2000, 801)});
  struct exit_at : sc_core::sc_module {
    SC_HAS_PROCESS(exit_at);
    pm::power_model& m;
    exit_at(sc_core::sc_module_name n, pm::power_model& pm) : sc_module(n), m(pm) {
      SC_THREAD(run);
    }
    void run() {
      wait(500, sc_core::SC_NS);
      m.gpu_idle(component::now_fs());
    }
  } idle("idle", b.model);
  sc_core::sc_start(2000, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 5u);
  EXPECT_EQ(b.s("switch.lines_lost"), 1);
  EXPECT_EQ(b.s("switch.dirty_kept"), 1);
  EXPECT_EQ(b.s("line_misses"), 2) << "A and C miss";
  EXPECT_EQ(b.tg->latency(2), b.tg->latency(0));
  // ROP delay, a cycle into the icnt->L2 queue, then memory; the fill is not delayed.
  EXPECT_EQ(b.tg->latency(0), 10u + 1u + 50u);
  // A hit is answered after the ROP delay and the move into the queue; D waits the 2-cycle
  // wake-up on top. E, looked up a cycle later, waits the wake-up's last cycle: ready with
  // D's answer at 813, and answered in the next cycle (one 32 B answer per cycle through
  // the data port).
  EXPECT_EQ(b.tg->latency(3), 10u + 1u + 2u);
  EXPECT_EQ(b.tg->records[4].responded, 814u);
  const pm::power_component* d = nullptr;
  for (const auto& e : b.model.entries())
    if (e->key == "l2_cache.data") d = e->component.get();
  ASSERT_NE(d, nullptr);
  b.model.settle(component::now_fs());
  EXPECT_EQ(d->elements(), 2048u);
  // All OFF but B's sector and the one C's fill wrote, both asleep at the end.
  EXPECT_EQ(d->in_state(2), 2046u);
  EXPECT_EQ(d->in_state(1), 2u);
}

TEST(snooze, the_l2_bank_wakes_ahead_of_a_request_leaving_the_rop_pipeline) {
  // Bank granularity. A request is seen in the ROP pipeline (10 cycles), so the bank wakes
  // 2 cycles before the request reaches its input queue and the wake-up is hidden. A: load
  // at 10, in the queue at 20 and looked up at 21: ON from 18 (OFF [0,18)), a miss, idle
  // from 22; its fill at 71 (50 cycles of memory) finds the bank idle 49 cycles: Sleep
  // [22,71), ON [71,72). B: load of the same sector at 200, in the queue at 210: Sleep
  // [72,208), ON [208,212), answered after the ROP delay and the move into the queue (11
  // cycles); then Sleep [212,500).
  l2_bench b({at(0x1000, 10), at(0x1000, 200)}, "snooze_bank");
  sc_core::sc_start(500, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 2u);
  EXPECT_EQ(b.tg->latency(0), 10u + 1u + 50u);
  EXPECT_EQ(b.tg->latency(1), 10u + 1u);  // the wake-up hidden behind the ROP delay
  const std::uint64_t now = component::now_fs();
  b.model.settle(now);
  const pm::power_component* d = nullptr;
  for (const auto& e : b.model.entries())
    if (e->key == "l2_cache.data") d = e->component.get();
  ASSERT_NE(d, nullptr);
  EXPECT_NEAR(d->residency_seconds(0, now), 2048 * 9 * ns, 1e-15);
  EXPECT_NEAR(d->residency_seconds(2, now), 2048 * 18 * ns, 1e-15);
  EXPECT_NEAR(d->residency_seconds(1, now), 2048 * 473 * ns, 1e-15);
  EXPECT_EQ(b.s("switch.wakes"), 3);
  EXPECT_EQ(b.s("switch.sleeps"), 3);
  EXPECT_EQ(b.s("switch.wake_wait_cycles"), 0);
}

}  // namespace test_snooze
