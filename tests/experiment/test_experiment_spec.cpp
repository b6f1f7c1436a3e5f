// Experiment files: the matrix they describe (configurations, sweeps, workloads and their
// repetitions) and every kind of bad input, each a one-line error naming file, line,
// column and key.
#include <gtest/gtest.h>

#include "models/base/input_error.h"
#include "sc_main/experiment/experiment_spec.h"
#include "tests/common/run_command.h"

namespace test_experiment_spec {

using namespace gputlm::experiment;
using gputlm::input_error;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

// Files are named after the running test: ctest runs this binary's tests in parallel.
std::string write(const std::string& name, const std::string& text) {
  const std::string path = std::string(GPUTLM_TEST_TMP) + "/" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "." +
                           name;
  gputlm::testing::write_text(path, text);
  return path;
}

// A valid experiment; `extra` is appended (later keys of a mapping cannot repeat one).
std::string experiment(
    const std::string& extra = "",
    const std::string& metrics = "metrics:\n  cycles: {value: total_cycles, compare: speedup}\n") {
  return "experiment: {name: t}\n"  // 1
         "platforms:\n"             // 2
         "  fermi: " +
         k_src +
         "/yaml/fermi.yaml\n"  // 3
         "  volta: " +
         k_src +
         "/yaml/volta.yaml\n"                                                 // 4
         "configurations:\n"                                                  // 5
         "  lrr: {smx.scheduler_policy: lrr}\n"                               // 6
         "  gto: {smx.scheduler_policy: gto, smx.l1.hit_latency: 5cycles}\n"  // 7
         "baseline: lrr\n"                                                    // 8
         "workloads:\n"                                                       // 9
         "  va: {trace: " +
         k_src +
         "/traces/samples/vectoradd, group: regular}\n"                                // 10
         "  hist: {gen: histogram n=4096 seed=7, repetitions: 3, group: irregular}\n"  // 11
         "  sg: {gen: sgemm_tiled M=64 N=64 K=64, arch: 61}\n"                         // 12
         + metrics + extra;
}

std::string load_error(const std::string& text) {
  const std::string path = write("spec.yaml", text);
  try {
    load_experiment(path);
  } catch (const input_error& e) {
    return std::string(e.what()).substr(path.size() + 1);  // without the file name
  }
  return "";
}

}  // namespace

TEST(experiment_spec, reads_the_matrix) {
  const std::string path =
      write("matrix.yaml", experiment("sweeps:\n"
                                      "  l1_latency: {parameter: smx.l1.hit_latency, values: "
                                      "[10cycles, 20cycles], with: gto}\n"));
  const experiment_spec x = load_experiment(path);
  EXPECT_EQ(x.name, "t");
  ASSERT_EQ(x.platforms.size(), 2u);
  EXPECT_EQ(x.platforms[1].file, k_src + "/yaml/volta.yaml");
  // Named configurations, then one per sweep value: the `with` configuration's overrides
  // and the swept parameter last (so it wins).
  ASSERT_EQ(x.configurations.size(), 4u);
  EXPECT_EQ(x.configurations[2].name, "l1_latency=10cycles");
  ASSERT_EQ(x.configurations[2].sets.size(), 3u);
  EXPECT_EQ(x.configurations[2].sets[0].set_option(), "smx.scheduler_policy=gto");
  EXPECT_EQ(x.configurations[2].sets[2].set_option(), "smx.l1.hit_latency=10cycles");
  EXPECT_EQ(x.configurations[3].sweep, "l1_latency");
  EXPECT_EQ(x.configurations[3].sweep_value, "20cycles");
  EXPECT_EQ(x.baseline, "lrr");
  // Workloads: a trace, a random generator repeated with seeds 7, 8, 9, a generator for sm_61.
  ASSERT_EQ(x.workloads.size(), 3u);
  EXPECT_FALSE(x.workloads[0].generated());
  EXPECT_EQ(x.workloads[1].repetitions, 3u);
  EXPECT_EQ(x.workloads[1].params_of(2), (std::vector<std::string>{"n=4096", "seed=7", "seed=9"}));
  EXPECT_EQ(x.workloads[2].arch, "61");
  EXPECT_EQ(x.workloads[2].params_of(0), (std::vector<std::string>{"M=64", "N=64", "K=64"}));
  EXPECT_EQ(x.groups, (std::vector<std::string>{"regular", "irregular"}));
  // 2 platforms x 4 configurations x (1 + 3 + 1) runs.
  std::size_t points = 0;
  for (std::size_t p = 0; p < x.platforms.size(); ++p)
    for (std::size_t c = 0; c < x.configurations.size(); ++c)
      for (const auto& w : x.workloads) points += w.repetitions;
  EXPECT_EQ(points, 40u);
  // Without a plots list: bars for each metric, a line per sweep; all configurations.
  ASSERT_EQ(x.plots.size(), 2u);
  EXPECT_TRUE(x.plots[0].configurations.empty());
  EXPECT_EQ(x.plots[1].kind, "line");
  EXPECT_EQ(x.plots[1].file, "cycles-l1_latency");
}

