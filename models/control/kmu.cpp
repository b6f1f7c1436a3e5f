#include "models/control/kmu.h"

#include <cstring>

#include "models/common/edge_scheduler.h"
#include "models/control/control_registers.h"
#include "models/control/workload.h"

namespace gputlm::control {

static_assert(sizeof(kde_record) <= payload_pool::max_bytes, "KDE must fit a payload");

kmu::kmu(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
  declare_socket("kd", kd);
  kd.register_nb_transport_bw(this, &kmu::nb_transport_bw);
  SC_THREAD(host_thread);
  add_stat("kernels_dispatched", m_kernels_dispatched, "kernels written into the Kernel Distributor");
  add_stat("kernels_completed", m_kernels_completed, "kernels completed");
}

void kmu::validate() {
  m_hw_queues.require(*m_hw_queues >= 1, "needs at least one hardware queue");
  m_hw_queues.require(*m_hw_queues <= 4096, "must be at most 4096");
  for (const param<cycles>* l : {&m_kernel_launch_latency, &m_dispatch_latency})
    l->require((*l)->value <= cycles::max_latency,
               "must be at most " + units::format_cycles(cycles::max_latency));
}

void kmu::host_thread() {
  workload* w = work().ptr;
  if (!w) return;
  m_queues.assign(*m_hw_queues, hw_queue{});
  // The host launches every kernel of the command list at time 0; streams map onto HWQs.
  for (std::uint32_t k = 0; k < w->kernels().size(); ++k) {
    const traces::kernel_info& info = w->reader(k).info();
    m_queues[info.stream_id % m_queues.size()].kernels.push_back(k);
    w->kernel(k).launch_cycle = 0;
  }
  for (auto& q : m_queues) {
    q.eligible_cycle = *m_kernel_launch_latency;
    // Host side only: the trace of a queue's head kernel is parsed while it waits to launch.
    if (!q.empty()) w->reader(q.front()).read_ahead();
  }

  while (true) {
    // The eligible head kernel launched first goes next.
    hw_queue* next = nullptr;
    bool pending = false;
    for (auto& q : m_queues) {
      if (q.empty()) continue;
      pending = true;
      if (q.in_flight) continue;
      if (!next || q.eligible_cycle < next->eligible_cycle ||
          (q.eligible_cycle == next->eligible_cycle && q.front() < next->front()))
        next = &q;
    }
    if (!pending) return;
    if (!next) {
      wait(m_changed);
      continue;
    }
    const std::uint64_t now = clock().now_cycle();
    if (next->eligible_cycle > now) {
      wait(clock().edge_time(next->eligible_cycle) - sc_core::sc_time_stamp(), m_changed);
      continue;
    }
    const std::uint32_t k = next->front();
    next->in_flight = true;
    if (*m_dispatch_latency) wait(clock().delay_cycles(*m_dispatch_latency));

    const traces::kernel_info& info = w->reader(k).info();
    kde_record rec;
    rec.kernel = k;
    rec.stream = info.stream_id;
    rec.grid = info.grid;
    rec.block = info.block;
    rec.shmem = info.shmem;
    rec.nregs = info.nregs;
    rec.tbs_total = static_cast<std::uint32_t>(info.grid.count());
    tlm::tlm_generic_payload& gp = m_pool.acquire(0, sizeof rec, tlm::TLM_WRITE_COMMAND);
    std::memcpy(gp.get_data_ptr(), &rec, sizeof rec);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_waiting_end_req = true;
    tlm::tlm_sync_enum r = kd->nb_transport_fw(gp, phase, delay);
    if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) m_waiting_end_req = false;
    if (m_waiting_end_req) wait(m_end_req);  // all KDEs busy: back-pressure
    ++m_kernels_dispatched;
    edge_dispatcher::progress();
  }
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
    kde_record rec;
    std::memcpy(&rec, gp.get_data_ptr(), sizeof rec);
    workload* w = work().ptr;
    hw_queue& q = m_queues[w->reader(rec.kernel).info().stream_id % m_queues.size()];
    ++q.head;
    q.in_flight = false;
    q.eligible_cycle = clock().now_cycle() + *m_kernel_launch_latency;
    if (!q.empty()) w->reader(q.front()).read_ahead();  // (as above)
    ++m_kernels_completed;
    edge_dispatcher::progress();
    gp.release();
    m_changed.notify(clock_domain::kernel_delay(sc_core::SC_ZERO_TIME));
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

}  // namespace gputlm::control
