#include "models/common/component.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "models/power/power_component.h"

namespace gputlm {
namespace {
// A quantity per second of simulated time so far, and per one of `count` elements (0 before
// any time has passed).
double per_simulated_second(double x, double count = 1.0) {
  const double s = sc_core::sc_time::from_value(clock_domain::now_fs()).to_seconds();
  return s > 0 ? x / (s * count) : 0.0;
}
}  // namespace

component::component(const sc_core::sc_module_name& name, const block_context& ctx)
    : sc_core::sc_module(name),
      param_owner(ctx.config),
      m_clock(ctx.clock),
      m_stats(ctx.stats),
      m_work(ctx.work),
      m_power(ctx.power),
      m_arrays(ctx.arrays),
      m_clocks(ctx.clocks) {}

clock_domain* component::find_clock(const std::string& name) const {
  if (m_clocks)
    for (const auto& c : *m_clocks)
      if (c->name() == name) return c.get();
  return nullptr;
}

std::uint64_t component::bound_count(const std::string& name) const {
  if (!m_arrays) return 0;
  auto it = m_arrays->find(name);
  return it == m_arrays->end() ? 0 : it->second;
}

std::uint64_t component::bound_array(const std::string& name, std::uint64_t min,
                                     std::uint64_t max) const {
  const std::uint64_t n = bound_count(name);
  if (n < min)
    throw input_error(config().where(), config().path() + "." + name,
                      "no binding names " + name + "[0]: a block of type '" + type() +
                          "' needs at least " + std::to_string(min) + " (bind them by path)");
  if (n > max)
    throw input_error(config().where(), config().path() + "." + name,
                      "the bindings name " + name + "[0] to " + name + "[" + std::to_string(n - 1) +
                          "]: at most " + std::to_string(max));
  return n;
}

std::string interface_name(const std::type_info& t) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status),
                                           std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(t.name());
}

component::~component() = default;

void component::declare_socket(const std::string& name, initiator_socket_base& s) {
  m_sockets.push_back({name, &s, nullptr});
}

void component::declare_socket(const std::string& name, target_socket_base& s) {
  m_sockets.push_back({name, nullptr, &s});
}

double component::block_joules(bool with_static, bool with_dynamic) const {
  double j = 0;
  for (const auto* c : m_power_components)
    j += (with_static ? c->static_joules(now_fs()) : 0.0) +
         (with_dynamic ? c->dynamic_joules(now_fs()) : 0.0);
  return j;
}

pm::power_component& component::declare_power(const std::string& name,
                                              const std::vector<std::string>& events,
                                              std::uint64_t capacity_bytes,
                                              std::uint32_t elements) {
  using pm::power_component;
  if (!m_power) {
    m_unmodelled_power.push_back(
        power_component::unmodelled(std::string(this->name()) + "." + name, events, elements));
    return *m_unmodelled_power.back();
  }
  const power_registry::declared d = m_power->declare_component(this->name(), type(), name, events,
                                                                capacity_bytes, elements, m_clock);
  power_component& pc = d.component;
  if (!d.modelled) return pc;

  const std::string p = "power." + name + ".";
  add_stat(
      p + "static_joules", [&pc] { return pc.static_joules(now_fs()); },
      "static (leakage) energy, J");
  add_stat(
      p + "dynamic_joules", [&pc] { return pc.dynamic_joules(now_fs()); },
      "dynamic energy (events, state transitions and clock power), J");
  if (pc.has_clock_power())
    add_stat(
        p + "clock_joules", [&pc] { return pc.clock_joules(now_fs()); },
        "energy of the states' clock power (idle dynamic power), part of dynamic_joules, J");
  pc.on_gated([this, &pc, p] {  // a gate switches it: it may change state
    add_stat(
        p + "transition_joules", [&pc] { return pc.transition_joules(); },
        "energy of transitions from ON into lower states (break-even x period x saving), "
        "part of dynamic_joules, J");
  });
  add_stat(
      p + "average_watts",
      [&pc] {
        return per_simulated_second(pc.static_joules(now_fs()) + pc.dynamic_joules(now_fs()));
      },
      "(static + dynamic energy) / simulated time, W");
  for (std::uint32_t st = 0; st < pc.states().size(); ++st)
    add_stat(
        p + "residency." + pc.states()[st].name,
        [&pc, st] {
          return per_simulated_second(pc.residency_seconds(st, now_fs()), pc.elements());
        },
        "fraction of the element-time spent in this state");
  for (std::uint32_t ev = 0; ev < pc.events().size(); ++ev)
    add_stat(
        p + "events." + pc.events()[ev].name, [&pc, ev] { return double(pc.event_count(ev)); },
        "activity events counted for dynamic energy");
  if (m_power_components.empty()) {  // the block's totals, once
    add_stat(
        "power.static_joules", [this] { return block_joules(true, false); },
        "static energy of the block's power components, J");
    add_stat(
        "power.dynamic_joules", [this] { return block_joules(false, true); },
        "dynamic energy of the block's power components, J");
    add_stat(
        "power.average_watts", [this] { return per_simulated_second(block_joules(true, true)); },
        "(static + dynamic energy of the block) / simulated time, W");
  }
  m_power_components.push_back(&pc);
  return pc;
}

void component::at_only(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  SC_REPORT_ERROR(name(),
                  "blocking transport (b_transport) is not supported: this socket speaks the "
                  "TLM-2.0 AT base protocol (nb_transport_fw/bw)");
}

std::uint32_t component::index_in_name(const std::string& name) {
  auto open = name.rfind('[');
  if (open == std::string::npos || name.back() != ']') return 0;
  return static_cast<std::uint32_t>(std::stoul(name.substr(open + 1)));
}

}  // namespace gputlm
