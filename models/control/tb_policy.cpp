// Thread-block scheduling policies (see tb_policy.h).
#include "models/control/tb_policy.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace gputlm::control {

tb_choice lrr_policy::pick(tb_scheduler_view& v) {
  tb_choice c;
  const int e = m_tbs->pick(v.entries(), [&](std::size_t i) {
    if (!v.ready(i)) return false;
    for (std::size_t s = 0; s < v.smx_count(); ++s)
      if (placeable(v, i, s)) return true;
    return false;
  });
  if (e < 0) return c;
  const int s = m_smxs->pick(
      v.smx_count(), [&](std::size_t s) { return placeable(v, static_cast<std::size_t>(e), s); });
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
  const paver::graph& g = v.locality_graph(entry, m_granularity);
  if (g.size() != e.tbs_total)
    throw std::logic_error("locality graph of " + std::to_string(g.size()) +
                           " TBs for a kernel of " + std::to_string(e.tbs_total));
  const std::uint32_t x = std::max<std::uint32_t>(1, v.capacity(0, entry));
  const auto n = static_cast<std::uint32_t>(v.smx_count());
  const auto started = std::chrono::steady_clock::now();
  std::vector<paver::group> groups;
  switch (m_grouping) {
    case grouping::mst:
      groups = paver::mst_groups(g, n, x, &jit);
      break;
    case grouping::kway:
      groups = paver::kway_groups(g, n, &jit);
      break;
    case grouping::rb:
      groups = paver::rb_groups(g, x, &jit);
      break;
  }
  v.add_analysis_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
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

// LaPerm ----------------------------------------------------------------------------------

std::uint64_t laperm_policy::source_added(tb_scheduler_view& v, const tb_source& src) {
  const std::uint32_t p = priority(src.depth);
  if (m_global.empty()) {
    m_global.resize(m_p.levels + 1);
    if (m_mode != mode::tb_pri) {
      m_bound.assign(units(v.smx_count()), level_queues(m_p.levels + 1));
      m_backup.assign(v.smx_count(), tb_source::none);
    }
  }
  queued q{src, src.tbs};
  if (q.left == 0) return 0;
  if (m_mode == mode::tb_pri || p == 0) {
    // TB-Pri's queues are the AGT and global memory; Bind's PQ0 holds shared_entries on chip.
    if (m_mode != mode::tb_pri && m_global[0].size() >= m_p.shared_entries) ++overflowed;
    m_global[p].push_back(q);
    return 0;  // FCFS within a level: appended at the tail (AGT / global-memory queues)
  }
  // SMX-Bind: the bound unit's array of on-chip entries, levels in decreasing priority;
  // the insertion scans the entries of higher or equal priority for its position.
  level_queues& qs = m_bound[unit_of(src.launch_smx % v.smx_count())];
  std::size_t held = 0, ahead = 0;
  for (std::uint32_t l = 1; l <= m_p.levels; ++l) {
    held += qs[l].size();
    if (l >= p) ahead += qs[l].size();
  }
  if (held >= std::size_t(m_p.onchip_entries) * m_p.cluster)
    ++overflowed;  // kept in the global-memory overflow
  else if (src.group != tb_source::none)
    v.group_on_chip(src.group);  // its 24-B entry holds what the scheduler needs
  qs[p].push_back(q);
  if (src.group == tb_source::none) return 0;  // CDP: the KMU's store, no extra cycles
  return std::min<std::uint64_t>(ahead + 1, std::uint64_t(m_p.onchip_entries) * m_p.cluster);
}

bool laperm_policy::empty(const level_queues& qs, std::uint32_t lo, std::uint32_t hi) const {
  for (std::uint32_t l = lo; l <= hi && l < qs.size(); ++l)
    if (!qs[l].empty()) return false;
  return true;
}

laperm_policy::slot laperm_policy::find(tb_scheduler_view& v, level_queues& qs, std::uint32_t lo,
                                        std::uint32_t hi, int s, int* smx_out) {
  const std::size_t n = v.smx_count();
  m_unfit.clear();  // entries whose TB fits nowhere (same demand: skip the rest)
  for (std::uint32_t l = std::min<std::uint32_t>(hi, std::uint32_t(qs.size()) - 1) + 1; l-- > lo;) {
    bool group_seen = false;  // groups leave a queue in order: only its first is a candidate
    std::deque<queued>& queue = qs[l];
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const queued& q = queue[i];
      if (q.src.group != tb_source::none) {
        if (group_seen) continue;
        group_seen = true;
      }
      const int e = v.entry_of(q.src.kde);
      if (e < 0) continue;
      if (std::find(m_unfit.begin(), m_unfit.end(), e) != m_unfit.end()) continue;
      const bool ready = q.src.group == tb_source::none ? v.entries()[std::size_t(e)].next_tb <
                                                              v.entries()[std::size_t(e)].tbs_total
                                                        : v.group_ready(q.src.group);
      if (!ready) continue;
      if (s >= 0) {
        if (v.fits(std::size_t(s), std::size_t(e))) return {&queue, i};
        m_unfit.push_back(e);
        continue;
      }
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t t = (m_next_smx + k) % n;
        if (v.fits(t, std::size_t(e))) {
          *smx_out = int(t);
          return {&queue, i};
        }
      }
      m_unfit.push_back(e);
    }
  }
  return {};
}

