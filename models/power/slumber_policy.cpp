#include "models/power/slumber_policy.h"

#include "models/common/input_error.h"
#include "models/common/units.h"
#include "models/power/power_component.h"
#include "models/power/slumber_control_unit.h"

namespace gputlm::pm {

slumber_policy::slumber_policy(const policy_spec& spec) : gating_policy(spec.type), m_spec(spec) {
  m_params.wrf = spec.type == "wrf";
  for (const auto& [key, v] : spec.values) {
    const std::string k = spec.key + "." + key;
    if (v.is_sequence) throw input_error(v.where, k, "expected a plain value");
    if (key == "counter_bits") {
      auto n = units::parse_uint(v.text);
      if (!n || *n < 1 || *n > 20) throw input_error(v.where, k, "expected 1..20 bits");
      m_params.counter_bits = static_cast<std::uint32_t>(*n);
    } else if (key == "l1_latency" || key == "l2_latency" || key == "dram_latency") {
      auto c = units::parse_cycles(v.text);
      if (!c || *c > 100000) throw input_error(v.where, k, "expected 0..100000 cycles (400cycles)");
      (key == "l1_latency"   ? m_params.l1_latency
       : key == "l2_latency" ? m_params.l2_latency
                             : m_params.dram_latency) = *c;
    } else if (key == "ss_state" || key == "ds_state" || key == "off_state") {
      if (v.text.empty()) throw input_error(v.where, k, "expected a power state name");
      (key == "ss_state" ? m_ss : key == "ds_state" ? m_ds : m_off) = v.text;
    } else {
      throw input_error(v.where, k,
                        "unknown key '" + key + "' (" + spec.type +
                            " takes counter_bits, l1_latency, l2_latency, dram_latency, "
                            "ss_state, ds_state, off_state)");
    }
  }
  if (m_ss == m_ds || m_ss == m_off || m_ds == m_off)
    throw input_error(spec.where, spec.key, "ss_state, ds_state and off_state must differ");
}

std::uint32_t slumber_policy::state_index(const power_component& c, const std::string& name) const {
  for (std::uint32_t s = 1; s < c.states().size(); ++s)
    if (c.states()[s].name == name) return s;
  return 0;
}

void slumber_policy::attach(power_component& c, const std::string& key, std::uint64_t) {
  if (key != "smx.register_file") return;
  for (const std::string* s : {&m_ss, &m_ds, &m_off})
    if (state_index(c, *s) == 0)
      throw input_error(m_spec.where, m_spec.key,
                        m_spec.type + " needs a state '" + *s +
                            "' (not the first) in power.components." + key + ".states");
  c.bind_policy(this, static_cast<std::uint32_t>(m_units.size()));
  m_units.push_back(nullptr);
}

void slumber_policy::adopt(power_component& c, slumber_control_unit& unit) {
  m_units.at(c.policy_slot()) = &unit;
}

void slumber_policy::settle(power_component& c, std::uint64_t now_fs) {
  if (c.policy_bound(this) && m_units[c.policy_slot()]) m_units[c.policy_slot()]->settle(now_fs);
}

}  // namespace gputlm::pm
