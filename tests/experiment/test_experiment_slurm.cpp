// `gputlm experiment --slurm` on a real single-node Slurm cluster that the test starts on
// localhost (scripts/slurm-local.sh: slurmctld, slurmd and munged with their state in a
// folder of their own): a three-point experiment submitted as a job array and collected,
// waiting and with --no-wait + --collect, gives the same statistics as the local run. The
// test is skipped, saying why, only where Slurm cannot be started.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

#include "tests/common/run_command.h"

namespace test_experiment_slurm {

using namespace gputlm::testing;
namespace fs = std::filesystem;

const std::string k_src = GPUTLM_SOURCE_DIR;

class slurm_cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    m_state = std::string(GPUTLM_TEST_TMP) + "/slurm-state";
    m_env = "SLURM_LOCAL_DIR=" + m_state + " ";
    auto r = run_command(m_env + k_src + "/scripts/slurm-local.sh start", "slurm_start");
    if (r.status != 0)
      GTEST_SKIP() << "Slurm cannot be started here, so the Slurm round trip is not tested: "
                   << r.err;
    const std::string prefix = "export SLURM_CONF=";
    ASSERT_EQ(r.out.rfind(prefix, 0), 0u) << r.out;
    std::string conf = r.out.substr(prefix.size());
    conf = conf.substr(0, conf.find('\n'));
    ::setenv("SLURM_CONF", conf.c_str(), 1);
    m_started = true;
  }
  void TearDown() override {
    if (m_started) run_command(m_env + k_src + "/scripts/slurm-local.sh stop", "slurm_stop");
  }

  std::string m_state, m_env;
  bool m_started = false;
};

namespace {

std::string write_experiment(const std::string& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/exp.yaml";
  write_text(path,
             "experiment: {name: slurm3}\n"
             "platforms: {fermi: " +
                 k_src +
                 "/yaml/fermi.yaml}\n"
                 "configurations: {base: {}}\n"
                 "workloads:\n"
                 "  va: {trace: " +
                 k_src +
                 "/traces/samples/vectoradd}\n"
                 "  red: {trace: " +
                 k_src +
                 "/traces/samples/reduction}\n"
                 "  hist: {gen: histogram n=2048}\n"
                 "metrics:\n"
                 "  cycles: total_cycles\n"
                 "  l2: 'sum(blocks.gpu.l2[*].accesses)'\n");
  return path;
}

// The CSV without the columns that describe how a point was run, not what it gave.
std::string results_of(const std::string& csv_file) {
  std::istringstream in(slurp(csv_file));
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (i != 5 && i != 6) out += cells[i] + ",";  // reused, seconds
    out += "\n";
  }
  return out;
}

void expect_same_points(const std::string& a, const std::string& b) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(a + "/points")) {
    const std::string key = e.path().filename().string();
    ASSERT_TRUE(fs::exists(b + "/points/" + key + "/stats.json")) << key;
    EXPECT_EQ(slurp(a + "/points/" + key + "/stats.json"),
              slurp(b + "/points/" + key + "/stats.json"))
        << key;
    ++n;
  }
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(results_of(a + "/results.csv"), results_of(b + "/results.csv"));
}

}  // namespace

TEST_F(slurm_cluster, a_job_array_gives_the_local_run_statistics) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/exp_slurm";
  const std::string file = write_experiment(dir);
  auto local = run_command(gputlm_bin() + " experiment " + file + " -o " + dir + "/local -j 2",
                           "slurm_local");
  ASSERT_EQ(local.status, 0) << local.err;

  auto batch =
      run_command(gputlm_bin() + " experiment " + file + " -o " + dir + "/slurm --slurm --time 10",
                  "slurm_wait");
  ASSERT_EQ(batch.status, 0) << batch.err;
  EXPECT_NE(batch.out.find("3 points (3 run, 0 reused), 0 failed"), std::string::npos) << batch.out;
  EXPECT_TRUE(fs::exists(dir + "/slurm/slurm/job.sh"));
  expect_same_points(dir + "/local", dir + "/slurm");
  // The tasks ran a copy of the executable made for the job (gputlm-<content hash>), so a
  // rebuild while the job is queued cannot run new code under the points' keys.
  std::string copy;
  for (const auto& e : fs::directory_iterator(dir + "/slurm/slurm"))
    if (e.path().filename().string().rfind("gputlm-", 0) == 0) copy = e.path().string();
  ASSERT_FALSE(copy.empty());
  EXPECT_EQ(slurp(copy), slurp(gputlm_bin()));
  EXPECT_NE(slurp(dir + "/slurm/slurm/job.sh").find(copy), std::string::npos);

  // --no-wait, then --collect once the job has ended.
  auto submit =
      run_command(gputlm_bin() + " experiment " + file + " -o " + dir + "/later --slurm --no-wait",
                  "slurm_nowait");
  ASSERT_EQ(submit.status, 0) << submit.err;
  EXPECT_NE(submit.out.find("submitted Slurm job"), std::string::npos) << submit.out;
  std::string id = slurp(dir + "/later/slurm/job-id");
  id = id.substr(0, id.find('\n'));
  for (int i = 0; i < 600; ++i) {  // at most a minute
    auto q = run_command("squeue -h -r -j " + id + " -o %i", "slurm_squeue");
    if (q.status != 0 || q.out.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto collect = run_command(
      gputlm_bin() + " experiment " + file + " -o " + dir + "/later --collect", "slurm_collect");
  ASSERT_EQ(collect.status, 0) << collect.err;
  expect_same_points(dir + "/local", dir + "/later");
}

}  // namespace test_experiment_slurm
