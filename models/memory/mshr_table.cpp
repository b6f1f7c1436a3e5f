#include "models/memory/mshr_table.h"

#include <algorithm>

namespace gputlm::memory {

mshr_table::mshr_table(std::size_t entries, std::size_t merge, bool hashed, bool per_sector)
    : m_entries(entries),
      m_merge(merge * (per_sector ? 4 : 1)),
      m_sector_merge(per_sector ? merge : 0),
      m_sector_count(per_sector ? entries * 4 : 0) {
  m_more.resize(entries * (m_merge > 1 ? m_merge - 1 : 0));
  m_free.reserve(entries);
  if (hashed) {
    std::size_t buckets = 2;
    while (buckets < 2 * entries) buckets *= 2;
    m_hash.resize(buckets);
    m_hash_shift = 64 - static_cast<unsigned>(__builtin_ctzll(buckets));
  }
  for (std::size_t i = entries; i-- > 0;) m_free.push_back(static_cast<int>(i));
}

mshr_table::~mshr_table() = default;

void mshr_table::use_backend(std::unique_ptr<mshr_backend> backend) {
  m_backend = std::move(backend);
}

bool mshr_table::can_merge_per_sector(int idx, std::uint8_t sectors) const {
  if (m_entries[idx].slots >= m_merge) return false;
  const std::uint16_t* c = &m_sector_count[std::size_t(idx) * 4];
  for (unsigned s = 0; s < 4; ++s)
    if ((sectors >> s & 1) && c[s] >= m_sector_merge) return false;
  return true;
}

void mshr_table::count_sectors(int idx, std::uint8_t sectors, bool reset) {
  if (!m_sector_merge) return;
  std::uint16_t* c = &m_sector_count[std::size_t(idx) * 4];
  for (unsigned s = 0; s < 4; ++s) c[s] = static_cast<std::uint16_t>((reset ? 0 : c[s]) + (sectors >> s & 1));
}

void mshr_table::sync(int idx) {
  m_used = m_backend->used();
  m_slots_used = m_backend->slots_used();
  const entry e = m_backend->at(idx);
  entry& c = m_entries[std::size_t(idx)];
  c.line = e.line;
  c.frame = e.frame;
  c.seq = e.seq;
  c.outstanding_fills = e.outstanding_fills;
  c.slots = e.slots;
  c.pending_sectors = e.pending_sectors;
}

int mshr_table::find(std::uint64_t line) const {
  if (m_backend) return m_backend->find(line);
  if (m_hash.empty()) {
    for (std::size_t idx = 0; idx < m_entries.size(); ++idx)
      if (m_entries[idx].live() && m_entries[idx].line == line) return static_cast<int>(idx);
    return -1;
  }
  const std::size_t mask = m_hash.size() - 1;
  for (std::size_t b = home(line);; b = (b + 1) & mask) {
    const bucket& h = m_hash[b];
    if (h.idx < 0) return -1;
    if (h.line == line) return h.idx;
  }
}

std::vector<int> mshr_table::order() const {
  std::vector<int> out;
  for (std::size_t idx = 0; idx < m_entries.size(); ++idx)
    if (m_entries[idx].live()) out.push_back(static_cast<int>(idx));
  // Oldest first; live entries are fewer than 2^31 allocations apart.
  std::sort(out.begin(), out.end(), [&](int a, int b) {
    return static_cast<std::int32_t>(m_entries[a].seq - m_entries[b].seq) < 0;
  });
  return out;
}

int mshr_table::newest(std::size_t k) const {
  // The k-th smallest age (allocations since), by k + 1 passes over the entries: k is small
  // (LATOA reads the second newest) and nothing is allocated.
  std::uint32_t above = 0;  // ages already passed over: the k newest are younger than this
  bool first = true;
  int found = -1;
  for (std::size_t pass = 0; pass <= k; ++pass) {
    found = -1;
    std::uint32_t best = ~0u;
    for (std::size_t idx = 0; idx < m_entries.size(); ++idx) {
      if (!m_entries[idx].live()) continue;
      const std::uint32_t age = m_seq - m_entries[idx].seq;
      if ((first || age > above) && age < best) {
        best = age;
        found = static_cast<int>(idx);
      }
    }
    if (found < 0) return -1;
    above = best;
    first = false;
  }
  return found;
}

void mshr_table::requesters(int idx, std::vector<void*>& out) const {
  const entry& e = m_entries[idx];
  if (!e.live()) return;
  out.push_back(e.first_requester);
  for (std::size_t k = 1; k < e.slots; ++k) out.push_back(more(idx, k).requester);
}

void mshr_table::unhash(std::uint64_t line, int idx) {
  const std::size_t mask = m_hash.size() - 1;
  std::size_t hole = home(line);
  while (m_hash[hole].idx != idx) hole = (hole + 1) & mask;
  // Backward shift: move later members of the probe run into the hole when their home
  // position does not lie (cyclically) between the hole and them.
  for (std::size_t b = (hole + 1) & mask; m_hash[b].idx >= 0; b = (b + 1) & mask) {
    const std::size_t h = home(m_hash[b].line);
    if (((b - h) & mask) >= ((b - hole) & mask)) {
      m_hash[hole] = m_hash[b];
      hole = b;
    }
  }
  m_hash[hole] = bucket{};
}

int mshr_table::allocate(std::uint64_t line, std::uint8_t sectors, void* requester, int frame) {
  if (m_backend) {
    const int i = m_backend->allocate(line, sectors, requester, frame);
    sync(i);
    count_sectors(i, sectors, true);
    return i;
  }
  const int idx = m_free.back();
  count_sectors(idx, sectors, true);
  m_free.pop_back();
  entry& e = m_entries[idx];
  e.line = line;
  e.first_requester = requester;
  e.first_sectors = sectors;
  e.slots = 1;
  e.pending_sectors = sectors;
  e.outstanding_fills = 1;
  e.frame = frame;
  e.seq = m_seq++;
  ++m_used;
  ++m_slots_used;
  if (m_hash.empty()) return idx;
  const std::size_t mask = m_hash.size() - 1;
  std::size_t b = home(line);
  while (m_hash[b].idx >= 0) b = (b + 1) & mask;
  m_hash[b] = {line, idx};
  return idx;
}

void mshr_table::merge(int idx, void* requester, std::uint8_t sectors, std::uint8_t extra_sectors) {
  count_sectors(idx, sectors, false);
  if (m_backend) {
    m_backend->merge(idx, requester, sectors, extra_sectors);
    sync(idx);
    return;
  }
  entry& e = m_entries[idx];
  more(idx, e.slots) = {requester, sectors};
  ++e.slots;
  ++m_slots_used;
  if (extra_sectors) {
    e.pending_sectors |= extra_sectors;
    ++e.outstanding_fills;
  }
}

bool mshr_table::fill_arrived(int idx) {
  if (m_backend) {
    const bool last = m_backend->fill_arrived(idx);
    sync(idx);
    return last;
  }
  entry& e = m_entries[idx];
  if (e.outstanding_fills > 0) --e.outstanding_fills;
  return e.outstanding_fills == 0;
}

void mshr_table::release(int idx, std::vector<slot>& out) {
  if (m_backend) {
    m_backend->release(idx, out);
    sync(idx);
    return;
  }
  entry& e = m_entries[idx];
  out.push_back({e.first_requester, e.first_sectors});
  for (std::size_t k = 1; k < e.slots; ++k) out.push_back(more(idx, k));
  m_slots_used -= e.slots;
  e.slots = 0;
  if (!m_hash.empty()) unhash(e.line, idx);
  --m_used;
  m_free.push_back(idx);
}

}  // namespace gputlm::memory
