#include "sc_main/experiment/experiment_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "models/base/closest_match.h"
#include "models/base/units.h"
#include "platforms/platform_spec.h"
#include "platforms/yaml_tree.h"
#include "traces/generators/params.h"
#include "traces/generators/registry.h"

namespace gputlm::experiment {
namespace {

namespace fs = std::filesystem;
using platforms::ynode;

[[noreturn]] void fail(const ynode& n, const std::string& key, const std::string& msg) {
  throw input_error(n.where(), key, msg);
}
[[noreturn]] void fail(const ynode::entry& e, const std::string& key, const std::string& msg) {
  throw input_error(e.where(), key, msg);
}

void check_keys(const ynode& n, const std::string& path, const std::vector<std::string>& valid) {
  for (const auto& e : n.entries) {
    if (std::find(valid.begin(), valid.end(), e.key) != valid.end()) continue;
    std::string msg = "unknown key '" + e.key + "'";
    const std::string best = closest_match(e.key, valid);
    if (!best.empty()) msg += "; did you mean '" + best + "'?";
    fail(e, path.empty() ? e.key : path + "." + e.key, msg);
  }
}

const ynode& mapping(const ynode& n, const std::string& key, const char* what) {
  if (!n.is_map()) fail(n, key, std::string("expected ") + what);
  return n;
}

std::string text(const ynode& n, const std::string& key) {
  if (!n.is_scalar() || n.scalar().empty()) fail(n, key, "expected a plain value");
  return n.scalar();
}

// Names become file names, CSV cells and plot labels: letters, digits and _ . + -
void check_name(const ynode::entry& e, const std::string& key) {
  const bool ok = !e.key.empty() && std::all_of(e.key.begin(), e.key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
           c == '-';
  });
  if (!ok) fail(e, key, "a name may hold letters, digits and _ . + - only");
}

// A YAML value as `--set` text: a scalar, or a flow list.
std::string set_text(const ynode& n, const std::string& key) {
  if (n.is_scalar()) return n.scalar();
  if (n.is_sequence()) {
    std::string s = "[";
    bool first = true;
    for (const auto& item : n.node) {
      if (!item.IsScalar())
        throw input_error(n.at(item.Mark()), key, "list items must be plain values");
      s += (first ? "" : ", ") + item.Scalar();
      first = false;
    }
    return s + "]";
  }
  fail(n, key, "expected a value or a list");
}

// A list of names, `[a, b]` (or one name).
std::vector<std::string> name_list(const ynode& n, const std::string& key) {
  if (n.is_scalar()) return {text(n, key)};
  if (!n.is_sequence() || n.node.size() == 0) fail(n, key, "expected a list of names");
  std::vector<std::string> out;
  for (const auto& item : n.node) {
    if (!item.IsScalar() || item.Scalar().empty())
      throw input_error(n.at(item.Mark()), key, "expected plain names");
    out.push_back(item.Scalar());
  }
  return out;
}

std::string resolve(const std::string& experiment_file, const std::string& path) {
  return (fs::path(experiment_file).parent_path() / path).lexically_normal().string();
}

void parse_platforms(experiment_spec& x, const ynode& n) {
  mapping(n, "platforms", "platforms as name: file");
  for (const auto& e : n.entries) {
    const std::string key = "platforms." + e.key;
    check_name(e, key);
    const std::string file = resolve(x.file, text(e.value, key));
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) fail(e.value, key, "no platform file '" + file + "'");
    x.platforms.push_back({e.key, file, e.where()});
  }
  if (x.platforms.empty()) fail(n, "platforms", "no platform");
}

std::vector<override_entry> parse_overrides(const ynode& n, const std::string& key) {
  std::vector<override_entry> sets;
  if (n.is_null()) return sets;
  mapping(n, key, "overrides as path.key: value, or {}");
  for (const auto& o : n.entries)
    sets.push_back({o.key, set_text(o.value, key + "." + o.key), o.where()});
  return sets;
}

