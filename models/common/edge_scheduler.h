// The activation calendar of the clock domains. Event-driven blocks ask to run at a cycle
// of their domain (wakeup::at); each domain's edge_scheduler keeps those requests by
// cycle. One SystemC method for the whole platform (edge_dispatcher) runs at each time
// some domain has an edge with work. The blocks due at one instant run in a fixed order
// that depends only on the platform, never on when or in which order they asked:
//  - first every block of the deliver stage (memory side, network), then every block of
//    the issue stage (the SMXs): a response, a grant or a fill that reaches a core at an
//    edge is there when the core evaluates that cycle, as GPGPU-Sim's cycle loop moves
//    the memory side and the interconnect before the cores issue;
//  - within a stage, domain by domain in the order the domains were made, and within a
//    domain in the order the blocks were bound (elaboration order);
//  - a block woken for the current instant after its turn (by a block after it, or by
//    itself) runs in another pass; passes repeat, deliver stage first, until none is due.
// The dispatcher visits only the domains with a stage due: those with a request whose edge
// has come when the instant begins, and those a block wakes for the current edge.
// So an extra or a missing wake-up of a block that has nothing to do changes nothing, and
// results do not depend on the order of requests. The dispatcher also lets the SystemC
// processes due at the same time (TB launches, control registers, test targets) run
// first: it waits a delta cycle while they are pending.
// SystemC sees one timed notification per busy instant instead of one per block wake-up;
// with run-ahead on (gputlm run turns it on), not even that: after an instant, while no
// SystemC process is due before the next one or at it, and sc_stop() was not called, the
// dispatcher runs the next instant at once, ahead of the kernel's time. Blocks read the
// time from their clock domain (clock_domain::now_fs(), the instant's); a SystemC event or
// PEQ a block notifies is notified for its absolute time (clock_domain::kernel_delay_to),
// so it fires when it would have, and the dispatcher then stops running ahead before it.
// The instants, their order and everything the blocks see are the same either way. Off by
// default: a caller that runs the kernel for a set time (sc_start(t)) needs the kernel's
// time to be the blocks'.
// Cycles, not times, are stored, so a change of period (DVFS) moves the pending
// activations with the clock. An earlier request replaces a later one.
// The calendar is a wheel of one bucket per cycle for the next k_wheel cycles (a bitmap of
// the domain's blocks, in their order; a bitmap finds the next busy cycle) with a heap for
// requests further out.
// The dispatcher also keeps the livelock watchdog: blocks report forward progress
// (edge_dispatcher::progress()); when it runs `limit` busy instants in a row without any,
// blocks are waking without getting anywhere, and it stops the simulation (sc_stop) and
// notes the time and which blocks still ask to run.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/ring_bitmap.h"

namespace gputlm {

class clock_domain;
class edge_dispatcher;

// When a block runs among the blocks due at the same instant (see above).
enum class edge_stage : std::uint8_t {
  deliver = 0,  // memory side and network: move what arrives at this edge
  issue = 1,    // cores: evaluate the cycle with this edge's deliveries in place
};
inline constexpr std::size_t k_edge_stages = 2;

class edge_scheduler {
 public:
  // What is called: a block's activation function and its object.
  struct client {
    void (*call)(void*) = nullptr;
    void* self = nullptr;
    const sc_core::sc_object* owner = nullptr;  // the block, for reports (null: unnamed)
    std::uint64_t live = 0;  // sequence number of the request that stands, 0: none
    // Its position in the domain's order (stage, then binding) as a bitmap word and bit.
    std::uint32_t word = 0;
    std::uint64_t bit = 0;
    std::uint32_t bucket = ~0u;  // the wheel bucket it waits in, or none (far or idle)
    std::uint32_t bound = 0;     // binding order within the domain
    edge_stage stage = edge_stage::deliver;
  };

  explicit edge_scheduler(clock_domain& clk);
  ~edge_scheduler();
  edge_scheduler(const edge_scheduler&) = delete;
  edge_scheduler& operator=(const edge_scheduler&) = delete;

