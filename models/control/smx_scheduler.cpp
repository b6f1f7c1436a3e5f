#include "models/control/smx_scheduler.h"

#include <algorithm>
#include <cstring>

#include "models/common/block_factory.h"
#include "models/control/register_layout.h"
#include "models/control/workload.h"
#include "models/power/power_component.h"
#include "models/rtl/tb_dispatch_rtl.h"

namespace gputlm::control {

static_assert(tbcr_report_offset + sizeof(tb_report) <= payload_pool::max_bytes,
              "TBCR and report must fit a payload");

smx_scheduler::smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("kd", kd);
  declare_socket("doorbell", doorbell);
  declare_port("policy_source", policy_source_port);
  doorbell.register_b_transport(this, &smx_scheduler::doorbell_b);
  // One TBCR socket per SMX, as many as the platform binds.
  const std::uint64_t smxs = bound_array("smx", 1, 4096);
  for (std::uint64_t i = 0; i < smxs; ++i) {
    smx.push_back(std::make_unique<socket_type>(("smx_" + std::to_string(i)).c_str()));
    smx.back()->register_nb_transport_bw(this, &smx_scheduler::smx_bw, static_cast<int>(i));
    declare_socket("smx[" + std::to_string(i) + "]", *smx.back());
  }
  if (*m_dtbl) {
    agg = std::make_unique<tlm_utils::simple_target_socket<smx_scheduler>>("agg");
    agg->register_b_transport(this, &smx_scheduler::agg_b);
    declare_socket("agg", *agg);
    agt = std::make_unique<tlm_utils::simple_initiator_socket<smx_scheduler>>("agt");
    agt->register_nb_transport_bw(this, &smx_scheduler::agt_bw);
    declare_socket("agt", *agt);
  }
  m_smx.resize(smxs);
  m_dvr.assign(smxs, 0);
  monitor.bind(*this);
  declare_export("monitor", monitor);
  declare_port("events", events);
  SC_METHOD(dispatch);
  sensitive << m_wake;
  dont_initialize();
  add_stat("tbs_dispatched", m_tbs_dispatched, "TBs sent to SMXs");
  add_stat("tbs_completed", m_tbs_completed, "TBs completed");
  const std::string dp = dynamic_parallelism_stats;
  add_stat("child_wait", m_child_wait,
           "device kernels and DTBL groups: cycles from the launch instruction to the first TB "
           "dispatched",
           dp);
  add_stat("groups_coalesced", m_groups_coalesced, "DTBL groups coalesced into a native kernel",
           dp);
  add_stat("kde_misses", m_kde_misses,
           "DTBL groups that found no eligible KDE (run as device kernels, the fallback)", dp);
  add_stat(
      "kde_hit_rate",
      [this] {
        const double n = double(m_groups_coalesced.value() + m_kde_misses.value());
        return n ? double(m_groups_coalesced.value()) / n : 0.0;
      },
      "DTBL groups that found an eligible KDE / DTBL groups launched", dp);
  add_stat("group_tbs", m_group_tbs, "TBs of aggregated groups dispatched", dp);
  add_stat(
      "launch_record_bytes_peak", [this] { return launch_record_footprint().peak; },
      "peak bytes of launch records in global memory: a device kernel's KDE record (CDP or "
      "fallback) or a DTBL group's record kept off the AGT, from launch to the last TB",
      dp);
  add_stat(
      "launch_record_bytes_mean", [this] { return launch_record_footprint().mean; },
      "launch_record_bytes_peak's bytes averaged over the run (byte-cycles / cycles)", dp);
  add_stat("group_record_fetches", m_record_fetches,
           "DTBL groups whose record was fetched from global memory", dp);
  add_stat("group_record_writes", m_record_writes,
           "DTBL groups whose record the launching SMX wrote to global memory", dp);
  add_stat("occupancy", m_occupancy,
           "resident warps in % of all SMXs' warp slots (5 % buckets), weighted by cycles", dp);
  add_stat(
      "child_wait_mean",
      [this] { return m_child_waits ? double(m_child_wait_sum) / double(m_child_waits) : 0.0; },
      "mean of child_wait (cycles)", dp);
  add_stat(
      "occupancy_mean",
      [this] { return m_occupancy_cycles ? m_occupancy_sum / double(m_occupancy_cycles) : 0.0; },
      "resident warps over all SMXs' warp slots, time average up to the last TB completed", dp);
}

