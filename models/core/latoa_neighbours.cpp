#include "models/core/latoa_neighbours.h"

#include "models/common/block_factory.h"

namespace gputlm::core {

latoa_neighbours::latoa_neighbours(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_port("mesh", mesh);
  status.bind(*this);
  declare_export("status", status);
  mailbox.bind(*this);
  declare_export("mailbox", mailbox);
  add_stat("signals", m_signals, "relaxed-state signals sent to neighbours (+ and -)");
}

std::vector<latoa_neighbours::neighbours> latoa_neighbours::map_of(const noc::mesh_topology& t) {
  const std::uint32_t cols = t.columns(), rows = t.rows(), n = t.smx_count();
  std::vector<std::uint32_t> at(std::size_t(cols) * rows, none);  // node -> SMX
  for (std::uint32_t i = 0; i < n; ++i) at[t.smx_node(i)] = i;
  std::vector<neighbours> out(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t node = t.smx_node(i), x = node % cols, y = node / cols;
    out[i][east] = x + 1 < cols ? at[node + 1] : none;
    out[i][north] = y > 0 ? at[node - cols] : none;
    out[i][west] = x > 0 ? at[node - 1] : none;
    out[i][south] = y + 1 < rows ? at[node + cols] : none;
  }
  return out;
}

void latoa_neighbours::validate_bound() {
  m_map = map_of(*mesh.get());
  m_register.assign(m_map.size(), 0);
  for (std::size_t i = 0; i < m_map.size(); ++i)
    for (std::uint32_t d = 0; d < 4; ++d)
      if (m_map[i][d] != none) m_register[i] |= std::uint8_t(1u << d);  // all start relaxed
}

std::string latoa_neighbours::added_hardware() const {
  return "LATOA neighbour status: a 4-bit register and four status wires per core (" +
         std::to_string(m_map.size()) + " cores)";
}

void latoa_neighbours::relaxed_changed(std::uint32_t smx, bool relaxed) {
  // Neighbour k of smx sees smx in the opposite direction.
  for (std::uint32_t d = 0; d < 4; ++d) {
    const std::uint32_t k = m_map[smx][d];
    if (k == none) continue;
    const std::uint8_t bit = std::uint8_t(1u << ((d + 2) % 4));
    m_register[k] = relaxed ? m_register[k] | bit : m_register[k] & ~bit;
    ++m_signals;
  }
}

std::uint32_t latoa_neighbours::adopter_for(std::uint32_t smx) const {
  const std::uint8_t r = m_register[smx];
  for (std::uint32_t d = 0; d < 4; ++d)
    if (r >> d & 1u) return m_map[smx][d];
  return none;
}

std::uint64_t latoa_neighbours::post(latoa_message m) {
  if (!m.done) {
    if (m_contexts_from.size() <= m.context.host) m_contexts_from.resize(m.context.host + 1, 0);
    ++m_contexts_from[m.context.host];
  }
  if (m_free.empty()) {
    m_messages.push_back(std::move(m));
    return m_messages.size() - 1;
  }
  const std::uint64_t tag = m_free.back();
  m_free.pop_back();
  m_messages[tag] = std::move(m);
  return tag;
}

latoa_message latoa_neighbours::take(std::uint64_t tag) {
  latoa_message m = std::move(m_messages[tag]);
  if (!m.done) --m_contexts_from[m.context.host];
  m_messages[tag] = latoa_message{};
  m_free.push_back(tag);
  return m;
}

GPUTLM_BLOCK("latoa_neighbours", latoa_neighbours,
             "LATOA neighbour status: which of each core's E/N/W/S neighbours are relaxed", {});

}  // namespace gputlm::core
