// Every bundled sample trace replays to completion on every shipped platform through the
// whole memory hierarchy, with each kernel's instruction count equal to the trace's own
// (from `gputlm trace info`, an independent reader of the same files). The SPU's kernel
// (its application carries an SPU note) runs on the SPU; elsewhere its CB and block-sync
// instructions are bad input: one line, exit status 2, no statistics written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/common/run_command.h"

namespace test_platform_samples {

using gputlm::testing::run_command;
using gputlm::testing::slurp;

namespace {

// Total dynamic warp instructions per `trace info` ("total: N warp instructions").
std::uint64_t trace_instructions(const std::string& trace, const std::string& tag) {
  auto r = run_command(std::string(GPUTLM_BIN) + " trace info " + trace, tag + "_info");
  EXPECT_EQ(r.status, 0) << r.err;
  std::smatch m;
  EXPECT_TRUE(std::regex_search(r.out, m, std::regex("total: ([0-9]+) warp instructions")));
  return m.empty() ? 0 : std::stoull(m[1]);
}

bool spu_kernel(const std::string& trace) {
  return slurp(trace + "/kernelslist.g").find("\n# spu ") != std::string::npos;
}

void replay_all_samples(const std::string& platform, bool spu = false) {
  const std::string samples = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples";
  std::vector<std::string> traces;
  // Every trace folder (a `<trace>.locality/` cache of the TB scheduler is not one).
  for (const auto& e : std::filesystem::directory_iterator(samples))
    if (std::filesystem::exists(e.path() / "kernelslist.g")) traces.push_back(e.path());
  std::sort(traces.begin(), traces.end());
  ASSERT_GE(traces.size(), 5u);
  for (const auto& t : traces) {
    // CDP and DTBL samples replay with their device-launched kernels: every kernel runs.
    const std::string name = std::filesystem::path(t).filename();
    const std::string tag = std::filesystem::path(platform).stem().string() + "_" + name;
    const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
    std::filesystem::remove(stats);
    auto r =
        run_command(std::string(GPUTLM_BIN) + " run " + GPUTLM_SOURCE_DIR + "/yaml/" + platform +
                        ".yaml " + t + " --no-tb-log --stats-form=full --stats " + stats,
                    tag);
    if (spu_kernel(t) && !spu) {
      EXPECT_EQ(r.status, 2) << name;
      EXPECT_NE(r.err.find("needs the SPU's communication buffers and block sync"),
                std::string::npos)
          << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_FALSE(std::filesystem::exists(stats)) << name;
      continue;
    }
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    auto j = nlohmann::json::parse(slurp(stats));
    for (const auto& k : j["kernels"]) EXPECT_TRUE(k["finished"].get<bool>()) << name;
    EXPECT_EQ(j["warp_instructions"].get<std::uint64_t>(), trace_instructions(t, tag)) << name;
    EXPECT_GT(j["total_cycles"].get<std::uint64_t>(), 0u) << name;
  }
}

}  // namespace

TEST(platform_samples, fermi) { replay_all_samples("fermi"); }
TEST(platform_samples, kepler) { replay_all_samples("kepler"); }
TEST(platform_samples, pascal) { replay_all_samples("pascal"); }
TEST(platform_samples, volta) { replay_all_samples("volta"); }
TEST(platform_samples, kepler_with_dtbl) { replay_all_samples("variants/kepler-dtbl"); }
// The SPU: its stencil in passes, every other sample placed as LRR does.
TEST(platform_samples, spu) { replay_all_samples("spu", true); }
TEST(platform_samples, uc_bigcore) { replay_all_samples("uc-bigcore"); }
TEST(platform_samples, uc_smallcore) { replay_all_samples("variants/uc-smallcore"); }

}  // namespace test_platform_samples
