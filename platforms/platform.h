// Elaboration: platform YAML -> SystemC module tree -> socket bindings.
//
// platform::load() reads the YAML, applies `overrides:` and --set options, creates every
// block through the factory (children inside their parent, so SystemC names read
// gpu.smx[12].l1), binds the sockets declared under `bind:`, and checks that every key was
// used, every socket bound exactly once and every block's geometry is possible. Any
// problem is an input_error naming file, line, column and key path.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/clock_domain.h"
#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/control/workload.h"
#include "models/power/power_model.h"
#include "models/base/index_expr.h"
#include "platforms/platform_spec.h"

namespace gputlm::platforms {

class platform {
 public:
  struct binding {
    std::string initiator;  // full socket path: gpu.smx[0].l1.icnt
    std::string target;
  };

  // Parses and elaborates. Call once per process (SystemC elaborates once).
  // `with`: mechanism files merged onto the platform in order (platform_spec.h).
  static std::unique_ptr<platform> load(const std::string& file,
                                        const std::vector<std::string>& sets = {},
                                        const std::vector<std::string>& with = {});
  ~platform();

  const platform_spec& spec() const { return m_spec; }
  component& top() const { return *m_components.front(); }
  const std::vector<component*>& components() const { return m_order; }
  component* find(const std::string& path) const;
  clock_domain* clock(const std::string& name) const;
  const std::vector<std::unique_ptr<clock_domain>>& clocks() const { return m_clocks; }
  stats_registry& stats() { return m_stats; }
  // The workload the blocks replay; set before sc_start.
  void set_workload(control::workload* w) { m_work.ptr = w; }
  const std::vector<binding>& bindings() const { return m_bindings; }
  // The power model (null when the platform has no `power:` section).
  pm::power_model* power() const { return m_power.get(); }

  // Number of instances of each block type.
  std::map<std::string, std::size_t> count_by_type() const;
  void print_hierarchy(std::ostream& os) const;
  // Every effective parameter, as YAML that reloads to the same platform.
  void dump_config(std::ostream& os) const;
  // Graphviz view of the blocks and their socket bindings.
  void write_dot(std::ostream& os) const;

 private:
  struct socket_state {
    component::socket_ref ref;
    component* owner = nullptr;
    bool bound = false;
    source_location bound_at;
  };
  struct port_state {
    const component::port_ref* ref = nullptr;
    component* owner = nullptr;
    std::uint64_t bound = 0;
    source_location bound_at;
  };
  struct export_state {
    const component::export_ref* ref = nullptr;
    component* owner = nullptr;
  };

  platform() = default;
  void make_clocks();
  static std::vector<pstate> parse_pstates(const clock_spec& c);
  static void check_own_pstate(const clock_spec& c, const clock_domain& d);
  void apply_spec_overrides();
  void resolve_vars();
  void resolve_counts(block_spec& spec);
  void derive_arrays(const block_spec& spec, const std::string& parent_path);
  bool has_endpoint(const std::string& path) const {
    return m_sockets.count(path) || m_ports.count(path) || m_exports.count(path);
  }
  void bind_endpoints(const binding_spec& b, const std::string& from, const std::string& to);
  // What block `block` has to bind, for messages: "icnt, mem[0], ..." (or "").
  std::string endpoints_of(const std::string& block) const;
  void instantiate(const block_spec& spec, const std::string& parent_path, clock_domain* parent_clock,
                   const std::vector<std::pair<std::vector<std::string>, override_spec*>>& pending);
  void bind_all(const block_spec& spec, const std::string& instance_path);
  void bind_one(const binding_spec& b, const std::string& scope);
  void check_unused_and_validate();

  platform_spec m_spec;
  std::vector<std::unique_ptr<clock_domain>> m_clocks;
  std::unique_ptr<pm::power_model> m_power;  // outlives the blocks holding its components
  std::vector<std::unique_ptr<block_config>> m_configs;
  std::vector<std::unique_ptr<component>> m_components;  // creation order, parents first
  std::vector<component*> m_order;
  std::map<std::string, component*> m_by_path;
  std::map<std::string, const block_spec*> m_spec_of;     // instance path -> spec
  std::map<std::string, socket_state> m_sockets;           // full socket path -> state
  std::map<std::string, port_state> m_ports;               // full port path -> state
  std::map<std::string, export_state> m_exports;           // full export path -> state
  var_values m_vars;                                       // the platform's integer `vars`
  std::map<std::string, std::uint64_t> m_clock_counts;     // per-instance domains: how many
  text_vars m_text_vars;                                   // and those whose value is text
  // Per instance path: the array sizes its bindings use (component::bound_count).
  std::map<std::string, std::map<std::string, std::uint64_t>> m_arrays;
  std::vector<binding> m_bindings;       // sockets
  std::vector<binding> m_port_bindings;  // typed ports to exports
  stats_registry m_stats;
  control::workload_ref m_work;
};

}  // namespace gputlm::platforms
