// `gputlm experiment` end to end on a small matrix (the GTX480, two configurations, two
// workloads): the CSV's numbers equal what the test reads itself from each point's
// statistics file, a second run executes nothing, changing one trace reruns only its
// points, a failing point is reported without stopping the others, and bad input is one
// line, exit status 2 and no output folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "tests/common/run_command.h"

namespace test_experiment_run {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

// The experiment of these tests, in `dir`, with its traces copied there (so a test can
// change one) and `extra` workloads and metrics appended.
std::string write_experiment(
    const std::string& dir, const std::string& extra_workloads = "",
    const std::string& metrics =
        "  cycles: {value: total_cycles, compare: speedup}\n"
        "  l2: 'sum(blocks.gpu.l2[*].accesses)'\n"
        "  kernel_cycles: {value: 'sum(kernels[*].cycles)', compare: none}\n",
    const std::string& configurations = "  base: {}\n  slow_l1: {smx.l1.hit_latency: 40cycles}\n") {
  for (const char* t : {"vectoradd", "reduction"})
    fs::copy(k_src + "/traces/samples/" + t, dir + "/" + t,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  const std::string path = dir + "/exp.yaml";
  write_text(path,
             "experiment: {name: e2e}\n"
             "platforms: {fermi: " +
                 k_src +
                 "/yaml/fermi.yaml}\n"
                 "configurations:\n" +
                 configurations +
                 "workloads:\n"
                 "  va: {trace: vectoradd}\n"
                 "  red: {trace: reduction}\n" +
                 extra_workloads + "metrics:\n" + metrics);
  return path;
}

command_result experiment(const std::string& file, const std::string& out, const std::string& tag,
                          const std::string& options = "-j 2") {
  return run_command(gputlm_bin() + " experiment " + file + " -o " + out + " " + options, tag);
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        cells.push_back(cell), cell.clear();
      else
        cell += c;
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

}  // namespace

TEST(experiment_run, the_csv_holds_the_points_statistics_and_a_rerun_reuses_them) {
  const std::string dir = fresh_dir("exp_run");
  const std::string file = write_experiment(dir), out = dir + "/out";
  // Run from the experiment's folder with a relative output folder, as a user would.
  auto r = run_command("cd " + dir + " && " + gputlm_bin() + " experiment exp.yaml -o out -j 2",
                       "exp_run1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("experiment e2e: 4 points (4 run, 0 reused), 0 failed"), std::string::npos)
      << r.out;

  // Every row's numbers, read again from its statistics file by the test.
  const auto rows = read_csv(out + "/results.csv");
  ASSERT_EQ(rows.size(), 5u);
  const auto& h = rows[0];
  std::set<std::string> seen;
  std::map<std::string, fs::file_time_type> stamps;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    seen.insert(row[column(h, "configuration")] + "/" + row[column(h, "workload")]);
    EXPECT_EQ(row[column(h, "status")], "ok");
    const std::string stats_file = out + "/" + row[column(h, "stats")];
    stamps[stats_file] = fs::last_write_time(stats_file);
    // The point's file is in the compact form: the L2 banks' accesses are one array (or
    // one value when every bank has the same).
    const auto j = nlohmann::json::parse(slurp(stats_file));
    ASSERT_EQ(j["stats_form"], "compact");
    double l2 = 0, kc = 0;
    const auto& banks = j["blocks"]["gpu.l2[*]"];
    for (std::size_t b = 0; b < banks["instances"].size(); ++b)
      l2 += (banks["accesses"].is_array() ? banks["accesses"][b] : banks["accesses"]).get<double>();
    for (const auto& k : j["kernels"]) kc += k["cycles"].get<double>();
    EXPECT_EQ(std::stod(row[column(h, "cycles")]), j["total_cycles"].get<double>());
    EXPECT_EQ(std::stod(row[column(h, "l2")]), l2);
    EXPECT_EQ(std::stod(row[column(h, "kernel_cycles")]), kc);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"base/va", "base/red", "slow_l1/va", "slow_l1/red"}));
  // A slower L1 hit can only slow a run down: the speedup column of slow_l1 is at most 1,
  // and it is baseline cycles / own cycles.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i][column(h, "configuration")] != "slow_l1") continue;
    for (std::size_t k = 1; k < rows.size(); ++k)
      if (rows[k][column(h, "configuration")] == "base" &&
          rows[k][column(h, "workload")] == rows[i][column(h, "workload")]) {
        EXPECT_DOUBLE_EQ(
            std::stod(rows[i][column(h, "cycles.vs_baseline")]),
            std::stod(rows[k][column(h, "cycles")]) / std::stod(rows[i][column(h, "cycles")]));
      }
  }
  for (const char* f :
       {"results.json", "report.md", "plots/cycles.png", "plots/cycles.svg", "plots/l2.png"})
    EXPECT_TRUE(fs::exists(out + "/" + f)) << f;
  const std::string report = slurp(out + "/report.md");
  EXPECT_NE(report.find("## cycles: speedup over base"), std::string::npos);
  EXPECT_NE(report.find("![cycles](plots/cycles.png)"), std::string::npos);

  // A second run executes nothing.
  r = experiment(file, out, "exp_run2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 points (0 run, 4 reused)"), std::string::npos) << r.out;
  for (const auto& [f, t] : stamps) EXPECT_EQ(fs::last_write_time(f), t) << f;
  EXPECT_EQ(read_csv(out + "/results.csv").size(), 5u);

  // The checks are kept too: one statistic list per platform x configuration, each headed
  // by its key. A rerun reads them instead of elaborating: with the L2's statistics edited
  // out of one list, the l2 metric's check fails, which only the kept list can make it do.
  std::vector<std::string> checks;
  for (const auto& e : fs::directory_iterator(out + "/checks")) checks.push_back(e.path());
  ASSERT_EQ(checks.size(), 2u);
  for (const std::string& c : {checks[0], checks[1]}) {
    const std::string key = fs::path(c).stem().string();
    std::string text = slurp(c);
    ASSERT_EQ(text.rfind("# " + key + "\n", 0), 0u) << c;
    std::istringstream in(text);
    std::string kept;
    for (std::string line; std::getline(in, line);)
      if (line.find("gpu.l2[") == std::string::npos) kept += line + "\n";
    write_text(c, kept);
  }
  r = experiment(file, out, "exp_run2_checks");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("metrics.l2"), std::string::npos) << r.err;
  // A list under another key's name (renamed, copied) is not used: both configurations are
  // elaborated again (the one whose list was moved away, the one given the wrong list), and
  // their lists kept anew.
  fs::remove(checks[0]);
  fs::rename(checks[1], checks[0]);
  r = experiment(file, out, "exp_run2_renamed");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 points (0 run, 4 reused)"), std::string::npos) << r.out;
  for (const std::string& c : {checks[0], checks[1]}) {
    const std::string text = slurp(c);
    EXPECT_EQ(text.rfind("# " + fs::path(c).stem().string() + "\n", 0), 0u) << c;
    EXPECT_NE(text.find("gpu.l2["), std::string::npos) << c;
  }

  // Changing one trace reruns that workload's points only.
  auto g = run_command(gputlm_bin() + " trace gen vectoradd -p n=3000 -o " + dir + "/va_new",
                       "exp_run_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  fs::remove_all(dir + "/vectoradd");
  fs::rename(dir + "/va_new", dir + "/vectoradd");
  r = experiment(file, out, "exp_run3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 points (2 run, 2 reused)"), std::string::npos) << r.out;
}

