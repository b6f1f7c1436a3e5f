// SMX scheduler: takes Kernel Distributor entries in FCFS order and dispatches at most one
// TB per cycle to the next SMX (round robin) with room by every limit: resident TBs,
// threads/warps, registers, shared memory (DTBL thesis §2.2; docs/references.md,
// "CDP and DTBL"). It keeps the occupancy of every SMX itself, as the hardware's resource
// table does, from each SMX's capability registers. TB and SMX selection are strategies
// (dispatch_policies.h).
// Sockets: `kd` (initiator) reads/writes KDE registers; `doorbell` (target) hears of new
// entries; `smx[i]` (initiator) writes SMX i's Thread Block Control Register, whose
// response marks the TB's completion, and tells every SMX when a kernel has completed
// (tbcr_kernel_done), so that it flushes its L1.
// Waveforms: `resident_tbs`, and per kernel k (workload order) `kernel[k].tbs_dispatched`
// and `kernel[k].tbs_finished`; docs/waveforms.md.
//
// RTL (`dispatch.implementation: rtl`, LRR without DTBL; docs/rtl.md): the TB dispatch unit
// (tb_dispatch_backend, rtl/tb_dispatch) holds the SMXs' resource table and the KDEs'
// dispatch words and chooses each TB and its SMX; its TBCR is what the SMX receives. The
// scheduler keeps its own table for its statistics.
//
// DTBL (`dtbl: true`; thesis §4.3, Fig. 15; docs/dynamic-parallelism.md): the KMU hands it
// each aggregation command (`agg`). Each group is coalesced into the first valid KDE of the
// same function and TB shape (one cycle per KDE searched): it takes an AGT entry (`agt`;
// or stays in global memory when its hashed entry is busy), is linked behind the kernel's
// last group (Next, LAGEI), and the kernel is queued again (NAGEI, the FCFS bit) if its
// TBs were all scheduled. After a kernel's native TBs (the first time it is marked), its
// groups' TBs are dispatched in link order like native ones (TBCR.AGEI = the group); a
// group kept in global memory is fetched through the AGT before its first TB. A group that
// finds no such KDE is left to the KMU, which runs it as a device kernel.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <memory>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/control/control_registers.h"
#include "models/control/dispatch_monitor.h"
#include "models/control/dispatch_policies.h"
#include "models/control/tb_dispatch_backend.h"
#include "models/control/tb_policy.h"
#include "models/rtl/rtl_source.h"
#include "traces/locality.h"

namespace gputlm::control {

class smx_scheduler : public component, private tb_scheduler_view, private dispatch_monitor {
 public:
  SC_HAS_PROCESS(smx_scheduler);
  using socket_type = tlm_utils::simple_initiator_socket_tagged<smx_scheduler>;

  smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;
  std::string added_hardware() const override { return m_policy->hardware(m_smx.size()); }

  tlm_utils::simple_initiator_socket<smx_scheduler> kd{"kd"};
  tlm_utils::simple_target_socket<smx_scheduler> doorbell{"doorbell"};
  std::vector<std::unique_ptr<socket_type>> smx;
  std::unique_ptr<tlm_utils::simple_target_socket<smx_scheduler>> agg;     // with dtbl
  std::unique_ptr<tlm_utils::simple_initiator_socket<smx_scheduler>> agt;  // with dtbl
  // Policy spu: the block that places the TBs (the SPU's runtime), bound by the platform.
  optional_port<tb_policy_source> policy_source_port{"policy_source"};
  // A controller beside it (docs/architecture.md): occupancy and the Diversion Control
  // Register (`monitor`), and TBs sent, completed and arriving (`events`).
  sc_core::sc_export<dispatch_monitor> monitor{"monitor"};
  observers<dispatch_events> events{"events"};

 private:
  struct smx_state {
    core::smx_limits caps;
    std::uint32_t tbs = 0, threads = 0, registers = 0;
    std::uint64_t shared_memory = 0;
    std::uint32_t kernel = 0;  // kernel of the resident TBs (when SMXs are not shared)
  };

  static constexpr std::uint32_t none = 0xffffffffu;
  // An aggregated group coalesced into a native kernel (DTBL).
  struct group_state {
    std::uint32_t kernel = 0;  // workload index of the group's trace
    std::uint32_t ref = 0;     // as the hardware holds it: AGT index or global | seq
    std::uint32_t kde = 0;     // the native kernel's entry
    std::uint32_t blocks = 0, next_blk = 0, running = 0;
    std::uint32_t next = none;      // the next group linked to the same kernel (seq)
    std::uint32_t prev = none;      // the one before it (a policy may take any group)
    std::uint64_t ready_cycle = 0;  // its launch's API calls are done
    bool loaded = true;             // its record is at hand (an AGT entry, or fetched)
    bool fetching = false;
    std::uint64_t address = 0;                        // its record in global memory
    std::unique_ptr<tlm::tlm_generic_payload> fetch;  // the AGT fetch of that record
    std::unique_ptr<tlm::tlm_generic_payload> write;  // its write at launch
  };
  // Per mirrored entry: its groups, as sequence numbers.
  struct entry_groups {
    std::uint32_t head = none, tail = none;
  };

