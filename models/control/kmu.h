// Kernel Management Unit (KMU) with hardware work queues (Hyper-Q), after the baseline of
// Jin Wang's DTBL thesis (Fig. 1, §2.2 and §2.4; docs/references.md, "CDP and DTBL"): one HWQ
// per CUDA stream up to `hw_queues` (more streams are merged onto the queues and
// serialised); the kernel at each queue's head is dispatched to the Kernel Distributor, and
// the queue is not inspected again until that kernel completes. A kernel becomes eligible
// `kernel_launch_latency` cycles after reaching its queue's head; writing its KDE takes
// `dispatch_latency` cycles.
//
// Device-side launches (CDP; DTBL groups that find no native kernel): every SMX has a path
// to the KMU (`smx[i]`). A launched kernel waits in the device runtime's launch pool (at
// most `pending_launch_limit` kernels launched and not yet in the KD; a launch that does
// not fit waits, and so does its warp) and is written into a free KDE, as a host kernel
// is, `dispatch_latency` after it arrived (Table 5's 283 cycles on the K20c). The KD's entries
// are shared by host and device kernels. A host kernel counts as complete for its stream
// only when every kernel launched from it, directly or not, has completed (CUDA's parent
// grid completes after its children). DTBL aggregation commands go to the SMX scheduler
// (`agg`, with `dtbl: true`), which coalesces the groups into native kernels.
// Sockets: `kd` (initiator) writes Kernel Distributor entries (control_registers.h);
// `smx[i]` (targets) take launch commands; `agg` (initiator, with `dtbl`).
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <memory>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/control/control_registers.h"
#include "models/control/launch_pool_order.h"

namespace gputlm::control {

class kmu : public component {
 public:
  SC_HAS_PROCESS(kmu);
  using launch_socket = tlm_utils::simple_target_socket_tagged<kmu>;

  kmu(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  std::string pending_work() const override;
  void explain_deadlock() const override;

  tlm_utils::simple_initiator_socket<kmu> kd{"kd"};
  std::vector<std::unique_ptr<launch_socket>> smx;
  std::unique_ptr<tlm_utils::simple_initiator_socket<kmu>> agg;

 private:
  struct hw_queue {
    std::vector<std::uint32_t> kernels;  // workload kernel ids, launch order ...
    std::size_t head = 0;                // ... from this one on
    bool in_flight = false;              // head kernel dispatched, not yet complete
    std::uint64_t eligible_cycle = 0;    // head may be dispatched from this cycle on
    bool empty() const { return head == kernels.size(); }
    std::uint32_t front() const { return kernels[head]; }
  };
  // What the KMU keeps per workload kernel.
  struct kernel_state {
    tlm::tlm_generic_payload* command = nullptr;  // the launch that made it (device kernels)
    std::uint32_t command_left = 0;  // the command's kernels not yet complete (on its first)
    std::uint32_t descendants = 0;   // a host kernel: device kernels from it not complete
    bool kde_done = false;           // its own entry has completed
  };

  void host_thread();
  void dispatch_to_kd(std::uint32_t kernel);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum launch_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                               sc_core::sc_time& delay);
  void launch_arrived(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);
  bool take_launch(tlm::tlm_generic_payload& gp);
  void kernel_completed(std::uint32_t kernel);
  void host_kernel_done(std::uint32_t kernel);
  void answer(tlm::tlm_generic_payload& gp, tlm::tlm_phase phase);

  param<std::uint64_t> m_hw_queues{*this, "hw_queues", 32, "hardware work queues (one per stream)"};
  param<cycles> m_kernel_launch_latency{
      *this, "kernel_launch_latency", {0}, "host launch to first TB eligible"};
  param<cycles> m_dispatch_latency{
      *this, "dispatch_latency", {0}, "KMU to Kernel Distributor dispatch"};
  param<std::uint64_t> m_pending_launch_limit{
      *this, "pending_launch_limit", 2048,
      "device launch pool: kernels launched and not yet dispatched "
      "(cudaLimitDevRuntimePendingLaunchCount)"};
  param<bool> m_dtbl{*this, "dtbl", false,
                     "DTBL: aggregation commands go to the SMX scheduler (`agg` socket)"};
  choice_param m_pool_order{*this,
                            "pool_order",
                            "fifo",
                            "device launch pool to KD: fifo, or LaPerm's priority (TB-Pri) or "
                            "smx_bound (SMX-Bind: one SMX per cycle)",
                            {"fifo", "priority", "smx_bound"}};
  param<std::uint64_t> m_priority_levels{*this, "priority_levels", 4,
                                         "LaPerm: L, the highest priority level"};

  std::vector<hw_queue> m_queues;
  std::deque<pending_launch> m_pool_queue;          // launched, waiting for a KDE
  std::deque<tlm::tlm_generic_payload*> m_waiting;  // launches waiting for pool room
  std::vector<kernel_state> m_state;                // per workload kernel
  std::uint64_t m_pending = 0;                      // kernels in the launch pool
  payload_pool m_pool;
  tlm_utils::peq_with_cb_and_phase<kmu> m_launch_peq{this, &kmu::launch_arrived};
  sc_core::sc_event m_changed;
  sc_core::sc_event m_end_req;
  bool m_waiting_end_req = false;
  counter m_kernels_dispatched;
  counter m_kernels_completed;
  // Dynamic parallelism (written for traces with device launches).
  counter m_device_kernels, m_launch_commands, m_pool_full_waits, m_fallback_groups;
  histogram m_launch_latency{1000, 100};  // cycles from the API calls to the launch taken
  std::uint64_t m_max_pending = 0;
  std::unique_ptr<launch_pool_order> m_order;  // which pooled kernel goes next
  counter m_scan_cycles;                       // LaPerm smx_bound
};

}  // namespace gputlm::control
