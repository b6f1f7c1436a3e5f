// YAML -> platform_spec, through the merged tree of the file and its bases (yaml_tree.h).
// The schema is documented in docs/platforms.md.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"
#include "models/base/units.h"
#include "models/common/block_factory.h"
#include "platforms/platform_spec.h"
#include "platforms/yaml_tree.h"

namespace gputlm::platforms {
namespace {

const std::vector<std::string> k_top_keys{"base", "platform",  "vars",      "clocks",
                                          "gpu",  "overrides", "waveforms", "power"};
const std::vector<std::string> k_reserved_block_keys{"type", "count", "clock", "bind"};

[[noreturn]] void fail(const ynode& n, const std::string& key, const std::string& msg) {
  throw input_error(n.where(), key, msg);
}

[[noreturn]] void fail(const ynode::entry& e, const std::string& key, const std::string& msg) {
  throw input_error(e.where(), key, msg);
}

std::string unknown_key_message(const std::string& key, const std::vector<std::string>& valid) {
  std::string msg = "unknown key '" + key + "'";
  std::string best = closest_match(key, valid);
  if (!best.empty()) msg += "; did you mean '" + best + "'?";
  return msg;
}

config_value to_value(const ynode& n, const std::string& key) {
  config_value v;
  v.where = n.where();
  if (n.is_scalar()) {
    v.text = n.scalar();
  } else if (n.is_sequence()) {
    v.is_sequence = true;
    for (const ynode& item : n.items) {
      if (!item.is_scalar())
        throw input_error(item.where(), key, "list items must be plain values");
      v.items.push_back(item.scalar());
    }
  } else if (n.is_null()) {
    fail(n, key, "has no value");
  } else {
    fail(n, key, "expected a value, got a mapping");
  }
  return v;
}

// A parameter's value, located at its key.
config_value entry_value(const ynode::entry& e, const std::string& key) {
  config_value v = to_value(e.value, key);
  v.where = e.where();
  return v;
}

std::string scalar(const ynode& n, const std::string& key) {
  if (!n.is_scalar()) fail(n, key, "expected a plain value");
  return n.scalar();
}

block_spec parse_block(const ynode::entry& self, const std::string& spec_path) {
  const ynode& n = self.value;
  block_spec b;
  b.name = self.key;
  b.where = self.where();
  b.spec_path = spec_path;
  if (!n.is_map()) fail(n, spec_path, "a block must be a mapping with a 'type'");
  if (!n.find("type")) fail(self, spec_path, "block has no 'type'");
  // (A known type's parameter groups are mappings of its own parameters.)
  const block_factory::entry* type_entry =
      n.find("type")->value.is_scalar()
          ? block_factory::builtin().find(n.find("type")->value.scalar())
          : nullptr;
  // The name becomes a SystemC module name and a step of `--set` and statistics paths.
  const bool name_ok = !b.name.empty() && !std::isdigit(static_cast<unsigned char>(b.name[0])) &&
                       std::all_of(b.name.begin(), b.name.end(), [](char ch) {
                         return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                       });
  if (!name_ok)
    fail(
        self, spec_path,
        "a block name is letters, digits and '_', not starting with a digit, not '" + b.name + "'");
  for (const auto& e : n.entries) {
    const std::string& key = e.key;
    const ynode& value = e.value;
    const std::string key_path = spec_path + "." + key;
    if (key == "type") {
      b.type = scalar(value, key_path);
      b.type_where = value.where();
    } else if (key == "count") {
      // A number, checked now, or an expression of the platform's `vars`, resolved at
      // elaboration (platform::resolve_counts).
      const std::string text = scalar(value, key_path);
      b.count_where = value.where();
      const bool literal = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch));
      });
      if (literal) {
        auto c = units::parse_uint(text);
        if (!c) fail(value, key_path, "expected a positive integer, got '" + text + "'");
        if (*c == 0) fail(value, key_path, "count must be at least 1");
        if (*c > max_block_count)
          fail(value, key_path, "count must be at most " + std::to_string(max_block_count));
        b.count = *c;
        b.count_text.clear();
      } else {
        b.count_text = text;
      }
    } else if (key == "bind") {
      if (!value.is_sequence()) fail(value, key_path, "expected a list of 'a -> b' bindings");
      std::size_t i = 0;
      for (const ynode& item : value.items) {
        std::string k = key_path + "[" + std::to_string(i++) + "]";
        if (!item.is_scalar()) throw input_error(item.where(), k, "expected a plain value");
        b.bindings.push_back({item.scalar(), item.where(), k});
      }
    } else if (value.is_map() && type_entry && type_entry->has_group(key)) {
      for (const auto& g : value.entries) {
        if (g.value.is_map())
          fail(g.value, key_path + "." + g.key, "a parameter group holds values, not blocks");
        b.values[key + "." + g.key] = entry_value(g, key_path + "." + g.key);
      }
    } else if (value.is_scalar() && type_entry && type_entry->has_group(key)) {
      b.values[key + ".type"] = entry_value(e, key_path);  // a strategy's type alone
    } else if (value.is_map()) {
      if (std::find(k_reserved_block_keys.begin(), k_reserved_block_keys.end(), key) !=
          k_reserved_block_keys.end())
        fail(e, key_path, "'" + key + "' is reserved");
      b.children.push_back(parse_block(e, key_path));
    } else {
      b.values[key] = entry_value(e, key_path);
    }
  }
  return b;
}

