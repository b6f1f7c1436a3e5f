// An ideal memory target: answers every request `latency` cycles after it arrives,
// accepts `requests_per_cycle` requests per cycle and pushes back (withholds END_REQ)
// beyond that. Stands behind the same socket as an L1 for bring-up and for tests of the
// SMX in isolation (the SMX issue's "fixed-latency memory target").
// Socket: `core` (target).
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>

#include "models/common/component.h"

namespace gputlm::memory {

class fixed_latency_memory : public component {
 public:
  SC_HAS_PROCESS(fixed_latency_memory);
  fixed_latency_memory(const sc_core::sc_module_name& name, const block_context& ctx);

  tlm_utils::simple_target_socket<fixed_latency_memory> core{"core"};

 private:
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                        sc_core::sc_time& delay);
  void respond(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);
  void accept_waiting();

  param<cycles> m_latency{*this, "latency", {100}, "request to response"};
  param<std::uint64_t> m_requests_per_cycle{*this, "requests_per_cycle", 1,
                                            "requests accepted per cycle"};
  tlm_utils::peq_with_cb_and_phase<fixed_latency_memory> m_peq;
  std::uint64_t m_cycle = ~0ull;
  std::uint64_t m_taken = 0;
  tlm::tlm_generic_payload* m_waiting = nullptr;
  sc_core::sc_event m_retry;
  counter m_requests;
  counter m_pushbacks;
};

}  // namespace gputlm::memory
