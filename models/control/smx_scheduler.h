// SMX scheduler: takes Kernel Distributor entries in FCFS order and dispatches at most one
// TB per cycle to the next SMX (round robin) with room by every limit (DTBL thesis §2.2,
// seed-001). Sockets: `kd` (initiator) reads KDEs; `smx[i]` (initiator) writes SMX i's
// Thread Block Control Register.
#pragma once

#include <memory>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "models/common/component.h"

namespace gputlm::control {

class smx_scheduler : public component {
 public:
  using socket_type = tlm_utils::simple_initiator_socket_tagged<smx_scheduler>;

  smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_initiator_socket<smx_scheduler> kd{"kd"};
  std::vector<std::unique_ptr<socket_type>> smx;

 private:
  param<std::uint64_t> m_smxs{*this, "smxs", 1, "SMXs served (one TBCR socket each)"};
  param<cycles> m_tb_launch_latency{*this, "tb_launch_latency", {0}, "per-TB dispatch latency"};
  param<bool> m_concurrent_kernels_per_smx{*this, "concurrent_kernels_per_smx", true,
                                           "kernels may share an SMX"};
  choice_param m_tb_selection{*this, "tb_selection", "fcfs", "which TB goes next", {"fcfs"}};
  choice_param m_smx_selection{*this, "smx_selection", "round_robin", "which SMX gets it",
                               {"round_robin"}};
};

}  // namespace gputlm::control
