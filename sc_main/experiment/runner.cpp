#include "sc_main/experiment/runner.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "models/base/closest_match.h"
#include "models/base/command_line.h"
#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "models/base/shipped_files.h"
#include "models/common/stats_forms.h"
#include "platforms/platform_spec.h"
#include "platforms/yaml_tree.h"
#include "sc_main/commands.h"
#include "sc_main/experiment/experiment_spec.h"
#include "sc_main/experiment/interruption.h"
#include "sc_main/experiment/process_pool.h"
#include "sc_main/experiment/results.h"
#include "sc_main/experiment/slurm.h"
#include "sc_main/generated/version.h"
#include "traces/content_hash.h"

namespace gputlm::experiment {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;
using traces::content_hasher;

struct options {
  std::string file;
  std::string out;    // absolute: the points run in it
  std::string shown;  // as the user gave it, for messages
  unsigned jobs = 1;
  bool slurm = false;
  bool collect = false;
  bool dry_run = false;
  slurm_options batch;
};

// A scratch folder for captured outputs, removed when the run ends.
class scratch_dir {
 public:
  scratch_dir() {
    std::string t = (fs::temp_directory_path() / "gputlm-experiment-XXXXXX").string();
    if (!::mkdtemp(t.data())) throw std::runtime_error("cannot make a temporary folder in " + t);
    m_path = t;
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// The outputs of one run (results.csv, results.json, plots/, report.md), written beside
// their final names and renamed into place together with SIGINT and SIGTERM held, so that
// an interrupt leaves the previous set (or none), never a mix of two runs. Partials are
// removed when the set is not committed.
class staged_outputs {
 public:
  explicit staged_outputs(std::string out) : m_out(std::move(out)) {}
  ~staged_outputs() {
    if (m_committed) return;
    std::error_code ec;
    for (const std::string& f : m_files) fs::remove(partial(f), ec);
    fs::remove_all(plots_partial(), ec);
  }
  std::string partial(const std::string& name) const { return m_out + "/" + name + ".partial"; }
  std::string plots_partial() const { return m_out + "/plots.partial"; }
  void write(const std::string& name, const std::string& content) {
    m_files.push_back(name);
    std::ofstream os(partial(name), std::ios::binary);
    os << content;
    if (!os.flush()) throw input_error({m_out + "/" + name, 0, 0}, "", "cannot write (disk full?)");
  }
  void commit() {
    interrupts_held held;
    std::error_code ec;
    for (const std::string& f : m_files) fs::rename(partial(f), m_out + "/" + f, ec);
    if (fs::is_directory(plots_partial(), ec)) {
      fs::create_directories(m_out + "/plots", ec);
      for (const auto& e : fs::directory_iterator(plots_partial(), ec))
        fs::rename(e.path(), m_out + "/plots/" + e.path().filename().string(), ec);
      fs::remove_all(plots_partial(), ec);
    }
    m_committed = true;
  }

 private:
  std::string m_out;
  std::vector<std::string> m_files;
  bool m_committed = false;
};

// The first line saying "error: ..." (else the last non-empty line) of a process's output.
std::string error_line(const std::string& path) {
  std::istringstream in(read_file_text(path));
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.rfind("error: ", 0) == 0 || line.rfind("internal error: ", 0) == 0) return line;
    if (!line.empty()) last = line;
  }
  return last.empty() ? "(no output)" : last;
}

// An "error: FILE:LINE:COL: KEY: message" line of a `gputlm` child as the same input_error.
input_error relayed(const std::string& line) {
  std::string s = line.rfind("error: ", 0) == 0 ? line.substr(7) : line;
  static const std::regex located(R"(^(.*?):([0-9]+):([0-9]+): (.*)$)");
  std::smatch m;
  if (std::regex_match(s, m, located))
    return input_error({m[1], std::stoull(m[2]), std::stoull(m[3])}, "", m[4]);
  const auto colon = s.find(": ");
  if (colon == std::string::npos) return input_error({"<input>", 0, 0}, "", s);
  return input_error({s.substr(0, colon), 0, 0}, "", s.substr(colon + 2));
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the gputlm executable: " + ec.message());
  return p.string();
}

std::string format_duration(double s) {
  if (s < 60) return std::to_string(static_cast<int>(std::lround(s))) + " s";
  const long m = std::lround(s / 60);
  return m < 60 ? std::to_string(m) + " min"
                : std::to_string(m / 60) + " h " + std::to_string(m % 60) + " min";
}

// Points done / total, failures and an estimate, on stderr: one line rewritten in place on
// a terminal; otherwise a line per failure only.
class progress_line {
 public:
  progress_line(std::size_t total, unsigned parallel)
      : m_total(total), m_parallel(parallel), m_tty(::isatty(2) != 0), m_start(clock::now()) {}
  void point_done(bool ok, double seconds, const std::string& what) {
    ++m_done;
    m_busy += seconds;
    if (!ok) {
      ++m_failed;
      if (m_tty) std::cerr << "\r\033[K";
      std::cerr << "point failed: " << what << "\n";
    }
    if (!m_tty) return;
    const double elapsed = std::chrono::duration<double>(clock::now() - m_start).count();
    std::cerr << "\r\033[K" << m_done << "/" << m_total << " points";
    if (m_failed) std::cerr << ", " << m_failed << " failed";
    std::cerr << ", " << format_duration(elapsed) << " elapsed";
    if (m_done < m_total) {
      const double per = m_busy / double(m_done);
      std::cerr << ", about " << format_duration(per * double(m_total - m_done) / m_parallel)
                << " left";
    }
    std::cerr << std::flush;
  }
  void end() {
    if (m_tty && m_done) std::cerr << "\n";
  }

