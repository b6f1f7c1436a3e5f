// The activation calendar of the clock domains. Event-driven blocks ask to run at a cycle
// of their domain (wakeup::at); each domain's edge_scheduler keeps those requests ordered
// by cycle, then by the order they were made. One SystemC method for the whole platform
// (edge_dispatcher) runs at each time some domain has an edge with work: it runs the
// domains due then in the order they were made, each one every block due at its edge,
// again and again until none is due (blocks woken for the current edge meanwhile included).
// SystemC sees one timed notification per busy instant instead of one per block wake-up,
// and the order of blocks within an instant depends only on the requests, not on the
// SystemC kernel's history. Cycles, not times, are stored, so a change of period (DVFS)
// moves the pending activations with the clock. An earlier request replaces a later one.
// The calendar is a wheel of one bucket per cycle for the next k_wheel cycles (a list
// through the clients, appended and taken in order; a bitmap finds the next busy cycle)
// with a heap for requests further out.
// The dispatcher also keeps the livelock watchdog: blocks report forward progress
// (edge_dispatcher::progress()); when it runs `limit` busy instants in a row without any,
// blocks are waking without getting anywhere, and it stops the simulation (sc_stop) and
// notes the time and which blocks still ask to run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/ring_bitmap.h"

namespace gputlm {

class clock_domain;
class edge_dispatcher;

class edge_scheduler {
 public:
  // What is called: a block's activation function and its object.
  struct client {
    void (*call)(void*) = nullptr;
    void* self = nullptr;
    const sc_core::sc_object* owner = nullptr;  // the block, for reports (null: unnamed)
    std::uint64_t live = 0;  // sequence number of the request that stands, 0: none
    // In a bucket's list (bucket < k_wheel) or not (far away or not waiting).
    client* prev = nullptr;
    client* next = nullptr;
    std::uint32_t bucket = ~0u;
  };

  explicit edge_scheduler(clock_domain& clk);
  ~edge_scheduler();
  edge_scheduler(const edge_scheduler&) = delete;
  edge_scheduler& operator=(const edge_scheduler&) = delete;

  // Runs `c` at the edge of `cycle` (the next edge when that edge has passed), replacing
  // its earlier request. `now` is the domain's current cycle and `on_edge` whether now is
  // its edge (the caller has both). Inline: a request made while the dispatcher runs (by a
  // block) needs only the calendar's list work.
  inline void schedule(client& c, std::uint64_t cycle, std::uint64_t now, bool on_edge);
  // The domain's period changed: pending activations move to the new edges.
  void period_changed();

 private:
  friend class edge_dispatcher;
  static constexpr std::uint64_t k_wheel = 512;  // cycles ahead held in buckets
  static constexpr std::uint64_t never = ~std::uint64_t(0);
  struct bucket {
    client* head = nullptr;
    client* tail = nullptr;
  };
  struct far_request {
    std::uint64_t cycle;
    std::uint64_t seq;
    client* c;
  };
  struct later {
    bool operator()(const far_request& a, const far_request& b) const {
      return a.cycle != b.cycle ? a.cycle > b.cycle : a.seq > b.seq;
    }
  };
  // The time (fs) of the earliest edge with a request, or never.
  std::uint64_t next_time() const;
  // Runs the blocks due at the edges up to now (the dispatcher calls it).
  void run_due();
  // Moves the window to start at `cycle` (every bucket before it is empty) and brings the
  // far requests that now fall inside it into their buckets.
  void advance(std::uint64_t cycle);
  [[gnu::always_inline]] inline void put(std::uint64_t cycle, client& c);
  [[gnu::always_inline]] inline void unlink(client& c);
  void schedule_other(client& c, std::uint64_t cycle, std::uint64_t now);  // the rest
  // The earliest cycle of the window with a request, else the earliest far request (which
  // may have been superseded), or never; kept until a bucket empties or the window moves.
  std::uint64_t next_busy() const {
    if (!m_first_valid) {
      m_first = scan_busy();
      m_first_valid = true;
    }
    return m_first;
  }
  std::uint64_t scan_busy() const;
  // The owners of the clients with a request standing, in calendar order.
  void waiting_owners(std::vector<const sc_core::sc_object*>& out) const;

