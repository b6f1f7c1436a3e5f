#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/common/edge_scheduler.h"

#include <algorithm>

#include "models/common/clock_domain.h"

namespace gputlm {

edge_scheduler::edge_scheduler(clock_domain& clk, const std::string& name)
    : m_clk(clk), m_buckets(k_wheel), m_event((name + "_event").c_str()) {
  for (auto& b : m_buckets) b.reserve(8);
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&m_event);
  sc_core::sc_spawn([this] { run(); }, name.c_str(), &opts);
}

void edge_scheduler::notify_for(std::uint64_t cycle) {
  const std::uint64_t t = m_clk.edge_time(cycle).value();
  if (t >= m_notified_fs) return;
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  m_notified_fs = t;
  m_event.notify(sc_core::sc_time::from_value(t > now ? t - now : 0));
}

void edge_scheduler::put(std::uint64_t cycle, const request& r) {
  if (cycle >= m_base + k_wheel) {
    m_far.push_back({cycle, r.seq, r.c});
    std::push_heap(m_far.begin(), m_far.end(), later{});
    return;
  }
  const std::uint64_t b = cycle % k_wheel;
  m_buckets[b].push_back(r);
  m_busy[b / 64] |= std::uint64_t(1) << (b % 64);
}

void edge_scheduler::advance(std::uint64_t cycle) {
  if (cycle <= m_base) return;
  m_base = cycle;
  while (!m_far.empty() && m_far.front().cycle < m_base + k_wheel) {
    const far_request f = m_far.front();
    std::pop_heap(m_far.begin(), m_far.end(), later{});
    m_far.pop_back();
    put(f.cycle, {f.c, f.seq});
  }
}

std::uint64_t edge_scheduler::next_busy(std::uint64_t from) const {
  // Buckets of the window in cycle order, starting at `from`'s.
  const std::uint64_t start = from % k_wheel;
  const std::uint64_t end = m_base + k_wheel;  // first cycle past the window
  for (std::uint64_t k = 0; k < k_wheel && from + k < end;) {
    const std::uint64_t b = (start + k) % k_wheel;
    const std::uint64_t bits = m_busy[b / 64] >> (b % 64);
    if (bits) {
      const std::uint64_t cycle = from + k + static_cast<std::uint64_t>(__builtin_ctzll(bits));
      return cycle < end ? cycle : (m_far.empty() ? ~std::uint64_t(0) : m_far.front().cycle);
    }
    k += 64 - b % 64;
  }
  return m_far.empty() ? ~std::uint64_t(0) : m_far.front().cycle;
}

void edge_scheduler::schedule(client& c, std::uint64_t cycle) {
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  if (m_clk.edge_time(cycle) < stamp) cycle = m_clk.next_cycle_at(stamp);
  // Every request before the current edge has run, so the window may start there.
  if (!m_running) advance(m_clk.cycle_at(stamp));
  c.live = ++m_seq;
  put(cycle, {&c, c.live});
  // While the domain runs, requests for the edge being run are met in the same pass and
  // later ones are notified when it ends.
  if (!m_running) notify_for(cycle);
}

void edge_scheduler::period_changed() {
  m_event.cancel();
  m_notified_fs = ~std::uint64_t(0);
  if (m_running) return;
  const std::uint64_t next = next_busy(m_base);
  if (next != ~std::uint64_t(0)) notify_for(next);
}

void edge_scheduler::run() {
  m_notified_fs = ~std::uint64_t(0);
  const std::uint64_t now = m_clk.now_cycle();
  advance(now);
  m_running = true;
  const std::uint64_t b = now % k_wheel;
  std::vector<request>& bucket = m_buckets[b];
  for (std::size_t i = 0; i < bucket.size(); ++i) {  // grows while it runs
    const request r = bucket[i];
    if (r.seq != r.c->live) continue;  // superseded
    r.c->live = 0;
    r.c->call(r.c->self);
  }
  bucket.clear();
  m_busy[b / 64] &= ~(std::uint64_t(1) << (b % 64));
  m_running = false;
  const std::uint64_t next = next_busy(now + 1);
  if (next != ~std::uint64_t(0)) notify_for(next);
}

}  // namespace gputlm