 private:
  using clock = std::chrono::steady_clock;
  std::size_t m_total, m_done = 0, m_failed = 0;
  unsigned m_parallel;
  bool m_tty;
  double m_busy = 0;
  clock::time_point m_start;
};

class runner {
 public:
  runner(const options& o, experiment_spec x)
      : m_o(o),
        m_x(std::move(x)),
        m_exe(self_executable()),
        m_version(traces::hash_of_file(m_exe)) {}

  int run();

 private:
  struct generated {
    std::size_t source;  // experiment_spec::source()
    std::uint32_t repetition;
    std::string key;
    std::string file;  // under out/workloads
    std::string made;  // generated now, in the scratch folder ("" when it was there)
  };

  void check_platforms();
  const std::string& yaml_hash(const std::string& file);
  // Adds what platform p under configuration c depends on besides the executable: the
  // platform file with its bases, the mechanism files and the overrides.
  void add_configuration(content_hasher& h, std::size_t p, std::size_t c);
  // The content key of elaborating platform p under configuration c (its statistic list).
  std::string check_key(std::size_t p, std::size_t c);
  void check_metrics(const std::vector<std::vector<std::vector<std::string>>>& names);
  void generate_workloads();
  std::string trace_of(std::size_t w, std::uint32_t r) const;
  std::vector<point_result> plan();
  // The matrix's points in order (platform, configuration, workload, repetition), each
  // with those four fields set.
  std::vector<point_result> points() const;
  std::vector<std::string> run_args(const point_result& p) const;
  void run_local(std::vector<point_result>& points);
  int dry_run() const;
  int run_slurm(std::vector<point_result>& points);
  void take_results(std::vector<point_result>& points, const std::vector<bool>& ran);
  int write_outputs(std::vector<point_result> points);
  std::string point_dir(const point_result& p) const { return m_o.out + "/points/" + p.key; }
  std::string describe(const point_result& p) const {
    return m_x.platforms[p.platform].name + " / " + m_x.configurations[p.configuration].name +
           " / " + m_x.workloads[p.workload].name +
           (m_x.workloads[p.workload].repetitions > 1 ? " #" + std::to_string(p.repetition) : "");
  }

