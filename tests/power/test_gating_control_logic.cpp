// μC-States' Gating Control Unit's decisions (models/power/gating_control_logic.h; Kayiran
// et al., PACT 2016, §4, Algorithm 1), worked by hand: the Utilization Law on counted busy
// cycles, Little's law on a known load pattern, the phase order and each component's
// re-decision every third interval, and the front end's rule.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/power/gating_control_logic.h"

namespace test_gating_control_logic {

using namespace gputlm::pm;
using C = uc_component;

namespace {
// A big core's widths (seed 002 §2.1): 2 x 32 SP lanes, 2 x 4 SFU lanes, 2 x 16 LD/ST
// lanes, 4 schedulers, fetch/decode 4 a cycle; registers and collectors 2 slots (2 groups).
uc_interval interval(std::uint64_t cycles = 2048) {
  uc_interval iv;
  iv.cycles = cycles;
  iv.width.fill(2);
  iv.width[std::size_t(C::ex_sp)] = 64;
  iv.width[std::size_t(C::ex_sfu)] = 8;
  iv.width[std::size_t(C::ex_ldst)] = 32;
  iv.width[std::size_t(C::sch)] = 4;
  iv.width[std::size_t(C::ifid)] = 4;
  return iv;
}
void busy(uc_interval& iv, C c, double v) { iv.busy[std::size_t(c)] = v; }
bool has(const std::vector<C>& v, C c) { return std::find(v.begin(), v.end(), c) != v.end(); }
}  // namespace

// 300 full-warp SP instructions in 2,048 cycles on 2 x 32 lanes: 300 x 32 = 9,600 busy
// lane-cycles of 64 x 2,048 = 131,072, U = 0.073 < 0.15: tuned down. 1,000 of them:
// 32,000 / 131,072 = 0.244: tuned up again three intervals later.
TEST(gating_control_logic, the_utilization_law_tunes_ex_sp_down_at_300_and_up_at_1000) {
  gating_control_logic g({});
  std::vector<C> changed;
  uc_interval iv = interval();
  busy(iv, C::ex_sp, 300 * 32);
  busy(iv, C::ex_sfu, 0.5 * 8 * 2048);  // U = 0.5: stays up
  EXPECT_NEAR(iv.utilization(C::ex_sp), 9600.0 / 131072.0, 1e-12);
  g.decide(iv, changed);
  EXPECT_TRUE(g.tuned_down(C::ex_sp));
  EXPECT_FALSE(g.tuned_down(C::ex_sfu));
  EXPECT_EQ(changed, std::vector<C>{C::ex_sp});
  g.decide(interval(), changed);  // phase 2
  g.decide(interval(), changed);  // phase 3
  changed.clear();
  busy(iv, C::ex_sp, 1000 * 32);
  EXPECT_NEAR(iv.utilization(C::ex_sp), 32000.0 / 131072.0, 1e-12);
  g.decide(iv, changed);  // phase 1 again
  EXPECT_FALSE(g.tuned_down(C::ex_sp));
  EXPECT_EQ(changed, std::vector<C>{C::ex_sp});
  EXPECT_EQ(g.tune_downs(C::ex_sp), 1u);
}

// Four warps wait on loads from cycle 0, two of them until 100, the other two until 300:
// J x T = 4 x 100 + 2 x 200 = 800 warp-cycles; 4 loads entered EX_LDST, so W = J / λ =
// 800 / 4 = 200 cycles > 100: EX_LDST is tuned down (the memory system is the bottleneck).
// With no load (λ = 0) W is 0 and it is tuned up; at W = 100 exactly it stays up.
TEST(gating_control_logic, littles_law_tunes_ex_ldst_by_response_time) {
  job_integral j;
  j.set(0, 4);
  j.set(100, 2);
  j.set(300, 0);
  uc_interval iv = interval();
  iv.job_cycles = j.take(2048);
  EXPECT_DOUBLE_EQ(iv.job_cycles, 800.0);
  iv.arrivals = 4;
  EXPECT_DOUBLE_EQ(iv.response_time(), 200.0);
  busy(iv, C::ex_sp, 64 * 2048);
  busy(iv, C::ex_sfu, 8 * 2048);
  gating_control_logic g({});
  std::vector<C> changed;
  g.decide(iv, changed);
  EXPECT_TRUE(g.tuned_down(C::ex_ldst));
  EXPECT_EQ(changed, std::vector<C>{C::ex_ldst});
  EXPECT_DOUBLE_EQ(j.take(4096), 0.0);  // nobody waited in the next interval
  uc_interval none = iv;
  none.job_cycles = 0;
  none.arrivals = 0;
  EXPECT_DOUBLE_EQ(none.response_time(), 0.0);
  g.decide(interval(), changed);
  g.decide(interval(), changed);
  g.decide(none, changed);
  EXPECT_FALSE(g.tuned_down(C::ex_ldst));
  uc_interval at = iv;
  at.job_cycles = 400;  // W = 400 / 4 = 100: not above th_RT
  g.decide(interval(), changed);
  g.decide(interval(), changed);
  g.decide(at, changed);
  EXPECT_FALSE(g.tuned_down(C::ex_ldst));
}

// The phases run in order 1, 2, 3, 1, ...: an interval whose counters would tune
// everything down changes only the current phase's components, so each component is
// decided once every three intervals (3 x 2,048 = 6,144 cycles).
TEST(gating_control_logic, phases_run_in_order_and_each_component_every_third_interval) {
  uc_interval iv = interval();
  // Every execution unit lightly used (U = 0.1), everything else idle, the memory slow.
  busy(iv, C::ex_sp, 0.1 * 64 * 2048);
  busy(iv, C::ex_sfu, 0.1 * 8 * 2048);
  busy(iv, C::ex_ldst, 0.1 * 32 * 2048);
  iv.sch_busy = {0, 0, 0};
  busy(iv, C::sch, 0.05 * 4 * 2048);
  iv.job_cycles = 500;
  iv.arrivals = 2;  // W = 250
  gating_control_logic g({});
  std::vector<std::vector<C>> per;
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(g.phase(), k % 3 + 1);
    std::vector<C> changed;
    g.decide(iv, changed);
    per.push_back(changed);
  }
  EXPECT_EQ(per[0], (std::vector<C>{C::ex_sp, C::ex_sfu, C::ex_ldst}));
  ASSERT_EQ(per[1].size(), 9u);  // OCEX, OC, IDOC of SP, SFU, LDST
  for (C c : {C::ocex_sp, C::oc_sp, C::idoc_sp, C::ocex_sfu, C::oc_sfu, C::idoc_sfu, C::ocex_ldst,
              C::oc_ldst, C::idoc_ldst})
    EXPECT_TRUE(has(per[1], c)) << to_string(c);
  EXPECT_EQ(per[2], (std::vector<C>{C::sch, C::ifid}));
  for (int k = 3; k < 6; ++k) EXPECT_TRUE(per[k].empty()) << k;  // decided again: no change
  for (std::size_t c = 0; c < uc_components; ++c) {
    EXPECT_TRUE(g.tuned_down(C(c))) << to_string(C(c));
    EXPECT_EQ(g.tune_downs(C(c)), 1u) << to_string(C(c));
  }
}

