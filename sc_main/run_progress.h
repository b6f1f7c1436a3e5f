// The progress line of `gputlm run` on a terminal: simulated cycles, warp instructions done
// out of the trace's (estimated) total, KIPS, elapsed and remaining time, rewritten on
// stderr twice a second once a run has lasted two seconds; nothing when stderr is not a
// terminal. A timer thread asks the edge dispatcher for a tick; the line is made in the
// simulation's thread, between two instants, from the blocks' own counters.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "models/common/stats.h"
#include "models/control/workload.h"
#include "platforms/platform.h"

namespace gputlm::cli {

class run_progress {
 public:
  // Starts when stderr is a terminal; `always` (--progress) shows it from the start
  // whatever stderr is, and on a stderr that is not a terminal, a line per report and a
  // last one when the simulation ends.
  run_progress(platforms::platform& p, control::workload& w, bool always = false);
  ~run_progress();
  run_progress(const run_progress&) = delete;
  run_progress& operator=(const run_progress&) = delete;
  // Clears the line (before the run's own output).
  void stop();

 private:
  void show();

  using clock = std::chrono::steady_clock;
  platforms::platform& m_platform;
  control::workload& m_work;
  std::vector<const counter*> m_warp_instructions;  // each SMX's
  std::vector<const counter*> m_tbs_completed;      // the SMX scheduler's
  clock::time_point m_start;
  bool m_always = false;
  bool m_shown = false;
  std::thread m_timer;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
};

}  // namespace gputlm::cli