tb_choice laperm_policy::take(tb_scheduler_view& v, slot q, int smx) {
  queued& src = *q;
  tb_choice c;
  c.entry = v.entry_of(src.src.kde);
  c.smx = smx;
  c.group = src.src.group;
  if (--src.left == 0) q.queue->erase(q.queue->begin() + std::ptrdiff_t(q.index));
  return c;
}

// Which queues SMX s takes its next TB from (0: none, 1: its unit's, 2: PQ0, 3: backup).
int laperm_policy::select(tb_scheduler_view& v, std::size_t s, slot* q) {
  const std::size_t u = unit_of(s);
  const int si = int(s);
  if ((*q = find(v, m_bound[u], 1, m_p.levels, si, nullptr))) return 1;
  if ((*q = find(v, m_global, 0, 0, si, nullptr))) return 2;
  if (m_mode != mode::adaptive_bind || !empty(m_bound[u], 1, m_p.levels) || !empty(m_global, 0, 0))
    return 0;
  std::uint32_t& b = m_backup[s];
  if (b == tb_source::none || empty(m_bound[b], 1, m_p.levels)) {
    b = tb_source::none;
    for (std::size_t k = 1; k < m_bound.size(); ++k) {
      const std::size_t t = (u + k) % m_bound.size();
      if (!empty(m_bound[t], 1, m_p.levels)) {
        b = std::uint32_t(t);
        break;
      }
    }
    if (b == tb_source::none) return 0;
  }
  if ((*q = find(v, m_bound[b], 1, m_p.levels, si, nullptr))) return 3;
  return 0;
}

tb_choice laperm_policy::pick(tb_scheduler_view& v) {
  tb_choice none;
  if (m_global.empty()) return none;  // no source yet
  const std::size_t n = v.smx_count();
  if (m_mode == mode::tb_pri) {
    int smx = -1;
    const slot q = find(v, m_global, 0, m_p.levels, -1, &smx);
    if (!q) return none;
    m_next_smx = (std::size_t(smx) + 1) % n;
    return take(v, q, smx);
  }
  // One SMX examined per cycle, round robin: the first that has something to take is k
  // cycles of scanning away.
  const std::uint64_t now = v.now();
  if (now < m_scan_due) {
    none.retry_at = m_scan_due;
    return none;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t s = (m_next_smx + k) % n;
    slot q;
    const int stage = select(v, s, &q);
    if (!stage) continue;
    if (k > 0) {
      m_next_smx = s;
      m_scan_due = now + k;
      scan_cycles += k;
      none.retry_at = m_scan_due;
      return none;
    }
    bound_tbs += stage == 1;
    backup_tbs += stage == 3;
    m_next_smx = (s + 1) % n;
    return take(v, q, int(s));
  }
  return none;
}