void parse_configurations(experiment_spec& x, const ynode& n) {
  mapping(n, "configurations", "configurations as name: {path.key: value, ...}");
  for (const auto& e : n.entries) {
    const std::string key = "configurations." + e.key;
    check_name(e, key);
    configuration c;
    c.name = e.key;
    c.where = e.where();
    c.sets = parse_overrides(e.value, key);
    // `platform:` is not an override: another platform file for this configuration.
    for (auto it = c.sets.begin(); it != c.sets.end(); ++it) {
      if (it->key != "platform") continue;
      c.platform_file = resolve(x.file, it->value);
      std::error_code ec;
      if (!fs::is_regular_file(c.platform_file, ec))
        throw input_error(it->where, key + ".platform",
                          "no platform file '" + c.platform_file + "'");
      c.sets.erase(it);
      break;
    }
    // `workloads:` neither: the workloads it runs, checked once they are read.
    for (auto it = c.sets.begin(); it != c.sets.end(); ++it) {
      if (it->key != "workloads") continue;
      const ynode::entry* list = e.value.find("workloads");
      c.workloads = name_list(list->value, key + ".workloads");
      c.workloads_where = it->where;
      c.sets.erase(it);
      break;
    }
    // `with:` neither: the mechanism files this configuration adds to the platform.
    for (auto it = c.sets.begin(); it != c.sets.end(); ++it) {
      if (it->key != "with") continue;
      std::vector<std::string> files;
      if (!it->value.empty() && it->value.front() == '[') {
        const YAML::Node list = YAML::Load(it->value);
        for (const auto& item : list) files.push_back(item.as<std::string>());
      } else {
        files.push_back(it->value);
      }
      for (const auto& f : files) {
        c.mechanisms.push_back(resolve(x.file, f));
        std::error_code ec;
        if (!fs::is_regular_file(c.mechanisms.back(), ec))
          throw input_error(it->where, key + ".with",
                            "no mechanism file '" + c.mechanisms.back() + "'");
      }
      c.sets.erase(it);
      break;
    }
    x.configurations.push_back(std::move(c));
  }
}

void parse_sweeps(experiment_spec& x, const ynode& n) {
  mapping(n, "sweeps", "sweeps as name: {parameter, values, with}");
  for (const auto& e : n.entries) {
    const std::string key = "sweeps." + e.key;
    check_name(e, key);
    mapping(e.value, key, "{parameter: path.key, values: [...], with: configuration}");
    check_keys(e.value, key, {"parameter", "values", "with"});
    sweep s;
    s.name = e.key;
    s.where = e.where();
    const ynode::entry* p = e.value.find("parameter");
    const ynode::entry* v = e.value.find("values");
    if (!p) fail(e, key, "no 'parameter'");
    if (!v) fail(e, key, "no 'values'");
    s.parameter = text(p->value, key + ".parameter");
    if (!v->value.is_sequence() || v->value.node.size() == 0)
      fail(v->value, key + ".values", "expected a list of values");
    if (v->value.node.size() > 1000)  // each value a configuration x platforms x workloads
      fail(v->value, key + ".values",
           "expected at most 1000 values, got " + std::to_string(v->value.node.size()));
    for (const auto& item : v->value.node) {
      if (!item.IsScalar())
        throw input_error(v->value.at(item.Mark()), key + ".values", "expected plain values");
      s.values.push_back(item.Scalar());
    }
    if (const ynode::entry* w = e.value.find("with")) s.with = text(w->value, key + ".with");
    x.sweeps.push_back(std::move(s));
  }
}

