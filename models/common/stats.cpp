#include "models/common/stats.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "models/base/units.h"
#include "models/common/stats_forms.h"

namespace gputlm {

stats_registry::entry& stats_registry::make(const std::string& block, const std::string& name,
                                            std::string description, std::string group) {
  auto& e = m_blocks[block][name];
  if (e.count || e.hist || e.derived)
    throw std::logic_error("statistic registered twice: " + block + "." + name);
  e.description = std::move(description);
  e.group = std::move(group);
  return e;
}

void stats_registry::add(const std::string& block, const std::string& name, const counter& c,
                         std::string description, std::string group) {
  make(block, name, std::move(description), std::move(group)).count = &c;
}

void stats_registry::add(const std::string& block, const std::string& name, const histogram& h,
                         std::string description, std::string group) {
  make(block, name, std::move(description), std::move(group)).hist = &h;
}

void stats_registry::add(const std::string& block, const std::string& name,
                         std::function<double()> value, std::string description,
                         std::string group) {
  make(block, name, std::move(description), std::move(group)).derived = std::move(value);
}

bool stats_registry::written(const entry& e) const {
  return e.group.empty() ||
         std::find(m_enabled.begin(), m_enabled.end(), e.group) != m_enabled.end();
}

namespace {
nlohmann::json value_of(const stats_registry::entry& e) {
  if (e.count) return e.count->value();
  if (e.hist) {
    nlohmann::json h;
    h["bucket_width"] = e.hist->bucket_width();
    h["counts"] = e.hist->counts();
    return h;
  }
  double v = e.derived();
  if (v != v) return nullptr;  // NaN (e.g. 0/0) is written as null
  return v;
}
}  // namespace

nlohmann::json stats_registry::document() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : m_summary) j[k] = v;
  for (const auto& [k, v] : m_counts) j[k] = v;
  for (const auto& [k, v] : m_summary_text) j[k] = v;
  for (const auto& [k, v] : m_sections) j[k] = nlohmann::json::parse(v);
  nlohmann::json blocks = nlohmann::json::object();
  for (const auto& [block, stats] : m_blocks) {
    nlohmann::json b = nlohmann::json::object();
    for (const auto& [name, e] : stats)
      if (written(e)) b[name] = value_of(e);
    if (!b.empty()) blocks[block] = std::move(b);
  }
  j["blocks"] = std::move(blocks);
  return j;
}

std::string stats_registry::to_json() const { return stats_text(document(), stats_form::full); }

std::vector<std::string> stats_registry::block_stat_paths() const {
  std::vector<std::string> out;
  for (const auto& [block, stats] : m_blocks)
    for (const auto& [name, e] : stats) {
      const std::string path =
          "blocks." + block + "." + name + (e.group.empty() ? "" : " " + e.group);
      if (e.hist) {
        const std::string base = "blocks." + block + "." + name;
        const std::string tag = e.group.empty() ? "" : " " + e.group;
        out.push_back(base + ".bucket_width" + tag);
        out.push_back(base + ".counts[*]" + tag);
      } else {
        out.push_back(path);
      }
    }
  return out;
}

void stats_registry::write_summary(std::ostream& os) const {
  for (const auto& [k, v] : m_summary_text) os << "  " << k << ": " << v << "\n";
  for (const auto& [k, v] : m_counts) os << "  " << k << ": " << v << "\n";
  for (const auto& [k, v] : m_summary) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);  // the JSON keeps full precision
    os << "  " << k << ": " << buf << "\n";
  }
}

}  // namespace gputlm