TEST(experiment_run, a_failing_point_is_reported_and_the_others_run) {
  const std::string dir = fresh_dir("exp_fail");
  // A copy of vectoradd whose kernel file ends in the middle of a thread block.
  fs::copy(k_src + "/traces/samples/vectoradd", dir + "/broken", fs::copy_options::recursive);
  const std::string kernel = dir + "/broken/kernel-1.traceg";
  std::string text = slurp(kernel);
  write_text(kernel, text.substr(0, text.size() / 2));
  const std::string file = write_experiment(dir, "  broken: {trace: broken}\n");
  const std::string out = dir + "/out";
  auto r = experiment(file, out, "exp_fail");
  EXPECT_EQ(r.status, 102) << r.err;  // 100 + two failed points
  EXPECT_NE(r.out.find("6 points (6 run, 0 reused), 2 failed"), std::string::npos) << r.out;
  const auto rows = read_csv(out + "/results.csv");
  ASSERT_EQ(rows.size(), 7u);
  std::size_t failed = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const bool broken = rows[i][column(rows[0], "workload")] == "broken";
    EXPECT_EQ(rows[i][column(rows[0], "status")], broken ? "failed" : "ok");
    if (broken) {
      ++failed;
      EXPECT_NE(rows[i][column(rows[0], "error")].find("kernel-1.traceg"), std::string::npos)
          << rows[i][column(rows[0], "error")];
      EXPECT_EQ(rows[i][column(rows[0], "cycles")], "");
    }
  }
  EXPECT_EQ(failed, 2u);
  EXPECT_NE(slurp(out + "/report.md").find("## Failed points"), std::string::npos);
  // The failed points are not taken as done: a rerun tries them again, and only them.
  r = experiment(file, out, "exp_fail2");
  EXPECT_EQ(r.status, 102);
  EXPECT_NE(r.out.find("6 points (2 run, 4 reused), 2 failed"), std::string::npos) << r.out;
}