// A device kernel's record is its KDE's words as the KMU reads them into the KD; a DTBL
// group's is its 32-byte record, in memory only when the AGT had no entry for it.
smx_scheduler::record_footprint smx_scheduler::launch_record_footprint() const {
  const workload* w = work().ptr;
  if (!w) return {};
  const std::vector<kernel_run>& kernels = w->kernels();
  std::vector<std::pair<std::uint64_t, std::int64_t>> changes;  // (cycle, bytes)
  auto hold = [&](const kernel_run& k, std::int64_t bytes) {
    if (!k.finished || k.end_cycle < k.launch_cycle) return;
    changes.emplace_back(k.launch_cycle, bytes);
    changes.emplace_back(k.end_cycle, -bytes);
  };
  constexpr std::int64_t kde_bytes = std::int64_t(sizeof(reg_words<kde_layout::words>));
  for (const kernel_run& k : kernels)
    if (k.how == launch_kind::cdp || k.how == launch_kind::dtbl_fallback) hold(k, kde_bytes);
  for (const group_state& g : m_groups)
    if (group_ref::is_global(g.ref)) hold(kernels[g.kernel], 32);
  if (changes.empty()) return {};
  std::sort(changes.begin(), changes.end());  // a release before a take at the same cycle
  record_footprint f;
  std::int64_t held = 0;
  double byte_cycles = 0;
  std::uint64_t at = changes.front().first;
  for (const auto& [cycle, bytes] : changes) {
    byte_cycles += double(held) * double(cycle - at);
    at = cycle;
    held += bytes;
    f.peak = std::max(f.peak, double(held));
  }
  std::uint64_t last = 0;
  for (const kernel_run& k : kernels) last = std::max(last, k.end_cycle);
  f.mean = last ? byte_cycles / double(last) : 0.0;
  return f;
}

std::string smx_scheduler::pending_work() const {
  std::size_t waiting = 0, running = 0;
  for (const kde_record& e : m_entries) {
    waiting += e.tbs_left();
    running += e.tbs_running;
  }
  std::string s;
  if (!m_entries.empty())
    s = std::to_string(m_entries.size()) + " kernel entries (" + std::to_string(waiting) +
        " with TBs or groups to dispatch, " + std::to_string(running) + " TBs running)";
  if (std::string p = m_policy->pending(); !p.empty()) s += (s.empty() ? "" : "; ") + p;
  return s;
}

void smx_scheduler::validate() {
  m_dispatch_rtl.validate();
  m_record_prefetch.require(*m_record_prefetch <= 16, "expected 0..16 records");
  if (m_dispatch_rtl.is_rtl()) {
    const std::string with = " with dispatch.implementation: rtl";
    m_policy.require(m_policy.type() == "lrr",
                     "must be lrr" + with + " (the RTL is LRR's dispatch unit)");
    m_dtbl.require(!*m_dtbl, "must be false" + with + " (the RTL dispatches native TBs)");
    m_dispatch_rtl.implementation().require(smx.size() <= rtl::tb_dispatch_rtl::rtl_smxs,
                                            "rtl: " + std::to_string(smx.size()) +
                                                " SMXs exceed the RTL's storage of " +
                                                std::to_string(rtl::tb_dispatch_rtl::rtl_smxs));
  }
  m_tb_launch_latency.require(m_tb_launch_latency->value <= cycles::max_latency,
                              "must be at most " + units::format_cycles(cycles::max_latency));
}

// With the RTL dispatch unit: what it needs of the SMXs and the KD, read over the sockets.
void smx_scheduler::validate_bound() {
  m_policy.require(!policy_source_port || m_policy->takes_policy_source(),
                   "is " + m_policy.type() +
                       ", but policy_source is bound to a block that places the TBs (policy spu)");
  m_policy->bound(*this);
  if (!m_dispatch_rtl.is_rtl()) return;
  const auto& impl = m_dispatch_rtl.implementation();
  std::uint32_t kdes = 0;
  register_access(kd, tlm::TLM_READ_COMMAND, kd_register::entry_count, &kdes, sizeof kdes);
  impl.require(kdes <= rtl::tb_dispatch_rtl::rtl_kdes,
               "rtl: the Kernel Distributor's " + std::to_string(kdes) +
                   " entries exceed the RTL's " + std::to_string(rtl::tb_dispatch_rtl::rtl_kdes));
  std::uint32_t warp = 0;
  for (std::size_t s = 0; s < smx.size(); ++s) {
    const std::uint32_t w = unpack_caps(read_caps(s).data()).warp_size;
    impl.require(s == 0 || w == warp, "rtl: the SMXs' warp sizes differ (" + std::to_string(warp) +
                                          ", " + std::to_string(w) + "); the RTL takes one");
    warp = w;
  }
  try {
    m_dispatch =
        rtl::make_tb_dispatch_rtl(m_dispatch_rtl, smx.size(), warp, *m_concurrent_kernels_per_smx);
  } catch (const std::invalid_argument& e) {
    impl.require(false, std::string("rtl: ") + e.what());
  }
}

