// Network interface between a node and the interconnect: the SMX's (cluster's) injection and
// ejection buffers, or a memory sub-partition's, as GPGPU-Sim keeps per cluster
// (-gpgpu_n_cluster_ejection_buffer_size) and per sub-partition. Requests cross from `in`
// to `out` through the request buffer, responses from `out` back to `in` through the
// response buffer, one per cycle each way after `latency` cycles of (un)packing. With a
// latency of 0, a request that finds the buffer empty and `out` free at this unit's edge
// leaves at once, inside the sender's call: the unit is then transparent, and where it sits
// in the instant's order (its clock domain) changes nothing. A full request buffer
// withholds END_REQ on `in`; a full response buffer withholds END_RESP on `out`. Debug
// transactions (transport_dbg) pass from `in` to `out` unchanged. The packing into flits
// itself is the interconnect's (network::flits_of).
// Sockets: `in` (target), `out` (initiator).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/component.h"
#include "models/common/wakeup.h"
#include "models/memory/fifo.h"
#include "models/memory/tlm_channels.h"

namespace gputlm::noc {

class network_interface : public component {
 public:
  SC_HAS_PROCESS(network_interface);
  network_interface(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;

  tlm_utils::simple_target_socket<network_interface> in{"in"};
  tlm_utils::simple_initiator_socket<network_interface> out{"out"};

  std::size_t requests_buffered() const { return m_requests.size(); }
  std::size_t responses_buffered() const { return m_responses.size(); }
  bool busy() const {
    return !m_requests.empty() || !m_responses.empty() || m_held_req || m_held_resp;
  }

 private:
  tlm::tlm_sync_enum in_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  unsigned in_dbg(tlm::tlm_generic_payload& gp) { return out->transport_dbg(gp); }
  tlm::tlm_sync_enum out_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void run();
  void wake_at(std::uint64_t cycle);

  param<std::uint64_t> m_request_buffer{*this, "request_buffer", 8,
                                        "requests buffered from `in` towards `out` (packets)"};
  param<std::uint64_t> m_response_buffer{*this, "response_buffer", 32,
                                         "responses buffered from `out` towards `in` (packets)"};
  param<cycles> m_latency{*this, "latency", {0}, "(un)packing delay each way"};

  struct timed {
    std::uint64_t at;
    tlm::tlm_generic_payload* gp;
  };
  memory::fifo<timed> m_requests{8}, m_responses{8};
  tlm::tlm_generic_payload* m_held_req = nullptr;   // BEGIN_REQ waiting for room
  tlm::tlm_generic_payload* m_held_resp = nullptr;  // BEGIN_RESP waiting for room
  memory::request_channel m_down;
  memory::response_channel m_up;
  wakeup m_wake;
  std::uint64_t m_next_req = 0, m_next_resp = 0;
  // The cycle each buffer last sent its head. A buffer takes a payload if it had room at
  // the start of the cycle (before that cycle's send), so that whether the sender ran
  // before or after this unit within the instant makes no difference.
  std::uint64_t m_req_popped_at = ~std::uint64_t(0), m_resp_popped_at = ~std::uint64_t(0);
  template <class Q>
  static bool room(const Q& q, std::uint64_t popped_at, std::uint64_t capacity, std::uint64_t now) {
    return q.size() + (popped_at == now ? 1 : 0) < capacity;
  }
  counter m_req_count, m_resp_count, m_req_stalls, m_resp_stalls;
  traced_value m_trace_req, m_trace_resp;
};

}  // namespace gputlm::noc