TEST(experiment_spec, a_bar_plot_draws_the_configurations_it_names) {
  const std::string path =
      write("spec.yaml", experiment("plots:\n  - {metric: cycles, configurations: [gto]}\n"));
  const experiment_spec x = load_experiment(path);
  ASSERT_EQ(x.plots.size(), 1u);
  EXPECT_EQ(x.plots[0].configurations, (std::vector<std::string>{"gto"}));
}

TEST(experiment_spec, metrics_defaults_and_references) {
  const std::string path =
      write("metrics.yaml",
            experiment("",
                       "metrics:\n"
                       "  ipc: ipc\n"
                       "  l1_hit_rate: {value: 'sum(blocks.gpu.smx[*].l1.hits) / "
                       "sum(blocks.gpu.smx[*].l1.accesses)', compare: difference}\n"
                       "  double_ipc: {value: 2 * ipc, compare: none, unit: instr/cycle}\n"));
  const experiment_spec x = load_experiment(path);
  ASSERT_EQ(x.metrics.size(), 3u);
  EXPECT_EQ(x.metrics[0].compare, compare_kind::normalized);
  EXPECT_TRUE(x.metrics[0].geometric_mean);
  EXPECT_EQ(x.metrics[0].expr.paths(),
            std::vector<std::string>{"ipc"});  // its own name: the statistic
  EXPECT_FALSE(x.metrics[1].geometric_mean);   // a difference: arithmetic
  EXPECT_EQ(x.metrics[2].expr.references(), std::vector<std::string>{"ipc"});  // another metric
  EXPECT_EQ(x.metrics[2].label, "double_ipc");
  EXPECT_EQ(x.metrics[0].label, "ipc normalised to lrr");
}

