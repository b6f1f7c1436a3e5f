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
  // (From the kernel's time, which lags the last instant run after a run ahead.)
  const std::uint64_t kernel = sc_core::sc_time_stamp().value();
  m_notified_fs = t;
  m_event.notify(sc_core::sc_time::from_value(t > kernel ? t - kernel : 0));
}

std::uint64_t edge_dispatcher::next_instant() {
  std::uint64_t t = edge_scheduler::never;
  for (std::size_t i = 0; i < m_domains.size(); ++i) {
    m_next_fs[i] = m_domains[i]->next_time();
    t = std::min(t, m_next_fs[i]);
  }
  return t;
}

void edge_dispatcher::notify_next() {
  const std::uint64_t t = next_instant();
  if (t != edge_scheduler::never) notify_at(t);
}

bool edge_dispatcher::kernel_quiet_through(std::uint64_t t) {
  sc_core::sc_simcontext* k = sc_core::sc_get_curr_simcontext();
  if (k->sim_status() != sc_core::SC_SIM_OK) return false;  // sc_stop() was called
  if (!m_kernel_next_known || clock_domain::s_kernel_notified) {
    // Asked again after a block notified a SystemC event (its time is absolute: see
    // clock_domain::kernel_delay_to). Zero with a process runnable at the kernel's time;
    // with nothing pending, up to the kernel's maximum time.
    clock_domain::s_kernel_notified = false;
    const std::uint64_t until = sc_core::sc_time_to_pending_activity(k).value();
    if (until == 0) return false;
    m_kernel_next_fs = sc_core::sc_time_stamp().value() + until;
    m_kernel_next_known = true;
  } else if (sc_core::sc_pending_activity_at_current_time(k)) {
    return false;  // (a delta notification made otherwise)
  }
  return m_kernel_next_fs > t;
}

void edge_dispatcher::reschedule() {
  m_event.cancel();
  m_notified_fs = ~std::uint64_t(0);
  if (!m_running) notify_next();
}

void edge_dispatcher::run() {
  m_notified_fs = ~std::uint64_t(0);
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  // SystemC processes due at this time too (a TB launch, a control register, a test's
  // target) deliver first: wait a delta cycle while any is pending.
  if (now != m_deferred_fs) {
    m_deferred_fs = now;
    m_deltas = 0;
  }
  if (m_deltas < k_max_deltas && sc_core::sc_pending_activity_at_current_time()) {
    ++m_deltas;
    m_notified_fs = now;
    m_event.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  ++m_kernel_activations;
  m_kernel_next_known = false;
  std::uint64_t next = next_instant();  // (also each domain's, for the first instant)
  {
    struct running_guard {  // also undone when a block throws (a bad trace found while running)
      bool& running;
      explicit running_guard(bool& r) : running(r) { running = true; }
      ~running_guard() {
        running = false;
        clock_domain::s_dispatch_fs = ~std::uint64_t(0);
      }
    } guard{m_running};
    for (std::uint64_t t = now;; t = next) {
      clock_domain::s_horizon_fs = t;       // (also the end when the watchdog stops here)
      if (s_progress != m_progress_seen) {  // the last instant's blocks got somewhere
        m_progress_seen = s_progress;
        m_quiet = 0;
      } else if (++m_quiet > m_watchdog && m_watchdog != 0) {
        stop_livelocked(t);
        return;
      }
      clock_domain::s_dispatch_fs = t;
      if (s_tick.load(std::memory_order_relaxed)) tick();
      run_instant(t);
      ++m_instants;
      next = next_instant();
      // Ahead of the kernel's time to the next instant, while no SystemC process is due
      // until then (nor at it: those run first) and the simulation was not stopped.
      if (!m_run_ahead || next == edge_scheduler::never || !kernel_quiet_through(next)) break;
    }
  }
  if (next != edge_scheduler::never) notify_at(next);
}

void edge_dispatcher::tick() {
  s_tick.store(false, std::memory_order_relaxed);
  if (m_tick) m_tick();
}

void edge_dispatcher::run_instant(std::uint64_t now) {
  // Passes: the deliver stage of every domain until none is due, then the issue stage;
  // again while a block was woken for now (another domain's included). Only the domains
  // marked due are visited: at the start those with a request by their current cycle
  // (next_instant() found each domain's earliest), later those a block woke for now.
  for (std::uint32_t i = 0; i < m_domains.size(); ++i)
    if (m_next_fs[i] <= now) m_domains[i]->begin_instant(i, now);
  for (;;) {
    if (any_due(edge_stage::deliver))
      run_stage(edge_stage::deliver);
    else if (any_due(edge_stage::issue))
      run_stage(edge_stage::issue);
    else
      break;
  }
}

void edge_dispatcher::run_stage(edge_stage stage) {
  std::vector<std::uint64_t>& due = m_due[std::size_t(stage)];
  // One pass in the domains' order: a domain marked meanwhile before the last one run (or
  // that one again) waits for the next pass, as a full pass over every domain would find
  // it.
  for (std::size_t w = 0; w < due.size(); ++w) {
    std::uint64_t done = 0;  // this word's places at or before the last one run
    for (std::uint64_t bits; (bits = due[w] & ~done) != 0;) {
      const std::uint64_t bit = bits & (0 - bits);
      due[w] &= ~bit;
      done = (bit << 1) - 1;
      m_domains[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bit))]->run_due_now(stage);
    }
  }
}

