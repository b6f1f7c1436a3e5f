// μC-States' Gating Control Unit at run time (models/power/gating_control_unit.h,
// yaml/mechanisms/uc-states.yaml) on the 16 big-core chip, by hand: it decides a phase every
// 2,048 cycles while its SMX holds a TB, so a run of N cycles on one SMX takes floor(N /
// 2,048) decisions and ends when the kernel does (no decision outlives it); phase 1 comes
// first, at cycle 2,048. An FP32 kernel (8 independent chains per warp, 32 warps; 95 %
// FP32, no SFU instruction) keeps EX_SP on (utilization about 0.5) and has EX_SFU tuned
// down at cycle 2,048 for the rest of the run, which changes no cycle. A streaming kernel
// has both tuned down at cycle 2,048. The unit's run utilizations agree with the SMX's own
// instruction counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/common/run_stats.h"

namespace test_uc_run_time {

using namespace gputlm::testing;

namespace {
const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";
const std::string big = yaml + "uc-bigcore.yaml";
const std::string mechanism = yaml + "mechanisms/uc-states.yaml";

nlohmann::json run(const std::string& dir, const std::string& opts, const std::string& tag) {
  return run_stats(big, dir, opts, tag);
}
}  // namespace

TEST(uc_run_time, a_compute_kernel_keeps_ex_sp_and_gates_the_unused_sfus) {
  const std::string dir = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_rt_chain");
  const auto off = run(dir, "", "uc_rt_chain_off");
  const auto on = run(dir, " --with " + mechanism, "uc_rt_chain_on");
  const auto cycles = on["total_cycles"].get<std::uint64_t>();
  EXPECT_EQ(cycles, off["total_cycles"].get<std::uint64_t>());
  const auto& g = on["blocks"]["gpu.smx[0].gcu"];
  EXPECT_EQ(g["decisions"].get<std::uint64_t>(), cycles / 2048);
  EXPECT_EQ(g["tune_downs.ex_sp"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(g["tune_downs.ex_sfu"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(g["down_cycles.ex_sfu"].get<std::uint64_t>(), cycles - 2048);
  EXPECT_EQ(on["thread_instructions"], off["thread_instructions"]);
}

TEST(uc_run_time, a_streaming_kernel_gates_both_execution_units_at_the_first_phase) {
  const std::string dir =
      generated_trace("stream", " -p footprint=4194304 -p passes=1", "uc_rt_stream");
  const auto off = run(dir, "", "uc_rt_stream_off");
  const auto on = run(dir, " --with " + mechanism, "uc_rt_stream_on");
  const auto cycles = on["total_cycles"].get<std::uint64_t>();
  const auto& g = on["blocks"]["gpu.smx[0].gcu"];
  EXPECT_EQ(g["tune_downs.ex_sp"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(g["tune_downs.ex_sfu"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(g["down_cycles.ex_sp"].get<std::uint64_t>(), cycles - 2048);
  EXPECT_EQ(on["thread_instructions"], off["thread_instructions"]);
}

TEST(uc_run_time, static_and_run_time_together_are_refused_in_one_line) {
  const std::string dir = generated_trace("vectoradd", "", "uc_rt_refuse");
  const auto r = run_command(gputlm_bin() + " run " + big + " " + dir + " --with " + mechanism +
                                 " --set smx.gcu.static_tune_down=[ex_sp]",
                             "uc_rt_refuse");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("run_time"), std::string::npos) << r.err;
}

}  // namespace test_uc_run_time

namespace test_uc_run_time {

TEST(uc_run_time, the_run_utilizations_match_the_smxs_instruction_counts) {
  // Over a vector-add run, each SMX's counts of the instructions issued to a pipeline
  // (its mix_* statistics) give the unit's run utilizations by hand: the schedulers issue
  // them all (4 issues a cycle at most), the LD/ST unit's issue-to-collector registers (2
  // slots a cycle) and its execution unit (32 lanes a cycle, 32 per instruction) take the
  // memory instructions.
  const std::string dir = generated_trace("vectoradd", "", "uc_rt_util");
  const auto j = run_stats(big, dir, " --with " + mechanism, "uc_rt_util");
  const double cycles = j["total_cycles"].get<double>();
  for (int i = 0; i < 16; ++i) {
    const auto& s = j["blocks"]["gpu.smx[" + std::to_string(i) + "]"];
    const auto& g = j["blocks"]["gpu.smx[" + std::to_string(i) + "].gcu"];
    double issued = 0;
    for (const char* k : {"int", "ldst", "other", "sp", "sfu", "dp", "branch", "tensor", "texture"})
      issued += s[std::string("mix_") + k].get<double>();
    const double memory = s["mix_ldst"].get<double>() + s["mix_texture"].get<double>();
    EXPECT_NEAR(g["utilization.sch"].get<double>() * 4 * cycles, issued, 1e-6) << i;
    EXPECT_NEAR(g["utilization.idoc_ldst"].get<double>() * 2 * cycles, memory, 1e-6) << i;
    EXPECT_NEAR(g["utilization.ex_ldst"].get<double>() * 32 * cycles, 32 * memory, 1e-6) << i;
    EXPECT_EQ(g["utilization.ex_sfu"].get<double>(), 0.0) << i;
  }
}

}  // namespace test_uc_run_time