TEST(experiment_spec, bad_input_names_file_line_column_and_key) {
  // Malformed YAML.
  EXPECT_EQ(load_error("experiment: {name: t\nplatforms: x\n").substr(0, 2), "2:");
  // Unknown keys, with the closest name suggested.
  EXPECT_EQ(load_error(experiment("metrix: {}\n")),
            "15:1: metrix: unknown key 'metrix'; did you mean 'metrics'?");
  EXPECT_EQ(load_error(experiment("", "metrics:\n  c: {valu: total_cycles}\n")),
            "14:7: metrics.c.valu: unknown key 'valu'; did you mean 'value'?");
  // A missing section.
  EXPECT_EQ(load_error("experiment: {name: t}\n"),
            "1:1: platforms: missing (docs/experiments.md lists the keys)");
  // A platform file or a trace that does not exist.
  std::string text = experiment();
  text.replace(text.find(k_src + "/yaml/fermi.yaml"), (k_src + "/yaml/fermi.yaml").size(),
               "nofermi.yaml");
  EXPECT_EQ(load_error(text), "3:10: platforms.fermi: no platform file '" +
                                  std::string(GPUTLM_TEST_TMP) + "/nofermi.yaml'");
  text = experiment();
  text.replace(text.find(k_src + "/traces/samples/vectoradd"),
               (k_src + "/traces/samples/vectoradd").size(), "none");
  EXPECT_EQ(load_error(text),
            "10:15: workloads.va.trace: no trace '" + std::string(GPUTLM_TEST_TMP) + "/none'");
  // A generator that does not exist, a parameter it does not have, a value out of range.
  text = experiment();
  text.replace(text.find("histogram"), 9, "histogramm");
  EXPECT_EQ(load_error(text),
            "11:15: workloads.hist.gen: unknown generator 'histogramm'; did you mean 'histogram'?");
  text = experiment();
  text.replace(text.find("n=4096"), 6, "bins=x");
  EXPECT_EQ(load_error(text).substr(0, 32), "11:15: workloads.hist.gen: bins:");
  // Repetitions of a generator without a seed.
  text = experiment();
  text.replace(text.find("arch: 61"), 8, "repetitions: 2");
  EXPECT_EQ(load_error(text),
            "12:54: workloads.sg.repetitions: generator 'sgemm_tiled' has no seed: its repetitions "
            "would be the same");
  // A baseline that is no configuration.
  text = experiment();
  text.replace(text.find("baseline: lrr"), 13, "baseline: rr");
  EXPECT_EQ(load_error(text), "8:11: baseline: no configuration 'rr'");
  // Metrics: malformed, a comparison that does not exist, a loop of references.
  EXPECT_EQ(load_error(experiment("", "metrics:\n  c: sum(total_cycles\n")),
            "14:6: metrics.c: malformed expression at column 17: expected ')'");
  EXPECT_EQ(load_error(experiment("", "metrics:\n  c: {value: ipc, compare: faster}\n")),
            "14:28: metrics.c.compare: expected normalized, speedup, difference or none");
  EXPECT_EQ(load_error(experiment("", "metrics:\n  a: b + 1\n  b: a * 2\n")),
            "15:3: metrics.b: refers to itself through 'a'");
  // Paper values naming what the file does not have.
  EXPECT_EQ(load_error(experiment("paper:\n  - {metric: ipc, platform: fermi, configuration: gto, "
                                  "value: 1.2, source: T1}\n")),
            "16:5: paper[0].metric: no metric 'ipc'");
  EXPECT_EQ(load_error(experiment("paper:\n  - {metric: cycles, platform: kepler, configuration: "
                                  "gto, value: 1.2, source: T1}\n")),
            "16:5: paper[0].platform: no platform 'kepler'");
  EXPECT_EQ(load_error(experiment("paper:\n  - {metric: cycles, platform: fermi, configuration: "
                                  "gto, workload: bfs, value: 1.2, source: T1}\n")),
            "16:5: paper[0].workload: no workload 'bfs' (a workload, geomean or group:NAME)");
  EXPECT_EQ(load_error(experiment("paper:\n  - {metric: cycles, platform: fermi, configuration: "
                                  "gto, value: fast, source: T1}\n")),
            "16:5: paper[0].value: expected a number, got 'fast'");
  EXPECT_EQ(load_error(experiment(
                "paper:\n  - {metric: cycles, platform: fermi, configuration: gto, value: 1.2}\n")),
            "16:5: paper[0]: no 'source'");
  // Plots: an unknown kind, a line without a sweep.
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, kind: pie}\n")),
            "16:5: plots[0].kind: expected bars or line");
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, kind: line}\n")),
            "16:5: plots[0].sweep: a line plot needs one of the file's sweeps, not ''");
  // A bar plot's configurations: unknown, not a list, or on a line plot.
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, configurations: [gto, xyz]}\n")),
            "16:44: plots[0].configurations: no configuration 'xyz'");
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, configurations: gto}\n")),
            "16:38: plots[0].configurations: expected a list of configurations, such as [lrr, "
            "gto]");
  EXPECT_EQ(load_error(experiment("sweeps:\n  lat: {parameter: smx.l1.hit_latency, values: "
                                  "[5cycles]}\nplots:\n  - {metric: cycles, kind: line, sweep: "
                                  "lat, configurations: [gto]}\n")),
            "18:5: plots[0].configurations: a line plot draws its sweep's configurations");
  // A sweep too long to plan (each value is a configuration on every platform and workload).
  {
    std::string values;
    for (int i = 0; i < 1001; ++i) values += (i ? ", " : "") + std::to_string(i + 1) + "cycles";
    EXPECT_EQ(load_error(experiment("sweeps:\n  lat: {parameter: smx.l1.hit_latency, values: [" +
                                    values + "]}\n")),
              "16:48: sweeps.lat.values: expected at most 1000 values, got 1001");
  }
  // A plot file outside the output's plots/ folder.
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, kind: bars, file: ../up}\n")),
            "16:5: plots[0].file: '../up': a plot's file name may hold letters, digits and _ . + "
            "- only (it is written in the output's plots/ folder)");
  EXPECT_EQ(load_error(experiment("plots:\n  - {metric: cycles, kind: bars, file: ..}\n")),
            "16:5: plots[0].file: '..': a plot's file name may hold letters, digits and _ . + "
            "- only (it is written in the output's plots/ folder)");
  // A name that cannot be a file name; a run option that is not allowed.
  EXPECT_EQ(load_error(experiment("", "metrics:\n  'a/b': ipc\n")),
            "14:3: metrics.a/b: a name may hold letters, digits and _ . + - only");
  EXPECT_EQ(load_error(experiment("run_options: [--vcd=x.vcd]\n")),
            "15:15: run_options: '--vcd=x.vcd' is not one of --strict, --kernel-every-instant, "
            "--watchdog=N, --stats-group=dynamic_parallelism");
  // A configuration's platform file that does not exist; a metric's own baseline that is
  // no configuration.
  text = experiment();
  text.replace(text.find("  lrr: {smx.scheduler_policy: lrr}"), 34,
               "  lrr: {platform: nochip.yaml}");
  EXPECT_EQ(load_error(text), "6:9: configurations.lrr.platform: no platform file '" +
                                  std::string(GPUTLM_TEST_TMP) + "/nochip.yaml'");
  EXPECT_EQ(load_error(experiment("", "metrics:\n  c: {value: ipc, baseline: rr}\n")),
            "14:29: metrics.c.baseline: no configuration 'rr'");
  // A key given twice.
  EXPECT_EQ(load_error(experiment("baseline: gto\n")),
            "15:1: baseline: key given twice in one mapping");
}

