// SIGINT and SIGTERM while an experiment runs: the runner's children (elaborations, trace
// generators, the points, the plot script) get the signal as soon as it arrives, the runner
// waits for them, removes its scratch and partial outputs, and ends with 128 + the signal.
// Points that finished before keep their statistics (a rerun reuses them).
#pragma once

#include <sys/types.h>

namespace gputlm::experiment {

// Thrown by the process pool (and interruption_point()) once a signal has arrived and every
// child has ended.
struct interrupted {
  int signal;
};

// Replaces the default handlers (which exit at once) for the rest of the process.
void install_forwarding_handlers();
// The signal received, or 0.
int pending_signal();
// Throws interrupted when a signal has arrived.
void interruption_point();
// A child started (it gets a signal that arrives while it runs, or arrived just before)
// and one that has ended. At most 1024 tracked at once.
void track_child(pid_t pid);
void untrack_child(pid_t pid);

}  // namespace gputlm::experiment
