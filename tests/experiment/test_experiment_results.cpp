// The summary of an experiment from given point values: means over repetitions, each
// comparison with the baseline, geometric and arithmetic means over workloads and groups,
// failed points, and the CSV rows, against numbers worked out by hand here.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "sc_main/experiment/results.h"
#include "tests/common/run_command.h"

namespace test_experiment_results {

using namespace gputlm::experiment;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

// Experiment r on the Fermi platform, `rest` (configurations, workloads, metrics, ...) after
// its head, in a file named after the running test (ctest runs this binary's tests in
// parallel).
experiment_spec load_spec(const std::string& rest) {
  const std::string path = std::string(GPUTLM_TEST_TMP) + "/" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                           ".results_spec.yaml";
  gputlm::testing::write_text(
      path, "experiment: {name: r}\nplatforms: {fermi: " + k_src + "/yaml/fermi.yaml}\n" + rest);
  return load_experiment(path);
}

experiment_spec spec() {
  return load_spec(
      "configurations: {base: {}, fast: {smx.l1.hit_latency: 1cycles}}\n"
      "workloads:\n"
      "  a: {trace: " +
      k_src +
      "/traces/samples/vectoradd, group: g1}\n"
      "  b: {gen: histogram n=1024, repetitions: 2, group: g1}\n"
      "  c: {trace: " +
      k_src +
      "/traces/samples/bfs, group: g2}\n"
      "metrics:\n"
      "  cycles: {value: total_cycles, compare: speedup}\n"
      "  l2: {value: 'sum(blocks.gpu.l2[*].accesses)'}\n"
      "  hit: {value: ipc, compare: difference}\n"
      "  raw: {value: ipc, compare: none}\n"
      "paper:\n"
      "  - {metric: cycles, platform: fermi, configuration: fast, value: 3, source: s}\n"
      "  - {metric: raw, platform: fermi, configuration: fast, value: 6, source: s}\n");
}

// A point of configuration c (0 base, 1 fast), workload w, repetition r with values
// {cycles, l2, hit, raw}.
point_result point(std::size_t c, std::size_t w, std::uint32_t r, std::vector<double> v) {
  point_result p;
  p.configuration = c;
  p.workload = w;
  p.repetition = r;
  p.ok = true;
  p.key = "k" + std::to_string(c) + std::to_string(w) + std::to_string(r);
  for (double x : v) p.values.emplace_back(x);
  p.why.assign(v.size(), "");
  return p;
}

}  // namespace