double power_value(const ynode& n, const std::string& key) {
  auto v = units::parse_power(scalar(n, key));
  if (!v || *v < 0) fail(n, key, "expected a power, e.g. 12mW");
  return *v;
}

std::uint64_t cycles_value(const ynode& n, const std::string& key) {
  auto v = units::parse_cycles(scalar(n, key));
  if (!v) fail(n, key, "expected cycles, e.g. 2cycles");
  return *v;
}

// One power state: `on: 1.2W` or `sleep: {static: 0.3W, wake: 2cycles, break_even: 10cycles}`,
// optionally with `clock: 0.2W` (dynamic power while in the state).
pm::state_spec parse_power_state(const ynode::entry& self, const std::string& path) {
  const ynode& n = self.value;
  pm::state_spec st;
  st.name = self.key;
  st.where = self.where();
  if (n.is_scalar()) {
    st.static_watts = power_value(n, path);
  } else if (n.is_map()) {
    if (!n.find("static")) fail(n, path, "state has no 'static' power");
    for (const auto& a : n.entries) {
      const std::string& k = a.key;
      if (k == "static")
        st.static_watts = power_value(a.value, path + ".static");
      else if (k == "wake")
        st.wake_cycles = cycles_value(a.value, path + ".wake");
      else if (k == "break_even")
        st.break_even_cycles = cycles_value(a.value, path + ".break_even");
      else if (k == "clock")
        st.clock_watts = power_value(a.value, path + ".clock");
      else
        fail(a, path + "." + k, unknown_key_message(k, {"static", "wake", "break_even", "clock"}));
    }
  } else {
    fail(n, path, "expected a power or {static, wake, break_even, clock}");
  }
  return st;
}

// One table entry, `components.<type>.<component>`: granularity, states, events.
pm::component_spec parse_power_component(const std::string& type, const ynode::entry& self) {
  const ynode& body = self.value;
  pm::component_spec cs;
  cs.block_type = type;
  cs.component = self.key;
  cs.where = self.where();
  const std::string path = "power.components." + cs.key();
  if (!body.is_map()) fail(body, path, "expected states and events");
  for (const auto& f : body.entries) {
    const std::string& fk = f.key;
    const ynode& fv = f.value;
    const std::string fpath = path + "." + fk;
    if (fk == "granularity") {
      auto b = units::parse_bytes(scalar(fv, fpath));
      if (!b || *b == 0) fail(fv, fpath, "expected a size, e.g. 32B");
      cs.granularity_bytes = *b;
      cs.granularity_where = f.where();
    } else if (fk == "states") {
      if (!fv.is_map() || fv.entries.empty())
        fail(fv, fpath, "expected states, the first being ON: {on: 1.2W, ...}");
      for (const auto& st : fv.entries) {
        // (a state listed twice is a key given twice: load_yaml_file reports it)
        cs.states.push_back(parse_power_state(st, fpath + "." + st.key));
      }
      if (cs.states.size() > 255) fail(fv, fpath, "at most 255 states");
    } else if (fk == "events") {
      if (!fv.is_map()) fail(fv, fpath, "expected {event: energy, ...}");
      for (const auto& e : fv.entries) {
        pm::event_spec ev;
        ev.name = e.key;
        ev.where = e.where();
        const std::string epath = fpath + "." + ev.name;
        auto j = units::parse_energy(scalar(e.value, epath));
        if (!j || *j < 0) fail(e.value, epath, "expected an energy, e.g. 20pJ");
        ev.joules = *j;
        cs.events.push_back(std::move(ev));
      }
    } else {
      fail(f, fpath, unknown_key_message(fk, {"states", "events", "granularity"}));
    }
  }
  if (cs.states.empty()) fail(self, path, "no 'states' (the first is ON)");
  return cs;
}

