// The common base of every gputlm block (VCML `component` style): a SystemC module with
// its clock domain, typed parameters read from the platform configuration, statistics
// registered under its hierarchical name, named TLM sockets that the platform binds by
// path, and a hook to register waveform traces.
//
// Blocks are event-driven: nothing here ticks. A block schedules its next activation with
// clock().delay_cycles(n) on its own domain, whose period may change at run time.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <typeindex>
#include <vector>

#include "models/common/block_config.h"
#include "models/common/clock_domain.h"
#include "models/common/param.h"
#include "models/common/ports.h"
#include "models/common/power_registry.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"

namespace gputlm::control {
struct workload_ref;
}
namespace gputlm::pm {
class power_component;
}

namespace gputlm {

using initiator_socket_base = tlm::tlm_initiator_socket<>;
using target_socket_base = tlm::tlm_target_socket<>;

// What the elaborator hands every block's constructor.
struct block_context {
  block_config& config;
  clock_domain& clock;
  stats_registry& stats;
  control::workload_ref& work;      // the trace being replayed (set before the run starts)
  power_registry* power = nullptr;  // the platform's power table (none: nothing modelled)
  // How many elements of each of its socket and port arrays the platform's bindings use
  // ("smx" -> 15 for smx[0] .. smx[14]); none: nothing binds an array.
  const std::map<std::string, std::uint64_t>* arrays = nullptr;
  // The platform's clock domains, for a block wired to their supplies (a voltage regulator
  // names the domains it drives; no other block looks at another's domain).
  const std::vector<std::unique_ptr<clock_domain>>* clocks = nullptr;
};

class component : public sc_core::sc_module, public param_owner {
 public:
  struct socket_ref {
    std::string name;  // as bound by path: "icnt", "mem[3]"
    initiator_socket_base* initiator = nullptr;
    target_socket_base* target = nullptr;
  };
  // A typed port (ports.h): the interface it calls, and how to bind it to a provider.
  struct port_ref {
    std::string name;
    std::type_index iface;
    std::string iface_name;  // for messages
    std::function<void(sc_core::sc_interface&)> bind;
    bool multiple;  // may be bound more than once (observers)
    bool optional;  // may stay unbound
  };
  // A typed export: the interface it provides (bound to its implementation by the block,
  // at the latest before the platform binds the ports).
  struct export_ref {
    std::string name;
    std::type_index iface;
    std::string iface_name;
    sc_core::sc_export_base* exp;
  };

  component(const sc_core::sc_module_name& name, const block_context& ctx);
  ~component() override;

  const std::string& type() const { return config().type(); }
  clock_domain& clock() const { return m_clock; }
  stats_registry& stats() const { return m_stats; }
  control::workload_ref& work() const { return m_work; }
  // The platform's clock domain `name` (nullptr: none), for a block driving supplies.
  clock_domain* find_clock(const std::string& name) const;

  const std::vector<socket_ref>& sockets() const { return m_sockets; }
  const std::vector<port_ref>& ports() const { return m_ports; }
  const std::vector<export_ref>& exports() const { return m_exports; }
  // How many elements of the socket or port array `name` the platform's bindings use (0:
  // none), for a block that sizes the array by its bindings.
  std::uint64_t bound_count(const std::string& name) const;
  // The same, for the array a block makes now: at least `min` and at most `max` elements,
  // else an input_error at the block naming the array.
  std::uint64_t bound_array(const std::string& name, std::uint64_t min, std::uint64_t max) const;

  // Checks relations between parameters (cache geometry, counts); throws input_error.
  virtual void validate() {}
  // Checks that need the blocks it is bound to (reading their registers over its sockets),
  // once every socket is bound; throws input_error.
  virtual void validate_bound() {}
  // A controller placed where it cannot act (nothing bound to what it offers, once every
  // block's validate_bound has run): what it lacks, an input error at its YAML; "" when it
  // acts, or for a block.
  virtual std::string unattached() const { return {}; }
  // Checks what the block reads of the workload the run attached (work(): an application
  // note, a kernel's shape) before the simulation starts; throws input_error.
  virtual void check_workload() {}
  // What the block is waiting for, for the diagnosis of a run that ends with work left
  // (empty when idle).
  virtual std::string pending_work() const { return {}; }
  // Called when a run ends with work left: throws input_error when a setting of this block
  // explains it (a limit the workload cannot run under), naming that setting.
  virtual void explain_deadlock() const {}
  // The storage a research mechanism adds to this block, for `gputlm elaborate` ("" for
  // none): e.g. PAVER's per-SMX registers, the AGT.
  virtual std::string added_hardware() const { return {}; }
  // Registers the block's waveform signals (traced_value::trace) under its hierarchical
  // name; called only when tracing is on, before the simulation starts.
  virtual void add_traces(vcd_writer& /*vcd*/) {}