TEST(experiment_run, bad_input_is_one_line_exit_2_and_writes_nothing) {
  struct bad_case {
    std::string name, workloads, metrics, configurations,
        expected;  // expected: the message after "FILE:"
  };
  const std::string dm = "  cycles: total_cycles\n", dc = "  base: {}\n";
  const std::vector<bad_case> cases{
      {"override", "", dm, "  base: {}\n  typo: {smx.l1.hit_latncy: 3cycles}\n",
       "5:10: configurations.typo.smx.l1.hit_latncy: unknown key for a block of type 'l1_cache'; "
       "did you mean "
       "'hit_latency'? (platform 'fermi')"},
      {"override_path", "", dm, "  base: {}\n  nowhere:\n    smx[99].l1.size: 1KiB\n",
       "6:5: configurations.nowhere.smx[99].l1.size: matches no block instance of this platform "
       "(platform 'fermi')"},
      {"metric", "", "  l2: 'sum(blocks.gpu.l2[*].acesses)'\n", dc,
       "9:3: metrics.l2: 'blocks.gpu.l2[*].acesses' matches no statistic of platform 'fermi'; did "
       "you mean "
       "'blocks.gpu.l2[*].accesses'?"},
      {"workload", "  gone: {trace: nothere}\n", dm, dc, "8:17: workloads.gone.trace: no trace '"},
      {"generator", "  hist: {gen: histogram bins=100}\n", dm, dc,
       "8:3: workloads.hist.gen: bins: must be a power of two"},
  };
  for (const auto& c : cases) {
    const std::string dir = fresh_dir("exp_bad_" + c.name);
    const std::string file = write_experiment(dir, c.workloads, c.metrics, c.configurations);
    const std::string out = dir + "/out";
    auto r = experiment(file, out, "exp_bad_" + c.name);
    EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.name << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error: " + file + ":", 0), 0u) << c.name << ": " << r.err;
    if (!c.expected.empty()) {
      EXPECT_EQ(r.err.substr(0, 7 + file.size() + 1 + c.expected.size()),
                "error: " + file + ":" + c.expected)
          << c.name << ": " << r.err;
    }
    EXPECT_FALSE(fs::exists(out)) << c.name;
  }
  // Not an experiment file at all.
  const std::string dir = fresh_dir("exp_bad_yaml");
  write_text(dir + "/x.yaml", "experiment: [unclosed\n");
  auto r = experiment(dir + "/x.yaml", dir + "/out", "exp_bad_yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("error: " + dir + "/x.yaml:", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out"));
}