// per_configuration: a workload's other forms under named configurations; a sweep's
// configurations take their `with` configuration's form; bad forms are input errors.
TEST(experiment_spec, per_configuration_forms_of_a_workload) {
  const std::string head =
      "experiment: {name: t}\n"
      "platforms: {kepler: " +
      k_src +
      "/yaml/kepler.yaml}\n"
      "configurations: {flat: {}, cdp: {}, dtbl: {}}\n"
      "sweeps:\n"
      "  agt: {parameter: kmu.dispatch_latency, values: [1cycles, 2cycles], with: dtbl}\n"
      "metrics: {cycles: {value: total_cycles, compare: speedup}}\n"
      "workloads:\n";
  const std::string path = write("forms.yaml", head +
                                                   "  bfs:\n"
                                                   "    gen: bfs scale=6 seed=3\n"
                                                   "    repetitions: 2\n"
                                                   "    per_configuration:\n"
                                                   "      cdp: {gen: bfs_cdp scale=6 seed=3}\n"
                                                   "      dtbl: {gen: bfs_dtbl scale=6 seed=3}\n"
                                                   "  va: " +
                                                   k_src + "/traces/samples/vectoradd\n");
  const experiment_spec x = load_experiment(path);
  ASSERT_EQ(x.configurations.size(), 5u);  // flat, cdp, dtbl, agt=1cycles, agt=2cycles
  ASSERT_EQ(x.forms.size(), 2u);
  EXPECT_EQ(x.sources(), 4u);
  EXPECT_EQ(x.source_of(0, 0), 0u);  // flat: the workload itself
  EXPECT_EQ(x.source(x.source_of(0, 1)).gen_kernel, "bfs_cdp");
  EXPECT_EQ(x.source(x.source_of(0, 2)).gen_kernel, "bfs_dtbl");
  EXPECT_EQ(x.source(x.source_of(0, 4)).gen_kernel, "bfs_dtbl");  // the sweep's `with`
  EXPECT_EQ(x.source_of(1, 2), 1u);                               // no form: the trace everywhere
  // A form repeats with the workload's seeds.
  EXPECT_EQ(x.source(x.source_of(0, 1)).params_of(1),
            (std::vector<std::string>{"scale=6", "seed=3", "seed=4"}));
  // A configuration that does not exist; a form with its own repetitions; a seedless form
  // of a repeated workload.
  EXPECT_EQ(load_error(head + "  bfs:\n    gen: bfs scale=6\n    per_configuration:\n"
                              "      cpd: {gen: bfs_cdp scale=6}\n"),
            "11:7: workloads.bfs.per_configuration.cpd: no configuration 'cpd' (a named "
            "configuration)");
  EXPECT_EQ(load_error(head + "  bfs:\n    gen: bfs scale=6\n    per_configuration:\n"
                              "      cdp: {gen: bfs_cdp scale=6, repetitions: 2}\n"),
            "11:7: workloads.bfs.per_configuration.cdp: a form repeats as often as its workload "
            "('repetitions' is the workload's)");
  EXPECT_EQ(load_error(head +
                       "  bfs:\n    gen: bfs scale=6\n    repetitions: 2\n"
                       "    per_configuration:\n      cdp: " +
                       k_src + "/traces/samples/bfs_cdp\n"),
            "12:7: workloads.bfs.per_configuration.cdp: the workload has repetitions: its form "
            "needs a generator with a seed");
}

