// Metric expressions over a statistics document written in the test: the values each path
// matches, aggregates, arithmetic and the cases without a value, against hand-computed
// numbers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sc_main/experiment/metric_expr.h"

namespace test_metric_expr {

using namespace gputlm::experiment;

namespace {

// The shape `gputlm run --stats` writes: summary keys, blocks by dotted path with dotted
// statistic names, kernel records, histograms.
const nlohmann::json k_stats = nlohmann::json::parse(R"({
  "total_cycles": 1000,
  "ipc": 2.5,
  "kernels": [ {"cycles": 300, "finished": true}, {"cycles": 500, "finished": true} ],
  "blocks": {
    "gpu": {"power.static_joules": 1.5},
    "gpu.smx[0]": {"warp_instructions": 10},
    "gpu.smx[0].l1": {"hits": 3, "accesses": 4, "mshr_occupancy": {"bucket_width": 1, "counts": [5, 6, 7]}},
    "gpu.smx[1]": {"warp_instructions": 20},
    "gpu.smx[1].l1": {"hits": 1, "accesses": 6, "miss_rate": null},
    "gpu.l2[0]": {"accesses": 9, "power.data.residency.on": 0.25}
  }
})");

double value(const std::string& text,
             const std::function<std::optional<double>(const std::string&)>& ref = {}) {
  expression e = expression::parse(text);
  std::string why;
  auto v = e.eval(
      k_stats, ref ? ref : [](const std::string&) { return std::optional<double>(); }, why);
  EXPECT_TRUE(v.has_value()) << text << ": " << why;
  return v.value_or(-1);
}

std::string no_value(const std::string& text) {
  expression e = expression::parse(text);
  std::string why;
  auto v = e.eval(
      k_stats, [](const std::string&) { return std::optional<double>(); }, why);
  EXPECT_FALSE(v.has_value()) << text;
  return why;
}

}  // namespace

TEST(metric_expr, paths_match_summary_block_and_kernel_values) {
  EXPECT_EQ(match_path(k_stats, "total_cycles"), std::vector<double>{1000});
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx[*].l1.hits"), (std::vector<double>{3, 1}));
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx[1].l1.accesses"), std::vector<double>{6});
  EXPECT_EQ(match_path(k_stats, "kernels[*].cycles"), (std::vector<double>{300, 500}));
  EXPECT_EQ(match_path(k_stats, "kernels[1].cycles"), std::vector<double>{500});
  EXPECT_EQ(match_path(k_stats, "kernels[*].finished"), (std::vector<double>{1, 1}));
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx[0].l1.mshr_occupancy.counts[*]"),
            (std::vector<double>{5, 6, 7}));
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.l2[0].power.data.residency.on"),
            std::vector<double>{0.25});
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.power.static_joules"), std::vector<double>{1.5});
  // `*` stays within a segment: it does not reach the L1s' statistics from the SMXs'.
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx[*].hits"), std::vector<double>{});
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.*.warp_instructions"), (std::vector<double>{10, 20}));
  EXPECT_EQ(match_path(k_stats, "blocks.*.warp_instructions"), std::vector<double>{});
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx*.warp_instructions"),
            (std::vector<double>{10, 20}));
  // null (NaN written by the registry) is not a value.
  EXPECT_EQ(match_path(k_stats, "blocks.gpu.smx[1].l1.miss_rate"), std::vector<double>{});
}

