// Thread-block scheduling policies (see tb_policy.h).
#include "models/control/tb_policy.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::control {

tb_choice lrr_policy::pick(tb_scheduler_view& v) {
  tb_choice c;
  const int e = m_tbs->pick(v.entries(), [&](std::size_t i) {
    if (!v.ready(i)) return false;
    for (std::size_t s = 0; s < v.smx_count(); ++s)
      if (v.fits(s, i)) return true;
    return false;
  });
  if (e < 0) return c;
  const int s = m_smxs->pick(v.smx_count(),
                             [&](std::size_t s) { return v.fits(s, static_cast<std::size_t>(e)); });
  if (s < 0) return c;
  c.entry = e;
  c.smx = s;
  return c;
}

namespace {

// Entry indices in FCFS order.
std::vector<std::size_t> fcfs_order(const std::vector<kde_record>& es) {
  std::vector<std::size_t> order(es.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return es[a].fcfs_order < es[b].fcfs_order;
  });
  return order;
}

}  // namespace

tb_choice bcs_policy::pick(tb_scheduler_view& v) {
  tb_choice c;
  const auto& es = v.entries();
  if (m_pending_smx >= 0) {  // the second TB of the pair follows the first
    for (std::size_t i = 0; i < es.size(); ++i) {
      if (es[i].kernel != m_pending_kernel || es[i].next_tb >= es[i].tbs_total) continue;
      if (!v.fits(static_cast<std::size_t>(m_pending_smx), i)) return c;  // (room was seen)
      c.entry = static_cast<int>(i);
      c.smx = m_pending_smx;
      m_pending_smx = -1;
      return c;
    }
    m_pending_smx = -1;
  }
  for (std::size_t i : fcfs_order(es)) {
    const kde_record& e = es[i];
    if (!e.tbs_left() || !v.ready(i)) continue;
    // Native TBs go in pairs; a kernel's last odd TB, and aggregated groups' TBs, alone.
    const std::uint32_t left = e.next_tb < e.tbs_total ? e.tbs_total - e.next_tb : 1;
    const std::uint32_t need = left >= 2 ? 2 : 1;
    for (std::size_t k = 0; k < v.smx_count(); ++k) {
      const std::size_t s = (m_next_smx + k) % v.smx_count();
      if (!v.fits(s, i, need)) continue;
      m_next_smx = (s + 1) % v.smx_count();
      c.entry = static_cast<int>(i);
      c.smx = static_cast<int>(s);
      if (need == 2 && e.next_tb < e.tbs_total) {
        m_pending_smx = static_cast<int>(s);
        m_pending_kernel = e.kernel;
      }
      return c;
    }
  }
  return c;
}

void paver_policy::start_kernel(tb_scheduler_view& v, std::size_t entry) {
  const kde_record& e = v.entries()[entry];
  m_active = true;
  m_kernel = e.kernel;
  m_queue.clear();
  m_regs.assign(v.smx_count(), smx_registers{});
  const paver::graph& g = v.locality_graph(entry);
  if (g.size() != e.tbs_total)
    throw std::logic_error("locality graph of " + std::to_string(g.size()) +
                           " TBs for a kernel of " + std::to_string(e.tbs_total));
  const std::uint32_t x = std::max<std::uint32_t>(1, v.capacity(0, entry));
  const auto n = static_cast<std::uint32_t>(v.smx_count());
  std::vector<paver::group> groups;
  switch (m_grouping) {
    case grouping::mst:
      groups = paver::mst_groups(g, n, x);
      break;
    case grouping::kway:
      groups = paver::kway_groups(g, n);
      break;
    case grouping::rb:
      groups = paver::rb_groups(g, x);
      break;
  }
  groups_made += groups.size();
  for (auto& grp : groups) m_queue.push_back(std::move(grp));
  // Kernel start: the first groups to the SMXs in round-robin order.
  const std::uint64_t now = v.now();
  for (std::size_t s = 0; s < m_regs.size(); ++s) take_group(s, now);
  m_next_smx = 0;
}

bool paver_policy::take_group(std::size_t smx, std::uint64_t now) {
  if (m_queue.empty()) return false;
  smx_registers& r = m_regs[smx];
  r.tbs = std::move(m_queue.front());
  m_queue.pop_front();
  r.next = 0;
  r.tail = static_cast<std::uint32_t>(r.tbs.size());
  r.ready_at = now + m_latency;  // nextTB = TBgroup[head], a global load
  return true;
}