TEST(experiment_spec, a_merge_workload_names_generated_workloads_above_it) {
  const std::string head =
      "experiment: {name: t}\n"
      "platforms: {fermi: " +
      k_src +
      "/yaml/fermi.yaml}\n"
      "configurations: {a: {}}\n"
      "metrics: {cycles: {value: total_cycles, compare: speedup}}\n"
      "workloads:\n"
      "  va: {gen: vectoradd}\n"
      "  sg: {gen: sgemm_tiled M=64 N=64 K=64}\n"
      "  tr: " +
      k_src + "/traces/samples/vectoradd\n";
  const std::string path = write("merge.yaml", head + "  va+sg: {merge: [va, sg], group: mix}\n");
  const experiment_spec x = load_experiment(path);
  ASSERT_EQ(x.workloads.size(), 4u);
  EXPECT_EQ(x.workloads[3].merge, (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(x.workloads[3].generated());
  EXPECT_EQ(x.workloads[3].group, "mix");
  // A trace is not generated; a workload below is not known yet; one is not a merge.
  EXPECT_EQ(load_error(head + "  m: {merge: [va, tr]}\n"),
            "9:14: workloads.m.merge: 'tr' is not a generated workload written above (one "
            "repetition)");
  EXPECT_EQ(load_error(head + "  m: {merge: [va]}\n"),
            "9:14: workloads.m.merge: expected a list of two workloads or more");
  EXPECT_EQ(load_error(head + "  m: {merge: [va, sg], gen: vectoradd}\n").substr(0, 5), "9:24:");
}

// A configuration's `workloads:` (names and groups) and a workload's `configurations:`
// (names and sweeps) choose the points that run; a sweep keeps its `with` configuration's
// workloads. A name matching nothing, and a configuration or workload left with no point,
// are errors.
TEST(experiment_spec, a_configuration_and_a_workload_may_leave_points_out) {
  const std::string head =
      "experiment: {name: t}\n"  // 1
      "platforms: {fermi: " +
      k_src +
      "/yaml/fermi.yaml}\n"                                                           // 2
      "configurations:\n"                                                             // 3
      "  base: {}\n"                                                                  // 4
      "  part: {workloads: [group:mix, va]}\n"                                        // 5
      "sweeps: {lat: {parameter: smx.l1.hit_latency, values: [1, 2], with: part}}\n"  // 6
      "metrics: {cycles: {value: total_cycles, compare: speedup}}\n"                  // 7
      "workloads:\n"                                                                  // 8
      "  va: {gen: vectoradd}\n"                                                      // 9
      "  sg: {gen: sgemm_tiled M=64 N=64 K=64, configurations: [base, lat]}\n"        // 10
      "  m: {merge: [va, sg], group: mix, configurations: [part, lat]}\n";            // 11
  const experiment_spec x = load_experiment(write("only.yaml", head));
  ASSERT_EQ(x.configurations.size(), 4u);  // base, part, lat=1, lat=2
  // base: va, sg (m names part and lat only); part: va, m; lat=*: va, m (their with's).
  const std::vector<std::vector<bool>> want{
      {true, true, false}, {true, false, true}, {true, false, true}, {true, false, true}};
  EXPECT_EQ(x.runs_table, want);
  EXPECT_TRUE(x.runs(1, 2));
  EXPECT_FALSE(x.runs(0, 2));
  EXPECT_EQ(x.configurations[2].workloads, (std::vector<std::string>{"group:mix", "va"}));

  std::string bad = head;
  bad.replace(bad.find("[group:mix, va]"), 15, "[group:mx, va] ");
  EXPECT_EQ(load_error(bad),
            "5:10: configurations.part.workloads: no workload or group 'group:mx' (a group is "
            "written group:NAME)");
  bad = head;
  bad.replace(bad.find("[base, lat]"), 11, "[base, lt] ");
  EXPECT_EQ(load_error(bad), "10:41: workloads.sg.configurations: no configuration or sweep 'lt'");
  // part runs m only where m runs under part: with m left to base, part runs va alone; with
  // va gone too, nothing.
  bad = head;
  bad.replace(bad.find("[group:mix, va]"), 15, "[group:mix]    ");
  bad.replace(bad.find("[part, lat]"), 11, "[base]     ");
  EXPECT_EQ(load_error(bad),
            "5:3: configurations.part: runs no workload (its `workloads:` and the workloads' "
            "`configurations:` exclude every one)");
  bad = head;
  bad.replace(bad.find("[base, lat]"), 11, "[part]     ");
  EXPECT_EQ(load_error(bad),
            "10:3: workloads.sg: runs under no configuration (its `configurations:` and the "
            "configurations' `workloads:` exclude every one)");
  EXPECT_EQ(load_error(head + "  x: {gen: vectoradd, configurations: []}\n"),
            "12:39: workloads.x.configurations: expected a list of names");
}

}  // namespace test_experiment_spec