// The statistic paths an elaboration lists are exactly the numeric values a run writes
// (array indices as [*]): what metrics are checked against before any point runs. Those
// of the dynamic-parallelism group are written by runs of traces with device launches only.
TEST(experiment_run, listed_statistics_are_those_a_run_writes) {
  const std::string dir = fresh_dir("exp_list");
  auto written_by = [&](const std::string& yaml, const std::string& trace, const std::string& tag) {
    auto r = run_command(gputlm_bin() + " run " + yaml + " " + trace +
                             " --no-tb-log --stats-form=full --stats " + dir + "/s.json",
                         tag);
    EXPECT_EQ(r.status, 0) << r.err;
    std::set<std::string> written;
    std::function<void(const nlohmann::json&, const std::string&)> walk =
        [&](const nlohmann::json& j, const std::string& p) {
          if (j.is_object()) {
            for (auto it = j.begin(); it != j.end(); ++it)
              walk(it.value(), p.empty() ? it.key() : p + "." + it.key());
          } else if (j.is_array()) {
            for (const auto& e : j) walk(e, p + "[*]");
          } else if (j.is_number() || j.is_boolean() || j.is_null()) {
            written.insert(p);
          }
        };
    walk(nlohmann::json::parse(slurp(dir + "/s.json")), "");
    return written;
  };
  for (const char* platform : {"volta", "latoa", "variants/kepler-dtbl"}) {
    const std::string yaml = k_src + "/yaml/" + platform + ".yaml";
    auto l =
        run_command(gputlm_bin() + " elaborate " + yaml + " -q --list-stats=all", "exp_list_elab");
    ASSERT_EQ(l.status, 0) << l.err;
    std::set<std::string> always, all;
    std::istringstream in(l.out);
    for (std::string line; std::getline(in, line);) {
      const auto space = line.find(' ');
      all.insert(line.substr(0, space));
      if (space == std::string::npos)
        always.insert(line);
      else  // (streams: written for traces of several streams, test_uc_hetero.cpp)
        EXPECT_TRUE(line.substr(space + 1) == "dynamic_parallelism" ||
                    line.substr(space + 1) == "streams")
            << line;
    }
    // A flat trace: exactly the statistics without a group.
    EXPECT_EQ(written_by(yaml, k_src + "/traces/samples/bfs", "exp_list_flat"), always) << platform;
    // A trace with device launches: every statistic without a group, and only listed ones.
    const auto cdp = written_by(yaml, k_src + "/traces/samples/bfs_cdp", "exp_list_cdp");
    for (const auto& s : always) EXPECT_TRUE(cdp.count(s)) << platform << ": " << s;
    for (const auto& s : cdp) EXPECT_TRUE(all.count(s)) << platform << ": " << s;
    EXPECT_GT(cdp.size(), always.size()) << platform;
    // Two streams (a merged trace): the streams group too, and only listed statistics.
    if (std::string(platform) != "volta") continue;
    auto m = run_command(gputlm_bin() + " trace merge " + k_src + "/traces/samples/vectoradd " +
                             k_src + "/traces/samples/vectoradd -o " + dir + "/two",
                         "exp_list_merge");
    ASSERT_EQ(m.status, 0) << m.err;
    const auto two = written_by(yaml, dir + "/two", "exp_list_two");
    for (const auto& s : two) EXPECT_TRUE(all.count(s)) << platform << ": " << s;
    EXPECT_TRUE(two.count("streams[*].ipc"));
  }
}