bool paver_policy::steal_for(std::size_t smx, std::uint64_t now) {
  std::vector<std::uint32_t> waiting(m_regs.size());
  for (std::size_t s = 0; s < m_regs.size(); ++s) waiting[s] = m_regs[s].waiting();
  const auto [donor, max_minus_avg] = paver::task_steal(waiting);
  // The TB in the donor's nextTB register (TBgroup[next]) is on its way to issue: it
  // stays. (Taking it would leave two SMXs trading one TB, each reload resetting its load.)
  const std::uint32_t count = std::min(max_minus_avg, waiting[donor] ? waiting[donor] - 1 : 0);
  if (count == 0 || donor == smx) return false;
  smx_registers& d = m_regs[donor];
  smx_registers& r = m_regs[smx];
  // The donor's last `count` waiting TBs, from its tail.
  r.tbs.assign(d.tbs.begin() + (d.tail - count), d.tbs.begin() + d.tail);
  d.tail -= count;
  r.next = 0;
  r.tail = count;
  r.ready_at = now + m_latency;
  ++steals;
  stolen_tbs += count;
  return true;
}

tb_choice paver_policy::pick(tb_scheduler_view& v) {
  const auto& es = v.entries();
  int entry = -1;
  for (std::size_t i = 0; i < es.size(); ++i)
    if (es[i].next_tb < es[i].tbs_total &&
        (entry < 0 || es[i].fcfs_order < es[static_cast<std::size_t>(entry)].fcfs_order))
      entry = static_cast<int>(i);
  // No native TBs left anywhere: aggregated groups go as in LRR.
  if (entry < 0) return m_others->pick(v);
  const auto e = static_cast<std::size_t>(entry);
  if (!m_active || es[e].kernel != m_kernel) start_kernel(v, e);
  const std::uint64_t now = v.now();
  tb_choice c;
  const std::size_t n = m_regs.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t s = (m_next_smx + k) % n;
    if (!v.fits(s, e)) continue;  // no free context
    smx_registers& r = m_regs[s];
    if (r.next == r.tail && !take_group(s, now) &&
        !(m_stealing && m_grouping != grouping::mst && steal_for(s, now)))
      continue;
    if (r.ready_at > now) {  // nextTB not loaded yet
      if (c.retry_at == 0 || r.ready_at < c.retry_at) c.retry_at = r.ready_at;
      continue;
    }
    c.entry = entry;
    c.smx = static_cast<int>(s);
    c.tb = r.tbs[r.next++];
    c.retry_at = 0;
    r.ready_at = now + m_latency;  // nextTB = TBgroup[next], loaded behind the issue
    m_next_smx = (s + 1) % n;
    return c;
  }
  return c;
}

std::string paver_policy::hardware(std::size_t smxs) const {
  std::string s = "PAVER: per SMX next, tail (64 bit) and nextTB (16 bit) = 18 B x " +
                  std::to_string(smxs) + " = " + std::to_string(18 * smxs) + " B";
  if (m_stealing && m_grouping != grouping::mst)
    s += "; task stealer Max_WaitingTB, Average_WaitingTB, StolenTBcount = 6 B";
  return s;
}

std::unique_ptr<tb_policy> make_tb_policy(const std::string& name, const std::string& tb_selection,
                                          const std::string& smx_selection, bool task_stealing,
                                          std::uint64_t next_tb_latency) {
  auto lrr = [&] {
    return std::make_unique<lrr_policy>(make_tb_selection(tb_selection),
                                        make_smx_selection(smx_selection));
  };
  if (name == "lrr") return lrr();
  if (name == "bcs") return std::make_unique<bcs_policy>();
  if (name == "mst_ts")
    return std::make_unique<paver_policy>(paver_policy::grouping::mst, false, next_tb_latency,
                                          lrr());
  if (name == "kway_ts")
    return std::make_unique<paver_policy>(paver_policy::grouping::kway, task_stealing,
                                          next_tb_latency, lrr());
  if (name == "rb_ts")
    return std::make_unique<paver_policy>(paver_policy::grouping::rb, task_stealing,
                                          next_tb_latency, lrr());
  throw std::invalid_argument("unknown TB scheduling policy " + name);
}

}  // namespace gputlm::control