// The trace or generator of workload `w` (or of one of its per-configuration forms) from
// `value`: a scalar trace path, or {trace | gen, arch, repetitions}; `extra` are keys the
// caller reads itself.
void parse_source(const experiment_spec& x, const ynode::entry& e, const ynode& value,
                  const std::string& key, workload& w, std::vector<std::string> extra) {
  const ynode* trace = nullptr;
  if (value.is_scalar()) {
    trace = &value;
  } else {
    mapping(value, key, "{trace: DIR} or {gen: KERNEL k=v ...}");
    std::vector<std::string> keys{"trace", "gen", "arch", "repetitions"};
    keys.insert(keys.end(), extra.begin(), extra.end());
    check_keys(value, key, keys);
    const ynode::entry* t = value.find("trace");
    const ynode::entry* g = value.find("gen");
    if (!t == !g) fail(e, key, "give either 'trace' or 'gen'");
    if (t) trace = &t->value;
    if (g) {
      std::istringstream words(text(g->value, key + ".gen"));
      words >> w.gen_kernel;
      for (std::string p; words >> p;) w.gen_params.push_back(p);
      const auto& gens = traces::generators::kernel_generators();
      const auto found = std::find_if(gens.begin(), gens.end(),
                                      [&](const auto& k) { return k.name == w.gen_kernel; });
      if (found == gens.end()) {
        std::vector<std::string> names;
        for (const auto& k : gens) names.push_back(k.name);
        std::string msg = "unknown generator '" + w.gen_kernel + "'";
        const std::string best = closest_match(w.gen_kernel, names);
        if (!best.empty()) msg += "; did you mean '" + best + "'?";
        fail(g->value, key + ".gen", msg);
      }
      try {
        const traces::generators::param_set ps(found->params, w.gen_params);
        w.random = std::any_of(found->params.begin(), found->params.end(),
                               [](const auto& d) { return d.name == "seed"; });
        if (w.random) w.first_seed = ps.u64("seed");
        if (const ynode::entry* r = value.find("repetitions")) {
          const auto reps = units::parse_uint(text(r->value, key + ".repetitions"));
          if (!reps || *reps == 0 || *reps > 1000)
            fail(r->value, key + ".repetitions", "expected a count from 1 to 1000");
          if (*reps > 1 && !w.random)
            fail(r->value, key + ".repetitions",
                 "generator '" + w.gen_kernel + "' has no seed: its repetitions would be the same");
          w.repetitions = static_cast<std::uint32_t>(*reps);
        }
      } catch (const input_error& err) {
        if (err.where().file != "<command line>") throw;
        fail(g->value, key + ".gen", err.key() + ": " + err.message());
      }
      if (const ynode::entry* a = value.find("arch")) {
        w.arch = text(a->value, key + ".arch");
        if (w.arch != "35" && w.arch != "61" && w.arch != "70")
          fail(a->value, key + ".arch", "expected 35, 61 or 70");
      }
    } else {
      if (value.find("repetitions"))
        fail(e, key, "repetitions need a generator ('gen') with a seed");
      if (value.find("arch")) fail(e, key, "'arch' applies to a generator ('gen')");
    }
  }
  if (trace) {
    w.trace = resolve(x.file, text(*trace, key + ".trace"));
    std::error_code ec;
    if (!fs::exists(w.trace, ec)) fail(*trace, key + ".trace", "no trace '" + w.trace + "'");
  }
}

void parse_workloads(experiment_spec& x, const ynode& n) {
  mapping(n, "workloads", "workloads as name: {trace: DIR} or {gen: KERNEL k=v ...}");
  for (const auto& e : n.entries) {
    const std::string key = "workloads." + e.key;
    check_name(e, key);
    workload w;
    w.name = e.key;
    w.where = e.where();
    if (!e.value.is_scalar() && e.value.find("merge")) {
      // Earlier generated workloads of this experiment, run side by side as streams.
      check_keys(e.value, key, {"merge", "group", "configurations"});
      const ynode::entry* m = e.value.find("merge");
      if (!m->value.is_sequence() || m->value.node.size() < 2)
        fail(m->value, key + ".merge", "expected a list of two workloads or more");
      for (const auto& item : m->value.node) {
        const std::string n = item.Scalar();
        const auto it = std::find_if(x.workloads.begin(), x.workloads.end(),
                                     [&](const workload& o) { return o.name == n; });
        if (it == x.workloads.end() || it->gen_kernel.empty() || it->repetitions > 1)
          fail(m->value, key + ".merge",
               "'" + n + "' is not a generated workload written above (one repetition)");
        w.merge.push_back(std::size_t(it - x.workloads.begin()));
      }
    } else {
      parse_source(x, e, e.value, key, w, {"group", "per_configuration", "configurations"});
    }
    if (!e.value.is_scalar()) {
      if (const ynode::entry* gr = e.value.find("group")) {
        w.group = text(gr->value, key + ".group");
        if (std::find(x.groups.begin(), x.groups.end(), w.group) == x.groups.end())
          x.groups.push_back(w.group);
      }
      if (const ynode::entry* cs = e.value.find("configurations")) {
        w.configurations = name_list(cs->value, key + ".configurations");
        w.configurations_where = cs->where();
      }
      // Another trace or generator for some configurations (the same application written
      // otherwise, e.g. with device-side launches); repeated as often as the workload.
      if (const ynode::entry* pc = e.value.find("per_configuration")) {
        const std::string pkey = key + ".per_configuration";
        mapping(pc->value, pkey, "configuration: {trace: DIR} or {gen: KERNEL k=v ...}");
        for (const auto& f : pc->value.entries) {
          const std::string fkey = pkey + "." + f.key;
          const configuration* c = x.find_configuration(f.key);
          if (!c || !c->sweep.empty())
            fail(f, fkey, "no configuration '" + f.key + "' (a named configuration)");
          workload form;
          form.name = w.name;
          form.where = f.where();
          parse_source(x, f, f.value, fkey, form, {});
          if (!f.value.is_scalar() && f.value.find("repetitions"))
            fail(f, fkey,
                 "a form repeats as often as its workload ('repetitions' is the workload's)");
          if (w.repetitions > 1 && !form.random)
            fail(f, fkey, "the workload has repetitions: its form needs a generator with a seed");
          form.repetitions = w.repetitions;
          w.per_configuration.emplace_back(f.key, x.forms.size());
          x.forms.push_back(std::move(form));
        }
      }
    }
    x.workloads.push_back(std::move(w));
  }
  if (x.workloads.empty()) fail(n, "workloads", "no workload");
}

