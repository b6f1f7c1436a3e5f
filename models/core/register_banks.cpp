#include "models/core/register_banks.h"

#include <algorithm>

namespace gputlm::core {

register_banks::register_banks(std::uint32_t banks, std::uint32_t port_throughput,
                               std::uint32_t schedulers, bool sub_core,
                               std::uint32_t collector_units)
    : m_banks(banks ? banks : 1),
      m_generic(collector_units, 0),
      m_throughput(port_throughput ? port_throughput : 1),
      m_schedulers(schedulers ? schedulers : 1),
      m_sub_core(sub_core && banks >= schedulers && schedulers > 1) {
  const std::uint32_t n = static_cast<std::uint32_t>(m_banks.size());
  m_group = m_sub_core ? n / m_schedulers : n;
  m_group_pow2 = (m_group & (m_group - 1)) == 0;
}

std::uint32_t register_banks::bank_of(std::uint32_t reg, std::uint32_t warp,
                                      std::uint32_t scheduler) const {
  const std::uint32_t x = reg + warp;
  const std::uint32_t in_group = m_group_pow2 ? x & (m_group - 1) : x % m_group;
  if (!m_sub_core) return in_group;
  const std::uint32_t s = scheduler < m_schedulers ? scheduler : scheduler % m_schedulers;
  return s * m_group + in_group;
}

void register_banks::set_collector_sets(const std::uint32_t (&units)[collector_kinds],
                                        std::uint32_t generic) {
  m_sets = true;
  for (std::uint32_t k = 0; k < collector_kinds; ++k) {
    m_set[k].assign(units[k], 0);
    m_enabled[k] = units[k];
  }
  m_generic.assign(generic, 0);
}

std::uint64_t* register_banks::set_unit(std::uint32_t kind, std::uint64_t cycle) {
  std::vector<std::uint64_t>& own = m_set[kind];
  const auto end = own.begin() + std::min<std::size_t>(own.size(), std::max(1u, m_enabled[kind]));
  auto it = std::min_element(own.begin(), end);
  if (it != end && *it <= cycle) return &*it;
  auto g = std::min_element(m_generic.begin(), m_generic.end());
  if (g != m_generic.end() && *g <= cycle) return &*g;
  return nullptr;
}

void register_banks::take_unit(std::uint32_t kind, std::uint64_t cycle, std::uint64_t until) {
  m_last_held = set_unit(kind, cycle);
  if (m_last_held) *m_last_held = until;
}

void register_banks::hold_collector(std::uint32_t kind, std::uint64_t cycle, std::uint64_t until) {
  if (m_sets)
    take_unit(kind, cycle, until);
  else
    m_last_held = nullptr;
}

bool register_banks::collector_free(std::uint64_t cycle, std::uint32_t kind) {
  return (m_set[kind].empty() && m_generic.empty()) || set_unit(kind, cycle) != nullptr;
}

std::uint64_t register_banks::read(const std::uint16_t* regs, std::uint32_t n, std::uint32_t warp,
                                   std::uint32_t scheduler, std::uint64_t cycle,
                                   std::uint32_t kind) {
  std::uint64_t done = cycle;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (regs[k] >= 255) continue;  // RZ and "no register" are not read from a bank
    bank_state& b = m_banks[bank_of(regs[k], warp, scheduler)];
    if (b.cycle < cycle) {
      b.cycle = cycle;
      b.used = 0;
    }
    if (b.used == m_throughput) {  // this cycle's ports are taken: the next cycle's
      ++b.cycle;
      b.used = 0;
      ++m_conflicts;
    }
    ++b.used;
    done = std::max(done, b.cycle);
  }
  take_unit(kind, cycle, done + 1);
  return done;
}

}  // namespace gputlm::core
