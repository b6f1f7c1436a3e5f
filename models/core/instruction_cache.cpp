#include "models/core/instruction_cache.h"

#include <algorithm>

namespace gputlm::core {

void instruction_cache::configure(std::uint32_t sets, std::uint32_t ways, std::uint32_t line_bytes,
                                  std::uint32_t mshr_entries, std::uint32_t mshr_merge) {
  m_sets = sets;
  m_ways = ways;
  m_line_bytes = line_bytes;
  m_merge = mshr_merge;
  m_lines.assign(std::size_t(sets) * ways, line_state{});
  m_mshr.assign(mshr_entries, mshr_entry{});
  m_retry.clear();
}

bool instruction_cache::contains(std::uint64_t addr) const {
  const std::uint64_t line = line_of(addr);
  const line_state* set = &m_lines[std::size_t(set_of(line)) * m_ways];
  for (std::uint32_t w = 0; w < m_ways; ++w)
    if (set[w].valid && set[w].tag == line) return true;
  return false;
}

instruction_cache::outcome instruction_cache::access(std::uint64_t addr, std::uint32_t warp) {
  ++accesses;
  const std::uint64_t line = line_of(addr);
  line_state* set = &m_lines[std::size_t(set_of(line)) * m_ways];
  for (std::uint32_t w = 0; w < m_ways; ++w)
    if (set[w].valid && set[w].tag == line) {
      set[w].used = ++m_clock;
      ++hits;
      return outcome::hit;
    }
  auto fail = [&] {  // the warp waits for the next fill
    ++reservation_fails;
    m_retry.push_back(warp);
    return outcome::reservation_fail;
  };
  mshr_entry* free_entry = nullptr;
  for (mshr_entry& e : m_mshr) {
    if (e.busy && e.line == line) {
      if (e.warps.size() >= m_merge) return fail();
      e.warps.push_back(warp);
      ++merged;
      return outcome::merged;
    }
    if (!e.busy && !free_entry) free_entry = &e;
  }
  if (!free_entry) return fail();
  free_entry->busy = true;
  free_entry->line = line;
  free_entry->warps.assign(1, warp);
  ++misses;
  return outcome::miss;
}

void instruction_cache::insert(std::uint64_t line) {
  line_state* set = &m_lines[std::size_t(set_of(line)) * m_ways];
  line_state* victim = set;
  for (std::uint32_t w = 0; w < m_ways; ++w) {  // (the line is not there: it missed once)
    if (!set[w].valid) {
      victim = &set[w];
      break;
    }
    if (set[w].used < victim->used) victim = &set[w];
  }
  victim->valid = true;
  victim->tag = line;
  victim->used = ++m_clock;
}

std::uint32_t instruction_cache::outstanding() const {
  return static_cast<std::uint32_t>(
      std::count_if(m_mshr.begin(), m_mshr.end(), [](const mshr_entry& e) { return e.busy; }));
}

}  // namespace gputlm::core