TEST(experiment_results, compares_with_the_baseline_and_takes_means) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{point(0, 0, 0, {100, 10, 0.5, 2}),
                                point(1, 0, 0, {50, 5, 0.75, 4}),
                                point(0, 1, 0, {200, 40, 0.2, 1}),
                                point(0, 1, 1, {400, 60, 0.4, 3}),  // mean 300, 50, 0.3, 2
                                point(1, 1, 0, {100, 20, 0.3, 1}),
                                point(1, 1, 1, {200, 30, 0.3, 9}),  // mean 150, 25, 0.3, 5
                                point(0, 2, 0, {1000, 100, 0.1, 8}),
                                point(1, 2, 0, {250, 400, 0.6, 8})};
  const experiment_results res(x, pts, "test");
  auto cell = [&](const char* metric, std::size_t c, const std::string& row) {
    return res.cell(std::size_t(x.find_metric(metric) - x.metrics.data()), 0, c, row);
  };
  // cycles, a speedup: baseline / value. a: 100/50 = 2; b: 300/150 = 2; c: 1000/250 = 4.
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "a").compared, 2.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "b").value, 150.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "b").compared, 2.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "c").compared, 4.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 0, "c").compared, 1.0);
  // Geometric means: all (2*2*4)^(1/3) = 16^(1/3); group g1 (2*2)^(1/2) = 2; g2 = 4.
  EXPECT_NEAR(*cell("cycles", 1, "geomean").compared, std::cbrt(16.0), 1e-12);
  EXPECT_NEAR(*cell("cycles", 1, "group:g1").compared, 2.0, 1e-12);
  EXPECT_NEAR(*cell("cycles", 1, "group:g2").compared, 4.0, 1e-12);
  // l2, normalised: value / baseline. a 0.5, b 25/50 = 0.5, c 4; geomean (0.5*0.5*4)^(1/3) = 1.
  EXPECT_DOUBLE_EQ(*cell("l2", 1, "c").compared, 4.0);
  EXPECT_NEAR(*cell("l2", 1, "geomean").compared, 1.0, 1e-12);
  // hit, a difference: a +0.25, b 0.3-0.3 = 0, c +0.5; arithmetic mean 0.25.
  EXPECT_DOUBLE_EQ(*cell("hit", 1, "a").compared, 0.25);
  EXPECT_NEAR(*cell("hit", 1, "b").compared, 0.0, 1e-12);
  EXPECT_NEAR(*cell("hit", 1, "geomean").compared, 0.25, 1e-12);
  // raw, not compared: the mean of the values; its aggregate is the arithmetic mean of the
  // workloads' values (fast: 4, 5, 8 -> 17/3).
  EXPECT_FALSE(cell("raw", 1, "a").compared);
  EXPECT_DOUBLE_EQ(*cell("raw", 1, "b").value, 5.0);
  EXPECT_NEAR(*cell("raw", 1, "geomean").value, 17.0 / 3.0, 1e-12);
  EXPECT_EQ(res.failed(), 0u);
  // A paper value stands beside the compared value, or beside the value of a metric that is
  // not compared.
  const auto metric = [&](const char* m) {
    return std::size_t(x.find_metric(m) - x.metrics.data());
  };
  EXPECT_NEAR(*res.paper_side(metric("cycles"), 0, 1, "geomean"), std::cbrt(16.0), 1e-12);
  EXPECT_NEAR(*res.paper_side(metric("raw"), 0, 1, "geomean"), 17.0 / 3.0, 1e-12);
}

TEST(experiment_results, a_failed_point_leaves_its_cells_empty_and_the_mean_says_so) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{
      point(0, 0, 0, {100, 10, 0.5, 2}),   point(1, 0, 0, {50, 5, 0.75, 4}),
      point(0, 1, 0, {200, 40, 0.2, 1}),   point(0, 1, 1, {400, 60, 0.4, 3}),
      point(1, 1, 0, {100, 20, 0.3, 1}),   point(1, 1, 1, {200, 30, 0.3, 9}),
      point(0, 2, 0, {1000, 100, 0.1, 8}), point(1, 2, 0, {250, 400, 0.6, 8})};
  pts[5].ok = false;  // one repetition of b with `fast`
  pts[5].error = "error: something";
  const experiment_results res(x, pts, "test");
  const std::size_t cycles = 0;
  EXPECT_FALSE(res.cell(cycles, 0, 1, "b").value);  // not every repetition: no mean
  // geomean over a and c only: (2*4)^(1/2), 2 of 3 workloads.
  const summary_cell& g = res.cell(cycles, 0, 1, "geomean");
  EXPECT_NEAR(*g.compared, std::sqrt(8.0), 1e-12);
  EXPECT_EQ(g.of, 3u);
  EXPECT_EQ(g.count, 2u);
  EXPECT_EQ(res.failed(), 1u);
  EXPECT_NE(res.markdown({}, "").find("| fermi | fast | b | 1 | error: something |"),
            std::string::npos);
}

