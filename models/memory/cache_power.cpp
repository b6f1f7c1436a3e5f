#include "models/memory/cache_power.h"

namespace gputlm::memory {

cache_power::cache_power(component& owner, const cache_geometry& g)
    : m_data(owner.declare_power("data", {"read", "write"},
                                 std::uint64_t(g.sets) * g.ways * g.line_size)),
      m_line(g.line_size) {
  m_data.bind_counters(&m_n[0]);
  owner.declare_power("tag", {"lookup"}).bind_counters(&m_n[2]);
  owner.declare_power("mshr", {"allocate", "merge"}).bind_counters(&m_n[3]);
  const std::uint64_t capacity = std::uint64_t(g.sets) * g.ways * g.line_size;
  m_element_bytes = capacity / m_data.elements();
  if (m_element_bytes == 0) m_element_bytes = 1;
  m_trace_on.set(m_data.elements());
}

void cache_power::add_traces(vcd_writer& vcd, const std::string& scope) {
  m_trace_on.trace(vcd, scope, "data_elements_on", 32);
}

std::uint64_t cache_power::data(int frame, std::uint8_t sectors, data_event e) {
  ++m_n[e];
  if (frame < 0 || !m_data.gated()) return 0;
  if (sectors == 0) sectors = 0xf;
  if (m_data.elements() == 1) {
    const std::uint64_t w = m_data.access(0, component::now_fs());
    m_trace_on.set(m_data.in_state(0));
    return w;
  }
  const std::uint64_t now = component::now_fs();
  const std::uint64_t base = std::uint64_t(frame) * m_line;
  std::uint64_t wake = 0;
  std::uint64_t last = ~std::uint64_t(0);
  for (std::uint32_t s = 0; s < 4; ++s) {
    if (!(sectors & (1u << s)) || s * 32 >= m_line) continue;
    const std::uint64_t el = (base + s * 32) / m_element_bytes;
    if (el == last) continue;
    last = el;
    const std::uint64_t w = m_data.access(static_cast<std::uint32_t>(el), now);
    if (w > wake) wake = w;
  }
  m_trace_on.set(m_data.in_state(0));
  return wake;
}

}  // namespace gputlm::memory