void smx_scheduler::add_traces(vcd_writer& vcd) {
  // The RTL dispatch unit's own signals, in a file beside the waveform (docs/rtl.md).
  if (m_dispatch && vcd.selected(name(), "dispatch.rtl"))
    m_dispatch->trace(vcd, std::string(name()) + ".dispatch");
  m_resident_tbs.trace(vcd, name(), "resident_tbs", 16);
  if (!work().ptr) return;
  m_kernel_traces.resize(work().ptr->kernels().size());
  bool any = false;
  for (std::size_t k = 0; k < m_kernel_traces.size(); ++k) {
    const std::string kernel = "kernel[" + std::to_string(k) + "].";
    m_kernel_traces[k].dispatched.trace(vcd, name(), kernel + "tbs_dispatched", 32);
    m_kernel_traces[k].finished.trace(vcd, name(), kernel + "tbs_finished", 32);
    any = any || m_kernel_traces[k].dispatched.traced() || m_kernel_traces[k].finished.traced();
  }
  if (!any) m_kernel_traces.clear();
}

void smx_scheduler::sample_occupancy(std::uint64_t now) {
  if (now > m_sampled_at && m_warp_capacity) {
    m_occupancy.sample(100 * m_resident_warps / m_warp_capacity, now - m_sampled_at);
    m_occupancy_sum +=
        double(m_resident_warps) / double(m_warp_capacity) * double(now - m_sampled_at);
    m_occupancy_cycles += now - m_sampled_at;
  }
  m_sampled_at = std::max(m_sampled_at, now);
}

void smx_scheduler::start_of_simulation() {
  // Read each SMX's capability registers.
  for (std::size_t s = 0; s < smx.size(); ++s) {
    const auto caps = read_caps(s);
    m_smx[s].caps = unpack_caps(caps.data());
    if (m_dispatch) m_dispatch->write_caps(static_cast<std::uint32_t>(s), caps);
    m_warp_capacity +=
        m_smx[s].caps.max_threads / std::max<std::uint32_t>(1, m_smx[s].caps.warp_size);
  }
}

void smx_scheduler::kd_access(tlm::tlm_command cmd, std::uint64_t addr, void* data, unsigned len) {
  register_access(kd, cmd, addr, data, len);
}

reg_words<caps_layout::words> smx_scheduler::read_caps(std::size_t s) {
  reg_words<caps_layout::words> caps{};
  register_access(*smx[s], tlm::TLM_READ_COMMAND, tbcr_caps, caps.data(), sizeof caps);
  return caps;
}

kde_record smx_scheduler::read_record(std::uint32_t entry) {
  reg_words<kde_layout::words> w{};
  kd_access(tlm::TLM_READ_COMMAND, entry * kd_register::entry_stride + kd_register::record,
            w.data(), sizeof w);
  return unpack_kde(w.data());
}

void smx_scheduler::doorbell_b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  std::uint32_t entry;
  std::memcpy(&entry, gp.get_data_ptr(), sizeof entry);
  m_entry_ids.push_back(entry);
  m_entries.push_back(read_record(entry));
  m_entry_groups.push_back({});
  if (m_dispatch) m_dispatch->write_kde(entry, pack(m_entries.back()));
  if (work().ptr) {
    kernel_run& k = work().ptr->kernel(m_entries.back().kernel);
    k.launched = true;
  }
  m_policy->source_added(*this, source_of(m_entries.back(), entry));
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
  events.notify([&](dispatch_events& o) { o.tbs_arrived(clock().now_cycle()); });
}

core::tb_demand smx_scheduler::demand_of(const kde_record& e) const {
  core::tb_demand d;
  d.threads = static_cast<std::uint32_t>(e.block.count());
  d.regs_per_thread = e.nregs;
  d.shared_memory = e.shmem;
  return d;
}

bool smx_scheduler::fits(const smx_state& s, const kde_record& e, std::uint32_t count) const {
  const core::tb_demand d = demand_of(e);
  const std::uint32_t ws = s.caps.warp_size;
  if (s.tbs > 0 && !*m_concurrent_kernels_per_smx && s.kernel != e.kernel) return false;
  return s.tbs + count <= s.caps.max_tbs &&
         s.threads + count * d.warps(ws) * ws <= s.caps.max_threads &&
         s.registers + count * d.registers(ws) <= s.caps.registers &&
         s.shared_memory + count * d.shared_memory <= s.caps.shared_memory;
}

