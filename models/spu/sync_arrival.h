// A unit's arrival at one of the SPU's block syncs (a link's directional sync, or the global
// barrier): BEGIN_REQ on the unit's sync socket with a payload it keeps for the sync. The
// target completes it in the same call (TLM_COMPLETED, the release delay annotated) or
// later by BEGIN_RESP on the backward path (communication_buffer.h, global_sync.h).
#pragma once

#include <systemc>
#include <tlm>

namespace gputlm::spu {

struct sync_arrival {
  tlm::tlm_generic_payload gp;  // (a member: the target keeps a pointer while the unit waits)
  bool waiting = false;
  std::uint64_t since = 0;  // cycle of the arrival

  // Arrives; true when released in the call (`delay` then holds the release delay).
  bool arrive(tlm::tlm_fw_transport_if<>& fw, std::uint64_t now, sc_core::sc_time& delay) {
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    since = now;
    gp.set_command(tlm::TLM_IGNORE_COMMAND);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    waiting = fw.nb_transport_fw(gp, ph, delay) != tlm::TLM_COMPLETED;
    return !waiting;
  }
  // BEGIN_RESP on the backward path: the release.
  void released() { waiting = false; }
};

}  // namespace gputlm::spu
