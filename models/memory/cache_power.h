// The power components of a cache bank (L1 or L2 sub-partition), as GPUWattch/AccelWattch
// split a cache (data array, tag array, MSHR) and as Snooze gates it: the data array may be
// divided into elements down to one 32-byte line (the power table's `granularity`), each
// behind its own switch. The block reports what it does; this maps a line frame and its
// sectors onto data-array elements, records the events and asks the gating policy for the
// wake-up cycles the access must wait.
//
// Components and events (power table keys `<l1_cache|l2_cache>.<component>`):
//   data  read (a hit's data read), write (a fill or a write into a line; not a write
//         that evicts the line or goes around the cache)
//   tag   lookup (every access that reached the tags)
//   mshr  allocate (a new miss entry), merge (a request joining a pending entry)
#pragma once

#include <cstdint>
#include <memory>

#include "models/common/component.h"
#include "models/memory/cache_logic.h"
#include "models/power/power_component.h"
#include "models/power/snooze_policy.h"
#include "models/power/tri_modal_switch_controller.h"

namespace gputlm::memory {

class cache_power {
 public:
  cache_power(component& owner, const cache_geometry& g);

  // One access of `sectors` (bit i: 32-byte sector i) that got past the tags (r.kind is not
  // fail): the tag lookup, then the data array's read (hit) or write (write_done), or an
  // MSHR allocation or merge (`merged`: the request joined a pending miss). Returns the
  // wake-up cycles the answer waits (0 unless a gating policy put an element to sleep).
  std::uint64_t access(const access_result& r, std::uint8_t sectors, bool merged);
  // A fill wrote `sectors` of line frame `frame` (-1: no line was allocated).
  void fill(int frame, std::uint8_t sectors) { data(frame, sectors, data_write); }
  // Snooze: hands the data array to `ctrl` (the cache's tri-modal switch controller) under
  // `policy`, which must manage it (else an input error at the policy: the platform's power
  // table has no data array with Sleep and OFF for this cache type); registers the
  // controller's statistics under `switch.`.
  // `off_when_idle`: the controller switches off when the GPU has no kernel left (L2).
  void control_switches(component& owner, pm::snooze_policy& policy,
                        pm::tri_modal_switch_controller& ctrl, cache_logic& logic,
                        bool off_when_idle);
  // Waveform `data_elements_on`: data-array elements in the ON state (all of them unless a
  // gating policy acts; a drop dated back by the policy shows when the block learns of it).
  void add_traces(vcd_writer& vcd, const std::string& scope);

 private:
  // Event counters, in the components' event order: data read, write; tag lookup; MSHR
  // allocate, merge.
  enum event : std::uint32_t { data_read, data_write, tag_lookup, mshr_allocate, mshr_merge };
  std::uint64_t data(int frame, std::uint8_t sectors, event e);

  std::unique_ptr<pm::switched_array> m_switched;  // the tags' view for a controller
  pm::tri_modal_switch_controller* m_ctrl = nullptr;
  std::uint64_t m_n[5] = {};
  pm::power_component& m_data;
  std::uint64_t m_line;
  std::uint64_t m_element_bytes;  // bytes per data-array element
  traced_value m_trace_on;
};

}  // namespace gputlm::memory
