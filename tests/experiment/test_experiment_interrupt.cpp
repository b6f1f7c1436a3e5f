// An experiment interrupted while a point runs (SIGINT, then SIGTERM, sent to the runner
// alone, as `kill` does, not to its process group as a terminal's Ctrl-C does): the runner
// forwards the signal to the running point, waits for it, and ends with 128 + the signal and
// one line on stderr; no child survives, no scratch folder is left in the temporary folder,
// no partial file in the output folder, and the outputs of the previous complete run are
// byte-identical to what they were.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "tests/common/run_command.h"

namespace test_experiment_interrupt {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

std::string experiment_file(const std::string& dir, bool with_big) {
  const std::string path = dir + "/exp.yaml";
  write_text(path,
             "experiment: {name: interrupt}\n"
             "platforms: {fermi: " +
                 k_src +
                 "/yaml/fermi.yaml}\n"
                 "configurations: {base: {}}\n"
                 "workloads:\n"
                 "  va: {trace: " +
                 k_src + "/traces/samples/vectoradd}\n" +
                 (with_big ? "  big: {trace: " + dir + "/big}\n" : "") +
                 "metrics: {cycles: total_cycles}\n");
  return path;
}

// The pid of a child of `parent` whose command line holds " run " (a point), or 0.
pid_t running_point(pid_t parent) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::ifstream stat(e.path() / "stat");
    std::string pid, comm, state;
    pid_t ppid = 0;
    stat >> pid >> comm >> state >> ppid;
    if (ppid != parent) continue;
    std::string cmdline = slurp((e.path() / "cmdline").string());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(" run ") != std::string::npos) return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

bool holds_partial(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.path().string().find(".partial") != std::string::npos) return true;
  return false;
}

TEST(experiment_interrupt, a_signal_stops_the_running_point_and_leaves_the_outputs_as_they_were) {
  const std::string d = fresh_dir("exp_interrupt");
  const std::string tmp = d + "/tmp";  // the runner's temporary folder (TMPDIR)
  fs::create_directories(tmp);
  const std::string out = d + "/out";
  // A complete run of the small matrix: its outputs must survive the interrupted run.
  auto first = run_command("TMPDIR=" + tmp + " " + gputlm_bin() + " experiment " +
                               experiment_file(d, false) + " -o " + out + " -j 1",
                           "exp_interrupt_first");
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string csv = slurp(out + "/results.csv"), report = slurp(out + "/report.md");
  ASSERT_FALSE(csv.empty());
  auto g = run_command(gputlm_bin() + " trace gen vectoradd -p n=4194304 -o " + d + "/big",
                       "exp_interrupt_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  const std::string file = experiment_file(d, true);
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    const std::string tag = d + "/runner" + std::to_string(sig);
    const pid_t pid = start_command(gputlm_bin() + " experiment " + file + " -o " + out +
                                        " -j 1 >" + tag + ".out 2>" + tag + ".err",
                                    "TMPDIR=" + tmp);
    ASSERT_GE(pid, 0);
    pid_t point = 0;
    for (int i = 0; i < 6000 && !(point = running_point(pid)); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_NE(point, 0) << "no point started";
    EXPECT_EQ(signal_and_wait(pid, sig), 128 + sig);
    const std::string err = slurp(tag + ".err");
    EXPECT_EQ(lines(err), 1u) << err;
    EXPECT_NE(err.find(sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"),
              std::string::npos)
        << err;
    // The point got the signal and was waited for: it is gone, not orphaned.
    EXPECT_FALSE(fs::exists("/proc/" + std::to_string(point))) << "point " << point << " survived";
    EXPECT_TRUE(fs::is_empty(tmp)) << "scratch left in " << tmp;
    EXPECT_FALSE(holds_partial(out));
    EXPECT_EQ(slurp(out + "/results.csv"), csv);
    EXPECT_EQ(slurp(out + "/report.md"), report);
  }
}

}  // namespace

}  // namespace test_experiment_interrupt
