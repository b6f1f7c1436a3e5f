// μC-States' power tables (yaml/uc-bigcore.yaml, yaml/variants/uc-smallcore.yaml, written by
// scripts/power-table.py ucbig / ucsmall): a core's static power is McPAT's GTX480 core
// leakage, 2.835602 W, split over its parts in proportion to their McPAT areas (S002 §5),
// the big core's doubled parts twice theirs. By hand from the areas (mm², of 44.029137):
// the doubled parts are SP 31.966879, SFU 0.833078, LD/ST queue 1.201924, schedulers
// 0.015351, decoder and instruction buffer 0.189182, operand collectors 0.001015, pipeline
// registers 0.507840 (34.715269 in all), and the register-file banks 1.852247 grow by
// 36,864 / 32,768: a big core is (44.029137 + 34.715269 + 1.852247 x 0.125) / 44.029137 =
// 1.793703 small cores. So 16 small cores draw 45.3696 W of static power and 16 big ones
// 81.3806 W; the L2 banks and the crossbar, 85 % of the non-core 40 % of the big chip
// (81.3806 / 0.6 x 0.4 x 0.85), draw 46.1157 W on both chips. Measured over an idle-free
// run with no mechanism (every component ON; a core without TBs draws the same static power):
// static joules / simulated seconds per block.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/run_stats.h"

namespace test_uc_power_table {

using namespace gputlm::testing;

namespace {
const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";

// Static watts of the table entries whose key starts with one of `prefixes`.
double static_watts(const nlohmann::json& j, std::initializer_list<const char*> prefixes) {
  double joules = 0;
  for (const auto& [key, v] : j["power"]["by_component"].items())
    for (const char* p : prefixes)
      if (key.rfind(p, 0) == 0) joules += v["static_joules"].get<double>();
  return joules / j["simulated_seconds"].get<double>();
}
}  // namespace

TEST(uc_power_table, static_power_follows_the_mcpat_areas_on_both_chips) {
  const std::string trace = generated_trace("vectoradd", "", "uc_table_va");
  const double small_core = 2.835602;
  const double big_core =
      small_core * (44.029137 + 34.715269 + 1.852247 * 0.125) / 44.029137;  // 1.793703 x
  const double noncore = 16 * big_core / 0.6 * 0.4;
  for (const auto& [platform, core] :
       {std::pair{yaml + "uc-bigcore.yaml", big_core},
        std::pair{yaml + "variants/uc-smallcore.yaml", small_core}}) {
    const auto j = run_stats(platform, trace, "", "uc_table");
    EXPECT_NEAR(static_watts(j, {"smx.", "l1_cache."}), 16 * core, 1e-3 * 16 * core) << platform;
    EXPECT_NEAR(static_watts(j, {"l2_cache.", "crossbar."}), 0.85 * noncore, 1e-3 * noncore)
        << platform;
  }
  EXPECT_NEAR(16 * big_core, 81.3806, 1e-3);
  EXPECT_NEAR(0.85 * noncore, 46.1157, 1e-3);
}

}  // namespace test_uc_power_table