  // Declares one of the block's power components (docs/power.md): its states and event
  // energies come from the platform's power table entry `<type>.<name>`; `events` are
  // indexed in the order given (power_component::record). Elements: capacity_bytes /
  // the entry's granularity when both are set, else `elements`. Statistics (energy, power,
  // residency per state) are registered when the table has the entry; the coefficients are
  // at 1 V and scale with the block's clock domain's voltage, from the start and at DVFS
  // changes. Call from the constructor.
  pm::power_component& declare_power(const std::string& name,
                                     const std::vector<std::string>& events,
                                     std::uint64_t capacity_bytes = 0, std::uint32_t elements = 1);
  // The platform's power table (nullptr without a `power:` table).
  power_registry* power() const { return m_power; }
  // The index of an array instance from its name ("gpu.smx[12]" -> 12; 0 without one).
  static std::uint32_t index_in_name(const std::string& name);
  // The current simulated time in fs (the time base of power components).
  static std::uint64_t now_fs() { return clock_domain::now_fs(); }

  // Statistics under this block's hierarchical name; `group`: written only by runs that
  // enable it (stats_registry::add).
  void add_stat(const std::string& name, const counter& c, std::string description,
                std::string group = {}) {
    m_stats.add(name_path(), name, c, std::move(description), std::move(group));
  }
  void add_stat(const std::string& name, const histogram& h, std::string description,
                std::string group = {}) {
    m_stats.add(name_path(), name, h, std::move(description), std::move(group));
  }
  void add_stat(const std::string& name, std::function<double()> f, std::string description,
                std::string group = {}) {
    m_stats.add(name_path(), name, std::move(f), std::move(description), std::move(group));
  }

  // The b_transport of a target socket that speaks only the AT base protocol: reports an
  // error. Registering it (register_b_transport(this, &component::at_only)) also keeps
  // tlm_utils' simple target socket from making a blocking-to-AT adapter thread, with
  // its own stack, for every socket at the start of simulation.
  void at_only(tlm::tlm_generic_payload& gp, sc_core::sc_time& t);
  void at_only_tagged(int /*id*/, tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
    at_only(gp, t);
  }

 protected:
  void declare_socket(const std::string& name, initiator_socket_base& s);
  void declare_socket(const std::string& name, target_socket_base& s);
  // A typed port (optional_port, required_port, observers) the platform binds by `name`.
  template <class Port>
  void declare_port(const std::string& name, Port& p) {
    using IF = typename Port::interface_type;
    m_ports.push_back({name, std::type_index(typeid(IF)), interface_name(typeid(IF)),
                       [&p](sc_core::sc_interface& i) { p.connect(dynamic_cast<IF&>(i)); },
                       Port::multiple, Port::optional});
  }
  // A typed export, already bound to what implements IF.
  template <class IF>
  void declare_export(const std::string& name, sc_core::sc_export<IF>& e) {
    m_exports.push_back({name, std::type_index(typeid(IF)), interface_name(typeid(IF)), &e});
  }

 private:
  std::string name_path() const { return name(); }
  // Energy of the block's reported power components so far: static, dynamic or both, J.
  double block_joules(bool with_static, bool with_dynamic) const;

  clock_domain& m_clock;
  stats_registry& m_stats;
  control::workload_ref& m_work;
  power_registry* m_power;
  std::vector<std::unique_ptr<pm::power_component>> m_unmodelled_power;  // no power model
  std::vector<pm::power_component*> m_power_components;                  // with statistics
  std::vector<socket_ref> m_sockets;
  std::vector<port_ref> m_ports;
  std::vector<export_ref> m_exports;
  const std::map<std::string, std::uint64_t>* m_arrays;
  const std::vector<std::unique_ptr<clock_domain>>* m_clocks;
};

}  // namespace gputlm