bool laperm_policy::holds_tbs_for(std::size_t smx) const {
  if (m_mode == mode::tb_pri || m_bound.empty()) return false;
  return !empty(m_bound[unit_of(smx)], 1, m_p.levels);
}

std::string laperm_policy::pending() const {
  std::size_t sources = 0, tbs = 0;
  auto count = [&](const level_queues& qs) {
    for (const auto& level : qs)
      for (const queued& q : level) {
        ++sources;
        tbs += q.left;
      }
  };
  count(m_global);
  for (const level_queues& qs : m_bound) count(qs);
  if (!sources) return {};
  return "LaPerm queues hold " + std::to_string(sources) + " sources with " + std::to_string(tbs) +
         " TBs to dispatch";
}

std::string laperm_policy::hardware(std::size_t smxs) const {
  const std::uint32_t ptr_bits = 8;  // an index into 128 entries
  if (m_mode == mode::tb_pri)
    return "LaPerm TB-Pri: " + std::to_string(m_p.levels + 1) +
           " priority queues (CDP: in global memory; DTBL: the AGT and its overflow), a " +
           std::to_string(m_p.levels + 1) + "-level head/tail pointer pair each (" +
           std::to_string((m_p.levels + 1) * 2 * 4) + " B)";
  const std::size_t bytes = smxs * std::size_t(m_p.onchip_entries) * 24;
  std::string s =
      "LaPerm " + std::string(m_mode == mode::smx_bind ? "SMX-Bind" : "Adaptive-Bind") +
      ": per SMX " + std::to_string(m_p.onchip_entries) + " x 24 B bound queue + " +
      std::to_string(m_p.levels > 0 ? m_p.levels - 1 : 0) + " x " + std::to_string(ptr_bits) +
      "-bit level pointers (" + std::to_string(bytes) + " B for " + std::to_string(smxs) +
      " SMXs); shared PQ0 " + std::to_string(m_p.shared_entries) +
      " x 24 B = " + std::to_string(m_p.shared_entries * 24) + " B; overflow in global memory";
  if (m_mode == mode::adaptive_bind) {
    std::uint32_t bits = 1;
    while ((std::size_t(1) << bits) < units(smxs) + 1) ++bits;
    s += "; backup-queue register " + std::to_string(bits) + " bits per SMX";
  }
  if (m_p.cluster > 1)
    s += "; queues bound to clusters of " + std::to_string(m_p.cluster) + " SMXs";
  return s;
}

std::unique_ptr<tb_policy> make_tb_policy(const std::string& name, const std::string& tb_selection,
                                          const std::string& smx_selection, bool task_stealing,
                                          std::uint64_t next_tb_latency,
                                          const laperm_policy::params& laperm) {
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
  if (name == "tb_pri") return std::make_unique<laperm_policy>(laperm_policy::mode::tb_pri, laperm);
  if (name == "smx_bind")
    return std::make_unique<laperm_policy>(laperm_policy::mode::smx_bind, laperm);
  if (name == "adaptive_bind")
    return std::make_unique<laperm_policy>(laperm_policy::mode::adaptive_bind, laperm);
  throw std::invalid_argument("unknown TB scheduling policy " + name);
}

// --- The policies as the SMX scheduler's strategies (`policy:`), with their parameters and
// statistics.
namespace {

class lrr_strategy final : public lrr_policy, public strategy {
 public:
  explicit lrr_strategy(const strategy_site& s) : lrr_policy(nullptr, nullptr), strategy(s) {
    m_tbs = make_tb_selection(*m_tb_selection);
    m_smxs = make_smx_selection(*m_smx_selection);
  }

