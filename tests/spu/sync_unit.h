// A unit (an SM or IU) as a SystemC thread for the SPU's sync tests: its first sync at a
// given cycle, then `work` cycles after each release before the next, `syncs` in all; the
// cycle of each release recorded. Syncs are BEGIN_REQs on `sync`, released by the target's
// TLM_COMPLETED or by a BEGIN_RESP on the backward path, after the annotated delay.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>
#include <vector>

#include "models/common/clock_domain.h"

namespace gputlm::test {

struct sync_unit : sc_core::sc_module {
  SC_HAS_PROCESS(sync_unit);
  tlm_utils::simple_initiator_socket<sync_unit> sync{"sync"};
  const gputlm::clock_domain& clk;
  std::uint64_t first, work;  // cycle of the first sync; cycles of work between syncs
  int syncs;
  std::vector<std::uint64_t> released;  // cycle of each release
  sc_core::sc_event resp;
  tlm::tlm_generic_payload gp;  // (a member: a thread left waiting does not own it)
  sc_core::sc_time resp_delay;
  sync_unit(const sc_core::sc_module_name& n, const gputlm::clock_domain& c, std::uint64_t f,
            std::uint64_t w, int s)
      : sc_core::sc_module(n), clk(c), first(f), work(w), syncs(s) {
    sync.register_nb_transport_bw(this, &sync_unit::bw);
    SC_THREAD(run);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time& d) {
    resp_delay = d;
    resp.notify();
    return tlm::TLM_COMPLETED;
  }
  void run() {
    wait(clk.delay_cycles(first));
    for (int i = 0; i < syncs; ++i) {
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      if (sync->nb_transport_fw(gp, ph, d) == tlm::TLM_ACCEPTED) {
        wait(resp);
        d = resp_delay;
      }
      wait(d);
      released.push_back(clk.now_cycle());
      if (i + 1 < syncs) wait(clk.delay_cycles(work));
    }
  }
};

}  // namespace gputlm::test
