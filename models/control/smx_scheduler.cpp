#include "models/control/smx_scheduler.h"

namespace gputlm::control {

smx_scheduler::smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("kd", kd);
  for (std::uint64_t i = 0; i < *m_smxs; ++i) {
    std::string n = "smx[" + std::to_string(i) + "]";
    smx.push_back(std::make_unique<socket_type>(("smx_" + std::to_string(i)).c_str()));
    declare_socket(n, *smx.back());
  }
}

void smx_scheduler::validate() { m_smxs.require(*m_smxs >= 1, "serves at least one SMX"); }

}  // namespace gputlm::control