bool smx_scheduler::fits(std::size_t smx, std::size_t entry, std::uint32_t count) const {
  return !m_dvr[smx] && fits(m_smx[smx], m_entries[entry], count);
}

std::uint32_t smx_scheduler::capacity(std::size_t smx, std::size_t entry) const {
  return m_dvr[smx] ? 0 : core::tbs_per_smx(m_smx[smx].caps, demand_of(m_entries[entry]));
}

std::uint32_t smx_scheduler::resident_warps(std::size_t smx) const {
  const smx_state& s = m_smx[smx];
  return s.threads / std::max<std::uint32_t>(1, s.caps.warp_size);
}

std::uint32_t smx_scheduler::warp_slots(std::size_t smx) const {
  const smx_state& s = m_smx[smx];
  return s.caps.max_threads / std::max<std::uint32_t>(1, s.caps.warp_size);
}

bool smx_scheduler::tbs_waiting() const {
  return std::any_of(m_entries.begin(), m_entries.end(),
                     [](const kde_record& e) { return e.tbs_left(); });
}

bool smx_scheduler::next_tb_fits(std::size_t smx) const {
  return std::any_of(m_entries.begin(), m_entries.end(),
                     [&](const kde_record& e) { return e.tbs_left() && fits(m_smx[smx], e, 1); });
}

void smx_scheduler::divert(std::size_t smx, bool on) {
  m_dvr[smx] = on;
  if (!on) m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
}

const char* smx_scheduler::diversion_unsupported() const {
  return m_dispatch_rtl.is_rtl()
             ? "the RTL dispatch unit (dispatch.implementation: rtl) keeps its own resource "
               "table and cannot skip a diverted SMX"
             : "";
}

bool smx_scheduler::claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                          std::uint32_t registers) {
  const smx_state& s = m_smx[smx];
  if (s.tbs + tbs > s.caps.max_tbs || s.threads + threads > s.caps.max_threads ||
      s.registers + registers > s.caps.registers)
    return false;
  take(smx, tbs, threads, registers);
  return true;
}

void smx_scheduler::take(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                         std::uint32_t registers) {
  smx_state& s = m_smx[smx];
  s.tbs += tbs;
  s.threads += threads;
  s.registers += registers;
}

void smx_scheduler::release_claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                                  std::uint32_t registers) {
  smx_state& s = m_smx[smx];
  s.tbs -= tbs;
  s.threads -= threads;
  s.registers -= registers;
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
}

std::uint32_t smx_scheduler::open_kernels() const {
  return work().ptr ? work().ptr->open_kernels() : 0;
}

std::uint64_t smx_scheduler::now() const { return clock().now_cycle(); }

int smx_scheduler::entry_of(std::uint32_t kde) const {
  for (std::size_t i = 0; i < m_entry_ids.size(); ++i)
    if (m_entry_ids[i] == kde) return static_cast<int>(i);
  return -1;
}

tb_source smx_scheduler::source_of(const kde_record& e, std::uint32_t kde) const {
  tb_source src;
  src.kde = kde;
  src.kernel = e.kernel;
  src.tbs = e.tbs_total;
  if (workload* w = work().ptr) {
    src.depth = w->kernel(e.kernel).depth;
    src.launch_smx = w->kernel(e.kernel).launch_smx;
  }
  return src;
}

// PAVER's JIT analysis: the kernel's locality graph from its trace (cached beside it).
const paver::graph& smx_scheduler::locality_graph(std::size_t entry,
                                                  std::uint32_t bytes_per_reference) {
  const kde_record& e = m_entries[entry];
  workload* w = work().ptr;
  if (!w) {
    m_locality.assign(e.tbs_total, {});
    return m_locality;
  }
  if (!m_locality_cache)
    m_locality_cache =
        std::make_unique<traces::locality_cache>(traces::open_locality_cache(w->trace().path()));
  double seconds = 0;
  traces::locality_graph g =
      traces::cached_locality_graph(*m_locality_cache, w->kernel(e.kernel).command_index,
                                    bytes_per_reference, w->trace(), &seconds);
  w->analysis_seconds += seconds;
  m_locality = std::move(g.adj);
  return m_locality;
}

void smx_scheduler::add_analysis_seconds(double seconds) {
  if (workload* w = work().ptr) w->analysis_seconds += seconds;
}

// Every SMX hears of a kernel's completion (its L1 is flushed at kernel end).
void smx_scheduler::kernel_done(std::uint32_t kernel) {
  for (auto& s : smx)
    register_access(*s, tlm::TLM_WRITE_COMMAND, tbcr_kernel_done, &kernel, sizeof kernel);
}