TEST(experiment_run, a_run_shows_its_progress_when_asked) {
  // A run of about a second (vectorAdd of 1.5 M elements on the GTX480).
  const std::string dir = fresh_dir("exp_progress");
  auto g = run_command(gputlm_bin() + " trace gen vectoradd -p n=1500000 -o " + dir + "/va",
                       "exp_progress_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  auto r = run_command(
      gputlm_bin() + " run " + k_src + "/yaml/fermi.yaml " + dir + "/va --progress --no-tb-log",
      "exp_progress");
  ASSERT_EQ(r.status, 0) << r.err;
  // Without a terminal, --progress writes a line per report (every half second) and a
  // last one when the simulation ends.
  EXPECT_NE(r.err.find("warp instructions of ~"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("KIPS"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  EXPECT_NE(r.err.find("(100 %)"), std::string::npos) << r.err;  // the last line: every TB done
  // The statistics are those of a run without it.
  auto q = run_command(gputlm_bin() + " run " + k_src + "/yaml/fermi.yaml " + dir +
                           "/va --no-tb-log --no-wall-clock --stats-form=full --stats " + dir +
                           "/a.json --progress",
                       "exp_progress_a");
  auto p = run_command(gputlm_bin() + " run " + k_src + "/yaml/fermi.yaml " + dir +
                           "/va --no-tb-log --no-wall-clock --stats-form=full --stats " + dir +
                           "/b.json",
                       "exp_progress_b");
  ASSERT_EQ(q.status + p.status, 0);
  EXPECT_EQ(slurp(dir + "/a.json"), slurp(dir + "/b.json"));
}

// A kernel that fits the GPU in one wave (one TB: a dependent FFMA chain of one warp, about
// a second) has its TB dispatched at once: its progress is the TBs completed, so no line
// shows an estimate of the total before the TB has completed, and the last one 100 %. (The
// reports come every half second of wall-clock time: one may fall after the TB completed and
// before the run ended, and then says 100 % too.)
TEST(experiment_run, progress_counts_completed_tbs_not_dispatched_ones) {
  const std::string dir = fresh_dir("exp_progress_wave");
  auto g = run_command(gputlm_bin() + " trace gen fu_chain -p iterations=60000 -o " + dir + "/fc",
                       "exp_progress_wave_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  auto r = run_command(
      gputlm_bin() + " run " + k_src + "/yaml/fermi.yaml " + dir + "/fc --progress --no-tb-log",
      "exp_progress_wave");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);)
    if (line.find("warp instructions") != std::string::npos) lines.push_back(line);
  ASSERT_FALSE(lines.empty()) << r.err;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i].find(" of ~") != std::string::npos) {
      EXPECT_NE(lines[i].find("(100 %)"), std::string::npos) << lines[i];
    }
  EXPECT_NE(lines.back().find("(100 %)"), std::string::npos) << lines.back();
}

// A workload's per-configuration forms: each point runs its configuration's form (the
// flat BFS sample under `flat`, the CDP one under `cdp`), and the speedup compares the two.
TEST(experiment_run, each_configuration_runs_its_form_of_a_workload) {
  const std::string dir = fresh_dir("exp_forms");
  const std::string file = dir + "/forms.yaml", out = dir + "/out";
  write_text(file,
             "experiment: {name: forms}\n"
             "platforms: {kepler: " +
                 k_src +
                 "/yaml/kepler.yaml}\n"
                 "configurations: {flat: {}, cdp: {}}\n"
                 "workloads:\n"
                 "  bfs:\n"
                 "    trace: " +
                 k_src +
                 "/traces/samples/bfs\n"
                 "    per_configuration: {cdp: " +
                 k_src +
                 "/traces/samples/bfs_cdp}\n"
                 "metrics: {cycles: {value: total_cycles, compare: speedup}}\n"
                 "run_options: [--stats-group=dynamic_parallelism]\n");
  const auto r = experiment(file, out, "exp_forms");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(out + "/results.csv");
  ASSERT_EQ(rows.size(), 3u);
  const auto& h = rows[0];
  std::map<std::string, nlohmann::json> stats;
  for (std::size_t i = 1; i < rows.size(); ++i)
    stats[rows[i][column(h, "configuration")]] =
        nlohmann::json::parse(slurp(out + "/" + rows[i][column(h, "stats")]));
  EXPECT_EQ(stats["flat"]["trace"].get<std::string>().find("bfs_cdp"), std::string::npos);
  EXPECT_NE(stats["cdp"]["trace"].get<std::string>().find("bfs_cdp"), std::string::npos);
  EXPECT_GT(stats["cdp"]["cdp_warp_instructions"].get<double>(), 0);
  // --stats-group: the flat run writes the dynamic-parallelism statistics too, as zeros.
  EXPECT_EQ(stats["flat"]["cdp_warp_instructions"].get<double>(), 0);
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i][column(h, "configuration")] == "cdp") {
      EXPECT_DOUBLE_EQ(
          std::stod(rows[i][column(h, "cycles.vs_baseline")]),
          stats["flat"]["total_cycles"].get<double>() / stats["cdp"]["total_cycles"].get<double>());
    }
  EXPECT_NE(slurp(out + "/report.md").find("under `cdp`"), std::string::npos);
}