// Which of `count` items the `names` admit, `matches(i, name)` saying whether item i
// answers to a name; a name that matches nothing is an error at `where`: "no <what> 'name'"
// and `hint`.
template <class Matches>
std::vector<bool> names_admit(std::size_t count, const std::vector<std::string>& names,
                              Matches&& matches, const source_location& where,
                              const std::string& key, const std::string& what,
                              const std::string& hint = "") {
  std::vector<bool> admits(count, false);
  for (const auto& n : names) {
    bool any = false;
    for (std::size_t i = 0; i < count; ++i)
      if (matches(i, n)) admits[i] = any = true;
    if (!any) throw input_error(where, key, "no " + what + " '" + n + "'" + hint);
  }
  return admits;
}

// The workloads `names` (workload names and group:G) admit.
std::vector<bool> workloads_named(const experiment_spec& x, const std::vector<std::string>& names,
                                  const source_location& where, const std::string& key) {
  return names_admit(
      x.workloads.size(), names,
      [&](std::size_t w, const std::string& n) {
        return x.workloads[w].name == n || "group:" + x.workloads[w].group == n;
      },
      where, key, "workload or group", " (a group is written group:NAME)");
}

// Which points run: a configuration's `workloads:` and a workload's `configurations:` both
// admit it. Every configuration runs a workload and every workload runs somewhere.
void resolve_restrictions(experiment_spec& x) {
  const std::size_t C = x.configurations.size(), W = x.workloads.size();
  x.runs_table.assign(C, std::vector<bool>(W, true));
  for (std::size_t c = 0; c < C; ++c) {
    const configuration& cf = x.configurations[c];
    if (!cf.workloads.empty())
      x.runs_table[c] = workloads_named(x, cf.workloads, cf.workloads_where,
                                        "configurations." + cf.name + ".workloads");
  }
  for (std::size_t w = 0; w < W; ++w) {
    const workload& wl = x.workloads[w];
    if (wl.configurations.empty()) continue;
    const std::vector<bool> admits = names_admit(
        C, wl.configurations,
        [&](std::size_t c, const std::string& n) {
          return x.configurations[c].name == n || x.configurations[c].sweep == n;
        },
        wl.configurations_where, "workloads." + wl.name + ".configurations",
        "configuration or sweep");
    for (std::size_t c = 0; c < C; ++c) x.runs_table[c][w] = x.runs_table[c][w] && admits[c];
  }
  for (std::size_t c = 0; c < C; ++c)
    if (std::find(x.runs_table[c].begin(), x.runs_table[c].end(), true) == x.runs_table[c].end())
      throw input_error(x.configurations[c].where, "configurations." + x.configurations[c].name,
                        "runs no workload (its `workloads:` and the workloads' "
                        "`configurations:` exclude every one)");
  for (std::size_t w = 0; w < W; ++w) {
    bool any = false;
    for (std::size_t c = 0; c < C; ++c) any = any || x.runs_table[c][w];
    if (!any)
      throw input_error(x.workloads[w].where, "workloads." + x.workloads[w].name,
                        "runs under no configuration (its `configurations:` and the "
                        "configurations' `workloads:` exclude every one)");
  }
}

