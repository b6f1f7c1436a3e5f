// YAML -> platform_spec. The schema is documented in docs/platforms.md.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "models/common/input_error.h"
#include "models/common/units.h"
#include "platforms/platform_spec.h"

namespace gputlm::platforms {
namespace {

const std::vector<std::string> k_top_keys{"platform", "clocks",    "gpu",
                                          "overrides", "waveforms", "power"};
const std::vector<std::string> k_reserved_block_keys{"type", "count", "clock", "bind"};

source_location at(const std::string& file, const YAML::Mark& m) {
  if (m.is_null()) return {file, 0, 0};
  return {file, std::uint64_t(m.line) + 1, std::uint64_t(m.column) + 1};
}

[[noreturn]] void fail(const std::string& file, const YAML::Node& n, const std::string& key,
                       const std::string& msg) {
  throw input_error(at(file, n.Mark()), key, msg);
}

std::string unknown_key_message(const std::string& key, const std::vector<std::string>& valid) {
  std::string msg = "unknown key '" + key + "'";
  std::string best = closest_match(key, valid);
  if (!best.empty()) msg += "; did you mean '" + best + "'?";
  return msg;
}

config_value to_value(const std::string& file, const YAML::Node& n, const std::string& key) {
  config_value v;
  v.where = at(file, n.Mark());
  if (n.IsScalar()) {
    v.text = n.Scalar();
  } else if (n.IsSequence()) {
    v.is_sequence = true;
    for (const auto& item : n) {
      if (!item.IsScalar()) fail(file, item, key, "list items must be plain values");
      v.items.push_back(item.Scalar());
    }
  } else if (n.IsNull()) {
    fail(file, n, key, "has no value");
  } else {
    fail(file, n, key, "expected a value, got a mapping");
  }
  return v;
}

std::string scalar(const std::string& file, const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) fail(file, n, key, "expected a plain value");
  return n.Scalar();
}

block_spec parse_block(const std::string& file, const std::string& name, const YAML::Node& key_node,
                       const YAML::Node& n, const std::string& spec_path) {
  block_spec b;
  b.name = name;
  b.where = at(file, key_node.Mark());
  b.spec_path = spec_path;
  if (!n.IsMap()) fail(file, n, spec_path, "a block must be a mapping with a 'type'");
  if (!n["type"]) fail(file, key_node, spec_path, "block has no 'type'");
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.Scalar();
    const YAML::Node value = it->second;  // it-> yields a temporary: keep a copy (ASan)
    const std::string key_path = spec_path + "." + key;
    if (key == "type") {
      b.type = scalar(file, value, key_path);
      b.type_where = at(file, value.Mark());
    } else if (key == "count") {
      auto c = units::parse_uint(scalar(file, value, key_path));
      if (!c) fail(file, value, key_path, "expected a positive integer, got '" + value.Scalar() + "'");
      if (*c == 0) fail(file, value, key_path, "count must be at least 1");
      if (*c > max_block_count)
        fail(file, value, key_path, "count must be at most " + std::to_string(max_block_count));
      b.count = *c;
      b.count_where = at(file, value.Mark());
    } else if (key == "bind") {
      if (!value.IsSequence()) fail(file, value, key_path, "expected a list of 'a -> b' bindings");
      std::size_t i = 0;
      for (const auto& item : value) {
        std::string k = key_path + "[" + std::to_string(i++) + "]";
        b.bindings.push_back({scalar(file, item, k), at(file, item.Mark()), k});
      }
    } else if (value.IsMap()) {
      if (std::find(k_reserved_block_keys.begin(), k_reserved_block_keys.end(), key) !=
          k_reserved_block_keys.end())
        fail(file, it->first, key_path, "'" + key + "' is reserved");
      b.children.push_back(parse_block(file, key, it->first, value, key_path));
    } else {
      config_value v = to_value(file, value, key_path);
      v.where = at(file, it->first.Mark());
      b.values[key] = std::move(v);
    }
  }
  return b;
}

double power_value(const std::string& file, const YAML::Node& n, const std::string& key) {
  auto v = units::parse_power(scalar(file, n, key));
  if (!v || *v < 0) fail(file, n, key, "expected a power, e.g. 12mW");
  return *v;
}

std::uint64_t cycles_value(const std::string& file, const YAML::Node& n, const std::string& key) {
  auto v = units::parse_cycles(scalar(file, n, key));
  if (!v) fail(file, n, key, "expected cycles, e.g. 2cycles");
  return *v;
}

