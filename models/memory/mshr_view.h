// What a cache's MSHR shows a controller beside it (export `mshr_state` of an L1): its
// occupancy and, entry by entry in age order, how many requests an entry merged and which
// warps made them. LATOA's unit reads the second-newest entry of a critical core
// (models/core/latoa_unit.h). Read-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

namespace gputlm::memory {

class mshr_view : public virtual sc_core::sc_interface {
 public:
  virtual std::size_t mshr_capacity() const = 0;     // entries
  virtual std::size_t mshr_merge_limit() const = 0;  // slots per entry
  virtual std::size_t mshr_used() const = 0;         // live entries
  // Whether entries and requesters can be read (not with an RTL MSHR, whose table keeps
  // only occupancy).
  virtual bool mshr_inspectable() const = 0;
  // The k-th newest live entry (0: the newest): its filled slots, and the warp slot of
  // each of its requesters appended to `warps` in arrival order; false when fewer than
  // k + 1 entries are live.
  virtual bool mshr_newest(std::size_t k, std::size_t& slots,
                           std::vector<std::uint32_t>& warps) const = 0;
};

// Cancelling a warp's requests in a cache's MSHR (export `mshr_cancel` of an L1): LATOA's
// export of a warp drops the loads it waits for (seed 003 §4.3). Each of the warp's slots
// keeps its place but loses its requester; the entry stays until its fill, which installs
// the line and answers nobody (cache_events::fill_unanswered).
class mshr_cancel : public virtual sc_core::sc_interface {
 public:
  // Cancels every MSHR slot of warp slot `warp` (of the SMX the cache serves) and appends
  // the requests' payloads to `out` (their owner releases them); returns how many.
  virtual std::size_t cancel_warp(std::uint32_t warp,
                                  std::vector<tlm::tlm_generic_payload*>& out) = 0;
};

}  // namespace gputlm::memory
