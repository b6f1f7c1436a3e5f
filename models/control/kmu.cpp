#include "models/control/kmu.h"

namespace gputlm::control {

kmu::kmu(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
  declare_socket("kd", kd);
}

void kmu::validate() { m_hw_queues.require(*m_hw_queues >= 1, "needs at least one hardware queue"); }

}  // namespace gputlm::control
