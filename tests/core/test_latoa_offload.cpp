// LATOA's warp offload (models/core/latoa_unit.h, warp_migration.h) on the 56-core mesh,
// run end to end: every instruction is issued exactly once (the thread and warp instruction
// counts equal those of a run that only watches) and every TB completes once, on workloads
// that offload; every adoption ends (done or moved on) and every cancelled MSHR slot's fill
// arrives; with no neighbour ever relaxed-and-adjacent nothing moves and no cycle changes;
// a kernel with barriers and shared memory keeps its warps; the hop bound holds; bad
// parameters are one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/common/run_stats.h"

namespace test_latoa_offload {

using namespace gputlm::testing;

namespace {

const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";
const std::string mesh = yaml + "latoa.yaml";
const std::string mechanism = yaml + "mechanisms/latoa.yaml";
const std::string watch_only = " --set smx.latoa.offload=false";

std::string trace(const std::string& kernel, const std::string& params, const std::string& name) {
  return generated_trace(kernel, params, name);
}

nlohmann::json run(const std::string& dir, const std::string& opts, const std::string& tag) {
  return run_stats(mesh, dir, " --with " + mechanism + opts, tag);
}

// The sum over the SMXs of a statistic of theirs (`block`: "" for the SMX, ".latoa").
double total(const nlohmann::json& j, const std::string& block, const std::string& stat) {
  double t = 0;
  for (int s = 0;; ++s) {
    const std::string key = "gpu.smx[" + std::to_string(s) + "]" + block;
    if (!j["blocks"].contains(key)) return t;
    t += j["blocks"][key][stat].get<double>();
  }
}

// Every kernel's TBs, each completed once.
void same_kernels(const nlohmann::json& a, const nlohmann::json& b) {
  ASSERT_EQ(a["kernels"].size(), b["kernels"].size());
  for (std::size_t k = 0; k < a["kernels"].size(); ++k) {
    EXPECT_EQ(a["kernels"][k]["tbs"], b["kernels"][k]["tbs"]) << k;
    EXPECT_EQ(a["kernels"][k]["thread_instructions"], b["kernels"][k]["thread_instructions"]) << k;
    EXPECT_EQ(a["kernels"][k]["warp_instructions"], b["kernels"][k]["warp_instructions"]) << k;
  }
}

void check_exactly_once(const std::string& kernel, const std::string& params, bool must_move) {
  const std::string dir = trace(kernel, params, "latoa_once_" + kernel);
  const auto on = run(dir, "", "latoa_once_on_" + kernel);
  const auto off = run(dir, watch_only, "latoa_once_off_" + kernel);
  EXPECT_EQ(on["thread_instructions"], off["thread_instructions"]) << kernel;
  EXPECT_EQ(on["warp_instructions"], off["warp_instructions"]) << kernel;
  EXPECT_EQ(total(on, "", "tbs_completed"), total(off, "", "tbs_completed")) << kernel;
  same_kernels(on, off);
  const double offloads = total(on, ".latoa", "offloads");
  if (must_move) {
    EXPECT_GT(offloads, 0) << kernel << ": the check is vacuous";
  }
  // Every context arrived and was adopted; every adopted warp ended there or moved on.
  EXPECT_EQ(total(on, ".latoa", "adoptions"), offloads) << kernel;
  EXPECT_EQ(total(on, ".latoa", "adopted_done") + total(on, ".latoa", "moved_on"), offloads)
      << kernel;
  // A rewind takes back at least the load itself.
  EXPECT_GE(total(on, ".latoa", "squashed_instructions"), offloads) << kernel;
  // Every cancelled MSHR slot's fill arrived (and answered nobody for it).
  EXPECT_EQ(total(on, ".latoa", "cancelled_slots"), total(on, ".latoa", "unanswered_slots"))
      << kernel;
  EXPECT_LE(total(on, ".latoa", "orphan_fills"), total(on, ".latoa", "unanswered_slots"));
  EXPECT_EQ(total(off, ".latoa", "offloads"), 0) << kernel;
}

}  // namespace

TEST(latoa_offload, every_instruction_issues_once_on_a_tree_walk) {
  check_exactly_once("mum_walk", " -p queries=4096", true);
}

TEST(latoa_offload, every_instruction_issues_once_on_kmeans) {
  check_exactly_once("kmeans", " -p points=16384 -p features=8", false);
}

TEST(latoa_offload, every_instruction_issues_once_on_bfs) {
  check_exactly_once("bfs", " -p scale=12", false);
}

TEST(latoa_offload, every_instruction_issues_once_on_nn_and_fwt) {
  check_exactly_once("nn", " -p records=16384", false);
  check_exactly_once("fwt", " -p log2n=16", false);
}

// 16 SMXs on every other node of every other row: no SMX has an SMX beside it, so no core
// ever has an adopter. Nothing moves, and every cycle and every SMX's statistics are those
// of the run that only watches.
TEST(latoa_offload, without_an_adopter_nothing_moves_and_no_cycle_changes) {
  const std::string dir = trace("mum_walk", " -p queries=4096", "latoa_isolated");
  const std::string isolated =
      " --set vars.sms=16"
      " --set icnt.smx_nodes=[0,2,4,6,16,18,20,22,32,34,36,38,48,50,52,54]";
  const auto on = run(dir, isolated, "latoa_isolated_on");
  const auto off = run(dir, isolated + watch_only, "latoa_isolated_off");
  EXPECT_EQ(total(on, ".latoa", "offloads"), 0);
  EXPECT_GT(total(on, ".latoa", "no_adopter"), 0) << "the check is vacuous: never critical";
  EXPECT_EQ(total(on, ".latoa", "offload_opportunities"), 0);
  EXPECT_EQ(on["total_cycles"], off["total_cycles"]);
  for (int s = 0; s < 16; ++s) {
    const std::string smx = "gpu.smx[" + std::to_string(s) + "]";
    EXPECT_EQ(on["blocks"][smx], off["blocks"][smx]) << smx;
    EXPECT_EQ(on["blocks"][smx + ".l1"], off["blocks"][smx + ".l1"]) << smx;
  }
}

// A reduction (shared memory, BAR.SYNC) keeps its warps: with low thresholds its cores are
// often critical, and every candidate is refused for its kernel.
TEST(latoa_offload, a_kernel_with_barriers_and_shared_memory_keeps_its_warps) {
  const std::string dir = trace("reduction", " -p n=1048576", "latoa_barrier");
  const auto j =
      run(dir, " --set smx.latoa.relaxed=0.02 --set smx.latoa.neutral=0.04", "latoa_barrier");
  EXPECT_EQ(total(j, ".latoa", "offloads"), 0);
  EXPECT_GT(total(j, ".latoa", "refused.kernel"), 0) << "the check is vacuous";
  EXPECT_EQ(total(j, ".latoa", "refused_warp"), total(j, ".latoa", "refused.kernel"));
}

// With max_hops 1 an adopted warp stays where it was adopted.
TEST(latoa_offload, a_warp_moves_at_most_max_hops_times) {
  const std::string dir = trace("mum_walk", " -p queries=4096", "latoa_hops");
  const auto j = run(dir, " --set smx.latoa.max_hops=1", "latoa_hops");
  EXPECT_GT(total(j, ".latoa", "offloads"), 0);
  EXPECT_EQ(total(j, ".latoa", "moved_on"), 0);
  EXPECT_EQ(total(j, ".latoa", "adopted_done"), total(j, ".latoa", "offloads"));
}

TEST(latoa_offload, bad_parameters_are_one_line_errors) {
  const std::string dir = trace("vectoradd", "", "latoa_bad");
  for (const char* bad : {"smx.latoa.max_hops=0", "smx.latoa.notice_bytes=0B"}) {
    const auto r = run_command(
        gputlm_bin() + " run " + mesh + " " + dir + " --with " + mechanism + " --set " + bad,
        "latoa_bad");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(std::string(bad).substr(10, 8)), std::string::npos) << r.err;
  }
}

}  // namespace test_latoa_offload