// One policy: `always_on` or `{type: idle_timeout, <parameter>: <value>...}`.
pm::policy_spec parse_one_policy(const ynode& n, const std::string& key) {
  pm::policy_spec pol;
  pol.where = n.where();
  pol.key = key;
  if (n.is_scalar()) {
    pol.type = n.scalar();
  } else if (n.is_map()) {
    if (!n.find("type")) fail(n, key, "policy has no 'type'");
    for (const auto& p : n.entries) {
      if (p.key == "type")
        pol.type = scalar(p.value, key + ".type");
      else
        pol.values[p.key] = to_value(p.value, key + "." + p.key);
    }
  } else {
    fail(n, key, "expected a policy name or a mapping with 'type'");
  }
  return pol;
}

// `policy:` one policy for every block, or one per block type:
// `{l1_cache: snooze_block, l2_cache: {type: snooze, granularity: bank}, default: always_on}`.
// A mapping with a `type` is the default policy with its parameters, and may name policies
// for block types beside them (`{type: idle_timeout, after: 500cycles, l1_cache: snooze}`):
// a key that is a block type is one; without a `type` every key is a block type or
// `default`. (`--set power.policy.<block type>=...` edits the parsed policy: platform.cpp.)
pm::policy_spec parse_power_policy(const ynode& n) {
  if (!n.is_map()) return parse_one_policy(n, "power.policy");
  const bool typed = n.find("type") != nullptr;
  auto is_block_type = [&](const std::string& k) {
    return !typed || block_factory::builtin().find(k) != nullptr;
  };
  pm::policy_spec pol;
  pol.where = n.where();
  pol.key = "power.policy";
  std::vector<const ynode::entry*> params;
  for (const auto& e : n.entries) {
    const std::string key = "power.policy." + e.key;
    if (e.key == "type" || !is_block_type(e.key)) {
      params.push_back(&e);
    } else if (e.key == "default") {  // (only without `type`: else it is a parameter)
      auto by_type = std::move(pol.by_type);
      pol = parse_one_policy(e.value, key);
      pol.by_type = std::move(by_type);
    } else {
      pm::policy_spec one = parse_one_policy(e.value, key);
      one.where = e.where();
      pol.by_type.emplace_back(e.key, std::move(one));
    }
  }
  for (const ynode::entry* e : params) {
    if (e->key == "type")
      pol.type = scalar(e->value, "power.policy.type");
    else
      pol.values[e->key] = to_value(e->value, "power.policy." + e->key);
  }
  return pol;
}

// `power:` (docs/power.md): source, policy, components.<block type>.<component>.
pm::power_spec parse_power(const ynode& n) {
  pm::power_spec ps;
  ps.present = true;
  if (!n.is_map()) fail(n, "power", "expected a mapping with source, policy, components");
  for (const auto& e : n.entries) {
    const std::string& key = e.key;
    const ynode& value = e.value;
    if (key == "source") {
      ps.source = scalar(value, "power.source");
    } else if (key == "policy") {
      ps.policy = parse_power_policy(value);
    } else if (key == "components") {
      if (!value.is_map()) fail(value, "power.components", "expected block types");
      for (const auto& t : value.entries) {
        const ynode& comps = t.value;
        if (!comps.is_map())
          fail(comps, "power.components." + t.key, "expected the type's power components");
        for (const auto& c : comps.entries)
          ps.components.push_back(parse_power_component(t.key, c));
      }
    } else {
      fail(e, "power." + key, unknown_key_message(key, {"source", "policy", "components"}));
    }
  }
  return ps;
}

}  // namespace