// A workload with repetitions keeps the spread of what the summary shows: the least and
// greatest over its repetitions, each compared with the baseline's same repetition. b runs
// twice: base {200, 400} cycles, fast {160, 200}.
TEST(experiment_results, a_repeated_workload_keeps_the_spread_of_its_repetitions) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{
      point(0, 0, 0, {100, 10, 0.5, 2}),   point(1, 0, 0, {50, 5, 0.75, 4}),
      point(0, 1, 0, {200, 40, 0.2, 1}),   point(0, 1, 1, {400, 60, 0.4, 3}),
      point(1, 1, 0, {160, 20, 0.3, 1}),   point(1, 1, 1, {200, 90, 0.3, 9}),
      point(0, 2, 0, {1000, 100, 0.1, 8}), point(1, 2, 0, {250, 400, 0.6, 8})};
  const experiment_results res(x, pts, "test");
  auto cell = [&](const char* metric, std::size_t c, const std::string& row) {
    return res.cell(std::size_t(x.find_metric(metric) - x.metrics.data()), 0, c, row);
  };
  // cycles, a speedup: 200/160 = 1.25 and 400/200 = 2; the mean's 300/180 lies between.
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "b").min, 1.25);
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "b").max, 2.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 1, "b").compared, 300.0 / 180.0);
  // The baseline against itself: 1 in both repetitions.
  EXPECT_DOUBLE_EQ(*cell("cycles", 0, "b").min, 1.0);
  EXPECT_DOUBLE_EQ(*cell("cycles", 0, "b").max, 1.0);
  // l2, normalised: 20/40 = 0.5 and 90/60 = 1.5.
  EXPECT_DOUBLE_EQ(*cell("l2", 1, "b").min, 0.5);
  EXPECT_DOUBLE_EQ(*cell("l2", 1, "b").max, 1.5);
  // hit, a difference: 0.3 - 0.2 = +0.1 and 0.3 - 0.4 = -0.1.
  EXPECT_NEAR(*cell("hit", 1, "b").min, -0.1, 1e-12);
  EXPECT_NEAR(*cell("hit", 1, "b").max, 0.1, 1e-12);
  // raw, not compared: the values themselves, 1 and 9.
  EXPECT_DOUBLE_EQ(*cell("raw", 1, "b").min, 1.0);
  EXPECT_DOUBLE_EQ(*cell("raw", 1, "b").max, 9.0);
  // One repetition, or a mean over workloads: no spread.
  EXPECT_FALSE(cell("cycles", 1, "a").min);
  EXPECT_FALSE(cell("cycles", 1, "geomean").min);
  EXPECT_FALSE(cell("cycles", 1, "group:g1").max);
  // results.json writes them in b's cells only.
  const auto j = nlohmann::json::parse(res.json());
  const auto& fast = j["summary"]["cycles"]["fermi"]["fast"];
  EXPECT_EQ(fast["b"]["min"], 1.25);
  EXPECT_EQ(fast["b"]["max"], 2.0);
  EXPECT_FALSE(fast["a"].contains("min"));
  EXPECT_FALSE(fast["geomean"].contains("max"));
  EXPECT_EQ(j["summary"]["raw"]["fermi"]["base"]["b"]["max"], 3.0);
  // A failed repetition, of the configuration or of the baseline: no spread.
  for (std::size_t failed : {3u, 5u}) {
    std::vector<point_result> some = pts;
    some[failed].ok = false;
    const experiment_results r(x, some, "test");
    EXPECT_FALSE(r.cell(0, 0, 1, "b").min) << failed;
    EXPECT_FALSE(r.cell(0, 0, 1, "b").max) << failed;
  }
}

TEST(experiment_results, csv_rows_hold_every_metric_and_its_comparison) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{point(0, 0, 0, {100, 10, 0.5, 2}),
                                point(1, 0, 0, {50, 5, 0.75, 4.5})};
  const experiment_results res(x, pts, "test");
  std::istringstream csv(res.csv());
  std::string header, base, fast;
  std::getline(csv, header);
  std::getline(csv, base);
  std::getline(csv, fast);
  EXPECT_EQ(
      header,
      "platform,configuration,workload,repetition,status,reused,seconds,cycles,cycles.vs_baseline,"
      "l2,l2.vs_baseline,hit,hit.vs_baseline,raw,stats,error");
  EXPECT_EQ(fast, "fermi,fast,a,0,ok,no,0.000,50,2,5,0.5,0.75,0.25,4.5,points/k100/stats.json,");
  EXPECT_EQ(base, "fermi,base,a,0,ok,no,0.000,100,1,10,1,0.5,0,2,points/k000/stats.json,");
}

