#include "models/memory/cache_power.h"

#include <algorithm>


namespace gputlm::memory {
namespace {
std::uint64_t capacity_of(const cache_geometry& g) {
  return std::uint64_t(g.sets) * g.ways * g.line_size;
}
}  // namespace

cache_power::cache_power(component& owner, const cache_geometry& g,
                         const observers<cache_events>& events)
    : m_events(events),
      m_data(owner.declare_power("data", {"read", "write"}, capacity_of(g))),
      m_line(g.line_size),
      m_element_bytes(std::max<std::uint64_t>(1, capacity_of(g) / m_data.elements())) {
  m_data.bind_counters(&m_n[data_read]);
  owner.declare_power("tag", {"lookup"}).bind_counters(&m_n[tag_lookup]);
  owner.declare_power("mshr", {"allocate", "merge"}).bind_counters(&m_n[mshr_allocate]);
  m_trace_on.set(m_data.elements());
}

void cache_power::add_traces(vcd_writer& vcd, const std::string& scope) {
  m_trace_on.trace(vcd, scope, "data_elements_on", 32);
}

std::uint64_t cache_power::access(const access_result& r, std::uint8_t sectors, bool merged) {
  ++m_n[tag_lookup];
  switch (r.kind) {
    case access_result::hit:
    case access_result::write_done: {
      const std::uint64_t wake =
          data(r.frame, sectors, r.kind == access_result::hit ? data_read : data_write);
      m_events.notify([wake](cache_events& o) { o.request_waited(wake); });
      return wake;
    }
    case access_result::merged:
    case access_result::miss:
      ++m_n[merged ? mshr_merge : mshr_allocate];
      return 0;
    case access_result::fail:
      break;
  }
  return 0;
}

std::uint64_t cache_power::data(int frame, std::uint8_t sectors, event e) {
  if (frame < 0) return 0;  // the data array was not used (write-evict, write-around, no line)
  ++m_n[e];
  if (!m_data.gated()) return 0;
  if (sectors == 0) sectors = 0xf;
  // The elements the sectors lie in (one, for a data array that is a single element).
  const std::uint64_t now = component::now_fs();
  const std::uint64_t base = std::uint64_t(frame) * m_line;
  std::uint64_t wake = 0;
  std::uint64_t last = ~std::uint64_t(0);
  for (std::uint32_t s = 0; s < 4; ++s) {
    if (!(sectors & (1u << s)) || s * 32 >= m_line) continue;
    const std::uint64_t el = (base + s * 32) / m_element_bytes;
    if (el == last) continue;
    last = el;
    wake = std::max(wake, m_data.access(static_cast<std::uint32_t>(el), now));
  }
  m_trace_on.set(m_data.in_state(0));
  return wake;
}

}  // namespace gputlm::memory