compare_kind parse_compare(const ynode& n, const std::string& key) {
  const std::string c = text(n, key);
  if (c == "normalized") return compare_kind::normalized;
  if (c == "speedup") return compare_kind::speedup;
  if (c == "difference") return compare_kind::difference;
  if (c == "none") return compare_kind::none;
  fail(n, key, "expected normalized, speedup, difference or none");
}

void parse_metrics(experiment_spec& x, const ynode& n) {
  mapping(n, "metrics", "metrics as name: expression or {value: expression, compare: ...}");
  for (const auto& e : n.entries) {
    const std::string key = "metrics." + e.key;
    check_name(e, key);
    metric m;
    m.name = e.key;
    m.where = e.where();
    const ynode* value = &e.value;
    if (e.value.is_map()) {
      check_keys(e.value, key,
                 {"value", "compare", "mean", "label", "unit", "baseline", "workloads"});
      const ynode::entry* v = e.value.find("value");
      if (!v) fail(e, key, "no 'value' (the expression)");
      value = &v->value;
      if (const ynode::entry* c = e.value.find("compare"))
        m.compare = parse_compare(c->value, key + ".compare");
      if (const ynode::entry* l = e.value.find("label")) m.label = text(l->value, key + ".label");
      if (const ynode::entry* u = e.value.find("unit")) m.unit = text(u->value, key + ".unit");
      if (const ynode::entry* w = e.value.find("workloads"))
        m.applies = workloads_named(x, name_list(w->value, key + ".workloads"), w->where(),
                                    key + ".workloads");
      if (const ynode::entry* b = e.value.find("baseline")) {
        m.baseline = text(b->value, key + ".baseline");
        if (!x.find_configuration(m.baseline))
          fail(b->value, key + ".baseline", "no configuration '" + m.baseline + "'");
      }
      if (const ynode::entry* g = e.value.find("mean")) {
        const std::string mean = text(g->value, key + ".mean");
        if (mean != "geometric" && mean != "arithmetic")
          fail(g->value, key + ".mean", "expected geometric or arithmetic");
        m.geometric_mean = mean == "geometric";
      } else {
        m.geometric_mean =
            m.compare == compare_kind::normalized || m.compare == compare_kind::speedup;
      }
    } else {
      m.geometric_mean = true;
    }
    m.text = text(*value, key + (e.value.is_map() ? ".value" : ""));
    try {
      m.expr = expression::parse(m.text);
    } catch (const std::invalid_argument& err) {
      fail(*value, key, std::string("malformed expression ") + err.what());
    }
    x.metrics.push_back(std::move(m));
  }
  if (x.metrics.empty()) fail(n, "metrics", "no metric");
  std::set<std::string> names;
  for (const auto& m : x.metrics) names.insert(m.name);
  for (auto& m : x.metrics) {
    // A metric's own name in its expression is the statistic of that name (ipc: ipc).
    std::set<std::string> others = names;
    others.erase(m.name);
    m.expr.resolve(others);
  }
  // References must not loop.
  std::map<std::string, int> state;  // 1: being visited, 2: done
  std::function<void(const metric&)> visit = [&](const metric& m) {
    state[m.name] = 1;
    for (const auto& r : m.expr.references()) {
      if (state[r] == 1)
        throw input_error(m.where, "metrics." + m.name, "refers to itself through '" + r + "'");
      if (state[r] == 0) visit(*x.find_metric(r));
    }
    state[m.name] = 2;
  };
  for (const auto& m : x.metrics)
    if (state[m.name] == 0) visit(m);
}

std::string default_label(const experiment_spec& x, const metric& m) {
  switch (m.compare) {
    case compare_kind::speedup:
      return m.name + ": speedup over " + x.baseline_of(m);
    case compare_kind::normalized:
      return m.name + " normalised to " + x.baseline_of(m);
    case compare_kind::difference:
      return m.name + ": difference to " + x.baseline_of(m);
    case compare_kind::none:
      break;
  }
  return m.name;
}

