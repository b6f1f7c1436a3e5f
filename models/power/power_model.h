// The chip's power model: the platform's power table, the gating policy it chose, and every
// power component the blocks declared (block path, table entry, the component itself).
// Blocks declare components through component::declare_power; the model builds each one
// from its table entry (`<block type>.<component>`), hands it to the policy, and at the end
// gives the totals per block and for the chip. A table entry no block declares, or an event
// a block does not have, is an input error at its YAML line.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/common/power_registry.h"
#include "models/power/gating_policy.h"
#include "models/power/power_component.h"
#include "models/power/power_spec.h"

namespace gputlm::pm {

class power_model final : public power_registry {
 public:
  struct entry {
    std::string block;  // gpu.smx[3].l1
    std::string key;    // l1_cache.data
    std::unique_ptr<power_component> component;
    bool modelled;  // the table has coefficients for it
    const clock_domain* clock = nullptr;  // its block's (declare_component)
  };

  // At most this many elements per component (a gating policy keeps state per element).
  static constexpr std::uint64_t max_elements = std::uint64_t(1) << 24;

  explicit power_model(power_spec spec);
  ~power_model();

  const power_spec& spec() const { return m_spec; }
  // The policy for the components of blocks of `block_type` (the default one unless the
  // YAML names a policy for that type).
  gating_policy& policy_for(const std::string& block_type);
  // The policies' names by block type ("default" first), for reports.
  std::vector<std::pair<std::string, std::string>> policies() const;

  // A block's component: coefficients from the table entry `block_type.name` (zero, and
  // not reported, when there is none). Elements: capacity / granularity when the entry
  // sets a granularity and the block gives its capacity, otherwise `elements`; more than
  // max_elements from a granularity is an input error naming the entry's granularity.
  // `volts` and `period_fs`: the block's clock domain (the supply scales the coefficients,
  // given at 1 V; the period turns break-even cycles into transition energy).
  entry& declare(const std::string& block, const std::string& block_type, const std::string& name,
                 const std::vector<std::string>& events, std::uint64_t capacity_bytes,
                 std::uint32_t elements, double volts, std::uint64_t period_fs);

  // power_registry: declare() at the domain's operating point, then followed through
  // its changes (the component's gate first brings its timers up to the change).
  declared declare_component(const std::string& block, const std::string& block_type,
                             const std::string& name, const std::vector<std::string>& events,
                             std::uint64_t capacity_bytes, std::uint32_t elements,
                             clock_domain& clock) override;

  // After elaboration: every table entry was declared by some block, every block type
  // given a policy has blocks.
  void check_table() const;
  // The last running kernel exited at now_fs (the SMX scheduler tells): every gate hears
  // (the policies and the controllers gating components).
  void gpu_idle(std::uint64_t now_fs) override;
  double idle_watts(const clock_domain& clock) override;
  double joules(const clock_domain& clock) override;
  // Applies every gate's pending transitions up to now_fs (before reading totals).
  void settle(std::uint64_t now_fs);

  const std::vector<std::unique_ptr<entry>>& entries() const { return m_entries; }
  double static_joules(std::uint64_t now_fs) const;
  double dynamic_joules(std::uint64_t now_fs) const;

 private:
  // A policy's configuration (its parameters' values), kept while it lives.
  struct policy_config {
    block_config config;
    param_owner owner{config};
    explicit policy_config(const policy_spec& s) : config(s.key, "gating policy", s.where) {}
  };
  power_spec m_spec;
  std::vector<std::unique_ptr<policy_config>> m_configs;
  std::unique_ptr<gating_policy> m_policy;  // default
  std::map<std::string, std::unique_ptr<gating_policy>> m_by_type;
  std::unique_ptr<gating_policy> make(const policy_spec& s);
  // Σ of(component, now) over the modelled components clocked by `clock`, gates settled.
  double sum_on(const clock_domain& clock, double (*of)(const power_component&, std::uint64_t));
  std::vector<std::unique_ptr<entry>> m_entries;
  std::map<std::string, std::set<std::string>> m_declared;  // block type -> components
};

}  // namespace gputlm::pm
