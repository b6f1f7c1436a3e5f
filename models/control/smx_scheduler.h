// SMX scheduler: takes Kernel Distributor entries in FCFS order and dispatches at most one
// TB per cycle to the next SMX (round robin) with room by every limit: resident TBs,
// threads/warps, registers, shared memory (DTBL thesis §2.2, seed-001). It keeps the
// occupancy of every SMX itself, as the hardware's resource table does, from each SMX's
// capability registers. TB and SMX selection are strategies (dispatch_policies.h).
// Sockets: `kd` (initiator) reads/writes KDE registers; `doorbell` (target) hears of new
// entries; `smx[i]` (initiator) writes SMX i's Thread Block Control Register, whose
// response marks the TB's completion, and tells every SMX when a kernel has completed
// (tbcr_kernel_done), so that it flushes its L1.
// Waveforms: `resident_tbs`, and per host-launched kernel k (workload order)
// `kernel[k].tbs_dispatched` and `kernel[k].tbs_finished`; docs/waveforms.md.
#pragma once

#include <memory>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/control/control_registers.h"
#include "models/control/dispatch_policies.h"

namespace gputlm::control {

class smx_scheduler : public component {
 public:
  SC_HAS_PROCESS(smx_scheduler);
  using socket_type = tlm_utils::simple_initiator_socket_tagged<smx_scheduler>;

  smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;

  tlm_utils::simple_initiator_socket<smx_scheduler> kd{"kd"};
  tlm_utils::simple_target_socket<smx_scheduler> doorbell{"doorbell"};
  std::vector<std::unique_ptr<socket_type>> smx;

 private:
  struct smx_state {
    core::smx_limits caps;
    std::uint32_t tbs = 0, threads = 0, registers = 0;
    std::uint64_t shared_memory = 0;
    std::uint32_t kernel = 0;  // kernel of the resident TBs (when SMXs are not shared)
  };

  void start_of_simulation() override;
  void dispatch();
  void doorbell_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum smx_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  bool fits(const smx_state& s, const kde_record& e) const;
  kde_record read_record(std::uint32_t entry);
  void kd_access(tlm::tlm_command cmd, std::uint64_t addr, void* data, unsigned len);
  void wake_next_cycle();
  void kernel_done(std::uint32_t kernel);
  core::tb_demand demand_of(const kde_record& e) const;

  param<std::uint64_t> m_smxs{*this, "smxs", 1, "SMXs served (one TBCR socket each)"};
  param<cycles> m_tb_launch_latency{*this, "tb_launch_latency", {0}, "per-TB dispatch latency"};
  param<bool> m_concurrent_kernels_per_smx{*this, "concurrent_kernels_per_smx", true,
                                           "kernels may share an SMX"};
  choice_param m_tb_selection{*this, "tb_selection", "fcfs", "which TB goes next", {"fcfs"}};
  choice_param m_smx_selection{*this, "smx_selection", "round_robin", "which SMX gets it",
                               {"round_robin"}};

  std::unique_ptr<tb_selection_policy> m_tb_policy;
  std::unique_ptr<smx_selection_policy> m_smx_policy;
  std::vector<smx_state> m_smx;
  std::vector<std::uint32_t> m_entry_ids;  // KDE index of each entry in m_entries
  std::vector<kde_record> m_entries;       // mirror of the valid KDEs
  payload_pool m_pool;
  sc_core::sc_event m_wake;
  std::uint64_t m_last_dispatch_cycle = ~0ull;
  traced_value m_resident_tbs;
  struct kernel_traces {
    traced_value dispatched, finished;
  };
  std::vector<kernel_traces> m_kernel_traces;  // per kernel id; empty unless one is traced
  counter m_tbs_dispatched;
  counter m_tbs_completed;
};

}  // namespace gputlm::control
