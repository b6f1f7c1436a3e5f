// Thread-block scheduling policies of the SMX scheduler (docs/tb-scheduling.md): a policy
// decides which TB (a kernel entry, and for native TBs which TB id) goes to which SMX,
// seeing the scheduler's resource table and KDEs through tb_scheduler_view. Strategies
// (models/common/strategy.h) chosen by name with their parameters
// (`smx_scheduler.policy: {type: rb_ts, task_stealing: false}`):
//   lrr      the baseline: KDEs in FCFS order, TB ids in order, SMXs round robin
//            (DTBL thesis §2.2; the tb_selection / smx_selection strategies)
//   bcs      block-CTA scheduling: TBs in pairs (2i, 2i+1) to one SMX, which must have
//            room for both (Tripathy thesis §3.1.2)
//   mst_ts, kway_ts, rb_ts
//            PAVER (Tripathy thesis §3.3-3.4, Fig. 3.8-3.9): TB groups from the kernel's
//            locality graph (locality_partition.h) in a global queue; per SMX the
//            `next`, `tail` and `nextTB` registers, nextTB reloaded from global memory
//            after every issue (`next_tb_latency`); task stealing (Algorithm 2) for
//            kway_ts and rb_ts when `task_stealing` is on.
//   tb_pri, smx_bind, adaptive_bind
//            LaPerm (Wang thesis §5.2, Fig. 26-28): TB sources (kernels, aggregated
//            groups) in priority queues by launch depth clamped at L; SMX-Bind queues a
//            child on its parent's SMX (or L1 cluster), Adaptive-Bind lets an SMX with
//            empty queues take from a backup SMX's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/control/control_registers.h"
#include "models/control/dispatch_policies.h"
#include "models/control/locality_partition.h"
#include "models/common/strategy.h"

