// Kernel Distributor: a fixed number of entries (32 on Kepler), each holding a launched
// kernel's entry PC, grid/TB dims, parameter address, TBs left to dispatch and TBs running;
// served in FCFS order (DTBL thesis §2.2; docs/references.md, "CDP and DTBL"). Its entries
// are memory-mapped registers (control_registers.h): `kmu` (target) takes the KMU's
// launches, `scheduler` (target) the SMX scheduler's reads and TB-completion writes;
// `doorbell` (initiator) tells the SMX scheduler that an entry became valid.
// Waveforms: `valid_entries`, and per entry `kde[k].kernel` (kernel id; all ones = free),
// `kde[k].tbs_dispatched` (TBs the SMX scheduler has taken) and `kde[k].tbs_finished` (TBs
// completed), reset to 0 when a kernel takes the entry; docs/waveforms.md.
#pragma once

#include <deque>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "models/common/component.h"
#include "models/control/control_registers.h"

namespace gputlm::control {

class kernel_distributor : public component {
 public:
  kernel_distributor(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;

  tlm_utils::simple_target_socket<kernel_distributor> kmu{"kmu"};
  tlm_utils::simple_target_socket<kernel_distributor> scheduler{"scheduler"};
  tlm_utils::simple_initiator_socket<kernel_distributor> doorbell{"doorbell"};

 private:
  tlm::tlm_sync_enum kmu_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  void scheduler_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool allocate(tlm::tlm_generic_payload& gp);
  void complete(std::size_t entry);
  void trace_entry(std::size_t entry);

  param<std::uint64_t> m_entries{*this, "entries", 32, "Kernel Distributor entries (KDEs)"};

  std::vector<kde_record> m_kde;
  std::vector<tlm::tlm_generic_payload*> m_launch;  // the KMU's payload per entry
  std::deque<tlm::tlm_generic_payload*> m_waiting;  // launches waiting for a free entry
  std::uint64_t m_fcfs = 0;
  traced_value m_valid_entries;
  static constexpr std::uint64_t k_free = 0xffffffffu;  // kde[k].kernel of a free entry
  struct entry_traces {
    traced_value kernel{k_free}, dispatched, finished;
  };
  std::vector<entry_traces> m_entry_traces;
  counter m_kernels;
  counter m_full_stalls;
};

}  // namespace gputlm::control
