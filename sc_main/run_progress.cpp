#include "sc_main/run_progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <exception>

#include "models/common/clock_domain.h"
#include "models/common/edge_scheduler.h"

namespace gputlm::cli {
namespace {

constexpr auto k_quiet_for = std::chrono::seconds(2);  // short runs show nothing
constexpr auto k_every = std::chrono::milliseconds(500);

std::string human(double v) {
  if (v >= 1e9) return fmt::format("{:.2f} G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f} M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.1f} k", v / 1e3);
  return fmt::format("{:.0f}", v);
}

std::string seconds(double s) {
  if (s < 10) return fmt::format("{:.1f} s", s);
  if (s < 120) return fmt::format("{:.0f} s", s);
  return fmt::format("{:.0f} min", s / 60);
}

}  // namespace

run_progress::run_progress(platforms::platform& p, control::workload& w, bool always)
    : m_platform(p), m_work(w), m_start(clock::now()), m_always(always) {
  if (!always && ::isatty(2) == 0) return;
  for (const auto& [block, stats] : p.stats().blocks()) {
    auto it = stats.find("warp_instructions");
    if (it != stats.end() && it->second.count) m_warp_instructions.push_back(it->second.count);
    // The SMX scheduler's (the SMXs count their own too): the block that dispatches.
    auto done = stats.find("tbs_completed");
    if (done != stats.end() && done->second.count && stats.count("tbs_dispatched"))
      m_tbs_completed.push_back(done->second.count);
  }
  edge_dispatcher::instance().set_tick([this] { show(); });
  m_timer = std::thread([this] {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_wake.wait_for(lock, k_every, [this] { return m_stop; }))
      edge_dispatcher::request_tick();
  });
}

run_progress::~run_progress() { stop(); }

void run_progress::stop() {
  if (m_timer.joinable()) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_timer.join();
    edge_dispatcher::instance().set_tick({});
    // A log ends with the run's last figures (not when the run stops with an error).
    if (m_always && !::isatty(2) && std::uncaught_exceptions() == 0) show();
  }
  if (m_shown && ::isatty(2)) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    m_shown = false;
  }
}

void run_progress::show() {
  const double elapsed = std::chrono::duration<double>(clock::now() - m_start).count();
  if (!m_always && clock::now() - m_start < k_quiet_for) return;
  std::uint64_t done = 0;
  for (const counter* c : m_warp_instructions) done += c->value();
  // The trace's total is not known before it is read: estimate it from the thread blocks
  // completed (not dispatched: a kernel that fits the GPU in one wave has every TB
  // dispatched at its start) out of the kernels' grids.
  std::uint64_t tbs = 0, tbs_done = 0;
  for (auto& k : m_work.kernels()) {
    if (!k.reader) continue;
    const auto& g = k.reader->info().grid;
    tbs += std::uint64_t(g.x) * g.y * g.z;
  }
  for (const counter* c : m_tbs_completed) tbs_done += c->value();
  const std::uint64_t cycle = m_platform.top().clock().cycle_at_fs(clock_domain::now_fs());
  std::string line = fmt::format("\r\033[Kcycle {} · {} warp instructions", human(double(cycle)),
                                 human(double(done)));
  const double f = tbs ? double(tbs_done) / double(tbs) : 0;
  if (f > 0) line += fmt::format(" of ~{} ({:.0f} %)", human(double(done) / f), 100 * f);
  line +=
      fmt::format(" · {:.0f} KIPS · {} elapsed", double(done) / elapsed / 1e3, seconds(elapsed));
  if (f > 0 && f < 1) line += ", ~" + seconds(elapsed * (1 - f) / f) + " left";
  if (!m_always || ::isatty(2)) {
    std::fputs(line.c_str(), stderr);
  } else {  // (a log file: one line per report)
    std::fputs((line.substr(4) + "\n").c_str(), stderr);
  }
  std::fflush(stderr);
  m_shown = true;
}

}  // namespace gputlm::cli
