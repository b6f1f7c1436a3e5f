// L1 data cache of one SMX, banked, with its MSHR table and miss queue. Parameters follow
// GPGPU-Sim's -gpgpu_cache:dl1 string and the -gpgpu_l1_* options
// (../shared/reference/platforms.md §2, §3.2). Sockets: `core` (target) from the SMX's
// LDST unit; `icnt` (initiator) towards the interconnect.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/memory/cache_config.h"

namespace gputlm::memory {

class l1_cache : public component {
 public:
  l1_cache(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_target_socket<l1_cache> core{"core"};
  tlm_utils::simple_initiator_socket<l1_cache> icnt{"icnt"};

 private:
  cache_config m_cache{*this};
  param<std::uint64_t> m_banks{*this, "banks", 1, "data banks"};
  param<bytes> m_bank_interleave{*this, "bank_interleave", {32}, "bytes per bank before the next"};
  param<cycles> m_hit_latency{*this, "hit_latency", {1}, "hit latency"};
  param<bool> m_bypass_global_loads{*this, "bypass_global_loads", false,
                                    "global loads skip L1 (-gpgpu_gmem_skip_L1D)"};
  param<bool> m_flush_at_kernel_end{*this, "flush_at_kernel_end", true,
                                    "invalidate at each kernel's end"};
  param<std::uint64_t> m_dirty_line_cap{*this, "dirty_line_cap", 0,
                                        "% of lines that may be dirty before they become victims"};
  param<bytes> m_unified_size{*this, "unified_size", {0},
                              "unified L1+shared array (0: not unified)"};
  list_param m_shared_carveouts{*this, "shared_carveouts_kib", {},
                                "shared-memory carve-outs in KiB (adaptive L1)"};
};

}  // namespace gputlm::memory
