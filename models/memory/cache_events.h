// What a cache (an L1, an L2 bank) publishes and offers to a controller beside it, such as
// Snooze's tri-modal switch controller (models/power/tri_modal_switch_controller.h):
//
//   cache_events     its observation point (port `events`, any number of observers bound):
//                    what its input queue, pipeline and fills do, as they happen;
//   switched_array   its data array (export `array`): the line frames a controller may
//                    switch off, their dirty sectors, and the array's power component.
//
// The cache calls these whatever is bound (nothing, one controller or several); it never
// knows what listens.
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::pm {
class power_component;
}

namespace gputlm::memory {

class cache_events : public virtual sc_core::sc_interface {
 public:
  // A request entered the array's input queue at now_fs (not a kernel-end flush).
  virtual void request_arrived(std::uint64_t now_fs) { (void)now_fs; }
  // A request reaches the input queue at at_fs (<= now) after a pipeline that let it be seen
  // coming from seen_fs on (the L2's ROP delay).
  virtual void request_ready(std::uint64_t at_fs, std::uint64_t seen_fs) {
    (void)at_fs, (void)seen_fs;
  }
  // The input queue's head was taken (looked up); `more`: requests wait behind it.
  virtual void input_taken(std::uint64_t now_fs, bool more) { (void)now_fs, (void)more; }
  // The input queue's head failed its reservation (MSHR, merge or miss-queue full, no
  // replaceable line in set `set`): it waits for a fill of that set.
  virtual void reservation_failed(std::uint32_t set, std::uint64_t now_fs) {
    (void)set, (void)now_fs;
  }
  // A fill for set `set` arrived.
  virtual void filled(std::uint32_t set) { (void)set; }
  // Line frame `frame` was filled outside the request path (warmed before the run).
  virtual void warmed(std::uint32_t frame, std::uint64_t now_fs) { (void)frame, (void)now_fs; }
  // The kernel-end flush (every TB of the SMX finished).
  virtual void flushed(std::uint64_t now_fs) { (void)now_fs; }
  // A request's answer waited `cycles` for its data array to wake.
  virtual void request_waited(std::uint64_t cycles) { (void)cycles; }
  // The MSHR's filled entries changed to `used` of `entries` (an L1's; LATOA's core-state
  // classifier reads it).
  virtual void mshr_changed(std::uint32_t used, std::uint32_t entries, std::uint64_t now_fs) {
    (void)used, (void)entries, (void)now_fs;
  }
  // A fill arrived for an MSHR entry whose `cancelled` slots had lost their requesters
  // (mshr_cancel): the line is installed, and nobody is answered for them (an orphan fill
  // when no slot is left).
  virtual void fill_unanswered(std::uint32_t cancelled, bool orphan) {
    (void)cancelled, (void)orphan;
  }
};

class switched_array : public virtual sc_core::sc_interface {
 public:
  virtual std::uint32_t frames() const = 0;      // line frames (sets x ways)
  virtual std::uint32_t line_bytes() const = 0;  // bytes per frame
  virtual bool sectored() const = 0;             // valid bits per 32-byte sector
  virtual std::uint8_t dirty_sectors(std::uint32_t frame) const = 0;  // bit s: 32-byte sector s
  // Drops frame's line if it is valid, clean and not waiting for a fill: true if a valid
  // line was lost.
  virtual bool switch_off_frame(std::uint32_t frame) = 0;
  // The data array's power component (its elements are what a controller switches).
  virtual pm::power_component& data_power() = 0;
  // The cache's clock period (fs), for a controller's cycle parameters.
  virtual std::uint64_t period_fs() const = 0;
};

}  // namespace gputlm::memory
