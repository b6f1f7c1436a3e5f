// The order in which the KMU sends device-launched kernels from its launch pool to the
// Kernel Distributor (DTBL thesis §2.2 step 4; LaPerm's KMU extension, §5.2.5 and
// docs/tb-scheduling.md):
//   fifo       launch order (the baseline);
//   priority   TB-Pri: the eligible kernel of the highest priority min(depth, L), FCFS
//              among equals;
//   smx_bound  SMX-Bind: the pool's SMX-bound queues examined round robin, one SMX per
//              cycle; the examined SMX's highest-priority eligible kernel goes.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

namespace gputlm::control {

// A device kernel in the launch pool.
struct pending_launch {
  std::uint32_t kernel = 0;          // workload index
  std::uint64_t eligible_cycle = 0;  // may go to the KD from this cycle on
  std::uint32_t depth = 0;           // launch nesting (1 for a host kernel's child)
  std::uint32_t launch_smx = 0;      // the SMX of the launching TB
};

class launch_pool_order {
 public:
  enum class order { fifo, priority, smx_bound };
  // `name`: "fifo", "priority" or "smx_bound" (std::invalid_argument otherwise).
  launch_pool_order(const std::string& name, std::uint32_t levels, std::size_t smxs);

  order what() const { return m_order; }
  // The first cycle a kernel of `pool` may go (fifo: its head's).
  std::uint64_t earliest(const std::deque<pending_launch>& pool) const;
  // The index of the kernel to send at `now` (some kernel is eligible: now >= earliest()).
  // With smx_bound, *scan is the cycles spent reaching the next SMX with an eligible
  // kernel (0 when it is the one examined now): ask again after them.
  std::size_t pick(const std::deque<pending_launch>& pool, std::uint64_t now, std::uint64_t* scan);

 private:
  order m_order;
  std::uint32_t m_levels;
  std::size_t m_smxs;
  std::size_t m_scan_smx = 0;  // the SMX-bound queue examined next
};

}  // namespace gputlm::control
