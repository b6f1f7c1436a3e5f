// Output files (see output_files.h).
#include "models/base/output_files.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/base/input_error.h"

namespace gputlm {
namespace fs = std::filesystem;

namespace {

const source_location k_cmdline{"<command line>", 0, 0};

fs::path resolved(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::path(p).lexically_normal() : r;
}

// The registry the signal handler reads: fixed storage, no allocation in the handler.
constexpr std::size_t k_slots = 16;
constexpr std::size_t k_path_max = 4096;
std::array<std::array<char, k_path_max>, k_slots> g_partial{};
std::array<volatile sig_atomic_t, k_slots> g_used{};

// A staging folder (one at a time): its folder descriptor, opened when registered, lets the
// handler list and unlink its files with system calls alone (getdents64, unlinkat: no
// allocation), then remove it.
std::array<char, k_path_max> g_folder{};
volatile sig_atomic_t g_folder_fd = -1;

void remove_partial_folder() {
  const int fd = g_folder_fd;
  if (fd < 0) return;
  alignas(8) static char buf[8192];
  struct entry {  // struct linux_dirent64
    std::uint64_t ino;
    std::int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
  };
  for (int pass = 0; pass < 64; ++pass) {  // (unlinking while listing: list again)
    ::lseek(fd, 0, SEEK_SET);
    bool removed = false;
    for (;;) {
      const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const entry* e = reinterpret_cast<const entry*>(buf + at);
        const char* name = buf + at + offsetof(entry, name);
        if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))))
          removed |= ::unlinkat(fd, name, 0) == 0;
        at += e->reclen;
      }
    }
    if (!removed) break;
  }
  ::rmdir(g_folder.data());
}

extern "C" void on_interrupt(int sig) {
  for (std::size_t i = 0; i < k_slots; ++i)
    if (g_used[i]) ::unlink(g_partial[i].data());
  remove_partial_folder();
  const char* msg = sig == SIGINT ? "error: interrupted (SIGINT): stopped, no output written\n"
                                  : "error: terminated (SIGTERM): stopped, no output written\n";
  ssize_t n = ::write(STDERR_FILENO, msg, std::strlen(msg));
  (void)n;
  ::_exit(128 + sig);
}

}  // namespace

void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::string>& inputs) {
  std::vector<std::pair<fs::path, std::string>> seen;  // resolved path, option
  for (const auto& [option, path] : outputs) {
    std::error_code ec;
    if (path.empty()) throw input_error(k_cmdline, option, "empty file name");
    if (fs::is_directory(path, ec))
      throw input_error(k_cmdline, option, "'" + path + "' is a directory, not a file");
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    if (!fs::is_directory(dir, ec))
      throw input_error(k_cmdline, option, "directory '" + dir.string() + "' does not exist");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      throw input_error(k_cmdline, option, "directory '" + dir.string() + "' is not writable");
    if (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0)
      throw input_error(k_cmdline, option, "'" + path + "' is not writable");
    // A place access() allows may still refuse a file (/proc, /sys, a read-only mount):
    // the file the output is written through is made once now and removed.
    const std::string probe = path + ".partial";
    register_partial(probe);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    const int err = errno;
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
    }
    unregister_partial(probe);
    if (fd < 0 && err != EEXIST)
      throw input_error(k_cmdline, option,
                        "'" + path + "' cannot be written: " + std::strerror(err));
    const fs::path r = resolved(path);
    for (const auto& [other, other_option] : seen)
      if (other == r)
        throw input_error(k_cmdline, option,
                          "'" + path + "' is also the output of " + other_option);
    for (const std::string& in : inputs) {
      const fs::path ri = resolved(in);
      const bool inside = fs::is_directory(ri, ec) && r.parent_path() == ri && fs::exists(r, ec);
      if (r == ri || inside)
        throw input_error(k_cmdline, option, "'" + path + "' is an input (" + in + ")");
    }
    seen.emplace_back(r, option);
  }
}

void check_output_folder(const std::string& option, const std::string& path,
                         const std::vector<std::string>& inputs) {
  std::error_code ec;
  if (path.empty()) throw input_error(k_cmdline, option, "empty folder name");
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    throw input_error(k_cmdline, option, "'" + path + "' exists and is not a folder");
  // The nearest existing ancestor must be a folder this process may write.
  fs::path p = fs::absolute(path, ec).lexically_normal();
  while (!p.empty() && !fs::exists(p, ec) && p != p.root_path()) p = p.parent_path();
  if (!fs::is_directory(p, ec))
    throw input_error(k_cmdline, option,
                      "'" + path + "' cannot be made: '" + p.string() + "' is not a folder");
  if (::access(p.c_str(), W_OK | X_OK) != 0)
    throw input_error(k_cmdline, option, "'" + p.string() + "' is not writable");
  const fs::path r = resolved(path);
  const auto within = [](const fs::path& inner, const fs::path& outer) {
    auto o = outer.begin(), i = inner.begin();
    for (; o != outer.end(); ++o, ++i)
      if (i == inner.end() || *o != *i) return false;
    return true;
  };
  for (const std::string& in : inputs) {
    const fs::path ri = resolved(in);
    if (r == ri || (fs::is_directory(ri, ec) && within(r, ri)))
      throw input_error(k_cmdline, option,
                        "'" + path + "' is or lies inside an input (" + in + ")");
    if (within(ri, r) && fs::exists(r, ec))
      throw input_error(k_cmdline, option, "'" + path + "' holds an input (" + in + ")");
  }
}

void register_partial(const std::string& path) {
  if (path.size() >= k_path_max) return;
  for (std::size_t i = 0; i < k_slots; ++i)
    if (!g_used[i]) {
      std::memcpy(g_partial[i].data(), path.c_str(), path.size() + 1);
      g_used[i] = 1;
      return;
    }
}

void unregister_partial(const std::string& path) {
  for (std::size_t i = 0; i < k_slots; ++i)
    if (g_used[i] && path == g_partial[i].data()) {
      g_used[i] = 0;
      return;
    }
}

void register_partial_folder(const std::string& path) {
  unregister_partial_folder();
  if (path.size() >= k_path_max) return;
  std::memcpy(g_folder.data(), path.c_str(), path.size() + 1);
  g_folder_fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void unregister_partial_folder() {
  const int fd = g_folder_fd;
  g_folder_fd = -1;
  if (fd >= 0) ::close(fd);
}

interrupts_held::interrupts_held() {
  sigset_t hold;
  sigemptyset(&hold);
  sigaddset(&hold, SIGINT);
  sigaddset(&hold, SIGTERM);
  ::sigprocmask(SIG_BLOCK, &hold, &m_old);
}

interrupts_held::~interrupts_held() { ::sigprocmask(SIG_SETMASK, &m_old, nullptr); }

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  write_file_atomically(path, [&](std::ostream& os) { os << content; });
}

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write) {
  const std::string tmp = path + ".partial";
  register_partial(tmp);
  bool ok;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    write(out);
    ok = static_cast<bool>(out.flush());
  }
  std::error_code ec;
  if (ok) std::filesystem::rename(tmp, path, ec);
  if (!ok || ec) {  // (a full disk, a vanished directory): nothing half-written stays
    std::filesystem::remove(tmp, ec);
    unregister_partial(tmp);
    throw input_error({path, 0, 0}, "", "cannot write file");
  }
  unregister_partial(tmp);
}

std::string read_file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace gputlm