void parse_paper(experiment_spec& x, const ynode& n) {
  if (!n.is_sequence())
    fail(n, "paper",
         "expected a list of {metric, platform, configuration, workload, value, source}");
  std::size_t i = 0;
  for (const auto& item : n.node) {
    const std::string key = "paper[" + std::to_string(i++) + "]";
    // Items are plain YAML nodes of the same file: wrap them for their locations.
    const ynode y = [&] {
      ynode w;
      w.node = static_cast<const YAML::Node&>(item);
      w.file = n.file;
      return w;
    }();
    if (!item.IsMap())
      fail(y, key, "expected {metric, platform, configuration, workload, value, source}");
    paper_value p;
    p.where = y.where();
    std::map<std::string, std::string> f;
    for (auto it = item.begin(); it != item.end(); ++it) {
      const YAML::Node k = it->first, v = it->second;
      static const std::vector<std::string> valid{
          "metric", "platform", "configuration", "workload", "value", "as_reported", "source"};
      const std::string name = k.IsScalar() ? k.Scalar() : "";
      if (std::find(valid.begin(), valid.end(), name) == valid.end())
        throw input_error(
            y.at(k.Mark()), key + "." + name,
            "unknown key (metric, platform, configuration, workload, value, as_reported, source)");
      if (!v.IsScalar())
        throw input_error(y.at(v.Mark()), key + "." + name, "expected a plain value");
      f[name] = v.Scalar();
    }
    for (const char* req : {"metric", "platform", "configuration", "value", "source"})
      if (!f.count(req)) fail(y, key, std::string("no '") + req + "'");
    p.metric = f["metric"];
    p.platform = f["platform"];
    p.configuration = f["configuration"];
    if (f.count("workload")) p.workload = f["workload"];
    p.source = f["source"];
    p.as_reported = f["as_reported"];
    const auto v = units::parse_double(f["value"]);
    if (!v || !std::isfinite(*v))
      fail(y, key + ".value", "expected a number, got '" + f["value"] + "'");
    p.value = *v;
    if (!x.find_metric(p.metric)) fail(y, key + ".metric", "no metric '" + p.metric + "'");
    if (std::none_of(x.platforms.begin(), x.platforms.end(),
                     [&](const auto& pl) { return pl.name == p.platform; }))
      fail(y, key + ".platform", "no platform '" + p.platform + "'");
    if (!x.find_configuration(p.configuration))
      fail(y, key + ".configuration", "no configuration '" + p.configuration + "'");
    const bool known_workload =
        p.workload == "geomean" ||
        (p.workload.rfind("group:", 0) == 0 &&
         std::find(x.groups.begin(), x.groups.end(), p.workload.substr(6)) != x.groups.end()) ||
        std::any_of(x.workloads.begin(), x.workloads.end(),
                    [&](const auto& w) { return w.name == p.workload; });
    if (!known_workload)
      fail(y, key + ".workload",
           "no workload '" + p.workload + "' (a workload, geomean or group:NAME)");
    x.paper.push_back(std::move(p));
  }
}