  options m_o;
  experiment_spec m_x;
  std::string m_exe, m_version;
  scratch_dir m_scratch;
  std::vector<generated> m_generated;
  std::map<std::string, std::string> m_trace_hash;  // trace path -> content hash
  std::map<std::string, std::string> m_yaml_hash;   // YAML file -> hash of it and its bases
  // Statistic lists of the elaborations run now, by check_key: kept in DIR/checks once the
  // output folder exists, so that a rerun (a metric changed, say) does not elaborate again.
  std::map<std::string, std::string> m_new_checks;
};

void runner::check_platforms() {
  const std::size_t P = m_x.platforms.size(), C = m_x.configurations.size();
  std::vector<std::vector<int>> status(P, std::vector<int>(C, 0));
  process_pool pool(m_o.jobs);
  auto file = [&](std::size_t p, std::size_t c, const char* ext) {
    return m_scratch.path() + "/elaborate-" + std::to_string(p) + "-" + std::to_string(c) + ext;
  };
  // An elaboration done for an earlier run of the same platform, mechanisms, overrides and
  // executable is not done again: its statistic list is in DIR/checks (status 0).
  std::vector<std::vector<std::string>> keys(P, std::vector<std::string>(C));
  for (std::size_t p = 0; p < P; ++p)
    for (std::size_t c = 0; c < C; ++c) {
      keys[p][c] = check_key(p, c);
      // (the kept file's first line names its key: a file renamed or copied under another
      // key is not used)
      const std::string kept = read_file_text(m_o.out + "/checks/" + keys[p][c] + ".txt");
      const std::string head = "# " + keys[p][c] + "\n";
      if (kept.rfind(head, 0) == 0) {
        std::ofstream(file(p, c, ".out"), std::ios::binary) << kept.substr(head.size());
        keys[p][c].clear();  // (nothing new to keep)
        continue;
      }
      std::vector<std::string> argv{m_exe, "elaborate", m_x.platform_file(p, c), "-q",
                                    "--list-stats=all"};
      const auto args = m_x.configurations[c].arguments();
      argv.insert(argv.end(), args.begin(), args.end());
      pool.add(
          {{argv}, file(p, c, ".out"), file(p, c, ".err"), "", [&status, p, c](int st, double) {
             status[p][c] = st;
           }});
    }
  pool.run();
  std::vector<std::vector<std::vector<std::string>>> names(
      P, std::vector<std::vector<std::string>>(C));
  for (std::size_t p = 0; p < P; ++p)
    for (std::size_t c = 0; c < C; ++c) {
      const configuration& cfg = m_x.configurations[c];
      if (status[p][c] != 0) {
        const std::string line = error_line(file(p, c, ".err"));
        const std::string context = " (platform '" + m_x.platforms[p].name + "')";
        // A bad override: the child names it as "--set KEY=VALUE: ..."; say where the
        // experiment file wrote it.
        for (const auto& s : cfg.sets) {
          const std::string prefix = "error: --set " + s.set_option() + ": ";
          if (line.rfind(prefix, 0) != 0) continue;
          std::string what = line.substr(prefix.size());  // "<key path>: <message>"
          if (const auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
          throw input_error(s.where, "configurations." + cfg.name + "." + s.key, what + context);
        }
        if (status[p][c] == exit_bad_input) throw relayed(line);
        throw std::runtime_error("elaborating platform '" + m_x.platforms[p].name +
                                 "' with configuration '" + cfg.name + "' failed: " + line);
      }
      const std::string listed = read_file_text(file(p, c, ".out"));
      if (!keys[p][c].empty()) m_new_checks[keys[p][c]] = listed;
      std::istringstream in(listed);
      for (std::string l; std::getline(in, l);)
        if (!l.empty()) names[p][c].push_back(l.substr(0, l.find(' ')));  // (without a group)
    }
  check_metrics(names);
}

void runner::check_metrics(const std::vector<std::vector<std::vector<std::string>>>& names) {
  // A path must name a statistic of each platform under some configuration: a mechanism's
  // statistics exist only where it is enabled (its metric has no value at the other points).
  for (const auto& m : m_x.metrics)
    for (const auto& path : m.expr.paths())
      for (std::size_t p = 0; p < m_x.platforms.size(); ++p) {
        if (std::any_of(names[p].begin(), names[p].end(),
                        [&](const auto& n) { return path_matches_any(path, n); }))
          continue;
        // A suggestion among the names, array indices folded.
        static const std::regex index(R"(\[[0-9]+\])");
        std::vector<std::string> folded;
        for (const auto& per_configuration : names[p])
          for (const auto& n : per_configuration) {
            std::string f = std::regex_replace(n, index, "[*]");
            if (folded.empty() || folded.back() != f) folded.push_back(f);
          }
        std::string msg =
            "'" + path + "' matches no statistic of platform '" + m_x.platforms[p].name + "'";
        if (m_x.configurations.size() > 1) msg += " under any configuration";
        const std::string best = closest_match(std::regex_replace(path, index, "[*]"), folded);
        if (!best.empty()) msg += "; did you mean '" + best + "'?";
        throw input_error(m.where, "metrics." + m.name, msg);
      }
}

void runner::generate_workloads() {
  process_pool pool(m_o.jobs);
  std::vector<int> status;
  std::vector<std::string> errs;
  for (std::size_t w = 0; w < m_x.sources(); ++w) {
    const workload& wl = m_x.source(w);
    if (wl.gen_kernel.empty()) continue;  // (a trace, or a merge: below)
    for (std::uint32_t r = 0; r < wl.repetitions; ++r) {
      content_hasher h;
      h.add("gputlm").add(m_version).add("gen").add(wl.gen_kernel).add(wl.arch);
      const auto params = wl.params_of(r);
      for (const auto& p : params) h.add(p);
      generated g{w, r, h.hex(), "", ""};
      g.file = m_o.out + "/workloads/" + wl.name +
               (wl.repetitions > 1 ? "." + std::to_string(r) : "") + "-" + g.key.substr(0, 16) +
               ".gtb";
      std::error_code ec;
      const std::string dir = m_scratch.path() + "/gen-" + std::to_string(m_generated.size());
      if (!fs::exists(g.file, ec)) g.made = dir + ".gtb";
      m_generated.push_back(g);
      if (g.made.empty()) continue;
      std::vector<std::string> gen{m_exe,    "trace", "gen", wl.gen_kernel,
                                   "--arch", wl.arch, "-o",  dir};
      for (const auto& p : params) gen.insert(gen.end(), {"-p", p});
      const std::size_t i = status.size();
      status.push_back(0);
      errs.push_back(dir + ".err");
      pool.add({{gen, {m_exe, "trace", "convert", dir, dir + ".gtb"}},
                "",
                dir + ".err",
                "",
                [&status, i](int st, double) { status[i] = st; }});
    }
  }
  auto wait = [&](std::size_t first_generated, const char* what) {
    if (status.empty()) return;
    if (::isatty(2)) std::cerr << what << " " << status.size() << " workload traces\n";
    pool.run();
    std::size_t i = 0;
    for (std::size_t k = first_generated; k < m_generated.size(); ++k) {
      const generated& g = m_generated[k];
      if (g.made.empty()) continue;
      if (status[i] != 0) {
        const workload& wl = m_x.source(g.source);
        const std::string line = error_line(errs[i]);
        const std::string key = "workloads." + wl.name + (wl.merge.empty() ? ".gen" : ".merge");
        if (status[i] == exit_bad_input) throw input_error(wl.where, key, relayed(line).message());
        throw std::runtime_error("generating workload '" + wl.name + "' failed: " + line);
      }
      ++i;
    }
    status.clear();
    errs.clear();
  };
  wait(0, "generating");
  // Merged workloads, from the generated traces of their members.
  const std::size_t first_merge = m_generated.size();
  for (std::size_t w = 0; w < m_x.sources(); ++w) {
    const workload& wl = m_x.source(w);
    if (wl.merge.empty()) continue;
    content_hasher h;
    h.add("gputlm").add(m_version).add("merge");
    std::vector<std::string> merge{m_exe, "trace", "merge"};
    for (std::size_t m : wl.merge)
      for (const generated& g : m_generated)
        if (g.source == m && g.repetition == 0) {
          h.add(g.key);
          merge.push_back(g.made.empty() ? g.file : g.made);  // (made now: still in scratch)
        }
    generated g{w, 0, h.hex(), "", ""};
    g.file = m_o.out + "/workloads/" + wl.name + "-" + g.key.substr(0, 16) + ".gtb";
    std::error_code ec;
    const std::string out = m_scratch.path() + "/merge-" + std::to_string(m_generated.size());
    if (!fs::exists(g.file, ec)) g.made = out + ".gtb";
    m_generated.push_back(g);
    if (g.made.empty()) continue;
    merge.insert(merge.end(), {"-o", out + ".gtb"});
    const std::size_t i = status.size();
    status.push_back(0);
    errs.push_back(out + ".err");
    pool.add({{merge}, "", out + ".err", "", [&status, i](int st, double) { status[i] = st; }});
  }
  wait(first_merge, "merging");
}

std::string runner::trace_of(std::size_t s, std::uint32_t r) const {
  if (!m_x.source(s).generated()) return m_x.source(s).trace;
  for (const auto& g : m_generated)
    if (g.source == s && g.repetition == r) return g.file;
  throw std::logic_error("no generated trace");
}

// A point's `gputlm run`, run in the output folder: its statistics and a generated trace
// are named relative to it, so that the statistics of a point are the same bytes whatever
// the output folder (its `trace` names the trace as the command does).
std::vector<std::string> runner::run_args(const point_result& p) const {
  const std::size_t src = m_x.source_of(p.workload, p.configuration);
  const workload& w = m_x.source(src);
  const std::string trace =
      w.generated() ? "workloads/" + fs::path(trace_of(src, p.repetition)).filename().string()
                    : fs::absolute(w.trace).lexically_normal().string();
  std::vector<std::string> a{
      m_exe, "run",
      fs::absolute(m_x.platform_file(p.platform, p.configuration)).lexically_normal().string(),
      trace};
  const auto args = m_x.configurations[p.configuration].arguments();
  a.insert(a.end(), args.begin(), args.end());
  a.insert(a.end(),
           {"--stats", "points/" + p.key + "/stats.json", "--no-wall-clock", "--no-tb-log"});
  for (const auto& o : m_x.run_options) a.push_back(o);
  return a;
}

std::vector<point_result> runner::points() const {
  std::vector<point_result> out;
  for (std::size_t p = 0; p < m_x.platforms.size(); ++p)
    for (std::size_t c = 0; c < m_x.configurations.size(); ++c)
      for (std::size_t w = 0; w < m_x.workloads.size(); ++w) {
        if (!m_x.runs(c, w)) continue;
        for (std::uint32_t r = 0; r < m_x.workloads[w].repetitions; ++r) {
          point_result pt;
          pt.platform = p;
          pt.configuration = c;
          pt.workload = w;
          pt.repetition = r;
          out.push_back(std::move(pt));
        }
      }
  return out;
}

const std::string& runner::yaml_hash(const std::string& file) {
  auto it = m_yaml_hash.find(file);
  if (it != m_yaml_hash.end()) return it->second;
  std::vector<std::string> chain;
  platforms::load_yaml_with_bases(file, &chain);
  content_hasher h;
  for (const auto& f : chain) h.add_file(f);
  return m_yaml_hash.emplace(file, h.hex()).first->second;
}

void runner::add_configuration(content_hasher& h, std::size_t p, std::size_t c) {
  h.add("platform").add(yaml_hash(m_x.platform_file(p, c))).add("sets");
  for (const auto& m : m_x.configurations[c].mechanisms) h.add("with").add(yaml_hash(m));
  for (const auto& s : m_x.configurations[c].sets) h.add(s.set_option());
}

std::string runner::check_key(std::size_t p, std::size_t c) {
  content_hasher h;
  h.add("elaborate --list-stats=all").add(m_version);
  add_configuration(h, p, c);
  return h.hex();
}

std::vector<point_result> runner::plan() {
  std::vector<point_result> all = points();
  for (point_result& pt : all) {
    const std::string trace = trace_of(m_x.source_of(pt.workload, pt.configuration), pt.repetition);
    auto th = m_trace_hash.find(trace);
    if (th == m_trace_hash.end())
      th = m_trace_hash.emplace(trace, content_hasher().add_tree(trace).hex()).first;
    content_hasher h;
    h.add("gputlm").add(m_version);
    add_configuration(h, pt.platform, pt.configuration);
    h.add("trace").add(th->second).add("options");
    for (const auto& o : m_x.run_options) h.add(o);
    pt.key = h.hex();
    std::error_code ec;
    pt.reused = fs::exists(point_dir(pt) + "/stats.json", ec);
  }
  return all;
}

void runner::run_local(std::vector<point_result>& points) {
  std::size_t todo = 0;
  for (const auto& p : points) todo += !p.reused;
  if (todo == 0) return;
  process_pool pool(m_o.jobs);
  progress_line progress(todo, m_o.jobs);
  std::vector<bool> ran(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i) {
    point_result& p = points[i];
    if (p.reused) continue;
    const std::string dir = point_dir(p);
    fs::create_directories(dir);
    const std::string log = dir + "/run.log";
    std::remove(log.c_str());
    pool.add(
        {{run_args(p)}, log, "", m_o.out, [this, &p, &progress, log](int status, double seconds) {
           p.seconds = seconds;
           p.ok = status == 0;
           if (!p.ok)
             p.error = status == 127
                           ? "gputlm could not be started"
                           : error_line(log) + " (exit status " + std::to_string(status) + ")";
           progress.point_done(p.ok, seconds, describe(p) + ": " + p.error);
         }});
  }
  pool.run();
  progress.end();
}

int runner::run_slurm(std::vector<point_result>& points) {
  const std::string dir = m_o.out + "/slurm";
  fs::create_directories(dir);
  // The tasks run a copy of this executable named by its content hash, which the points'
  // keys include: a rebuild while the job is queued would otherwise run new code under them.
  const std::string exe = dir + "/gputlm-" + m_version.substr(0, 16);
  fs::copy_file(m_exe, exe + ".partial", fs::copy_options::overwrite_existing);
  fs::rename(exe + ".partial", exe);
  std::vector<slurm_task> tasks;
  for (const auto& p : points) {
    if (p.reused) continue;
    fs::create_directories(point_dir(p));
    std::vector<std::string> argv = run_args(p);
    argv[0] = exe;
    tasks.push_back({std::move(argv), point_dir(p) + "/run.log"});
  }
  if (tasks.empty()) return 0;
  const std::string id = submit_job_array(dir, m_o.out, m_x.name, tasks, m_o.batch);
  cli::write_file_atomically(dir + "/job-id", id + "\n");
  if (!m_o.batch.wait) {
    std::cout << "submitted Slurm job " << id << " (" << tasks.size()
              << " points); when it has ended: gputlm experiment " << m_o.file << " --collect -o "
              << m_o.shown << "\n";
    return -1;
  }
  std::cerr << "Slurm job " << id << " (" << tasks.size() << " points) ended\n";
  return 0;
}

// Points run now or by Slurm: whether their statistics are there, and why not.
void runner::take_results(std::vector<point_result>& points, const std::vector<bool>& ran) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    point_result& p = points[i];
    if (ran[i]) continue;  // (run_local set them)
    if (p.reused) {
      p.ok = true;
      continue;
    }
    std::error_code ec;
    p.ok = fs::exists(point_dir(p) + "/stats.json", ec);
    if (!p.ok) {
      const std::string log = point_dir(p) + "/run.log";
      p.error = fs::exists(log, ec) ? error_line(log) : "no statistics: the point did not run";
    }
  }
}

