#include "models/power/gating_policy.h"

#include <algorithm>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"
#include "models/common/strategy.h"
#include "models/base/units.h"
#include "models/common/vcd_writer.h"
#include "models/power/power_component.h"

namespace gputlm::pm {
namespace {

class always_on final : public gating_policy, public strategy {
 public:
  using strategy::strategy;
  std::string gate_name() const override { return type(); }
};

class idle_timeout final : public gating_policy, public strategy {
 public:
  std::string gate_name() const override { return type(); }
  using strategy::strategy;
  void validate() override {
    m_after.require(m_after->value > 0, "idle_timeout needs 'after', a positive cycle count");
    m_state.require(!m_state->empty(), "idle_timeout needs 'state' (e.g. sleep)");
  }

  void attach(power_component& c, const std::string& key, std::uint64_t period_fs) override {
    const auto& globs = *m_components;
    if (!globs.empty() && std::none_of(globs.begin(), globs.end(), [&](const std::string& p) {
          return vcd_writer::glob_match(p.c_str(), key.c_str());
        }))
      return;
    std::uint32_t s = 0;
    while (s < c.states().size() && c.states()[s].name != *m_state) ++s;
    if (s == 0 || s == c.states().size()) return;  // no such state (or it is ON itself)
    c.bind_policy(this, static_cast<std::uint32_t>(m_tracked.size()));
    m_tracked.push_back(
        {s, m_after->value * period_fs, std::vector<std::uint64_t>(c.elements(), 0)});
  }

  std::uint64_t access(power_component& c, std::uint32_t e, std::uint64_t now_fs) override {
    tracked& t = m_tracked[c.policy_slot()];
    const std::uint64_t last = t.last_fs[e];
    t.last_fs[e] = now_fs;
    std::uint32_t s = c.state_of(e);
    if (s == 0 && now_fs - last > t.timeout_fs) {
      c.set_state(e, t.state, last + t.timeout_fs);
      s = t.state;
    }
    if (s == 0) return 0;
    c.set_state(e, 0, now_fs);
    return c.states()[s].wake_cycles;
  }

  void settle(power_component& c, std::uint64_t now_fs) override {
    if (!c.policy_bound(this)) return;
    tracked& t = m_tracked[c.policy_slot()];
    for (std::uint32_t e = 0; e < c.elements(); ++e)
      if (c.state_of(e) == 0 && now_fs - t.last_fs[e] > t.timeout_fs)
        c.set_state(e, t.state, t.last_fs[e] + t.timeout_fs);
  }

  void set_period(power_component& c, std::uint64_t period_fs) override {
    if (c.policy_bound(this)) m_tracked[c.policy_slot()].timeout_fs = m_after->value * period_fs;
  }

 private:
  struct tracked {
    std::uint32_t state;
    std::uint64_t timeout_fs;
    std::vector<std::uint64_t> last_fs;  // per element: last access
  };
  param<cycles> m_after{owner(), key("after"), {0},
                        "cycles without an access after which an element drops"};
  param<std::string> m_state{owner(), key("state"), "", "the state it drops to (e.g. sleep)"};
  string_list_param m_components{owner(), key("components"), {},
                                 "globs over type.component where it applies (default: all)"};
  std::vector<tracked> m_tracked;
};

GPUTLM_STRATEGY(gating_policy, "always_on", always_on, "every element stays ON");
GPUTLM_STRATEGY(gating_policy, "idle_timeout", idle_timeout,
                "an element idle for `after` cycles drops to `state`");

}  // namespace

std::unique_ptr<gating_policy> make_policy(const policy_spec& spec, param_owner& owner) {
  block_config& config = owner.config();
  for (const auto& [k, v] : spec.values) config.set(k, v);
  const auto& registry = strategy_registry<gating_policy>::instance();
  const auto* e = registry.find(spec.type);
  if (!e) {
    // Snooze and Slumber are controllers beside the blocks they gate now.
    for (const char* c : {"snooze", "snooze_bank", "snooze_block", "slumber", "wrf"})
      if (spec.type == c)
        throw input_error(spec.where, spec.key,
                          spec.type +
                              " is a controller beside the blocks it gates, not a gating policy: "
                              "add it to the platform with --with yaml/mechanisms/" +
                              (spec.type.rfind("snooze", 0) == 0 ? "snooze-l1.yaml (or -l2)"
                                                                  : std::string("slumber.yaml")) +
                              " (docs/power.md)");
    const std::string best = closest_match(spec.type, registry.names());
    throw input_error(spec.where, spec.key,
                      "unknown policy '" + spec.type + "' (one of " +
                          detail::list_names(registry.names()) + ")" +
                          (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  auto p = e->make(strategy_site{owner, "", spec.type, nullptr});
  for (const auto& [k, v] : config.values())
    if (!v.used) {
      std::string keys;
      for (const param_base* q : owner.params()) keys += (keys.empty() ? "" : ", ") + q->name();
      throw input_error(v.where, spec.key + "." + k,
                        "unknown key for the gating policy " + spec.type +
                            (keys.empty() ? " (it takes no parameters)" : " (its keys: " + keys + ")"));
    }
  p->validate();
  return p;
}

}  // namespace gputlm::pm