// Phase 2: a pipeline's register or collector goes down while its utilization is below its
// execution units' (ratio < 1, §4): SP's collectors at 0.2 against the SP units' 0.4 go down,
// its issue-to-collector registers at 0.4 (ratio 1) stay up; the SFU pipeline, unused in
// the interval (0 of 0), is nobody's bottleneck and goes down.
TEST(gating_control_logic, phase_2_tunes_a_pipeline_stage_below_its_execution_units) {
  uc_interval iv = interval();
  busy(iv, C::ex_sp, 0.4 * 64 * 2048);
  busy(iv, C::oc_sp, 0.2 * 2 * 2048);
  busy(iv, C::idoc_sp, 0.4 * 2 * 2048);
  busy(iv, C::ocex_sp, 0.5 * 2 * 2048);
  busy(iv, C::ex_ldst, 0.25 * 32 * 2048);
  busy(iv, C::oc_ldst, 0.25 * 2 * 2048);
  gating_control_logic g({});
  std::vector<C> changed;
  g.decide(iv, changed);  // phase 1
  g.decide(iv, changed);  // phase 2
  EXPECT_TRUE(g.tuned_down(C::oc_sp));
  EXPECT_FALSE(g.tuned_down(C::idoc_sp));
  EXPECT_FALSE(g.tuned_down(C::ocex_sp));
  EXPECT_FALSE(g.tuned_down(C::oc_ldst));   // 0.25 of 0.25
  EXPECT_TRUE(g.tuned_down(C::idoc_ldst));  // 0 of 0.25
  for (C c : {C::idoc_sfu, C::oc_sfu, C::ocex_sfu}) EXPECT_TRUE(g.tuned_down(c)) << to_string(c);
}

