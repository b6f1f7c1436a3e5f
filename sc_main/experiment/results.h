// The outputs of an experiment (docs/experiments.md, "Outputs"): each point's metrics taken
// from its statistics, the summary per metric (mean over repetitions and their spread,
// compared with the baseline configuration, geometric or arithmetic mean over workloads and
// groups), and their forms: results.csv, results.json and report.md.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sc_main/experiment/experiment_spec.h"

namespace gputlm::experiment {

struct point_result {
  std::size_t platform = 0, configuration = 0, workload = 0;
  std::uint32_t repetition = 0;
  std::string key;  // content key; the point's folder is points/<key>
  bool ok = false;
  bool reused = false;                        // its statistics were there from an earlier run
  std::string error;                          // why it failed
  double seconds = 0;                         // host time of its `gputlm run` (0 when reused)
  std::vector<std::optional<double>> values;  // per metric
  std::vector<std::string> why;               // per metric: why there is no value
};

// Evaluates every metric of `x` on a point's statistics (in dependency order).
void evaluate_metrics(const experiment_spec& x, const nlohmann::json& stats, point_result& r);

// One summary cell: the mean over repetitions and its comparison with the baseline.
struct summary_cell {
  std::optional<double> value, compared;
  std::size_t of = 0, count = 0;  // aggregate rows: workloads in it, and with a value
  // A workload with repetitions: the least and greatest over its repetitions of the number
  // the summary shows (each repetition compared with the baseline's same repetition, or its
  // value when the metric is not compared); none when a repetition has no such number.
  std::optional<double> min, max;
};

class experiment_results {
 public:
  experiment_results(const experiment_spec& x, std::vector<point_result> points,
                     std::string commit);

  const std::vector<point_result>& points() const { return m_points; }
  std::size_t failed() const;
  std::size_t reused() const;

  // Per metric, platform, configuration: the workloads', then "group:<g>"s and "geomean".
  const summary_cell& cell(std::size_t metric, std::size_t platform, std::size_t configuration,
                           const std::string& row) const;
  std::vector<std::string> rows() const;  // workload names, "group:<g>"..., "geomean"
  // What a paper value stands beside: the compared value, or the value of a metric that is
  // not compared with the baseline.
  std::optional<double> paper_side(std::size_t metric, std::size_t platform,
                                   std::size_t configuration, const std::string& row) const;
  // A compared metric that no configuration moves on this platform: every workload's
  // compared value is the baseline's exactly (1 for a ratio, 0 for a difference), in every
  // configuration. Its comparisons show nothing (e.g. L2 accesses under TB policies on a GPU
  // whose L1 global loads bypass): no paper value is printed beside it.
  bool cannot_move(std::size_t metric, std::size_t platform) const;

  std::string csv() const;
  std::string json() const;
  // `plots`: the plot files made (names without extension), shown in the report.
  std::string markdown(const std::vector<std::string>& plots, const std::string& plot_note) const;

 private:
  void summarise();
  std::optional<double> compare(const metric& m, std::optional<double> v,
                                std::optional<double> base) const;

  const experiment_spec& m_x;
  std::vector<point_result> m_points;
  std::string m_commit;
  // [metric][platform][configuration][row]
  std::vector<std::vector<std::vector<std::vector<summary_cell>>>> m_cells;
};

// A value as text: integers without a fraction, others with the shortest round-trip form.
std::string format_number(double v);

}  // namespace gputlm::experiment
