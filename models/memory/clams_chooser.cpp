#include "models/memory/clams_chooser.h"

#include <algorithm>
#include <cmath>

namespace gputlm::memory {

clams_chooser::clams_chooser(const strategy_site& s, bool dynamic)
    : dram_chooser(s),
      m_critical_rank{owner(), key("critical_rank"), 0.5,
                      "a request whose core's rank (ready / live warps) is below this is "
                      "critical"},
      m_switch_fraction{owner(), key("switch_fraction"), 0.5,
                        "criticality-first while critical requests are fewer than this share "
                        "of the queue, else FR-FCFS (Dynamic CLAMS: the starting value)"},
      m_window{owner(), key("window"), 10000,
               "Dynamic CLAMS: DRAM cycles between adjustments of the switch fraction"},
      m_step{owner(), key("step"), 0.1, "Dynamic CLAMS: the switch fraction's adjustment"},
      m_dynamic(dynamic) {
  m_critical_rank.require(*m_critical_rank > 0 && *m_critical_rank <= 1, "expected (0, 1]");
  m_switch_fraction.require(*m_switch_fraction >= 0 && *m_switch_fraction <= 1, "expected [0, 1]");
  m_window.require(*m_window >= 1, "expected at least 1 cycle");
  m_step.require(*m_step > 0 && *m_step <= 1, "expected (0, 1]");
  m_critical_byte = static_cast<std::uint32_t>(std::ceil(*m_critical_rank * 128.0));
  m_switch = *m_switch_fraction;
  m_window_end = *m_window;
  const strategy_site inner{owner(), "", "fr_fcfs", nullptr};
  m_fr_fcfs = strategy_registry<dram_chooser>::instance().find("fr_fcfs")->make(inner);
  add_stat("clams_critical_served", m_critical_served,
           "requests of critical cores served (their last column access issued)");
  add_stat("clams_critical_first_commands", m_cf_commands,
           "DRAM commands chosen in criticality-first mode");
  add_stat("clams_fr_fcfs_commands", m_fr_commands, "DRAM commands chosen in FR-FCFS mode");
  add_stat(
      "clams_switch_fraction",
      [this] { return m_dynamic && m_windows ? m_fraction_sum / double(m_windows) : m_switch; },
      m_dynamic ? "the switch fraction's mean over the finished windows" : "the switch fraction");
}

bool clams_chooser::critical_first(const dram_engine& e, leaders& l) const {
  const auto& q = e.queue();
  std::size_t crit = 0;
  l.banks = 0;
  for (std::size_t i = e.first(); i < q.size(); ++i) {
    const dram_engine::entry& x = q[i];
    if (x.done) continue;
    if (critical(x.from.priority)) ++crit;
    const dram_engine::bank_state& b = e.bank(x.bank);
    const bool hit = b.open && b.row == x.row;
    // rank (0..128), then a row miss, then arrival; a started request goes first
    const std::uint64_t rank = clams_rank_128ths(x.from.priority);
    const std::uint64_t k = x.started ? 0 : (rank + 1) << 56 | std::uint64_t(!hit) << 55 | x.seq;
    const std::uint64_t bit = bank_bit(x.bank);
    if (!(l.banks & bit) || k < l.key[x.bank]) {
      l.banks |= bit;
      l.at[x.bank] = i;
      l.key[x.bank] = k;
      l.hit[x.bank] = hit;
    }
  }
  return crit != 0 && double(crit) < m_switch * double(e.size());
}

void clams_chooser::adapt(std::uint64_t now) {
  if (!m_dynamic) return;
  while (now >= m_window_end) {
    if (m_windows && m_served < m_last_served) m_direction = -m_direction;
    m_fraction_sum += m_switch;
    ++m_windows;
    m_switch = std::clamp(m_switch + m_direction * *m_step, 0.0, 1.0);
    m_last_served = m_served;
    m_served = 0;
    m_window_end += *m_window;
  }
}

void clams_chooser::served(const dram_engine& e, std::size_t at) {
  const dram_engine::entry& x = e.queue()[at];
  if (x.left == 1) {
    ++m_served;
    if (critical(x.from.priority)) ++m_critical_served;
  }
}

std::size_t clams_chooser::column(dram_engine& e, const dram_engine::column_common& c,
                                  std::uint64_t now) {
  adapt(now);
  leaders l;
  if (!critical_first(e, l)) {
    const std::size_t at = m_fr_fcfs->column(e, c, now);
    if (at != none) {
      ++m_fr_commands;
      served(e, at);
    }
    return at;
  }
  const std::size_t best = l.best(
      [&](std::uint32_t b) { return l.hit[b] && e.column_ready(e.queue()[l.at[b]], c) <= now; });
  if (best != none) {
    ++m_cf_commands;
    served(e, best);
  }
  return best;
}

std::size_t clams_chooser::row(dram_engine& e, std::uint64_t now) {
  leaders l;
  if (!critical_first(e, l)) {
    const std::size_t at = m_fr_fcfs->row(e, now);
    if (at != none) ++m_fr_commands;
    return at;
  }
  const std::size_t best =
      l.best([&](std::uint32_t b) { return !l.hit[b] && e.row_ready(b) <= now; });
  if (best != none) ++m_cf_commands;
  return best;
}

std::uint64_t clams_chooser::next_ready(const dram_engine& e, const dram_engine::column_common& c,
                                        std::uint64_t now) {
  // The earlier of the two modes' next commands: the mode may change before then (a
  // request arrives or leaves, a window ends), and asking early costs only a call.
  std::uint64_t next = m_fr_fcfs->next_ready(e, c, now);
  leaders l;
  critical_first(e, l);
  for_each_bank(l.banks, [&](std::uint32_t b) {
    next = std::min(next, l.hit[b] ? e.column_ready(e.queue()[l.at[b]], c) : e.row_ready(b));
  });
  if (m_dynamic) next = std::min(next, m_window_end);
  return std::max(next, now + 1);
}

namespace {
struct clams final : clams_chooser {
  explicit clams(const strategy_site& s) : clams_chooser(s, false) {}
};
struct clams_dynamic final : clams_chooser {
  explicit clams_dynamic(const strategy_site& s) : clams_chooser(s, true) {}
};
}  // namespace

GPUTLM_STRATEGY(dram_chooser, "clams", clams,
                "CLAMS: critical cores' requests first while few, else FR-FCFS");
GPUTLM_STRATEGY(dram_chooser, "clams_dynamic", clams_dynamic,
                "Dynamic CLAMS: CLAMS with its switch fraction adapted per window");

}  // namespace gputlm::memory