void smx_scheduler::wake_next_cycle() {
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(1)));
}

void smx_scheduler::dispatch() {
  const std::uint64_t now = clock().now_cycle();
  if (now == m_last_dispatch_cycle) {  // one TB per cycle
    wake_next_cycle();
    return;
  }
  tb_choice choice;
  reg_words<tbcr_layout::words> rtl_tbcr{};
  if (m_dispatch) {  // the RTL decides (LRR): its entry and SMX
    std::uint32_t s = 0;
    if (m_dispatch->dispatch(s, rtl_tbcr)) {
      choice.entry =
          entry_of(static_cast<std::uint32_t>(get_field(rtl_tbcr.data(), tbcr_layout::kde)));
      choice.smx = static_cast<int>(s);
    }
  } else {
    choice = m_policy->pick(*this);
  }
  if (choice.entry < 0) {  // nothing fits: sleep until a TB completes or a kernel arrives
    if (choice.retry_at > now)
      m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(choice.retry_at - now)));
    return;
  }
  const std::size_t ei = static_cast<std::size_t>(choice.entry);
  kde_record& entry = m_entries[ei];
  const int smx_index = choice.smx;

  const std::uint32_t kde = m_entry_ids[ei];
  std::uint32_t tb = 0;
  std::uint32_t kernel = entry.kernel;
  std::uint32_t agei = group_ref::none;
  if (choice.group == tb_source::none && entry.next_tb < entry.tbs_total) {
    kd_access(tlm::TLM_READ_COMMAND, kde * kd_register::entry_stride + kd_register::next_tb, &tb,
              sizeof tb);
    if (choice.tb != tb_choice::none_tb) tb = choice.tb;  // the policy's order, not NextBL
    ++entry.next_tb;
    if (entry.next_tb == entry.tbs_total && *m_dtbl) {
      // Its native TBs are scheduled: no longer the first time; unmarked unless groups wait.
      entry.first_time = 0;
      if (entry.nagei == group_ref::none) entry.marked = 0;
      write_groups(ei);
    }
  } else {
    // The next TB of the kernel's current aggregated group (SSCR = {KDEI, AGEI, NextBL}).
    // (A policy may name the group; else the chain's head.)
    entry_groups& eg = m_entry_groups[ei];
    const std::uint32_t seq = choice.group != tb_source::none ? choice.group : eg.head;
    group_state& g = m_groups[seq];
    tb = g.next_blk++;
    ++g.running;
    kernel = g.kernel;
    agei = g.ref;
    std::uint32_t one = 1;
    kd_access(tlm::TLM_WRITE_COMMAND, kde * kd_register::entry_stride + kd_register::group_tb, &one,
              sizeof one);
    if (!group_ref::is_global(g.ref)) {
      agt_command c;
      c.what = agt_command::op::dispatched;
      c.index = g.ref;
      agt_access(c);
    }
    ++m_group_tbs;
    if (g.next_blk == g.blocks) unlink_group(ei, seq);  // scheduled: on to Next
  }
  ++entry.tbs_running;

  smx_state& s = m_smx[static_cast<std::size_t>(smx_index)];
  const core::tb_demand d = demand_of(entry);
  s.tbs += 1;
  s.threads += d.warps(s.caps.warp_size) * s.caps.warp_size;
  s.registers += d.registers(s.caps.warp_size);
  s.shared_memory += d.shared_memory;
  s.kernel = entry.kernel;

  tb_descriptor desc;
  desc.kde = kde;
  desc.kernel = kernel;
  desc.tb = tb;
  desc.demand = d;
  desc.agei = agei;
  tlm::tlm_generic_payload& gp =
      m_pool.acquire(tbcr_launch, tbcr_report_offset, tlm::TLM_WRITE_COMMAND);
  store(gp.get_data_ptr(), m_dispatch ? rtl_tbcr : pack(desc));  // the TBCR as written
  payload_pool::request(gp).smx = static_cast<std::uint32_t>(smx_index);

  if (work().ptr) {
    kernel_run& k = work().ptr->kernel(kernel);
    if (!k.started) {
      k.started = true;
      k.start_cycle = now + *m_tb_launch_latency;
      if (k.device) {
        m_child_wait.sample(k.start_cycle - k.launch_cycle);
        m_child_wait_sum += k.start_cycle - k.launch_cycle;
        ++m_child_waits;
      }
    }
    tb_log_entry& log = k.tb_log(tb);
    log.tb = tb;
    log.smx = static_cast<std::uint32_t>(smx_index);
    log.start_cycle = now + *m_tb_launch_latency;
  }
  ++m_tbs_dispatched;
  m_resident_tbs.set(m_resident_tbs + 1);
  sample_occupancy(now);
  m_resident_warps += d.warps(s.caps.warp_size);
  if (kernel < m_kernel_traces.size()) {
    traced_value& v = m_kernel_traces[kernel].dispatched;
    v.set(v + 1);
  }
  m_last_dispatch_cycle = now;

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = clock().delay_cycles(*m_tb_launch_latency);
  (*smx[static_cast<std::size_t>(smx_index)])->nb_transport_fw(gp, phase, delay);
  wake_next_cycle();
  events.notify([&](dispatch_events& o) { o.tb_dispatched(std::size_t(smx_index), now); });
}

