#include "models/core/smx.h"

#include <algorithm>

namespace gputlm::core {

unit_params::unit_params(component& c, const char* prefix, std::uint64_t n, std::uint64_t latency,
                         std::uint64_t initiation)
    : count(c, key(prefix, "units").c_str(), n, "units of this class"),
      latency(c, key(prefix, "latency").c_str(), {latency}, "result latency"),
      initiation(c, key(prefix, "initiation").c_str(), {initiation},
                 "cycles between issues to one unit") {}

smx::smx(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
  declare_socket("tbcr", tbcr);
  declare_socket("ldst", ldst);
}

void smx::validate() {
  m_warp_size.require(*m_warp_size == 32, "traces are recorded for 32-lane warps");
  m_max_threads.require(*m_max_threads >= *m_warp_size && *m_max_threads % *m_warp_size == 0,
                        "must be a positive multiple of warp_size (" +
                            std::to_string(*m_warp_size) + ")");
  m_max_tbs.require(*m_max_tbs >= 1, "must be at least 1");
  m_registers.require(*m_registers >= 1, "must be at least 1");
  m_max_shared_memory_per_tb.require(*m_max_shared_memory_per_tb <= *m_shared_memory,
                                     "exceeds shared_memory");
  m_shared_memory_banks.require(*m_shared_memory_banks >= 1, "must be at least 1");
  m_warp_schedulers.require(*m_warp_schedulers >= 1, "must be at least 1");
  m_max_issue_per_warp.require(*m_max_issue_per_warp >= 1, "must be at least 1");
  m_register_banks.require(*m_register_banks >= 1, "must be at least 1");
  m_sp.count.require(*m_sp.count >= 1, "an SMX needs at least one SP unit");
  m_sfu.count.require(*m_sfu.count >= 1, "an SMX needs at least one SFU (it also runs DP when dp_units is 0)");
  m_ldst_units.require(*m_ldst_units >= 1, "must be at least 1");
  for (const unit_params* u : {&m_sp, &m_sfu, &m_dp, &m_int, &m_tensor, &m_branch})
    u->initiation.require(*u->initiation >= 1, "initiation interval must be at least 1 cycle");
  m_pipeline_widths.require(m_pipeline_widths->size() == 11 || m_pipeline_widths->size() == 13,
                            "needs 11 entries (13 with tensor ID_OC, OC_EX)");
  const std::uint64_t archs[] = {20, 35, 60, 61, 70};
  m_coalescing_arch.require(std::find(std::begin(archs), std::end(archs), *m_coalescing_arch) !=
                                std::end(archs),
                            "must be one of 20, 35, 60, 61, 70");
}

}  // namespace gputlm::core
