#include "models/power/power_model.h"

#include <algorithm>
#include <stdexcept>

#include "models/base/input_error.h"
#include "models/common/clock_domain.h"

namespace gputlm::pm {

std::unique_ptr<gating_policy> power_model::make(const policy_spec& s) {
  m_configs.push_back(std::make_unique<policy_config>(s));
  return make_policy(s, m_configs.back()->owner);
}

power_model::power_model(power_spec spec) : m_spec(std::move(spec)) {
  m_policy = make(m_spec.policy);
  for (const auto& [type, pol] : m_spec.policy.by_type) {
    if (m_by_type.count(type))
      throw input_error(pol.where, pol.key, "block type '" + type + "' given a policy twice");
    m_by_type[type] = make(pol);
  }
  // The first state is ON: nothing wakes into it from ON, nothing moves into it from ON, so
  // a wake-up or break-even time there would do nothing.
  for (const auto& c : m_spec.components) {
    if (c.states.empty()) continue;
    const state_spec& on = c.states.front();
    const std::string key = "power.components." + c.key() + ".states." + on.name;
    if (on.wake_cycles != 0)
      throw input_error(on.where, key + ".wake",
                        "the first state is ON: it has no wake-up time (give it to a later state)");
    if (on.break_even_cycles != 0)
      throw input_error(
          on.where, key + ".break_even",
          "the first state is ON: it has no break-even time (give it to a later state)");
  }
}

power_model::~power_model() = default;

gating_policy& power_model::policy_for(const std::string& block_type) {
  auto it = m_by_type.find(block_type);
  return it == m_by_type.end() ? *m_policy : *it->second;
}

std::vector<std::pair<std::string, std::string>> power_model::policies() const {
  std::vector<std::pair<std::string, std::string>> out{{"default", m_spec.policy.type}};
  for (const auto& [type, p] : m_spec.policy.by_type) out.emplace_back(type, p.type);
  // Block types whose components a controller gates: that controller's rule.
  for (const auto& e : m_entries) {
    const gating_policy* g = e->component->gate();
    if (!g || g == m_policy.get()) continue;
    const std::string type = e->key.substr(0, e->key.find('.'));
    auto by = m_by_type.find(type);
    if (by != m_by_type.end() && by->second.get() == g) continue;
    if (std::none_of(out.begin() + 1, out.end(), [&](const auto& o) { return o.first == type; }))
      out.emplace_back(type, g->gate_name());
  }
  std::sort(out.begin() + 1, out.end());
  return out;
}

power_model::entry& power_model::declare(const std::string& block, const std::string& block_type,
                                         const std::string& name,
                                         const std::vector<std::string>& events,
                                         std::uint64_t capacity_bytes, std::uint32_t elements,
                                         double volts, std::uint64_t period_fs) {
  m_declared[block_type].insert(name);
  const component_spec* spec = nullptr;
  for (const auto& c : m_spec.components)
    if (c.block_type == block_type && c.component == name) spec = &c;

  auto e = std::make_unique<entry>();
  e->block = block;
  e->key = block_type + "." + name;
  e->modelled = spec != nullptr;
  if (!spec) {  // not in the table: zero coefficients, not reported
    e->component = power_component::unmodelled(block + "." + name, events, elements);
    m_entries.push_back(std::move(e));
    return *m_entries.back();
  }

  std::vector<power_event> evs;
  for (const auto& ev : events) evs.push_back({ev, 0.0});
  for (const auto& ev : spec->events) {
    auto it = std::find(events.begin(), events.end(), ev.name);
    if (it == events.end()) {
      std::string list;
      for (const auto& k : events) list += (list.empty() ? "" : ", ") + k;
      throw input_error(ev.where, "power.components." + spec->key() + ".events." + ev.name,
                        "a " + block_type + "'s " + name + " has no event '" + ev.name +
                            "' (it has: " + (list.empty() ? "none" : list) + ")");
    }
    evs[static_cast<std::size_t>(it - events.begin())].joules = ev.joules;
  }
  if (spec->granularity_bytes && capacity_bytes) {
    const std::string key = "power.components." + spec->key() + ".granularity";
    if (capacity_bytes % spec->granularity_bytes != 0)
      throw input_error(spec->granularity_where, key,
                        "does not divide the " + std::to_string(capacity_bytes) + " B of " + block);
    if (capacity_bytes / spec->granularity_bytes > max_elements)
      throw input_error(spec->granularity_where, key,
                        "splits the " + std::to_string(capacity_bytes) + " B of " + block +
                            " into " + std::to_string(capacity_bytes / spec->granularity_bytes) +
                            " elements; at most " + std::to_string(max_elements));
    elements = static_cast<std::uint32_t>(capacity_bytes / spec->granularity_bytes);
  }
  if (elements > max_elements)  // the blocks bound their element counts: not input
    throw std::logic_error(block + "." + name + ": " + std::to_string(elements) +
                           " power elements, more than " + std::to_string(max_elements));
  if (elements == 0) elements = 1;
  std::vector<power_state> states;
  for (const auto& st : spec->states)
    states.push_back({st.name, st.static_watts / elements, st.wake_cycles, st.break_even_cycles,
                      st.static_watts, st.clock_watts / elements, st.clock_watts});
  e->component =
      std::make_unique<power_component>(block + "." + name, std::move(states), std::move(evs),
                                        operating_point{volts, period_fs}, elements);
  policy_for(block_type).attach(*e->component, e->key, period_fs);
  m_entries.push_back(std::move(e));
  return *m_entries.back();
}

void power_model::check_table() const {
  for (const auto& [type, pol] : m_spec.policy.by_type)
    if (!m_declared.count(type))
      throw input_error(pol.where, pol.key,
                        "no block of type '" + type + "' declares power components");
  for (const auto& c : m_spec.components) {
    auto it = m_declared.find(c.block_type);
    if (it == m_declared.end())
      throw input_error(c.where, "power.components." + c.block_type,
                        "no block of type '" + c.block_type + "' declares power components");
    if (!it->second.count(c.component)) {
      std::string list;
      for (const auto& k : it->second) list += (list.empty() ? "" : ", ") + k;
      throw input_error(c.where, "power.components." + c.key(),
                        "a " + c.block_type + " has no power component '" + c.component +
                            "' (it has: " + list + ")");
    }
  }
}

power_registry::declared power_model::declare_component(
    const std::string& block, const std::string& block_type, const std::string& name,
    const std::vector<std::string>& events, std::uint64_t capacity_bytes, std::uint32_t elements,
    clock_domain& clock) {
  entry& e = declare(block, block_type, name, events, capacity_bytes, elements, clock.voltage(),
                     clock.period().value());
  power_component& pc = *e.component;
  e.clock = &clock;
  if (e.modelled)  // DVFS: transitions so far charged at the old supply and period
    clock.on_change([&pc](const clock_domain& c) {
      const std::uint64_t now = clock_domain::now_fs();
      if (gating_policy* gate = pc.gate()) {
        gate->set_period(pc, c.period().value());
        gate->settle(pc, now);
      }
      pc.set_operating_point({c.voltage(), c.period().value()}, now);
    });
  return {pc, e.modelled};
}

double power_model::sum_on(const clock_domain& clock,
                           double (*of)(const power_component&, std::uint64_t)) {
  const std::uint64_t now = clock_domain::now_fs();
  double sum = 0;
  for (auto& e : m_entries) {
    if (e->clock != &clock || !e->modelled) continue;
    if (gating_policy* gate = e->component->gate()) gate->settle(*e->component, now);
    sum += of(*e->component, now);
  }
  return sum;
}

double power_model::idle_watts(const clock_domain& clock) {
  return sum_on(clock, [](const power_component& c, std::uint64_t) { return c.idle_watts(); });
}

double power_model::joules(const clock_domain& clock) {
  return sum_on(clock, [](const power_component& c, std::uint64_t now) {
    return c.static_joules(now) + c.dynamic_joules(now);
  });
}

void power_model::gpu_idle(std::uint64_t now_fs) {
  std::vector<gating_policy*> told{m_policy.get()};
  for (auto& [type, p] : m_by_type) told.push_back(p.get());
  for (auto& e : m_entries)  // the controllers gating components, once each
    if (gating_policy* g = e->component->gate();
        g && std::find(told.begin(), told.end(), g) == told.end())
      told.push_back(g);
  for (gating_policy* g : told) g->gpu_idle(now_fs);
}

void power_model::settle(std::uint64_t now_fs) {
  for (auto& e : m_entries)
    if (gating_policy* g = e->component->gate()) g->settle(*e->component, now_fs);
}

double power_model::static_joules(std::uint64_t now_fs) const {
  double j = 0;
  for (const auto& e : m_entries) j += e->component->static_joules(now_fs);
  return j;
}

double power_model::dynamic_joules(std::uint64_t now_fs) const {
  double j = 0;
  for (const auto& e : m_entries) j += e->component->dynamic_joules(now_fs);
  return j;
}

}  // namespace gputlm::pm
