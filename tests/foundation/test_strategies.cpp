// Strategies chosen in YAML with their parameters (models/common/strategy.h,
// docs/architecture.md): the scalar and the mapping form give the same platform, --set
// reaches the type and each parameter, a type changed by --set drops the YAML's parameters
// of the old one, and every bad choice or parameter is one line at its key, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/common/run_command.h"

namespace test_strategies {

using namespace gputlm::testing;

namespace {
const std::string k_tmp = GPUTLM_TEST_TMP;
const std::string k_fermi = std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml";

// A variant of the GTX480 whose SMX scheduler's policy is written as `policy`.
std::string variant(const std::string& tag, const std::string& policy) {
  const std::string path = k_tmp + "/strategy_" + tag + ".yaml";
  write_text(path, "base: " + k_fermi + "\ngpu:\n  smx_scheduler:\n    policy: " + policy + "\n");
  return path;
}

command_result dump(const std::string& platform, const std::string& tag,
                    const std::string& sets = "") {
  return run_command(gputlm_bin() + " elaborate " + platform + " -q --dump-config " + sets, tag);
}

// The smx_scheduler block of a --dump-config: from its line to the next block at its depth.
std::string scheduler_of(const std::string& dumped) {
  const auto a = dumped.find("  smx_scheduler:\n");
  const auto b = dumped.find("\n  smx:\n", a);
  return a == std::string::npos ? "" : dumped.substr(a, b - a);
}

std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
}  // namespace

TEST(strategies, scalar_mapping_and_set_forms_give_the_same_platform) {
  const auto scalar = dump(variant("scalar", "kway_ts"), "st_scalar",
                           "--set smx_scheduler.policy.task_stealing=false");
  const auto mapping =
      dump(variant("mapping", "{type: kway_ts, task_stealing: false}"), "st_mapping");
  const auto set = dump(k_fermi, "st_set",
                        "--set smx_scheduler.policy=kway_ts "
                        "--set smx_scheduler.policy.task_stealing=false");
  ASSERT_EQ(scalar.status, 0) << scalar.err;
  ASSERT_EQ(mapping.status, 0) << mapping.err;
  ASSERT_EQ(set.status, 0) << set.err;
  const std::string s = scheduler_of(scalar.out);
  EXPECT_EQ(s, scheduler_of(mapping.out));
  EXPECT_EQ(s, scheduler_of(set.out));
  // Nested under the choice: its type and every parameter of that type, with its value.
  EXPECT_NE(s.find("    policy:\n      type: kway_ts"), std::string::npos) << s;
  EXPECT_NE(s.find("      task_stealing: false"), std::string::npos) << s;
  EXPECT_NE(s.find("      next_tb_latency: 200cycles"), std::string::npos) << s;
  EXPECT_NE(s.find("      locality_granularity: 4"), std::string::npos) << s;
  // LRR's parameters are not there: they belong to another type.
  EXPECT_EQ(s.find("tb_selection"), std::string::npos) << s;
  // The dump reloads to the same platform.
  write_text(k_tmp + "/strategy_reload.yaml", set.out);
  const auto again = dump(k_tmp + "/strategy_reload.yaml", "st_reload");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(scheduler_of(again.out), s);
}

TEST(strategies, a_type_changed_by_set_drops_the_yamls_parameters_of_the_old_one) {
  const std::string v = variant("change", "{type: kway_ts, task_stealing: false}");
  const auto lrr = dump(v, "st_change", "--set smx_scheduler.policy=lrr");
  ASSERT_EQ(lrr.status, 0) << lrr.err;
  const std::string s = scheduler_of(lrr.out);
  EXPECT_NE(s.find("      type: lrr"), std::string::npos) << s;
  EXPECT_EQ(s.find("task_stealing"), std::string::npos) << s;
  // The same type again keeps them.
  const auto same = dump(v, "st_same", "--set smx_scheduler.policy=kway_ts");
  ASSERT_EQ(same.status, 0) << same.err;
  EXPECT_NE(scheduler_of(same.out).find("task_stealing: false"), std::string::npos);
}

TEST(strategies, bad_choices_and_parameters_are_one_line_at_their_key) {
  struct bad {
    std::string tag, policy, sets, where, says;
  };
  const std::vector<bad> cases = {
      {"type", "rb_tz", "", ":4:5: gpu.smx_scheduler.policy",
       "unknown TB scheduling policy 'rb_tz' (one of adaptive_bind, bcs, kway_ts, lrr, mst_ts, "
       "partition, rb_ts, smx_bind, spu, tb_pri); did you mean 'rb_ts'?"},
      {"key", "{type: rb_ts, task_staeling: false}", "",
       ":4:27: gpu.smx_scheduler.policy.task_staeling",
       "unknown key for policy rb_ts (its keys: next_tb_latency, locality_granularity, "
       "jit_ns_per_call, jit_ns_per_entry, task_stealing); did you mean "
       "'policy.task_stealing'?"},
      {"other_type", "{type: lrr, task_stealing: false}", "",
       ":4:25: gpu.smx_scheduler.policy.task_stealing",
       "unknown key for policy lrr (its keys: tb_selection, smx_selection)"},
      {"unit", "{type: rb_ts, next_tb_latency: 5ns}", "",
       ":4:27: gpu.smx_scheduler.policy.next_tb_latency",
       "expected a cycle count like 120cycles, got '5ns'"},
      {"range", "{type: smx_bind, priority_levels: 65}", "",
       ":4:30: gpu.smx_scheduler.policy.priority_levels", "must be at most 64"},
      {"set_unit", "rb_ts", "--set smx_scheduler.policy.next_tb_latency=soon",
       "error: --set smx_scheduler.policy.next_tb_latency=soon: "
       "gpu.smx_scheduler.policy.next_tb_latency",
       "expected a cycle count like 120cycles, got 'soon'"},
      {"mst_stealing", "mst_ts", "--set smx_scheduler.policy.task_stealing=true",
       "error: --set smx_scheduler.policy.task_stealing=true: "
       "gpu.smx_scheduler.policy.task_stealing",
       "unknown key for policy mst_ts (its keys: next_tb_latency, locality_granularity, "
       "jit_ns_per_call, jit_ns_per_entry)"},
  };
  for (const auto& c : cases) {
    const std::string v = variant("bad_" + c.tag, c.policy);
    const auto r = dump(v, "st_bad_" + c.tag, c.sets);
    EXPECT_EQ(r.status, 2) << c.tag;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    const std::string at = c.where.rfind("error: ", 0) == 0 ? c.where : v + c.where;
    EXPECT_NE(r.err.find(at), std::string::npos) << c.tag << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.tag << ": " << r.err;
  }
}

TEST(strategies, the_other_kinds_take_both_forms_too) {
  // The warp scheduling policy and the DRAM request chooser.
  const auto ok = run_command(gputlm_bin() + " elaborate " + k_fermi +
                                  " -q --set smx.scheduler_policy=lrr --set dram.scheduler=fcfs",
                              "st_kinds");
  EXPECT_EQ(ok.status, 0) << ok.err;
  const auto old = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set dram.scheduler=fifo",
                               "st_kinds_bad");
  EXPECT_EQ(old.status, 2);
  EXPECT_NE(old.err.find("gpu.dram[0].scheduler: unknown DRAM request chooser 'fifo' (one of "
                         "clams, clams_dynamic, fcfs, fr_fcfs)"),
            std::string::npos)
      << old.err;
  const std::string v = k_tmp + "/strategy_warps.yaml";
  write_text(v, "base: " + k_fermi + "\ngpu:\n  smx:\n    scheduler_policy: {type: lrr}\n");
  const auto map = run_command(gputlm_bin() + " elaborate " + v + " -q --dump-config", "st_warps");
  ASSERT_EQ(map.status, 0) << map.err;
  EXPECT_NE(map.out.find("    scheduler_policy: lrr"), std::string::npos);
}

}  // namespace test_strategies
