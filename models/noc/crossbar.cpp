#include "models/noc/crossbar.h"

namespace gputlm::noc {

crossbar::crossbar(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  for (std::uint64_t i = 0; i < *m_smx_ports; ++i) {
    smx.push_back(std::make_unique<target_type>(("smx_" + std::to_string(i)).c_str()));
    declare_socket("smx[" + std::to_string(i) + "]", *smx.back());
  }
  for (std::uint64_t j = 0; j < *m_mem_ports; ++j) {
    mem.push_back(std::make_unique<initiator_type>(("mem_" + std::to_string(j)).c_str()));
    declare_socket("mem[" + std::to_string(j) + "]", *mem.back());
  }
}

void crossbar::validate() {
  m_smx_ports.require(*m_smx_ports >= 1, "must be at least 1");
  m_mem_ports.require(*m_mem_ports >= 1, "must be at least 1");
  m_flit_size.require(*m_flit_size >= 8, "must hold at least the 8 B packet header");
  m_subnets.require(*m_subnets == 1 || *m_subnets == 2, "must be 1 or 2");
  m_vcs.require(*m_vcs >= 1, "must be at least 1");
  m_vc_buffer.require(*m_vc_buffer >= 1, "must be at least 1");
  m_internal_speedup.require(*m_internal_speedup > 0, "must be positive");
  m_partition_interleave.require(
      *m_partition_interleave >= 32 && (*m_partition_interleave & (*m_partition_interleave - 1)) == 0,
      "must be a power of two of at least 32 B");
}

}  // namespace gputlm::noc