// Phase 3: the schedulers go down when their utilization is below 2 x 0.15 = 0.30 and their
// issues to every pipeline are below its execution units' utilization; fetch/decode then
// goes down when less utilized than the schedulers. Otherwise both up.
TEST(gating_control_logic, the_front_end_follows_the_schedulers_rule) {
  auto front_end = [](double sch, std::array<double, 3> sch_k, double ifid) {
    uc_interval iv = interval();
    busy(iv, C::ex_sp, 0.4 * 64 * 2048);
    busy(iv, C::ex_sfu, 0.2 * 8 * 2048);
    busy(iv, C::ex_ldst, 0.3 * 32 * 2048);
    busy(iv, C::sch, sch * 4 * 2048);
    for (std::size_t k = 0; k < 3; ++k) iv.sch_busy[k] = sch_k[k] * 4 * 2048;
    busy(iv, C::ifid, ifid * 4 * 2048);
    gating_control_logic g({});
    std::vector<C> changed;
    g.decide(iv, changed);
    g.decide(iv, changed);
    g.decide(iv, changed);  // phase 3
    return std::make_pair(g.tuned_down(C::sch), g.tuned_down(C::ifid));
  };
  EXPECT_EQ(front_end(0.25, {0.1, 0.05, 0.1}, 0.2), std::make_pair(true, true));
  EXPECT_EQ(front_end(0.25, {0.1, 0.05, 0.1}, 0.25), std::make_pair(true, false));  // IFID = SCH
  EXPECT_EQ(front_end(0.30, {0.1, 0.05, 0.1}, 0.2), std::make_pair(false, false));  // not < 0.30
  EXPECT_EQ(front_end(0.25, {0.1, 0.25, 0.1}, 0.2),
            std::make_pair(false, false));  // SFU 0.25 > 0.2
}

TEST(gating_control_logic, an_unused_pipeline_does_not_hold_the_schedulers_up) {
  // No SFU instruction in the interval: the schedulers' SFU issues (0) are not higher than
  // the SFU units' utilization (0). SP: issues 0.125 of the schedulers' width, the same
  // share of the SP lanes (not higher, §4: "if SCH utilization is higher for at least one
  // of the instruction types, SCH is considered to be the bottleneck"); LD/ST 0.0625
  // against 0.25.
  uc_interval iv = interval();
  busy(iv, C::ex_sp, 0.125 * 64 * 2048);
  busy(iv, C::ex_ldst, 0.25 * 32 * 2048);
  busy(iv, C::sch, 0.1875 * 4 * 2048);
  iv.sch_busy = {0.125 * 4 * 2048, 0, 0.0625 * 4 * 2048};
  busy(iv, C::ifid, 0.125 * 4 * 2048);
  gating_control_logic g({});
  std::vector<C> changed;
  for (int phase = 1; phase <= 3; ++phase) g.decide(iv, changed);
  EXPECT_TRUE(g.tuned_down(C::sch));
  EXPECT_TRUE(g.tuned_down(C::ifid));  // 0.125 < 0.1875
}

}  // namespace test_gating_control_logic

namespace test_gating_control_logic {

// uc_pipe_of inverts uc_stage: by the enum's order (Fig. 3), OC_SFU is the SFU pipeline's
// collectors and OCEX_LDST the LD/ST pipeline's registers; fetch/decode, the schedulers and
// a component of another kind belong to no pipeline of the kind asked.
TEST(gating_control_logic, uc_pipe_of_inverts_uc_stage) {
  using gputlm::pm::uc_component;
  using gputlm::pm::uc_pipe_of;
  EXPECT_EQ(uc_pipe_of(uc_component::oc_sfu, uc_component::oc_sp), 1);
  EXPECT_EQ(uc_pipe_of(uc_component::ocex_ldst, uc_component::ocex_sp), 2);
  EXPECT_EQ(uc_pipe_of(uc_component::idoc_sp, uc_component::idoc_sp), 0);
  EXPECT_EQ(uc_pipe_of(uc_component::ex_sfu, uc_component::oc_sp), -1);
  EXPECT_EQ(uc_pipe_of(uc_component::sch, uc_component::ex_sp), -1);
  EXPECT_EQ(uc_pipe_of(uc_component::ifid, uc_component::idoc_sp), -1);
  for (std::size_t c = 0; c < gputlm::pm::uc_components; ++c)
    for (uc_component kind :
         {uc_component::idoc_sp, uc_component::oc_sp, uc_component::ocex_sp, uc_component::ex_sp}) {
      const int k = uc_pipe_of(uc_component(c), kind);
      if (k >= 0) {
        EXPECT_EQ(gputlm::pm::uc_stage(kind, gputlm::pm::uc_pipe(k)), uc_component(c));
      }
    }
}

}  // namespace test_gating_control_logic