// `platform:` in a configuration: its points run another platform file (another chip
// compared with the same baseline).
TEST(experiment_run, a_configuration_may_run_another_platform) {
  const std::string dir = fresh_dir("exp_platform");
  const std::string file = dir + "/chips.yaml", out = dir + "/out";
  write_text(file,
             "experiment: {name: chips}\n"
             "platforms: {gpu: " +
                 k_src +
                 "/yaml/fermi.yaml}\n"
                 "configurations: {fermi: {}, volta: {platform: " +
                 k_src +
                 "/yaml/volta.yaml}}\n"
                 "workloads: {va: {trace: " +
                 k_src +
                 "/traces/samples/vectoradd}}\n"
                 "metrics: {cycles: {value: total_cycles, compare: speedup}}\n");
  const auto r = experiment(file, out, "exp_platform");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(out + "/results.csv");
  ASSERT_EQ(rows.size(), 3u);
  std::map<std::string, nlohmann::json> stats;
  for (std::size_t i = 1; i < rows.size(); ++i)
    stats[rows[i][column(rows[0], "configuration")]] =
        nlohmann::json::parse(slurp(out + "/" + rows[i][column(rows[0], "stats")]));
  EXPECT_EQ(stats["fermi"]["platform"].get<std::string>(), "fermi-gtx480");
  EXPECT_EQ(stats["volta"]["platform"].get<std::string>(), "volta-titanv");
  EXPECT_NE(slurp(out + "/report.md").find("| configuration `volta` | on `"), std::string::npos);
}

TEST(experiment_run, a_dry_run_lists_the_points_and_writes_nothing) {
  const std::string dir = fresh_dir("dry_run");
  const std::string out = dir + "/out";
  // 1 platform x 2 configurations x (2 workloads + one generated with 2 repetitions).
  const std::string file = write_experiment(dir, "  gen: {gen: spmv rows=256, repetitions: 2}\n");
  auto r = experiment(file, out, "dry_run", "--dry-run");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(out));
  std::istringstream lines(r.out);
  std::vector<std::string> points;
  for (std::string l; std::getline(lines, l);)
    if (l.find(": run ") != std::string::npos) points.push_back(l);
  ASSERT_EQ(points.size(), 8u) << r.out;
  EXPECT_NE(r.out.find("experiment e2e: 8 points; dry run"), std::string::npos) << r.out;
  EXPECT_NE(points[0].find("fermi / base / va: run "), std::string::npos) << points[0];
  EXPECT_NE(r.out.find("fermi / slow_l1 / red: run "), std::string::npos);
  EXPECT_NE(r.out.find("--set smx.l1.hit_latency=40cycles"), std::string::npos);
  EXPECT_NE(r.out.find("fermi / base / gen #1: run " + k_src +
                       "/yaml/fermi.yaml <trace gen spmv --arch 70 -p rows=256 -p seed=2>"),
            std::string::npos)
      << r.out;
  // A bad override is still found (the platforms are elaborated) and --collect excluded.
  const std::string bad = write_experiment(dir, "", "  cycles: {value: total_cycles}\n",
                                           "  base: {smx.l1.no_such_key: 1}\n");
  EXPECT_EQ(experiment(bad, out, "dry_run_bad", "--dry-run").status, 2);
  EXPECT_EQ(experiment(file, out, "dry_run_collect", "--dry-run --collect").status, 2);
  EXPECT_FALSE(fs::exists(out));
}

