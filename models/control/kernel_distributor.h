// Kernel Distributor: a fixed number of entries (32 on Kepler), each holding a launched
// kernel's entry PC, grid/TB dims, parameter address, TBs left to dispatch and TBs running;
// served in FCFS order (DTBL thesis §2.2, seed-001). Its entries are memory-mapped
// registers: `kmu` (target) for the KMU's writes, `scheduler` (target) for the SMX
// scheduler's reads.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include "models/common/component.h"

namespace gputlm::control {

class kernel_distributor : public component {
 public:
  kernel_distributor(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_target_socket<kernel_distributor> kmu{"kmu"};
  tlm_utils::simple_target_socket<kernel_distributor> scheduler{"scheduler"};

 private:
  param<std::uint64_t> m_entries{*this, "entries", 32, "Kernel Distributor entries (KDEs)"};
};

}  // namespace gputlm::control
