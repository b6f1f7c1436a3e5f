#include "models/memory/dram_engine.h"

#include "models/memory/dram_chooser.h"

#include <algorithm>

namespace gputlm::memory {

dram_engine::dram_engine(const dram_timing& t, std::size_t queue_depth)
    : m_t(t),
      m_depth(queue_depth),
      m_banks(t.banks),
      m_group_col_ok(t.bank_groups ? t.bank_groups : 1, 0),
      m_group_banks(m_group_col_ok.size(), 0) {
  m_queue.reserve(2 * queue_depth + 1);
  for (std::uint32_t b = 0; b < t.banks; ++b) {
    m_group.push_back(group_of(b));
    if (m_group.back() < m_group_banks.size()) m_group_banks[m_group.back()] |= bank_bit(b);
  }
}

void dram_engine::push(const request& r) {
  if (m_queue.size() >= 2 * m_depth) compact();
  entry e;
  e.tag = r.tag;
  e.bank = r.bank;
  e.row = r.row;
  e.left = r.bursts ? r.bursts : 1;
  e.write = r.write;
  e.from = r.from;
  e.seq = m_seq++;
  m_queue.push_back(e);
  ++m_live;
  bank_state& b = m_banks[r.bank];
  ++b.queued;
  const auto at = static_cast<std::uint32_t>(m_queue.size() - 1);
  link_to_bank(at);
  // The youngest request: the oldest hit of its kind only if there was none.
  if (b.open && b.row == r.row && b.oldest_hit[r.write] == never) {
    b.oldest_hit[r.write] = e.seq;
    b.oldest_at[r.write] = at;
  }
  update_bank_bits(r.bank);
}

std::string dram_engine::describe_oldest() const {
  if (m_live == 0) return "none";
  const entry& e = m_queue[m_first];
  const bank_state& b = m_banks[e.bank];
  return std::string("oldest: ") + (e.write ? "write" : "read") + " to bank " +
         std::to_string(e.bank) + " row " + std::to_string(e.row) + ", column accesses left " +
         std::to_string(e.left) + "; bank " +
         (b.open ? "open at row " + std::to_string(b.row) : std::string("closed"));
}

std::uint32_t dram_engine::group_of(std::uint32_t bank) const {
  const std::uint32_t g = m_t.bank_groups ? m_t.bank_groups : 1;
  if (g == 1) return 0;
  return m_t.bank_group_low_bits ? bank % g : bank / (m_t.banks / g);
}

std::uint64_t dram_engine::row_ready(std::uint32_t bank) const {
  const bank_state& b = m_banks[bank];
  if (b.open) return b.pre_ok;  // precharge first
  std::uint64_t t = m_act_ok;
  if (b.ever_activated) t = std::max({t, b.pre_at + m_t.tRP, b.act_at + m_t.tRC});
  return t;
}

void dram_engine::find_oldest_hit(std::uint32_t bank, bool write, std::size_t from) {
  bank_state& b = m_banks[bank];
  b.oldest_hit[write] = never;
  while (b.head != k_none && m_queue[b.head].done) b.head = m_queue[b.head].bank_next;
  if (b.open)
    for (std::uint32_t i = b.head; i != k_none; i = m_queue[i].bank_next) {
      const entry& e = m_queue[i];
      if (i >= from && !e.done && e.row == b.row && e.write == write) {
        b.oldest_hit[write] = e.seq;
        b.oldest_at[write] = i;
        return;
      }
    }
}

void dram_engine::compact() {
  std::size_t n = 0;
  for (std::size_t i = m_first; i < m_queue.size(); ++i)
    if (!m_queue[i].done) m_queue[n++] = m_queue[i];
  m_queue.resize(n);
  m_first = 0;
  // The oldest hits keep their seq; their positions moved, and the banks' lists are made
  // again from the new positions.
  for (bank_state& b : m_banks) b.head = b.tail = k_none;
  for (std::uint32_t i = 0; i < n; ++i) {
    const entry& e = m_queue[i];
    bank_state& b = m_banks[e.bank];
    if (b.oldest_hit[e.write] == e.seq) b.oldest_at[e.write] = i;
    link_to_bank(i);
  }
}

void dram_engine::link_to_bank(std::uint32_t at) {
  entry& e = m_queue[at];
  bank_state& b = m_banks[e.bank];
  e.bank_next = k_none;
  if (b.head == k_none)
    b.head = at;
  else
    m_queue[b.tail].bank_next = at;
  b.tail = at;
}

void dram_engine::update_bank_bits(std::uint32_t bank) {
  const bank_state& b = m_banks[bank];
  const std::uint64_t bit = bank_bit(bank);
  auto set = [bit](std::uint64_t& banks, bool on) { banks = on ? banks | bit : banks & ~bit; };
  set(m_queued_banks, b.queued != 0);
  set(m_hit_banks[0], b.oldest_hit[0] != never);
  set(m_hit_banks[1], b.oldest_hit[1] != never);
}

void dram_engine::issue_column(std::size_t i, std::uint64_t now, std::vector<completion>& done) {
  entry& e = m_queue[i];
  bank_state& b = m_banks[e.bank];
  if (!e.started) {
    e.started = true;
    if (e.activated)
      ++m_row_misses;
    else
      ++m_row_hits;
  }
  const std::uint32_t bc = m_t.burst_cycles;
  m_col_ok = now + m_t.tCCD;
  m_group_col_ok[m_group[e.bank]] = now + std::max(m_t.tCCD, m_t.tCCDL);
  m_tRCD_banks &= ~bank_bit(e.bank);  // a column command issued: tRCD has passed
  std::uint64_t data_end;
  if (e.write) {
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
    done.push_back({e.tag, data_end, !e.activated, std::min(e.first_command, now)});
    const std::uint32_t bank = e.bank;
    const bool write = e.write;
    const bool oldest = b.oldest_hit[write] == e.seq;
    if (--b.queued == 0) b.head = b.tail = k_none;
    e.done = true;
    --m_live;
    if (m_live == 0) {
      m_queue.clear();
      m_first = 0;
    } else {
      while (m_queue[m_first].done) ++m_first;
    }
    // Every older hit of its kind is still queued; the next one, if it was the oldest,
    // comes after its place.
    if (oldest) find_oldest_hit(bank, write, i + 1);
    update_bank_bits(bank);
  }
}

void dram_engine::issue_row(entry& e, std::uint64_t now) {
  bank_state& b = m_banks[e.bank];
  e.first_command = std::min(e.first_command, now);
  if (b.open) {
    b.open = false;
    b.pre_at = now;
    b.oldest_hit[0] = b.oldest_hit[1] = never;
    m_tRCD_banks &= ~bank_bit(e.bank);  // closed: no row hits until the next ACT
    ++m_precharges;
  } else {
    b.open = true;
    b.row = e.row;
    b.act_at = now;
    b.ever_activated = true;
    b.col_ok = now + m_t.tRCD;
    b.pre_ok = now + m_t.tRAS;
    m_act_ok = now + m_t.tRRD;
    m_tRCD_banks |= bank_bit(e.bank);
    ++m_activates;
    e.activated = true;
    find_oldest_hit(e.bank, false, 0);
    find_oldest_hit(e.bank, true, 0);
  }
  update_bank_bits(e.bank);
  m_last_row_bank = e.bank;
  m_last_row = m_last_cmd = now;
}

void dram_engine::settle_trcd(std::uint64_t now) {
  for_each_bank(m_tRCD_banks, [&](std::uint32_t b) {
    if (m_banks[b].col_ok <= now) m_tRCD_banks &= ~bank_bit(b);
  });
}

std::uint64_t dram_engine::step(std::uint64_t now, std::vector<completion>& done,
                                dram_chooser& chooser) {
  if (m_live == 0) return never;

  // Column command: the request the chooser picks among those whose row is open and whose
  // timing allows it now.
  const column_common cc = column_constraints();
  bool col_issued = false;
  // Nothing can start a column access before both the read and the write constraints.
  if ((m_t.dual_bus ? m_last_col != now : m_last_cmd != now) &&
      std::min(cc.read, cc.write) <= now) {
    const std::size_t at = chooser.column(*this, cc, now);
    if (at != dram_chooser::none) {
      issue_column(at, now, done);
      col_issued = true;
    }
  }
  // Row command (PRE or ACT) for the request the chooser picks.
  if (m_t.dual_bus ? m_last_row != now : m_last_cmd != now) {
    const std::size_t at = chooser.row(*this, now);
    if (at != dram_chooser::none) issue_row(m_queue[at], now);
  }

  if (m_live == 0) return never;
  // Next cycle at which some request could issue.
  const column_common cn = col_issued ? column_constraints() : cc;
  return chooser.next_ready(*this, cn, now);
}

}  // namespace gputlm::memory
