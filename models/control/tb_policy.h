// Thread-block scheduling policies of the SMX scheduler (docs/tb-scheduling.md): a policy
// decides which TB (a kernel entry, and for native TBs which TB id) goes to which SMX,
// seeing the scheduler's resource table and KDEs through tb_scheduler_view. Chosen by name
// (`tb_scheduler.policy`):
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
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/control/control_registers.h"
#include "models/control/dispatch_policies.h"
#include "models/control/locality_partition.h"

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
  // The locality graph of entry i's kernel (built or taken from its cache once).
  virtual const paver::graph& locality_graph(std::size_t entry) = 0;
  virtual std::uint64_t now() const = 0;
};

// A policy's decision: entry < 0 when nothing goes now (then retry_at > now asks to be
// woken then, 0 to wait for the next event). `tb` is the native TB id to dispatch, or
// none_tb for the next one in order (the KD's NextBL, or the group's next TB).
struct tb_choice {
  static constexpr std::uint32_t none_tb = 0xffffffffu;
  int entry = -1;
  int smx = -1;
  std::uint32_t tb = none_tb;
  std::uint64_t retry_at = 0;
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
  // The hardware the policy adds, for `gputlm elaborate` ("" for none).
  virtual std::string hardware(std::size_t smxs) const {
    (void)smxs;
    return {};
  }
};

// LRR: `tb_selection` picks the entry among those whose next TB fits somewhere,
// `smx_selection` the SMX.
class lrr_policy : public tb_policy {
 public:
  lrr_policy(std::unique_ptr<tb_selection_policy> tbs, std::unique_ptr<smx_selection_policy> smxs)
      : m_tbs(std::move(tbs)), m_smxs(std::move(smxs)) {}
  tb_choice pick(tb_scheduler_view& v) override;

 private:
  std::unique_ptr<tb_selection_policy> m_tbs;
  std::unique_ptr<smx_selection_policy> m_smxs;
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
               std::unique_ptr<tb_policy> others)
      : m_grouping(g),
        m_stealing(task_stealing),
        m_latency(next_tb_latency),
        m_others(std::move(others)) {}
  tb_choice pick(tb_scheduler_view& v) override;
  std::string hardware(std::size_t smxs) const override;

  // Statistics.
  std::uint64_t steals = 0, stolen_tbs = 0, next_tb_stalls = 0, groups_made = 0;

 private:
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
  std::unique_ptr<tb_policy> m_others;  // aggregated groups and kernels without native TBs
  bool m_active = false;
  std::uint32_t m_kernel = 0;        // the kernel whose groups the registers hold
  std::deque<paver::group> m_queue;  // the global queue
  std::vector<smx_registers> m_regs;
  std::size_t m_next_smx = 0;
};

// The policy named `name` ("lrr", "bcs", "mst_ts", "kway_ts", "rb_ts").
std::unique_ptr<tb_policy> make_tb_policy(const std::string& name, const std::string& tb_selection,
                                          const std::string& smx_selection, bool task_stealing,
                                          std::uint64_t next_tb_latency);

}  // namespace gputlm::control
