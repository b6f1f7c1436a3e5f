// Kernel Management Unit (KMU) with hardware work queues (Hyper-Q), after the baseline of
// Jin Wang's DTBL thesis (Fig. 1, §2.2; ../shared/reference/seed-001-...): one HWQ per CUDA
// stream up to `hw_queues` (more streams are merged onto the queues and serialised); the
// kernel at each queue's head is dispatched to the Kernel Distributor, and the queue is not
// inspected again until that kernel completes. A kernel becomes eligible
// `kernel_launch_latency` cycles after reaching its queue's head; writing its KDE takes
// `dispatch_latency` cycles.
// Sockets: `kd` (initiator) writes Kernel Distributor entries (control_registers.h).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"

namespace gputlm::control {

class kmu : public component {
 public:
  SC_HAS_PROCESS(kmu);
  kmu(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_initiator_socket<kmu> kd{"kd"};

 private:
  struct hw_queue {
    std::vector<std::uint32_t> kernels;  // workload kernel ids, launch order ...
    std::size_t head = 0;                // ... from this one on
    bool in_flight = false;              // head kernel dispatched, not yet complete
    std::uint64_t eligible_cycle = 0;    // head may be dispatched from this cycle on
    bool empty() const { return head == kernels.size(); }
    std::uint32_t front() const { return kernels[head]; }
  };

  void host_thread();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  param<std::uint64_t> m_hw_queues{*this, "hw_queues", 32, "hardware work queues (one per stream)"};
  param<cycles> m_kernel_launch_latency{*this, "kernel_launch_latency", {0},
                                        "host launch to first TB eligible"};
  param<cycles> m_dispatch_latency{*this, "dispatch_latency", {0},
                                   "KMU to Kernel Distributor dispatch"};

  std::vector<hw_queue> m_queues;
  payload_pool m_pool;
  sc_core::sc_event m_changed;
  sc_core::sc_event m_end_req;
  bool m_waiting_end_req = false;
  counter m_kernels_dispatched;
  counter m_kernels_completed;
};

}  // namespace gputlm::control