  void start_of_simulation() override;
  void dispatch();
  void agg_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum agt_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  // An AGT command; `cycles` receives the cycles it took (an allocation's lookup).
  std::uint32_t agt_access(agt_command c, std::uint64_t* cycles = nullptr);
  void write_groups(std::size_t i);
  // Starts the AGT's fetch of a group's record in global memory (once).
  void fetch_record(group_state& g);
  // Sends the AGT a read or a write of the group's record, its payload kept in `slot`.
  void record_access(const group_state& g, std::unique_ptr<tlm::tlm_generic_payload>& slot,
                     tlm::tlm_command cmd);
  // Whether entry i's next TB can be dispatched now (a group's must be ready and at hand).
  bool next_tb_ready(std::size_t i);
  bool group_ready(std::uint32_t seq) override;
  void group_on_chip(std::uint32_t seq) override;
  int entry_of(std::uint32_t kde) const override;
  // Group `seq` of entry i has all its TBs dispatched: out of the entry's chain.
  void unlink_group(std::size_t i, std::uint32_t seq);
  tb_source source_of(const kde_record& e, std::uint32_t kde) const;
  std::uint32_t seq_of(std::uint32_t ref) const;
  void sample_occupancy(std::uint64_t now);
  void doorbell_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum smx_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  bool fits(const smx_state& s, const kde_record& e, std::uint32_t count = 1) const;
  kde_record read_record(std::uint32_t entry);
  // SMX s's capability register, as it sends it.
  reg_words<caps_layout::words> read_caps(std::size_t s);
  void kd_access(tlm::tlm_command cmd, std::uint64_t addr, void* data, unsigned len);
  void wake_next_cycle();
  void kernel_done(std::uint32_t kernel);
  core::tb_demand demand_of(const kde_record& e) const;

  param<cycles> m_tb_launch_latency{*this, "tb_launch_latency", {0}, "per-TB dispatch latency"};
  param<bool> m_concurrent_kernels_per_smx{*this, "concurrent_kernels_per_smx", true,
                                           "kernels may share an SMX"};
  param<bool> m_dtbl{*this, "dtbl", false,
                     "DTBL: coalesce aggregated groups (`agg` from the KMU, `agt` to the AGT)"};
  param<bool> m_record_write{*this, "record_write", true,
                             "DTBL: the launching SMX writes a group that misses the AGT to "
                             "its record in global memory at launch (thesis step 2)"};
  param<std::uint64_t> m_record_prefetch{
      *this, "record_prefetch", 0,
      "DTBL: records of a kernel's chain fetched ahead of the group at its head (0..16)"};
  param<cycles> m_kde_search_latency{*this,
                                     "kde_search_latency",
                                     {1},
                                     "DTBL: cycles per KDE examined for an eligible native kernel"};

  // tb_scheduler_view
  std::size_t smx_count() const override { return m_smx.size(); }
  const std::vector<kde_record>& entries() const override { return m_entries; }
  bool ready(std::size_t entry) override { return next_tb_ready(entry); }
  bool fits(std::size_t smx, std::size_t entry, std::uint32_t count) const override;
  std::uint32_t capacity(std::size_t smx, std::size_t entry) const override;
  const paver::graph& locality_graph(std::size_t entry, std::uint32_t bytes_per_reference) override;
  void add_analysis_seconds(double seconds) override;
  tb_policy_source* policy_source() const override { return policy_source_port.get(); }
  std::uint64_t now() const override;

  // dispatch_monitor (and smx_count above)
  std::uint32_t resident_warps(std::size_t smx) const override;
  std::uint32_t warp_slots(std::size_t smx) const override;
  bool tbs_waiting() const override;
  bool next_tb_fits(std::size_t smx) const override;
  bool tbs_bound_to(std::size_t smx) const override { return m_policy->holds_tbs_for(smx); }
  void divert(std::size_t smx, bool on) override;
  const char* diversion_unsupported() const override;
  std::uint32_t open_kernels() const override;
  bool claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
             std::uint32_t registers) override;
  void take(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
            std::uint32_t registers) override;
  void release_claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                     std::uint32_t registers) override;

  rtl::rtl_choice m_dispatch_rtl{*this, "dispatch", "tb_dispatch", "the TB dispatch unit"};
  std::unique_ptr<tb_dispatch_backend> m_dispatch;  // the RTL unit, when chosen

  strategy_choice<tb_policy> m_policy{*this, "policy", "lrr", "TB scheduling policy",
                                      "TB scheduling policy (docs/tb-scheduling.md)"};
  paver::graph m_locality;  // the graph of the kernel PAVER schedules
  std::unique_ptr<traces::locality_cache> m_locality_cache;
  std::vector<smx_state> m_smx;
  std::vector<std::uint8_t> m_dvr;           // Diversion Control Register: 1 = no TB to this SMX
  std::vector<std::uint32_t> m_entry_ids;    // KDE index of each entry in m_entries
  std::vector<kde_record> m_entries;         // mirror of the valid KDEs
  std::vector<entry_groups> m_entry_groups;  // their groups (DTBL)
  std::deque<group_state> m_groups;          // every group coalesced, by sequence number
  std::vector<std::uint32_t> m_agt_seq;      // AGT entry -> the group holding it
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
  // Dynamic parallelism (written for traces with device launches).
  counter m_groups_coalesced, m_group_tbs, m_record_fetches, m_record_writes;
  histogram m_child_wait{1000, 100};  // launch issued -> first TB dispatched (cycles)
  histogram m_occupancy{5, 21};       // resident warps in % of the chip's, cycle-weighted
  std::uint64_t m_sampled_at = 0, m_resident_warps = 0, m_warp_capacity = 0;
  std::uint64_t m_child_wait_sum = 0, m_child_waits = 0;  // for the means
  counter m_kde_misses;
  // The launch records device launches leave in global memory, from the launch instruction
  // to the child's last TB (bytes): the peak and the average over the run.
  struct record_footprint {
    double peak = 0, mean = 0;
  };
  record_footprint launch_record_footprint() const;
  double m_occupancy_sum = 0;                             // occupancy x cycles
  std::uint64_t m_occupancy_cycles = 0;
};

}  // namespace gputlm::control
