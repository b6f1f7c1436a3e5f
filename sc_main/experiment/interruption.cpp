// Signal forwarding for the experiment runner (interruption.h).
#include "sc_main/experiment/interruption.h"

#include <signal.h>

#include <array>
#include <csignal>

namespace gputlm::experiment {
namespace {

constexpr std::size_t k_slots = 1024;                  // the runner's -j bound
std::array<volatile sig_atomic_t, k_slots> g_child{};  // pids, 0 = free
volatile sig_atomic_t g_signal = 0;

extern "C" void forward(int sig) {
  if (!g_signal) g_signal = sig;
  for (std::size_t i = 0; i < k_slots; ++i)
    if (const pid_t pid = g_child[i]) ::kill(pid, sig);
}

}  // namespace

void install_forwarding_handlers() {
  struct sigaction sa {};
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a wait returns EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int pending_signal() { return g_signal; }

void interruption_point() {
  if (g_signal) throw interrupted{g_signal};
}

void track_child(pid_t pid) {
  for (std::size_t i = 0; i < k_slots; ++i)
    if (!g_child[i]) {
      g_child[i] = pid;
      break;
    }
  // A signal that arrived between the caller's last check and the registration.
  if (const int sig = g_signal) ::kill(pid, sig);
}

void untrack_child(pid_t pid) {
  for (std::size_t i = 0; i < k_slots; ++i)
    if (g_child[i] == pid) {
      g_child[i] = 0;
      return;
    }
}

}  // namespace gputlm::experiment
