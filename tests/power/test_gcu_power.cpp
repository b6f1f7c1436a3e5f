// μC-States' Gating Control Unit's power groups (models/power/gating_control_unit.h) on a
// hand-driven SMX at 1 GHz (cycles are ns): the unit takes over the SP units' power
// component (ON 2 mW for both groups, so 1 mW a group, with 1 mW of clock power; pg 0 W,
// wake-up 9 cycles, break-even 19) and the LD/ST unit's (ON 2 mW, clock 2 mW; cg keeping
// its static power, no clock power, next-cycle wake-up). Run time, T = 2,048: the SMX gets
// a TB at cycle 0 and issues nothing until cycle 7,000, so at 2,048 (phase 1) EX_SP's
// utilization is 0 and its group 1 is power-gated; EX_LDST has no loads (W = 0) and stays
// on. 1,000 SP instructions at 7,000 make EX_SP's utilization 1,000 x 32 / (64 x 2,048) =
// 0.244 at the next phase 1 (8,192): tuned up, its group 1 powers up at 8,192 and is usable
// 9 cycles later, at 8,201 (the SMX is told at 8,200, applying it from its next cycle).
// Energy by hand: group 1 of the SP units spends [2,048, 8,192) gated: static saved
// 6,144 ns x 1 mW = 6,144 pJ, clock saved the same; one transition from ON costs 19 ns x
// (1 mW - 0) = 19 pJ. The static form (C_LDST-like [ex_ldst] alone) clock-gates the LD/ST
// unit's group 1 from cycle 0: its static power stays, its clock power halves. The three
// pipelines' collector sets share one power component, two elements each, and so do the
// register file's banks, which follow their OC set; the pipeline registers' component has
// two elements per pipeline and stage (IDOC, OCEX).
#include <gtest/gtest.h>

#include <vector>

#include "models/core/datapath_gates.h"
#include "models/power/gating_control_unit.h"
#include "models/power/power_component.h"
#include "tests/memory/mem_testbench.h"