TEST(metric_expr, aggregates_and_arithmetic) {
  EXPECT_DOUBLE_EQ(value("sum(blocks.gpu.smx[*].l1.hits) / sum(blocks.gpu.smx[*].l1.accesses)"),
                   4.0 / 10.0);
  EXPECT_DOUBLE_EQ(value("mean(blocks.gpu.smx[*].l1.accesses)"), 5.0);
  EXPECT_DOUBLE_EQ(value("min(kernels[*].cycles)"), 300);
  EXPECT_DOUBLE_EQ(value("max(kernels[*].cycles)"), 500);
  EXPECT_DOUBLE_EQ(value("count(blocks.gpu.smx[*].warp_instructions)"), 2);
  EXPECT_DOUBLE_EQ(value("count(blocks.gpu.tpc[*].nothing)"), 0);
  EXPECT_DOUBLE_EQ(value("total(blocks.gpu.smx[*].l1.hits)"), 4);
  EXPECT_DOUBLE_EQ(value("total(blocks.gpu.tpc[*].nothing)"), 0);  // sum() has no value
  EXPECT_EQ(no_value("sum(blocks.gpu.tpc[*].nothing)"),
            "'blocks.gpu.tpc[*].nothing' matches no value");
  EXPECT_DOUBLE_EQ(value("total_cycles - sum(kernels[*].cycles)"), 200);
  EXPECT_DOUBLE_EQ(value("-ipc * 2 + 1"), -4);
  EXPECT_DOUBLE_EQ(value("(1 + 2) * 3 / 4"), 2.25);
  EXPECT_DOUBLE_EQ(value("1e3 / total_cycles"), 1);
}

TEST(metric_expr, references_to_other_metrics) {
  expression e = expression::parse("cycles / 2 + ipc");
  e.resolve({"cycles"});
  EXPECT_EQ(e.references(), std::vector<std::string>{"cycles"});
  EXPECT_EQ(e.paths(), std::vector<std::string>{"ipc"});
  std::string why;
  auto v = e.eval(
      k_stats,
      [](const std::string& n) { return n == "cycles" ? std::optional<double>(10) : std::nullopt; },
      why);
  ASSERT_TRUE(v);
  EXPECT_DOUBLE_EQ(*v, 7.5);
}

TEST(metric_expr, no_value_says_why) {
  EXPECT_EQ(
      no_value("blocks.gpu.smx[*].l1.hits"),
      "'blocks.gpu.smx[*].l1.hits' matches 2 values (aggregate them with sum, mean, min or max)");
  EXPECT_EQ(no_value("sum(blocks.gpu.l3[*].hits)"), "'blocks.gpu.l3[*].hits' matches no value");
  EXPECT_EQ(no_value("ipc / (total_cycles - 1000)"), "division by zero");
}

TEST(metric_expr, malformed_expressions_name_the_column) {
  auto error = [](const std::string& text) -> std::string {
    try {
      expression::parse(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("sum(blocks.x"), "at column 13: expected ')'");
  EXPECT_EQ(error("median(x)"),
            "at column 8: unknown function 'median' (sum, mean, min, max, count, total)");
  EXPECT_EQ(error("ipc +"), "at column 6: expected a value, a path or '('");
  EXPECT_EQ(error("ipc $"), "at column 5: unexpected '$'");
  EXPECT_EQ(error(""), "at column 1: expected a value, a path or '('");
}

TEST(metric_expr, paths_against_the_statistic_names_an_elaboration_lists) {
  const std::vector<std::string> names{"total_cycles", "kernels[*].cycles",
                                       "blocks.gpu.smx[0].l1.hits", "blocks.gpu.smx[1].l1.hits",
                                       "blocks.gpu.l2[0].mshr_occupancy.counts[*]"};
  EXPECT_TRUE(path_matches_any("total_cycles", names));
  EXPECT_TRUE(path_matches_any("kernels[3].cycles", names));  // any kernel: unknown before the run
  EXPECT_TRUE(path_matches_any("kernels[*].cycles", names));
  EXPECT_TRUE(path_matches_any("blocks.gpu.smx[*].l1.hits", names));
  EXPECT_TRUE(path_matches_any("blocks.gpu.smx[1].l1.hits", names));
  EXPECT_FALSE(path_matches_any("blocks.gpu.smx[2].l1.hits", names));  // no such SMX
  EXPECT_FALSE(path_matches_any("blocks.gpu.smx[*].l1.hitz", names));
  EXPECT_TRUE(path_matches_any("blocks.gpu.l2[0].mshr_occupancy.counts[4]", names));
  EXPECT_FALSE(path_matches_any("kernels[*].cycle", names));
}

}  // namespace test_metric_expr
