// Strategies: a decision a block delegates — its TB scheduling policy, warp scheduling
// policy, DRAM request chooser, a power-gating policy — made by a small class registered by
// name for its kind, and chosen in the platform YAML under a key of the block:
//
//   policy: rb_ts                                   # the type alone
//   policy: {type: rb_ts, task_stealing: false}     # with its parameters
//   --set smx_scheduler.policy=kway_ts --set smx_scheduler.policy.task_stealing=false
//
// A strategy owns its parameters — param<T> members whose keys are under the choice's key
// (`policy.task_stealing`), read from the block's configuration when it is made, with
// units, defaults and descriptions, printed by --dump-config and suggested for a misspelled
// key — and its statistics, registered under the block. A new one is one file: the class
// and its registration,
//
//   GPUTLM_STRATEGY(control::tb_policy, "my_policy", my_policy, "what it does");
//
// which the block's choice finds by name (strategy_choice). docs/architecture.md.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/base/closest_match.h"
#include "models/base/input_error.h"
#include "models/common/param.h"
#include "models/common/stats.h"

namespace gputlm {

// Where a strategy is chosen: the owner of the configuration (a block), the key of the
// choice ("policy"; "" when the owner's configuration is the strategy's alone) and the type
// chosen. `block` is the block whose statistics it adds to (null for a platform-wide one).
struct strategy_site {
  param_owner& owner;
  std::string key;
  std::string type;
  component* block = nullptr;
};

class strategy {
 public:
  explicit strategy(const strategy_site& s)
      : m_owner(s.owner), m_key(s.key), m_type(s.type), m_block(s.block) {}
  virtual ~strategy() = default;
  const std::string& type() const { return m_type; }

 protected:
  // The owner and key of parameter `name`: param<T> m_x{owner(), key("x"), ...}.
  param_owner& owner() const { return m_owner; }
  std::string key(const std::string& name) const {
    return m_key.empty() ? name : m_key + "." + name;
  }
  // Registers a statistic of the block that chose this strategy.
  void add_stat(const std::string& name, std::function<double()> f, std::string description);
  void add_stat(const std::string& name, const counter& c, std::string description);

 private:
  param_owner& m_owner;
  std::string m_key, m_type;
  component* m_block;
};

// The strategies of one kind (Interface), by name.
template <class Interface>
class strategy_registry {
 public:
  using creator = std::function<std::unique_ptr<Interface>(const strategy_site&)>;
  struct entry {
    std::string description;
    creator make;
  };
  static strategy_registry& instance() {
    static strategy_registry r;
    return r;
  }
  void add(const std::string& name, std::string description, creator make) {
    m_entries[name] = {std::move(description), std::move(make)};
  }
  const entry* find(const std::string& name) const {
    auto it = m_entries.find(name);
    return it == m_entries.end() ? nullptr : &it->second;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& [k, e] : m_entries) v.push_back(k);
    return v;
  }

 private:
  std::map<std::string, entry> m_entries;
};

// Registers Impl (constructed from a strategy_site) as strategy `name` of Interface.
template <class Interface, class Impl>
struct strategy_registration {
  strategy_registration(const char* name, const char* description) {
    strategy_registry<Interface>::instance().add(
        name, description,
        [](const strategy_site& s) -> std::unique_ptr<Interface> { return std::make_unique<Impl>(s); });
  }
};

#define GPUTLM_STRATEGY_CAT2(a, b) a##b
#define GPUTLM_STRATEGY_CAT(a, b) GPUTLM_STRATEGY_CAT2(a, b)
#define GPUTLM_STRATEGY(INTERFACE, NAME, IMPL, DESCRIPTION)                      \
  static const ::gputlm::strategy_registration<INTERFACE, IMPL> GPUTLM_STRATEGY_CAT( \
      gputlm_strategy_, __LINE__)(NAME, DESCRIPTION)


// A block's choice of a strategy of kind Interface under `key`: the type is the value of
// `key` (`policy: rb_ts`) or of `key.type` (`policy: {type: rb_ts, ...}`), else the default.
// The strategy is made at once (its parameters read); an unknown type is an input_error at
// the value naming the types there are.
template <class Interface>
class strategy_choice : public param_base {
 public:
  strategy_choice(component& owner, const std::string& key, std::string default_type,
                  std::string what, std::string description);
  Interface& get() const { return *m_strategy; }
  Interface* operator->() const { return m_strategy.get(); }
  Interface& operator*() const { return *m_strategy; }
  const std::string& type() const { return m_type; }
  std::string to_yaml() const override { return m_type; }
  std::string expected() const override;

 private:
  std::string m_type, m_what;
  std::unique_ptr<Interface> m_strategy;
};

// A strategy made outside any block (a unit test, a policy's fallback): it keeps its own
// configuration, `values` by parameter name (its defaults for the others).
template <class Interface>
class standalone_strategy {
 public:
  explicit standalone_strategy(const std::string& type,
                               const std::map<std::string, std::string>& values = {})
      : m_config("standalone", type, {}), m_owner(m_config) {
    for (const auto& [k, v] : values) {
      config_value cv;
      cv.text = v;
      m_config.set(k, cv);
    }
    const auto* e = strategy_registry<Interface>::instance().find(type);
    if (!e) throw std::invalid_argument("no strategy '" + type + "'");
    m_strategy = e->make(strategy_site{m_owner, "", type, nullptr});
  }
  Interface& operator*() const { return *m_strategy; }
  Interface* operator->() const { return m_strategy.get(); }

 private:
  block_config m_config;
  param_owner m_owner;
  std::unique_ptr<Interface> m_strategy;
};

namespace detail {
// The type chosen under `key` (its value, or `key.type`), marked used; with its location.
bool chosen_type(param_owner& owner, const std::string& key, std::string& type,
                 source_location& where);
std::string list_names(const std::vector<std::string>& names);
}  // namespace detail

template <class Interface>
strategy_choice<Interface>::strategy_choice(component& owner, const std::string& key,
                                            std::string default_type, std::string what,
                                            std::string description)
    : param_base(owner, key, std::move(description)),
      m_type(std::move(default_type)),
      m_what(std::move(what)) {
  std::string chosen;
  source_location at;
  if (detail::chosen_type(owner, key, chosen, at)) {
    m_type = chosen;
    set_at(at);
  }
  const auto& registry = strategy_registry<Interface>::instance();
  const auto* e = registry.find(m_type);
  if (!e) {
    const std::string best = closest_match(m_type, registry.names());
    throw input_error(where(), path(),
                      "unknown " + m_what + " '" + m_type + "' (one of " +
                          detail::list_names(registry.names()) + ")" +
                          (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  m_strategy = e->make(strategy_site{owner, key, m_type, &owner});
}

template <class Interface>
std::string strategy_choice<Interface>::expected() const {
  return "one of " + detail::list_names(strategy_registry<Interface>::instance().names());
}

}  // namespace gputlm