  // Makes `c` one of the domain's blocks, last of its stage so far (elaboration).
  void add(client& c);
  // Forgets `c` and its request (its block is being destroyed).
  void remove(client& c);
  // Runs `c` at the edge of `cycle`, replacing its earlier request. `cycle` is not before
  // the next edge (now's when now is an edge), as wakeup::at makes it; `now` is the
  // domain's current cycle. Inline: a request made while the dispatcher runs (by a block)
  // needs only the calendar's bit work.
  inline void schedule(client& c, std::uint64_t cycle, std::uint64_t now);
  // A request of `c` was made for the current edge (wakeup::at tells, after schedule()):
  // while the dispatcher runs, the domain's stage is due in this instant.
  [[gnu::noinline]] void due_now(const client& c);
  // The domain's period changed: pending activations move to the new edges.
  void period_changed();

 private:
  friend class edge_dispatcher;
  static constexpr std::uint64_t k_wheel = 512;  // cycles ahead held in buckets
  static constexpr std::uint64_t never = ~std::uint64_t(0);
  static constexpr std::uint32_t none = ~0u;
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
  // At the start of the instant at `now_fs` (the dispatcher calls it): marks the domain,
  // at place `index`, due for the stages with a request whose edge has come.
  void begin_instant(std::uint32_t index, std::uint64_t now_fs);
  // Runs the blocks of `stage` due at the edges up to now (the dispatcher calls it, for a
  // domain it knows may have some); whether there were any.
  bool run_due_now(edge_stage stage);
  // Moves the window to start at `cycle` (every bucket before it is empty) and brings the
  // far requests that now fall inside it into their buckets.
  void advance(std::uint64_t cycle);
  [[gnu::always_inline]] inline void put(std::uint64_t cycle, client& c);
  [[gnu::always_inline]] inline void unlink(client& c);
  [[gnu::noinline]] void put_far(std::uint64_t cycle, client& c);          // beyond the window
  void schedule_other(client& c, std::uint64_t cycle, std::uint64_t now);  // the rest

  // The first client waiting in bucket `b` at an index in [from, end), or none.
  [[gnu::always_inline]] std::uint32_t first_in(std::uint32_t b, std::uint32_t from,
                                                std::uint32_t end) const {
    const std::uint64_t* w = &m_bits[std::size_t(b) * m_words];
    for (std::uint32_t i = from; i < end;) {
      const std::uint64_t bits = w[i / 64] >> (i % 64);
      if (bits) {
        const std::uint32_t k = i + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        return k < end ? k : none;
      }
      i += 64 - i % 64;
    }
    return none;
  }
  // Whether a bucket with these per-stage counts holds no client.
  [[gnu::always_inline]] static bool empty_bucket(const std::uint32_t* count) {
    for (std::size_t s = 0; s < k_edge_stages; ++s)
      if (count[s] != 0) return false;
    return true;
  }
  // Gives the clients their places (stage, then binding order) and rebuilds the buckets.
  void relayout();
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
  std::uint32_t m_index = 0;  // its place in the dispatcher's order of domains
  std::uint64_t m_seq = 0;
  std::uint64_t m_base = 0;                             // first cycle of the wheel's window
  std::vector<client*> m_clients;                       // by index
  std::uint32_t m_stage_begin[k_edge_stages + 1] = {};  // each stage's first index
  std::uint32_t m_words = 1;                            // bitmap words per bucket
  std::vector<std::uint64_t> m_stage_mask;              // per stage, per word: the stage's bits
  std::vector<std::uint64_t> m_bits;                    // k_wheel buckets of m_words words
  std::vector<std::uint32_t> m_count;                   // clients waiting, per bucket and stage
  ring_bitmap<k_wheel> m_busy;                          // buckets with requests
  std::vector<far_request> m_far;                       // min-heap by (cycle, seq)
  mutable std::uint64_t m_first = never;                // next_busy()'s answer ...
  mutable bool m_first_valid = true;                    // ... while this holds
};

// The one SystemC method that runs the domains' calendars (see above); made on first use.
class edge_dispatcher {
 public:
  static edge_dispatcher& instance();
  bool running() const { return m_running; }
  // A domain has a request at time t (fs).
  void notify_at(std::uint64_t t);
  // Run instants ahead of the kernel's time while no SystemC process is due (see above).
  void set_run_ahead(bool on) { m_run_ahead = on; }
  // Busy instants run, and the kernel's activations of the dispatcher that ran them.
  std::uint64_t instants() const { return m_instants; }
  std::uint64_t kernel_activations() const { return m_kernel_activations; }
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

