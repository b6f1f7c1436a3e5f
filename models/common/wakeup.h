// The one pending wake-up of an event-driven block: the block's SC_METHOD is sensitive to
// event(); at() asks for a wake-up at a cycle of the block's clock and keeps only the
// earliest one asked for; the method calls fired() when it runs.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/common/clock_domain.h"

namespace gputlm {

class wakeup {
 public:
  sc_core::sc_event& event() { return m_event; }

  // Wakes at `cycle` (the current cycle's next edge when it is already past), unless a
  // wake-up no later than that is pending.
  void at(const clock_domain& clk, std::uint64_t cycle) {
    const std::uint64_t now = clk.now_cycle();
    if (cycle < now) cycle = now;
    if (m_cycle >= now && m_cycle <= cycle) return;
    m_cycle = cycle;
    const sc_core::sc_time stamp = sc_core::sc_time_stamp();
    const sc_core::sc_time t = clk.edge_time(cycle);
    m_event.notify(t > stamp ? t - stamp : clk.delay_cycles(0));
  }
  void fired() { m_cycle = ~std::uint64_t(0); }

 private:
  sc_core::sc_event m_event;
  std::uint64_t m_cycle = ~std::uint64_t(0);
};

}  // namespace gputlm