void edge_dispatcher::renumber() {
  for (std::uint32_t i = 0; i < m_domains.size(); ++i) m_domains[i]->m_index = i;
  m_next_fs.assign(m_domains.size(), edge_scheduler::never);
  const std::size_t words = (m_domains.size() + 63) / 64;
  for (auto& due : m_due) due.assign(words, 0);
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
    : m_clk(clk),
      m_dispatcher(edge_dispatcher::instance()),
      m_bits(k_wheel * m_words, 0),
      m_count(k_wheel * k_edge_stages, 0) {
  m_dispatcher.m_domains.push_back(this);
  m_dispatcher.renumber();
}

edge_scheduler::~edge_scheduler() {
  edge_dispatcher& d = edge_dispatcher::instance();
  d.m_domains.erase(std::remove(d.m_domains.begin(), d.m_domains.end(), this), d.m_domains.end());
  d.renumber();
}

void edge_scheduler::add(client& c) {
  c.bound = static_cast<std::uint32_t>(m_clients.size());
  c.bucket = none;
  m_clients.push_back(&c);
  relayout();
}

void edge_scheduler::remove(client& c) {
  if (c.bucket != none) unlink(c);
  c.live = 0;
  m_far.erase(
      std::remove_if(m_far.begin(), m_far.end(), [&](const far_request& f) { return f.c == &c; }),
      m_far.end());
  std::make_heap(m_far.begin(), m_far.end(), later{});
  m_first_valid = false;
  m_clients.erase(std::remove(m_clients.begin(), m_clients.end(), &c), m_clients.end());
  relayout();
}

void edge_scheduler::relayout() {
  std::stable_sort(m_clients.begin(), m_clients.end(), [](const client* a, const client* b) {
    return a->stage != b->stage ? a->stage < b->stage : a->bound < b->bound;
  });
  std::uint32_t n = 0;
  for (std::size_t s = 0; s <= k_edge_stages; ++s) m_stage_begin[s] = 0;
  for (client* c : m_clients) {
    c->word = n / 64;
    c->bit = std::uint64_t(1) << (n % 64);
    ++n;
    for (std::size_t s = std::size_t(c->stage) + 1; s <= k_edge_stages; ++s) m_stage_begin[s] = n;
  }
  m_words = std::max<std::uint32_t>(1, (n + 63) / 64);
  m_stage_mask.assign(k_edge_stages * m_words, 0);
  for (const client* c : m_clients)
    m_stage_mask[std::size_t(c->stage) * m_words + c->word] |= c->bit;
  m_bits.assign(k_wheel * m_words, 0);
  for (const client* c : m_clients)
    if (c->bucket != none) m_bits[std::size_t(c->bucket) * m_words + c->word] |= c->bit;
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
  const auto n = static_cast<std::uint32_t>(m_clients.size());
  for (std::uint64_t k = 0; k < k_wheel; ++k) {
    const std::uint32_t b = static_cast<std::uint32_t>((m_base + k) % k_wheel);
    if (!m_busy.test(b)) continue;
    for (std::uint32_t i = first_in(b, 0, n); i != none; i = first_in(b, i + 1, n))
      out.push_back(m_clients[i]->owner);
  }
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
  if (c.bucket != none) unlink(c);  // an earlier request replaces it
  c.live = ++m_seq;
  put(cycle, c);
  // While the dispatcher runs, requests for now are met in the same pass and later ones
  // are notified when it ends.
  if (!d.running()) d.notify_at(m_clk.edge_fs(cycle));
}

void edge_scheduler::put_far(std::uint64_t cycle, client& c) {
  m_far.push_back({cycle, c.live, &c});
  std::push_heap(m_far.begin(), m_far.end(), later{});
}

void edge_scheduler::due_now(const client& c) {
  if (m_dispatcher.running()) m_dispatcher.mark_due(m_index, c.stage);
}

void edge_scheduler::period_changed() { m_dispatcher.reschedule(); }

void edge_scheduler::begin_instant(std::uint32_t index, std::uint64_t now_fs) {
  const std::uint64_t first = next_busy();
  if (first == never || m_clk.edge_fs(first) > now_fs) return;
  if (first >= m_base && first < m_base + k_wheel && m_clk.edge_fs(first) == now_fs) {
    // The usual case: the stages with blocks in the current edge's bucket.
    const std::uint32_t* count = &m_count[std::size_t(first % k_wheel) * k_edge_stages];
    for (std::size_t st = 0; st < k_edge_stages; ++st)
      if (count[st] != 0) m_dispatcher.mark_due(index, edge_stage(st));
    return;
  }
  for (std::size_t st = 0; st < k_edge_stages; ++st) m_dispatcher.mark_due(index, edge_stage(st));
}

bool edge_scheduler::run_due_now(edge_stage stage) {
  const std::uint64_t now = m_clk.now_cycle();
  const std::uint64_t first = next_busy();
  if (first > now) return false;
  advance(first);  // every bucket before it is empty; far requests due come in
  const std::size_t st = std::size_t(stage);
  const std::uint32_t begin = m_stage_begin[st];
  const std::uint32_t end = m_stage_begin[st + 1];
  bool ran = false;
  for (std::uint64_t cycle = m_base;; ++cycle) {  // the buckets up to now, in cycle order
    const std::uint64_t k = m_busy.first_from(cycle % k_wheel);
    if (k == k_wheel || (cycle += k) > now) return ran;
    const auto b = static_cast<std::uint32_t>(cycle % k_wheel);
    std::uint32_t* const count = &m_count[std::size_t(b) * k_edge_stages];
    std::uint64_t* const words = &m_bits[std::size_t(b) * m_words];
    const std::uint64_t* const masks = &m_stage_mask[st * m_words];
    client* const* const clients = m_clients.data();  // (no block binds while running)
    // Passes in the domain's order, word by word; a block woken for this edge behind the
    // last one run (or itself) waits for the next pass.
    while (count[st] != 0) {
      ran = true;
      for (std::uint32_t w = begin / 64; w * 64 < end; ++w) {
        std::uint64_t range = masks[w];
        for (std::uint64_t bits; (bits = words[w] & range) != 0;) {
          const std::uint64_t bit = bits & (0 - bits);
          range &= ~((bit << 1) - 1);  // this one and those before it: done in this pass
          words[w] &= ~bit;
          --count[st];
          client* c = clients[w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bit))];
          // Host-cache warm-up only: the next block due in this word, while this one runs.
          if (const std::uint64_t rest = bits & (bits - 1); rest != 0)
            __builtin_prefetch(clients[w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(rest))]);
          c->bucket = none;
          c->live = 0;
          c->call(c->self);
          if (count[st] == 0) goto stage_done;  // none left: the later words are empty
        }
      }
    }
  stage_done:
    if (empty_bucket(count)) {
      m_busy.clear(b);
      m_first_valid = false;
    }
    if (cycle == now) return ran;  // (no block asks for a cycle before now)
  }
}

}  // namespace gputlm
