// L2 bank of one memory sub-partition: the cache with its MSHRs, the ROP delay before the
// lookup, and the four sub-partition queues (icnt->L2, L2->DRAM, DRAM->L2, L2->icnt) that
// GPGPU-Sim sizes with -gpgpu_dram_partition_queues (../shared/reference/platforms.md §2).
// Sockets: `icnt` (target) from the interconnect; `dram` (initiator) to the channel.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/memory/cache_config.h"

namespace gputlm::memory {

class l2_cache : public component {
 public:
  l2_cache(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_target_socket<l2_cache> icnt{"icnt"};
  tlm_utils::simple_initiator_socket<l2_cache> dram{"dram"};

 private:
  cache_config m_cache{*this};
  param<cycles> m_rop_latency{*this, "rop_latency", {120}, "delay before the L2 lookup"};
  param<cycles> m_dram_latency{*this, "dram_latency", {100},
                               "fixed delay from the L2->DRAM queue to the DRAM scheduler"};
  param<std::uint64_t> m_icnt_to_l2_queue{*this, "icnt_to_l2_queue", 8, "entries"};
  param<std::uint64_t> m_l2_to_dram_queue{*this, "l2_to_dram_queue", 8, "entries"};
  param<std::uint64_t> m_dram_to_l2_queue{*this, "dram_to_l2_queue", 8, "entries"};
  param<std::uint64_t> m_l2_to_icnt_queue{*this, "l2_to_icnt_queue", 8, "entries"};
  param<bool> m_warm_from_memcpy{*this, "warm_from_memcpy", false,
                                 "MemcpyHtoD commands fill the copied lines (Accel-Sim: off)"};
};

}  // namespace gputlm::memory
