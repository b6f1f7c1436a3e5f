// The activation calendar of one clock domain. Event-driven blocks ask to run at a cycle
// of their domain (wakeup::at); the calendar keeps those requests ordered by cycle, then
// by the order they were made, and one SystemC method per domain runs, at each edge that
// has work, every block due then, including blocks woken for the same edge while it runs.
// SystemC sees one timed notification per busy edge of a domain instead of one per block
// wake-up. Cycles, not times, are stored, so a change of period (DVFS) moves the pending
// activations with the clock. A request superseded by an earlier one is dropped when met.
// The calendar is a wheel of one bucket per cycle for the next k_wheel cycles (append and
// take in order, a bitmap finds the next busy cycle) with a heap for requests further out.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

namespace gputlm {

class clock_domain;

class edge_scheduler {
 public:
  // What is called: a block's activation function and its object.
  struct client {
    void (*call)(void*) = nullptr;
    void* self = nullptr;
    std::uint64_t live = 0;  // sequence number of the request that stands, 0: none
  };

  edge_scheduler(clock_domain& clk, const std::string& name);

  // Runs `c` at the edge of `cycle` (the next edge when that edge has passed), replacing
  // its earlier request.
  void schedule(client& c, std::uint64_t cycle);
  // The domain's period changed: pending activations move to the new edges.
  void period_changed();

 private:
  static constexpr std::uint64_t k_wheel = 512;  // cycles ahead held in buckets
  struct request {
    client* c;
    std::uint64_t seq;
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
  void run();
  void notify_for(std::uint64_t cycle);
  // Moves the window to start at `cycle` (every bucket before it is empty) and brings the
  // far requests that now fall inside it into their buckets.
  void advance(std::uint64_t cycle);
  void put(std::uint64_t cycle, const request& r);
  // The earliest cycle with a request at or after `from`, or ~0.
  std::uint64_t next_busy(std::uint64_t from) const;

  clock_domain& m_clk;
  std::uint64_t m_base = 0;                       // first cycle of the wheel's window
  std::vector<std::vector<request>> m_buckets;    // k_wheel, by cycle mod k_wheel
  std::uint64_t m_busy[k_wheel / 64] = {};        // buckets with requests
  std::vector<far_request> m_far;                 // min-heap by (cycle, seq)
  std::uint64_t m_seq = 0;
  bool m_running = false;
  std::uint64_t m_notified_fs = ~std::uint64_t(0);  // time of the pending notification
  sc_core::sc_event m_event;
};

}  // namespace gputlm
