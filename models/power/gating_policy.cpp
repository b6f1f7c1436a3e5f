#include "models/power/gating_policy.h"

#include <algorithm>

#include "models/common/input_error.h"
#include "models/common/units.h"
#include "models/common/vcd_writer.h"
#include "models/power/power_component.h"
#include "models/power/slumber_policy.h"
#include "models/power/snooze_policy.h"

namespace gputlm::pm {
namespace {

class always_on final : public gating_policy {
 public:
  always_on() : gating_policy("always_on") {}
};

class idle_timeout final : public gating_policy {
 public:
  explicit idle_timeout(const policy_spec& spec) : gating_policy("idle_timeout") {
    for (const auto& [key, v] : spec.values) {
      if (key == "after") {
        auto c = units::parse_cycles(v.text);
        if (v.is_sequence || !c || *c == 0)
          throw input_error(v.where, spec.key + ".after",
                            "expected a positive cycle count (1000cycles)");
        m_after = *c;
      } else if (key == "state") {
        if (v.is_sequence || v.text.empty())
          throw input_error(v.where, spec.key + ".state", "expected a power state name");
        m_state = v.text;
      } else if (key == "components") {
        if (v.is_sequence)
          m_patterns = v.items;
        else
          m_patterns = {v.text};
      } else {
        throw input_error(
            v.where, spec.key + "." + key,
            "unknown key '" + key + "' (idle_timeout takes after, state, components)");
      }
    }
    if (m_after == 0)
      throw input_error(spec.where, spec.key + ".after", "idle_timeout needs 'after' (cycles)");
    if (m_state.empty())
      throw input_error(spec.where, spec.key + ".state", "idle_timeout needs 'state' (e.g. sleep)");
  }

  void attach(power_component& c, const std::string& key, std::uint64_t period_fs) override {
    if (!m_patterns.empty() &&
        std::none_of(m_patterns.begin(), m_patterns.end(), [&](const std::string& p) {
          return vcd_writer::glob_match(p.c_str(), key.c_str());
        }))
      return;
    std::uint32_t s = 0;
    while (s < c.states().size() && c.states()[s].name != m_state) ++s;
    if (s == 0 || s == c.states().size()) return;  // no such state (or it is ON itself)
    c.bind_policy(this, static_cast<std::uint32_t>(m_tracked.size()));
    m_tracked.push_back({s, m_after * period_fs, std::vector<std::uint64_t>(c.elements(), 0)});
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
    if (c.policy_bound(this)) m_tracked[c.policy_slot()].timeout_fs = m_after * period_fs;
  }

 private:
  struct tracked {
    std::uint32_t state;
    std::uint64_t timeout_fs;
    std::vector<std::uint64_t> last_fs;  // per element: last access
  };
  std::uint64_t m_after = 0;
  std::string m_state;
  std::vector<std::string> m_patterns;
  std::vector<tracked> m_tracked;
};

}  // namespace

const std::vector<std::string>& policy_types() {
  static const std::vector<std::string> types{
      "always_on", "idle_timeout", "snooze", "snooze_bank", "snooze_block", "slumber", "wrf"};
  return types;
}

std::unique_ptr<gating_policy> make_policy(const policy_spec& spec) {
  if (spec.type == "always_on") {
    if (!spec.values.empty()) {
      const auto& [key, v] = *spec.values.begin();
      throw input_error(v.where, spec.key + "." + key, "always_on takes no parameters");
    }
    return std::make_unique<always_on>();
  }
  if (spec.type == "idle_timeout") return std::make_unique<idle_timeout>(spec);
  if (spec.type == "snooze" || spec.type == "snooze_bank" || spec.type == "snooze_block")
    return std::make_unique<snooze_policy>(spec);
  if (spec.type == "slumber" || spec.type == "wrf") return std::make_unique<slumber_policy>(spec);
  std::string list;
  for (const auto& t : policy_types()) list += (list.empty() ? "" : ", ") + t;
  throw input_error(spec.where, spec.key,
                    "unknown policy '" + spec.type + "' (one of " + list + ")");
}

}  // namespace gputlm::pm