namespace gputlm::control {

// What a policy sees of the SMX scheduler.
class tb_scheduler_view {
 public:
  virtual ~tb_scheduler_view() = default;
  virtual std::size_t smx_count() const = 0;
  // The valid KDEs, as the scheduler mirrors them (index = position).
  virtual const std::vector<kde_record>& entries() const = 0;
  // Whether entry i's next TB may go now (an aggregated group must be ready and at hand;
  // asking may start the fetch of its record).
  virtual bool ready(std::size_t entry) = 0;
  // Whether SMX s has room for `count` more TBs of entry i by every limit.
  virtual bool fits(std::size_t smx, std::size_t entry, std::uint32_t count = 1) const = 0;
  // TBs of entry i an empty SMX holds at once (x of the thesis).
  virtual std::uint32_t capacity(std::size_t smx, std::size_t entry) const = 0;
  // The locality graph of entry i's kernel at `bytes_per_reference` bytes per data
  // reference (built or taken from its cache once).
  virtual const paver::graph& locality_graph(std::size_t entry,
                                             std::uint32_t bytes_per_reference) = 0;
  // Host time the policy spent analysing a kernel (PAVER's partitioning), measured.
  virtual void add_analysis_seconds(double seconds) { (void)seconds; }
  virtual std::uint64_t now() const = 0;
  // The entry holding KDE `kde`, or -1.
  virtual int entry_of(std::uint32_t kde) const = 0;
  // Whether the next TB of aggregated group `group` may go now (asking may start the fetch
  // of its record from global memory).
  virtual bool group_ready(std::uint32_t group) = 0;
  // The policy holds group `group`'s record on chip (LaPerm's bound queues): it need not be
  // fetched from global memory.
  virtual void group_on_chip(std::uint32_t group) { (void)group; }
  // The block the platform bound to supply the policy (`policy_source`), or null.
  virtual class tb_policy_source* policy_source() const { return nullptr; }
};

// A source of TBs as a policy hears of it (tb_policy::source_added): a kernel entry's
// native TBs, or one aggregated group coalesced into an entry (DTBL).
struct tb_source {
  static constexpr std::uint32_t none = 0xffffffffu;
  std::uint32_t kde = 0;         // its Kernel Distributor entry
  std::uint32_t group = none;    // the aggregated group (its sequence number), or none
  std::uint32_t kernel = 0;      // workload index of the kernel or group
  std::uint32_t tbs = 0;         // TBs it has to dispatch
  std::uint32_t depth = 0;       // launch nesting: 0 for a host kernel
  std::uint32_t launch_smx = 0;  // the SMX of the launching TB (depth > 0)
};

// A policy's decision: entry < 0 when nothing goes now (then retry_at > now asks to be
// woken then, 0 to wait for the next event). `tb` is the native TB id to dispatch, or
// none_tb for the next one in order (the KD's NextBL, or the group's next TB). `group`
// names an aggregated group of the entry whose next TB goes (a policy that queues groups
// itself); none: the entry's native TBs, then its groups in their chain's order.
struct tb_choice {
  static constexpr std::uint32_t none_tb = 0xffffffffu;
  int entry = -1;
  int smx = -1;
  std::uint32_t tb = none_tb;
  std::uint64_t retry_at = 0;
  std::uint32_t group = tb_source::none;  // an aggregated group's next TB, not the entry's
};

class tb_policy {
 public:
  virtual ~tb_policy() = default;
  virtual tb_choice pick(tb_scheduler_view& v) = 0;
  // A TB of `kernel` (workload index) completed on SMX `smx`.
  virtual void tb_completed(std::size_t smx, std::uint32_t kernel) {
    (void)smx;
    (void)kernel;
  }
  // A kernel entry became valid, or a group was coalesced into one. Returns the cycles the
  // policy's hardware takes to record it (a DTBL group's launch waits for them).
  virtual std::uint64_t source_added(tb_scheduler_view& v, const tb_source& s) {
    (void)v;
    (void)s;
    return 0;
  }
  // What the policy still holds, for a deadlock report ("" for nothing).
  virtual std::string pending() const { return {}; }
  // TBs wait that the policy places on SMX `smx` alone (LaPerm's queue bound to it): a
  // controller diverting SMXs must not strand them there (docs/dvfs.md).
  virtual bool holds_tbs_for(std::size_t smx) const {
    (void)smx;
    return false;
  }
  // Every block is bound (elaboration's end): checks what the policy needs of the chip
  // (throws input_error) and takes what the platform bound for it.
  virtual void bound(tb_scheduler_view& v) { (void)v; }
  // Whether the policy takes its placements from the scheduler's `policy_source`.
  virtual bool takes_policy_source() const { return false; }
  // The hardware the policy adds, for `gputlm elaborate` ("" for none).
  virtual std::string hardware(std::size_t smxs) const {
    (void)smxs;
    return {};
  }
};

// A block that supplies the SMX scheduler's policy (`policy: spu`, the scheduler's port
// `policy_source` bound to the block's export): the SPU's runtime, which places CTAs by its
// plan of passes. Asked once every socket is bound.
class tb_policy_source : public virtual sc_core::sc_interface {
 public:
  virtual std::unique_ptr<tb_policy> make_tb_policy(std::size_t smxs) = 0;
};

// LRR: `tb_selection` picks the entry among those whose next TB fits somewhere,
// `smx_selection` the SMX.
class lrr_policy : public tb_policy {
 public:
  lrr_policy(std::unique_ptr<tb_selection_policy> tbs, std::unique_ptr<smx_selection_policy> smxs)
      : m_tbs(std::move(tbs)), m_smxs(std::move(smxs)) {}
  tb_choice pick(tb_scheduler_view& v) override;

