// docs/architecture.md's worked example: a controller of its own file (the block type
// registered there), attached to every SMX of the GTX480 by a mechanism file alone, with no
// edit to any block. Its count is checked against a computation from the run's TB log: an
// SMX is idle whenever none of its TBs' [start, end) intervals covers the cycle, up to the
// run's last cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "models/control/workload.h"
#include "platforms/platform.h"
#include "tests/architecture/idle_smx_counter_example.h"
#include "tests/common/run_command.h"
#include "traces/trace_reader.h"

namespace test_architecture_example {

using namespace gputlm;

namespace {
// Cycles of [0, end) that no interval covers.
std::uint64_t uncovered(std::vector<std::pair<std::uint64_t, std::uint64_t>> iv,
                        std::uint64_t end) {
  std::sort(iv.begin(), iv.end());
  std::uint64_t covered = 0, reach = 0;
  for (const auto& [a, b] : iv) {
    const std::uint64_t from = std::max(a, reach), to = std::min(b, end);
    if (to > from) covered += to - from;
    reach = std::max(reach, b);
  }
  return end - covered;
}
}  // namespace

TEST(architecture_example, an_idle_counter_beside_every_smx_by_yaml_alone) {
  const std::string tmp = GPUTLM_TEST_TMP;
  gputlm::testing::write_text(tmp + "/idle_counter.yaml",
                      "gpu:\n"
                      "  smx:\n"
                      "    idle: { type: idle_smx_counter }\n"
                      "    bind+:\n"
                      "      - events -> idle.watch\n");
  // bfs: several kernels, so the SMXs fall idle between them.
  auto p = platforms::platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", {},
                                     {tmp + "/idle_counter.yaml"});
  control::workload work(
      traces::open_trace(std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/bfs", {}));
  work.open_all();
  p->set_workload(&work);
  sc_core::sc_start();
  const std::uint64_t end = p->top().clock().cycle_at_fs(clock_domain::now_fs());
  // Each SMX's TBs, from the scheduler's log.
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> by_smx;
  for (const auto& k : work.kernels())
    for (const auto& e : k.tbs) by_smx[e.smx].push_back({e.start_cycle, e.end_cycle});
  const auto stats = nlohmann::json::parse(p->stats().to_json());
  int checked = 0;
  for (std::uint32_t s = 0; s < 15; ++s) {
    const std::string block = "gpu.smx[" + std::to_string(s) + "].idle";
    ASSERT_TRUE(stats["blocks"].contains(block)) << block;
    const auto got = stats["blocks"][block]["idle_cycles"].get<double>();
    EXPECT_EQ(got, double(uncovered(by_smx[s], end))) << block;
    EXPECT_GT(got, 0);  // every SMX waits between bfs's kernels
    ++checked;
  }
  EXPECT_EQ(checked, 15);
}

// The page shows exactly the code the test runs.
TEST(architecture_example, the_page_shows_the_code_that_runs) {
  const auto doc =
      gputlm::testing::slurp(std::string(GPUTLM_SOURCE_DIR) + "/docs/architecture.md");
  const auto hdr = gputlm::testing::slurp(std::string(GPUTLM_SOURCE_DIR) +
                                  "/tests/architecture/idle_smx_counter_example.h");
  const auto a = hdr.find("// --- example ---\n") + 19, b = hdr.find("// --- end ---");
  const auto c = doc.find("```cpp\n// Per SMX, the cycles") ;
  ASSERT_NE(c, std::string::npos);
  EXPECT_EQ(doc.substr(c + 7, doc.find("```", c + 7) - c - 7), hdr.substr(a, b - a));
}

}  // namespace test_architecture_example
