// Runs a shell command for end-to-end tests of the `gputlm` binary and captures its exit
// status, standard output and standard error.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gputlm::testing {

struct command_result {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Written beside and renamed into place, so that a test process reading a file another one
// (run in parallel by ctest) writes with the same contents never sees it half-written.
inline void write_text(const std::string& path, const std::string& text) {
  const std::string part = path + ".part" + std::to_string(::getpid());
  std::ofstream(part, std::ios::binary | std::ios::trunc) << text;
  std::rename(part.c_str(), path.c_str());
}

// `tag` names the capture files (must be unique per test).
inline command_result run_command(const std::string& cmd, const std::string& tag) {
  const std::string base = std::string(GPUTLM_TEST_TMP) + "/" + tag;
  const std::string full = cmd + " >" + base + ".out 2>" + base + ".err";
  int raw = std::system(full.c_str());
  command_result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  return r;
}

// Starts `cmd` through /bin/sh without waiting (exec'd: the pid is the command's own), for
// tests that signal a running command. `env` (NAME=value, or "") is set in the child only.
inline pid_t start_command(const std::string& cmd, const std::string& env = "") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!env.empty()) ::putenv(const_cast<char*>(env.c_str()));
    ::execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Sends `sig` to `pid` and waits for it: its exit status, or -1 when it did not exit.
inline int signal_and_wait(pid_t pid, int sig) {
  ::kill(pid, sig);
  int raw = 0;
  ::waitpid(pid, &raw, 0);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

#ifdef GPUTLM_TEST_TMP
// An empty folder `name` under the tests' temporary folder (emptied if it exists).
inline std::string fresh_dir(const std::string& name) {
  const std::string d = std::string(GPUTLM_TEST_TMP) + "/" + name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
#endif

#ifdef GPUTLM_BIN
inline std::string gputlm_bin() { return GPUTLM_BIN; }

#ifdef GPUTLM_TEST_TMP
// A generated trace (`gputlm trace gen KERNEL PARAMS --arch ARCH`) in a fresh folder `name`.
inline std::string generated_trace(const std::string& kernel, const std::string& params,
                                   const std::string& name, const std::string& arch = "35") {
  const std::string dir = fresh_dir(name);
  const auto r = run_command(
      gputlm_bin() + " trace gen " + kernel + params + " --arch " + arch + " --force -o " + dir,
      name);
  if (r.status != 0) throw std::runtime_error("trace gen " + kernel + ": " + r.err);
  return dir;
}
#endif
#endif

// The python3 found on PATH, by absolute path (Debian's /usr/bin/python3 when none is).
inline std::string python3() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');) {
    if (d.empty() || d[0] != '/') continue;
    const std::string p = d + "/python3";
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "/usr/bin/python3";
}

}  // namespace gputlm::testing
