// The controller example of docs/architecture.md ("A controller in one file"), compiled and
// run by test_architecture_example.cpp, which also checks that the page shows exactly this
// code.
#pragma once

#include "models/common/block_factory.h"
#include "models/common/component.h"
#include "models/core/smx_events.h"

namespace gputlm::example {

// Kept as the page shows it:
// clang-format off
// --- example ---
// Per SMX, the cycles it had no resident warp (a warp holds its slot from its TB's start
// to its TB's end): an observer of the SMX's events, bound by `smx.events -> idle.watch`.
class idle_smx_counter : public component, public core::smx_events {
 public:
  idle_smx_counter(const sc_core::sc_module_name& name, const block_context& ctx)
      : component(name, ctx) {
    watch.bind(*this);
    declare_export("watch", watch);
    add_stat("idle_cycles", [this] { return double(idle_until(clock().now_cycle())); },
             "cycles the SMX had no resident warp");
  }
  sc_core::sc_export<core::smx_events> watch{"watch"};

  void tb_started(std::uint32_t, std::uint32_t, std::uint64_t cycle) override {
    m_idle = idle_until(cycle);
    ++m_tbs;
  }
  void tb_finished(std::uint32_t, std::uint64_t cycle) override {
    if (--m_tbs == 0) m_since = cycle;
  }

 private:
  std::uint64_t idle_until(std::uint64_t cycle) const {
    return m_tbs ? m_idle : m_idle + (cycle - m_since);
  }
  std::uint32_t m_tbs = 0;       // resident TBs
  std::uint64_t m_since = 0;     // the cycle the SMX last became empty
  std::uint64_t m_idle = 0;      // idle cycles before m_since
};
GPUTLM_BLOCK("idle_smx_counter", idle_smx_counter, "cycles an SMX had no resident warp", {});
// --- end ---
// clang-format on

}  // namespace gputlm::example
