#include "sc_main/experiment/process_pool.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>

#include "sc_main/experiment/interruption.h"

extern char** environ;

namespace gputlm::experiment {
namespace {

using clock = std::chrono::steady_clock;

// Starts argv with its output in the files; returns the pid, or -1.
pid_t spawn(const std::vector<std::string>& argv, const std::string& out_file,
            const std::string& err_file, const std::string& cwd) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  const int flags = O_WRONLY | O_CREAT | O_APPEND;
  posix_spawn_file_actions_addopen(&fa, 1, out_file.empty() ? "/dev/null" : out_file.c_str(), flags,
                                   0644);
  if (err_file.empty())
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  else
    posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), flags, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  track_child(pid);  // an interrupt reaches it
  return pid;
}

int status_of(int raw) {
  if (WIFEXITED(raw)) return WEXITSTATUS(raw);
  if (WIFSIGNALED(raw)) return 128 + WTERMSIG(raw);
  return 1;
}

pid_t wait_any(int& raw) {
  for (;;) {
    const pid_t pid = waitpid(-1, &raw, 0);
    if (pid >= 0) untrack_child(pid);
    if (pid >= 0 || errno != EINTR) return pid;
  }
}

}  // namespace

int run_command(const std::vector<std::string>& argv, const std::string& out_file,
                const std::string& err_file, const std::string& cwd) {
  const pid_t pid = spawn(argv, out_file, err_file, cwd);
  if (pid < 0) return 127;
  int raw = 0;
  while (waitpid(pid, &raw, 0) < 0)
    if (errno != EINTR) {
      untrack_child(pid);
      return 127;
    }
  untrack_child(pid);
  interruption_point();  // (the child got the signal too)
  return status_of(raw);
}

void process_pool::run(const std::function<void()>& progress) {
  struct running {
    std::size_t job;
    std::size_t command;
    clock::time_point start;
  };
  std::map<pid_t, running> live;
  std::size_t next = 0;
  // Starts the command `c` of job `j`; false when it could not be started.
  auto start = [&](std::size_t j, std::size_t c, clock::time_point t0) {
    const job& jb = m_queue[j];
    const pid_t pid = spawn(jb.commands[c], jb.out_file, jb.err_file, jb.cwd);
    if (pid < 0) return false;
    live[pid] = {j, c, t0};
    return true;
  };
  auto finish = [&](std::size_t j, int status, clock::time_point t0) {
    if (m_queue[j].done)
      m_queue[j].done(status, std::chrono::duration<double>(clock::now() - t0).count());
    if (progress) progress();
  };
  while (next < m_queue.size() || !live.empty()) {
    // Once interrupted, nothing new starts; the children got the signal and are waited for.
    while (live.size() < m_parallel && next < m_queue.size() && !pending_signal()) {
      const std::size_t j = next++;
      const auto t0 = clock::now();
      if (m_queue[j].commands.empty())
        finish(j, 0, t0);
      else if (!start(j, 0, t0))
        finish(j, 127, t0);
    }
    if (live.empty()) {
      if (pending_signal()) break;
      continue;
    }
    int raw = 0;
    const pid_t pid = wait_any(raw);
    if (pid < 0) break;  // (no children left: cannot happen while `live` has some)
    auto it = live.find(pid);
    if (it == live.end()) continue;  // not ours
    const running r = it->second;
    live.erase(it);
    const int status = status_of(raw);
    if (pending_signal()) continue;  // (its job is not reported: the run ends below)
    if (status == 0 && r.command + 1 < m_queue[r.job].commands.size()) {
      if (!start(r.job, r.command + 1, r.start)) finish(r.job, 127, r.start);
    } else {
      finish(r.job, status, r.start);
    }
  }
  interruption_point();
}

}  // namespace gputlm::experiment