// One power state: `on: 1.2W` or `sleep: {static: 0.3W, wake: 2cycles, break_even: 10cycles}`.
pm::state_spec parse_power_state(const std::string& file, const YAML::Node& key_node,
                                 const YAML::Node& n, const std::string& path) {
  pm::state_spec st;
  st.name = key_node.Scalar();
  st.where = at(file, key_node.Mark());
  if (n.IsScalar()) {
    st.static_watts = power_value(file, n, path);
  } else if (n.IsMap()) {
    if (!n["static"]) fail(file, n, path, "state has no 'static' power");
    for (auto a = n.begin(); a != n.end(); ++a) {
      const std::string k = a->first.Scalar();
      const YAML::Node v = a->second;
      if (k == "static") st.static_watts = power_value(file, v, path + ".static");
      else if (k == "wake") st.wake_cycles = cycles_value(file, v, path + ".wake");
      else if (k == "break_even") st.break_even_cycles = cycles_value(file, v, path + ".break_even");
      else fail(file, a->first, path + "." + k, unknown_key_message(k, {"static", "wake", "break_even"}));
    }
  } else {
    fail(file, n, path, "expected a power or {static, wake, break_even}");
  }
  return st;
}

// One table entry, `components.<type>.<component>`: granularity, states, events.
pm::component_spec parse_power_component(const std::string& file, const std::string& type,
                                         const YAML::Node& key_node, const YAML::Node& body) {
  pm::component_spec cs;
  cs.block_type = type;
  cs.component = key_node.Scalar();
  cs.where = at(file, key_node.Mark());
  const std::string path = "power.components." + cs.key();
  if (!body.IsMap()) fail(file, body, path, "expected states and events");
  for (auto f = body.begin(); f != body.end(); ++f) {
    const std::string fk = f->first.Scalar();
    const YAML::Node fv = f->second;
    const std::string fpath = path + "." + fk;
    if (fk == "granularity") {
      auto b = units::parse_bytes(scalar(file, fv, fpath));
      if (!b || *b == 0) fail(file, fv, fpath, "expected a size, e.g. 32B");
      cs.granularity_bytes = *b;
      cs.granularity_where = at(file, f->first.Mark());
    } else if (fk == "states") {
      if (!fv.IsMap() || fv.size() == 0)
        fail(file, fv, fpath, "expected states, the first being ON: {on: 1.2W, ...}");
      for (auto st = fv.begin(); st != fv.end(); ++st) {
        const std::string spath = fpath + "." + st->first.Scalar();
        pm::state_spec state = parse_power_state(file, st->first, st->second, spath);
        for (const auto& o : cs.states)
          if (o.name == state.name) fail(file, st->first, spath, "state listed twice");
        cs.states.push_back(std::move(state));
      }
      if (cs.states.size() > 255) fail(file, fv, fpath, "at most 255 states");
    } else if (fk == "events") {
      if (!fv.IsMap()) fail(file, fv, fpath, "expected {event: energy, ...}");
      for (auto e = fv.begin(); e != fv.end(); ++e) {
        pm::event_spec ev;
        ev.name = e->first.Scalar();
        ev.where = at(file, e->first.Mark());
        const std::string epath = fpath + "." + ev.name;
        auto j = units::parse_energy(scalar(file, e->second, epath));
        if (!j || *j < 0) fail(file, e->second, epath, "expected an energy, e.g. 20pJ");
        ev.joules = *j;
        cs.events.push_back(std::move(ev));
      }
    } else {
      fail(file, f->first, fpath, unknown_key_message(fk, {"states", "events", "granularity"}));
    }
  }
  if (cs.states.empty()) fail(file, key_node, path, "no 'states' (the first is ON)");
  return cs;
}

// `policy: always_on` or `policy: {type: idle_timeout, <parameter>: <value>...}`.
pm::policy_spec parse_power_policy(const std::string& file, const YAML::Node& n) {
  pm::policy_spec pol;
  pol.where = at(file, n.Mark());
  if (n.IsScalar()) {
    pol.type = n.Scalar();
  } else if (n.IsMap()) {
    if (!n["type"]) fail(file, n, "power.policy", "policy has no 'type'");
    for (auto p = n.begin(); p != n.end(); ++p) {
      const std::string k = p->first.Scalar();
      if (k == "type") pol.type = scalar(file, p->second, "power.policy.type");
      else pol.values[k] = to_value(file, p->second, "power.policy." + k);
    }
  } else {
    fail(file, n, "power.policy", "expected a policy name or a mapping with 'type'");
  }
  return pol;
}