int runner::write_outputs(std::vector<point_result> points) {
  for (auto& p : points) {
    if (!p.ok) {
      p.values.assign(m_x.metrics.size(), std::nullopt);
      p.why.assign(m_x.metrics.size(), "");
      continue;
    }
    nlohmann::json stats;
    try {
      stats = full_stats(nlohmann::json::parse(read_file_text(point_dir(p) + "/stats.json")));
    } catch (const std::exception& e) {
      p.ok = false;
      p.error = std::string("unreadable statistics: ") + e.what();
      p.values.assign(m_x.metrics.size(), std::nullopt);
      p.why.assign(m_x.metrics.size(), "");
      continue;
    }
    evaluate_metrics(m_x, stats, p);
  }
  interruption_point();
  const experiment_results results(m_x, std::move(points), GPUTLM_GIT_COMMIT);
  staged_outputs staged(m_o.out);
  staged.write("results.csv", results.csv());
  staged.write("results.json", results.json());

  // Plots: scripts/plot-experiment.py with Debian's python3 and matplotlib.
  std::vector<std::string> plots;
  std::string note;
  const std::string script = shipped_file("scripts/plot-experiment.py").string();
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string log = m_scratch.path() + "/plot.log";
  const int st = run_command(
      {python, script, staged.partial("results.json"), staged.plots_partial()}, log, "");
  if (st == 0) {
    for (const auto& pl : m_x.plots) plots.push_back(pl.file);
  } else {
    note = "No plots: " + error_line(log);
    std::cerr << "warning: plots not made: " << error_line(log) << "\n";
  }
  staged.write("report.md", results.markdown(plots, note));
  interruption_point();
  staged.commit();

  const std::size_t failed = results.failed();
  std::cout << "experiment " << m_x.name << ": " << results.points().size() << " points ("
            << results.points().size() - results.reused() << " run, " << results.reused()
            << " reused), " << failed << " failed; " << m_o.shown << "/report.md\n";
  return failed == 0 ? exit_ok : 100 + static_cast<int>(std::min<std::size_t>(failed, 100));
}