  clock_domain& m_clk;
  edge_dispatcher& m_dispatcher;
  std::uint64_t m_seq = 0;
  std::uint64_t m_base = 0;                 // first cycle of the wheel's window
  std::vector<bucket> m_buckets;            // k_wheel, by cycle mod k_wheel
  ring_bitmap<k_wheel> m_busy;              // buckets with requests
  std::vector<far_request> m_far;           // min-heap by (cycle, seq)
  mutable std::uint64_t m_first = never;    // next_busy()'s answer ...
  mutable bool m_first_valid = true;        // ... while this holds
};

// The one SystemC method that runs the domains' calendars (see above); made on first use.
class edge_dispatcher {
 public:
  static edge_dispatcher& instance();
  bool running() const { return m_running; }
  // A domain has a request at time t (fs).
  void notify_at(std::uint64_t t);
  // Recomputes the next notification (a domain's period changed).
  void reschedule();

  // Forward progress: a warp instruction issued, a memory response reached a core, a
  // thread block or a kernel began or ended. Called by the blocks that do these.
  static void progress() { ++s_progress; }
  // The watchdog's limit in busy instants without progress; 0 turns it off.
  void set_watchdog(std::uint64_t instants) { m_watchdog = instants; }
  // Whether the watchdog stopped the simulation, when (fs), and the blocks that still
  // asked to run then (the ones waking without progress among them).
  struct livelock {
    bool stopped = false;
    std::uint64_t at_fs = 0;
    std::vector<std::string> waking;
  };
  const livelock& livelock_report() const { return m_livelock; }

 private:
  friend class edge_scheduler;
  edge_dispatcher();
  void run();
  void notify_next();

  std::vector<edge_scheduler*> m_domains;  // in the order they were made
  bool m_running = false;
  std::uint64_t m_notified_fs = ~std::uint64_t(0);  // time of the pending notification
  sc_core::sc_event m_event;
  static inline std::uint64_t s_progress = 0;
  std::uint64_t m_progress_seen = 0;  // s_progress when the last instant ran
  std::uint64_t m_quiet = 0;          // busy instants in a row without progress
  std::uint64_t m_watchdog = 0;
  livelock m_livelock;
  void stop_livelocked(std::uint64_t now);
};

// ---- inline calendar operations --------------------------------------------------------

void edge_scheduler::put(std::uint64_t cycle, client& c) {
  if (m_first_valid && cycle < m_first) m_first = cycle;  // (a far cycle only if none nearer)
  if (cycle >= m_base + k_wheel) {
    m_far.push_back({cycle, c.live, &c});
    std::push_heap(m_far.begin(), m_far.end(), later{});
    return;
  }
  const std::uint32_t b = static_cast<std::uint32_t>(cycle % k_wheel);
  bucket& q = m_buckets[b];
  c.bucket = b;
  c.next = nullptr;
  c.prev = q.tail;
  if (q.tail)
    q.tail->next = &c;
  else
    q.head = &c;
  q.tail = &c;
  m_busy.set(b);
}

void edge_scheduler::unlink(client& c) {
  bucket& q = m_buckets[c.bucket];
  (c.prev ? c.prev->next : q.head) = c.next;
  (c.next ? c.next->prev : q.tail) = c.prev;
  if (!q.head) {
    m_busy.clear(c.bucket);
    m_first_valid = false;
  }
  c.prev = c.next = nullptr;
  c.bucket = ~0u;
}

void edge_scheduler::schedule(client& c, std::uint64_t cycle, std::uint64_t now, bool on_edge) {
  if (m_dispatcher.running()) {
    // A cycle whose edge has passed means the next edge: now's when now is an edge, else
    // the one after.
    if (cycle <= now) cycle = on_edge ? now : now + 1;
    if (c.bucket != ~0u) unlink(c);  // an earlier request replaces it
    c.live = ++m_seq;
    put(cycle, c);
    return;
  }
  schedule_other(c, cycle, now);
}

}  // namespace gputlm