// `power:` (docs/power.md): source, policy, components.<block type>.<component>.
pm::power_spec parse_power(const std::string& file, const YAML::Node& n) {
  pm::power_spec ps;
  ps.present = true;
  if (!n.IsMap()) fail(file, n, "power", "expected a mapping with source, policy, components");
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.Scalar();
    const YAML::Node value = it->second;
    if (key == "source") {
      ps.source = scalar(file, value, "power.source");
    } else if (key == "policy") {
      ps.policy = parse_power_policy(file, value);
    } else if (key == "components") {
      if (!value.IsMap()) fail(file, value, "power.components", "expected block types");
      for (auto t = value.begin(); t != value.end(); ++t) {
        const std::string type = t->first.Scalar();
        const YAML::Node comps = t->second;
        if (!comps.IsMap())
          fail(file, comps, "power.components." + type, "expected the type's power components");
        for (auto c = comps.begin(); c != comps.end(); ++c) {
          pm::component_spec cs = parse_power_component(file, type, c->first, c->second);
          for (const auto& o : ps.components)
            if (o.key() == cs.key()) fail(file, c->first, "power.components." + cs.key(), "listed twice");
          ps.components.push_back(std::move(cs));
        }
      }
    } else {
      fail(file, it->first, "power." + key,
           unknown_key_message(key, {"source", "policy", "components"}));
    }
  }
  return ps;
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    // Levenshtein distance, case-insensitive.
    std::vector<std::size_t> prev(c.size() + 1), cur(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= word.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j) {
        bool same = std::tolower(static_cast<unsigned char>(word[i - 1])) ==
                    std::tolower(static_cast<unsigned char>(c[j - 1]));
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      }
      std::swap(prev, cur);
    }
    if (prev[c.size()] < best_d) {
      best_d = prev[c.size()];
      best = c;
    }
  }
  std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  return best_d <= limit ? best : std::string();
}

platform_spec load_platform_yaml(const std::string& file) {
  YAML::Node root;
  {
    std::ifstream in(file);
    if (!in) throw input_error({file, 0, 0}, "", "cannot open platform file");
    try {
      root = YAML::Load(in);
    } catch (const YAML::Exception& e) {
      throw input_error(at(file, e.mark), "", "malformed YAML: " + e.msg);
    }
  }
  platform_spec p;
  p.file = file;
  if (!root.IsMap()) throw input_error({file, 1, 1}, "", "a platform file must be a YAML mapping");

  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (std::find(k_top_keys.begin(), k_top_keys.end(), key) == k_top_keys.end())
      fail(file, it->first, key, unknown_key_message(key, k_top_keys));
  }

  if (YAML::Node n = root["platform"]) {
    if (!n.IsMap()) fail(file, n, "platform", "expected a mapping with name and description");
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key == "name")
        p.name = scalar(file, it->second, "platform.name");
      else if (key == "description")
        p.description = scalar(file, it->second, "platform.description");
      else
        fail(file, it->first, "platform." + key, unknown_key_message(key, {"name", "description"}));
    }
  }

  YAML::Node clocks = root["clocks"];
  if (!clocks) throw input_error({file, 1, 1}, "clocks", "no clock domains declared");
  if (!clocks.IsMap()) fail(file, clocks, "clocks", "expected a mapping of clock domains");
  for (auto it = clocks.begin(); it != clocks.end(); ++it) {
    clock_spec c;
    c.name = it->first.Scalar();
    c.where = at(file, it->first.Mark());
    const std::string path = "clocks." + c.name;
    if (!it->second.IsMap()) fail(file, it->second, path, "expected a mapping with frequency");
    for (auto kv = it->second.begin(); kv != it->second.end(); ++kv) {
      const std::string key = kv->first.Scalar();
      config_value v = to_value(file, kv->second, path + "." + key);
      v.where = at(file, kv->first.Mark());
      if (key == "frequency")
        c.frequency = v;
      else if (key == "voltage")
        c.voltage = v;
      else
        fail(file, kv->first, path + "." + key,
             unknown_key_message(key, {"frequency", "voltage"}));
    }
    if (c.frequency.text.empty()) fail(file, it->first, path, "clock domain has no frequency");
    p.clocks.push_back(std::move(c));
  }

  YAML::Node gpu = root["gpu"];
  if (!gpu) throw input_error({file, 1, 1}, "gpu", "no 'gpu' block");
  YAML::Node gpu_key;
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.Scalar() == "gpu") gpu_key = it->first;
  p.top = parse_block(file, "gpu", gpu_key, gpu, "gpu");

  if (YAML::Node wf = root["waveforms"]) {
    if (!wf.IsMap()) fail(file, wf, "waveforms", "expected a mapping with 'signals'");
    for (auto it = wf.begin(); it != wf.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key != "signals")
        fail(file, it->first, "waveforms." + key, unknown_key_message(key, {"signals"}));
      config_value v = to_value(file, it->second, "waveforms.signals");
      if (!v.is_sequence) fail(file, it->second, "waveforms.signals", "expected a list of globs");
      p.waveform_signals = v.items;
    }
  }

  if (YAML::Node pw = root["power"]) p.power = parse_power(file, pw);

  if (YAML::Node o = root["overrides"]) {
    if (!o.IsMap()) fail(file, o, "overrides", "expected a mapping 'path.key: value'");
    for (auto it = o.begin(); it != o.end(); ++it) {
      override_spec s;
      s.key = it->first.Scalar();
      s.value = to_value(file, it->second, "overrides." + s.key);
      s.value.where = at(file, it->first.Mark());
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
