// Runs jobs as child processes, at most N at a time (posix_spawn, waitpid). A job is a
// sequence of commands run one after the other until one fails; its standard output and
// error go to files. The experiment runner uses it for elaborations, trace generation and
// the points themselves, each `gputlm` process its own SystemC elaboration.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace gputlm::experiment {

struct job {
  std::vector<std::vector<std::string>> commands;  // argv of each command
  std::string out_file;                            // standard output (appended); "" for /dev/null
  std::string err_file;  // standard error (appended); "" for the same as out_file
  std::string cwd;       // the working folder of its commands ("" to keep ours)
  // Called when the job ends: the exit status of its last command (128 + N when killed by
  // signal N, 127 when it could not be started) and its duration.
  std::function<void(int status, double seconds)> done;
};

class process_pool {
 public:
  explicit process_pool(unsigned parallel) : m_parallel(parallel ? parallel : 1) {}
  void add(job j) { m_queue.push_back(std::move(j)); }
  // Runs every job; `progress` is called after each job ends.
  void run(const std::function<void()>& progress = {});

 private:
  unsigned m_parallel;
  std::vector<job> m_queue;
};

// Runs one command and waits; returns its exit status as job::done receives it.
int run_command(const std::vector<std::string>& argv, const std::string& out_file,
                const std::string& err_file, const std::string& cwd = "");

}  // namespace gputlm::experiment
