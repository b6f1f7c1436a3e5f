// Output files of `gputlm run` and `gputlm elaborate` (models/base/output_files.h): a
// directory, an unwritable place, the same file twice, or an input given as an output is
// refused before anything runs (one line, exit status 2, nothing written); SIGINT and
// SIGTERM stop a run with one line, status 128 + signal, and no `.partial` file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "tests/common/run_command.h"

namespace test_outputs {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {
const std::string k_src = GPUTLM_SOURCE_DIR;
const std::string k_fermi = k_src + "/yaml/fermi.yaml";
const std::string k_trace = k_src + "/traces/samples/vectoradd";

std::string scratch(const std::string& name) {
  const fs::path d = fs::path(GPUTLM_TEST_TMP) / ("outputs_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

std::size_t lines(const std::string& s) {
  return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

bool any_partial(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().find(".partial") != std::string::npos) return true;
  return false;
}
}  // namespace

TEST(outputs, bad_outputs_are_refused_before_the_run) {
  const std::string d = scratch("bad");
  fs::create_directories(d + "/sub");
  fs::create_directories(d + "/ro");
  ::chmod((d + "/ro").c_str(), 0555);
  const bool root = ::geteuid() == 0;  // root may write anywhere: skip that case then
  struct bad_case {
    std::string args, expect;
  };
  std::vector<bad_case> cases = {
      {"--stats " + d + "/sub", "--stats: '" + d + "/sub' is a directory"},
      {"--stats " + d + "/missing/s.json", "--stats: directory '" + d + "/missing' does not exist"},
      {"--stats " + d + "/x --vcd " + d + "/x",
       "--vcd: '" + d + "/x' is also the output of --stats"},
      {"--stats " + d + "/w.gtkw --vcd " + d + "/w.vcd",
       "--vcd (its GTKWave layout): '" + d + "/w.gtkw' is also the output of --stats"},
      {"--stats " + d + "/./sub/../y --vcd " + d + "/y", "is also the output of --stats"},
      {"--stats " + k_fermi, "--stats: '" + k_fermi + "' is an input"},
      {"--vcd " + k_trace + "/kernelslist.g", "is an input"},
  };
  if (!root) cases.push_back({"--stats " + d + "/ro/s.json", "is not writable"});
  int n = 0;
  for (const auto& c : cases) {
    auto r = run_command(gputlm_bin() + " run " + k_fermi + " " + k_trace + " " + c.args,
                         "outputs_bad_" + std::to_string(n++));
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << c.args;  // refused before the run: no summary printed
  }
  EXPECT_FALSE(fs::exists(d + "/x"));
  EXPECT_FALSE(any_partial(d));
  auto e = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --dot " + k_fermi,
                       "outputs_bad_dot");
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("--dot: '" + k_fermi + "' is an input"), std::string::npos) << e.err;
  ::chmod((d + "/ro").c_str(), 0755);
}

// A run long enough to be interrupted while it writes its VCD: SIGTERM and SIGINT.
TEST(outputs, an_interrupted_run_leaves_no_partial_file) {
  const std::string d = scratch("interrupt");
  auto g = run_command(gputlm_bin() + " trace gen vectoradd -p n=4194304 -o " + d + "/big",
                       "outputs_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  for (int sig : {SIGTERM, SIGINT}) {
    const std::string tag = d + "/run" + std::to_string(sig);
    const pid_t pid =
        start_command(gputlm_bin() + " run " + k_fermi + " " + d + "/big --vcd " + tag +
                      ".vcd --stats " + tag + ".json >" + tag + ".out 2>" + tag + ".err");
    ASSERT_GE(pid, 0);
    // Wait until the run writes its waveform (the simulation has started), then stop it.
    for (int i = 0; i < 6000 && !fs::exists(tag + ".vcd.partial"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(fs::exists(tag + ".vcd.partial"));
    EXPECT_EQ(signal_and_wait(pid, sig), 128 + sig);
    const std::string err = slurp(tag + ".err");
    EXPECT_EQ(lines(err), 1u) << err;
    EXPECT_NE(err.find(sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"),
              std::string::npos)
        << err;
    EXPECT_FALSE(fs::exists(tag + ".json"));
    EXPECT_FALSE(fs::exists(tag + ".vcd"));
  }
  EXPECT_FALSE(any_partial(d));
}

// A place that access() allows but that refuses a file (/proc) is refused before the run;
// a waveform whose writes fail during the run (a file-size limit standing in for a full
// disk) stops the run there: one line, exit 2, neither the waveform nor the statistics.
TEST(outputs, an_unwritable_waveform_is_one_line_and_stops_the_run) {
  const std::string d = scratch("vcd_fail");
  auto r = run_command(gputlm_bin() + " run " + k_fermi + " " + k_trace + " --vcd /proc/gputlm.vcd",
                       "outputs_vcd_proc");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("--vcd: '/proc/gputlm.vcd' cannot be written"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // refused before the run
  auto full = run_command("trap '' XFSZ; ulimit -f 16; exec " + gputlm_bin() + " run " + k_fermi +
                              " " + k_trace + " --vcd " + d + "/w.vcd --stats " + d + "/s.json",
                          "outputs_vcd_full");
  EXPECT_EQ(full.status, 2);
  EXPECT_EQ(lines(full.err), 1u) << full.err;
  EXPECT_NE(full.err.find("cannot write the waveform"), std::string::npos) << full.err;
  EXPECT_TRUE(fs::is_empty(d)) << "something was written in " << d;
}

// `trace locality` stages its files in a folder beside its output: an interrupt while it
// works (the staging folder is made before the graphs are built) removes that folder with
// what it holds; no output folder is made.
TEST(outputs, an_interrupted_locality_leaves_no_staging_folder) {
  const std::string d = scratch("locality_interrupt");
  auto g = run_command(gputlm_bin() + " trace gen vectoradd -p n=4194304 -o " + d + "/big",
                       "outputs_locality_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string out = d + "/loc" + std::to_string(sig);
    const pid_t pid = start_command(gputlm_bin() + " trace locality " + d + "/big -o " + out +
                                    " --no-cache >/dev/null 2>" + out + ".err");
    ASSERT_GE(pid, 0);
    const std::string staging = out + ".tmp-" + std::to_string(pid);
    for (int i = 0; i < 6000 && !fs::exists(staging); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(fs::exists(staging));
    EXPECT_EQ(signal_and_wait(pid, sig), 128 + sig);
    EXPECT_FALSE(fs::exists(staging)) << staging;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(lines(slurp(out + ".err")), 1u);
  }
}

// `gputlm` alone: an error line naming what is missing, then the usage, on stderr; exit
// status 2.
TEST(outputs, no_command_prints_usage_to_stderr) {
  auto r = run_command(gputlm_bin(), "outputs_usage");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: <command line>: no command (", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("\nusage: gputlm <command>"), std::string::npos) << r.err;
}

// A misspelled command, trace command, option or generator gets the nearest name.
TEST(outputs, misspelled_names_get_a_suggestion) {
  struct typo {
    const char* args;
    const char* says;
  };
  const typo cases[] = {
      {"elabrate x.yaml", "elabrate: unknown command; did you mean 'elaborate'?"},
      {"trace gne", "did you mean 'trace gen'?"},
      {"run --stast x", "unrecognised option '--stast'; did you mean '--stats'?"},
      {"trace gen vectorad -o x", "unknown kernel 'vectorad'; did you mean 'vectoradd'?"},
  };
  for (const typo& t : cases) {
    auto r = run_command(gputlm_bin() + " " + t.args, "outputs_typo");
    EXPECT_EQ(r.status, 2) << t.args;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(t.says), std::string::npos) << r.err;
  }
}

// The commands that write folders or platforms check their outputs before any work, as
// `run` does: one line naming the option, exit 2, and the inputs untouched.
TEST(outputs, the_other_commands_check_their_outputs_first) {
  const std::string d = scratch("others");
  // A listing of a folder's files with their sizes, to see that nothing changed.
  auto listing = [](const std::string& dir) {
    std::vector<std::string> v;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      v.push_back(e.path().string() + ":" +
                  (e.is_regular_file() ? std::to_string(e.file_size()) : "dir"));
    std::sort(v.begin(), v.end());
    return v;
  };
  auto refused = [](const command_result& r, const std::string& option, const std::string& what) {
    EXPECT_EQ(r.status, 2) << what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error: <command line>: " + option + ": ", 0), 0u)
        << what << ": " << r.err;
  };
  // trace gen onto an existing trace: refused (its files kept); --force replaces it.
  ASSERT_EQ(
      run_command(gputlm_bin() + " trace gen vectoradd -p n=1024 -o " + d + "/t", "o_gen1").status,
      0);
  const auto before = listing(d + "/t");
  refused(run_command(gputlm_bin() + " trace gen histogram -o " + d + "/t", "o_gen2"), "--output",
          "trace gen over a trace");
  EXPECT_EQ(listing(d + "/t"), before);
  EXPECT_EQ(
      run_command(gputlm_bin() + " trace gen histogram --force -o " + d + "/t", "o_gen3").status,
      0);
  EXPECT_NE(slurp(d + "/t/kernel-1.traceg").find("histogram"), std::string::npos);
  // trace locality into the trace's own folder.
  fs::copy(k_trace, d + "/va", fs::copy_options::recursive);
  const auto va = listing(d + "/va");
  refused(
      run_command(gputlm_bin() + " trace locality " + d + "/va -o " + d + "/va/graphs", "o_loc"),
      "-o", "locality into the trace");
  EXPECT_EQ(listing(d + "/va"), va);
  // import-config over its own input.
  fs::copy_file(k_src + "/tests/data/titanv.gpgpusim.config", d + "/g.config");
  const std::string config = slurp(d + "/g.config");
  refused(run_command(gputlm_bin() + " import-config " + d + "/g.config -o " + d + "/g.config",
                      "o_import"),
          "--output", "import-config over its input");
  EXPECT_EQ(slurp(d + "/g.config"), config);
  // experiment: an output below a file, one equal to a trace folder, one holding it.
  write_text(d + "/file", "x");
  write_text(d + "/e.yaml", "experiment: {name: o}\nplatforms: {fermi: " + k_fermi +
                                "}\nconfigurations: {base: {}}\nworkloads: {va: {trace: " + d +
                                "/va}}\nmetrics: {cycles: total_cycles}\n");
  for (const std::string& out : {d + "/file/out", d + "/va", d})
    refused(run_command(gputlm_bin() + " experiment " + d + "/e.yaml -o " + out, "o_exp"),
            "--output", "experiment -o " + out);
  EXPECT_EQ(listing(d + "/va"), va);
  EXPECT_FALSE(fs::exists(d + "/points"));
}

}  // namespace test_outputs
