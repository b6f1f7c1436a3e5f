#include "models/noc/crossbar.h"

#include "models/common/block_factory.h"

#include <cmath>

namespace gputlm::noc {

crossbar::crossbar(const sc_core::sc_module_name& name, const block_context& ctx)
    : network(name, ctx) {
  const std::uint32_t n = smx_ports(), m = mem_ports();
  const std::uint32_t max_flits =
      static_cast<std::uint32_t>((8 + 128 + m_flit_size->value - 1) / m_flit_size->value);
  m_buffers.resize(2 * n + 2 * m);
  for (std::uint32_t i = 0; i < n; ++i) {
    m_buffers[req_in(i)] = {static_cast<std::uint32_t>(*m_input_buffer), ~0u, 0, 0};
    m_buffers[rep_out(i)] = {static_cast<std::uint32_t>(*m_ejection_buffer) * max_flits,
                             static_cast<std::uint32_t>(*m_ejection_buffer), 0, 0};
  }
  for (std::uint32_t j = 0; j < m; ++j) {
    m_buffers[req_out(j)] = {static_cast<std::uint32_t>(*m_output_buffer), ~0u, 0, 0};
    m_buffers[rep_in(j)] = {static_cast<std::uint32_t>(*m_input_buffer), ~0u, 0, 0};
  }
  // Links: request output j = j, reply output i = m + i.
  m_links.resize(m + n);
  for (std::uint32_t l = 0; l < m + n; ++l) {
    m_links[l].owner = l;
    m_links[l].routing_latency = static_cast<std::uint32_t>(m_latency->value);
    m_links[l].channel_latency = 1;
  }
  set_speedup(*m_internal_speedup);
  set_arbitration(m_arbiter.is("islip")         ? arbitration::islip
                  : m_arbiter.is("round_robin") ? arbitration::round_robin
                                                : arbitration::oldest_first);
  set_fifo_inputs(m_input_queueing.is("fifo"));
  set_channel_rate(*m_output_speedup);
  set_serial_inputs(*m_serial_inputs);
  set_allocation_steps(static_cast<std::uint32_t>(*m_alloc_steps));
  finish_topology();
  for (std::uint32_t j = 0; j < m; ++j) {
    add_stat(
        "port.mem[" + std::to_string(j) + "].flits", [this, j] { return double(m_links[j].flits); },
        "flits sent to sub-partition j (request subnet)");
    add_stat(
        "port.mem[" + std::to_string(j) + "].stall_cycles",
        [this, j] { return double(m_links[j].stall_cycles); },
        "cycles packets waited for this output after their routing delay");
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    add_stat(
        "port.smx[" + std::to_string(i) + "].flits",
        [this, i, m] { return double(m_links[m + i].flits); },
        "flits sent to SMX i (reply subnet)");
    add_stat(
        "port.smx[" + std::to_string(i) + "].stall_cycles",
        [this, i, m] { return double(m_links[m + i].stall_cycles); },
        "cycles packets waited for this output after their routing delay");
  }
}

void crossbar::validate() {
  network::validate();
  const std::uint64_t max_flits = (8 + 128 + m_flit_size->value - 1) / m_flit_size->value;
  m_input_buffer.require(*m_input_buffer >= max_flits, "must hold the largest packet");
  m_input_buffer.require(*m_input_buffer <= max_buffer,
                         "must be at most " + std::to_string(max_buffer) + " flits");
  m_output_buffer.require(*m_output_buffer >= max_flits, "must hold the largest packet");
  m_output_buffer.require(*m_output_buffer <= max_buffer,
                          "must be at most " + std::to_string(max_buffer) + " flits");
  m_internal_speedup.require(*m_internal_speedup > 0, "must be positive");
  m_internal_speedup.require(*m_internal_speedup <= 64, "must be at most 64");
  m_output_speedup.require(*m_output_speedup >= 0 && *m_output_speedup <= 64,
                           "must be 0 (a packet a cycle) to 64");
  m_smx_per_port.require(*m_smx_per_port >= 1 && *m_smx_per_port <= 64, "must be 1 to 64");
}

void crossbar::route(packet& p, std::uint32_t source) const {
  p.hops = 1;
  const auto per_port = static_cast<std::uint32_t>(*m_smx_per_port);
  if (!p.reply) {
    p.buffer(0) = req_in(source / per_port);
    p.link(0) = p.endpoint;
    p.buffer(1) = req_out(p.endpoint);
  } else {
    p.buffer(0) = rep_in(source);
    p.link(0) = mem_ports() + p.endpoint / per_port;
    p.buffer(1) = rep_out(p.endpoint);
  }
}

std::string crossbar::link_name(std::uint32_t l) const {
  return l < mem_ports() ? "port.mem[" + std::to_string(l) + "]"
                         : "port.smx[" + std::to_string(l - mem_ports()) + "]";
}

GPUTLM_BLOCK("crossbar", crossbar, "SMX <-> memory crossbar", {});

}  // namespace gputlm::noc
