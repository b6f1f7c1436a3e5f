// Every bundled sample trace replays to completion on every shipped platform through the
// whole memory hierarchy, with each kernel's instruction count equal to the trace's own
// (from `gputlm trace info`, an independent reader of the same files).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/common/run_command.h"

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

void replay_all_samples(const std::string& platform) {
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
    auto r = run_command(std::string(GPUTLM_BIN) + " run " + GPUTLM_SOURCE_DIR + "/yaml/" +
                             platform + ".yaml " + t + " --no-tb-log --stats " + stats,
                         tag);
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
