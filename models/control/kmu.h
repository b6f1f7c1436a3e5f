// Kernel Management Unit (KMU) with hardware work queues (Hyper-Q), after the baseline
// of Jin Wang's DTBL thesis (Fig. 1, §2.2; ../shared/reference/seed-001-...): one HWQ per
// CUDA stream up to `hw_queues`; the kernel at each queue's head goes to the Kernel
// Distributor, and the queue is not inspected again until that kernel completes.
// Sockets: `kd` (initiator) writes Kernel Distributor entries.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/component.h"

namespace gputlm::control {

class kmu : public component {
 public:
  kmu(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_initiator_socket<kmu> kd{"kd"};

 private:
  param<std::uint64_t> m_hw_queues{*this, "hw_queues", 32, "hardware work queues (one per stream)"};
  param<cycles> m_kernel_launch_latency{*this, "kernel_launch_latency", {0},
                                        "host launch to first TB eligible"};
  param<cycles> m_dispatch_latency{*this, "dispatch_latency", {0},
                                   "KMU to Kernel Distributor dispatch"};
};

}  // namespace gputlm::control
