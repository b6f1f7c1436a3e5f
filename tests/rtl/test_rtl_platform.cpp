// The TB dispatch unit in RTL inside the whole GPU, and the choice of a block's
// implementation (docs/rtl.md): samples replayed with smx_scheduler.dispatch.implementation=rtl
// give statistics byte-identical to the C++ scheduler's on the TITAN V and the GTX480 (the
// RTL's TBCRs are what the SMXs run), and differ with the off-by-one build; the choice
// written as a YAML parameter group; a missing, changed or broken source, another block's
// source, an unknown top module or define, a policy the RTL does not implement: one line,
// exit 2. The build's port check (scripts/rtl-ports.py) stops a source whose port width
// differs from the transactor's. The RTL's waveform beside --vcd. bench/rtl/compare.sh runs
// every sample.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/common/rtl_stats.h"
#include "tests/common/run_command.h"

namespace test_rtl_platform {

using gputlm::testing::gputlm_bin;
using gputlm::testing::run_command;
using gputlm::testing::slurp;
using gputlm::testing::without_rtl_edges;
using gputlm::testing::write_text;

namespace {
const std::string src = GPUTLM_SOURCE_DIR;
const std::string tmp = GPUTLM_TEST_TMP;

std::string stats_of(const std::string& platform, const std::string& sample,
                     const std::string& sets, const std::string& tag) {
  const std::string out = tmp + "/rtl_platform_" + tag + ".json";
  const auto r = run_command(gputlm_bin() + " run " + src + "/yaml/" + platform + ".yaml " + src +
                                 "/traces/samples/" + sample + " --no-wall-clock --no-tb-log" +
                                 sets + " --stats-form=full --stats " + out,
                             "rtl_platform_" + tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return slurp(out);
}

const std::string rtl = " --set smx_scheduler.dispatch.implementation=rtl";

void same(const std::string& platform, const std::string& sample, const std::string& extra = "",
          const std::string& tag = "") {
  const std::string cpp = stats_of(platform, sample, extra, platform + sample + tag + "_cpp");
  double edges = 0;
  const std::string r = without_rtl_edges(
      stats_of(platform, sample, extra + rtl, platform + sample + tag + "_rtl"), &edges);
  ASSERT_GT(cpp.size(), 1000u);
  EXPECT_TRUE(without_rtl_edges(cpp, nullptr) == r) << platform << " " << sample
                                                    << ": statistics differ";
  EXPECT_GT(edges, 0) << platform << " " << sample << ": the RTL dispatch unit never ran";
}

// The first line of a failed elaboration of the TITAN V with `sets`; expects exit 2.
std::string error_of(const std::string& sets, const std::string& tag) {
  const auto r = run_command(gputlm_bin() + " elaborate " + src + "/yaml/volta.yaml" + sets, tag);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  return r.err;
}
}  // namespace

TEST(rtl_platform, titan_v_samples_match_with_the_rtl_dispatch_unit) {
  same("volta", "vectoradd");
  same("volta", "bfs_cdp");  // device-launched kernels: KDEs come and go
  // Two KDEs: launches wait for a free entry, which the KD refills as a kernel completes.
  same("volta", "bfs_cdp", " --set kd.entries=2", "_kd2");
}

TEST(rtl_platform, gtx480_samples_match_with_the_rtl_dispatch_unit) {
  same("fermi", "sgemm_tiled");
  same("fermi", "histogram");
}

TEST(rtl_platform, the_off_by_one_dispatch_unit_changes_the_run) {
  const std::string cpp = stats_of("fermi", "vectoradd", "", "obo_cpp");
  const std::string bad = stats_of(
      "fermi", "vectoradd", rtl + " --set smx_scheduler.dispatch.define=TBD_OFF_BY_ONE", "obo_rtl");
  ASSERT_GT(bad.size(), 1000u);
  EXPECT_FALSE(without_rtl_edges(cpp, nullptr) == without_rtl_edges(bad, nullptr));
}

// A huge file named as the RTL source is refused by its size, not read or handed to
// Verilator.
TEST(rtl_platform, an_oversized_rtl_source_is_refused_unread) {
  const std::string big = tmp + "/huge.sv";
  {
    std::ofstream f(big, std::ios::binary);
    f.seekp((5 << 20) - 1);  // 5 MiB, sparse
    f.put('\n');
  }
  const std::string err = error_of(rtl + " --set smx_scheduler.dispatch.rtl=" + big, "rtl_huge");
  EXPECT_NE(err.find("dispatch.rtl: RTL source '" + big + "' is 5242880 bytes; at most 4 MiB"),
            std::string::npos)
      << err;
}

TEST(rtl_platform, the_choice_is_a_parameter_group_in_yaml) {
  const std::string yaml = tmp + "/rtl_group.yaml";
  std::string text = slurp(src + "/yaml/fermi.yaml");
  const std::string anchor = "    type: smx_scheduler\n";
  const auto at = text.find(anchor);
  ASSERT_NE(at, std::string::npos);
  text.insert(
      at + anchor.size(),
      "    dispatch:\n      implementation: rtl\n      rtl: rtl/tb_dispatch/tb_dispatch.sv\n"
      "      top: tb_dispatch\n");
  write_text(yaml, text);
  const auto r = run_command(gputlm_bin() + " elaborate " + yaml, "rtl_group");
  EXPECT_EQ(r.status, 0) << r.err;
  // A block inside a group is refused.
  std::string nested = text;
  nested.insert(nested.find("      top: tb_dispatch\n"), "      sub:\n        x: 1\n");
  write_text(tmp + "/rtl_group_nested.yaml", nested);
  const auto n = run_command(gputlm_bin() + " elaborate " + tmp + "/rtl_group_nested.yaml",
                             "rtl_group_nested");
  EXPECT_EQ(n.status, 2);
  EXPECT_NE(n.err.find("smx_scheduler.dispatch.sub: a parameter group holds values, not blocks"),
            std::string::npos)
      << n.err;
}

TEST(rtl_platform, bad_rtl_choices_are_one_line_errors) {
  EXPECT_NE(error_of(" --set smx_scheduler.dispatch.implementation=verilog", "rtl_e1")
                .find("gpu.smx_scheduler.dispatch.implementation: must be cpp or rtl"),
            std::string::npos);
  EXPECT_NE(error_of(rtl + " --set smx_scheduler.dispatch.rtl=rtl/none/none.sv", "rtl_e2")
                .find("gpu.smx_scheduler.dispatch.rtl: RTL source 'rtl/none/none.sv' not found"),
            std::string::npos);
  EXPECT_NE(
      error_of(rtl + " --set smx_scheduler.dispatch.rtl=rtl/mshr_table/mshr_table.sv", "rtl_e3")
          .find("is the RTL of mshr_table, not of tb_dispatch"),
      std::string::npos);
  EXPECT_NE(error_of(rtl + " --set smx_scheduler.dispatch.top=dispatcher", "rtl_e4")
                .find("gpu.smx_scheduler.dispatch.top: no top module 'dispatcher' built from "
                      "'rtl/tb_dispatch/tb_dispatch.sv' (built: tb_dispatch)"),
            std::string::npos);
  EXPECT_NE(error_of(rtl + " --set smx_scheduler.dispatch.define=FAST", "rtl_e5")
                .find("(built: none, TBD_OFF_BY_ONE)"),
            std::string::npos);
  EXPECT_NE(error_of(rtl + " --set smx_scheduler.policy=bcs", "rtl_e6")
                .find("gpu.smx_scheduler.policy: must be lrr with dispatch.implementation: rtl"),
            std::string::npos);
  EXPECT_NE(error_of(rtl + " --set smx_scheduler.dtbl=true", "rtl_e7")
                .find("gpu.smx_scheduler.dtbl: must be false with dispatch.implementation: rtl"),
            std::string::npos);
  EXPECT_NE(error_of(" --set smx.l1.mshr.implementation=rtl --set smx.l1.mshr.define=X", "rtl_e8")
                .find("gpu.smx[0].l1.mshr.define: no build of 'rtl/mshr_table/mshr_table.sv'"),
            std::string::npos);
  EXPECT_NE(
      error_of(" --set smx_scheduler.dispatch.implementaton=rtl", "rtl_e9").find("unknown key"),
      std::string::npos);
}

TEST(rtl_platform, a_changed_or_broken_source_is_named) {
  const std::string text = slurp(src + "/rtl/tb_dispatch/tb_dispatch.sv");
  write_text(tmp + "/tbd_changed.sv", text + "// a comment\n");
  EXPECT_NE(
      error_of(rtl + " --set smx_scheduler.dispatch.rtl=" + tmp + "/tbd_changed.sv", "rtl_changed")
          .find("differs from the tb_dispatch RTL built into this binary "
                "(rtl/tb_dispatch/tb_dispatch.sv): rebuild (make) to co-simulate it"),
      std::string::npos);
  std::string broken = text;
  broken.replace(broken.rfind("endmodule"), 9, "endmodul");
  write_text(tmp + "/tbd_broken.sv", broken);
  const std::string e =
      error_of(rtl + " --set smx_scheduler.dispatch.rtl=" + tmp + "/tbd_broken.sv", "rtl_broken");
  EXPECT_NE(e.find("does not build: %Error: " + tmp + "/tbd_broken.sv:"), std::string::npos) << e;
}

TEST(rtl_platform, the_build_refuses_a_port_width_the_transactor_does_not_drive) {
  std::string text = slurp(src + "/rtl/tb_dispatch/tb_dispatch.sv");
  const std::string port = "input  logic [319:0] req_data";
  ASSERT_NE(text.find(port), std::string::npos);
  text.replace(text.find(port), port.size(), "input  logic [255:0] req_data");
  write_text(tmp + "/tbd_narrow.sv", text);
  const auto r = run_command(
      "python3 " + src + "/scripts/rtl-ports.py --block tb_dispatch --source " + tmp +
          "/tbd_narrow.sv --top tb_dispatch --ports " + src + "/models/rtl/tb_dispatch_rtl.ports",
      "rtl_ports_narrow");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "error: RTL block tb_dispatch (" + tmp +
                       "/tbd_narrow.sv): port req_data is 256 bits wide, the transactor expects "
                       "320\n");
  const auto ok =
      run_command("python3 " + src + "/scripts/rtl-ports.py --block tb_dispatch --source " + src +
                      "/rtl/tb_dispatch/tb_dispatch.sv --top tb_dispatch --ports " + src +
                      "/models/rtl/tb_dispatch_rtl.ports",
                  "rtl_ports_ok");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(rtl_platform, vcd_writes_the_rtl_signals_beside_the_waveform) {
  const std::string vcd = tmp + "/rtl_wave.vcd";
  const auto r = run_command(gputlm_bin() + " run " + src + "/yaml/fermi.yaml " + src +
                                 "/traces/samples/vectoradd --no-tb-log" + rtl +
                                 " --set smx.l1.mshr.implementation=rtl --vcd " + vcd +
                                 " --trace 'smx_scheduler.*' --trace 'smx[1].l1.*'",
                             "rtl_wave");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string dispatch = slurp(tmp + "/rtl_wave.gpu.smx_scheduler.dispatch.vcd");
  EXPECT_NE(dispatch.find("$timescale 1fs $end"), std::string::npos);
  EXPECT_NE(dispatch.find("rsp_tbcr"), std::string::npos);
  const std::string layout = slurp(tmp + "/rtl_wave.gpu.smx_scheduler.dispatch.gtkw");
  EXPECT_NE(layout.find("-gpu.smx_scheduler.dispatch (RTL)"), std::string::npos);
  EXPECT_NE(slurp(tmp + "/rtl_wave.gpu.smx[1].l1.mshr.vcd").find("req_line"), std::string::npos);
  // Only the selected blocks' RTL.
  EXPECT_TRUE(slurp(tmp + "/rtl_wave.gpu.smx[0].l1.mshr.vcd").empty());
}

}  // namespace test_rtl_platform