void smx_scheduler::unlink_group(std::size_t i, std::uint32_t seq) {
  kde_record& entry = m_entries[i];
  entry_groups& eg = m_entry_groups[i];
  group_state& g = m_groups[seq];
  if (eg.head == eg.tail) {
    eg.head = eg.tail = none;
    entry.nagei = group_ref::none;
    entry.marked = 0;  // LAGEI reached: unmarked
  } else if (seq == eg.head) {
    eg.head = g.next;
    m_groups[eg.head].prev = none;
    entry.nagei = m_groups[eg.head].ref;
  } else {  // taken out of the middle or the end (a policy's order): relink Next
    group_state& before = m_groups[g.prev];
    before.next = g.next;
    if (g.next != none) m_groups[g.next].prev = g.prev;
    if (seq == eg.tail) {
      eg.tail = g.prev;
      entry.lagei = before.ref;
    }
    if (!group_ref::is_global(before.ref)) {
      agt_command sn;
      sn.what = agt_command::op::set_next;
      sn.index = before.ref;
      sn.next = g.next == none ? group_ref::none : m_groups[g.next].ref;
      agt_access(sn);
    }
  }
  write_groups(i);
}

bool smx_scheduler::next_tb_ready(std::size_t i) {
  const kde_record& e = m_entries[i];
  if (e.next_tb < e.tbs_total) return true;
  if (e.nagei == group_ref::none) return false;
  return group_ready(m_entry_groups[i].head);
}

void smx_scheduler::group_on_chip(std::uint32_t seq) {
  group_state& g = m_groups[seq];
  if (!g.fetching) g.loaded = true;
}

bool smx_scheduler::group_ready(std::uint32_t seq) {
  group_state& g = m_groups[seq];
  const std::uint64_t now = clock().now_cycle();
  if (g.ready_cycle > now) {
    m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(g.ready_cycle - now)));
    return false;
  }
  if (!g.loaded) fetch_record(g);  // its record is in global memory: the AGT fetches it
  // The records of the groups behind it in the kernel's chain, fetched ahead.
  std::uint32_t ahead = g.next;
  for (std::uint64_t k = 0; k < *m_record_prefetch && ahead != none; ++k) {
    group_state& n = m_groups[ahead];
    if (!n.loaded && n.ready_cycle <= now) fetch_record(n);
    ahead = n.next;
  }
  return g.loaded;
}

void smx_scheduler::fetch_record(group_state& g) {
  if (g.fetching || g.loaded) return;
  g.fetching = true;
  ++m_record_fetches;
  record_access(g, g.fetch, tlm::TLM_READ_COMMAND);
}

void smx_scheduler::record_access(const group_state& g,
                                  std::unique_ptr<tlm::tlm_generic_payload>& slot,
                                  tlm::tlm_command cmd) {
  slot = std::make_unique<tlm::tlm_generic_payload>();
  slot->set_command(cmd);
  slot->set_address(g.address);
  slot->set_data_length(0);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  (*agt)->nb_transport_fw(*slot, phase, d);
}

tlm::tlm_sync_enum smx_scheduler::agt_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                         sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  for (group_state& g : m_groups)
    if (g.fetch.get() == &gp) {
      g.loaded = true;
      g.fetching = false;
    }
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

std::uint32_t smx_scheduler::agt_access(agt_command c, std::uint64_t* cycles) {
  register_access(*agt, tlm::TLM_WRITE_COMMAND, 0, &c, sizeof c);
  if (cycles) *cycles = c.cycles;
  return c.result;
}

void smx_scheduler::write_groups(std::size_t i) {
  const kde_record& e = m_entries[i];
  kd_groups g{e.nagei, e.lagei, e.marked, e.first_time};
  kd_access(tlm::TLM_WRITE_COMMAND,
            m_entry_ids[i] * kd_register::entry_stride + kd_register::groups, &g, sizeof g);
}