 private:
  choice_param m_tb_selection{
      owner(), key("tb_selection"), "fcfs", "which kernel entry's TB goes next", {"fcfs"}};
  choice_param m_smx_selection{
      owner(), key("smx_selection"), "round_robin", "which SMX gets it", {"round_robin"}};
};

class bcs_strategy final : public bcs_policy, public strategy {
 public:
  explicit bcs_strategy(const strategy_site& s) : strategy(s) {}
};

// Host time of PAVER's JIT grouping per Prim/METIS call and per graph entry, for MST-TS,
// k-way-TS and RB-TS: fitted on the 2-core host of docs/tb-scheduling.md ("Analysis time")
// by bench/paver/jit_fit.py, which refits them for another host.
struct jit_cost {
  double ns_per_call, ns_per_entry;
};
constexpr jit_cost k_jit_cost[] = {{46957, 44.0}, {43481, 28.4}, {13033, 28.1}};

// PAVER: its inner LRR takes the kernels and groups it does not partition.
template <paver_policy::grouping G>
class paver_strategy final : public paver_policy, public strategy {
 public:
  explicit paver_strategy(const strategy_site& s)
      : paver_policy(G, false, 0, make_tb_policy("lrr", "fcfs", "round_robin", false, 0)),
        strategy(s) {
    if (G != grouping::mst)  // (MST-TS takes no task stealing: the key would be an error)
      m_task_stealing = std::make_unique<param<bool>>(
          owner(), key("task_stealing"), true, "kway_ts, rb_ts: task stealing (PAVER Algorithm 2)");
    m_stealing = m_task_stealing && **m_task_stealing;
    m_latency = m_next_tb_latency->value;
    m_locality_granularity.require(*m_locality_granularity >= 1 && *m_locality_granularity <= 4096,
                                   "must be 1 to 4096 bytes");
    m_granularity = static_cast<std::uint32_t>(*m_locality_granularity);
    m_jit_ns_per_call.require(*m_jit_ns_per_call >= 0, "must not be negative");
    m_jit_ns_per_entry.require(*m_jit_ns_per_entry >= 0, "must not be negative");
    add_stat("paver_groups", [this] { return double(groups_made); },
             "TB groups made from locality graphs");
    add_stat("paver_steals", [this] { return double(steals); }, "task steals");
    add_stat("paver_stolen_tbs", [this] { return double(stolen_tbs); },
             "TBs moved by task stealing");
    add_stat(
        "paver_jit_calls", [this] { return double(jit.calls); },
        "calls of Prim and METIS in the JIT grouping");
    add_stat(
        "paver_jit_entries", [this] { return double(jit.entries); },
        "vertices + adjacency entries of the graphs handed to those calls");
    add_stat(
        "paver_jit_ns",
        [this] {
          return double(jit.calls) * *m_jit_ns_per_call + double(jit.entries) * *m_jit_ns_per_entry;
        },
        "modelled host time of the JIT grouping: calls x jit_ns_per_call + entries x "
        "jit_ns_per_entry");
  }

