#include "models/core/smx_power.h"

namespace gputlm::core {

smx_power::smx_power(component& owner, std::uint64_t register_file_bytes,
                     std::uint32_t register_banks) {
  owner.declare_power("fetch_decode", {"fetch"}).bind_counters(&m_n.fetch);
  owner.declare_power("scheduler", {"issue"}).bind_counters(&m_n.issue);
  owner.declare_power("register_file", {"read", "write"}, register_file_bytes, register_banks)
      .bind_counters(m_n.register_file);
  owner.declare_power("operand_collector", {"collect"}).bind_counters(&m_n.collect);
  owner.declare_power("shared_memory", {"access"}).bind_counters(&m_n.shared);
  static const char* const names[pipes] = {"sp", "sfu", "dp", "int", "tensor", "branch", "ldst"};
  for (std::size_t p = 0; p < pipes; ++p) {
    m_pipe_component[p] = &owner.declare_power(names[p], {"op"});
    m_pipe_component[p]->bind_counters(&m_n.pipe[p]);
  }
}

}  // namespace gputlm::core
