#include "models/core/smx_power.h"

namespace gputlm::core {

smx_power::smx_power(component& owner, std::uint64_t register_file_bytes,
                     std::uint32_t register_banks)
    : m_register_banks(register_banks ? register_banks : 1) {
  m_fetch_decode = &owner.declare_power("fetch_decode", {"fetch"});
  m_fetch_decode->bind_counters(&m_n.fetch);
  m_scheduler = &owner.declare_power("scheduler", {"issue"});
  m_scheduler->bind_counters(&m_n.issue);
  m_register_file =
      &owner.declare_power("register_file", {"read", "write"}, register_file_bytes, register_banks);
  m_register_file->bind_counters(m_n.register_file);
  m_collector = &owner.declare_power("operand_collector", {"collect"});
  m_collector->bind_counters(&m_n.collect);
  m_pipeline_registers = &owner.declare_power("pipeline_registers", {"write"});
  m_pipeline_registers->bind_counters(&m_n.pipeline_registers);
  m_shared = &owner.declare_power("shared_memory", {"access"});
  m_shared->bind_counters(&m_n.shared);
  static const char* const names[pipes] = {"sp", "sfu", "dp", "int", "tensor", "branch", "ldst"};
  for (std::size_t p = 0; p < pipes; ++p) {
    m_pipe_component[p] = &owner.declare_power(names[p], {"op"});
    m_pipe_component[p]->bind_counters(&m_n.pipe[p]);
  }
  m_core = &owner.declare_power("core", {});
  for (std::uint32_t s = 1; s < m_core->states().size(); ++s)
    if (m_core->states()[s].name == "idle") m_idle_state = s;
  if (m_idle_state) m_core->start_in(m_idle_state);  // no TB yet
  m_any_gated = gated_components();
}

bool smx_power::gated_components() const {
  bool any = m_fetch_decode->gated() || m_scheduler->gated() ||
             (m_register_file->gated() && !m_rf_managed) || m_collector->gated() ||
             m_pipeline_registers->gated() || m_shared->gated();
  for (const pm::power_component* c : m_pipe_component) any = any || c->gated();
  return any;
}

std::uint64_t smx_power::wake_register_bank(std::uint32_t bank, std::uint64_t now_fs) {
  // The elements are the banks, unless the table's granularity splits the register file
  // otherwise: then a bank's use wakes every element that holds part of it.
  const std::uint64_t elements = m_register_file->elements(), banks = m_register_banks;
  if (elements == banks) return m_register_file->access(bank, now_fs);
  const std::uint64_t first = bank * elements / banks;
  const std::uint64_t end = std::max(first + 1, ((bank + 1) * elements + banks - 1) / banks);
  std::uint64_t wake = 0;
  for (std::uint64_t e = first; e < end && e < elements; ++e)
    wake = std::max(wake, m_register_file->access(static_cast<std::uint32_t>(e), now_fs));
  return wake;
}

}  // namespace gputlm::core
