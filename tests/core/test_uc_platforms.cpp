// The μC-States chips (yaml/uc-bigcore.yaml, yaml/variants/uc-smallcore.yaml): the values of
// the paper's Table 3 and §2.1 as elaborated (read back from --dump-config), and a
// dependent-free FP32 kernel on one core: a big core issues at most 4 warp instructions a
// cycle (4 schedulers), a small one 2, and the big core is the faster; per-scheduler issue
// is at most one a cycle on both.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "tests/common/run_command.h"

namespace test_uc_platforms {

using namespace gputlm::testing;

namespace {

const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";

YAML::Node dump(const std::string& platform, const std::string& tag) {
  const auto r =
      run_command(gputlm_bin() + " elaborate " + yaml + platform + " --dump-config", tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return YAML::Load(r.out);
}

std::uint64_t u(const YAML::Node& n) { return n.as<std::uint64_t>(); }

}  // namespace

TEST(uc_platforms, table_3_and_the_big_core_as_elaborated) {
  const YAML::Node big = dump("uc-bigcore.yaml", "uc_big_dump")["gpu"];
  const YAML::Node small = dump("variants/uc-smallcore.yaml", "uc_small_dump")["gpu"];
  for (const YAML::Node& g : {big, small}) {
    EXPECT_EQ(u(g["smx"]["count"]), 16u);          // 16 shader cores
    EXPECT_EQ(u(g["smx"]["registers"]), 36864u);   // 36864 registers
    EXPECT_EQ(u(g["smx"]["max_threads"]), 1536u);  // 1536 threads
    EXPECT_EQ(g["smx"]["shared_memory"].as<std::string>(), "48KiB");
    EXPECT_EQ(g["smx"]["scheduler_policy"].as<std::string>(), "gto");
    EXPECT_EQ(g["smx"]["l1"]["size"].as<std::string>(), "16KiB");  // 16 KB 4-way
    EXPECT_EQ(u(g["smx"]["l1"]["ways"]), 4u);
    EXPECT_EQ(g["icnt"]["flit_size"].as<std::string>(), "32B");  // 32 B channels
    EXPECT_EQ(u(g["l2"]["count"]), 12u);                         // 6 MCs x 2 sub-partitions
    // 768 KB, 16-way, 128 B lines: 12 x 32 sets x 16 ways x 128 B.
    EXPECT_EQ(u(g["l2"]["ways"]), 16u);
    EXPECT_EQ(12u * u(g["l2"]["sets"]) * u(g["l2"]["ways"]) * 128u, 768u * 1024u);
    EXPECT_EQ(u(g["dram"]["count"]), 6u);
  }
  // Twice a small core's SP, SFU, schedulers, fetch and operand collectors.
  for (const char* k : {"sp_units", "sfu_units", "warp_schedulers", "fetch_warps", "collectors_sp",
                        "collectors_sfu", "collectors_mem"})
    EXPECT_EQ(u(big["smx"][k]), 2 * u(small["smx"][k])) << k;
  EXPECT_EQ(u(small["smx"]["sp_units"]), 2u);  // the GTX480's
}

TEST(uc_platforms, a_big_core_issues_up_to_four_a_cycle_and_runs_an_fp32_kernel_faster) {
  const std::string dir = fresh_dir("uc_fu");
  ASSERT_EQ(run_command(gputlm_bin() +
                            " trace gen fu_chain -p unit=fp32 -p chains=8 -p warps=32 "
                            "-p iterations=64 --arch 35 --force -o " +
                            dir,
                        "uc_fu_gen")
                .status,
            0);
  auto run = [&](const std::string& platform, const std::string& tag) {
    const std::string out = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
    const auto r = run_command(gputlm_bin() + " run " + yaml + platform + " " + dir +
                                   " --no-wall-clock --stats-form=full --stats " + out,
                               tag);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(slurp(out));
  };
  const auto big = run("uc-bigcore.yaml", "uc_fu_big");
  const auto small = run("variants/uc-smallcore.yaml", "uc_fu_small");
  // One TB on one core: the warp IPC is that core's issue rate.
  const double big_ipc = big["warp_ipc"].get<double>(), small_ipc = small["warp_ipc"].get<double>();
  EXPECT_LE(big_ipc, 4.0);
  EXPECT_LE(small_ipc, 2.0);
  EXPECT_GT(big_ipc, small_ipc * 1.25) << "the big core's doubled units do not show";
  EXPECT_EQ(big["warp_instructions"], small["warp_instructions"]);
}

}  // namespace test_uc_platforms