// A metric with its own baseline: compared with that configuration, whatever the
// experiment's baseline.
TEST(experiment_results, a_metric_compares_with_its_own_baseline) {
  const experiment_spec x = load_spec(
      "configurations: {base: {}, fast: {smx.l1.hit_latency: 1cycles}}\n"
      "workloads: {a: {trace: " +
      k_src +
      "/traces/samples/vectoradd}}\n"
      "metrics:\n"
      "  cycles: {value: total_cycles, compare: speedup}\n"
      "  vs_fast: {value: total_cycles, compare: speedup, baseline: fast}\n");
  EXPECT_EQ(x.baseline_of(x.metrics[0]), "base");
  EXPECT_EQ(x.baseline_of(x.metrics[1]), "fast");
  point_result b = point(0, 0, 0, {100, 100}), f = point(1, 0, 0, {50, 50});
  const experiment_results res(x, {b, f}, "test");
  // cycles: base / value (fast: 100 / 50 = 2); vs_fast: fast / value (base: 50 / 100).
  EXPECT_DOUBLE_EQ(*res.cell(0, 0, 1, "a").compared, 2.0);
  EXPECT_DOUBLE_EQ(*res.cell(1, 0, 0, "a").compared, 0.5);
  EXPECT_DOUBLE_EQ(*res.cell(1, 0, 1, "a").compared, 1.0);
  EXPECT_NE(res.csv().find(",100,1,100,0.5,"), std::string::npos) << res.csv();
  EXPECT_NE(res.markdown({}, "").find("speedup = fast's value / the configuration's"),
            std::string::npos);
}

// A configuration's `workloads:` and a workload's `configurations:` leave points out: their
// cells say "not run" and a mean counts only the workloads run (under the configuration
// and, compared, under the metric's baseline).
TEST(experiment_results, a_point_left_out_is_not_run_and_not_in_the_means) {
  const experiment_spec x = load_spec(
      "configurations: {base: {}, part: {workloads: [group:mix]}}\n"
      "workloads:\n"
      "  a: {trace: " +
      k_src +
      "/traces/samples/vectoradd, group: solo, configurations: [base]}\n"
      "  b: {trace: " +
      k_src +
      "/traces/samples/bfs, group: solo}\n"
      "  m: {trace: " +
      k_src +
      "/traces/samples/vectoradd, group: mix}\n"
      "metrics:\n"
      "  cycles: {value: total_cycles, compare: speedup}\n"
      "  vs_part: {value: total_cycles, compare: speedup, baseline: part}\n"
      "  second: {value: 'streams[1].ipc', compare: none, workloads: [group:mix]}\n");
  // base runs a, b, m; part runs m only.
  EXPECT_EQ(x.runs_table,
            (std::vector<std::vector<bool>>{{true, true, true}, {false, false, true}}));
  // `second` applies to m only: elsewhere no value, and no reason either.
  EXPECT_EQ(x.metrics[2].applies, (std::vector<bool>{false, false, true}));
  std::vector<point_result> pts{point(0, 0, 0, {100, 100}), point(0, 1, 0, {400, 400}),
                                point(0, 2, 0, {90, 90}), point(1, 2, 0, {30, 30})};
  const nlohmann::json one_stream = {{"total_cycles", 30}};
  for (auto& p : pts)
    evaluate_metrics(
        x,
        p.configuration == 1
            ? nlohmann::json{{"total_cycles", 30}, {"streams", {{{"ipc", 1}}, {{"ipc", 2.5}}}}}
            : one_stream,
        p);
  EXPECT_FALSE(pts[0].values[2]);
  EXPECT_EQ(pts[0].why[2], "");
  EXPECT_FALSE(pts[2].values[2]);  // m alone under base: one stream, a reason
  EXPECT_NE(pts[2].why[2], "");
  EXPECT_DOUBLE_EQ(*pts[3].values[2], 2.5);
  pts[0].values[0] = 100, pts[1].values[0] = 400, pts[2].values[0] = 90;  // (the hand values)
  pts[0].values[1] = 100, pts[1].values[1] = 400, pts[2].values[1] = 90;
  const experiment_results res(x, pts, "test");
  EXPECT_EQ(res.cell(2, 0, 0, "geomean").of, 1u);  // m only
  EXPECT_EQ(res.cell(2, 0, 0, "geomean").count, 0u);
  EXPECT_DOUBLE_EQ(*res.cell(2, 0, 1, "geomean").value, 2.5);
  // cycles under part: only m (90 / 30 = 3), one workload of one.
  const summary_cell& part = res.cell(0, 0, 1, "geomean");
  EXPECT_EQ(part.of, 1u);
  EXPECT_EQ(part.count, 1u);
  EXPECT_DOUBLE_EQ(*part.compared, 3.0);
  EXPECT_FALSE(res.cell(0, 0, 1, "group:solo").compared);
  EXPECT_EQ(res.cell(0, 0, 1, "group:solo").of, 0u);
  // The baseline's own mean: all three, each 1.
  EXPECT_EQ(res.cell(0, 0, 0, "geomean").of, 3u);
  // vs_part under base: only m, which part runs (30 / 90).
  EXPECT_EQ(res.cell(1, 0, 0, "geomean").of, 1u);
  EXPECT_DOUBLE_EQ(*res.cell(1, 0, 0, "geomean").compared, 1.0 / 3.0);
  const std::string md = res.markdown({}, "");
  EXPECT_NE(md.find("| a | 1.000 (100) | not run |"), std::string::npos) << md;
  // No "(n of m)": every mean holds all the workloads it can.
  EXPECT_EQ(md.find(" of 3)"), std::string::npos);
  EXPECT_NE(md.find("**mean** (0 of 1)"), std::string::npos) << md;  // second under base
  // Metrics without a value: second on m under base, not on a or b.
  EXPECT_NE(md.find("| fermi | base | m | second |"), std::string::npos);
  EXPECT_EQ(md.find("| fermi | base | a | second |"), std::string::npos);
  EXPECT_EQ(res.csv().find(",part,a,"), std::string::npos);
}

