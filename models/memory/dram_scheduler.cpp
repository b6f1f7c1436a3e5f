#include "models/memory/dram_scheduler.h"

#include <algorithm>

namespace gputlm::memory {

dram_scheduler::dram_scheduler(const dram_timing& t, std::size_t queue_depth)
    : m_t(t),
      m_depth(queue_depth),
      m_banks(t.banks),
      m_group_col_ok(t.bank_groups ? t.bank_groups : 1, 0),
      m_open_row_hits(t.banks, 0),
      m_open_row_write_hits(t.banks, 0),
      m_queued(t.banks, 0) {
  m_queue.reserve(queue_depth);
  for (std::uint32_t b = 0; b < t.banks; ++b) m_group.push_back(group_of(b));
}

void dram_scheduler::push(const request& r) {
  m_queue.push_back({r, r.bursts ? r.bursts : 1});
  const bank_state& b = m_banks[r.bank];
  ++m_queued[r.bank];
  if (b.open && b.row == r.row) {
    ++m_open_row_hits[r.bank];
    if (r.write) ++m_open_row_write_hits[r.bank];
  }
}

std::uint32_t dram_scheduler::group_of(std::uint32_t bank) const {
  const std::uint32_t g = m_t.bank_groups ? m_t.bank_groups : 1;
  if (g == 1) return 0;
  return m_t.bank_group_low_bits ? bank % g : bank / (m_t.banks / g);
}

dram_scheduler::column_common dram_scheduler::column_constraints() const {
  column_common c{std::max(m_col_ok, m_read_ok), std::max(m_col_ok, m_write_ok)};
  if (m_bus_free > m_t.CL) c.read = std::max(c.read, m_bus_free - m_t.CL);
  if (m_bus_free > m_t.WL) c.write = std::max(c.write, m_bus_free - m_t.WL);
  return c;
}

std::uint64_t dram_scheduler::row_ready(std::uint32_t bank) const {
  const bank_state& b = m_banks[bank];
  if (b.open) return b.pre_ok;  // precharge first
  std::uint64_t t = m_act_ok;
  if (b.ever_activated) t = std::max({t, b.pre_at + m_t.tRP, b.act_at + m_t.tRC});
  return t;
}

void dram_scheduler::count_open_row_hits(std::uint32_t bank) {
  const bank_state& b = m_banks[bank];
  std::uint32_t n = 0, writes = 0;
  if (b.open)
    for (const entry& e : m_queue)
      if (e.r.bank == bank && e.r.row == b.row) {
        ++n;
        writes += e.r.write;
      }
  m_open_row_hits[bank] = n;
  m_open_row_write_hits[bank] = writes;
}

bool dram_scheduler::column_candidate(const column_common& c, std::uint64_t now) const {
  for (std::uint32_t b = 0; b < m_t.banks; ++b) {
    const std::uint32_t hits = m_open_row_hits[b];
    if (!hits || std::max(m_banks[b].col_ok, m_group_col_ok[m_group[b]]) > now) continue;
    const std::uint32_t writes = m_open_row_write_hits[b];
    if ((hits > writes && c.read <= now) || (writes && c.write <= now)) return true;
  }
  return false;
}

bool dram_scheduler::row_candidate(std::uint64_t now) const {
  // A bank's first queued request needs a row command when the bank has no hits queued.
  for (std::uint32_t b = 0; b < m_t.banks; ++b)
    if (m_queued[b] && !m_open_row_hits[b] && row_ready(b) <= now) return true;
  return false;
}

std::uint64_t dram_scheduler::next_ready(const column_common& c) const {
  std::uint64_t next = never;
  for (std::uint32_t b = 0; b < m_t.banks; ++b) {
    if (!m_queued[b]) continue;
    const std::uint32_t hits = m_open_row_hits[b];
    if (!hits) {
      next = std::min(next, row_ready(b));
      continue;
    }
    const std::uint32_t writes = m_open_row_write_hits[b];
    const std::uint64_t kind = std::min(hits > writes ? c.read : never, writes ? c.write : never);
    next = std::min(next, std::max({m_banks[b].col_ok, m_group_col_ok[m_group[b]], kind}));
  }
  return next;
}

std::uint64_t dram_scheduler::step(std::uint64_t now, std::vector<completion>& done) {
  if (m_queue.empty()) return never;
  bool row_issued = false;
  const bool col_bus_free = m_t.dual_bus ? m_last_col != now : m_last_cmd != now;

  // Column command: the oldest request whose row is open and whose timing allows it now
  // (FCFS: only the oldest request).
  const column_common cc = column_constraints();
  // Nothing can start a column access before both the read and the write constraints.
  if (col_bus_free && std::min(cc.read, cc.write) <= now &&
      (!m_t.fr_fcfs || column_candidate(cc, now))) {
    for (std::size_t i = 0; i < m_queue.size(); ++i) {
      entry& e = m_queue[i];
      bank_state& b = m_banks[e.r.bank];
      const bool hit = b.open && b.row == e.r.row;
      if (hit && column_ready(e, cc) <= now) {
        if (!e.started) {
          e.started = true;
          if (e.activated)
            ++m_row_misses;
          else
            ++m_row_hits;
        }
        const std::uint32_t bc = m_t.burst_cycles;
        m_col_ok = now + m_t.tCCD;
        m_group_col_ok[group_of(e.r.bank)] = now + std::max(m_t.tCCD, m_t.tCCDL);
        std::uint64_t data_end;
        if (e.r.write) {
          data_end = now + m_t.WL + bc;
          b.pre_ok = std::max(b.pre_ok, data_end + m_t.tWR);
          m_read_ok = std::max(m_read_ok, data_end + m_t.tCDLR);
        } else {
          data_end = now + m_t.CL + bc;
          b.pre_ok = std::max(b.pre_ok, now + std::max<std::uint64_t>(bc, m_t.tRTPL));
          const std::uint64_t rtw = m_t.CL + bc + 2 > m_t.WL ? m_t.CL + bc + 2 - m_t.WL : 0;
          m_write_ok = std::max(m_write_ok, now + rtw);
        }
        m_bus_free = data_end;
        m_last_data_start = data_end - bc;
        ++m_bursts;
        m_last_col = m_last_cmd = now;
        if (--e.left == 0) {
          done.push_back({e.r.tag, data_end, !e.activated, std::min(e.first_command, now)});
          --m_open_row_hits[e.r.bank];
          if (e.r.write) --m_open_row_write_hits[e.r.bank];
          --m_queued[e.r.bank];
          m_queue.erase(m_queue.begin() + static_cast<std::ptrdiff_t>(i));
        }
        break;
      }
      if (!m_t.fr_fcfs) break;
    }
  }

  // Row command for the oldest request that needs one, unless an older request uses its
  // bank or the bank still has row hits queued (FR-FCFS keeps the row open for them).
  if ((m_t.dual_bus ? m_last_row != now : m_last_cmd != now) &&
      (!m_t.fr_fcfs || row_candidate(now))) {
    std::uint64_t seen = 0;  // banks with an older request
    for (std::size_t i = 0; i < m_queue.size(); ++i) {
      entry& e = m_queue[i];
      bank_state& b = m_banks[e.r.bank];
      const std::uint64_t bit = std::uint64_t(1) << (e.r.bank & 63);
      const bool older = seen & bit;
      seen |= bit;
      if (b.open && b.row == e.r.row) {
        if (!m_t.fr_fcfs) break;
        continue;
      }
      if (older || m_open_row_hits[e.r.bank]) continue;
      if (row_ready(e) <= now) {
        if (b.open) {
          b.open = false;
          b.pre_at = now;
          e.first_command = std::min(e.first_command, now);
          m_open_row_hits[e.r.bank] = 0;
          m_open_row_write_hits[e.r.bank] = 0;
          ++m_precharges;
        } else {
          b.open = true;
          b.row = e.r.row;
          b.act_at = now;
          b.ever_activated = true;
          b.col_ok = now + m_t.tRCD;
          b.pre_ok = now + m_t.tRAS;
          m_act_ok = now + m_t.tRRD;
          ++m_activates;
          e.activated = true;
          e.first_command = std::min(e.first_command, now);
          count_open_row_hits(e.r.bank);
        }
        row_issued = true;
        m_last_row_bank = e.r.bank;
        m_last_row = m_last_cmd = now;
      }
      if (!m_t.fr_fcfs) break;
      if (row_issued) break;
    }
  }

  if (m_queue.empty()) return never;
  // Next cycle at which some request could issue.
  const column_common cn = column_constraints();
  if (m_t.fr_fcfs) return std::max(next_ready(cn), now + 1);
  // FCFS: the oldest request that can be next (a row command waits for its bank's hits).
  std::uint64_t next = never;
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < m_queue.size(); ++i) {
    const entry& e = m_queue[i];
    const bank_state& b = m_banks[e.r.bank];
    const std::uint64_t bit = std::uint64_t(1) << (e.r.bank & 63);
    const bool older = seen & bit;
    seen |= bit;
    std::uint64_t t;
    if (b.open && b.row == e.r.row) {
      t = column_ready(e, cn);
    } else {
      if (older || m_open_row_hits[e.r.bank]) continue;
      t = row_ready(e);
    }
    next = t;
    break;
  }
  return std::max(next, now + 1);
}

}  // namespace gputlm::memory