// The points as the runs they would be, after the checks; nothing generated, run or written.
int runner::dry_run() const {
  const std::vector<point_result> all = points();
  for (const point_result& pt : all) {
    const workload& wl = m_x.source(m_x.source_of(pt.workload, pt.configuration));
    std::string trace = wl.trace;
    if (!wl.merge.empty()) {
      trace = "<trace merge";
      for (std::size_t m : wl.merge) trace += " " + m_x.source(m).name;
      trace += ">";
    } else if (wl.generated()) {
      trace = "<trace gen " + wl.gen_kernel + " --arch " + wl.arch;
      for (const auto& prm : wl.params_of(pt.repetition)) trace += " -p " + prm;
      trace += ">";
    }
    std::cout << describe(pt) << ": run " << m_x.platform_file(pt.platform, pt.configuration) << " "
              << trace;
    for (const auto& m : m_x.configurations[pt.configuration].mechanisms)
      std::cout << " --with " << m;
    for (const auto& s : m_x.configurations[pt.configuration].sets)
      std::cout << " --set " << s.set_option();
    for (const auto& o : m_x.run_options) std::cout << " " << o;
    std::cout << "\n";
  }
  std::cout << "experiment " << m_x.name << ": " << all.size() << " points"
            << (m_o.slurm ? " (one Slurm job array)" : "")
            << "; dry run: nothing generated, run or written\n";
  return exit_ok;
}

