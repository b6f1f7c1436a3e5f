#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/common/edge_scheduler.h"

#include <algorithm>

#include "models/common/clock_domain.h"

namespace gputlm {

// ---------------------------------------------------------------------------------------
// The dispatcher

edge_dispatcher& edge_dispatcher::instance() {
  // Never destroyed: its SystemC event and method live as long as the simulation context.
  static edge_dispatcher* d = new edge_dispatcher();
  return *d;
}

edge_dispatcher::edge_dispatcher() : m_event("gputlm_edges_event") {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&m_event);
  sc_core::sc_spawn([this] { run(); }, "gputlm_edges", &opts);
}

void edge_dispatcher::notify_at(std::uint64_t t) {
  if (t >= m_notified_fs) return;
  const std::uint64_t now = clock_domain::now_fs();
  m_notified_fs = t;
  m_event.notify(sc_core::sc_time::from_value(t > now ? t - now : 0));
}

void edge_dispatcher::notify_next() {
  std::uint64_t t = edge_scheduler::never;
  for (const edge_scheduler* s : m_domains) t = std::min(t, s->next_time());
  if (t != edge_scheduler::never) notify_at(t);
}

void edge_dispatcher::reschedule() {
  m_event.cancel();
  m_notified_fs = ~std::uint64_t(0);
  if (!m_running) notify_next();
}

void edge_dispatcher::run() {
  m_notified_fs = ~std::uint64_t(0);
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  if (s_progress != m_progress_seen) {  // the last instant's blocks got somewhere
    m_progress_seen = s_progress;
    m_quiet = 0;
  } else if (++m_quiet > m_watchdog && m_watchdog != 0) {
    stop_livelocked(now);
    return;
  }
  {
    struct running_guard {  // also undone when a block throws (a bad trace found while running)
      bool& running;
      running_guard(bool& r, std::uint64_t t) : running(r) {
        running = true;
        clock_domain::s_dispatch_fs = t;
      }
      ~running_guard() {
        running = false;
        clock_domain::s_dispatch_fs = ~std::uint64_t(0);
      }
    } guard{m_running, now};
    for (bool again = true; again;) {  // a block may wake another domain's block for now
      again = false;
      for (std::size_t i = 0; i < m_domains.size(); ++i) {
        edge_scheduler* s = m_domains[i];
        if (s->next_time() > now) continue;
        s->run_due();
        again = true;
      }
    }
  }
  notify_next();
}

void edge_dispatcher::stop_livelocked(std::uint64_t now) {
  m_livelock.stopped = true;
  m_livelock.at_fs = now;
  std::vector<const sc_core::sc_object*> owners;
  for (const edge_scheduler* s : m_domains) s->waiting_owners(owners);
  for (const sc_core::sc_object* o : owners) {
    std::string n = o ? o->name() : "(unnamed block)";
    if (std::find(m_livelock.waking.begin(), m_livelock.waking.end(), n) ==
        m_livelock.waking.end())
      m_livelock.waking.push_back(std::move(n));
  }
  sc_core::sc_stop();
}

// ---------------------------------------------------------------------------------------
// One domain's calendar

edge_scheduler::edge_scheduler(clock_domain& clk)
    : m_clk(clk), m_dispatcher(edge_dispatcher::instance()), m_buckets(k_wheel) {
  m_dispatcher.m_domains.push_back(this);
}

edge_scheduler::~edge_scheduler() {
  auto& d = edge_dispatcher::instance().m_domains;
  d.erase(std::remove(d.begin(), d.end(), this), d.end());
}

void edge_scheduler::advance(std::uint64_t cycle) {
  if (cycle <= m_base) return;
  m_base = cycle;
  m_first_valid = false;
  while (!m_far.empty() && m_far.front().cycle < m_base + k_wheel) {
    const far_request f = m_far.front();
    std::pop_heap(m_far.begin(), m_far.end(), later{});
    m_far.pop_back();
    if (f.seq == f.c->live) put(f.cycle, *f.c);  // else superseded
  }
}

std::uint64_t edge_scheduler::scan_busy() const {
  // Buckets of the window in cycle order, starting at the window's first.
  const std::uint64_t k = m_busy.first_from(m_base % k_wheel);
  if (k < k_wheel) return m_base + k;
  return m_far.empty() ? never : m_far.front().cycle;
}

void edge_scheduler::waiting_owners(std::vector<const sc_core::sc_object*>& out) const {
  for (std::uint64_t k = 0; k < k_wheel; ++k)
    for (const client* c = m_buckets[(m_base + k) % k_wheel].head; c; c = c->next)
      out.push_back(c->owner);
  std::vector<far_request> far = m_far;
  std::sort(far.begin(), far.end(), [](const far_request& a, const far_request& b) {
    return later{}(b, a);
  });
  for (const far_request& f : far)
    if (f.seq == f.c->live) out.push_back(f.c->owner);
}

std::uint64_t edge_scheduler::next_time() const {
  const std::uint64_t c = next_busy();
  return c == never ? never : m_clk.edge_fs(c);
}

void edge_scheduler::schedule_other(client& c, std::uint64_t cycle, std::uint64_t now) {
  // A cycle whose edge has passed means the next edge (the current one when now is an edge).
  if (cycle <= now) {
    const std::uint64_t stamp = clock_domain::now_fs();
    if (m_clk.edge_fs(cycle) < stamp) cycle = m_clk.next_cycle_at_fs(stamp);
  }
  edge_dispatcher& d = m_dispatcher;
  // Every request before the current edge has run, so the window may start there.
  if (!d.running()) advance(now);
  if (c.bucket != ~0u) unlink(c);  // an earlier request replaces it
  c.live = ++m_seq;
  put(cycle, c);
  // While the dispatcher runs, requests for now are met in the same pass and later ones
  // are notified when it ends.
  if (!d.running()) d.notify_at(m_clk.edge_fs(cycle));
}

void edge_scheduler::period_changed() { m_dispatcher.reschedule(); }

void edge_scheduler::run_due() {
  const std::uint64_t now = m_clk.now_cycle();
  for (std::uint64_t cycle = next_busy(); cycle <= now; cycle = next_busy()) {
    advance(cycle);
    bucket& q = m_buckets[cycle % k_wheel];
    while (client* c = q.head) {  // blocks woken for this edge meanwhile join at the tail
      unlink(*c);
      c->live = 0;
      c->call(c->self);
    }
  }
}

}  // namespace gputlm
