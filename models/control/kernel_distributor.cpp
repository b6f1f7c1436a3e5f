#include "models/control/kernel_distributor.h"

#include "models/common/block_factory.h"

#include <cstring>

#include "models/control/register_layout.h"

namespace gputlm::control {

kernel_distributor::kernel_distributor(const sc_core::sc_module_name& name,
                                       const block_context& ctx)
    : component(name, ctx) {
  declare_socket("kmu", kmu);
  declare_socket("scheduler", scheduler);
  declare_socket("doorbell", doorbell);
  kmu.register_nb_transport_fw(this, &kernel_distributor::kmu_fw);
  kmu.register_b_transport(this, &component::at_only);
  scheduler.register_b_transport(this, &kernel_distributor::scheduler_b);
  add_stat("kernels", m_kernels, "kernels that held an entry");
  add_stat("full_stalls", m_full_stalls, "launches that waited for a free entry");
}

void kernel_distributor::validate() {
  m_entries.require(*m_entries >= 1, "needs at least one entry");
  m_entries.require(*m_entries <= 4096, "must be at most 4096");
  m_kde.assign(*m_entries, kde_record{});
  m_launch.assign(*m_entries, nullptr);
  m_entry_traces.assign(*m_entries, entry_traces{});
}

void kernel_distributor::add_traces(vcd_writer& vcd) {
  m_valid_entries.trace(vcd, name(), "valid_entries", 8);
  for (std::size_t e = 0; e < m_entry_traces.size(); ++e) {
    const std::string kde = "kde[" + std::to_string(e) + "].";
    m_entry_traces[e].kernel.trace(vcd, name(), kde + "kernel", 32, vcd_writer::display::hex);
    m_entry_traces[e].dispatched.trace(vcd, name(), kde + "tbs_dispatched", 32);
    m_entry_traces[e].finished.trace(vcd, name(), kde + "tbs_finished", 32);
  }
}

void kernel_distributor::trace_entry(std::size_t e) {
  const kde_record& r = m_kde[e];
  m_entry_traces[e].kernel.set(r.valid ? r.kernel : k_free);
  m_entry_traces[e].dispatched.set(r.next_tb);
  m_entry_traces[e].finished.set(r.next_tb - r.tbs_running);
}

tlm::tlm_sync_enum kernel_distributor::kmu_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                              sc_core::sc_time&) {
  if (phase == tlm::BEGIN_REQ) {
    if (allocate(gp)) {
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    ++m_full_stalls;
    m_waiting.push_back(&gp);  // END_REQ withheld: the KMU waits
    return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_COMPLETED;  // END_RESP
}

bool kernel_distributor::allocate(tlm::tlm_generic_payload& gp) {
  for (std::size_t e = 0; e < m_kde.size(); ++e) {
    if (m_kde[e].valid) continue;
    kde_record& r = m_kde[e];
    r = unpack_kde(load<kde_layout::words>(gp.get_data_ptr()).data());
    r.valid = 1;
    r.next_tb = 0;
    r.tbs_running = 0;
    r.nagei = r.lagei = group_ref::none;
    r.marked = 1;  // queued for scheduling (the FCFS controller's bit)
    r.first_time = 1;
    r.fcfs_order = m_fcfs++;
    m_launch[e] = &gp;
    ++m_kernels;
    m_valid_entries.set(m_valid_entries + 1);
    trace_entry(e);
    if (r.tbs_total == 0) {
      complete(e);
      return true;
    }
    std::uint32_t index = static_cast<std::uint32_t>(e);
    register_access(doorbell, tlm::TLM_WRITE_COMMAND, 0, &index, sizeof index);
    return true;
  }
  return false;
}

void kernel_distributor::complete(std::size_t e) {
  m_kde[e].valid = 0;
  m_valid_entries.set(m_valid_entries - 1);
  trace_entry(e);
  tlm::tlm_generic_payload* gp = m_launch[e];
  m_launch[e] = nullptr;
  store(gp->get_data_ptr(), pack(m_kde[e]));
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  kmu->nb_transport_bw(*gp, phase, d);
  if (!m_waiting.empty()) {  // an entry is free again: take the oldest waiting launch
    tlm::tlm_generic_payload* next = m_waiting.front();
    m_waiting.pop_front();
    allocate(*next);
    tlm::tlm_phase p = tlm::END_REQ;
    sc_core::sc_time d2 = sc_core::SC_ZERO_TIME;
    kmu->nb_transport_bw(*next, p, d2);
  }
}

void kernel_distributor::scheduler_b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  if (gp.is_read() && gp.get_address() == kd_register::entry_count &&
      gp.get_data_length() >= sizeof(std::uint32_t)) {
    const auto n = static_cast<std::uint32_t>(m_kde.size());
    std::memcpy(gp.get_data_ptr(), &n, sizeof n);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const std::uint64_t entry = gp.get_address() / kd_register::entry_stride;
  const std::uint64_t reg = gp.get_address() % kd_register::entry_stride;
  if (entry >= m_kde.size()) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  kde_record& r = m_kde[entry];
  if (gp.is_read() && reg == kd_register::record &&
      gp.get_data_length() >= sizeof(reg_words<kde_layout::words>)) {
    store(gp.get_data_ptr(), pack(r));
  } else if (gp.is_read() && reg == kd_register::next_tb && r.valid && r.next_tb < r.tbs_total) {
    std::uint32_t tb = r.next_tb++;
    ++r.tbs_running;
    trace_entry(entry);
    std::memcpy(gp.get_data_ptr(), &tb, sizeof tb);
  } else if (gp.is_write() && reg == kd_register::tb_done && r.valid) {
    std::uint32_t n;
    std::memcpy(&n, gp.get_data_ptr(), sizeof n);
    r.tbs_running -= n;
    trace_entry(entry);
    // Done when its native TBs and every aggregated group coalesced into it have run.
    if (r.tbs_running == 0 && !r.tbs_left()) complete(entry);
  } else if (gp.is_write() && reg == kd_register::group_tb && r.valid) {
    ++r.tbs_running;
    trace_entry(entry);
  } else if (gp.is_write() && reg == kd_register::groups && r.valid &&
             gp.get_data_length() >= sizeof(kd_groups)) {
    kd_groups g;
    std::memcpy(&g, gp.get_data_ptr(), sizeof g);
    r.nagei = g.nagei;
    r.lagei = g.lagei;
    r.marked = g.marked;
    r.first_time = g.first_time;
  } else {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

GPUTLM_BLOCK("kernel_distributor", kernel_distributor, "Kernel Distributor entries", {});

}  // namespace gputlm::control
