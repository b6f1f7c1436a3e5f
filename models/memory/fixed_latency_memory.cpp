#include "models/memory/fixed_latency_memory.h"

#include "models/common/block_factory.h"

#include "models/common/mem_request.h"

namespace gputlm::memory {

fixed_latency_memory::fixed_latency_memory(const sc_core::sc_module_name& name,
                                           const block_context& ctx)
    : component(name, ctx), m_peq(this, &fixed_latency_memory::respond) {
  declare_socket("core", core);
  core.register_nb_transport_fw(this, &fixed_latency_memory::fw);
  core.register_b_transport(this, &component::at_only);
  SC_METHOD(accept_waiting);
  sensitive << m_retry;
  dont_initialize();
  add_stat("requests", m_requests, "requests served");
  add_stat("pushbacks", m_pushbacks, "requests whose END_REQ was withheld");
}

tlm::tlm_sync_enum fixed_latency_memory::fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP
  if (const auto* r = gp.get_extension<mem_request>(); r && (r->kind == access_kind::flush || r->kind == access_kind::carveout)) {  // no cache here: done at once
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  const std::uint64_t now = clock().next_cycle_at_fs(clock_domain::now_fs() + delay.value());
  if (now != m_cycle) {
    m_cycle = now;
    m_taken = 0;
  }
  if (m_taken >= *m_requests_per_cycle) {  // full this cycle: accept in the next one
    ++m_pushbacks;
    m_waiting = &gp;
    m_retry.notify(clock_domain::kernel_delay_to(clock().edge_fs(now + 1)));
    return tlm::TLM_ACCEPTED;
  }
  ++m_taken;
  ++m_requests;
  m_peq.notify(gp, tlm::BEGIN_RESP,
               clock_domain::kernel_delay_to(clock().edge_fs(now + *m_latency)));
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void fixed_latency_memory::accept_waiting() {
  if (!m_waiting) return;
  tlm::tlm_generic_payload* gp = m_waiting;
  m_waiting = nullptr;
  m_cycle = clock().now_cycle();
  m_taken = 1;
  ++m_requests;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  core->nb_transport_bw(*gp, phase, d);
  m_peq.notify(*gp, tlm::BEGIN_RESP, clock_domain::kernel_delay(clock().delay_cycles(*m_latency)));
}

void fixed_latency_memory::respond(tlm::tlm_generic_payload& gp, const tlm::tlm_phase&) {
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  core->nb_transport_bw(gp, phase, d);
}

GPUTLM_BLOCK("fixed_latency_memory", fixed_latency_memory, "ideal memory answering after a fixed latency", {});

}  // namespace gputlm::memory
