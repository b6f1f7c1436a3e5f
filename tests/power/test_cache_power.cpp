// Power accounting of one cache bank inside the simulation: an L1 bank between a traffic
// generator and a fixed-latency memory, with a power table and a gating policy as a
// platform YAML would give them. The residency in each state, the energies and the wake-up
// latency of a hand-built access sequence are worked out by hand here; a DVFS change
// mid-run scales static energy by V/V0 and dynamic energy by (V/V0)^2.
#include "models/memory/l1_cache.h"
#include "models/power/power_model.h"
#include "tests/memory/mem_testbench.h"

namespace test_cache_power {

using namespace gputlm;
using namespace gputlm::test;
using gputlm::memory::l1_cache;

namespace {
constexpr double ns = 1e-9;

// data: ON 100 mW, Sleep 22.8 mW (wake-up 2 cycles); read 40 pJ, write 45 pJ.
// tag: 10 mW, lookup 4 pJ. mshr: 5 mW, allocate 3 pJ.
pm::power_spec table(const std::string& policy, const std::string& granularity = "") {
  pm::power_spec s;
  s.present = true;
  pm::component_spec data =
      power_entry("l1_cache", "data", {{"on", 0.1, 0, 0, {}}, {"sleep", 0.0228, 2, 10, {}}},
                  {{"read", 40e-12, {}}, {"write", 45e-12, {}}});
  if (!granularity.empty()) data.granularity_bytes = *units::parse_bytes(granularity);
  s.components.push_back(data);
  s.components.push_back(
      power_entry("l1_cache", "tag", {{"on", 0.01, 0, 0, {}}}, {{"lookup", 4e-12, {}}}));
  s.components.push_back(
      power_entry("l1_cache", "mshr", {{"on", 0.005, 0, 0, {}}}, {{"allocate", 3e-12, {}}}));
  s.policy.type = policy;
  if (policy == "idle_timeout") {
    s.policy.values["after"].text = "100cycles";
    s.policy.values["state"].text = "sleep";
  }
  return s;
}

struct bench {
  pm::power_model model;
  block_env env;
  clock_domain& clk = env.clock("core", 1e9);  // 1 ns cycles
  std::unique_ptr<l1_cache> l1;
  std::unique_ptr<traffic_generator> tg;
  std::unique_ptr<fixed_memory> mem;
  bench(pm::power_spec spec, std::vector<tg_request> script) : model(std::move(spec)) {
    env.power = &model;
    l1 = env.make<l1_cache>("l1", clk, fermi_l1_params(), "l1_cache");
    tg = std::make_unique<traffic_generator>("tg", clk, std::move(script));
    mem = std::make_unique<fixed_memory>("mem", clk, 50);
    tg->socket.bind(l1->core);
    l1->icnt.bind(mem->socket);
    model.check_table();
  }
  pm::power_component& component(const std::string& key) {
    for (const auto& e : model.entries())
      if (e->key == key) return *e->component;
    throw std::runtime_error("no " + key);
  }
};

tg_request load_at(std::uint64_t addr, std::uint64_t cycle) {
  tg_request r;
  r.addr = addr;
  r.not_before = cycle;
  return r;
}
}  // namespace

TEST(cache_power, a_bank_sleeps_when_idle_and_its_energy_matches_the_hand_count) {
  // A miss at 0 (the fill writes the line when it returns), hits to the same line at 1000
  // and 1050, then nothing until 2000 ns. idle_timeout 100 cycles, the whole bank one element.
  bench b(table("idle_timeout"),
          {load_at(0x1000, 0), load_at(0x1000, 1000), load_at(0x1000, 1050)});
  sc_core::sc_start(2000, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 3u);
  const std::uint64_t fill = b.tg->records[0].responded;  // the fill arrives and is answered
  ASSERT_LT(fill + 100, 1000u);
  EXPECT_EQ(b.tg->latency(1), 35u + 2u);  // the bank slept: wake-up 2 cycles on top of the hit
  EXPECT_EQ(b.tg->latency(2), 35u);       // 50 cycles later it is still ON

  const std::uint64_t now = component::now_fs();
  ASSERT_EQ(now, 2000u * 1000000u);
  b.model.settle(now);
  pm::power_component& data = b.component("l1_cache.data");
  // ON [0, fill+100) and [1000, 1150); Sleep [fill+100, 1000) and [1150, 2000).
  const double on = double(fill + 100 + 150) * ns, sleep = 2000 * ns - on;
  EXPECT_NEAR(data.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(data.residency_seconds(1, now), sleep, 1e-18);
  const double data_static = on * 0.1 + sleep * 0.0228;
  EXPECT_NEAR(data.static_joules(now), data_static, data_static * 1e-12);
  // Two moves from ON into Sleep (at fill+100 and at 1150), each costing its break-even,
  // 10 cycles x 1 ns x (100 - 22.8) mW = 772 pJ: 1.544 nJ.
  const double transitions = 2 * 10 * 1e-9 * (0.1 - 0.0228);
  EXPECT_NEAR(transitions, 1.544e-9, 1e-21);
  EXPECT_NEAR(data.transition_joules(), transitions, 1e-21);
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.data.transition_joules"), transitions, 1e-21);
  // Fill write 45 pJ, two reads 2 x 40 pJ, and the transitions.
  EXPECT_NEAR(data.dynamic_joules(now), 45e-12 + 2 * 40e-12 + transitions, 1e-21);
  EXPECT_NEAR(b.component("l1_cache.tag").dynamic_joules(now), 3 * 4e-12, 1e-24);
  EXPECT_NEAR(b.component("l1_cache.mshr").dynamic_joules(now), 3e-12, 1e-24);
  // The block's statistics report the same figures.
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.data.static_joules"), data_static,
              data_static * 1e-12);
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.data.residency.on"), on / (2000 * ns), 1e-12);
  const double block_static = data_static + 2000 * ns * (0.01 + 0.005);
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.static_joules"), block_static, block_static * 1e-12);
  EXPECT_NEAR(b.model.static_joules(now), block_static, block_static * 1e-12);
  const double block_dynamic = 45e-12 + 2 * 40e-12 + transitions + 3 * 4e-12 + 3e-12;
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.dynamic_joules"), block_dynamic, 1e-21);
  EXPECT_NEAR(stat(b.env.stats, "l1", "power.average_watts"),
              (block_static + block_dynamic) / (2000 * ns), 1e-9);
}

TEST(cache_power, per_32_byte_line_elements_sleep_one_by_one) {
  // Granularity 32 B: 16 KiB = 512 elements of 0.1 W / 512 each. One line (4 elements, the
  // non-sectored fill writes all four) is used at the fill and at 1000; every other element
  // is never used and sleeps from cycle 100.
  bench b(table("idle_timeout", "32B"), {load_at(0x1000, 0), load_at(0x1000, 1000)});
  sc_core::sc_start(2000, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 2u);
  const std::uint64_t fill = b.tg->records[0].responded;
  const std::uint64_t now = component::now_fs();
  b.model.settle(now);
  pm::power_component& data = b.component("l1_cache.data");
  ASSERT_EQ(data.elements(), 512u);
  EXPECT_EQ(data.in_state(1), 512u);
  // The hit reads one 32 B sector (4 B load): element 0 of the line woken at 1000 (ON until
  // 1100); elements 1-3 of the line slept at fill+100 and stay asleep.
  const double used_on = double(fill + 100) * 4 + 100;
  const double on = (used_on + 508 * 100.0) * ns;
  EXPECT_NEAR(data.residency_seconds(0, now), on, 1e-18);
  EXPECT_NEAR(data.residency_seconds(1, now), 512 * 2000 * ns - on, 1e-15);
  EXPECT_EQ(b.tg->latency(1), 35u + 2u);
  // Moves from ON into Sleep: the 508 unused elements at 100, the line's 4 at fill+100, its
  // element 0 again at 1100: 513, each 10 cycles x 1 ns x (100 - 22.8) mW / 512 elements.
  EXPECT_EQ(data.transitions(), 513u);
  EXPECT_NEAR(data.transition_joules(), 513 * 10 * 1e-9 * (0.1 - 0.0228) / 512, 1e-21);
}

TEST(cache_power, a_dvfs_change_scales_static_by_v_and_dynamic_by_v_squared) {
  // Always ON. At 500 ns the clock drops to 500 MHz and 0.8 V (V0 = 1 V): a miss at 0 (fill
  // at ~50 ns, 1 V), then a hit after the change (0.8 V): the generator, answered at 50 ns,
  // waits 550 cycles as counted at 1 GHz, so it issues at 600 ns, cycle 500 + 100 / 2 = 550.
  bench b(table("always_on"), {load_at(0x1000, 0), load_at(0x1000, 600)});
  struct dvfs : sc_core::sc_module {
    SC_HAS_PROCESS(dvfs);
    clock_domain& c;
    dvfs(sc_core::sc_module_name n, clock_domain& clk) : sc_module(n), c(clk) { SC_THREAD(run); }
    void run() {
      wait(500, sc_core::SC_NS);
      c.set_operating_point(500e6, 0.8);
    }
  } d("dvfs", b.clk);
  sc_core::sc_start(1000, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 2u);
  EXPECT_EQ(b.tg->records[1].issued, 550u);
  const std::uint64_t now = component::now_fs();
  const double v = 0.8;
  const double watts = 0.1 + 0.01 + 0.005;
  const double expected_static = watts * (500 * ns * 1.0 + 500 * ns * v);
  EXPECT_NEAR(b.model.static_joules(now), expected_static, expected_static * 1e-12);
  // Dynamic: fill write 45 pJ, lookup 4 pJ and allocate 3 pJ at 1 V; the hit's read 40 pJ
  // and lookup 4 pJ at 0.8 V.
  const double expected_dynamic = 45e-12 + 4e-12 + 3e-12 + (40e-12 + 4e-12) * v * v;
  EXPECT_NEAR(b.model.dynamic_joules(now), expected_dynamic, 1e-24);
}

TEST(cache_power, a_write_that_evicts_or_goes_around_does_not_use_the_data_array) {
  // The L1 evicts on a global store (write_policy local_wb_global_evict) and sends it on:
  // a tag lookup, no data-array write. A load miss then fills the line: one data write.
  tg_request st = load_at(0x2000, 0);
  st.kind = access_kind::global_store;
  bench b(table("always_on"), {st, load_at(0x1000, 200)});
  sc_core::sc_start(1000, sc_core::SC_NS);
  ASSERT_EQ(b.tg->completed, 2u);
  pm::power_component& data = b.component("l1_cache.data");
  EXPECT_EQ(data.event_count(0), 0u);  // reads
  EXPECT_EQ(data.event_count(1), 1u);  // writes: the fill only
  EXPECT_EQ(b.component("l1_cache.tag").event_count(0), 2u);
}

}  // namespace test_cache_power
