#include "models/common/component.h"

#include <algorithm>

namespace gputlm {

component::component(const sc_core::sc_module_name& name, const block_context& ctx)
    : sc_core::sc_module(name), m_config(ctx.config), m_clock(ctx.clock), m_stats(ctx.stats), m_work(ctx.work) {}

void component::declare_socket(const std::string& name, initiator_socket_base& s) {
  m_sockets.push_back({name, &s, nullptr});
}

void component::declare_socket(const std::string& name, target_socket_base& s) {
  m_sockets.push_back({name, nullptr, &s});
}

}  // namespace gputlm
