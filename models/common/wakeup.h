// The one pending activation of an event-driven block: bind() names the block's activation
// function, its clock domain and its stage among the blocks due at the same instant
// (edge_scheduler.h: deliver for the memory side and the network, issue for the cores);
// at() asks for a run at a cycle of that clock and keeps only the earliest one asked for;
// the function calls fired() when it runs. The domain's edge_scheduler makes the calls
// (one SystemC method for the whole platform, not one per block).
#pragma once

#include <cstdint>
#include <type_traits>

#include "models/common/clock_domain.h"
#include "models/common/edge_scheduler.h"

namespace gputlm {

class wakeup {
 public:
  wakeup() = default;
  wakeup(const wakeup&) = delete;  // the calendar knows it by address
  wakeup& operator=(const wakeup&) = delete;
  ~wakeup() {
    if (m_scheduler) m_scheduler->remove(m_client);
  }

  // `run` is called at the cycles asked for; call from the block's constructor.
  template <class T, void (T::*run)()>
  void bind(T* self, clock_domain& clk, edge_stage stage = edge_stage::deliver) {
    m_clk = &clk;
    m_scheduler = &clk.scheduler();
    m_client.self = self;
    m_client.call = [](void* p) { (static_cast<T*>(p)->*run)(); };
    if constexpr (std::is_base_of_v<sc_core::sc_object, T>) m_client.owner = self;
    m_client.stage = stage;
    m_scheduler->add(m_client);
  }

  // Runs at `cycle` (the current cycle's next edge when it is already past), unless a run
  // no later than that is pending.
  void at(std::uint64_t cycle) {
    const std::uint64_t now = m_clk->now_cycle();
    const bool on_edge = m_clk->now_on_edge();
    // A cycle whose edge has passed means the next edge: now's when now is an edge, else
    // the one after (a wake from another domain between two edges). Kept as asked for, a
    // later request before that edge would have replaced it: a lost wake-up.
    if (cycle <= now) {
      if (on_edge) return at_current_edge(now);
      cycle = now + 1;
    }
    if (m_cycle >= now && m_cycle <= cycle) return;
    m_cycle = cycle;
    m_scheduler->schedule(m_client, cycle, now);
  }
  void fired() { m_cycle = ~std::uint64_t(0); }

 private:
  // A run at the current edge, `now`: the calendar is told it is due in this instant (a
  // pending request for it was, when made or when the instant began).
  [[gnu::noinline]] void at_current_edge(std::uint64_t now) {
    if (m_cycle == now) return;
    m_cycle = now;
    m_scheduler->schedule(m_client, now, now);
    m_scheduler->due_now(m_client);
  }

  clock_domain* m_clk = nullptr;
  edge_scheduler* m_scheduler = nullptr;
  edge_scheduler::client m_client;
  std::uint64_t m_cycle = ~std::uint64_t(0);
};

}  // namespace gputlm
