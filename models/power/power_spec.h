// The platform's power table as written in YAML (`power:` section, docs/power.md): per
// block type and power component, the power states (static power of the whole component,
// wake-up latency, break-even time, which sets the energy of a transition from ON into the
// state; the first state is ON, the state every element starts in; optionally a clock
// power, dynamic power drawn while in the state at the clock domain's frequency as
// elaborated), the dynamic energy per activity event, all at 1 V, and optionally the size
// of one element (`granularity: 32B` splits a cache's data array into 32-byte lines). Also the
// source of the coefficients and the gating policy (a strategy chosen by name, with its
// parameters). Every value keeps its source location for error messages.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/common/block_config.h"

namespace gputlm::pm {

struct state_spec {
  std::string name;
  double static_watts = 0;  // whole component (all elements), at 1 V
  std::uint64_t wake_cycles = 0;
  std::uint64_t break_even_cycles = 0;
  source_location where;
  double clock_watts = 0;  // dynamic power while in the state (clock tree, idle toggling):
                           // whole component, at 1 V and the domain's nominal frequency
};

struct event_spec {
  std::string name;
  double joules = 0;  // per event, at 1 V
  source_location where;
};

struct component_spec {
  std::string block_type;  // "l1_cache"
  std::string component;   // "data"
  std::vector<state_spec> states;
  std::vector<event_spec> events;
  std::uint64_t granularity_bytes = 0;  // 0: the component is one element
  source_location where;
  source_location granularity_where;
  std::string key() const { return block_type + "." + component; }
};

struct policy_spec {
  std::string type = "always_on";
  std::map<std::string, config_value> values;  // the policy's parameters
  source_location where;
  std::string key = "power.policy";  // where the YAML gives it, for messages
  // `policy: {<block type>: <policy>, ..., default: <policy>}`: a policy per block type
  // (its components), the one above (`default`, always_on unless given) for the others.
  std::vector<std::pair<std::string, policy_spec>> by_type;
};

struct power_spec {
  bool present = false;
  std::string source;  // where the coefficients come from (free text)
  std::vector<component_spec> components;
  policy_spec policy;
};

}  // namespace gputlm::pm
