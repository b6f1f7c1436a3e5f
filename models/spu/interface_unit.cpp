// An SPU interface unit (interface_unit.h).
#include "models/spu/interface_unit.h"

#include "models/common/block_factory.h"

#include "models/memory/sectors.h"
#include "models/power/power_component.h"
#include "models/spu/communication_buffer.h"

namespace gputlm::spu {

const char* purpose_name(interface_unit::purpose p) {
  switch (p) {
    case interface_unit::purpose::load:
      return "load";
    case interface_unit::purpose::store:
      return "store";
    case interface_unit::purpose::spill:
      return "spill";
    default:
      return "restore";
  }
}

interface_unit::interface_unit(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  control.bind(*this);
  declare_export("control", control);
  declare_socket("mem", mem);
  declare_socket("cb", cb);
  declare_socket("cb_sync", cb_sync);
  declare_socket("global_sync", global_sync);
  mem.register_nb_transport_bw(this, &interface_unit::mem_bw);
  cb_sync.register_nb_transport_bw(this, &interface_unit::sync_bw, 0);
  global_sync.register_nb_transport_bw(this, &interface_unit::sync_bw, 1);
  m_down.bind(mem);
  m_lane = index_in_name(this->name());
  for (std::size_t p = 0; p < m_faces.size(); ++p) {
    const std::string n = purpose_name(purpose(p));
    add_stat("faces_" + n, m_faces[p], "faces moved to " + n);
    add_stat("bytes_" + n, m_bytes[p], "bytes moved between memory and the unit to " + n);
  }
  add_stat("requests", m_requests, "memory requests sent");
  add_stat("cb_accesses", m_cb_accesses, "warp-wide accesses to its link's buffer");
  add_stat("sync_wait_cycles", m_sync_wait, "cycles waited at the link's sync or the barrier");
  add_stat("busy_cycles", m_busy_cycles, "cycles from its program's start to its end");
  // Both builds are in the table; the one the unit is not stays off (static 0).
  for (const char* impl : {"truncated_sm", "dma"}) {
    pm::power_component& c = declare_power(impl, {"request", "cb_access", "sync"});
    if (*m_implementation == impl) {
      m_power = &c;
      continue;
    }
    if (!m_power && *m_implementation == "sm") m_power = &c;  // (its events, not its leakage)
    const auto& states = c.states();
    for (std::uint32_t i = 0; i < states.size(); ++i)
      if (states[i].name == "off" && states[i].static_watts == 0) c.start_in(i);
  }
  m_wake.bind<interface_unit, &interface_unit::run>(this, clock(), edge_stage::deliver);
}

void interface_unit::validate() {
  m_side_value = *m_side == "north"   ? side::north
                 : *m_side == "east"  ? side::east
                 : *m_side == "south" ? side::south
                                      : side::west;
  m_outstanding.require(*m_outstanding >= 1 && *m_outstanding <= 4096, "must be 1..4096");
  m_request_size.require(m_request_size->value >= 4 &&
                             m_request_size->value <= payload_pool::max_bytes &&
                             (m_request_size->value & (m_request_size->value - 1)) == 0,
                         "must be a power of two from 4 to 128 bytes");
}

void interface_unit::validate_bound() { communication_buffer::name_end(*cb.operator->(), name()); }

void interface_unit::run_program(std::vector<op> ops) {
  m_ops = std::move(ops);
  m_pc = 0;
  m_sent = m_in_flight = 0;
  m_busy_until = m_started = clock().now_cycle();
  m_finished = false;
  m_wake.at(clock().now_cycle());
}

void interface_unit::poke() {
  if (!idle()) m_wake.at(clock().now_cycle() + 1);
}

void interface_unit::done_op() {
  ++m_pc;
  m_sent = 0;
  m_sync_sent = m_sync_done = false;
}

void interface_unit::run() {
  m_wake.fired();
  const std::uint64_t now = clock().now_cycle();
  while (m_pc < m_ops.size()) {
    if (now < m_busy_until) {
      m_wake.at(m_busy_until);
      return;
    }
    if (!step(now)) return;
  }
  if (m_finished) return;
  m_finished = true;
  m_busy_cycles += now - m_started;
  if (m_runtime) m_runtime->unit_finished(*this);
}

bool interface_unit::step(std::uint64_t now) {
  const op& o = m_ops[m_pc];
  switch (o.what) {
    case op::read_face:
    case op::write_face:
      return transfer(o, now);
    case op::push:
    case op::pop: {
      tlm::tlm_generic_payload gp;
      gp.set_command(o.what == op::push ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp.set_data_length(o.row_bytes);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      cb->b_transport(gp, delay);
      ++m_cb_accesses;
      m_power->record(1);
      const std::uint64_t cycles = clock().cycles_in(delay);
      m_busy_until = now + cycles;
      done_op();
      return true;
    }
    case op::link_sync:
    case op::global_sync:
      return sync(o, now);
    case op::wait_spills:
      if (m_runtime->spill_count(o.tag) < o.count) return false;  // poke() when it grows
      done_op();
      return true;
    case op::spilled:
      done_op();
      m_runtime->add_spill(o.tag);
      return true;
    case op::wait_pass:
      if (!m_runtime->pass_started(o.count)) return false;  // poke() at the pass's start
      done_op();
      return true;
    case op::select_link: {
      std::uint32_t link = o.count;
      tlm::tlm_generic_payload gp;
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(1);  // link_port::select_register
      gp.set_data_ptr(reinterpret_cast<unsigned char*>(&link));
      gp.set_data_length(4);
      cb->transport_dbg(gp);
      done_op();
      return true;
    }
    case op::wait_turn:
      if (!m_runtime->sm_turn(*this, o.count)) return false;  // poke() when a CTA exits
      done_op();
      return true;
    case op::pass_done:
      done_op();
      m_runtime->unit_pass_done(*this, o.count);
      return true;
  }
  return true;
}

bool interface_unit::transfer(const op& o, std::uint64_t now) {
  const std::uint32_t chunk = static_cast<std::uint32_t>(m_request_size->value);
  const std::uint32_t per_row = (o.row_bytes + chunk - 1) / chunk;
  const std::uint32_t total = o.rows * per_row;
  while (m_sent < total) {
    if (m_down.busy()) return false;                  // END_REQ wakes it
    if (m_in_flight >= *m_outstanding) return false;  // a response wakes it
    if (now < m_next_send) {
      m_wake.at(m_next_send);
      return false;
    }
    const std::uint32_t row = m_sent / per_row, part = m_sent % per_row;
    const std::uint32_t len = std::min(chunk, o.row_bytes - part * chunk);
    const bool write = o.what == op::write_face;
    tlm::tlm_generic_payload& gp =
        m_pool.acquire(o.addr + row * o.stride + std::uint64_t(part) * chunk, len,
                       write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    mem_request& r = payload_pool::request(gp);
    r.kind = write ? access_kind::global_store : access_kind::global_load;
    r.kernel = m_kernel;
    r.lane_mask = ~0u;
    r.sector_mask = memory::sectors_of(gp, 128);
    r.issue_time_fs = now_fs();
    r.origin = this;
    ++m_sent;
    ++m_in_flight;
    ++m_requests;
    m_power->record(0);
    m_bytes[std::size_t(o.why)] += len;
    m_next_send = now + 1;
    m_down.send(gp);
  }
  if (m_in_flight > 0) return false;  // the last response wakes it
  ++m_faces[std::size_t(o.why)];
  done_op();
  return true;
}

bool interface_unit::sync(const op& o, std::uint64_t now) {
  const int which = o.what == op::link_sync ? 0 : 1;
  if (m_sync_done) {
    done_op();
    return true;
  }
  if (m_sync_sent) return false;  // BEGIN_RESP wakes it
  m_sync_sent = true;
  m_power->record(2);
  sc_core::sc_time delay;
  auto& socket = which == 0 ? cb_sync : global_sync;
  if (!m_sync[which].arrive(*socket.operator->(), now, delay)) return false;
  // Released in the call: the unit goes on in the next cycle, as every released unit does.
  m_busy_until = now + 1 + clock().cycles_in(delay);
  done_op();
  return true;
}

tlm::tlm_sync_enum interface_unit::sync_bw(int id, tlm::tlm_generic_payload&, tlm::tlm_phase& ph,
                                           sc_core::sc_time& delay) {
  if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  const std::uint64_t now = clock().now_cycle();
  m_sync[std::size_t(id)].released();
  m_sync_wait += now - m_sync[std::size_t(id)].since;
  m_sync_done = true;
  m_busy_until = now + 1 + clock().cycles_in(delay);
  m_wake.at(m_busy_until);
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum interface_unit::mem_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                          sc_core::sc_time&) {
  m_down.end_req(gp);
  if (ph == tlm::BEGIN_RESP) {
    --m_in_flight;
    m_pool.release(gp);
  }
  m_wake.at(clock().now_cycle());
  return ph == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

std::string interface_unit::pending_work() const {
  if (idle()) return {};
  const op& o = m_ops[m_pc];
  std::string what;
  switch (o.what) {
    case op::read_face:
    case op::write_face:
      what = std::string(purpose_name(o.why)) + " face: " + std::to_string(m_in_flight) +
             " requests in flight" + m_down.wait_note();
      break;
    case op::push:
    case op::pop:
      what = "a buffer access";
      break;
    case op::link_sync:
      what = "waits at its link's sync since cycle " + std::to_string(m_sync[0].since);
      break;
    case op::global_sync:
      what = "waits at the global barrier since cycle " + std::to_string(m_sync[1].since);
      break;
    case op::wait_spills:
      what = "waits for spill " + std::to_string(o.count) + " of a producer pass";
      break;
    case op::spilled:
      what = "a spill's completion";
      break;
    case op::wait_pass:
      what = "waits for pass " + std::to_string(o.count) + " to start";
      break;
    case op::select_link:
    case op::pass_done:
      what = "a register write";
      break;
    case op::wait_turn:
      what = "waits for its SM's CTAs before pass " + std::to_string(o.count);
      break;
  }
  return "step " + std::to_string(m_pc + 1) + " of " + std::to_string(m_ops.size()) + ": " + what;
}

GPUTLM_BLOCK("interface_unit", interface_unit, "SPU: a border unit between global memory and a link", {});

}  // namespace gputlm::spu