void parse_plots(experiment_spec& x, const ynode& n) {
  if (!n.is_sequence()) fail(n, "plots", "expected a list of {metric, kind, sweep, file, title}");
  std::size_t i = 0;
  for (const auto& item : n.node) {
    const std::string key = "plots[" + std::to_string(i++) + "]";
    ynode y;
    y.node = static_cast<const YAML::Node&>(item);
    y.file = n.file;
    if (!item.IsMap()) fail(y, key, "expected {metric, kind, sweep, file, title, configurations}");
    plot p;
    for (auto it = item.begin(); it != item.end(); ++it) {
      const YAML::Node k = it->first, v = it->second;
      const std::string name = k.IsScalar() ? k.Scalar() : "";
      if (name == "configurations") {
        if (!v.IsSequence() || v.size() == 0)
          throw input_error(y.at(v.Mark()), key + ".configurations",
                            "expected a list of configurations, such as [lrr, gto]");
        for (const auto& c : v) {
          if (!c.IsScalar() || !x.find_configuration(c.Scalar()))
            throw input_error(y.at(c.Mark()), key + ".configurations",
                              "no configuration '" + (c.IsScalar() ? c.Scalar() : "") + "'");
          p.configurations.push_back(c.Scalar());
        }
        continue;
      }
      if (!v.IsScalar())
        throw input_error(y.at(v.Mark()), key + "." + name, "expected a plain value");
      if (name == "metric")
        p.metric = v.Scalar();
      else if (name == "kind")
        p.kind = v.Scalar();
      else if (name == "sweep")
        p.sweep = v.Scalar();
      else if (name == "file")
        p.file = v.Scalar();
      else if (name == "title")
        p.title = v.Scalar();
      else
        throw input_error(y.at(k.Mark()), key + "." + name,
                          "unknown key (metric, kind, sweep, file, title, configurations)");
    }
    if (!x.find_metric(p.metric)) fail(y, key + ".metric", "no metric '" + p.metric + "'");
    if (p.kind != "bars" && p.kind != "line") fail(y, key + ".kind", "expected bars or line");
    if (p.kind == "line") {
      if (std::none_of(x.sweeps.begin(), x.sweeps.end(),
                       [&](const sweep& s) { return s.name == p.sweep; }))
        fail(y, key + ".sweep",
             "a line plot needs one of the file's sweeps, not '" + p.sweep + "'");
      if (!p.configurations.empty())
        fail(y, key + ".configurations", "a line plot draws its sweep's configurations");
    } else if (!p.sweep.empty()) {
      fail(y, key + ".sweep", "only a line plot has a sweep");
    }
    if (!p.file.empty()) {  // a file name in the output's plots/ folder, nothing more
      const bool plain =
          p.file != "." && p.file != ".." && std::all_of(p.file.begin(), p.file.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                   c == '+' || c == '-';
          });
      if (!plain)
        fail(y, key + ".file",
             "'" + p.file +
                 "': a plot's file name may hold letters, digits and _ . + - only "
                 "(it is written in the output's plots/ folder)");
    }
    if (p.file.empty()) p.file = p.kind == "line" ? p.metric + "-" + p.sweep : p.metric;
    x.plots.push_back(std::move(p));
  }
}

void parse_run_options(experiment_spec& x, const ynode& n) {
  if (!n.is_sequence()) fail(n, "run_options", "expected a list such as [--strict]");
  for (const auto& item : n.node) {
    const std::string o = item.IsScalar() ? item.Scalar() : "";
    const bool ok = o == "--strict" || o == "--kernel-every-instant" ||
                    o == "--stats-group=dynamic_parallelism" ||
                    (o.rfind("--watchdog=", 0) == 0 && units::parse_uint(o.substr(11)));
    if (!ok)
      throw input_error(n.at(item.Mark()), "run_options",
                        "'" + o +
                            "' is not one of --strict, --kernel-every-instant, --watchdog=N, "
                            "--stats-group=dynamic_parallelism");
    x.run_options.push_back(o);
  }
}

}  // namespace

std::vector<std::string> workload::params_of(std::uint32_t r) const {
  std::vector<std::string> p = gen_params;
  if (repetitions > 1) p.push_back("seed=" + std::to_string(first_seed + r));
  return p;
}

std::string workload::describe() const {
  if (!generated()) return trace;
  if (!merge.empty()) return "merge of " + std::to_string(merge.size()) + " workloads";
  std::string s = "gen " + gen_kernel;
  for (const auto& p : gen_params) s += " " + p;
  if (arch != "70") s += " (arch " + arch + ")";
  return s;
}

const char* to_string(compare_kind k) {
  switch (k) {
    case compare_kind::normalized:
      return "normalized";
    case compare_kind::speedup:
      return "speedup";
    case compare_kind::difference:
      return "difference";
    case compare_kind::none:
      break;
  }
  return "none";
}

std::size_t experiment_spec::source_of(std::size_t w, std::size_t c) const {
  const workload& wl = workloads.at(w);
  std::string name = configurations.at(c).name;
  if (!configurations[c].sweep.empty())  // a sweep's configuration: its `with` one's form
    for (const auto& s : sweeps)
      if (s.name == configurations[c].sweep) name = s.with;
  for (const auto& [cfg, form] : wl.per_configuration)
    if (cfg == name) return workloads.size() + form;
  return w;
}

const workload& experiment_spec::source(std::size_t s) const {
  return s < workloads.size() ? workloads[s] : forms.at(s - workloads.size());
}

const configuration* experiment_spec::find_configuration(const std::string& n) const {
  for (const auto& c : configurations)
    if (c.name == n) return &c;
  return nullptr;
}

const metric* experiment_spec::find_metric(const std::string& n) const {
  for (const auto& m : metrics)
    if (m.name == n) return &m;
  return nullptr;
}

