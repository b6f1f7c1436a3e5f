#include "models/power/snooze_policy.h"

#include "models/common/input_error.h"
#include "models/common/units.h"

namespace gputlm::pm {

snooze_policy::snooze_policy(const policy_spec& spec) : gating_policy(spec.type), m_spec(spec) {
  m_params.block = spec.type == "snooze_block";
  for (const auto& [key, v] : spec.values) {
    const std::string k = spec.key + "." + key;
    if (v.is_sequence) throw input_error(v.where, k, "expected a plain value");
    if (key == "granularity" && spec.type == "snooze") {
      if (v.text != "bank" && v.text != "block")
        throw input_error(v.where, k, "expected bank or block, got '" + v.text + "'");
      m_params.block = v.text == "block";
    } else if (key == "lookahead") {
      auto c = units::parse_cycles(v.text);
      if (!c || *c > 1000) throw input_error(v.where, k, "expected 0..1000 cycles (2cycles)");
      m_params.lookahead = *c;
    } else if (key == "reservation_queue") {
      auto n = units::parse_uint(v.text);
      if (!n || *n == 0 || *n > 4096)
        throw input_error(v.where, k, "expected 1..4096 entries, got '" + v.text + "'");
      m_params.reservation_queue = static_cast<std::uint32_t>(*n);
    } else if (key == "sleep_state" || key == "off_state") {
      if (v.text.empty()) throw input_error(v.where, k, "expected a power state name");
      (key == "sleep_state" ? m_sleep : m_off) = v.text;
    } else {
      throw input_error(v.where, k,
                        "unknown key '" + key + "' (" + spec.type + " takes " +
                            (spec.type == "snooze" ? "granularity, " : "") +
                            "lookahead, reservation_queue, sleep_state, off_state)");
    }
  }
  if (m_sleep == m_off)
    throw input_error(spec.where, spec.key + ".off_state", "must differ from sleep_state");
}

std::uint32_t snooze_policy::state_index(const power_component& c, const std::string& name) const {
  for (std::uint32_t s = 1; s < c.states().size(); ++s)
    if (c.states()[s].name == name) return s;
  return 0;
}

void snooze_policy::attach(power_component& c, const std::string& key, std::uint64_t) {
  if (key != "l1_cache.data" && key != "l2_cache.data") return;  // caches' data arrays only
  for (const std::string* s : {&m_sleep, &m_off})
    if (state_index(c, *s) == 0)
      throw input_error(m_spec.where, m_spec.key,
                        m_spec.type + " needs a state '" + *s +
                            "' (not the first) in power.components." + key + ".states");
  c.bind_policy(this, static_cast<std::uint32_t>(m_controllers.size()));
  m_controllers.push_back(nullptr);
}

void snooze_policy::adopt(power_component& c, tri_modal_switch_controller& ctrl,
                          bool off_when_idle) {
  m_controllers.at(c.policy_slot()) = &ctrl;
  if (off_when_idle) m_off_when_idle.push_back(&ctrl);
}

void snooze_policy::gpu_idle(std::uint64_t now_fs) {
  for (tri_modal_switch_controller* c : m_off_when_idle) c->switch_off_all(now_fs);
}

std::uint32_t snooze_policy::sleep_state(const power_component& c) const {
  return state_index(c, m_sleep);
}
std::uint32_t snooze_policy::off_state(const power_component& c) const {
  return state_index(c, m_off);
}

void snooze_policy::settle(power_component& c, std::uint64_t now_fs) {
  if (c.policy_bound(this) && m_controllers[c.policy_slot()])
    m_controllers[c.policy_slot()]->settle(now_fs);
}

void snooze_policy::set_period(power_component& c, std::uint64_t period_fs) {
  if (c.policy_bound(this) && m_controllers[c.policy_slot()])
    m_controllers[c.policy_slot()]->set_period(period_fs);
}

}  // namespace gputlm::pm
