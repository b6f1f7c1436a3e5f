#include "platforms/platform.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <regex>
#include <set>
#include <stdexcept>

#include "models/base/closest_match.h"
#include "models/base/index_expr.h"
#include "models/base/units.h"
#include "models/common/block_factory.h"

namespace gputlm::platforms {
namespace {

const std::vector<std::string> k_reserved{"type", "count", "clock", "bind"};

// "smx[3]" -> {"smx", "3"}; "smx" -> {"smx", ""}.
struct segment {
  std::string name;
  std::string index;  // "" when none
  bool has_index = false;
};

segment parse_segment(const std::string& s) {
  segment seg;
  auto open = s.find('[');
  if (open == std::string::npos) {
    seg.name = s;
    return seg;
  }
  seg.name = s.substr(0, open);
  seg.has_index = true;
  if (s.back() != ']') return segment{s, "", false};  // reported by the caller as unknown
  seg.index = s.substr(open + 1, s.size() - open - 2);
  return seg;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '.' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string indexed(const std::string& name, std::uint64_t i) {
  return name + "[" + std::to_string(i) + "]";
}

// Nested arrays multiply: a block's instances (its count times its ancestors' counts) stay
// within max_block_count, checked before anything is built.
void check_counts(const block_spec& spec, std::uint64_t enclosing) {
  const std::uint64_t n = enclosing * spec.count.value_or(1);  // each factor <= 1024
  if (n > max_block_count)
    throw input_error(spec.count_where, spec.spec_path + ".count",
                      "gives " + std::to_string(n) +
                          " instances with the enclosing blocks' counts; at most " +
                          std::to_string(max_block_count));
  for (const auto& child : spec.children) check_counts(child, n);
}

// gpu.smx[3].l1 -> gpu.smx[0].l1
std::string representative(const std::string& path) {
  static const std::regex idx("\\[[0-9]+\\]");
  return std::regex_replace(path, idx, "[0]");
}

}  // namespace

platform::~platform() {
  // Children before parents.
  while (!m_components.empty()) m_components.pop_back();
}

std::unique_ptr<platform> platform::load(const std::string& file,
                                         const std::vector<std::string>& sets,
                                         const std::vector<std::string>& with) {
  clock_domain::init_time_resolution();
  std::unique_ptr<platform> p(new platform());
  p->m_spec = load_platform_yaml(file, with);
  for (const auto& s : sets) p->m_spec.overrides.push_back(parse_set_option(s));
  p->apply_spec_overrides();
  p->resolve_vars();
  p->resolve_counts(p->m_spec.top);
  check_counts(p->m_spec.top, 1);
  p->derive_arrays(p->m_spec.top, "");
  p->make_clocks();
  if (p->m_spec.power.present) p->m_power = std::make_unique<pm::power_model>(p->m_spec.power);

  std::vector<std::pair<std::vector<std::string>, override_spec*>> pending;
  for (auto& o : p->m_spec.overrides) {
    if (o.applied) continue;
    auto segs = split_path(o.key);
    if (segs.front() != "gpu") segs.insert(segs.begin(), "gpu");
    pending.emplace_back(segs, &o);
  }
  p->instantiate(p->m_spec.top, "", nullptr, pending);
  for (const auto& o : p->m_spec.overrides)
    if (!o.applied)
      throw input_error(o.value.where, o.key, "matches no block instance of this platform");
  p->check_unused_and_validate();
  if (p->m_power) p->m_power->check_table();
  for (component* c : p->m_order) p->bind_all(*p->m_spec_of.at(c->name()), c->name());
  for (const auto& [path, s] : p->m_sockets)
    if (!s.bound)
      throw input_error(s.owner->config().where(), path,
                        std::string(s.ref.initiator ? "initiator" : "target") +
                            " socket is never bound (add it to a 'bind:' list)");
  for (const auto& [path, s] : p->m_ports)
    if (!s.bound && !s.ref->optional)
      throw input_error(
          s.owner->config().where(), path,
          "port (" + s.ref->iface_name + ") is never bound (add it to a 'bind:' list)");
  for (component* c : p->m_order) c->validate_bound();
  for (component* c : p->m_order)
    if (const std::string why = c->unattached(); !why.empty())
      throw input_error(c->config().where(), c->name(), why);
  return p;
}

void platform::apply_spec_overrides() {
  for (auto& o : m_spec.overrides) {
    auto segs = split_path(o.key);
    if (segs.front() == "clocks") {
      if (segs.size() != 3)
        throw input_error(o.value.where, o.key,
                          "expected clocks.<domain>.frequency|voltage|pstates");
      auto it = std::find_if(m_spec.clocks.begin(), m_spec.clocks.end(),
                             [&](const clock_spec& c) { return c.name == segs[1]; });
      if (it == m_spec.clocks.end()) {
        std::vector<std::string> names;
        for (const auto& c : m_spec.clocks) names.push_back(c.name);
        std::string best = closest_match(segs[1], names);
        throw input_error(o.value.where, o.key,
                          "no clock domain '" + segs[1] + "'" +
                              (best.empty() ? "" : "; did you mean '" + best + "'?"));
      }
      if (segs[2] == "frequency")
        it->frequency = o.value;
      else if (segs[2] == "voltage")
        it->voltage = o.value;
      else if (segs[2] == "pstates")
        it->pstates = o.value;
      else
        throw input_error(o.value.where, o.key,
                          "a clock domain has frequency, voltage and pstates only");
      o.applied = true;
      continue;
    }
    if (segs.front() == "vars") {
      if (segs.size() != 2)
        throw input_error(o.value.where, o.key, "expected vars.<name>=<integer or expression>");
      auto it = std::find_if(m_spec.vars.begin(), m_spec.vars.end(),
                             [&](const var_spec& v) { return v.name == segs[1]; });
      if (it == m_spec.vars.end()) {
        std::vector<std::string> names;
        for (const auto& v : m_spec.vars) names.push_back(v.name);
        std::string best = closest_match(segs[1], names);
        throw input_error(o.value.where, o.key,
                          "the platform has no variable '" + segs[1] + "'" +
                              (best.empty() ? "" : "; did you mean '" + best + "'?"));
      }
      it->value = o.value;
      o.applied = true;
      continue;
    }
    if (segs.front() == "power") {
      // The gating policy: power.policy[.<parameter>], or a block type's:
      // power.policy.<block type>[.<parameter>].
      const bool typed = segs.size() >= 3 && block_factory::builtin().find(segs[2]) != nullptr;
      if (segs.size() < 2 || segs[1] != "policy" || segs.size() > (typed ? 4u : 3u))
        throw input_error(o.value.where, o.key,
                          "only gating policies can be set: power.policy=<type>, "
                          "power.policy.<parameter>=<value>, power.policy.<block type>=<type> or "
                          "power.policy.<block type>.<parameter>=<value>");
      if (!m_spec.power.present)
        throw input_error(o.value.where, o.key, "the platform has no 'power:' table");
      pm::policy_spec* pol = &m_spec.power.policy;
      std::size_t named = 2;  // segments naming the policy
      if (typed) {
        auto& by = pol->by_type;
        auto it =
            std::find_if(by.begin(), by.end(), [&](const auto& t) { return t.first == segs[2]; });
        if (it == by.end()) {
          pm::policy_spec fresh;
          fresh.key = "power.policy." + segs[2];
          fresh.where = o.value.where;
          by.emplace_back(segs[2], fresh);
          it = by.end() - 1;
        }
        pol = &it->second;
        named = 3;
      }
      if (segs.size() == named) {
        if (o.value.is_sequence) throw input_error(o.value.where, o.key, "expected a policy name");
        if (pol->type != o.value.text) pol->values.clear();  // another policy: its own parameters
        pol->type = o.value.text;
        pol->where = o.value.where;
        pol->key = o.key;
      } else {
        pol->values[segs[named]] = o.value;
      }
      o.applied = true;
      continue;
    }
    const std::string& last = segs.back();
    if (last != "count" && last != "type") continue;
    if (segs.front() == "gpu") segs.erase(segs.begin());
    block_spec* b = &m_spec.top;
    for (std::size_t k = 0; k + 1 < segs.size(); ++k) {
      segment seg = parse_segment(segs[k]);
      if (seg.has_index)
        throw input_error(o.value.where, o.key,
                          "'" + last + "' applies to every instance: write it without an index");
      auto it = std::find_if(b->children.begin(), b->children.end(),
                             [&](const block_spec& c) { return c.name == seg.name; });
      if (it == b->children.end())
        throw input_error(o.value.where, o.key, "no block '" + seg.name + "' in " + b->spec_path);
      b = &*it;
    }
    if (o.value.is_sequence) throw input_error(o.value.where, o.key, "expected a plain value");
    if (last == "type") {
      b->type = o.value.text;
      b->type_where = o.value.where;
    } else {
      const std::string& t = o.value.text;
      b->count_where = o.value.where;
      if (!t.empty() && std::all_of(t.begin(), t.end(), [](char ch) {
            return std::isdigit(static_cast<unsigned char>(ch));
          })) {
        auto c = units::parse_uint(t);
        if (!c || *c == 0)
          throw input_error(o.value.where, o.key, "count must be a positive integer");
        if (*c > max_block_count)
          throw input_error(o.value.where, o.key,
                            "count must be at most " + std::to_string(max_block_count));
        b->count = *c;
        b->count_text.clear();
      } else {
        b->count_text = t;  // an expression of vars: resolved with the others (resolve_counts)
      }
    }
    o.applied = true;
  }
}

// A variable written as an expression (digits, names, + - * / % and parentheses) is an
// integer and may use the other integer variables, in any order; anything else (an
// address map) is text, usable as `${name}` in parameter values.
void platform::resolve_vars() {
  std::vector<const var_spec*> pending;
  for (const var_spec& v : m_spec.vars) {
    if (v.value.is_sequence)
      throw input_error(v.value.where, "vars." + v.name,
                        "expected an integer, an expression or a text, not a list");
    const bool expression =
        !v.value.text.empty() && std::all_of(v.value.text.begin(), v.value.text.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ' ' ||
                 std::strchr("+-*/%()", c) != nullptr;
        });
    if (expression)
      pending.push_back(&v);
    else
      m_text_vars[v.name] = v.value.text;
  }
  // Each pass resolves the variables whose names are all known; none resolving is an error.
  while (!pending.empty()) {
    std::vector<const var_spec*> left;
    for (const var_spec* v : pending) {
      std::int64_t value = 0;
      index_expr ex(v->value.text, m_vars);
      if (ex.eval(value))
        m_vars[v->name] = value;
      else
        left.push_back(v);
    }
    if (left.size() == pending.size()) {
      const var_spec& v = *left.front();
      std::int64_t value = 0;
      index_expr ex(v.value.text, m_vars);
      ex.eval(value);
      // The name it misses is itself waiting: a cycle.
      bool cycle = false;
      for (const var_spec* o : left)
        cycle = cycle || ex.why() == "'" + o->name + "' is not one of the platform's vars";
      throw input_error(v.value.where, "vars." + v.name,
                        "bad expression '" + v.value.text + "': " +
                            (cycle ? "its variables refer to one another in a cycle" : ex.why()));
    }
    pending = std::move(left);
  }
}

void platform::resolve_counts(block_spec& spec) {
  if (!spec.count_text.empty()) {
    const std::string key = spec.spec_path + ".count";
    std::int64_t n = 0;
    index_expr ex(spec.count_text, m_vars);
    if (!ex.eval(n))
      throw input_error(spec.count_where, key,
                        "expected a positive integer or an expression of vars, got '" +
                            spec.count_text + "': " + ex.why());
    if (n < 1)
      throw input_error(
          spec.count_where, key,
          "count must be at least 1 ('" + spec.count_text + "' is " + std::to_string(n) + ")");
    if (std::uint64_t(n) > max_block_count)
      throw input_error(spec.count_where, key,
                        "count must be at most " + std::to_string(max_block_count) + " ('" +
                            spec.count_text + "' is " + std::to_string(n) + ")");
    spec.count = static_cast<std::uint64_t>(n);
  }
  for (auto& child : spec.children) resolve_counts(child);
}

void platform::make_clocks() {
  for (const auto& c : m_spec.clocks) {
    auto hz = units::parse_frequency(c.frequency.text);
    if (c.frequency.is_sequence || !hz)
      throw input_error(c.frequency.where, "clocks." + c.name + ".frequency",
                        "expected a frequency like 700MHz, got '" + c.frequency.text + "'");
    // A physical clock of a GPU block: 1 MHz (the slowest DVFS states) to 10 GHz.
    if (*hz < 1e6 || *hz > 1e10)
      throw input_error(c.frequency.where, "clocks." + c.name + ".frequency",
                        "'" + c.frequency.text + "' is outside 1MHz..10GHz");
    double volts = 1.0;
    if (!c.voltage.text.empty() || c.voltage.is_sequence) {
      auto v = units::parse_voltage(c.voltage.text);
      if (c.voltage.is_sequence || !v || *v <= 0)
        throw input_error(c.voltage.where, "clocks." + c.name + ".voltage",
                          "expected a voltage like 1V, got '" + c.voltage.text + "'");
      if (*v > 5)
        throw input_error(c.voltage.where, "clocks." + c.name + ".voltage",
                          "'" + c.voltage.text + "' is above 5V");
      volts = *v;
    }
    const std::vector<pstate> states = parse_pstates(c);
    if (c.count.text.empty() && !c.count.is_sequence) {
      m_clocks.push_back(std::make_unique<clock_domain>(c.name, *hz, volts));
      m_clocks.back()->set_pstates(states);
      check_own_pstate(c, *m_clocks.back());
      continue;
    }
    // One domain per instance.
    std::int64_t n = 0;
    index_expr ex(c.count.text, m_vars);
    if (c.count.is_sequence || !ex.eval(n))
      throw input_error(c.count.where, "clocks." + c.name + ".count",
                        "expected a count or an expression of vars, got '" + c.count.text + "'" +
                            (ex.why().empty() ? "" : ": " + ex.why()));
    if (n < 1 || std::uint64_t(n) > max_block_count)
      throw input_error(c.count.where, "clocks." + c.name + ".count",
                        "must be 1 to " + std::to_string(max_block_count) + " ('" + c.count.text +
                            "' is " + std::to_string(n) + ")");
    m_clock_counts[c.name] = static_cast<std::uint64_t>(n);
    for (std::int64_t k = 0; k < n; ++k) {
      m_clocks.push_back(
          std::make_unique<clock_domain>(indexed(c.name, std::uint64_t(k)), *hz, volts));
      m_clocks.back()->set_pstates(states);
      check_own_pstate(c, *m_clocks.back());
    }
  }
}

// `pstates: [706MHz@1V, 100MHz@0.55V]`: frequency@voltage, highest frequency first, the
// voltage never rising as the frequency falls (check_own_pstate: the domain's own point one
// of them).
std::vector<pstate> platform::parse_pstates(const clock_spec& c) {
  std::vector<pstate> states;
  if (c.pstates.text.empty() && !c.pstates.is_sequence) return states;
  const std::string key = "clocks." + c.name + ".pstates";
  const source_location& at = c.pstates.where;
  if (!c.pstates.is_sequence || c.pstates.items.empty())
    throw input_error(at, key, "expected a list like [706MHz@1V, 100MHz@0.55V]");
  if (c.pstates.items.size() > 16) throw input_error(at, key, "at most 16 P-states");
  for (const std::string& item : c.pstates.items) {
    const std::size_t a = item.find('@');
    const auto f = units::parse_frequency(item.substr(0, a));
    const auto v = a == std::string::npos ? std::nullopt : units::parse_voltage(item.substr(a + 1));
    if (!f || !v)
      throw input_error(at, key,
                        "expected frequency@voltage like 100MHz@0.55V, got '" + item + "'");
    if (*f < 1e6 || *f > 1e10)
      throw input_error(at, key, "'" + item + "': frequency outside 1MHz..10GHz");
    if (*v <= 0 || *v > 5) throw input_error(at, key, "'" + item + "': voltage outside 0..5V");
    if (!states.empty() && (*f >= states.back().hz || *v > states.back().volts))
      throw input_error(
          at, key,
          "'" + item + "' after '" + c.pstates.items[states.size() - 1] +
              "': list them from the highest frequency down, the voltage never rising");
    states.push_back({*f, *v});
  }
  return states;
}

// The domain (just made) is at one of the P-states it lists.
void platform::check_own_pstate(const clock_spec& c, const clock_domain& d) {
  if (d.pstates().empty() || d.own_pstate() < d.pstates().size()) return;
  throw input_error(c.pstates.where, "clocks." + c.name + ".pstates",
                    "the domain's own point (" + c.frequency.text + ", " +
                        (c.voltage.text.empty() ? std::string("1V") : c.voltage.text) +
                        ") is not one of its P-states");
}

clock_domain* platform::clock(const std::string& name) const {
  for (const auto& c : m_clocks)
    if (c->name() == name) return c.get();
  return nullptr;
}

component* platform::find(const std::string& path) const {
  auto it = m_by_path.find(path);
  return it == m_by_path.end() ? nullptr : it->second;
}

void platform::instantiate(
    const block_spec& spec, const std::string& parent_path, clock_domain* parent_clock,
    const std::vector<std::pair<std::vector<std::string>, override_spec*>>& pending) {
  const block_factory::entry* type = block_factory::builtin().find(spec.type);
  if (!type) {
    std::string best = closest_match(spec.type, block_factory::builtin().types());
    throw input_error(spec.type_where, spec.spec_path + ".type",
                      "unknown block type '" + spec.type + "'" +
                          (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  const std::uint64_t n = spec.count.value_or(1);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string inst = spec.count ? indexed(spec.name, i) : spec.name;
    const std::string path = parent_path.empty() ? inst : parent_path + "." + inst;

    auto cfg = std::make_unique<block_config>(path, spec.type, spec.where);
    for (const auto& [k, v] : spec.values) cfg->set(k, v);

    // Overrides addressed to this instance or below it.
    std::vector<std::pair<std::vector<std::string>, override_spec*>> below;
    std::set<std::string> overridden;  // keys an override set
    for (const auto& [segs, o] : pending) {
      segment seg = parse_segment(segs.front());
      if (seg.name != spec.name) continue;
      if (seg.has_index) {
        auto idx = units::parse_uint(seg.index);
        if (!spec.count || !idx)
          throw input_error(o->value.where, o->key,
                            "'" + segs.front() + "': " + spec.spec_path +
                                (spec.count ? " needs a numeric index" : " is not replicated"));
        if (*idx != i) continue;
      }
      std::vector<std::string> rest(segs.begin() + 1, segs.end());
      if (rest.empty())
        throw input_error(o->value.where, o->key, "names a block, not one of its parameters");
      if (rest.size() == 2 && type->has_group(rest.front())) {  // a parameter group's key
        rest = {rest[0] + "." + rest[1]};
      }
      if (rest.size() == 1) {
        config_value v = o->value;
        v.used = false;
        std::string key = rest.front();
        if (type->has_group(key)) key += ".type";  // a strategy group's type alone
        const auto dot = key.find('.');
        if (dot != std::string::npos && key.compare(dot, std::string::npos, ".type") == 0) {
          // Another type than the YAML's: the YAML's parameters of the group were for that
          // one and go (what an override set stays).
          const std::string group = key.substr(0, dot + 1);
          const config_value* was = cfg->values().count(key) ? &cfg->values().at(key) : nullptr;
          if (was && was->text != v.text) {
            std::vector<std::string> drop;
            for (const auto& [k2, v2] : cfg->values())
              if (k2.compare(0, group.size(), group) == 0 && k2 != key && !overridden.count(k2))
                drop.push_back(k2);
            for (const auto& k2 : drop) cfg->erase(k2);
          }
        }
        cfg->set(key, v);
        overridden.insert(key);
        o->applied = true;
      } else {
        below.emplace_back(rest, o);
      }
    }
    for (const auto& [segs, o] : below) {
      std::string child = parse_segment(segs.front()).name;
      bool found = std::any_of(spec.children.begin(), spec.children.end(),
                               [&](const block_spec& c) { return c.name == child; });
      if (!found) {
        std::vector<std::string> names;
        for (const auto& c : spec.children) names.push_back(c.name);
        std::string best = closest_match(child, names);
        throw input_error(o->value.where, o->key,
                          "no block '" + child + "' in " + path +
                              (best.empty() ? "" : "; did you mean '" + best + "'?"));
      }
    }

    clock_domain* clk = parent_clock;
    if (config_value* c = cfg->take("clock")) {
      std::string name = c->text;
      // `core[i]`: a per-instance domain, by this block's instance index.
      const segment seg = parse_segment(name);
      if (seg.has_index && m_clock_counts.count(seg.name)) {
        std::int64_t k = 0;
        index_expr ex(seg.index, m_vars, static_cast<std::int64_t>(i));
        if (!ex.eval(k))
          throw input_error(c->where, path + ".clock",
                            "bad index expression '" + seg.index + "': " + ex.why());
        if (k < 0 || std::uint64_t(k) >= m_clock_counts.at(seg.name))
          throw input_error(c->where, path + ".clock",
                            "'" + c->text + "' is " + seg.name + "[" + std::to_string(k) +
                                "]; the domain has " + std::to_string(m_clock_counts.at(seg.name)) +
                                " instances");
        name = indexed(seg.name, static_cast<std::uint64_t>(k));
      } else if (!seg.has_index && m_clock_counts.count(name)) {
        throw input_error(c->where, path + ".clock",
                          "clock domain '" + name + "' has " +
                              std::to_string(m_clock_counts.at(name)) +
                              " instances: name one, e.g. " + name + "[i]");
      }
      clk = clock(name);
      if (!clk) {
        std::vector<std::string> names;
        for (const auto& d : m_clocks) names.push_back(d->name());
        std::string best = closest_match(c->text, names);
        throw input_error(c->where, path + ".clock",
                          "no clock domain '" + c->text + "'" +
                              (best.empty() ? "" : "; did you mean '" + best + "'?"));
      }
    }
    if (!clk) throw input_error(spec.where, path + ".clock", "the top block needs a 'clock'");

    // `${expr}` in a value: the platform's vars.
    for (const auto& [k, v] : cfg->values()) {
      bool has = v.text.find("${") != std::string::npos;
      for (const auto& item : v.items) has = has || item.find("${") != std::string::npos;
      if (!has) continue;
      config_value nv = v;
      try {
        nv.text = substitute_vars(v.text, m_vars, m_text_vars);
        for (auto& item : nv.items) item = substitute_vars(item, m_vars, m_text_vars);
      } catch (const std::invalid_argument& e) {
        throw input_error(v.where, path + "." + k, e.what());
      }
      cfg->set(k, nv);
    }

    block_config& config = *cfg;
    m_configs.push_back(std::move(cfg));
    block_context ctx{config, *clk, m_stats, m_work, m_power.get(), &m_arrays[path], &m_clocks};
    // The name object stays alive while the children are built, so SystemC makes them
    // children of this module (gpu.smx[3].l1).
    sc_core::sc_module_name nm(inst.c_str());
    component* c = type->create(nm, ctx);
    m_components.emplace_back(c);
    m_order.push_back(c);
    m_by_path[c->name()] = c;
    m_spec_of[c->name()] = &spec;
    for (const auto& s : c->sockets()) {
      socket_state st;
      st.ref = s;
      st.owner = c;
      m_sockets[std::string(c->name()) + "." + s.name] = st;
    }
    for (const auto& pr : c->ports()) {
      port_state st;
      st.ref = &pr;
      st.owner = c;
      m_ports[std::string(c->name()) + "." + pr.name] = st;
    }
    for (const auto& ex : c->exports())
      m_exports[std::string(c->name()) + "." + ex.name] = {&ex, c};
    for (const auto& child : spec.children) instantiate(child, c->name(), clk, below);
  }
}

void platform::check_unused_and_validate() {
  for (component* c : m_order) {
    for (const auto& [key, v] : c->config().values()) {
      if (v.used) continue;
      std::vector<std::string> valid(k_reserved);
      for (const param_base* p : c->params()) valid.push_back(p->name());
      for (const auto& child : m_spec_of.at(c->name())->children) valid.push_back(child.name);
      std::string best = closest_match(key, valid);
      // A key under a strategy's choice (`policy.x`): say which strategy it is not a key of.
      const std::string group = key.substr(0, key.find('.'));
      const param_base* choice = nullptr;
      if (group.size() < key.size())
        for (const param_base* p : c->params())
          if (p->name() == group) choice = p;
      if (choice) {
        std::string keys;
        for (const param_base* p : c->params())
          if (p->name().compare(0, group.size() + 1, group + ".") == 0)
            keys += (keys.empty() ? "" : ", ") + p->name().substr(group.size() + 1);
        throw input_error(v.where, std::string(c->name()) + "." + key,
                          "unknown key for " + group + " " + choice->to_yaml() + " (" +
                              (keys.empty() ? "it takes no parameters" : "its keys: " + keys) +
                              ")" + (best.empty() ? "" : "; did you mean '" + best + "'?"));
      }
      throw input_error(v.where, std::string(c->name()) + "." + key,
                        "unknown key for a block of type '" + c->type() + "'" +
                            (best.empty() ? "" : "; did you mean '" + best + "'?"));
    }
    c->validate();
  }
}

void platform::bind_all(const block_spec& spec, const std::string& instance_path) {
  for (const auto& b : spec.bindings) bind_one(b, instance_path);
}

namespace {
// The value of index expression `text` of segment `seg` in binding `b` (`i`: the [*]'s
// index, when the binding has one); a bad or negative one is an input error at the binding.
std::uint64_t eval_index(const binding_spec& b, const std::string& seg, const std::string& text,
                         const var_values& vars, std::optional<std::int64_t> i) {
  if (!i && index_expr::uses_i(text))
    throw input_error(b.where, b.key, "'" + seg + "' uses i, but the binding has no [*]");
  std::int64_t v = 0;
  index_expr ex(text, vars, i);
  if (!ex.eval(v))
    throw input_error(b.where, b.key, "bad index expression '" + text + "': " + ex.why());
  if (v < 0)
    throw input_error(b.where, b.key,
                      "index expression '" + text + "' is negative (" + std::to_string(v) + ")");
  return static_cast<std::uint64_t>(v);
}

// A binding's sides, split at "->", and the one [*] among them.
struct binding_sides {
  std::vector<std::string> side[2];  // initiator (port), target (export)
  int wild_side = -1;                // the side holding [*], or -1
  std::size_t wild_at = 0;           // its segment
};

binding_sides split_binding(const binding_spec& b) {
  auto arrow = b.text.find("->");
  if (arrow == std::string::npos)
    throw input_error(b.where, b.key, "expected 'initiator.socket -> target.socket'");
  binding_sides s;
  s.side[0] = split_path(trim(b.text.substr(0, arrow)));
  s.side[1] = split_path(trim(b.text.substr(arrow + 2)));
  for (int d = 0; d < 2; ++d)
    for (std::size_t k = 0; k < s.side[d].size(); ++k) {
      segment seg = parse_segment(s.side[d][k]);
      if (seg.has_index && seg.index == "*") {
        if (s.wild_side >= 0) throw input_error(b.where, b.key, "only one [*] per binding");
        s.wild_side = d;
        s.wild_at = k;
      }
    }
  return s;
}
}  // namespace

// The instances each socket or port array of a block is bound at, from the bindings alone,
// before any block is built: a block sizes such an array by it (component::bound_count). A
// binding's [*] over blocks gives its range from their count; a [*] over a socket array
// ranges over what the block made, which a derived array cannot give (then the [*] belongs
// on the other side, which names the array by index).
void platform::derive_arrays(const block_spec& spec, const std::string& parent_path) {
  const std::uint64_t n = spec.count.value_or(1);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string inst = spec.count ? indexed(spec.name, i) : spec.name;
    const std::string path = parent_path.empty() ? inst : parent_path + "." + inst;
    for (const binding_spec& b : spec.bindings) {
      binding_sides s;
      try {
        s = split_binding(b);
      } catch (const input_error&) {
        continue;  // reported when binding
      }
      std::int64_t range = 1;
      if (s.wild_side >= 0) {
        const auto& segs = s.side[s.wild_side];
        if (s.wild_at + 1 == segs.size()) continue;  // over a socket array: sized by the block
        const block_spec* at = &spec;
        for (std::size_t k = 0; k <= s.wild_at && at; ++k) {
          const std::string name = parse_segment(segs[k]).name;
          auto it = std::find_if(at->children.begin(), at->children.end(),
                                 [&](const block_spec& c) { return c.name == name; });
          at = it == at->children.end() ? nullptr : &*it;
        }
        if (!at) continue;  // reported when binding
        range = static_cast<std::int64_t>(at->count.value_or(1));
      }
      for (std::int64_t k = 0; k < range; ++k)
        for (int d = 0; d < 2; ++d) {
          const auto& segs = s.side[d];
          std::string block = path;
          const auto i = s.wild_side >= 0 ? std::optional<std::int64_t>(k) : std::nullopt;
          for (std::size_t j = 0; j + 1 < segs.size(); ++j) {
            const segment seg = parse_segment(segs[j]);
            std::string piece = seg.name;
            if (seg.has_index)
              piece = indexed(
                  seg.name, eval_index(b, segs[j], seg.index == "*" ? "i" : seg.index, m_vars, i));
            block += "." + piece;
          }
          const segment last = parse_segment(segs.back());
          if (!last.has_index || last.index == "*") continue;
          const std::uint64_t v = eval_index(b, segs.back(), last.index, m_vars, i);
          std::uint64_t& size = m_arrays[block][last.name];
          size = std::max(size, v + 1);
        }
    }
    for (const auto& child : spec.children) derive_arrays(child, path);
  }
}

void platform::bind_one(const binding_spec& b, const std::string& scope) {
  const binding_sides sides = split_binding(b);
  const bool have_i = sides.wild_side >= 0;

  auto resolve = [&](const std::vector<std::string>& segs, std::int64_t i) -> std::string {
    std::string path = scope;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      segment seg = parse_segment(segs[k]);
      if (seg.name.empty()) throw input_error(b.where, b.key, "empty path segment");
      std::string piece = seg.name;
      if (seg.has_index)
        piece =
            indexed(seg.name, eval_index(b, segs[k], seg.index == "*" ? "i" : seg.index, m_vars,
                                         have_i ? std::optional<std::int64_t>(i) : std::nullopt));
      path += "." + piece;
      if (k + 1 < segs.size() && !m_by_path.count(path))
        throw input_error(b.where, b.key, "no block '" + path + "'");
    }
    return path;
  };

  std::int64_t range = 1;
  if (have_i) {
    const auto& segs = sides.side[sides.wild_side];
    std::vector<std::string> prefix(segs.begin(), segs.begin() + sides.wild_at);
    const std::string base = resolve(prefix, 0);
    const std::string name = parse_segment(segs[sides.wild_at]).name;
    const bool endpoint_level = sides.wild_at + 1 == segs.size();
    range = 0;
    while (endpoint_level ? has_endpoint(base + "." + indexed(name, range))
                          : m_by_path.count(base + "." + indexed(name, range)) != 0)
      ++range;
    if (range == 0)
      throw input_error(b.where, b.key,
                        "'" + segs[sides.wild_at] + "' matches nothing" +
                            (endpoint_level ? " (an array sized by its bindings takes its [*] on "
                                              "the other side, e.g. 'a.port[i] -> b[*].export')"
                                            : ""));
  }

  for (std::int64_t i = 0; i < range; ++i)
    bind_endpoints(b, resolve(sides.side[0], i), resolve(sides.side[1], i));
}

std::string platform::endpoints_of(const std::string& block) const {
  std::string have;
  auto add = [&](const std::string& path, const component* owner) {
    if (owner->name() == block) have += (have.empty() ? "" : ", ") + path.substr(block.size() + 1);
  };
  for (const auto& [path, s] : m_sockets) add(path, s.owner);
  for (const auto& [path, s] : m_ports) add(path, s.owner);
  for (const auto& [path, s] : m_exports) add(path, s.owner);
  return have;
}

void platform::bind_endpoints(const binding_spec& b, const std::string& from,
                              const std::string& to) {
  for (const std::string* p : {&from, &to}) {
    if (has_endpoint(*p)) continue;
    const std::string block = p->substr(0, p->rfind('.'));
    const std::string have = endpoints_of(block);
    throw input_error(b.where, b.key,
                      "no socket or port '" + *p + "'" +
                          (have.empty() ? "" : " (" + block + " has: " + have + ")"));
  }
  auto f = m_sockets.find(from);
  auto t = m_sockets.find(to);
  if (f != m_sockets.end() || t != m_sockets.end()) {
    if (f == m_sockets.end())
      throw input_error(b.where, b.key,
                        "'" + from + "' is a port, '" + to +
                            "' a socket: a socket binds to a socket, a port to an export");
    if (t == m_sockets.end())
      throw input_error(b.where, b.key,
                        "'" + to + "' is a typed " + (m_ports.count(to) ? "port" : "export") +
                            ", '" + from +
                            "' a socket: a socket binds to a socket, a port to an export");
    if (!f->second.ref.initiator)
      throw input_error(b.where, b.key,
                        "'" + from + "' is a target socket; the left side must be an initiator");
    if (!t->second.ref.target)
      throw input_error(b.where, b.key,
                        "'" + to + "' is an initiator socket; the right side must be a target");
    for (auto* s : {&f->second, &t->second})
      if (s->bound)
        throw input_error(b.where, b.key,
                          "socket '" + (s == &f->second ? from : to) + "' is already bound at " +
                              s->bound_at.to_string());
    f->second.ref.initiator->bind(*t->second.ref.target);
    f->second.bound = t->second.bound = true;
    f->second.bound_at = t->second.bound_at = b.where;
    m_bindings.push_back({from, to});
    return;
  }
  auto pf = m_ports.find(from);
  auto et = m_exports.find(to);
  if (pf == m_ports.end())
    throw input_error(b.where, b.key,
                      "'" + from +
                          "' is an export; the left side must be a port (the block that "
                          "calls the interface)");
  if (et == m_exports.end())
    throw input_error(b.where, b.key,
                      "'" + to +
                          "' is a port; the right side must be an export (the block that "
                          "provides the interface)");
  port_state& ps = pf->second;
  const export_state& es = et->second;
  if (ps.ref->iface != es.ref->iface)
    throw input_error(b.where, b.key,
                      "'" + from + "' calls " + ps.ref->iface_name + ", but '" + to +
                          "' provides " + es.ref->iface_name);
  if (ps.bound && !ps.ref->multiple)
    throw input_error(b.where, b.key,
                      "port '" + from + "' is already bound at " + ps.bound_at.to_string() +
                          " (it takes one binding)");
  sc_core::sc_interface* impl = es.ref->exp->get_interface();
  if (!impl)
    throw std::logic_error(to +
                           ": export not bound to its implementation before the platform's "
                           "bindings");
  ps.ref->bind(*impl);
  ++ps.bound;
  ps.bound_at = b.where;
  m_port_bindings.push_back({from, to});
}

std::map<std::string, std::size_t> platform::count_by_type() const {
  std::map<std::string, std::size_t> counts;
  for (const component* c : m_order) ++counts[c->type()];
  return counts;
}

void platform::print_hierarchy(std::ostream& os) const {
  for (const component* c : m_order) {
    std::string path = c->name();
    auto depth = static_cast<std::size_t>(std::count(path.begin(), path.end(), '.'));
    os << std::string(2 * depth, ' ') << path << " (" << c->type() << ", " << c->clock().name()
       << ")\n";
  }
  os << "blocks by type:\n";
  for (const auto& [type, n] : count_by_type()) os << "  " << type << ": " << n << "\n";
  os << "socket bindings: " << m_bindings.size() << "\n";
  if (!m_port_bindings.empty()) os << "port bindings: " << m_port_bindings.size() << "\n";
  bool any = false;
  for (const component* c : m_order) {
    const std::string hw = c->added_hardware();
    if (hw.empty()) continue;
    if (!any) os << "added hardware:\n";
    any = true;
    os << "  " << c->name() << ": " << hw << "\n";
  }
}

namespace {
void dump_block(std::ostream& os, const block_spec& spec, const component& c, int depth,
                const std::map<std::string, component*>& by_path) {
  std::string in(2 * depth, ' ');
  os << in << "type: " << spec.type << "\n";
  if (spec.count) os << in << "count: " << *spec.count << "\n";
  // A per-instance domain as the YAML names it (`core[i]`), else the domain; a block that
  // inherits its parent's writes none (instance 0's domain would pin every instance to it).
  auto as_written = spec.values.find("clock");
  const bool per_instance =
      as_written != spec.values.end() && as_written->second.text.find('[') != std::string::npos;
  if (as_written != spec.values.end() || depth == 1)
    os << in << "clock: " << (per_instance ? as_written->second.text : c.clock().name()) << "\n";
  // A parameter group (a strategy's `policy.*`, an implementation's `dispatch.*`) nested
  // under its key: the choice itself as its `type`.
  const auto& params = c.params();
  std::set<std::string> groups;
  for (const param_base* p : params)
    if (p->name().find('.') != std::string::npos)
      groups.insert(p->name().substr(0, p->name().find('.')));
  std::set<std::string> written;
  for (const param_base* p : params) {
    const std::string& n = p->name();
    const std::string group = n.substr(0, n.find('.'));
    if (!groups.count(group)) {
      os << in << n << ": " << p->to_yaml() << "  # " << p->description() << "\n";
      continue;
    }
    if (!written.insert(group).second) continue;
    os << in << group << ":\n";
    for (const param_base* q : params) {
      const std::string& m = q->name();
      if (m == group)
        os << in << "  type: " << q->to_yaml() << "  # " << q->description() << "\n";
      else if (m.compare(0, group.size() + 1, group + ".") == 0)
        os << in << "  " << m.substr(group.size() + 1) << ": " << q->to_yaml() << "  # "
           << q->description() << "\n";
    }
  }
  for (const auto& child : spec.children) {
    os << in << child.name << ":\n";
    std::string path =
        std::string(c.name()) + "." + (child.count ? indexed(child.name, 0) : child.name);
    dump_block(os, child, *by_path.at(path), depth + 1, by_path);
  }
  if (!spec.bindings.empty()) {
    os << in << "bind:\n";
    for (const auto& b : spec.bindings) os << in << "  - " << quote_yaml_scalar(b.text) << "\n";
  }
}
}  // namespace

void platform::dump_config(std::ostream& os) const {
  os << "# Effective configuration elaborated from " << m_spec.file
     << " (gputlm elaborate --dump-config)\n";
  os << "platform:\n";
  os << "  name: " << quote_yaml_scalar(m_spec.name) << "\n";
  os << "  description: " << quote_yaml_scalar(m_spec.description) << "\n";
  if (!m_vars.empty() || !m_text_vars.empty()) {  // (the bindings are written with them)
    os << "vars:\n";
    for (const auto& [k, v] : m_vars) os << "  " << k << ": " << v << "\n";
    for (const auto& [k, v] : m_text_vars) os << "  " << k << ": " << quote_yaml_scalar(v) << "\n";
  }
  os << "clocks:\n";
  for (const auto& c : m_clocks) {
    const segment seg = parse_segment(c->name());
    const bool instance = seg.has_index && m_clock_counts.count(seg.name);
    if (instance && seg.index != "0") continue;  // (a per-instance domain: written once)
    os << "  " << (instance ? seg.name : c->name()) << ":\n";
    os << "    frequency: " << units::format_frequency(c->frequency()) << "\n";
    os << "    voltage: " << units::format_voltage(c->voltage()) << "\n";
    if (instance) os << "    count: " << m_clock_counts.at(seg.name) << "\n";
    if (!c->pstates().empty()) {
      os << "    pstates: [";
      for (std::size_t k = 0; k < c->pstates().size(); ++k)
        os << (k ? ", " : "") << units::format_frequency(c->pstates()[k].hz) << "@"
           << units::format_voltage(c->pstates()[k].volts);
      os << "]\n";
    }
  }
  os << "gpu:\n";
  dump_block(os, m_spec.top, top(), 1, m_by_path);
  if (!m_spec.waveform_signals.empty()) {
    os << "waveforms:\n  signals:\n";
    for (const auto& g : m_spec.waveform_signals) os << "    - " << quote_yaml_scalar(g) << "\n";
  }
  if (m_spec.power.present) {
    const pm::power_spec& pw = m_spec.power;
    os << "power:\n";
    if (!pw.source.empty()) os << "  source: " << quote_yaml_scalar(pw.source) << "\n";
    os << "  policy:\n    type: " << pw.policy.type << "\n";
    for (const auto& [k, v] : pw.policy.values) {
      os << "    " << k << ": ";
      if (v.is_sequence) {
        os << "[";
        for (std::size_t i = 0; i < v.items.size(); ++i)
          os << (i ? ", " : "") << quote_yaml_scalar(v.items[i]);
        os << "]\n";
      } else {
        os << quote_yaml_scalar(v.text) << "\n";
      }
    }
    if (!pw.components.empty()) os << "  components:\n";
    std::string type;
    for (const auto& c : pw.components) {
      if (c.block_type != type) os << "    " << (type = c.block_type) << ":\n";
      os << "      " << c.component << ":\n";
      if (c.granularity_bytes)
        os << "        granularity: " << units::format_bytes(c.granularity_bytes) << "\n";
      os << "        states:\n";
      for (std::size_t i = 0; i < c.states.size(); ++i) {
        const auto& st = c.states[i];
        os << "          " << st.name << ": {static: " << units::format_power(st.static_watts);
        if (i > 0)  // (the first state, ON, takes no wake-up or break-even time)
          os << ", wake: " << units::format_cycles(st.wake_cycles)
             << ", break_even: " << units::format_cycles(st.break_even_cycles);
        if (st.clock_watts != 0) os << ", clock: " << units::format_power(st.clock_watts);
        os << "}\n";
      }
      if (!c.events.empty()) {
        os << "        events:\n";
        for (const auto& e : c.events)
          os << "          " << e.name << ": " << units::format_energy(e.joules) << "\n";
      }
    }
  }

  // Instances that differ from their first sibling.
  std::vector<std::string> overrides;
  for (const component* c : m_order) {
    std::string rep = representative(c->name());
    if (rep == c->name()) continue;
    const component* r = m_by_path.at(rep);
    std::string rel = std::string(c->name()).substr(4);  // drop "gpu."
    const segment cs = parse_segment(c->clock().name()), rs = parse_segment(r->clock().name());
    const bool same_domain_kind = cs.has_index && rs.has_index && cs.name == rs.name;
    if (c->clock().name() != r->clock().name() && !same_domain_kind)
      overrides.push_back(rel + ".clock: " + c->clock().name());
    for (const param_base* p : c->params()) {
      const std::string v = p->to_yaml();
      const param_base* same = nullptr;  // the first sibling's parameter of that name
      for (const param_base* q : r->params())
        if (q->name() == p->name()) same = q;
      if (!same || v != same->to_yaml()) overrides.push_back(rel + "." + p->name() + ": " + v);
    }
  }
  if (!overrides.empty()) {
    os << "overrides:\n";
    for (const auto& o : overrides) os << "  " << o << "\n";
  }
}

void platform::write_dot(std::ostream& os) const {
  os << "digraph gputlm {\n  rankdir=LR;\n  compound=true;\n"
     << "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  // Blocks with children become clusters.
  std::set<std::string> parents;
  for (const component* c : m_order) {
    std::string p = c->name();
    auto dot = p.rfind('.');
    if (dot != std::string::npos) parents.insert(p.substr(0, dot));
  }
  std::function<void(const std::string&, int)> emit = [&](const std::string& parent, int depth) {
    std::string in(2 * depth, ' ');
    for (const component* c : m_order) {
      std::string p = c->name();
      auto dot = p.rfind('.');
      std::string my_parent = dot == std::string::npos ? "" : p.substr(0, dot);
      if (my_parent != parent) continue;
      std::string leaf = dot == std::string::npos ? p : p.substr(dot + 1);
      if (parents.count(p)) {
        os << in << "subgraph \"cluster_" << p << "\" {\n"
           << in << "  label=\"" << leaf << " (" << c->type() << ")\";\n";
        os << in << "  \"" << p << "\" [label=\"" << leaf << "\", shape=point];\n";
        emit(p, depth + 1);
        os << in << "}\n";
      } else {
        os << in << "\"" << p << "\" [label=\"" << leaf << "\\n" << c->type() << "\"];\n";
      }
    }
  };
  emit("", 1);
  for (const auto* list : {&m_bindings, &m_port_bindings})
    for (const auto& b : *list) {
      std::string fb = b.initiator.substr(0, b.initiator.rfind('.'));
      std::string tb = b.target.substr(0, b.target.rfind('.'));
      os << "  \"" << fb << "\" -> \"" << tb << "\" [label=\""
         << b.initiator.substr(b.initiator.rfind('.') + 1) << " -> "
         << b.target.substr(b.target.rfind('.') + 1) << "\""
         << (list == &m_port_bindings ? ", style=dashed" : "") << "];\n";
    }
  os << "}\n";
}

}  // namespace gputlm::platforms
