#include "models/control/smx_scheduler.h"

#include <cstring>

#include "models/control/workload.h"

namespace gputlm::control {

static_assert(sizeof(tb_descriptor) <= payload_pool::max_bytes, "TB descriptor must fit");
static_assert(sizeof(tb_report) <= sizeof(tb_descriptor), "report reuses the descriptor's bytes");

smx_scheduler::smx_scheduler(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("kd", kd);
  declare_socket("doorbell", doorbell);
  doorbell.register_b_transport(this, &smx_scheduler::doorbell_b);
  // One socket per SMX: bounded before the sockets are made.
  m_smxs.require(*m_smxs <= 4096, "must be at most 4096");
  for (std::uint64_t i = 0; i < *m_smxs; ++i) {
    smx.push_back(std::make_unique<socket_type>(("smx_" + std::to_string(i)).c_str()));
    smx.back()->register_nb_transport_bw(this, &smx_scheduler::smx_bw, static_cast<int>(i));
    declare_socket("smx[" + std::to_string(i) + "]", *smx.back());
  }
  m_tb_policy = make_tb_selection(*m_tb_selection);
  m_smx_policy = make_smx_selection(*m_smx_selection);
  m_smx.resize(*m_smxs);
  SC_METHOD(dispatch);
  sensitive << m_wake;
  dont_initialize();
  add_stat("tbs_dispatched", m_tbs_dispatched, "TBs sent to SMXs");
  add_stat("tbs_completed", m_tbs_completed, "TBs completed");
}

void smx_scheduler::validate() {
  m_smxs.require(*m_smxs >= 1, "serves at least one SMX");
  m_tb_launch_latency.require(m_tb_launch_latency->value <= cycles::max_latency,
                              "must be at most " + units::format_cycles(cycles::max_latency));
}

void smx_scheduler::add_traces(vcd_writer& vcd) {
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

void smx_scheduler::start_of_simulation() {
  // Read each SMX's capability registers.
  for (std::size_t s = 0; s < smx.size(); ++s) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(tbcr_caps);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&m_smx[s].caps));
    gp.set_data_length(sizeof(core::smx_limits));
    gp.set_streaming_width(sizeof(core::smx_limits));
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*smx[s])->b_transport(gp, d);
  }
}

void smx_scheduler::kd_access(tlm::tlm_command cmd, std::uint64_t addr, void* data, unsigned len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  kd->b_transport(gp, d);
}

kde_record smx_scheduler::read_record(std::uint32_t entry) {
  kde_record r;
  kd_access(tlm::TLM_READ_COMMAND, entry * kd_register::entry_stride + kd_register::record, &r,
            sizeof r);
  return r;
}

void smx_scheduler::doorbell_b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  std::uint32_t entry;
  std::memcpy(&entry, gp.get_data_ptr(), sizeof entry);
  m_entry_ids.push_back(entry);
  m_entries.push_back(read_record(entry));
  if (work().ptr) {
    kernel_run& k = work().ptr->kernel(m_entries.back().kernel);
    k.launched = true;
    k.tbs.assign(m_entries.back().tbs_total, tb_log_entry{});
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
}

core::tb_demand smx_scheduler::demand_of(const kde_record& e) const {
  core::tb_demand d;
  d.threads = static_cast<std::uint32_t>(e.block.count());
  d.regs_per_thread = e.nregs;
  d.shared_memory = e.shmem;
  return d;
}

bool smx_scheduler::fits(const smx_state& s, const kde_record& e) const {
  const core::tb_demand d = demand_of(e);
  const std::uint32_t ws = s.caps.warp_size;
  if (s.tbs > 0 && !*m_concurrent_kernels_per_smx && s.kernel != e.kernel) return false;
  return s.tbs + 1 <= s.caps.max_tbs &&
         s.threads + d.warps(ws) * ws <= s.caps.max_threads &&
         s.registers + d.registers(ws) <= s.caps.registers &&
         s.shared_memory + d.shared_memory <= s.caps.shared_memory;
}