 protected:
  // A policy that restricts where an entry's TBs may go (stream_partition.h) sets
  // m_restricted and answers allowed(); plain LRR asks nothing.
  virtual bool allowed(const kde_record& e, std::size_t smx) const {
    (void)e, (void)smx;
    return true;
  }
  bool placeable(const tb_scheduler_view& v, std::size_t entry, std::size_t smx) const {
    return (!m_restricted || allowed(v.entries()[entry], smx)) && v.fits(smx, entry);
  }
  std::unique_ptr<tb_selection_policy> m_tbs;
  std::unique_ptr<smx_selection_policy> m_smxs;
  bool m_restricted = false;
};

// BCS: the FCFS entry's TBs in pairs. An SMX takes the first TB of a pair only with room
// for two (one when it is the kernel's last TB); the second follows it there next.
class bcs_policy : public tb_policy {
 public:
  tb_choice pick(tb_scheduler_view& v) override;

 private:
  int m_pending_smx = -1;  // the SMX owed the second TB of a pair
  std::uint32_t m_pending_kernel = 0;
  std::size_t m_next_smx = 0;
};

// PAVER's runtime (Fig. 3.9) over the groups of one partitioner.
class paver_policy : public tb_policy {
 public:
  enum class grouping { mst, kway, rb };
  paver_policy(grouping g, bool task_stealing, std::uint64_t next_tb_latency,
               std::unique_ptr<tb_policy> others, std::uint32_t bytes_per_reference = 4)
      : m_grouping(g),
        m_stealing(task_stealing),
        m_latency(next_tb_latency),
        m_granularity(bytes_per_reference),
        m_others(std::move(others)) {}
  tb_choice pick(tb_scheduler_view& v) override;
  std::string hardware(std::size_t smxs) const override;
  // The TB group an SMX's registers hold is issued there.
  bool holds_tbs_for(std::size_t smx) const override {
    return smx < m_regs.size() && m_regs[smx].waiting() > 0;
  }

  // Statistics. jit: the work of PAVER's JIT pass, whose time the thesis adds to kernel time
  // (§3.5).
  std::uint64_t steals = 0, stolen_tbs = 0, next_tb_stalls = 0, groups_made = 0;
  paver::jit_work jit;

 protected:
  struct smx_registers {
    paver::group tbs;            // the TB group being issued (the global queue's array)
    std::uint32_t next = 0;      // `next`
    std::uint32_t tail = 0;      // `tail`, one past the end
    std::uint64_t ready_at = 0;  // `nextTB` holds TBgroup[next] from then on
    std::uint32_t waiting() const { return tail - next; }
  };
  void start_kernel(tb_scheduler_view& v, std::size_t entry);
  bool take_group(std::size_t smx, std::uint64_t now);
  bool steal_for(std::size_t smx, std::uint64_t now);

  grouping m_grouping;
  bool m_stealing;
  std::uint64_t m_latency;
  std::uint32_t m_granularity;  // bytes per data reference of the locality graph
  std::unique_ptr<tb_policy> m_others;  // aggregated groups and kernels without native TBs
  bool m_active = false;
  std::uint32_t m_kernel = 0;        // the kernel whose groups the registers hold
  std::deque<paver::group> m_queue;  // the global queue
  std::vector<smx_registers> m_regs;
  std::size_t m_next_smx = 0;
};

// LaPerm (Wang thesis ch. 5). Priority of a source = min(depth, L): host kernels 0, a
// child its parent's + 1. Within a level, FCFS.
//   tb_pri         every cycle the highest-priority source whose TB fits somewhere goes to
//                  the first SMX round robin that has room (the baseline's SMX order).
//   smx_bind       priority levels 1..L are queued per bound unit (the parent's SMX, or its
//                  L1 cluster); level 0 is one shared queue (PQ0). One SMX is examined per
//                  cycle, round robin: its unit's queues first, highest level first, then
//                  PQ0.
//   adaptive_bind  as smx_bind; an SMX whose unit's queues and PQ0 are empty takes the
//                  highest-priority TB of its backup unit (a register it keeps until that
//                  unit's queues are empty; a new one is the next non-empty unit after its
//                  own).
class laperm_policy : public tb_policy {
 public:
  enum class mode { tb_pri, smx_bind, adaptive_bind };
  struct params {
    std::uint32_t levels = 4;            // L
    std::uint32_t cluster = 1;           // SMXs sharing an L1 (bound unit)
    std::uint32_t onchip_entries = 128;  // per SMX, levels 1..L (24 B each)
    std::uint32_t shared_entries = 32;   // PQ0 (24 B each)
  };
  laperm_policy(mode m, params p) : m_mode(m), m_p(p) {}
  tb_choice pick(tb_scheduler_view& v) override;
  std::uint64_t source_added(tb_scheduler_view& v, const tb_source& s) override;
  std::string hardware(std::size_t smxs) const override;
  std::string pending() const override;
  bool holds_tbs_for(std::size_t smx) const override;

