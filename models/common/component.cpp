#include "models/common/component.h"

#include <algorithm>

#include "models/power/power_model.h"

namespace gputlm {

component::component(const sc_core::sc_module_name& name, const block_context& ctx)
    : sc_core::sc_module(name),
      m_config(ctx.config),
      m_clock(ctx.clock),
      m_stats(ctx.stats),
      m_work(ctx.work),
      m_power(ctx.power) {}

component::~component() = default;

void component::declare_socket(const std::string& name, initiator_socket_base& s) {
  m_sockets.push_back({name, &s, nullptr});
}

void component::declare_socket(const std::string& name, target_socket_base& s) {
  m_sockets.push_back({name, nullptr, &s});
}

pm::power_component& component::declare_power(const std::string& name,
                                                 const std::vector<std::string>& events,
                                                 std::uint64_t capacity_bytes,
                                                 std::uint32_t elements) {
  using pm::power_component;
  if (!m_power) {
    std::vector<pm::power_event> evs;
    for (const auto& e : events) evs.push_back({e, 0.0});
    m_unmodelled_power.push_back(std::make_unique<power_component>(
        std::string(this->name()) + "." + name, std::vector<pm::power_state>{{"on", 0.0, 0, 0}},
        std::move(evs), 1.0, elements ? elements : 1));
    return *m_unmodelled_power.back();
  }
  const std::uint64_t period_fs = m_clock.period().value();
  pm::power_model::entry& e =
      m_power->declare(this->name(), type(), name, events, capacity_bytes, elements,
                       m_clock.voltage(), period_fs);
  power_component& pc = *e.component;
  if (!e.modelled) return pc;

  // DVFS: the policy first brings its timers up to now, then the new supply applies.
  pm::power_model* model = m_power;
  m_clock.on_change([&pc, model](const clock_domain& c) {
    model->policy().set_period(pc, c.period().value());
    model->policy().settle(pc, now_fs());
    pc.set_voltage(c.voltage(), now_fs());
  });

  const std::string p = "power." + name + ".";
  add_stat(p + "static_joules", [&pc] { return pc.static_joules(now_fs()); },
           "static (leakage) energy, J");
  add_stat(p + "dynamic_joules", [&pc] { return pc.dynamic_joules(); }, "dynamic energy, J");
  add_stat(
      p + "average_watts",
      [&pc] {
        const double s = sc_core::sc_time_stamp().to_seconds();
        return s > 0 ? (pc.static_joules(now_fs()) + pc.dynamic_joules()) / s : 0.0;
      },
      "(static + dynamic energy) / simulated time, W");
  for (std::uint32_t st = 0; st < pc.states().size(); ++st)
    add_stat(
        p + "residency." + pc.states()[st].name,
        [&pc, st] {
          const double s = sc_core::sc_time_stamp().to_seconds();
          return s > 0 ? pc.residency_seconds(st, now_fs()) / (s * pc.elements()) : 0.0;
        },
        "fraction of the element-time spent in this state");
  for (std::uint32_t ev = 0; ev < pc.events().size(); ++ev)
    add_stat(p + "events." + pc.events()[ev].name, [&pc, ev] { return double(pc.event_count(ev)); },
             "activity events counted for dynamic energy");
  if (m_power_components.empty()) {
    add_stat("power.static_joules", [this] {
      double j = 0;
      for (auto* c : m_power_components) j += c->static_joules(now_fs());
      return j;
    }, "static energy of the block's power components, J");
    add_stat("power.dynamic_joules", [this] {
      double j = 0;
      for (auto* c : m_power_components) j += c->dynamic_joules();
      return j;
    }, "dynamic energy of the block's power components, J");
    add_stat("power.average_watts", [this] {
      const double s = sc_core::sc_time_stamp().to_seconds();
      double j = 0;
      for (auto* c : m_power_components) j += c->static_joules(now_fs()) + c->dynamic_joules();
      return s > 0 ? j / s : 0.0;
    }, "(static + dynamic energy of the block) / simulated time, W");
  }
  m_power_components.push_back(&pc);
  return pc;
}

}  // namespace gputlm
