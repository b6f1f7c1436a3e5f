#include "models/memory/mshr_table.h"

#include <algorithm>

namespace gputlm::memory {

mshr_table::mshr_table(std::size_t entries, std::size_t merge)
    : m_entries(entries), m_merge(merge) {
  m_free.reserve(entries);
  m_order.reserve(entries);
  for (std::size_t i = entries; i-- > 0;) {
    m_entries[i].slots.reserve(merge);
    m_free.push_back(static_cast<int>(i));
  }
}

int mshr_table::find(std::uint64_t line) const {
  for (int idx : m_order)
    if (m_entries[idx].line == line) return idx;
  return -1;
}

int mshr_table::allocate(std::uint64_t line, std::uint8_t sectors, void* requester) {
  int idx = m_free.back();
  m_free.pop_back();
  entry& e = m_entries[idx];
  e.line = line;
  e.pending_sectors = sectors;
  e.outstanding_fills = 1;
  e.valid = true;
  e.slots.clear();
  e.slots.push_back({requester, sectors});
  m_order.push_back(idx);
  ++m_slots_used;
  return idx;
}

void mshr_table::merge(int idx, void* requester, std::uint8_t sectors, std::uint8_t extra_sectors) {
  entry& e = m_entries[idx];
  e.slots.push_back({requester, sectors});
  ++m_slots_used;
  if (extra_sectors) {
    e.pending_sectors |= extra_sectors;
    ++e.outstanding_fills;
  }
}

bool mshr_table::fill_arrived(int idx) {
  entry& e = m_entries[idx];
  if (e.outstanding_fills > 0) --e.outstanding_fills;
  return e.outstanding_fills == 0;
}

void mshr_table::release(int idx, std::vector<slot>& out) {
  entry& e = m_entries[idx];
  out.insert(out.end(), e.slots.begin(), e.slots.end());
  m_slots_used -= e.slots.size();
  e.slots.clear();
  e.valid = false;
  m_order.erase(std::find(m_order.begin(), m_order.end(), idx));
  m_free.push_back(idx);
}

}  // namespace gputlm::memory