experiment_spec load_experiment(const std::string& file) {
  const ynode root = platforms::load_yaml_file(file, "experiment file");
  experiment_spec x;
  x.file = file;
  if (!root.is_map())
    throw input_error({file, 1, 1}, "", "an experiment file must be a YAML mapping");
  check_keys(root, "",
             {"experiment", "platforms", "configurations", "sweeps", "baseline", "workloads",
              "metrics", "paper", "plots", "run_options"});
  auto need = [&](const char* key) -> const ynode& {
    const ynode::entry* e = root.find(key);
    if (!e) throw input_error({file, 1, 1}, key, "missing (docs/experiments.md lists the keys)");
    return e->value;
  };
  const ynode& head = mapping(need("experiment"), "experiment", "{name, description}");
  check_keys(head, "experiment", {"name", "description"});
  if (const ynode::entry* e = head.find("name")) {
    x.name = text(e->value, "experiment.name");
    check_name(ynode::entry{x.name, e->value.node, e->value.file, {}}, "experiment.name");
  } else {
    x.name = fs::path(file).stem().string();
  }
  if (const ynode::entry* e = head.find("description"))
    x.description = text(e->value, "experiment.description");

  parse_platforms(x, need("platforms"));
  if (const ynode::entry* e = root.find("configurations")) parse_configurations(x, e->value);
  if (const ynode::entry* e = root.find("sweeps")) parse_sweeps(x, e->value);
  // Each sweep value becomes a configuration: the `with` configuration plus the parameter.
  for (const auto& s : x.sweeps) {
    std::vector<override_entry> base;
    std::string platform;
    std::vector<std::string> mechanisms, only;
    source_location only_where;
    if (!s.with.empty()) {
      const configuration* w = x.find_configuration(s.with);
      if (!w || !w->sweep.empty())
        throw input_error(s.where, "sweeps." + s.name + ".with",
                          "no configuration '" + s.with + "'");
      base = w->sets;
      platform = w->platform_file;
      mechanisms = w->mechanisms;
      only = w->workloads;
      only_where = w->workloads_where;
    }
    for (const auto& v : s.values) {
      configuration c;
      c.name = s.name + "=" + v;
      c.where = s.where;
      c.sets = base;
      c.platform_file = platform;
      c.mechanisms = mechanisms;
      c.sets.push_back({s.parameter, v, s.where});
      c.sweep = s.name;
      c.sweep_value = v;
      c.workloads = only;
      c.workloads_where = only_where;
      if (x.find_configuration(c.name))
        throw input_error(s.where, "sweeps." + s.name,
                          "makes configuration '" + c.name + "' twice");
      x.configurations.push_back(std::move(c));
    }
  }
  if (x.configurations.empty())
    throw input_error({file, 1, 1}, "configurations",
                      "no configuration (give one, e.g. 'shipped: {}')");
  if (const ynode::entry* e = root.find("baseline")) {
    x.baseline = text(e->value, "baseline");
    if (!x.find_configuration(x.baseline))
      fail(e->value, "baseline", "no configuration '" + x.baseline + "'");
  } else {
    x.baseline = x.configurations.front().name;
  }
  parse_workloads(x, need("workloads"));
  resolve_restrictions(x);
  parse_metrics(x, need("metrics"));
  for (auto& m : x.metrics)
    if (m.label.empty()) m.label = default_label(x, m);
  if (const ynode::entry* e = root.find("paper")) parse_paper(x, e->value);
  if (const ynode::entry* e = root.find("plots")) {
    parse_plots(x, e->value);
  } else {
    for (const auto& m : x.metrics) {
      x.plots.push_back({m.name, "bars", "", m.name, "", {}});
      for (const auto& s : x.sweeps)
        x.plots.push_back({m.name, "line", s.name, m.name + "-" + s.name, "", {}});
    }
  }
  if (const ynode::entry* e = root.find("run_options")) parse_run_options(x, e->value);
  return x;
}

std::vector<std::string> configuration::arguments() const {
  std::vector<std::string> a;
  for (const auto& m : mechanisms)
    a.insert(a.end(), {"--with", fs::absolute(m).lexically_normal().string()});
  for (const auto& s : sets) a.insert(a.end(), {"--set", s.set_option()});
  return a;
}

}  // namespace gputlm::experiment
