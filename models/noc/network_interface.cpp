#include "models/noc/network_interface.h"

#include "models/common/block_factory.h"

namespace gputlm::noc {

network_interface::network_interface(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("in", in);
  declare_socket("out", out);
  in.register_nb_transport_fw(this, &network_interface::in_fw);
  in.register_b_transport(this, &component::at_only);
  in.register_transport_dbg(this, &network_interface::in_dbg);
  out.register_nb_transport_bw(this, &network_interface::out_bw);
  m_down.bind(out);
  m_up.bind(in);
  add_stat("requests", m_req_count, "requests passed from in to out");
  add_stat("responses", m_resp_count, "responses passed from out to in");
  add_stat("request_stalls", m_req_stalls, "requests held at a full request buffer");
  add_stat("response_stalls", m_resp_stalls, "responses held at a full response buffer");
  m_wake.bind<network_interface, &network_interface::run>(this, clock());
}

void network_interface::validate() {
  m_request_buffer.require(*m_request_buffer >= 1, "must be at least 1");
  m_response_buffer.require(*m_response_buffer >= 1, "must be at least 1");
}

std::string network_interface::pending_work() const {
  if (!busy()) return {};
  return "requests " + std::to_string(m_requests.size()) + ", held " +
         std::to_string(m_held_req ? 1 : 0) + m_down.wait_note() +
         "; responses " + std::to_string(m_responses.size()) + ", held " +
         std::to_string(m_held_resp ? 1 : 0) + m_up.wait_note();
}

void network_interface::add_traces(vcd_writer& vcd) {
  m_trace_req.trace(vcd, name(), "request_buffer", 16);
  m_trace_resp.trace(vcd, name(), "response_buffer", 16);
}

tlm::tlm_sync_enum network_interface::in_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                         sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  if (ph == tlm::BEGIN_REQ) {
    ++m_req_count;
    if (m_latency->value == 0 && m_requests.empty() && !m_down.busy() && now >= m_next_req &&
        clock().now_on_edge()) {
      // Nothing ahead of it, no unpacking delay and now is this unit's edge: it leaves in
      // this cycle, in the sender's call, as run() would send it at this edge.
      m_next_req = now + 1;
      m_down.send(gp);
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    if (room(m_requests, m_req_popped_at, *m_request_buffer, now)) {
      m_requests.push({now + m_latency->value, &gp});
      m_trace_req.set(m_requests.size());
      wake_at(now + m_latency->value);
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    ++m_req_stalls;
    m_held_req = &gp;
    if (m_req_popped_at == now) wake_at(now + 1);  // room made in this cycle: offered next
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP) {
    m_up.end_resp(gp);
    wake_at(now);
  }
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum network_interface::out_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                          sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  m_down.end_req(gp);
  if (ph == tlm::BEGIN_RESP) {
    ++m_resp_count;
    if (room(m_responses, m_resp_popped_at, *m_response_buffer, now)) {
      m_responses.push({now + m_latency->value, &gp});
      m_trace_resp.set(m_responses.size());
      wake_at(now + m_latency->value);
      return tlm::TLM_COMPLETED;
    }
    ++m_resp_stalls;
    m_held_resp = &gp;
    if (m_resp_popped_at == now) wake_at(now + 1);
    if (!m_requests.empty()) wake_at(now);  // (the implied END_REQ freed the channel)
    return tlm::TLM_ACCEPTED;
  }
  wake_at(now);
  return tlm::TLM_ACCEPTED;
}

void network_interface::wake_at(std::uint64_t cycle) {
  m_wake.at(cycle);
}

void network_interface::run() {
  const std::uint64_t now = clock().now_cycle();
  m_wake.fired();
  std::uint64_t next = ~std::uint64_t(0);

  if (!m_requests.empty() && !m_down.busy()) {
    if (m_requests.front().at <= now && now >= m_next_req) {
      tlm::tlm_generic_payload* gp = m_requests.front().gp;
      m_requests.pop();
      m_req_popped_at = now;
      m_next_req = now + 1;
      m_down.send(*gp);
    }
    if (!m_requests.empty() && !m_down.busy())
      next = std::min(next, std::max({now + 1, m_requests.front().at, m_next_req}));
  }
  if (m_held_req && room(m_requests, m_req_popped_at, *m_request_buffer, now)) {
    tlm::tlm_generic_payload* gp = m_held_req;
    m_held_req = nullptr;
    m_requests.push({now + m_latency->value, gp});
    if (!m_down.busy()) next = std::min(next, std::max(now + 1, m_requests.front().at));
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(*gp, ph, t);
  } else if (m_held_req && m_req_popped_at == now) {
    next = std::min(next, now + 1);  // the room made now is offered at the next cycle
  }

  if (!m_responses.empty() && !m_up.busy()) {
    if (m_responses.front().at <= now && now >= m_next_resp) {
      tlm::tlm_generic_payload* gp = m_responses.front().gp;
      m_responses.pop();
      m_resp_popped_at = now;
      m_next_resp = now + 1;
      m_up.send(*gp);
    }
    if (!m_responses.empty() && !m_up.busy())
      next = std::min(next, std::max({now + 1, m_responses.front().at, m_next_resp}));
  }
  if (m_held_resp && room(m_responses, m_resp_popped_at, *m_response_buffer, now)) {
    tlm::tlm_generic_payload* gp = m_held_resp;
    m_held_resp = nullptr;
    m_responses.push({now + m_latency->value, gp});
    if (!m_up.busy()) next = std::min(next, std::max(now + 1, m_responses.front().at));
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(*gp, ph, t);
  } else if (m_held_resp && m_resp_popped_at == now) {
    next = std::min(next, now + 1);  // the room made now is offered at the next cycle
  }

  m_trace_req.set(m_requests.size());
  m_trace_resp.set(m_responses.size());
  if (next != ~std::uint64_t(0)) wake_at(next);
}

GPUTLM_BLOCK("network_interface", network_interface, "injection/ejection buffers between a node and the interconnect", {});

}  // namespace gputlm::noc
