// An experiment file (docs/experiments.md): the matrix of platforms x configurations x
// workloads x repetitions to run, the metrics to take from each run's statistics, the
// baseline they are compared with, the values a paper reports for comparison, and the
// plots. Every entry keeps the place it was written, for one-line errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/base/input_error.h"
#include "sc_main/experiment/metric_expr.h"

namespace gputlm::experiment {

struct platform_entry {
  std::string name;
  std::string file;  // resolved against the experiment file's folder
  source_location where;
};

// One `--set` of a configuration.
struct override_entry {
  std::string key;
  std::string value;  // YAML text: a scalar, or a flow list "[1, 2]"
  source_location where;
  std::string set_option() const { return key + "=" + value; }
};

struct configuration {
  std::string name;
  // `platform: FILE`: the configuration runs on another platform file in place of each
  // platform's (another chip compared with the same baseline, e.g. the GTX480 beside the
  // SPU); "" for the platform's own.
  std::string platform_file;
  // `with: FILE` or `with: [FILE, ...]`: mechanism files merged onto the platform
  // (`gputlm run --with`, yaml/mechanisms/), resolved against the experiment file's folder.
  std::vector<std::string> mechanisms;
  std::vector<override_entry> sets;
  source_location where;
  // The `--with FILE` and `--set KEY=VALUE` arguments of a run under this configuration.
  // Its options of `gputlm run` / `elaborate`: --with (each file an absolute path, since the
  // points run in the output folder) and --set.
  std::vector<std::string> arguments() const;
  std::string sweep;        // the sweep that made it ("" for a named configuration)
  std::string sweep_value;  // its value on the sweep's axis
  // `workloads: [NAME | group:G, ...]`: the workloads it runs (none written: every one).
  std::vector<std::string> workloads;
  source_location workloads_where;
};

// A sweep over one parameter: configurations `<name>=<value>`, each the `with`
// configuration's overrides plus `parameter=value`.
struct sweep {
  std::string name;
  std::string parameter;
  std::vector<std::string> values;
  std::string with;  // a configuration to start from, or ""
  source_location where;
};

struct workload {
  std::string name;
  std::string trace;       // a trace directory or file, resolved; empty for a generator
  std::string gen_kernel;  // `gen: KERNEL k=v ...`
  std::vector<std::string> gen_params;
  std::string arch = "70";
  std::uint32_t repetitions = 1;  // seeds seed, seed+1, ... of a random generator
  std::uint64_t first_seed = 1;
  bool random = false;  // a generator with a seed
  std::string group;
  // Other forms of the same application for some configurations: (configuration, index
  // into experiment_spec::forms).
  std::vector<std::pair<std::string, std::size_t>> per_configuration;
  // `merge: [A, B]`: the generated workloads A, B ... of the experiment run side by side as
  // the streams of one trace (`gputlm trace merge`), indices into experiment_spec::workloads.
  std::vector<std::size_t> merge;
  // `configurations: [NAME, ...]`: the configurations (a sweep's name: each of its
  // configurations) it runs under (none written: every one).
  std::vector<std::string> configurations;
  source_location configurations_where;
  source_location where;
  bool generated() const { return !gen_kernel.empty() || !merge.empty(); }
  // The generator's parameters of repetition `r` (its seed set).
  std::vector<std::string> params_of(std::uint32_t r) const;
  // "gen: KERNEL k=v ..." or the trace path, for reports.
  std::string describe() const;
};

// How a metric is compared with the baseline configuration's value.
enum class compare_kind { normalized, speedup, difference, none };
const char* to_string(compare_kind k);

struct metric {
  std::string name;
  std::string text;  // the expression as written
  expression expr;
  compare_kind compare = compare_kind::normalized;
  bool geometric_mean = true;  // across workloads (else arithmetic)
  std::string label;
  std::string unit;
  std::string baseline;  // `baseline:` its own baseline configuration ("": the experiment's)
  // `workloads: [NAME | group:G, ...]`: per workload, whether the metric applies (empty:
  // to every one), e.g. a stream's IPC to the mixes of several streams only.
  std::vector<bool> applies;
  bool applies_to(std::size_t w) const { return applies.empty() || applies.at(w); }
  source_location where;
};

// A value a paper reports, typed in the experiment file with its source. Shown beside
// ours in the report and on plots; never an output of the simulator.
struct paper_value {
  std::string metric, platform, configuration;
  std::string workload = "geomean";  // a workload, "geomean" or "group:<name>"
  double value = 0;
  std::string as_reported;  // the paper's own wording, e.g. "+29 %"
  std::string source;       // table / figure / section
  source_location where;
};

struct plot {
  std::string metric;
  std::string kind = "bars";  // bars | line
  std::string sweep;          // line: the sweep on the x axis
  std::string file;           // name of the PNG/SVG in plots/
  std::string title;
  std::vector<std::string> configurations;  // bars: the configurations drawn (empty: all)
};

struct experiment_spec {
  std::string file;
  std::string name;
  std::string description;
  std::vector<platform_entry> platforms;
  std::vector<configuration> configurations;  // named ones, then each sweep's
  std::vector<sweep> sweeps;
  std::string baseline;
  std::vector<workload> workloads;
  std::vector<workload> forms;      // the workloads' per-configuration forms
  std::vector<std::string> groups;  // workload groups, first-seen order
  std::vector<metric> metrics;
  std::vector<paper_value> paper;
  std::vector<plot> plots;
  std::vector<std::string> run_options;  // extra `gputlm run` options, e.g. --strict
  // [configuration][workload]: whether the point runs, from both sides' restrictions.
  std::vector<std::vector<bool>> runs_table;

  bool runs(std::size_t c, std::size_t w) const { return runs_table.at(c).at(w); }

  const configuration* find_configuration(const std::string& name) const;
  // The platform file a point of platform p under configuration c runs.
  const std::string& platform_file(std::size_t p, std::size_t c) const {
    return configurations.at(c).platform_file.empty() ? platforms.at(p).file
                                                      : configurations[c].platform_file;
  }
  // The trace source workload `w` runs under configuration `c`: `w` itself, or
  // workloads.size() + i for forms[i] (a sweep's configuration takes its `with` one's form).
  std::size_t source_of(std::size_t w, std::size_t c) const;
  const workload& source(std::size_t s) const;  // workloads[s] or forms[s - workloads.size()]
  std::size_t sources() const { return workloads.size() + forms.size(); }
  const metric* find_metric(const std::string& name) const;
  // The configuration metric m is compared with.
  const std::string& baseline_of(const metric& m) const {
    return m.baseline.empty() ? baseline : m.baseline;
  }
};

// Reads and checks an experiment file: every name referred to exists, every trace exists,
// every generator and its parameters are known. Throws input_error naming the file, line,
// column and key. Platform overrides and metric paths are checked against the platforms
// by the runner (they need an elaboration).
experiment_spec load_experiment(const std::string& file);

}  // namespace gputlm::experiment
