#include "models/core/smx_power.h"

namespace gputlm::core {

smx_power::smx_power(component& owner, std::uint64_t register_file_bytes,
                     std::uint32_t register_banks)
    : m_fetch_decode(owner.declare_power("fetch_decode", {"fetch"})),
      m_scheduler(owner.declare_power("scheduler", {"issue"})),
      m_register_file(owner.declare_power("register_file", {"read", "write"}, register_file_bytes,
                                          register_banks)),
      m_collector(owner.declare_power("operand_collector", {"collect"})),
      m_shared(owner.declare_power("shared_memory", {"access"})) {
  static const char* const names[pipes] = {"sp", "sfu", "dp", "int", "tensor", "branch", "ldst"};
  for (std::size_t p = 0; p < pipes; ++p) m_pipe[p] = &owner.declare_power(names[p], {"op"});
}

}  // namespace gputlm::core
