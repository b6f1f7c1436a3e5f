// μC-States' static tune-down (models/power/gating_control_unit.h, yaml/mechanisms/
// uc-static.yaml) on the 16 big-core chip: an FP32 kernel of 8 independent chains per warp
// and 32 warps. With the SP units taking a warp every 4 cycles each (4 units: one warp a
// cycle) they are its limit: the same kernel issues over 1.9 warp instructions a cycle on
// the platform's own SP units, so fetch/decode and issue sustain more than the SP units
// give. With EX_SP's group 1 gated (2 units: half a warp a cycle) it takes twice the
// cycles. Tuning the SFU units down does not slow it. Fetch/decode tuned down fetches half
// the warps a cycle; the schedulers tuned down issue at most half as many warp
// instructions a cycle and starve no warp. A component without a second group is refused in
// one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/common/run_stats.h"

namespace test_uc_static {

using namespace gputlm::testing;

namespace {
const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";
const std::string big = yaml + "uc-bigcore.yaml";
const std::string mechanism = yaml + "mechanisms/uc-static.yaml";

nlohmann::json run(const std::string& dir, const std::string& opts, const std::string& tag) {
  return run_stats(big, dir, opts, tag);
}
}  // namespace

TEST(uc_static, ex_sp_tuned_down_halves_a_throughput_bound_kernel) {
  const std::string dir = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_sp_chain");
  const auto front = run(dir, "", "uc_sp_front");
  EXPECT_GT(front["warp_ipc"].get<double>(), 1.9);  // what fetch and issue sustain
  const std::string slow_sp = " --set smx.sp_initiation=4cycles";
  const auto on = run(dir, slow_sp, "uc_sp_on");
  const auto down =
      run(dir,
          slow_sp + " --with " + mechanism +
              " --set smx.gcu.static_config=none --set smx.gcu.static_tune_down=[ex_sp]",
          "uc_sp_down");
  const auto sfu =
      run(dir,
          slow_sp + " --with " + mechanism +
              " --set smx.gcu.static_config=none --set smx.gcu.static_tune_down=[ex_sfu]",
          "uc_sfu_down");
  const double c_on = on["total_cycles"].get<double>(), c_down = down["total_cycles"].get<double>();
  // All on: about one warp instruction a cycle (the SP units' peak; 95 % of the kernel's
  // instructions are FP32), half of what the front end sustains.
  EXPECT_NEAR(on["warp_ipc"].get<double>(), 1.0, 0.05);
  // Group 1 gated: half a warp a cycle, twice the cycles.
  EXPECT_NEAR(c_down / c_on, 2.0, 0.05);
  EXPECT_EQ(down["thread_instructions"], on["thread_instructions"]);
  EXPECT_EQ(sfu["total_cycles"], on["total_cycles"]);
}

// IFID tuned down fetches half the warps a cycle (2 -> 1). With one instruction a fetch the
// front end then brings at most one instruction a cycle, so the same kernel needs at least
// as many cycles as it has warp instructions; all on, it issues over 1.8 a cycle (bound 2).
TEST(uc_static, ifid_tuned_down_halves_the_fetch) {
  const std::string dir = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_ifid_chain");
  const std::string narrow = " --set smx.fetch_width=1";
  const auto on = run(dir, narrow, "uc_ifid_on");
  const auto down =
      run(dir,
          narrow + " --with " + mechanism +
              " --set smx.gcu.static_config=none --set smx.gcu.static_tune_down=[ifid]",
          "uc_ifid_down");
  EXPECT_GT(on["warp_ipc"].get<double>(), 1.8);
  EXPECT_LE(on["warp_ipc"].get<double>(), 2.0 + 1e-9);
  const double insts = down["warp_instructions"].get<double>();
  EXPECT_GE(down["total_cycles"].get<double>(), insts);
  EXPECT_LE(down["total_cycles"].get<double>(), 1.02 * insts);
  EXPECT_EQ(down["thread_instructions"], on["thread_instructions"]);
}

// SCH tuned down: schedulers 2 and 3 are gated, 0 and 1 also serve their warps (one issue a
// cycle each), so at most 2 warp instructions a cycle issue, against the 4 schedulers' 4;
// every warp still runs to its end (the same instructions, GTO and LRR alike).
TEST(uc_static, sch_tuned_down_serves_every_warp_at_half_the_issue_width) {
  const std::string dir = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_sch_chain");
  for (const char* policy : {"gto", "lrr"}) {
    const std::string p = std::string(" --set smx.scheduler_policy=") + policy;
    const auto on = run(dir, p, std::string("uc_sch_on_") + policy);
    const auto down =
        run(dir,
            p + " --with " + mechanism +
                " --set smx.gcu.static_config=none --set smx.gcu.static_tune_down=[sch]",
            std::string("uc_sch_down_") + policy);
    EXPECT_GT(on["warp_ipc"].get<double>(), 2.0) << policy;  // more than two schedulers give
    EXPECT_LE(down["warp_ipc"].get<double>(), 2.0 + 1e-9) << policy;
    EXPECT_GT(down["total_cycles"].get<double>(), on["total_cycles"].get<double>()) << policy;
    EXPECT_EQ(down["thread_instructions"], on["thread_instructions"]) << policy;
    EXPECT_EQ(down["warp_instructions"], on["warp_instructions"]) << policy;
  }
}

TEST(uc_static, c_half_halves_an_sp_bound_kernel_and_barely_slows_a_streaming_one) {
  // C_HALF (Table 2: every component tuned down): the FP32 kernel bound by the SP units
  // (one warp a cycle, above) gets half of them: about half its IPC. A streaming kernel,
  // bound by DRAM bandwidth, loses almost nothing; with the groups gated its chip static
  // power falls by the gated groups' share.
  const std::string chain = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_half_chain");
  const std::string slow_sp = " --set smx.sp_initiation=4cycles";
  const auto on = run(chain, slow_sp, "uc_half_chain_on");
  const auto half = run(chain, slow_sp + " --with " + mechanism, "uc_half_chain_half");
  const double r = half["warp_ipc"].get<double>() / on["warp_ipc"].get<double>();
  EXPECT_GT(r, 0.45);
  EXPECT_LT(r, 0.55);
  const std::string stream =
      generated_trace("stream", " -p footprint=4194304 -p passes=1", "uc_half_stream");
  const auto s_on = run(stream, "", "uc_half_stream_on");
  const auto s_half = run(stream, " --with " + mechanism, "uc_half_stream_half");
  EXPECT_GT(s_half["warp_ipc"].get<double>() / s_on["warp_ipc"].get<double>(), 0.97);
  auto static_watts = [](const nlohmann::json& j) {
    return j["static_joules"].get<double>() / j["simulated_seconds"].get<double>();
  };
  EXPECT_LT(static_watts(s_half), static_watts(s_on));
  const auto& sm = s_half["blocks"]["gpu.smx[0]"];
  EXPECT_DOUBLE_EQ(sm["power.sp.residency.pg"].get<double>(), 0.5);  // group 1 of two, always
  EXPECT_DOUBLE_EQ(sm["power.ldst.residency.cg"].get<double>(), 0.5);
}

TEST(uc_static, ex_ldst_tuned_down_generates_a_full_warps_addresses_in_two_cycles) {
  // One warp's 1,024 shared loads, each waiting for the one before (the same destination):
  // with EX_LDST's group 1 gated, 16 lanes generate a full warp's addresses in two cycles
  // instead of one, so each load is one cycle later: 1,024 cycles more.
  const std::string dir = generated_trace("smem_bank", " -p stride=1", "uc_ldst_smem");
  const auto on = run(dir, "", "uc_ldst_on");
  const auto down = run(dir,
                        " --with " + mechanism +
                            " --set smx.gcu.static_config=none --set "
                            "smx.gcu.static_tune_down=[ex_ldst]",
                        "uc_ldst_down");
  EXPECT_EQ(down["total_cycles"].get<std::uint64_t>() - on["total_cycles"].get<std::uint64_t>(),
            1024u);
  EXPECT_EQ(down["warp_instructions"], on["warp_instructions"]);
}

TEST(uc_static, the_sp_pipelines_collectors_and_registers_tuned_down_issue_half) {
  // The FP32 kernel (every instruction of the SP type but its few stores) with two SP
  // issue-to-collector slots issues up to two a cycle (over 1.8); with IDOC_SP tuned down
  // (one slot) at most one. The same with two SP collector units, each held at least the
  // issue cycle (over 1.5 a cycle): with OC_SP tuned down (one unit), at most one a cycle.
  const std::string dir = generated_trace(
      "fu_chain", " -p unit=fp32 -p chains=8 -p warps=32 -p iterations=64", "uc_idoc_chain");
  auto ipc = [](const nlohmann::json& j) {
    return j["warp_instructions"].get<double>() / j["total_cycles"].get<double>();
  };
  // The kernel with `two` (two of the SP component's slots or units): its IPC with the
  // component whole (above `whole`) and with it tuned down (one: at most one a cycle).
  auto halves = [&](const std::string& two, const char* component, double whole) {
    const std::string tag = std::string("uc_half_") + component;
    const auto on = run(dir, two, tag + "_on");
    EXPECT_GT(ipc(on), whole) << component;
    const auto down = run(dir,
                          two + " --with " + mechanism +
                              " --set smx.gcu.static_config=none --set "
                              "smx.gcu.static_tune_down=[" +
                              component + "]",
                          tag + "_down");
    EXPECT_LE(ipc(down), 1.0) << component;
    EXPECT_GT(ipc(down), 0.95) << component;
    EXPECT_EQ(down["warp_instructions"], on["warp_instructions"]) << component;
  };
  halves(" --set smx.id_oc_widths=[2,1,1]", "idoc_sp", 1.8);
  // (Bank conflicts hold a collector unit longer than its issue cycle.)
  halves(" --set smx.collectors_sp=2", "oc_sp", 1.5);
  // Two SP collector-to-execution slots: tuned down (one), one SP instruction reaches the
  // SP units a cycle; the collectors wait for the slot, the schedulers for a collector.
  halves(" --set smx.oc_ex_widths=[2,1,1]", "ocex_sp", 1.8);
}

TEST(uc_static, a_component_without_a_second_group_is_refused_in_one_line) {
  const std::string dir = generated_trace("vectoradd", "", "uc_refuse");
  for (const char* c : {"ocex_sp", "nonsense"}) {
    const auto r = run_command(
        gputlm_bin() + " run " + big + " " + dir + " --set smx.oc_ex_widths=[0,0,0] --with " +
            mechanism + " --set smx.gcu.static_config=none --set smx.gcu.static_tune_down=[" + c +
            "]",
        "uc_refuse");
    EXPECT_EQ(r.status, 2) << c;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("static_tune_down"), std::string::npos) << r.err;
  }
  // So is a pipeline register list of more than three types, or a width over 64.
  for (const char* w : {"oc_ex_widths=[1,1,1,1]", "id_oc_widths=[65,1,1]"}) {
    const auto r =
        run_command(gputlm_bin() + " run " + big + " " + dir + " --set smx." + w, "uc_refuse");
    EXPECT_EQ(r.status, 2) << w;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(std::string(w).substr(0, 12)), std::string::npos) << r.err;
  }
}

}  // namespace test_uc_static
