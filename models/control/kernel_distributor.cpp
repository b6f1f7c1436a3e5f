#include "models/control/kernel_distributor.h"

namespace gputlm::control {

kernel_distributor::kernel_distributor(const sc_core::sc_module_name& name,
                                       const block_context& ctx)
    : component(name, ctx) {
  declare_socket("kmu", kmu);
  declare_socket("scheduler", scheduler);
}

void kernel_distributor::validate() {
  m_entries.require(*m_entries >= 1, "needs at least one entry");
}

}  // namespace gputlm::control