  std::uint32_t priority(std::uint32_t depth) const { return std::min(depth, m_p.levels); }

  // Statistics.
  std::uint64_t bound_tbs = 0;    // TBs dispatched from an SMX's own bound queues
  std::uint64_t backup_tbs = 0;   // Adaptive-Bind: TBs taken from a backup unit
  std::uint64_t overflowed = 0;   // sources queued beyond the on-chip entries
  std::uint64_t scan_cycles = 0;  // cycles spent examining SMXs with nothing to take

 protected:
  struct queued {
    tb_source src;
    std::uint32_t left = 0;  // TBs not yet dispatched
  };
  using level_queues = std::vector<std::deque<queued>>;  // index = priority
  // Where a source sits: its queue and position (queue null: none).
  struct slot {
    std::deque<queued>* queue = nullptr;
    std::size_t index = 0;
    explicit operator bool() const { return queue != nullptr; }
    queued& operator*() const { return (*queue)[index]; }
  };
  // The first source of `qs` (levels hi..lo) that is ready and fits SMX s (or any SMX when
  // s < 0, then *smx_out the SMX). Kernels are taken past one another (as the baseline
  // takes KDEs); aggregated groups leave a queue in order: only its first group is a
  // candidate (and only its record is fetched from global memory).
  slot find(tb_scheduler_view& v, level_queues& qs, std::uint32_t lo, std::uint32_t hi, int s,
            int* smx_out);
  bool empty(const level_queues& qs, std::uint32_t lo, std::uint32_t hi) const;
  // The next TB of the source at `q` to SMX `smx`; the source leaves its queue with its last.
  tb_choice take(tb_scheduler_view& v, slot q, int smx);
  int select(tb_scheduler_view& v, std::size_t s, slot* q);
  std::size_t unit_of(std::size_t smx) const { return smx / m_p.cluster; }
  std::size_t units(std::size_t smxs) const { return (smxs + m_p.cluster - 1) / m_p.cluster; }

  mode m_mode;
  params m_p;
  level_queues m_global;                // TB-Pri: every level; Bind: PQ0 only
  std::vector<level_queues> m_bound;    // Bind: per unit, levels 1..L
  std::vector<std::uint32_t> m_backup;  // Adaptive-Bind: per SMX, its backup unit
  std::size_t m_next_smx = 0;
  std::uint64_t m_scan_due = 0;  // Bind: the SMX at m_next_smx is examined at this cycle
  std::vector<int> m_unfit;      // find(): entries whose TB fits nowhere (kept: no allocation)
};

// The policy named `name` ("lrr", "bcs", "mst_ts", "kway_ts", "rb_ts", "tb_pri",
// "smx_bind", "adaptive_bind") with the parameters given, outside any block (tests; a
// policy's fallback for the kernels it does not place).
std::unique_ptr<tb_policy> make_tb_policy(const std::string& name, const std::string& tb_selection,
                                          const std::string& smx_selection, bool task_stealing,
                                          std::uint64_t next_tb_latency,
                                          const laperm_policy::params& laperm = {});

}  // namespace gputlm::control