// A configuration's `with:` names a mechanism file relative to the experiment file; its
// points, run in the output folder, find it when the experiment is named by a relative path.
TEST(experiment_run, a_mechanism_file_is_found_from_the_output_folder) {
  const std::string dir = fresh_dir("exp_with");
  fs::create_directories(dir + "/mechanisms");
  fs::copy_file(k_src + "/yaml/mechanisms/slumber.yaml", dir + "/mechanisms/slumber.yaml");
  const std::string file = dir + "/exp.yaml", out = dir + "/out";
  write_text(file,
             "experiment: {name: with}\n"
             "platforms: {fermi: " +
                 k_src +
                 "/yaml/fermi.yaml}\n"
                 "configurations: {base: {}, slumber: {with: mechanisms/slumber.yaml}}\n"
                 "workloads: {va: {trace: " +
                 k_src +
                 "/traces/samples/vectoradd}}\n"
                 "metrics: {reads: 'sum(blocks.gpu.smx[*].slumber.reads)'}\n");
  // The experiment named relative to the folder the command starts in.
  const auto r = run_command(
      "cd " + dir + " && " + gputlm_bin() + " experiment exp.yaml -o out -j 2", "exp_with");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(out + "/results.csv");
  ASSERT_EQ(rows.size(), 3u);
  const std::size_t cfg = column(rows[0], "configuration"), st = column(rows[0], "stats");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto s = nlohmann::json::parse(slurp(out + "/" + rows[i][st]));
    const bool slumber = rows[i][cfg] == "slumber";
    EXPECT_EQ(s["blocks"].contains("gpu.smx[*].slumber"), slumber) << rows[i][cfg];
    if (slumber) {  // (the compact form: the first SMX's value, or every SMX's)
      const auto& reads = s["blocks"]["gpu.smx[*].slumber"]["reads"];
      EXPECT_GT((reads.is_array() ? reads[0] : reads).get<double>(), 0);
    }
  }
}

// The runner's own options: a job count outside 1..1024 (-1 would wrap to four billion
// workers) and --collect on a folder that holds no points are one line at the option,
// exit 2, before any work, and nothing is written.
TEST(experiment_run, bad_options_are_one_line_before_any_work) {
  const std::string dir = fresh_dir("exp_options");
  const std::string file = write_experiment(dir);
  for (const char* j : {"-j -1", "-j 0", "-j 2000", "--jobs -5"}) {
    const std::string out = dir + "/out";
    auto r = experiment(file, out, "exp_options_j", j);
    EXPECT_EQ(r.status, 2) << j << ": " << r.err;
    EXPECT_EQ(r.err, "error: <command line>: --jobs: must be 1..1024\n") << j;
    EXPECT_FALSE(fs::exists(out)) << j;
  }
  fs::create_directories(dir + "/empty");
  auto r = experiment(file, dir + "/empty", "exp_options_collect", "--collect");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: <command line>: --collect: ", 0), 0u) << r.err;
  EXPECT_TRUE(fs::is_empty(dir + "/empty"));
  // --slurm where no cluster answers (a configuration naming no controller): one line at
  // --slurm before any work (it was an internal error after the workloads were made).
  write_text(dir + "/no-cluster.conf", "ClusterName=none\n");
  auto s = run_command("SLURM_CONF=" + dir + "/no-cluster.conf " + gputlm_bin() + " experiment " +
                           file + " -o " + dir + "/slurm-out --slurm",
                       "exp_options_slurm");
  EXPECT_EQ(s.status, 2) << s.err;
  EXPECT_EQ(std::count(s.err.begin(), s.err.end(), '\n'), 1) << s.err;
  EXPECT_EQ(s.err.rfind("error: <command line>: --slurm: ", 0), 0u) << s.err;
  EXPECT_TRUE(s.err.find("no Slurm cluster answers") != std::string::npos ||
              s.err.find("Slurm's client commands are not installed") != std::string::npos)
      << s.err;
  EXPECT_FALSE(fs::exists(dir + "/slurm-out"));
}

}  // namespace test_experiment_run
