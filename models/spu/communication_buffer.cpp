// A neighbour link's communication buffer pair (communication_buffer.h).
#include "models/spu/communication_buffer.h"

#include "models/common/block_factory.h"

#include <stdexcept>

#include "models/power/power_component.h"

namespace gputlm::spu {

communication_buffer::communication_buffer(const sc_core::sc_module_name& name,
                                           const block_context& ctx)
    : component(name, ctx) {
  swap_export.bind(*this);
  declare_export("swap", swap_export);
  declare_socket("writer", writer);
  declare_socket("reader", reader);
  declare_socket("writer_sync", writer_sync);
  declare_socket("reader_sync", reader_sync);
  writer.register_b_transport(this, &communication_buffer::writer_b);
  reader.register_b_transport(this, &communication_buffer::reader_b);
  writer.register_transport_dbg(this, &communication_buffer::writer_dbg);
  reader.register_transport_dbg(this, &communication_buffer::reader_dbg);
  writer_sync.register_nb_transport_fw(this, &communication_buffer::writer_sync_fw);
  reader_sync.register_nb_transport_fw(this, &communication_buffer::reader_sync_fw);
  for (const named_counter& c : counters()) add_stat(c.name, *c.value, c.description);
  m_power = &declare_power("ram", {"access"}, 2 * m_bytes->value);
}

void communication_buffer::validate() {
  m_bytes.require(m_bytes->value >= 1 && m_bytes->value <= (1ull << 30),
                  "must be between 1 byte and 1 GiB");
  m_banks.require(*m_banks >= 1 && *m_banks <= 1024, "must be between 1 and 1024");
  m_bank_width.require(m_bank_width->value >= 1 && m_bank_width->value <= 1024,
                       "must be between 1 and 1024 bytes");
  m_latency.require(m_latency->value <= cycles::max_latency,
                    "must be at most " + units::format_cycles(cycles::max_latency));
}

void communication_buffer::add_traces(vcd_writer& vcd) {
  m_trace_write_fill.trace(vcd, name(), "write_fill", 32);
  m_trace_read_fill.trace(vcd, name(), "read_fill", 32);
  m_trace_write_buffer.trace(vcd, name(), "write_buffer", 1);
  m_trace_writer_waits.trace(vcd, name(), "writer_waits", 1);
  m_trace_reader_waits.trace(vcd, name(), "reader_waits", 1);
}

void communication_buffer::name_end(tlm::tlm_fw_transport_if<>& fw, const std::string& who) {
  std::string text = who;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(text.data()));
  gp.set_data_length(static_cast<unsigned>(text.size()));
  fw.transport_dbg(gp);
}

unsigned communication_buffer::name_end(int end, tlm::tlm_generic_payload& gp) {
  if (!gp.is_write() || !gp.get_data_ptr()) return 0;
  m_end[end].assign(reinterpret_cast<const char*>(gp.get_data_ptr()), gp.get_data_length());
  return gp.get_data_length();
}

std::uint64_t communication_buffer::access_cycles(std::uint64_t bytes) const {
  const std::uint64_t row = *m_banks * m_bank_width->value;
  const std::uint64_t rows = bytes == 0 ? 1 : (bytes + row - 1) / row;
  return m_latency->value + rows - 1;
}