// A comparison no configuration moves (l2 the same in both configurations for every
// workload, as under TB policies on an L1 that global loads bypass) cannot show an effect:
// it is flagged, and no paper value is printed beside it; cycles, which move, keep theirs.
TEST(experiment_results, a_comparison_no_configuration_moves_is_flagged_and_not_compared) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{point(0, 0, 0, {100, 10, 0.5, 2}),
                                point(1, 0, 0, {50, 10, 0.75, 4}),
                                point(0, 1, 0, {200, 40, 0.2, 1}),
                                point(0, 1, 1, {400, 60, 0.4, 3}),
                                point(1, 1, 0, {100, 40, 0.3, 1}),
                                point(1, 1, 1, {200, 60, 0.3, 9}),
                                point(0, 2, 0, {1000, 100, 0.1, 8}),
                                point(1, 2, 0, {250, 100, 0.6, 8})};
  const experiment_results res(x, pts, "test");
  auto metric = [&](const char* m) { return std::size_t(x.find_metric(m) - x.metrics.data()); };
  EXPECT_TRUE(res.cannot_move(metric("l2"), 0));
  EXPECT_FALSE(res.cannot_move(metric("cycles"), 0));
  EXPECT_FALSE(res.cannot_move(metric("hit"), 0));
  EXPECT_FALSE(res.cannot_move(metric("raw"), 0));  // not compared with a baseline
  const std::string md = res.markdown({}, "");
  EXPECT_NE(md.find("**This comparison cannot move on fermi**"), std::string::npos);
  EXPECT_EQ(md.find("**This comparison cannot move on fermi**"),
            md.rfind("**This comparison cannot move on fermi**"));  // l2's table only
  // The same with the hit difference equal everywhere: a difference of 0 cannot move either.
  std::vector<point_result> flat{point(0, 0, 0, {100, 10, 0.5, 2}),
                                 point(1, 0, 0, {50, 10, 0.5, 4}),
                                 point(0, 1, 0, {200, 40, 0.2, 1}),
                                 point(0, 1, 1, {400, 60, 0.4, 3}),
                                 point(1, 1, 0, {100, 40, 0.4, 1}),
                                 point(1, 1, 1, {200, 60, 0.2, 9}),
                                 point(0, 2, 0, {1000, 100, 0.1, 8}),
                                 point(1, 2, 0, {250, 100, 0.1, 8})};
  const experiment_results res2(x, flat, "test");
  EXPECT_TRUE(res2.cannot_move(metric("hit"), 0));
}