int runner::run() {
  install_forwarding_handlers();
  if (m_o.slurm && !m_o.dry_run) check_slurm_cluster(m_scratch.path());
  check_platforms();
  if (m_o.dry_run) return dry_run();
  generate_workloads();
  // Nothing is written before here: bad input leaves no output folder behind.
  fs::create_directories(m_o.out + "/workloads");
  fs::create_directories(m_o.out + "/checks");
  for (const auto& [key, listed] : m_new_checks)
    cli::write_file_atomically(m_o.out + "/checks/" + key + ".txt", "# " + key + "\n" + listed);
  for (const auto& g : m_generated) {
    if (g.made.empty()) continue;
    fs::copy_file(g.made, g.file + ".partial", fs::copy_options::overwrite_existing);
    fs::rename(g.file + ".partial", g.file);
  }
  interruption_point();
  std::vector<point_result> points = plan();
  std::vector<bool> ran(points.size(), false);
  if (m_o.collect) {
    const std::string id_file = m_o.out + "/slurm/job-id";
    std::error_code ec;
    if (fs::exists(id_file, ec)) {
      std::string id = read_file_text(id_file);
      id = id.substr(0, id.find('\n'));
      if (const std::size_t n = slurm_tasks_active(id, m_scratch.path()))
        std::cerr << "warning: Slurm job " << id << " still has " << n
                  << " tasks pending or running; their points are reported as failed\n";
    }
  } else if (m_o.slurm) {
    if (run_slurm(points) < 0) return exit_ok;
  } else {
    run_local(points);
    for (std::size_t i = 0; i < points.size(); ++i) ran[i] = !points[i].reused;
  }
  take_results(points, ran);
  return write_outputs(std::move(points));
}

}  // namespace

