// TB-scheduling policies end to end through `gputlm run` (docs/tb-scheduling.md): every
// policy dispatches every TB of every kernel exactly once, PAVER's groups come from the
// trace's locality graph (cached beside it), and a bad policy name or parameter is one
// line and exit status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/common/run_command.h"

namespace test_tb_scheduling_run {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {
const std::string k_src = GPUTLM_SOURCE_DIR;
const std::string k_bin = GPUTLM_BIN;

// A copy of a generated trace in a scratch folder (its locality cache goes beside it).
std::string make_trace(const std::string& name, const std::string& gen) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/tbs_" + name;
  fs::remove_all(dir);
  fs::remove_all(dir + ".locality");
  auto r = run_command(k_bin + " trace gen " + gen + " -o " + dir, "tbs_gen_" + name);
  EXPECT_EQ(r.status, 0) << r.err;
  return dir;
}
}  // namespace

TEST(tb_scheduling_run, every_policy_dispatches_every_tb_once) {
  const std::string trace = make_trace("mm", "mm2 -p ni=64 -p nj=64 -p nk=32 -p nl=32");
  for (const char* policy : {"lrr", "bcs", "mst_ts", "kway_ts", "rb_ts"}) {
    const std::string out = std::string(GPUTLM_TEST_TMP) + "/tbs_" + policy + ".json";
    auto r = run_command(k_bin + " run " + k_src + "/yaml/fermi.yaml " + trace +
                             " --set smx_scheduler.policy=" + policy +
                             " --no-wall-clock --stats-form=full --stats " + out,
                         std::string("tbs_run_") + policy);
    ASSERT_EQ(r.status, 0) << policy << ": " << r.err;
    const auto j = nlohmann::json::parse(slurp(out));
    ASSERT_EQ(j["kernels"].size(), 2u);
    for (const auto& k : j["kernels"]) {
      std::set<std::uint64_t> tbs;
      for (const auto& t : k["tb_log"]) EXPECT_TRUE(tbs.insert(t[0].get<std::uint64_t>()).second);
      EXPECT_EQ(tbs.size(), k["tbs"].get<std::size_t>()) << policy;
      EXPECT_EQ(*tbs.rbegin() + 1, tbs.size()) << policy;
    }
    const auto& sched = j["blocks"]["gpu.smx_scheduler"];
    const bool paver = std::string(policy).find("_ts") != std::string::npos;
    EXPECT_EQ(sched.contains("paver_groups"), paver) << policy;
    if (paver) {
      EXPECT_GT(sched["paver_groups"].get<double>(), 0) << policy;
    }
  }
  // PAVER's graphs are cached beside the trace, one per kernel.
  std::size_t cached = 0;
  for (const auto& e : fs::directory_iterator(trace + ".locality"))
    cached += e.path().extension() == ".graph";
  EXPECT_EQ(cached, 2u);
}