 private:
  std::unique_ptr<param<bool>> m_task_stealing;
  param<cycles> m_next_tb_latency{
      owner(), key("next_tb_latency"), {200},
      "load of an SMX's nextTB register from the global queue (a global-memory load)"};
  param<std::uint64_t> m_locality_granularity{owner(), key("locality_granularity"), 4,
                                              "bytes per data reference of the locality graph"};
  param<double> m_jit_ns_per_call{owner(), key("jit_ns_per_call"),
                                  k_jit_cost[static_cast<int>(G)].ns_per_call,
                                  "host nanoseconds per Prim or METIS call of the JIT grouping "
                                  "(fitted to this host: docs/tb-scheduling.md)"};
  param<double> m_jit_ns_per_entry{owner(), key("jit_ns_per_entry"),
                                   k_jit_cost[static_cast<int>(G)].ns_per_entry,
                                   "host nanoseconds per graph entry handed to those calls "
                                   "(fitted to this host: docs/tb-scheduling.md)"};
};

template <laperm_policy::mode M>
class laperm_strategy final : public laperm_policy, public strategy {
 public:
  explicit laperm_strategy(const strategy_site& s) : laperm_policy(M, {}), strategy(s) {
    m_levels.require(*m_levels <= 64, "must be at most 64");
    m_bound.require(*m_bound >= 1 && *m_bound <= 65536, "must be between 1 and 65536");
    m_shared.require(*m_shared >= 1 && *m_shared <= 65536, "must be between 1 and 65536");
    m_p.levels = static_cast<std::uint32_t>(*m_levels);
    m_p.cluster = static_cast<std::uint32_t>(*m_cluster);
    m_p.onchip_entries = static_cast<std::uint32_t>(*m_bound);
    m_p.shared_entries = static_cast<std::uint32_t>(*m_shared);
    add_stat("laperm_bound_tbs", [this] { return double(bound_tbs); },
             "TBs an SMX took from its own bound queues");
    add_stat("laperm_backup_tbs", [this] { return double(backup_tbs); },
             "Adaptive-Bind: TBs an SMX took from its backup unit's queues");
    add_stat("laperm_overflow", [this] { return double(overflowed); },
             "sources queued beyond the on-chip queue entries (kept in global memory)");
    add_stat("laperm_scan_cycles", [this] { return double(scan_cycles); },
             "cycles the one-SMX-per-cycle scan spent on SMXs with nothing to take");
  }
  void bound(tb_scheduler_view& v) override {
    m_cluster.require(*m_cluster >= 1 && *m_cluster <= v.smx_count(),
                      "must be between 1 and the SMX count (" + std::to_string(v.smx_count()) +
                          ")");
  }

 private:
  param<std::uint64_t> m_levels{
      owner(), key("priority_levels"), 4,
      "L, the highest priority (a child's is its parent's + 1, clamped at L)"};
  param<std::uint64_t> m_cluster{owner(), key("smx_cluster"), 1,
                                 "SMXs sharing one L1 (SMX-Bind binds to the cluster)"};
  param<std::uint64_t> m_bound{
      owner(), key("bound_queue_entries"), 128,
      "SMX-Bind: on-chip bound-queue entries per SMX (24 B each); more overflow to global memory"};
  param<std::uint64_t> m_shared{owner(), key("shared_queue_entries"), 32,
                                "SMX-Bind: on-chip entries of the shared PQ0"};
};

using mode = laperm_policy::mode;
using grouping = paver_policy::grouping;
GPUTLM_STRATEGY(tb_policy, "lrr", lrr_strategy,
                "loose round robin: KDEs FCFS, TB ids in order, SMXs round robin");
GPUTLM_STRATEGY(tb_policy, "bcs", bcs_strategy, "block-CTA scheduling: TBs in pairs to one SMX");
GPUTLM_STRATEGY(tb_policy, "mst_ts", paver_strategy<grouping::mst>,
                "PAVER: TB groups of the locality graph's maximum spanning tree");
GPUTLM_STRATEGY(tb_policy, "kway_ts", paver_strategy<grouping::kway>,
                "PAVER: k-way partitions of the locality graph, task stealing");
GPUTLM_STRATEGY(tb_policy, "rb_ts", paver_strategy<grouping::rb>,
                "PAVER: recursive bisection of the locality graph, task stealing");
GPUTLM_STRATEGY(tb_policy, "tb_pri", laperm_strategy<mode::tb_pri>,
                "LaPerm TB-Pri: priority queues by launch depth");
GPUTLM_STRATEGY(tb_policy, "smx_bind", laperm_strategy<mode::smx_bind>,
                "LaPerm SMX-Bind: children queued on their parent's SMX");
GPUTLM_STRATEGY(tb_policy, "adaptive_bind", laperm_strategy<mode::adaptive_bind>,
                "LaPerm Adaptive-Bind: SMX-Bind with a backup SMX's queues");

}  // namespace
}  // namespace gputlm::control