int experiment_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm experiment FILE.yaml [options]");
  opts.add_options()("help,h", "show this help")("file", po::value<std::string>(),
                                                 "experiment file")(
      "output,o", po::value<std::string>(), "output folder (default build/experiments/<name>)")(
      "jobs,j", po::value<long long>(),
      "points run at once, 1..1024 (default: the number of cores)")(
      "slurm",
      "submit the points to Slurm as one job array (sbatch --array) instead of running them here")(
      "partition", po::value<std::string>(), "with --slurm: the partition (sbatch --partition)")(
      "time", po::value<std::string>(), "with --slurm: the time limit per point (sbatch --time)")(
      "mem", po::value<std::string>(), "with --slurm: the memory per point (sbatch --mem)")(
      "no-wait", "with --slurm: submit and return; collect later with --collect")(
      "collect", "write the outputs from the points already there (after a --slurm --no-wait run)")(
      "dry-run,n",
      "check the experiment (its platforms, overrides and metrics) and print its points as the "
      "runs they would be; nothing is generated, run or written");
  po::positional_options_description pos;
  pos.add("file", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("file")) throw input_error(command_line, "FILE", "no experiment file given");
  options o;
  o.file = vm["file"].as<std::string>();
  o.slurm = vm.count("slurm") != 0;
  o.collect = vm.count("collect") != 0;
  o.dry_run = vm.count("dry-run") != 0;
  o.batch.wait = vm.count("no-wait") == 0;
  for (const char* s : {"partition", "time", "mem", "no-wait"})
    if (vm.count(s) && !o.slurm)
      throw input_error(command_line, std::string("--") + s, "applies with --slurm only");
  if (o.slurm && o.collect)
    throw input_error(command_line, "--collect", "--collect and --slurm exclude each other");
  if (o.dry_run && o.collect)
    throw input_error(command_line, "--collect", "--collect and --dry-run exclude each other");
  if (vm.count("partition")) o.batch.partition = vm["partition"].as<std::string>();
  if (vm.count("time")) o.batch.time = vm["time"].as<std::string>();
  if (vm.count("mem")) o.batch.mem = vm["mem"].as<std::string>();
  if (vm.count("jobs")) {
    const long long j = vm["jobs"].as<long long>();
    if (j < 1 || j > 1024) throw input_error(command_line, "--jobs", "must be 1..1024");
    o.jobs = static_cast<unsigned>(j);
  } else {
    o.jobs = std::max(1u, std::thread::hardware_concurrency());
  }
  std::error_code ec;
  if (!fs::is_regular_file(o.file, ec))
    throw input_error({o.file, 0, 0}, "", "no such experiment file");

  experiment_spec x = load_experiment(o.file);
  o.shown = vm.count("output") ? vm["output"].as<std::string>() : "build/experiments/" + x.name;
  {  // the output folder: makeable, and neither an input nor inside or around one
    std::vector<std::string> inputs{o.file};
    for (const auto& p : x.platforms) inputs.push_back(p.file);
    for (std::size_t s = 0; s < x.sources(); ++s)
      if (!x.source(s).trace.empty()) inputs.push_back(x.source(s).trace);
    check_output_folder("--output", o.shown, inputs);
  }
  o.out = fs::absolute(o.shown).lexically_normal().string();
  if (o.collect && !fs::is_directory(o.out + "/points", ec))
    throw input_error(command_line, "--collect",
                      "'" + o.shown +
                          "' holds no points of an experiment (run it with --slurm "
                          "--no-wait first, into this folder)");
  const std::string shown = o.shown;
  try {
    runner r(o, std::move(x));  // (its scratch folder is gone before the handler below)
    return r.run();
  } catch (const interrupted& i) {
    std::cerr << "error: " << (i.signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)")
              << ": stopped with its running points; the points that had finished are kept in "
              << shown << "/points (a rerun reuses them), the other outputs are as they were\n";
    return 128 + i.signal;
  }
}

}  // namespace gputlm::experiment