namespace test_gcu_power {

using namespace gputlm;
using pm::uc_component;

namespace {
constexpr std::uint64_t ns = 1000000;  // fs per cycle

// The SMX's side: which components it can tune, and when it was told.
struct fake_smx : sc_core::sc_module, core::datapath_gates {
  struct call {
    uc_component c;
    bool down;
    std::uint64_t cycle;
  };
  std::vector<call> calls;
  pm::power_component sp{"smx.sp",
                         {{"on", 2e-3, 0, 0, -1, 2e-3}, {"pg", 0.0, 9, 19}, {"cg", 2e-3, 1, 0}},
                         {{"op", 0.0}},
                         pm::operating_point{1.0, ns}};
  pm::power_component ldst{"smx.ldst",
                           {{"on", 2e-3, 0, 0, -1, 2e-3}, {"pg", 0.0, 9, 19}, {"cg", 2e-3, 1, 0}},
                           {{"op", 0.0}},
                           pm::operating_point{1.0, ns}};
  // The collectors: one component for the three pipelines (6 mW static, 6 mW clock).
  pm::power_component oc{"smx.operand_collector",
                         {{"on", 6e-3, 0, 0, -1, 6e-3}, {"pg", 0.0, 9, 19}, {"cg", 6e-3, 1, 0}},
                         {{"collect", 0.0}},
                         pm::operating_point{1.0, ns}};
  // The register file (6 mW, 6 mW clock) and the pipeline registers (12 mW, 12 mW clock).
  pm::power_component rf{"smx.register_file",
                         {{"on", 6e-3, 0, 0, -1, 6e-3}, {"cg", 6e-3, 1, 0}},
                         {{"read", 0.0}},
                         pm::operating_point{1.0, ns}};
  pm::power_component regs{"smx.pipeline_registers",
                           {{"on", 12e-3, 0, 0, -1, 12e-3}, {"cg", 12e-3, 1, 0}},
                           {{"write", 0.0}},
                           pm::operating_point{1.0, ns}};
  bool registers = false;  // the IDOC and OCEX registers have second groups
  std::array<bool, pm::uc_components> down{};
  explicit fake_smx(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
  // The pipeline (0 SP, 1 SFU, 2 LD/ST) and stage (0 IDOC, 1 OCEX) of a register, or -1.
  static int reg_element(uc_component c) {
    for (int k = 0; k < 3; ++k) {
      if (c == pm::uc_stage(uc_component::idoc_sp, pm::uc_pipe(k))) return 2 * k + 1;
      if (c == pm::uc_stage(uc_component::ocex_sp, pm::uc_pipe(k))) return 6 + 2 * k + 1;
    }
    return -1;
  }
  static int oc_pipe(uc_component c) {
    return c == uc_component::oc_sp     ? 0
           : c == uc_component::oc_sfu  ? 1
           : c == uc_component::oc_ldst ? 2
                                        : -1;
  }
  bool tunable(uc_component c) const override {
    return c == uc_component::ex_sp || c == uc_component::ex_ldst || oc_pipe(c) >= 0 ||
           (registers && reg_element(c) >= 0);
  }
  void tune(uc_component c, bool d) override {
    calls.push_back({c, d, sc_core::sc_time_stamp().value() / ns});
    down[std::size_t(c)] = d;
  }
  bool tuned_down(uc_component c) const override { return down[std::size_t(c)]; }
  double width(uc_component c) const override { return tunable(c) ? 64 : 0; }
  std::vector<power_group> group_power(uc_component c) override {
    if (oc_pipe(c) >= 0)
      return {{&oc, 6, 2 * std::uint32_t(oc_pipe(c)) + 1},
              {&rf, 6, 2 * std::uint32_t(oc_pipe(c)) + 1}};
    if (registers && reg_element(c) >= 0) return {{&regs, 12, std::uint32_t(reg_element(c))}};
    if (c == uc_component::ex_sp) return {{&sp}};
    if (c == uc_component::ex_ldst) return {{&ldst}};
    return {};
  }
};

struct bench {
  test::block_env env;
  clock_domain& clk = env.clock("core", 1e9);
  fake_smx smx{"smx"};
  std::unique_ptr<pm::gating_control_unit> gcu;
  explicit bench(std::map<std::string, std::string> params, bool registers = false) {
    smx.registers = registers;
    gcu = env.make<pm::gating_control_unit>("gcu", clk, params, "gating_control_unit");
    gcu->datapath.connect(smx);
    gcu->validate_bound();
  }
  void run_to(std::uint64_t cycle) {
    sc_core::sc_start(sc_core::sc_time::from_value(cycle * ns) - sc_core::sc_time_stamp());
  }
};
}  // namespace

TEST(gcu_power, a_power_gated_group_saves_its_leakage_and_wakes_in_nine_cycles) {
  bench b(std::map<std::string, std::string>{{"run_time", "true"}});
  b.run_to(0);
  b.gcu->tb_started(0, 32, 0);
  b.run_to(7000);
  for (int i = 0; i < 1000; ++i) b.gcu->issued(0, core::unit_pipe::sp, 32, 2, 1, 7000);
  b.run_to(10000);
  std::vector<std::pair<std::uint64_t, bool>> sp;
  for (const auto& c : b.smx.calls) {
    EXPECT_NE(c.c, uc_component::ex_ldst);  // W = 0: never tuned down
    if (c.c == uc_component::ex_sp) sp.push_back({c.cycle, c.down});
  }
  ASSERT_EQ(sp.size(), 2u);
  EXPECT_EQ(sp[0], std::make_pair(std::uint64_t(2048), true));
  EXPECT_EQ(sp[1], std::make_pair(std::uint64_t(8192 + 9 - 1), false));  // usable at 8,201
  // Group 1 gated over [2,048, 8,192): 6,144 element-ns in pg; two groups ON otherwise.
  EXPECT_NEAR(b.smx.sp.residency_seconds(1, 10000 * ns) * 1e9, 6144, 1e-6);
  EXPECT_NEAR(b.smx.sp.residency_seconds(0, 10000 * ns) * 1e9, 2 * 10000 - 6144, 1e-6);
  // Static: 2 mW x 10,000 ns - 1 mW x 6,144 ns (pJ); clock the same; transition 19 pJ.
  EXPECT_NEAR(b.smx.sp.static_joules(10000 * ns), (20000 - 6144) * 1e-15 * 1e3, 1e-18);
  EXPECT_NEAR(b.smx.sp.clock_joules(10000 * ns), (20000 - 6144) * 1e-15 * 1e3, 1e-18);
  EXPECT_NEAR(b.smx.sp.transition_joules(), 19 * 1e-9 * 1e-3, 1e-21);
  EXPECT_EQ(b.smx.sp.transitions(), 1u);
}

TEST(gcu_power, a_clock_gated_group_keeps_its_static_power_and_loses_its_clock) {
  bench b(std::map<std::string, std::string>{{"static_tune_down", "[ex_ldst]"}});
  b.run_to(1000);
  ASSERT_EQ(b.smx.calls.size(), 1u);
  EXPECT_EQ(b.smx.calls[0].c, uc_component::ex_ldst);
  EXPECT_EQ(b.smx.calls[0].cycle, 0u);
  EXPECT_NEAR(b.smx.ldst.static_joules(1000 * ns), 2e-3 * 1000e-9, 1e-18);  // kept
  EXPECT_NEAR(b.smx.ldst.clock_joules(1000 * ns), 1e-3 * 1000e-9, 1e-18);   // halved
  EXPECT_EQ(b.smx.ldst.transition_joules(), 0.0);
  // The SP units are not named: untouched.
  EXPECT_NEAR(b.smx.sp.static_joules(1000 * ns), 2e-3 * 1000e-9, 1e-18);
}

TEST(gcu_power, table_2_configurations_gate_every_component_but_the_one_named) {
  bench b(std::map<std::string, std::string>{{"static_config", "c_sp"}});
  b.run_to(10);
  // C_SP: all but EX_SP; of this SMX's five, EX_LDST and the three collector sets. The nine
  // others have no second group here and are counted.
  EXPECT_EQ(b.smx.calls.size(), 4u);
  EXPECT_TRUE(b.smx.down[std::size_t(uc_component::ex_ldst)]);
  EXPECT_TRUE(b.smx.down[std::size_t(uc_component::oc_ldst)]);
  EXPECT_FALSE(b.smx.down[std::size_t(uc_component::ex_sp)]);
}

TEST(gcu_power, the_pipelines_collector_groups_share_one_power_component) {
  // OC_SP and OC_SFU clock-gated from cycle 0: the collectors' component is six elements
  // (1 mW static and 1 mW clock each), two of them in cg: static 6 mW x 1,000 ns, clock
  // 4 mW x 1,000 ns; OC_LDST's group 1 stays ON.
  bench b(std::map<std::string, std::string>{{"static_tune_down", "[oc_sp, oc_sfu]"}});
  b.run_to(1000);
  EXPECT_EQ(b.smx.oc.elements(), 6u);
  EXPECT_EQ(b.smx.oc.state_of(1), 2u);  // cg
  EXPECT_EQ(b.smx.oc.state_of(3), 2u);
  EXPECT_EQ(b.smx.oc.state_of(5), 0u);
  EXPECT_NEAR(b.smx.oc.static_joules(1000 * ns), 6e-3 * 1000e-9, 1e-18);
  EXPECT_NEAR(b.smx.oc.clock_joules(1000 * ns), 4e-3 * 1000e-9, 1e-18);
  // The register-file banks follow: the same six elements, the same two in cg.
  EXPECT_EQ(b.smx.rf.elements(), 6u);
  EXPECT_EQ(b.smx.rf.state_of(1), 1u);  // (the register file's cg is its state 1)
  EXPECT_EQ(b.smx.rf.state_of(3), 1u);
  EXPECT_EQ(b.smx.rf.state_of(5), 0u);
  EXPECT_NEAR(b.smx.rf.static_joules(1000 * ns), 6e-3 * 1000e-9, 1e-18);
  EXPECT_NEAR(b.smx.rf.clock_joules(1000 * ns), 4e-3 * 1000e-9, 1e-18);
}

TEST(gcu_power, the_pipeline_registers_are_two_groups_per_pipeline_and_stage) {
  // IDOC_SP and OCEX_LDST clock-gated from cycle 0: twelve elements of 1 mW static and 1 mW
  // clock; element 1 (IDOC_SP's group 1) and 11 (OCEX_LDST's) in cg: static 12 mW x
  // 1,000 ns, clock 10 mW x 1,000 ns.
  bench b(std::map<std::string, std::string>{{"static_tune_down", "[idoc_sp, ocex_ldst]"}}, true);
  b.run_to(1000);
  EXPECT_EQ(b.smx.regs.elements(), 12u);
  for (std::uint32_t e = 0; e < 12; ++e)
    EXPECT_EQ(b.smx.regs.state_of(e), e == 1 || e == 11 ? 1u : 0u) << e;
  EXPECT_NEAR(b.smx.regs.static_joules(1000 * ns), 12e-3 * 1000e-9, 1e-18);
  EXPECT_NEAR(b.smx.regs.clock_joules(1000 * ns), 10e-3 * 1000e-9, 1e-18);
}

}  // namespace test_gcu_power