platform_spec load_platform_yaml(const std::string& file, const std::vector<std::string>& with) {
  std::vector<std::string> chain;
  ynode root = load_yaml_with_bases(file, &chain);
  for (const std::string& m : with) {
    const ynode mech = load_yaml_file(m, "mechanism file");
    if (!mech.is_map()) throw input_error({m, 1, 1}, "", "a mechanism file must be a YAML mapping");
    if (const ynode::entry* b = mech.find("base"))
      throw input_error(b->where(), "base",
                        "a mechanism file adds to the platform it is given with: it has no base");
    for (const auto& e : mech.entries)
      if (e.key != "gpu" && e.key != "vars" && e.key != "power" && e.key != "waveforms" &&
          e.key != "overrides")
        fail(e, e.key,
             unknown_key_message(e.key, {"gpu", "vars", "power", "waveforms", "overrides"}) +
                 " (a mechanism file holds blocks, bindings, vars, overrides, power entries)");
    merge_yaml(root, mech);
    chain.push_back(m);
  }
  platform_spec p;
  p.file = file;
  p.files = chain;
  if (!root.is_map()) throw input_error({file, 1, 1}, "", "a platform file must be a YAML mapping");

  for (const auto& e : root.entries)
    if (std::find(k_top_keys.begin(), k_top_keys.end(), e.key) == k_top_keys.end())
      fail(e, e.key, unknown_key_message(e.key, k_top_keys));

  if (const ynode::entry* pe = root.find("platform")) {
    const ynode& n = pe->value;
    if (!n.is_map()) fail(n, "platform", "expected a mapping with name and description");
    for (const auto& e : n.entries) {
      if (e.key == "name")
        p.name = scalar(e.value, "platform.name");
      else if (e.key == "description")
        p.description = scalar(e.value, "platform.description");
      else
        fail(e, "platform." + e.key, unknown_key_message(e.key, {"name", "description"}));
    }
  }

  if (const ynode::entry* ve = root.find("vars")) {
    const ynode& n = ve->value;
    if (!n.is_map()) fail(n, "vars", "expected a mapping of names to integers, e.g. {p: 4}");
    for (const auto& e : n.entries) {
      const std::string key = "vars." + e.key;
      const bool name_ok = !e.key.empty() && !std::isdigit(static_cast<unsigned char>(e.key[0])) &&
                           std::all_of(e.key.begin(), e.key.end(), [](char ch) {
                             return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                           });
      if (!name_ok)
        fail(e, key, "a variable's name is letters, digits and '_', not starting with a digit");
      if (e.key == "i") fail(e, key, "'i' is the index of a binding's [*]: choose another name");
      p.vars.push_back({e.key, entry_value(e, key)});
    }
  }

  const ynode::entry* ce = root.find("clocks");
  if (!ce) throw input_error({file, 1, 1}, "clocks", "no clock domains declared");
  const ynode& clocks = ce->value;
  if (!clocks.is_map()) fail(clocks, "clocks", "expected a mapping of clock domains");
  for (const auto& d : clocks.entries) {
    clock_spec c;
    c.name = d.key;
    c.where = d.where();
    const std::string path = "clocks." + c.name;
    if (!d.value.is_map()) fail(d.value, path, "expected a mapping with frequency");
    for (const auto& kv : d.value.entries) {
      config_value v = entry_value(kv, path + "." + kv.key);
      if (kv.key == "frequency")
        c.frequency = v;
      else if (kv.key == "voltage")
        c.voltage = v;
      else if (kv.key == "count")
        c.count = v;
      else if (kv.key == "pstates")
        c.pstates = v;
      else
        fail(kv, path + "." + kv.key,
             unknown_key_message(kv.key, {"frequency", "voltage", "count", "pstates"}));
    }
    if (c.frequency.text.empty()) fail(d, path, "clock domain has no frequency");
    p.clocks.push_back(std::move(c));
  }

  const ynode::entry* gpu = root.find("gpu");
  if (!gpu) throw input_error({file, 1, 1}, "gpu", "no 'gpu' block");
  p.top = parse_block(*gpu, "gpu");

  if (const ynode::entry* we = root.find("waveforms")) {
    const ynode& wf = we->value;
    if (!wf.is_map()) fail(wf, "waveforms", "expected a mapping with 'signals'");
    for (const auto& e : wf.entries) {
      if (e.key != "signals")
        fail(e, "waveforms." + e.key, unknown_key_message(e.key, {"signals"}));
      config_value v = to_value(e.value, "waveforms.signals");
      if (!v.is_sequence) fail(e.value, "waveforms.signals", "expected a list of globs");
      p.waveform_signals = v.items;
    }
  }

  if (const ynode::entry* pw = root.find("power")) p.power = parse_power(pw->value);

  if (const ynode::entry* oe = root.find("overrides")) {
    const ynode& o = oe->value;
    if (!o.is_map()) fail(o, "overrides", "expected a mapping 'path.key: value'");
    for (const auto& e : o.entries) {
      override_spec s;
      s.key = e.key;
      s.value = entry_value(e, "overrides." + s.key);
      p.overrides.push_back(std::move(s));
    }
  }
  return p;
}

override_spec parse_set_option(const std::string& text) {
  const source_location where{"--set " + text, 0, 0};
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw input_error(where, "", "expected key=value, e.g. smx.l1.size=32KiB");
  override_spec s;
  s.key = text.substr(0, eq);
  std::string value = text.substr(eq + 1);
  YAML::Node n;
  try {
    n = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw input_error(where, s.key, "malformed value: " + e.msg);
  }
  if (n.IsSequence()) {
    s.value.is_sequence = true;
    for (const auto& item : n) {
      if (!item.IsScalar()) throw input_error(where, s.key, "list items must be plain values");
      s.value.items.push_back(item.Scalar());
    }
  } else if (n.IsScalar()) {
    s.value.text = n.Scalar();
  } else {
    throw input_error(where, s.key, "has no value");
  }
  s.value.where = where;
  return s;
}

}  // namespace gputlm::platforms
