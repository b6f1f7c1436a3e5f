// The two halves of the AT base protocol every memory block speaks: an initiator sends
// one BEGIN_REQ at a time and waits for END_REQ (a target withholding END_REQ pushes back);
// a target sends one BEGIN_RESP at a time and waits for END_RESP. Calls are made from the
// owner's activation, not from inside the peer's nb_transport call; the one exception is a
// zero-latency network interface passing a request straight on (network_interface.h).
#pragma once

#include <systemc>
#include <tlm>

namespace gputlm::memory {

class request_channel {
 public:
  void bind(tlm::tlm_initiator_socket<>& s) { m_socket = &s; }
  bool busy() const { return m_waiting != nullptr; }
  // Sends BEGIN_REQ; returns true when the target took it at once (no END_REQ to wait for).
  bool send(tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    m_waiting = &gp;
    tlm::tlm_sync_enum r = (*m_socket)->nb_transport_fw(gp, ph, t);
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph != tlm::BEGIN_REQ)) {
      m_waiting = nullptr;
      return true;
    }
    return false;
  }
  // END_REQ, or a BEGIN_RESP that implies it, arrived for `gp`.
  void end_req(const tlm::tlm_generic_payload& gp) {
    if (m_waiting == &gp) m_waiting = nullptr;
  }
  // For stalled-run reports: a note when the sent request still waits for END_REQ.
  const char* wait_note() const { return busy() ? " (head waits for END_REQ)" : ""; }

 private:
  tlm::tlm_initiator_socket<>* m_socket = nullptr;
  tlm::tlm_generic_payload* m_waiting = nullptr;
};

class response_channel {
 public:
  void bind(tlm::tlm_target_socket<>& s) { m_socket = &s; }
  bool busy() const { return m_waiting != nullptr; }
  // Sends BEGIN_RESP; returns true when the initiator completed it at once.
  bool send(tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    m_waiting = &gp;
    tlm::tlm_sync_enum r = (*m_socket)->nb_transport_bw(gp, ph, t);
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
      m_waiting = nullptr;
      return true;
    }
    return false;
  }
  void end_resp(const tlm::tlm_generic_payload& gp) {
    if (m_waiting == &gp) m_waiting = nullptr;
  }
  const char* wait_note() const { return busy() ? " (head waits for END_RESP)" : ""; }

 private:
  tlm::tlm_target_socket<>* m_socket = nullptr;
  tlm::tlm_generic_payload* m_waiting = nullptr;
};

}  // namespace gputlm::memory
