// The SPU's global block sync (global_sync.h).
#include "models/spu/global_sync.h"

#include "models/common/block_factory.h"


namespace gputlm::spu {

global_sync::global_sync(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  // One socket per unit, as many as the platform binds.
  m_units = bound_array("unit", 1, 4096);
  for (std::uint64_t i = 0; i < m_units; ++i) {
    unit.push_back(std::make_unique<socket_type>(("unit_" + std::to_string(i)).c_str()));
    unit.back()->register_nb_transport_fw(this, &global_sync::arrive, static_cast<int>(i));
    declare_socket("unit[" + std::to_string(i) + "]", *unit.back());
  }
  for (std::uint64_t i = 0; i < bound_count("link"); ++i) {
    const std::string n = "link[" + std::to_string(i) + "]";
    link.push_back(std::make_unique<required_port<link_swap>>(("link_" + std::to_string(i)).c_str()));
    declare_port(n, *link.back());
  }
  control.bind(*this);
  declare_export("control", control);
  m_active = m_units;
  m_waiting.assign(m_units, nullptr);
  m_since.assign(m_units, 0);
  add_stat("barriers", m_barriers, "global barriers completed (each swapped every link)");
  add_stat("wait_cycles", m_wait_cycles, "cycles units waited at the barrier, summed");
}

void global_sync::validate() {
  m_sync_latency.require(m_sync_latency->value <= cycles::max_latency,
                         "must be at most " + units::format_cycles(cycles::max_latency));
}

void global_sync::set_active(std::size_t n) { m_active = std::min<std::size_t>(n, m_units); }

tlm::tlm_sync_enum global_sync::arrive(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP
  const std::size_t me = static_cast<std::size_t>(id);
  const std::uint64_t now = clock().now_cycle();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (++m_arrived < m_active) {
    m_waiting[me] = &gp;
    m_since[me] = now;
    return tlm::TLM_ACCEPTED;
  }
  // The last active unit: every link swaps, everyone goes in the same cycle.
  m_arrived = 0;
  ++m_barriers;
  for (const auto& l : link) (*l)->swap();
  const sc_core::sc_time release = clock().delay_cycles(m_sync_latency->value);
  for (std::size_t u = 0; u < m_waiting.size(); ++u) {
    tlm::tlm_generic_payload* w = m_waiting[u];
    if (!w) continue;
    m_waiting[u] = nullptr;
    m_wait_cycles += now - m_since[u];
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_core::sc_time d = release;
    (*unit[u])->nb_transport_bw(*w, p, d);
  }
  phase = tlm::BEGIN_RESP;
  delay += release;
  return tlm::TLM_COMPLETED;
}

std::string global_sync::pending_work() const {
  if (m_arrived == 0) return {};
  std::string waiting;
  for (std::size_t u = 0; u < m_waiting.size(); ++u)
    if (m_waiting[u])
      waiting += (waiting.empty() ? "" : ", ") + std::string("unit[") + std::to_string(u) + "]";
  return std::to_string(m_arrived) + " of " + std::to_string(m_active) +
         " active units at barrier " + std::to_string(m_barriers.value() + 1) + " (" + waiting +
         " waiting)";
}

GPUTLM_BLOCK("global_sync", global_sync, "SPU: the global block sync (BAR.BLOCKSYNC)", {});

}  // namespace gputlm::spu