// A paper value beside a comparison that cannot move is not printed: the JSON's `ours` is
// null with cannot_move, and the report's row says so instead of the two numbers.
TEST(experiment_results, no_paper_value_stands_beside_a_comparison_that_cannot_move) {
  const std::string path = std::string(GPUTLM_TEST_TMP) + "/still_spec.yaml";
  gputlm::testing::write_text(
      path, "experiment: {name: still}\n"
            "platforms: {fermi: " + k_src + "/yaml/fermi.yaml}\n"
            "configurations: {base: {}, other: {smx.l1.hit_latency: 1cycles}}\n"
            "workloads: {a: {trace: " + k_src + "/traces/samples/vectoradd}}\n"
            "metrics: {l2: {value: 'sum(blocks.gpu.l2[*].accesses)', compare: normalized}}\n"
            "paper:\n"
            "  - {metric: l2, platform: fermi, configuration: other, value: 0.5,"
            " as_reported: halved, source: s}\n");
  const experiment_spec x = load_experiment(path);
  point_result a;
  a.configuration = 0, a.workload = 0, a.ok = true, a.key = "a";
  a.values.emplace_back(10.0);
  a.why.assign(1, "");
  point_result b = a;
  b.configuration = 1, b.key = "b";
  const experiment_results res(x, {a, b}, "test");
  const std::string json = res.json();
  EXPECT_NE(json.find("\"cannot_move\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ours\": null"), std::string::npos) << json;
  const std::string md = res.markdown({}, "");
  EXPECT_NE(md.find("| l2 | fermi | other | geomean | cannot move on this platform | not compared |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("0.500"), std::string::npos) << "the paper's value is not printed";
}

// A report's table keeps one format per kind of number of a metric: the hit difference's
// column (values 0.5 - 0.5 = 0, 0.3 - 0.3 = 0 and 0.6 - 0.1 = 0.5 here, with 8.89e-05
// added to a) is printed with the decimals that give its largest magnitude four significant
// digits, never in scientific notation or with a shortest form per cell; integer values stay
// integers; ratios keep three decimals.
TEST(experiment_results, a_metric_s_numbers_share_one_format) {
  const experiment_spec x = spec();
  std::vector<point_result> pts{
      point(0, 0, 0, {100, 10, 0.5, 2}),   point(1, 0, 0, {50, 5, 0.5000889, 4}),
      point(0, 1, 0, {200, 40, 0.2, 1}),   point(0, 1, 1, {400, 60, 0.4, 3}),
      point(1, 1, 0, {100, 20, 0.3, 1}),   point(1, 1, 1, {200, 30, 0.3, 9}),
      point(0, 2, 0, {1000, 100, 0.1, 8}), point(1, 2, 0, {250, 400, 0.6, 8})};
  const experiment_results res(x, pts, "test");
  const std::string md = res.markdown({}, "");
  // hit (difference): largest |difference| 0.5 -> magnitude -1 -> 4 decimals; measured hit
  // values (largest 0.6) the same. a: 0.5000889 - 0.5 = 8.89e-05 -> 0.0001; b: 0.3 - 0.3 = 0.
  EXPECT_NE(md.find("| a | 0.0000 (0.5000) | 0.0001 (0.5001) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| b | 0.0000 (0.3000) | 0.0000 (0.3000) |"), std::string::npos) << md;
  EXPECT_EQ(md.find("e-05"), std::string::npos) << md;
  // cycles (speedup): ratios with three decimals, the measured cycles as integers.
  EXPECT_NE(md.find("| a | 1.000 (100) | 2.000 (50) |"), std::string::npos) << md;
}

}  // namespace test_experiment_results
