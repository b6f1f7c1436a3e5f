#include "sc_main/experiment/results.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <sstream>

namespace gputlm::experiment {
namespace {

std::size_t index_of_metric(const experiment_spec& x, const std::string& name) {
  for (std::size_t i = 0; i < x.metrics.size(); ++i)
    if (x.metrics[i].name == name) return i;
  return x.metrics.size();
}

std::optional<double> mean_of(const std::vector<double>& v, bool geometric) {
  if (v.empty()) return std::nullopt;
  if (geometric) {
    double s = 0;
    for (double x : v) {
      if (!(x > 0)) return std::nullopt;
      s += std::log(x);
    }
    return std::exp(s / double(v.size()));
  }
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string opt_number(const std::optional<double>& v) { return v ? format_number(*v) : ""; }

nlohmann::json opt_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// One number format for each kind of number in a metric's tables (measured values;
// differences; a ratio keeps three decimals), so that a table never mixes 8.9e-05, 0.871664
// and 0: integers when every value is one, else fixed decimals that give the largest
// magnitude four significant digits (0 to 9 decimals).
class number_format {
 public:
  number_format() = default;
  explicit number_format(const std::vector<double>& values) {
    bool integers = true;
    double largest = 0;
    for (double v : values) {
      if (!std::isfinite(v)) continue;
      integers = integers && v == std::floor(v);
      largest = std::max(largest, std::fabs(v));
    }
    if (integers || largest == 0) return;
    const int magnitude = static_cast<int>(std::floor(std::log10(largest)));
    m_decimals = std::clamp(3 - magnitude, 0, 9);
  }
  static number_format ratio() {
    number_format f;
    f.m_decimals = 3;
    return f;
  }
  std::string operator()(const std::optional<double>& v) const {
    if (!v) return "—";
    if (!std::isfinite(*v)) return fmt::format("{}", *v);
    std::string s = fmt::format("{:.{}f}", *v, m_decimals);
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // -0.00
    return s;
  }

 private:
  int m_decimals = 0;
};

std::string row_label(const std::string& row, const metric& m) {
  if (row == "geomean") return m.geometric_mean ? "**geomean**" : "**mean**";
  if (row.rfind("group:", 0) == 0)
    return "**" + std::string(m.geometric_mean ? "geomean " : "mean ") + row.substr(6) + "**";
  return row;
}

}  // namespace

std::string format_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

void evaluate_metrics(const experiment_spec& x, const nlohmann::json& stats, point_result& r) {
  const std::size_t n = x.metrics.size();
  r.values.assign(n, std::nullopt);
  r.why.assign(n, "");
  std::vector<bool> done(n, false);
  std::function<std::optional<double>(std::size_t)> value = [&](std::size_t i) {
    if (done[i]) return r.values[i];
    done[i] = true;  // (references do not loop: load_experiment checks)
    if (!x.metrics[i].applies_to(r.workload)) return r.values[i];  // none, and no why
    std::string why;
    auto v = x.metrics[i].expr.eval(
        stats, [&](const std::string& name) { return value(index_of_metric(x, name)); }, why);
    if (v && !std::isfinite(*v)) {
      why = "not a finite number";
      v.reset();
    }
    r.values[i] = v;
    r.why[i] = why;
    return v;
  };
  for (std::size_t i = 0; i < n; ++i) value(i);
}

experiment_results::experiment_results(const experiment_spec& x, std::vector<point_result> points,
                                       std::string commit)
    : m_x(x), m_points(std::move(points)), m_commit(std::move(commit)) {
  summarise();
}

std::size_t experiment_results::failed() const {
  std::size_t n = 0;
  for (const auto& p : m_points) n += !p.ok;
  return n;
}

std::size_t experiment_results::reused() const {
  std::size_t n = 0;
  for (const auto& p : m_points) n += p.reused;
  return n;
}

std::vector<std::string> experiment_results::rows() const {
  std::vector<std::string> r;
  for (const auto& w : m_x.workloads) r.push_back(w.name);
  for (const auto& g : m_x.groups) r.push_back("group:" + g);
  r.push_back("geomean");
  return r;
}

const summary_cell& experiment_results::cell(std::size_t m, std::size_t p, std::size_t c,
                                             const std::string& row) const {
  const auto names = rows();
  std::size_t i = 0;
  while (i + 1 < names.size() && names[i] != row) ++i;
  return m_cells[m][p][c][i];
}

std::optional<double> experiment_results::paper_side(std::size_t m, std::size_t p, std::size_t c,
                                                     const std::string& row) const {
  const summary_cell& s = cell(m, p, c, row);
  return m_x.metrics[m].compare == compare_kind::none ? s.value : s.compared;
}

bool experiment_results::cannot_move(std::size_t m, std::size_t p) const {
  const metric& met = m_x.metrics[m];
  if (met.compare == compare_kind::none || m_x.configurations.size() < 2) return false;
  const double same = met.compare == compare_kind::difference ? 0.0 : 1.0;
  bool any = false;
  for (std::size_t c = 0; c < m_x.configurations.size(); ++c)
    for (std::size_t w = 0; w < m_x.workloads.size(); ++w) {
      const summary_cell& s = m_cells[m][p][c][w];
      if (!s.compared) continue;
      if (*s.compared != same) return false;
      any = any || m_x.configurations[c].name != m_x.baseline_of(met);
    }
  return any;
}

std::optional<double> experiment_results::compare(const metric& m, std::optional<double> v,
                                                  std::optional<double> base) const {
  if (!v || !base) return std::nullopt;
  switch (m.compare) {
    case compare_kind::normalized:
      return *base != 0 ? std::optional<double>(*v / *base) : std::nullopt;
    case compare_kind::speedup:
      return *v != 0 ? std::optional<double>(*base / *v) : std::nullopt;
    case compare_kind::difference:
      return *v - *base;
    case compare_kind::none:
      break;
  }
  return std::nullopt;
}

void experiment_results::summarise() {
  const std::size_t M = m_x.metrics.size(), P = m_x.platforms.size(), C = m_x.configurations.size(),
                    W = m_x.workloads.size();
  const std::vector<std::string> names = rows();
  m_cells.assign(M, std::vector<std::vector<std::vector<summary_cell>>>(
                        P, std::vector<std::vector<summary_cell>>(
                               C, std::vector<summary_cell>(names.size()))));
  // The mean over a workload's repetitions, when every one has a value.
  auto mean = [&](std::size_t m, std::size_t p, std::size_t c,
                  std::size_t w) -> std::optional<double> {
    double s = 0;
    std::uint32_t n = 0;
    for (const auto& r : m_points) {
      if (r.platform != p || r.configuration != c || r.workload != w) continue;
      if (!r.ok || !r.values[m]) return std::nullopt;
      s += *r.values[m];
      ++n;
    }
    if (n != m_x.workloads[w].repetitions) return std::nullopt;
    return s / double(n);
  };
  // A workload's value in each of its repetitions (none where the point failed).
  auto by_repetition = [&](std::size_t m, std::size_t p, std::size_t c, std::size_t w) {
    std::vector<std::optional<double>> v(m_x.workloads[w].repetitions);
    for (const auto& r : m_points)
      if (r.platform == p && r.configuration == c && r.workload == w && r.ok &&
          r.repetition < v.size())
        v[r.repetition] = r.values[m];
    return v;
  };
  for (std::size_t m = 0; m < M; ++m) {
    const metric& met = m_x.metrics[m];
    std::size_t base = 0;
    while (m_x.configurations[base].name != m_x.baseline_of(met)) ++base;
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t c = 0; c < C; ++c) {
        auto& row = m_cells[m][p][c];
        for (std::size_t w = 0; w < W; ++w) {
          row[w].value = mean(m, p, c, w);
          row[w].compared = compare(met, row[w].value, mean(m, p, base, w));
          if (m_x.workloads[w].repetitions < 2) continue;
          // The spread over repetitions, each compared with the baseline's same repetition
          // (as results.csv's vs_baseline): for positive values the comparison of the means
          // lies within it.
          const auto v = by_repetition(m, p, c, w), b = by_repetition(m, p, base, w);
          std::vector<double> shown;
          for (std::size_t r = 0; r < v.size(); ++r) {
            const auto x = met.compare == compare_kind::none ? v[r] : compare(met, v[r], b[r]);
            if (!x) break;
            shown.push_back(*x);
          }
          if (shown.size() != v.size()) continue;
          row[w].min = *std::min_element(shown.begin(), shown.end());
          row[w].max = *std::max_element(shown.begin(), shown.end());
        }
        // Groups, then all workloads.
        for (std::size_t g = W; g < names.size(); ++g) {
          const bool all = names[g] == "geomean";
          std::vector<double> v;
          std::size_t of = 0;
          for (std::size_t w = 0; w < W; ++w) {
            if (!all && "group:" + m_x.workloads[w].group != names[g]) continue;
            // Only workloads the metric applies to, under the configuration (and, compared,
            // under its baseline too) the experiment runs them.
            if (!met.applies_to(w) || !m_x.runs(c, w) ||
                (met.compare != compare_kind::none && !m_x.runs(base, w)))
              continue;
            ++of;
            const auto& x = met.compare == compare_kind::none ? row[w].value : row[w].compared;
            if (x) v.push_back(*x);
          }
          auto agg = mean_of(v, met.geometric_mean);
          row[g].of = of;
          row[g].count = v.size();
          (met.compare == compare_kind::none ? row[g].value : row[g].compared) = agg;
        }
      }
  }
}

std::string experiment_results::csv() const {
  std::ostringstream o;
  o << "platform,configuration,workload,repetition,status,reused,seconds";
  for (const auto& m : m_x.metrics) {
    o << "," << csv_cell(m.name);
    if (m.compare != compare_kind::none) o << "," << csv_cell(m.name + ".vs_baseline");
  }
  o << ",stats,error\n";
  for (const auto& r : m_points) {
    o << csv_cell(m_x.platforms[r.platform].name) << ","
      << csv_cell(m_x.configurations[r.configuration].name) << ","
      << csv_cell(m_x.workloads[r.workload].name) << "," << r.repetition << ","
      << (r.ok ? "ok" : "failed") << "," << (r.reused ? "yes" : "no") << ","
      << fmt::format("{:.3f}", r.seconds);
    for (std::size_t m = 0; m < m_x.metrics.size(); ++m) {
      // The metric's baseline point of the same platform, workload and repetition.
      const point_result* b = nullptr;
      for (const auto& q : m_points)
        if (q.platform == r.platform && q.workload == r.workload && q.repetition == r.repetition &&
            m_x.configurations[q.configuration].name == m_x.baseline_of(m_x.metrics[m]))
          b = &q;
      const auto v = r.ok ? r.values[m] : std::nullopt;
      o << "," << opt_number(v);
      if (m_x.metrics[m].compare != compare_kind::none)
        o << ","
          << opt_number(compare(m_x.metrics[m], v, b && b->ok ? b->values[m] : std::nullopt));
    }
    o << "," << (r.ok ? "points/" + r.key + "/stats.json" : "") << "," << csv_cell(r.error) << "\n";
  }
  return o.str();
}

std::string experiment_results::json() const {
  nlohmann::json j;
  j["experiment"] = {{"name", m_x.name},
                     {"description", m_x.description},
                     {"file", m_x.file},
                     {"baseline", m_x.baseline},
                     {"gputlm_commit", m_commit}};
  j["platforms"] = nlohmann::json::array();
  for (const auto& p : m_x.platforms) {
    j["platforms"].push_back(p.name);
    j["platform_files"][p.name] = p.file;
  }
  j["configurations"] = nlohmann::json::array();
  for (const auto& c : m_x.configurations) {
    j["configurations"].push_back(c.name);
    auto& sets = j["configuration_overrides"][c.name] = nlohmann::json::array();
    for (const auto& s : c.sets) sets.push_back(s.set_option());
    if (!c.platform_file.empty()) j["configuration_platforms"][c.name] = c.platform_file;
    if (!c.mechanisms.empty()) j["configuration_mechanisms"][c.name] = c.mechanisms;
  }
  j["workloads"] = nlohmann::json::array();
  for (std::size_t wi = 0; wi < m_x.workloads.size(); ++wi) {
    const workload& w = m_x.workloads[wi];
    nlohmann::json forms = nlohmann::json::object();
    for (const auto& [cfg, f] : w.per_configuration) forms[cfg] = m_x.forms.at(f).describe();
    nlohmann::json runs = nlohmann::json::array();  // the configurations it runs under
    for (std::size_t c = 0; c < m_x.configurations.size(); ++c)
      if (m_x.runs(c, wi)) runs.push_back(m_x.configurations[c].name);
    j["workloads"].push_back(
        {{"name", w.name},
         {"group", w.group.empty() ? nlohmann::json(nullptr) : nlohmann::json(w.group)},
         {"source", w.describe()},
         {"per_configuration", forms},
         {"configurations", runs},
         {"repetitions", w.repetitions}});
  }
  j["groups"] = m_x.groups;
  j["metrics"] = nlohmann::json::array();
  for (const auto& m : m_x.metrics)
    j["metrics"].push_back({{"name", m.name},
                            {"value", m.text},
                            {"compare", to_string(m.compare)},
                            {"mean", m.geometric_mean ? "geometric" : "arithmetic"},
                            {"label", m.label},
                            {"unit", m.unit},
                            {"baseline", m_x.baseline_of(m)}});
  j["sweeps"] = nlohmann::json::array();
  for (const auto& s : m_x.sweeps) {
    nlohmann::json cs = nlohmann::json::array();
    for (const auto& v : s.values) cs.push_back(s.name + "=" + v);
    j["sweeps"].push_back({{"name", s.name},
                           {"parameter", s.parameter},
                           {"values", s.values},
                           {"with", s.with},
                           {"configurations", cs}});
  }
  j["points"] = nlohmann::json::array();
  for (const auto& r : m_points) {
    nlohmann::json p = {{"platform", m_x.platforms[r.platform].name},
                        {"configuration", m_x.configurations[r.configuration].name},
                        {"workload", m_x.workloads[r.workload].name},
                        {"repetition", r.repetition},
                        {"key", r.key},
                        {"status", r.ok ? "ok" : "failed"},
                        {"reused", r.reused},
                        {"seconds", r.seconds},
                        {"error", r.error},
                        {"stats", r.ok ? nlohmann::json("points/" + r.key + "/stats.json")
                                       : nlohmann::json(nullptr)}};
    for (std::size_t m = 0; m < m_x.metrics.size(); ++m) {
      p["metrics"][m_x.metrics[m].name] = opt_json(r.ok ? r.values[m] : std::nullopt);
      if (r.ok && !r.values[m] && !r.why[m].empty()) p["missing"][m_x.metrics[m].name] = r.why[m];
    }
    j["points"].push_back(std::move(p));
  }
  const auto names = rows();
  for (std::size_t m = 0; m < m_x.metrics.size(); ++m)
    for (std::size_t p = 0; p < m_x.platforms.size(); ++p)
      for (std::size_t c = 0; c < m_x.configurations.size(); ++c)
        for (std::size_t r = 0; r < names.size(); ++r) {
          const summary_cell& s = m_cells[m][p][c][r];
          nlohmann::json cellj = {{"value", opt_json(s.value)}, {"compared", opt_json(s.compared)}};
          if (s.of) cellj["of"] = s.of, cellj["count"] = s.count;
          if (s.min) cellj["min"] = *s.min, cellj["max"] = *s.max;
          j["summary"][m_x.metrics[m].name][m_x.platforms[p].name][m_x.configurations[c].name]
           [names[r]] = cellj;
        }
  j["paper"] = nlohmann::json::array();
  for (const auto& pv : m_x.paper) {
    std::size_t m = index_of_metric(m_x, pv.metric), p = 0, c = 0;
    while (m_x.platforms[p].name != pv.platform) ++p;
    while (m_x.configurations[c].name != pv.configuration) ++c;
    j["paper"].push_back({{"metric", pv.metric},
                          {"platform", pv.platform},
                          {"configuration", pv.configuration},
                          {"workload", pv.workload},
                          {"value", pv.value},
                          {"as_reported", pv.as_reported},
                          {"source", pv.source},
                          {"ours", cannot_move(m, p) ? nlohmann::json()
                                                     : opt_json(paper_side(m, p, c, pv.workload))},
                          {"cannot_move", cannot_move(m, p)}});
  }
  j["plots"] = nlohmann::json::array();
  for (const auto& pl : m_x.plots) {
    j["plots"].push_back({{"metric", pl.metric},
                          {"kind", pl.kind},
                          {"sweep", pl.sweep},
                          {"file", pl.file},
                          {"title", pl.title}});
    if (!pl.configurations.empty()) j["plots"].back()["configurations"] = pl.configurations;
  }
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string experiment_results::markdown(const std::vector<std::string>& plots,
                                         const std::string& plot_note) const {
  std::ostringstream o;
  o << "# Experiment: " << m_x.name << "\n\n";
  if (!m_x.description.empty()) o << m_x.description << "\n\n";
  o << "Produced by gputlm " << m_commit << " from `" << m_x.file << "`.\n\n";
  o << "## Configuration\n\n";
  o << "| | |\n|---|---|\n";
  for (const auto& p : m_x.platforms) o << "| platform `" << p.name << "` | `" << p.file << "` |\n";
  for (const auto& c : m_x.configurations) {
    std::string sets;
    if (!c.platform_file.empty()) sets = "on `" + c.platform_file + "`";
    for (const auto& m : c.mechanisms)
      sets += (sets.empty() ? "" : ", ") +
              ("with `" + std::filesystem::path(m).filename().string() + "`");
    for (const auto& s : c.sets) sets += (sets.empty() ? "" : ", ") + ("`" + s.set_option() + "`");
    o << "| configuration `" << c.name << "`" << (c.name == m_x.baseline ? " (baseline)" : "")
      << " | " << (sets.empty() ? "the platform as written" : sets) << " |\n";
  }
  for (const auto& w : m_x.workloads) {
    o << "| workload `" << w.name << "` | " << w.describe();
    for (const auto& [cfg, f] : w.per_configuration)
      o << "; under `" << cfg << "`: " << m_x.forms.at(f).describe();
    if (w.repetitions > 1)
      o << "; " << w.repetitions << " repetitions (seeds " << w.first_seed << "–"
        << w.first_seed + w.repetitions - 1 << ", mean)";
    if (!w.group.empty()) o << "; group " << w.group;
    o << " |\n";
  }
  o << "| points | " << m_points.size() << ": " << m_points.size() - failed() << " ok, " << failed()
    << " failed; " << m_points.size() - reused() << " run, " << reused() << " reused |\n\n";

  // Each metric's formats of measured values and of compared values (and the paper's, which
  // are of the compared kind), each from every number of its kind in the report.
  std::vector<std::pair<number_format, number_format>> formats;
  for (std::size_t m = 0; m < m_x.metrics.size(); ++m) {
    const metric& met = m_x.metrics[m];
    std::vector<double> values, compared;
    for (const auto& platform : m_cells[m])
      for (const auto& configuration : platform)
        for (const summary_cell& cell : configuration) {
          if (cell.value) values.push_back(*cell.value);
          if (cell.compared) compared.push_back(*cell.compared);
        }
    for (const auto& pv : m_x.paper)
      if (pv.metric == met.name) compared.push_back(pv.value);
    const bool ratio =
        met.compare == compare_kind::normalized || met.compare == compare_kind::speedup;
    formats.emplace_back(
        number_format(values),
        ratio ? number_format::ratio()
              : number_format(met.compare == compare_kind::none ? values : compared));
  }
  const auto names = rows();
  for (std::size_t m = 0; m < m_x.metrics.size(); ++m) {
    const metric& met = m_x.metrics[m];
    const auto& [value_format, compared_format] = formats[m];
    o << "## " << met.label << "\n\n`" << met.name << " = " << met.text << "`";
    if (!met.unit.empty()) o << " (" << met.unit << ")";
    switch (met.compare) {
      case compare_kind::speedup:
        o << "; speedup = " << m_x.baseline_of(met) << "'s value / the configuration's.";
        break;
      case compare_kind::normalized:
        o << "; normalised = the configuration's value / " << m_x.baseline_of(met) << "'s.";
        break;
      case compare_kind::difference:
        o << "; difference = the configuration's value − " << m_x.baseline_of(met) << "'s.";
        break;
      case compare_kind::none:
        o << "; values as measured.";
        break;
    }
    o << (met.compare == compare_kind::none ? "" : " The measured value follows in parentheses.")
      << "\n\n";
    for (std::size_t p = 0; p < m_x.platforms.size(); ++p) {
      o << "### " << m_x.platforms[p].name << "\n\n";
      const bool still = cannot_move(m, p);
      if (still)
        o << "**This comparison cannot move on " << m_x.platforms[p].name << "**: every "
          << "configuration gives every workload the baseline's value exactly, so the platform "
             "as configured cannot show the effect (for example an L1 that global loads "
             "bypass, in a cache-locality study); no paper value is shown beside it.\n\n";
      o << "| workload |";
      for (const auto& c : m_x.configurations) o << " " << c.name << " |";
      o << "\n|---|";
      for (std::size_t c = 0; c < m_x.configurations.size(); ++c) o << "---:|";
      o << "\n";
      for (std::size_t r = 0; r < names.size(); ++r) {
        o << "| " << row_label(names[r], met);
        const summary_cell& any = m_cells[m][p][0][r];
        if (any.of && any.count != any.of) o << " (" << any.count << " of " << any.of << ")";
        o << " |";
        for (std::size_t c = 0; c < m_x.configurations.size(); ++c) {
          const summary_cell& s = m_cells[m][p][c][r];
          if (r < m_x.workloads.size() && !m_x.runs(c, r)) {
            o << " not run |";
            continue;
          }
          if (met.compare == compare_kind::none) {
            o << " " << value_format(s.value);
          } else {
            o << " " << compared_format(s.compared);
            if (r < m_x.workloads.size()) o << " (" << value_format(s.value) << ")";
          }
          for (const auto& pv : m_x.paper)
            if (!still && pv.metric == met.name && pv.platform == m_x.platforms[p].name &&
                pv.configuration == m_x.configurations[c].name && pv.workload == names[r])
              o << " · paper " << compared_format(pv.value);
          o << " |";
        }
        o << "\n";
      }
      o << "\n";
    }
  }

  if (!m_x.paper.empty()) {
    o << "## Beside the papers\n\nThe paper's values are typed into the experiment file with their "
         "source; "
         "they are shown here for comparison, never computed.\n\n"
         "| metric | platform | configuration | workload | ours | paper | as reported | source |\n"
         "|---|---|---|---|---:|---:|---|---|\n";
    for (const auto& pv : m_x.paper) {
      std::size_t m = index_of_metric(m_x, pv.metric), p = 0, c = 0;
      while (m_x.platforms[p].name != pv.platform) ++p;
      while (m_x.configurations[c].name != pv.configuration) ++c;
      const number_format& shown = formats[m].second;
      o << "| " << pv.metric << " | " << pv.platform << " | " << pv.configuration << " | "
        << pv.workload << " | ";
      if (cannot_move(m, p))
        o << "cannot move on this platform | not compared | ";
      else
        o << shown(paper_side(m, p, c, pv.workload)) << " | " << shown(pv.value) << " | ";
      o << pv.as_reported << " | " << pv.source << " |\n";
    }
    o << "\n";
  }

  o << "## Plots\n\n";
  if (!plot_note.empty()) o << plot_note << "\n\n";
  for (const auto& f : plots) o << "![" << f << "](plots/" << f << ".png)\n\n";

  if (failed()) {
    o << "## Failed points\n\n| platform | configuration | workload | repetition | error "
         "|\n|---|---|---|---|---|\n";
    for (const auto& r : m_points)
      if (!r.ok)
        o << "| " << m_x.platforms[r.platform].name << " | "
          << m_x.configurations[r.configuration].name << " | " << m_x.workloads[r.workload].name
          << " | " << r.repetition << " | " << r.error << " |\n";
    o << "\n";
  }
  // Metrics a point could not compute (a path matching nothing in that run, a division by zero).
  std::ostringstream missing;
  for (const auto& r : m_points)
    for (std::size_t m = 0; r.ok && m < m_x.metrics.size(); ++m)
      if (!r.values[m] && m_x.metrics[m].applies_to(r.workload))
        missing << "| " << m_x.platforms[r.platform].name << " | "
                << m_x.configurations[r.configuration].name << " | "
                << m_x.workloads[r.workload].name << " | " << m_x.metrics[m].name << " | "
                << r.why[m] << " |\n";
  if (!missing.str().empty())
    o << "## Metrics without a value\n\n| platform | configuration | workload | metric | why "
         "|\n|---|---|---|---|---|\n"
      << missing.str() << "\n";
  return o.str();
}

}  // namespace gputlm::experiment