std::uint32_t smx_scheduler::seq_of(std::uint32_t ref) const {
  return group_ref::is_global(ref) ? (ref & ~group_ref::global_bit) : m_agt_seq.at(ref);
}

// The aggregation command of one warp (thesis Fig. 15, steps 4-8): each group joins the
// first valid KDE running the same function with the same TB shape.
void smx_scheduler::agg_b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  launch_command& c = *reinterpret_cast<launch_command*>(gp.get_data_ptr());
  workload* w = work().ptr;
  // KDEs are examined in the KD's order, one per kde_search_latency, pipelined across the
  // warp's groups (the longest search counts); then the AGT lookups.
  std::vector<std::size_t> order(m_entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return m_entry_ids[a] < m_entry_ids[b]; });
  std::uint64_t kde_search = 0;
  std::uint64_t lookup = 0;
  std::vector<std::uint32_t> joined_seq;
  std::uint64_t insert_cycles = 0;  // the policy's queue insertion (LaPerm's bound queues)
  for (std::uint32_t n = 0; n < c.count; ++n) {
    c.joined[n] = group_ref::none;
    const traces::kernel_info& info = w->reader(c.child[n]).info();
    const std::uint32_t fid = function_id(info.name);
    std::size_t found = order.size();
    std::uint64_t examined = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      ++examined;
      const kde_record& e = m_entries[order[k]];
      if (e.entry_pc == fid && e.block.x == info.block.x && e.block.y == info.block.y &&
          e.block.z == info.block.z) {
        found = k;
        break;
      }
    }
    kde_search = std::max(kde_search, examined);
    if (found == order.size()) {  // no eligible KDE: the KMU runs it as a device kernel
      ++m_kde_misses;
      continue;
    }
    const std::size_t i = order[found];
    kde_record& e = m_entries[i];
    const std::uint32_t seq = static_cast<std::uint32_t>(m_groups.size());
    m_groups.emplace_back();
    group_state& g = m_groups.back();
    g.kernel = c.child[n];
    g.kde = m_entry_ids[i];
    g.blocks = static_cast<std::uint32_t>(info.grid.count());
    // The group's record: an AGT entry if its hashed slot is free, else global memory.
    agt_command a;
    a.what = agt_command::op::allocate;
    a.index = c.hw_tid[n];
    a.smx = c.smx;
    a.group = c.child[n];
    a.blocks = g.blocks;
    const std::uint32_t slot = agt_access(a, &lookup);
    if (slot != group_ref::none) {
      g.ref = slot;
      if (m_agt_seq.size() <= slot) m_agt_seq.resize(std::size_t(slot) + 1, none);
      m_agt_seq[slot] = seq;
    } else {
      g.ref = group_ref::global_bit | seq;
      g.loaded = false;
      g.address = group_record_base + std::uint64_t(seq) * 32;
      if (*m_record_write) {  // step 2: the launching SMX stores the record (the AGT's path)
        ++m_record_writes;
        record_access(g, g.write, tlm::TLM_WRITE_COMMAND);
      }
    }
    // Linked behind the kernel's last group (Next of LAGEI), LAGEI updated; a kernel whose
    // TBs were all scheduled is queued again, starting at this group.
    entry_groups& eg = m_entry_groups[i];
    if (eg.tail != none) {
      group_state& last = m_groups[eg.tail];
      last.next = seq;
      g.prev = eg.tail;
      if (!group_ref::is_global(last.ref)) {
        agt_command sn;
        sn.what = agt_command::op::set_next;
        sn.index = last.ref;
        sn.next = g.ref;
        agt_access(sn);
      }
    }
    eg.tail = seq;
    e.lagei = g.ref;
    if (eg.head == none) eg.head = seq;
    if (!e.marked) {
      e.nagei = g.ref;
      e.marked = 1;
    } else if (e.nagei == group_ref::none) {
      e.nagei = g.ref;
    }
    write_groups(i);
    c.joined[n] = g.kde;
    joined_seq.push_back(seq);
    tb_source src;
    src.kde = g.kde;
    src.group = seq;
    src.kernel = c.child[n];
    src.tbs = g.blocks;
    src.depth = w->kernel(c.child[n]).depth;
    src.launch_smx = c.smx;
    insert_cycles = std::max(insert_cycles, m_policy->source_added(*this, src));
    ++m_groups_coalesced;
    kernel_run& run = w->kernel(c.child[n]);
    run.how = launch_kind::dtbl_group;
    run.coalesced_into = e.kernel;
    run.launched = true;
  }
  c.search_cycles = kde_search * m_kde_search_latency->value + lookup + insert_cycles;
  // A group's TBs may run once its launch is done: max(parameter buffer, searches).
  const std::uint64_t ready = c.issue_cycle + std::max(c.api_cycles, c.search_cycles);
  for (std::uint32_t seq : joined_seq) m_groups[seq].ready_cycle = ready;
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  events.notify([&](dispatch_events& o) { o.tbs_arrived(clock().now_cycle()); });
}

