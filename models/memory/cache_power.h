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
#include "models/memory/cache_events.h"
#include "models/memory/cache_logic.h"
#include "models/power/power_component.h"

namespace gputlm::memory {

class cache_power {
 public:
  // `events`: the cache's observation point (a request's wait for a wake-up is published).
  cache_power(component& owner, const cache_geometry& g, const observers<cache_events>& events);

  // One access of `sectors` (bit i: 32-byte sector i) that got past the tags (r.kind is not
  // fail): the tag lookup, then the data array's read (hit) or write (write_done), or an
  // MSHR allocation or merge (`merged`: the request joined a pending miss). Returns the
  // wake-up cycles the answer waits (0 unless a gating policy put an element to sleep).
  std::uint64_t access(const access_result& r, std::uint8_t sectors, bool merged);
  // A fill wrote `sectors` of line frame `frame` (-1: no line was allocated).
  void fill(int frame, std::uint8_t sectors) { data(frame, sectors, data_write); }
  pm::power_component& data() { return m_data; }
  // Waveform `data_elements_on`: data-array elements in the ON state (all of them unless a
  // gating policy acts; a drop dated back by the policy shows when the block learns of it).
  void add_traces(vcd_writer& vcd, const std::string& scope);

 private:
  // Event counters, in the components' event order: data read, write; tag lookup; MSHR
  // allocate, merge.
  enum event : std::uint32_t { data_read, data_write, tag_lookup, mshr_allocate, mshr_merge };
  std::uint64_t data(int frame, std::uint8_t sectors, event e);

  const observers<cache_events>& m_events;
  std::uint64_t m_n[5] = {};
  pm::power_component& m_data;
  std::uint64_t m_line;
  std::uint64_t m_element_bytes;  // bytes per data-array element
  traced_value m_trace_on;
};

// The data array as a controller switches it (the cache's export `array`): the tag array's
// frames and the data array's power component, once the cache has made them (validate()).
class switched_tags final : public switched_array {
 public:
  void attach(cache_logic& logic, cache_power& power, const component& owner) {
    m_logic = &logic;
    m_power = &power;
    m_owner = &owner;
  }
  std::uint32_t frames() const override {
    return static_cast<std::uint32_t>(m_logic->tags().size());
  }
  std::uint32_t line_bytes() const override { return m_logic->geometry().line_size; }
  bool sectored() const override { return m_logic->geometry().sectored; }
  std::uint8_t dirty_sectors(std::uint32_t f) const override {
    return m_logic->tags().at(static_cast<int>(f)).dirty;
  }
  bool switch_off_frame(std::uint32_t f) override {
    return m_logic->switch_off(static_cast<int>(f));
  }
  pm::power_component& data_power() override { return m_power->data(); }
  std::uint64_t period_fs() const override { return m_owner->clock().period().value(); }

 private:
  cache_logic* m_logic = nullptr;
  cache_power* m_power = nullptr;
  const component* m_owner = nullptr;
};

}  // namespace gputlm::memory
