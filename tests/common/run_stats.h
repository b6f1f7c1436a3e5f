// Runs `gputlm run PLATFORM TRACE OPTIONS` with its full statistics written to
// GPUTLM_TEST_TMP/TAG.json and returns them parsed; a run that fails is a test failure.
// For tests linked with nlohmann_json that compare whole runs.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/run_command.h"

namespace gputlm::testing {

inline std::string test_tmp(const std::string& name) {
  return std::string(GPUTLM_TEST_TMP) + "/" + name;
}

inline nlohmann::json run_stats(const std::string& platform, const std::string& trace,
                                const std::string& options, const std::string& tag) {
  const std::string stats = test_tmp(tag + ".json");
  std::filesystem::remove(stats);
  const auto r = run_command(gputlm_bin() + " run " + platform + " " + trace + options +
                                 " --no-wall-clock --stats-form=full --stats " + stats,
                             tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(slurp(stats));
}

}  // namespace gputlm::testing