// Every SMX hears of a kernel's completion (its L1 is flushed at kernel end).
void smx_scheduler::kernel_done(std::uint32_t kernel) {
  for (auto& s : smx) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(tbcr_kernel_done);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&kernel));
    gp.set_data_length(sizeof kernel);
    gp.set_streaming_width(sizeof kernel);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*s)->b_transport(gp, d);
  }
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
  int smx_index = -1;
  int e = m_tb_policy->pick(m_entries, [&](std::size_t i) {
    for (const smx_state& s : m_smx)
      if (fits(s, m_entries[i])) return true;
    return false;
  });
  if (e < 0) return;  // nothing fits: sleep until a TB completes or a kernel arrives
  kde_record& entry = m_entries[static_cast<std::size_t>(e)];
  smx_index = m_smx_policy->pick(m_smx.size(), [&](std::size_t s) { return fits(m_smx[s], entry); });
  if (smx_index < 0) return;

  const std::uint32_t kde = m_entry_ids[static_cast<std::size_t>(e)];
  std::uint32_t tb = 0;
  kd_access(tlm::TLM_READ_COMMAND, kde * kd_register::entry_stride + kd_register::next_tb, &tb,
            sizeof tb);
  ++entry.next_tb;
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
  desc.kernel = entry.kernel;
  desc.tb = tb;
  desc.demand = d;
  tlm::tlm_generic_payload& gp = m_pool.acquire(tbcr_launch, sizeof desc, tlm::TLM_WRITE_COMMAND);
  std::memcpy(gp.get_data_ptr(), &desc, sizeof desc);
  payload_pool::request(gp).smx = static_cast<std::uint32_t>(smx_index);

  if (work().ptr) {
    kernel_run& k = work().ptr->kernel(entry.kernel);
    if (!k.started) {
      k.started = true;
      k.start_cycle = now + *m_tb_launch_latency;
    }
    tb_log_entry& log = k.tbs.at(tb);
    log.tb = tb;
    log.smx = static_cast<std::uint32_t>(smx_index);
    log.start_cycle = now + *m_tb_launch_latency;
  }
  ++m_tbs_dispatched;
  m_resident_tbs.set(m_resident_tbs + 1);
  if (entry.kernel < m_kernel_traces.size()) {
    traced_value& v = m_kernel_traces[entry.kernel].dispatched;
    v.set(v + 1);
  }
  m_last_dispatch_cycle = now;

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = clock().delay_cycles(*m_tb_launch_latency);
  (*smx[static_cast<std::size_t>(smx_index)])->nb_transport_fw(gp, phase, delay);
  wake_next_cycle();
}

tlm::tlm_sync_enum smx_scheduler::smx_bw(int id, tlm::tlm_generic_payload& gp,
                                         tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  tb_descriptor desc;
  std::memcpy(&desc, gp.get_data_ptr(), sizeof desc);
  tb_report report;
  std::memcpy(&report, gp.get_data_ptr() + sizeof desc, sizeof report);
  gp.release();

  smx_state& s = m_smx[static_cast<std::size_t>(id)];
  s.tbs -= 1;
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
  if (workload* w = work().ptr) {
    kernel_run& k = w->kernel(desc.kernel);
    tb_log_entry& log = k.tbs.at(desc.tb);
    log.end_cycle = now;
    log.warp_instructions = report.warp_instructions;
    log.thread_instructions = report.thread_instructions;
    k.warp_instructions += report.warp_instructions;
    k.thread_instructions += report.thread_instructions;
  }

  // Tell the Kernel Distributor; drop the mirror entry once its kernel is done.
  std::uint32_t one = 1;
  kd_access(tlm::TLM_WRITE_COMMAND, desc.kde * kd_register::entry_stride + kd_register::tb_done,
            &one, sizeof one);
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    if (m_entry_ids[i] != desc.kde || m_entries[i].kernel != desc.kernel) continue;
    if (--m_entries[i].tbs_running == 0 && m_entries[i].next_tb == m_entries[i].tbs_total) {
      if (workload* w = work().ptr) {
        w->kernel(desc.kernel).finished = true;
        w->kernel(desc.kernel).end_cycle = now;
      }
      kernel_done(desc.kernel);
      m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(i));
      m_entry_ids.erase(m_entry_ids.begin() + static_cast<std::ptrdiff_t>(i));
    }
    break;
  }
  m_wake.notify(clock_domain::kernel_delay(clock().delay_cycles(0)));
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

}  // namespace gputlm::control
