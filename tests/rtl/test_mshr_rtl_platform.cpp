// The L1 MSHR table in RTL inside the whole GPU: bundled samples replayed with every L1's
// table in RTL (smx.l1.mshr.implementation=rtl) give statistics byte-identical to the C++
// table's, on the TITAN V (allocate-on-miss L1: entries found through reserved lines) and
// the TITAN X with its L1 caching global loads (streaming allocation: entries found by line,
// the RTL's FIND); a table larger than the RTL's storage is refused as bad input.
// bench/rtl/compare.sh runs every sample.
#include <gtest/gtest.h>

#include <string>

#include "tests/common/rtl_stats.h"
#include "tests/common/run_command.h"

namespace test_mshr_rtl_platform {

using gputlm::testing::gputlm_bin;
using gputlm::testing::run_command;
using gputlm::testing::slurp;
using gputlm::testing::without_rtl_edges;

namespace {
// The statistics of one run (--no-wall-clock: nothing of the host's in them).
std::string stats_of(const std::string& platform, const std::string& sample, bool rtl,
                     const std::string& extra) {
  const std::string tmp = GPUTLM_TEST_TMP;
  const std::string out =
      tmp + "/mshr_rtl_" + platform + "_" + sample + (rtl ? "_rtl" : "_cpp") + ".json";
  const std::string cmd = gputlm_bin() + " run " + std::string(GPUTLM_SOURCE_DIR) + "/yaml/" +
                          platform + ".yaml " + std::string(GPUTLM_SOURCE_DIR) +
                          "/traces/samples/" + sample + " --no-wall-clock --no-tb-log" +
                          (rtl ? " --set smx.l1.mshr.implementation=rtl" : "") + extra +
                          " --stats-form=full --stats " + out;
  const auto r = run_command(cmd, "mshr_rtl_" + platform + sample);
  EXPECT_EQ(r.status, 0) << r.err;
  return slurp(out);
}

void same(const std::string& platform, const std::string& sample, const std::string& extra = "") {
  const std::string cpp = stats_of(platform, sample, false, extra);
  double edges = 0;
  const std::string rtl = without_rtl_edges(stats_of(platform, sample, true, extra), &edges);
  ASSERT_GT(cpp.size(), 1000u);
  EXPECT_TRUE(without_rtl_edges(cpp, nullptr) == rtl) << platform << " " << sample
                                                      << ": statistics differ";
  EXPECT_GT(edges, 0) << platform << " " << sample << ": the RTL MSHR tables never ran";
}
}  // namespace

TEST(mshr_rtl_platform, titan_v_samples_match) {
  same("volta", "vectoradd");
  same("volta", "spmv");
}

TEST(mshr_rtl_platform, titan_x_caching_global_loads_samples_match) {
  same("pascal", "bfs", " --set smx.l1.bypass_global_loads=false");
  same("pascal", "stencil2d", " --set smx.l1.bypass_global_loads=false");
}

TEST(mshr_rtl_platform, a_table_beyond_the_rtl_is_bad_input) {
  const auto r = run_command(gputlm_bin() + " elaborate " + std::string(GPUTLM_SOURCE_DIR) +
                                 "/yaml/volta.yaml --set smx.l1.mshr.implementation=rtl" +
                                 " --set smx.l1.mshr_merge=32",
                             "mshr_rtl_too_big");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("mshr_merge"), std::string::npos) << r.err;
  const auto bad = run_command(gputlm_bin() + " elaborate " + std::string(GPUTLM_SOURCE_DIR) +
                                   "/yaml/volta.yaml --set smx.l1.mshr.implementation=verilog",
                               "mshr_rtl_bad_name");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("must be cpp or rtl"), std::string::npos) << bad.err;
}

// Platform identity proves something of the RTL only where its bug would show: on the
// TITAN V's stencil2d (sectored L1, requests merged into entries with fills outstanding) the
// off-by-one build (MSHR_OFF_BY_ONE) loses requests and the run cannot finish: the
// deadlock report (exit 1) names the L1's MSHRs; the correct build runs the RTL to the end.
TEST(mshr_rtl_platform, the_off_by_one_mshr_table_breaks_a_sectored_run) {
  double edges = 0;
  without_rtl_edges(stats_of("volta", "stencil2d", true, ""), &edges);
  EXPECT_GT(edges, 0);
  const auto r = run_command(gputlm_bin() + " run " + std::string(GPUTLM_SOURCE_DIR) +
                                 "/yaml/volta.yaml " + std::string(GPUTLM_SOURCE_DIR) +
                                 "/traces/samples/stencil2d --no-wall-clock --no-tb-log"
                                 " --set smx.l1.mshr.implementation=rtl"
                                 " --set smx.l1.mshr.define=MSHR_OFF_BY_ONE",
                             "mshr_rtl_off_by_one");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("MSHRs"), std::string::npos) << r.err;
}

}  // namespace test_mshr_rtl_platform