// LaPerm on device launches (DTBL groups, CDP kernels with the KMU's SMX-bound pool): every
// TB of every kernel and group once; under SMX-Bind every child TB comes from its bound
// queue, under Adaptive-Bind from its own or a backup one.
TEST(tb_scheduling_run, laperm_dispatches_every_child_tb_from_its_queues) {
  struct run_case {
    const char* platform;
    const char* trace;
    const char* kmu;
  };
  for (const run_case& c : {run_case{"variants/kepler-dtbl.yaml", "bfs_dtbl", "fifo"},
                            run_case{"kepler.yaml", "amr_cdp_sync", "laperm"}}) {
    for (const char* policy : {"tb_pri", "smx_bind", "adaptive_bind"}) {
      const std::string what = std::string(c.trace) + " " + policy;
      // CDP: the KMU's order that goes with the policy (DTBL groups do not use the pool).
      const std::string kmu = std::string(c.kmu) == "fifo"      ? "fifo"
                              : std::string(policy) == "tb_pri" ? "priority"
                                                                : "smx_bound";
      const std::string out =
          std::string(GPUTLM_TEST_TMP) + "/laperm_" + c.trace + policy + ".json";
      auto r = run_command(
          k_bin + " run " + k_src + "/yaml/" + c.platform + " " + k_src + "/traces/samples/" +
              c.trace + " --set smx_scheduler.policy=" + policy + " --set kmu.pool_order=" + kmu +
              " --no-wall-clock --stats-form=full --stats " + out,
          "laperm_run");
      ASSERT_EQ(r.status, 0) << what << ": " << r.err;
      const auto j = nlohmann::json::parse(slurp(out));
      double child_tbs = 0;
      for (const auto& k : j["kernels"]) {
        std::set<std::uint64_t> tbs;
        for (const auto& t : k["tb_log"]) EXPECT_TRUE(tbs.insert(t[0].get<std::uint64_t>()).second);
        EXPECT_EQ(tbs.size(), k["tbs"].get<std::size_t>()) << what;
        if (k.value("depth", 0) > 0) child_tbs += k["tbs"].get<double>();
      }
      ASSERT_GT(child_tbs, 0) << what;
      EXPECT_EQ(j["blocks"]["gpu.kmu"].contains("pool_scan_cycles"), kmu == "smx_bound") << what;
      const auto& sched = j["blocks"]["gpu.smx_scheduler"];
      const double bound = sched["laperm_bound_tbs"].get<double>();
      const double backup = sched["laperm_backup_tbs"].get<double>();
      if (std::string(policy) == "tb_pri") {
        EXPECT_EQ(bound + backup, 0) << what;
      } else if (std::string(policy) == "smx_bind") {
        EXPECT_EQ(bound, child_tbs) << what;
        EXPECT_EQ(backup, 0) << what;
      } else {
        EXPECT_EQ(bound + backup, child_tbs) << what;
      }
    }
  }
}

TEST(tb_scheduling_run, a_bad_policy_is_one_line_and_exit_2) {
  const std::string trace = k_src + "/traces/samples/vectoradd";
  for (const char* set :
       {"smx_scheduler.policy=paver", "smx_scheduler.policy=rb_ts --set smx_scheduler.policy.next_tb_latency=fast",
        "smx_scheduler.policy=tb_pri --set smx_scheduler.policy.priority_levels=65",
        "smx_scheduler.policy=smx_bind --set smx_scheduler.policy.smx_cluster=0",
        "smx_scheduler.policy=smx_bind --set smx_scheduler.policy.bound_queue_entries=0",
        "smx_scheduler.policy=rb_ts --set smx_scheduler.policy.locality_granularity=0",
        "kmu.pool_order=lifo", "kmu.priority_levels=99"}) {
    auto r = run_command(k_bin + " run " + k_src + "/yaml/fermi.yaml " + trace + " --set " + set,
                         "tbs_bad");
    EXPECT_EQ(r.status, 2) << set;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    const std::string last = std::string(set).substr(std::string(set).rfind("--set ") == std::string::npos ? 0 : std::string(set).rfind("--set ") + 6);
    EXPECT_NE(r.err.find(last.substr(0, last.find('='))), std::string::npos) << r.err;
  }
}

// The registers PAVER adds appear in `gputlm elaborate`: 18 B per SM (270 B on the GTX480's
// 15 SMs, thesis §3.4.1) and the task stealer's 6 B; LRR adds nothing.
TEST(tb_scheduling_run, elaborate_lists_the_added_registers) {
  auto r = run_command(
      k_bin + " elaborate " + k_src + "/yaml/fermi.yaml --set smx_scheduler.policy=rb_ts",
      "tbs_elab");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find("added hardware:\n  gpu.smx_scheduler: PAVER: per SMX next, tail (64 bit) and "
                 "nextTB (16 bit) = 18 B x 15 = 270 B; task stealer"),
      std::string::npos)
      << r.out;
  // LaPerm's bound queues on the K20c's 13 SMXs: 128 x 24 B each = 39,936 B; PQ0 768 B.
  r = run_command(
      k_bin + " elaborate " + k_src + "/yaml/kepler.yaml --set smx_scheduler.policy=adaptive_bind",
      "tbs_elab_laperm");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("(39936 B for 13 SMXs); shared PQ0 32 x 24 B = 768 B"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("backup-queue register 4 bits per SMX"), std::string::npos) << r.out;
  r = run_command(k_bin + " elaborate " + k_src + "/yaml/fermi.yaml", "tbs_elab_lrr");
  EXPECT_EQ(r.out.find("added hardware"), std::string::npos);
}

}  // namespace test_tb_scheduling_run