  // Between two instants, after request_tick() (from any thread, e.g. a timer), the
  // dispatcher calls `f` once: `gputlm run`'s progress display reads the counters there,
  // in the simulation's thread. Otherwise it costs one relaxed load per instant.
  void set_tick(std::function<void()> f) { m_tick = std::move(f); }
  static void request_tick() { s_tick.store(true, std::memory_order_relaxed); }

 private:
  friend class edge_scheduler;
  edge_dispatcher();
  void run();
  // The blocks due at instant `now` (fs), stage by stage, pass by pass.
  void run_instant(std::uint64_t now);
  // The time of the earliest edge with a request in any domain, or never; each domain's
  // is kept in m_next_fs.
  std::uint64_t next_instant();
  void notify_next();
  // Whether the kernel has nothing to run until after time t (fs) and was not stopped.
  bool kernel_quiet_through(std::uint64_t t);
  // Domain `index` has a request of `stage` due at this instant (or may have).
  void mark_due(std::uint32_t index, edge_stage stage) {
    m_due[std::size_t(stage)][index / 64] |= std::uint64_t(1) << (index % 64);
  }
  bool any_due(edge_stage stage) const {
    for (std::uint64_t w : m_due[std::size_t(stage)])
      if (w != 0) return true;
    return false;
  }
  // Runs the domains marked due for `stage`, in their order, a domain marked again behind
  // the last one run waiting for the next pass.
  void run_stage(edge_stage stage);

  // Delta cycles an instant waits at most for the SystemC processes due with it.
  static constexpr unsigned k_max_deltas = 16;
  std::vector<edge_scheduler*> m_domains;  // in the order they were made
  std::vector<std::uint64_t> m_next_fs;    // per domain: next_instant()'s last answer
  // While running, per stage: the domains (bit per place in m_domains) that may have
  // requests of that stage due at the instant. A request made for the instant marks its
  // domain; a domain is unmarked when it runs the stage's due blocks.
  std::vector<std::uint64_t> m_due[k_edge_stages];
  void renumber();  // the domains' places, after one was made or destroyed
  bool m_running = false;
  bool m_run_ahead = false;
  std::uint64_t m_instants = 0, m_kernel_activations = 0;
  // The time of the kernel's next activity, while no block notified it since it was read.
  std::uint64_t m_kernel_next_fs = 0;
  bool m_kernel_next_known = false;
  std::uint64_t m_notified_fs = ~std::uint64_t(0);  // time of the pending notification
  std::uint64_t m_deferred_fs = ~std::uint64_t(0);  // instant being deferred ...
  unsigned m_deltas = 0;                            // ... and delta cycles waited so far
  sc_core::sc_event m_event;
  static inline std::uint64_t s_progress = 0;
  std::uint64_t m_progress_seen = 0;  // s_progress when the last instant ran
  std::uint64_t m_quiet = 0;          // busy instants in a row without progress
  std::uint64_t m_watchdog = 0;
  livelock m_livelock;
  void stop_livelocked(std::uint64_t now);
  static inline std::atomic<bool> s_tick{false};
  std::function<void()> m_tick;
  [[gnu::noinline]] void tick();
};

// ---- inline calendar operations --------------------------------------------------------

void edge_scheduler::put(std::uint64_t cycle, client& c) {
  if (m_first_valid && cycle < m_first) m_first = cycle;  // (a far cycle only if none nearer)
  if (cycle >= m_base + k_wheel) {
    put_far(cycle, c);
    return;
  }
  const std::uint32_t b = static_cast<std::uint32_t>(cycle % k_wheel);
  c.bucket = b;
  m_bits[std::size_t(b) * m_words + c.word] |= c.bit;
  ++m_count[std::size_t(b) * k_edge_stages + std::size_t(c.stage)];
  m_busy.set(b);
}

void edge_scheduler::unlink(client& c) {
  const std::uint32_t b = c.bucket;
  m_bits[std::size_t(b) * m_words + c.word] &= ~c.bit;
  std::uint32_t* count = &m_count[std::size_t(b) * k_edge_stages];
  --count[std::size_t(c.stage)];
  if (empty_bucket(count)) {
    m_busy.clear(b);
    m_first_valid = false;
  }
  c.bucket = none;
}

void edge_scheduler::schedule(client& c, std::uint64_t cycle, std::uint64_t now) {
  if (m_dispatcher.running()) {
    if (c.bucket != none) unlink(c);  // an earlier request replaces it
    c.live = ++m_seq;
    put(cycle, c);
    return;
  }
  schedule_other(c, cycle, now);
}

}  // namespace gputlm
