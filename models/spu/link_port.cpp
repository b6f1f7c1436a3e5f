// An SPU SM's neighbour path (link_port.h).
#include "models/spu/link_port.h"

#include "models/common/block_factory.h"

#include <cstring>

#include "models/base/input_error.h"
#include "models/spu/communication_buffer.h"

namespace gputlm::spu {

namespace {
constexpr const char* k_names[] = {"north", "west", "east", "south", "global"};
constexpr const char* k_ops[] = {".NORTH", ".WEST", ".EAST", ".SOUTH", ""};
}  // namespace

link_port::link_port(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  core.bind(*this);
  declare_export("core", core);
  declare_port("sm", sm);
  for (int i = 0; i < links; ++i) {
    data[i] = std::make_unique<data_socket>(k_names[i]);
    declare_socket(k_names[i], *data[i]);
  }
  for (int i = 0; i <= links; ++i) {
    const std::string n = std::string(k_names[i]) + "_sync";
    sync[i] = std::make_unique<sync_socket>(n.c_str());
    sync[i]->register_nb_transport_bw(this, &link_port::sync_bw, i);
    declare_socket(n, *sync[i]);
  }
  declare_socket("unit_cb", unit_cb);
  declare_socket("unit_sync", unit_sync);
  declare_socket("unit_global", unit_global);
  unit_cb.register_b_transport(this, &link_port::unit_b);
  unit_cb.register_transport_dbg(this, &link_port::unit_dbg);
  unit_sync.register_nb_transport_fw(this, &link_port::unit_fw, 0);
  unit_global.register_nb_transport_fw(this, &link_port::unit_fw, 1);
  add_stat("sync_wait_cycles", m_wait_cycles,
           "cycles the SM's TB waited at BAR.BLOCKSYNC (all directions)");
  m_wake.bind<link_port, &link_port::run>(this, clock(), edge_stage::deliver);
}

void link_port::validate_bound() {
  // Each link names this SM at its end (the SM: the block this path belongs to).
  const std::string self = name();
  const std::string sm_name = self.substr(0, self.rfind('.'));
  for (auto& d : data) communication_buffer::name_end(*d->operator->(), sm_name);
}

int link_port::index_of(traces::direction d) {
  switch (d) {
    case traces::direction::north:
      return 0;
    case traces::direction::west:
      return 1;
    case traces::direction::east:
      return 2;
    case traces::direction::south:
      return 3;
    case traces::direction::global:
      return global;
    default:
      return -1;
  }
}

std::uint64_t link_port::cb_access(traces::direction d, bool push, std::uint32_t bytes) {
  const int i = index_of(d);
  m_access.set_command(push ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  m_access.set_address(0);
  m_access.set_data_ptr(nullptr);
  m_access.set_data_length(bytes);
  m_access.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*data[i])->b_transport(m_access, delay);
  return clock().cycles_in(delay);
}

void link_port::block_sync(traces::direction d, std::uint32_t slot) {
  const int i = index_of(d);
  m_slot[i] = slot;
  sc_core::sc_time delay;
  const std::uint64_t now = clock().now_cycle();
  if (m_arrival[i].arrive(*(*sync[i]).operator->(), now, delay))
    release(i, now + clock().cycles_in(delay));
}

void link_port::unit_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  (*data[std::size_t(m_acting)])->b_transport(gp, delay);
}

unsigned link_port::unit_dbg(tlm::tlm_generic_payload& gp) {
  // The link select register; the unit's name (address 0) is the SM's, already given.
  if (!gp.is_write() || gp.get_address() != select_register || gp.get_data_length() != 4) return 0;
  std::uint32_t link = 0;
  std::memcpy(&link, gp.get_data_ptr(), 4);
  m_acting = link == 0 ? 0 : 1;
  return 4;
}

tlm::tlm_sync_enum link_port::unit_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                      sc_core::sc_time& delay) {
  const int i = id == 0 ? m_acting : global;
  const tlm::tlm_sync_enum r = (*sync[std::size_t(i)])->nb_transport_fw(gp, ph, delay);
  m_unit_waiting[std::size_t(i)] = r != tlm::TLM_COMPLETED;
  return r;
}

tlm::tlm_sync_enum link_port::sync_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                      sc_core::sc_time& delay) {
  if (m_unit_waiting[std::size_t(id)]) {  // the SM's unit's sync: its release, passed on
    m_unit_waiting[std::size_t(id)] = false;
    return (id == global ? unit_global : unit_sync)->nb_transport_bw(gp, ph, delay);
  }
  if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  m_arrival[id].released();
  // Released from the other unit's call: the TB goes on from the next cycle.
  release(id, clock().now_cycle() + 1 + clock().cycles_in(delay));
  return tlm::TLM_COMPLETED;
}

void link_port::release(int id, std::uint64_t at) {
  m_wait_cycles += clock().now_cycle() - m_arrival[id].since;
  if (at <= clock().now_cycle()) {
    sm->block_sync_released(m_slot[id]);
    return;
  }
  m_releasing[id] = true;
  m_release_at[id] = at;
  m_wake.at(at);
}

void link_port::run() {
  m_wake.fired();
  const std::uint64_t now = clock().now_cycle();
  std::uint64_t next = ~std::uint64_t(0);
  for (int i = 0; i <= links; ++i) {
    if (!m_releasing[i]) continue;
    if (m_release_at[i] <= now) {
      m_releasing[i] = false;
      sm->block_sync_released(m_slot[i]);
    } else {
      next = std::min(next, m_release_at[i]);
    }
  }
  if (next != ~std::uint64_t(0)) m_wake.at(next);
}

std::string link_port::pending_work() const {
  std::string s;
  for (int i = 0; i <= links; ++i)
    if (m_arrival[i].waiting)
      s += std::string(s.empty() ? "" : ", ") + "waits at BAR.BLOCKSYNC" + k_ops[i] +
           " since cycle " + std::to_string(m_arrival[i].since);
  return s;
}

GPUTLM_BLOCK("spu_link_port", link_port, "SPU: an SM's path to its links and block syncs", {});

}  // namespace gputlm::spu
