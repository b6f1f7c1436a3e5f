#include "models/control/kmu.h"

#include <algorithm>
#include <cstring>

#include "models/common/block_factory.h"
#include "models/common/edge_scheduler.h"
#include "models/control/register_layout.h"
#include "models/control/workload.h"

namespace gputlm::control {

static_assert(sizeof(reg_words<kde_layout::words>) <= payload_pool::max_bytes,
              "KDE must fit a payload");

kmu::kmu(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
  declare_socket("kd", kd);
  kd.register_nb_transport_bw(this, &kmu::nb_transport_bw);
  // One launch path per SMX, as many as the platform binds.
  const std::uint64_t smxs = bound_array("smx", 0, 4096);
  for (std::uint64_t i = 0; i < smxs; ++i) {
    smx.push_back(std::make_unique<launch_socket>(("smx_" + std::to_string(i)).c_str()));
    smx.back()->register_nb_transport_fw(this, &kmu::launch_fw, static_cast<int>(i));
    smx.back()->register_b_transport(this, &component::at_only_tagged, static_cast<int>(i));
    declare_socket("smx[" + std::to_string(i) + "]", *smx.back());
  }
  if (*m_dtbl) {
    agg = std::make_unique<tlm_utils::simple_initiator_socket<kmu>>("agg");
    declare_socket("agg", *agg);
  }
  SC_THREAD(host_thread);
  add_stat("kernels_dispatched", m_kernels_dispatched,
           "kernels written into the Kernel Distributor");
  add_stat("kernels_completed", m_kernels_completed, "kernels completed");
  const std::string dp = dynamic_parallelism_stats;
  add_stat("device_kernels", m_device_kernels,
           "kernels launched from the device (CDP, DTBL fallback)", dp);
  add_stat("launch_commands", m_launch_commands,
           "launch commands from SMXs (one per warp's run of launches)", dp);
  add_stat("pool_full_waits", m_pool_full_waits,
           "launch commands that waited for room in the launch pool", dp);
  add_stat("dtbl_fallback_groups", m_fallback_groups,
           "DTBL groups that found no native kernel and ran as device kernels", dp);
  add_stat(
      "launch_latency", m_launch_latency,
      "cycles from a warp's launch API calls to its launch taken (CDP: the Table 5 sum and any "
      "wait for the pool; DTBL: max(parameter buffer, KDE and AGT search))",
      dp);
  add_stat(
      "max_pending_launches", [this] { return double(m_max_pending); },
      "most kernels in the launch pool at once", dp);
  m_order = std::make_unique<launch_pool_order>(
      *m_pool_order, static_cast<std::uint32_t>(*m_priority_levels), smx.size());
  if (*m_pool_order == "smx_bound")
    add_stat("pool_scan_cycles", m_scan_cycles,
             "LaPerm: cycles the KMU spent examining SMX-bound queues with nothing eligible");
}

void kmu::validate() {
  m_hw_queues.require(*m_hw_queues >= 1, "needs at least one hardware queue");
  m_hw_queues.require(*m_hw_queues <= 4096, "must be at most 4096");
  m_pending_launch_limit.require(*m_pending_launch_limit >= 1, "must be at least 1");
  m_priority_levels.require(*m_priority_levels <= 64, "must be at most 64");
  for (const param<cycles>* l : {&m_kernel_launch_latency, &m_dispatch_latency})
    l->require((*l)->value <= cycles::max_latency,
               "must be at most " + units::format_cycles(cycles::max_latency));
}

std::string kmu::pending_work() const {
  if (m_pool_queue.empty() && m_waiting.empty()) return {};
  std::string s = std::to_string(m_pool_queue.size()) + " device kernels in the launch pool, " +
                  std::to_string(m_waiting.size()) + " launches waiting for room in it";
  if (!m_waiting.empty())  // the parents hold the SMXs their children need
    s += " (pool full: raise kmu.pending_launch_limit, as the application would with "
         "cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount))";
  return s;
}

void kmu::explain_deadlock() const {
  // Launches block while the pool is full, and their parents' TBs hold the SMXs the pooled
  // children need: the workload cannot run under this limit (the CUDA runtime would fail
  // the launch with cudaErrorLaunchPendingCountExceeded).
  m_pending_launch_limit.require(
      m_waiting.empty(),
      "is too small for this workload: the launch pool is full (" +
          std::to_string(m_pool_queue.size()) + " device kernels) and " +
          std::to_string(m_waiting.size()) +
          " launches wait for room while their parents hold the SMXs; raise it, as the "
          "application would with cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount)");
}

void kmu::host_thread() {
  workload* w = work().ptr;
  if (!w) return;
  m_queues.assign(*m_hw_queues, hw_queue{});
  m_state.assign(w->kernels().size(), kernel_state{});
  // The host launches every kernel of the command list at time 0; streams map onto HWQs.
  for (std::uint32_t k = 0; k < w->kernels().size(); ++k) {
    if (w->kernel(k).device) continue;
    const traces::kernel_info& info = w->reader(k).info();
    m_queues[info.stream_id % m_queues.size()].kernels.push_back(k);
    w->kernel(k).launch_cycle = 0;
    w->kernel(k).root = k;
  }
  for (auto& q : m_queues) {
    q.eligible_cycle = *m_kernel_launch_latency;
    // Host side only: the trace of a queue's head kernel is parsed while it waits to launch.
    if (!q.empty()) w->reader(q.front()).read_ahead();
  }

  while (true) {
    // The eligible kernel (a queue's head, or a device kernel in the pool) that became
    // eligible first goes next; host kernels first at equal times.
    hw_queue* next = nullptr;
    bool pending = !m_pool_queue.empty();
    for (auto& q : m_queues) {
      if (q.empty()) continue;
      pending = true;
      if (q.in_flight) continue;
      if (!next || q.eligible_cycle < next->eligible_cycle ||
          (q.eligible_cycle == next->eligible_cycle && q.front() < next->front()))
        next = &q;
    }
    const std::uint64_t pool_eligible = m_order->earliest(m_pool_queue);
    const bool device = !m_pool_queue.empty() && (!next || pool_eligible < next->eligible_cycle);
    if (!pending && m_waiting.empty()) {
      wait(m_changed);  // (device launches may still come from running kernels)
      continue;
    }
    if (!next && !device) {
      wait(m_changed);
      continue;
    }
    const std::uint64_t eligible = device ? pool_eligible : next->eligible_cycle;
    const std::uint64_t now = clock().now_cycle();
    if (eligible > now) {
      wait(clock().edge_time(eligible) - sc_core::sc_time_stamp(), m_changed);
      continue;
    }
    std::uint32_t k;
    if (device) {
      std::uint64_t scan = 0;
      const std::size_t i = m_order->pick(m_pool_queue, now, &scan);
      if (scan) {  // LaPerm: the SMX-bound queues are examined one SMX per cycle
        m_scan_cycles += scan;
        wait(clock().delay_cycles(scan));
        continue;
      }
      k = m_pool_queue[i].kernel;
      m_pool_queue.erase(m_pool_queue.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      k = next->front();
      next->in_flight = true;
    }
    if (*m_dispatch_latency && !device) wait(clock().delay_cycles(*m_dispatch_latency));
    dispatch_to_kd(k);
    if (device) {
      --m_pending;  // out of the launch pool: room for a waiting launch
      while (!m_waiting.empty() && take_launch(*m_waiting.front())) m_waiting.pop_front();
    }
  }
}

void kmu::dispatch_to_kd(std::uint32_t k) {
  workload* w = work().ptr;
  const traces::kernel_info& info = w->reader(k).info();
  kde_record rec;
  rec.kernel = k;
  rec.stream = info.stream_id;
  rec.grid = info.grid;
  rec.block = info.block;
  rec.shmem = info.shmem;
  rec.nregs = info.nregs;
  rec.entry_pc = function_id(info.name);
  rec.tbs_total = static_cast<std::uint32_t>(info.grid.count());
  // The KDE as written into the Kernel Distributor: its packed words (register_layout.h).
  const auto words = pack(rec);
  tlm::tlm_generic_payload& gp = m_pool.acquire(0, sizeof words, tlm::TLM_WRITE_COMMAND);
  store(gp.get_data_ptr(), words);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  m_waiting_end_req = true;
  tlm::tlm_sync_enum r = kd->nb_transport_fw(gp, phase, delay);
  if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) m_waiting_end_req = false;
  if (m_waiting_end_req) wait(m_end_req);  // all KDEs busy: back-pressure
  ++m_kernels_dispatched;
  edge_dispatcher::progress();
}

tlm::tlm_sync_enum kmu::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                        sc_core::sc_time&) {
  if (phase == tlm::END_REQ) {
    m_waiting_end_req = false;
    m_end_req.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {  // the kernel has completed
    if (m_waiting_end_req) {       // a response implies the request phase ended
      m_waiting_end_req = false;
      m_end_req.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
    }
    const kde_record rec = unpack_kde(load<kde_layout::words>(gp.get_data_ptr()).data());
    gp.release();
    ++m_kernels_completed;
    edge_dispatcher::progress();
    kernel_completed(rec.kernel);
    m_changed.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

void kmu::kernel_completed(std::uint32_t k) {
  workload* w = work().ptr;
  kernel_state& s = m_state[k];
  s.kde_done = true;
  const kernel_run& run = w->kernel(k);
  if (!run.device) {
    if (s.descendants == 0) host_kernel_done(k);
    return;
  }
  // A device kernel: its launch command is answered once all its kernels completed, and
  // its host ancestor may now be complete too.
  if (s.command) {
    kernel_state& first =
        m_state[static_cast<launch_command*>(static_cast<void*>(s.command->get_data_ptr()))
                    ->child[0]];
    if (--first.command_left == 0) answer(*s.command, tlm::BEGIN_RESP);
    s.command = nullptr;
  }
  kernel_state& root = m_state[run.root];
  if (--root.descendants == 0 && root.kde_done) host_kernel_done(run.root);
}

void kmu::host_kernel_done(std::uint32_t k) {
  workload* w = work().ptr;
  hw_queue& q = m_queues[w->reader(k).info().stream_id % m_queues.size()];
  ++q.head;
  q.in_flight = false;
  q.eligible_cycle = clock().now_cycle() + *m_kernel_launch_latency;
  if (!q.empty()) w->reader(q.front()).read_ahead();  // (as above)
}

void kmu::answer(tlm::tlm_generic_payload& gp, tlm::tlm_phase phase) {
  const launch_command* c = reinterpret_cast<const launch_command*>(gp.get_data_ptr());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  (*smx.at(c->smx))->nb_transport_bw(gp, phase, d);
}

tlm::tlm_sync_enum kmu::launch_fw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                  sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    m_launch_peq.notify(gp, phase, clock_domain::kernel_delay(delay));  // at the annotated time
    return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_COMPLETED;  // END_RESP
}

void kmu::launch_arrived(tlm::tlm_generic_payload& gp, const tlm::tlm_phase&) {
  ++m_launch_commands;
  if (!m_waiting.empty() || !take_launch(gp)) {
    ++m_pool_full_waits;
    m_waiting.push_back(&gp);  // END_REQ withheld: the warp waits
  }
}

// Takes a launch command whose kernels fit in the launch pool: DTBL groups are offered to
// the SMX scheduler first; the kernels left enter the pool. False when they do not fit.
bool kmu::take_launch(tlm::tlm_generic_payload& gp) {
  launch_command& c = *reinterpret_cast<launch_command*>(gp.get_data_ptr());
  // (A launch larger than the whole pool is taken when the pool is empty.)
  if (m_pending > 0 && m_pending + c.count > *m_pending_launch_limit) return false;
  workload* w = work().ptr;
  const std::uint64_t now = clock().now_cycle();
  const bool dtbl = c.what == launch_command::kind::dtbl;
  for (std::uint32_t i = 0; i < c.count; ++i) c.joined[i] = group_ref::none;
  c.search_cycles = 0;
  if (dtbl && agg) {
    register_access(*agg, tlm::TLM_WRITE_COMMAND, 0, &c, sizeof c);
  }
  const kernel_run& parent = w->kernel(c.parent);
  std::uint32_t device_kernels = 0;
  for (std::uint32_t i = 0; i < c.count; ++i) {
    kernel_run& child = w->kernel(c.child[i]);
    if (dtbl && c.joined[i] != group_ref::none) continue;  // coalesced: the scheduler has it
    child.how = dtbl ? launch_kind::dtbl_fallback : launch_kind::cdp;
    m_fallback_groups += dtbl;
    ++m_device_kernels;
    ++device_kernels;
    kernel_state& s = m_state[c.child[i]];
    s.command = &gp;
    ++m_state[parent.root].descendants;
    // KMU -> KD dispatch of device kernels is pipelined: each is eligible dispatch_latency
    // after it arrived, whatever the others do. A DTBL command arrives at issue: a group
    // that falls back is launched once its parameter buffer and the search are done.
    const std::uint64_t launched =
        dtbl ? std::max(now, c.issue_cycle + std::max(c.api_cycles, c.search_cycles)) : now;
    m_pool_queue.push_back(
        {c.child[i], launched + m_dispatch_latency->value, child.depth, child.launch_smx});
    ++m_pending;
  }
  m_max_pending = std::max(m_max_pending, m_pending);
  m_state[c.child[0]].command_left = device_kernels;
  const std::uint64_t resume = dtbl ? std::max(c.api_cycles, c.search_cycles) : now - c.issue_cycle;
  m_launch_latency.sample(resume);
  m_changed.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
  // The command's kernels complete later (BEGIN_RESP then); with none of its own (every
  // DTBL group coalesced), it is answered at once.
  answer(gp, device_kernels ? tlm::END_REQ : tlm::BEGIN_RESP);
  return true;
}

GPUTLM_BLOCK("kmu", kmu, "Kernel Management Unit with hardware work queues", {});

}  // namespace gputlm::control
