// What a DRAM channel (memory controller) publishes to a controller beside it, such as a
// criticality-aware memory scheduler's bookkeeping or a bandwidth monitor: its observation
// point (port `events`, any number of observers bound). The channel calls these whatever is
// bound (nothing, one or several); it never knows what listens.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/memory/dram_engine.h"

namespace gputlm::memory {

class dram_events : public virtual sc_core::sc_interface {
 public:
  // A request (its bank after bank indexing, row, bursts, requester and priority) entered
  // the queue at DRAM cycle r.arrival; `queued`: requests in the queue with it.
  virtual void request_queued(const dram_engine::request& r, std::size_t queued) {
    (void)r, (void)queued;
  }
  // A request was served: its first command at `first_command`, its last data beat left the
  // bus at `done` (DRAM cycles); `row_hit`: its first column access found the row open.
  virtual void request_served(const dram_engine::request& r, bool row_hit,
                              std::uint64_t first_command, std::uint64_t done) {
    (void)r, (void)row_hit, (void)first_command, (void)done;
  }
};

}  // namespace gputlm::memory