tlm::tlm_sync_enum smx_scheduler::smx_bw(int id, tlm::tlm_generic_payload& gp,
                                         tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  const auto words = load<tbcr_layout::words>(gp.get_data_ptr());
  const tb_descriptor desc = unpack_tbcr(words.data());
  if (m_dispatch) m_dispatch->release(static_cast<std::uint32_t>(id), words);
  tb_report report;
  std::memcpy(&report, gp.get_data_ptr() + tbcr_report_offset, sizeof report);
  gp.release();

  smx_state& s = m_smx[static_cast<std::size_t>(id)];
  s.tbs -= 1;
  m_policy->tb_completed(static_cast<std::size_t>(id), desc.kernel);
  s.threads -= desc.demand.warps(s.caps.warp_size) * s.caps.warp_size;
  s.registers -= desc.demand.registers(s.caps.warp_size);
  s.shared_memory -= desc.demand.shared_memory;
  ++m_tbs_completed;
  m_resident_tbs.set(m_resident_tbs - 1);
  if (desc.kernel < m_kernel_traces.size()) {
    traced_value& v = m_kernel_traces[desc.kernel].finished;
    v.set(v + 1);
  }

  const std::uint64_t now = clock().now_cycle();
  sample_occupancy(now);
  m_resident_warps -= desc.demand.warps(s.caps.warp_size);
  if (workload* w = work().ptr) {
    kernel_run& k = w->kernel(desc.kernel);
    tb_log_entry& log = k.tb_log(desc.tb);
    log.end_cycle = now;
    log.warp_instructions = report.warp_instructions;
    log.thread_instructions = report.thread_instructions;
    k.warp_instructions += report.warp_instructions;
    k.thread_instructions += report.thread_instructions;
  }
  if (desc.agei != group_ref::none) {  // a TB of an aggregated group (ExeBL of its AGE)
    group_state& g = m_groups[seq_of(desc.agei)];
    if (!group_ref::is_global(g.ref)) {
      agt_command c;
      c.what = agt_command::op::completed;
      c.index = g.ref;
      agt_access(c);
    }
    if (--g.running == 0 && g.next_blk == g.blocks) {
      if (!group_ref::is_global(g.ref)) m_agt_seq[g.ref] = none;
      if (workload* w = work().ptr) w->finish(desc.kernel, now);
    }
  }

  // Tell the Kernel Distributor; drop the mirror entry once its kernel is done. (The RTL's
  // copy of the entry is freed first: the KD may reuse the entry for a waiting launch, and
  // ring the doorbell for it, within the write below.)
  // (A launch the KD takes into the freed entry is mirrored after this one: `found` stays.)
  const int found = entry_of(desc.kde);
  if (m_dispatch && found >= 0) {
    const kde_record& e = m_entries[static_cast<std::size_t>(found)];
    if (e.tbs_running == 1 && !e.tbs_left()) m_dispatch->write_kde(desc.kde, pack(kde_record{}));
  }
  std::uint32_t one = 1;
  kd_access(tlm::TLM_WRITE_COMMAND, desc.kde * kd_register::entry_stride + kd_register::tb_done,
            &one, sizeof one);
  if (found >= 0) {
    const std::size_t i = static_cast<std::size_t>(found);
    if (--m_entries[i].tbs_running == 0 && !m_entries[i].tbs_left()) {
      const std::uint32_t kernel = m_entries[i].kernel;
      if (workload* w = work().ptr) w->finish(kernel, now);
      kernel_done(kernel);
      m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(i));
      m_entry_ids.erase(m_entry_ids.begin() + static_cast<std::ptrdiff_t>(i));
      m_entry_groups.erase(m_entry_groups.begin() + static_cast<std::ptrdiff_t>(i));
      // No kernel left on the SMXs: power policies hear of it (Snooze's L2 switch-off).
      if (m_entries.empty())
        if (power_registry* p = power()) p->gpu_idle(now_fs());
    }
  }
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
  events.notify([&](dispatch_events& o) { o.tb_completed(std::size_t(id), now); });
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

GPUTLM_BLOCK("smx_scheduler", smx_scheduler, "TB dispatch to SMXs", {"dispatch", "policy"});

}  // namespace gputlm::control