void communication_buffer::access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay,
                                  bool write) {
  const std::uint64_t bytes = gp.get_data_length();
  const std::uint64_t row = *m_banks * m_bank_width->value;
  const std::uint64_t rows = bytes == 0 ? 1 : (bytes + row - 1) / row;
  m_accesses += rows;
  m_power->record(0, rows);
  if (write) {
    ++m_pushes;
    m_bytes_pushed += bytes;
    std::uint64_t& fill = m_fill[m_write];
    const std::uint64_t room = capacity() - fill;
    if (bytes > room) m_overflow += bytes - room;
    fill += std::min(bytes, room);
    m_trace_write_fill.set(fill);
  } else {
    ++m_pops;
    m_bytes_popped += bytes;
    const std::uint64_t held = read_fill();
    const std::uint64_t left = held > m_popped ? held - m_popped : 0;
    if (bytes > left) m_underflow += bytes - left;
    m_popped += bytes;
  }
  delay += clock().delay_cycles(access_cycles(bytes));
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::array<communication_buffer::named_counter, 10> communication_buffer::counters() const {
  return {{{"pushes", &m_pushes, "warp writes (CB.PUSH) into the write buffer"},
           {"pops", &m_pops, "warp reads (CB.POP) from the read buffer"},
           {"bytes_pushed", &m_bytes_pushed, "bytes written"},
           {"bytes_popped", &m_bytes_popped, "bytes read"},
           {"swaps", &m_swaps, "syncs that swapped the pair"},
           {"accesses", &m_accesses, "bank-row accesses (the thesis's CB_ACC)"},
           {"overflow_bytes", &m_overflow,
            "bytes written beyond the write buffer's capacity before a swap (not stored)"},
           {"underflow_bytes", &m_underflow,
            "bytes read beyond what the read buffer received at its last swap"},
           {"writer_wait_cycles", &m_wait_cycles[0],
            "cycles the writer waited at its syncs for the reader (the pair full)"},
           {"reader_wait_cycles", &m_wait_cycles[1],
            "cycles the reader waited at its syncs for the writer (no data)"}}};
}

std::uint64_t communication_buffer::count(const std::string& stat) const {
  for (const named_counter& c : counters())
    if (stat == c.name) return c.value->value();
  throw std::invalid_argument("communication_buffer: no statistic " + stat);
}

tlm::tlm_sync_enum communication_buffer::sync_fw(bool writer_side, tlm::tlm_generic_payload& gp,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP
  const int me = writer_side ? 0 : 1, other = 1 - me;
  const std::uint64_t now = clock().now_cycle();
  ++m_arrived[me];
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (m_arrived[other] < m_arrived[me]) {  // the other side's matching sync is still to come
    m_waiting[me] = &gp;
    m_waiting_since[me] = now;
    (me == 0 ? m_trace_writer_waits : m_trace_reader_waits).set(1);
    return tlm::TLM_ACCEPTED;
  }
  // The pair meets: swap, release the side that waited and this one.
  swap();
  const sc_core::sc_time release = clock().delay_cycles(m_sync_latency->value);
  if (tlm::tlm_generic_payload* w = m_waiting[other]) {
    m_waiting[other] = nullptr;
    m_wait_cycles[other] += now - m_waiting_since[other];
    (other == 0 ? m_trace_writer_waits : m_trace_reader_waits).set(0);
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_core::sc_time d = release;
    (writer_side ? reader_sync : writer_sync)->nb_transport_bw(*w, p, d);
  }
  phase = tlm::BEGIN_RESP;
  delay += release;
  return tlm::TLM_COMPLETED;
}

std::string communication_buffer::pending_work() const {
  std::string s;
  if ((m_waiting[0] || m_waiting[1]) && !(m_end[0].empty() && m_end[1].empty()))
    s = "link " + (m_end[0].empty() ? std::string("?") : m_end[0]) + " -> " +
        (m_end[1].empty() ? std::string("?") : m_end[1]) + ": ";
  for (int side = 0; side < 2; ++side)
    if (m_waiting[side])
      s += std::string(s.empty() || s.back() == ' ' ? "" : "; ") +
           (side == 0 ? "writer" : "reader") + " waits at its sync " +
           std::to_string(m_arrived[side]) + " (the " + (side == 0 ? "reader" : "writer") +
           " is at " + std::to_string(m_arrived[1 - side]) + ")";
  return s;
}

void communication_buffer::swap() {
  m_write = 1 - m_write;
  m_fill[m_write] = 0;  // the writer's new buffer: what the reader has finished with
  m_popped = 0;
  ++m_swaps;
  m_trace_write_buffer.set(m_write);
  m_trace_write_fill.set(0);
  m_trace_read_fill.set(read_fill());
}

GPUTLM_BLOCK("communication_buffer", communication_buffer, "SPU: a neighbour link's ping-pong buffer pair and its sync", {});

}  // namespace gputlm::spu
