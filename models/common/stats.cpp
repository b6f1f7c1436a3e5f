#include "models/common/stats.h"

#include <nlohmann/json.hpp>
#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "models/common/units.h"

namespace gputlm {

stats_registry::entry& stats_registry::make(const std::string& block, const std::string& name,
                                            std::string description) {
  auto& e = m_blocks[block][name];
  if (e.count || e.hist || e.derived)
    throw std::logic_error("statistic registered twice: " + block + "." + name);
  e.description = std::move(description);
  return e;
}

void stats_registry::add(const std::string& block, const std::string& name, const counter& c,
                         std::string description) {
  make(block, name, std::move(description)).count = &c;
}

void stats_registry::add(const std::string& block, const std::string& name, const histogram& h,
                         std::string description) {
  make(block, name, std::move(description)).hist = &h;
}

void stats_registry::add(const std::string& block, const std::string& name,
                         std::function<double()> value, std::string description) {
  make(block, name, std::move(description)).derived = std::move(value);
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

std::string stats_registry::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : m_summary) j[k] = v;
  for (const auto& [k, v] : m_counts) j[k] = v;
  for (const auto& [k, v] : m_summary_text) j[k] = v;
  for (const auto& [k, v] : m_sections) j[k] = nlohmann::json::parse(v);
  nlohmann::json blocks = nlohmann::json::object();
  for (const auto& [block, stats] : m_blocks) {
    nlohmann::json b = nlohmann::json::object();
    for (const auto& [name, e] : stats) b[name] = value_of(e);
    blocks[block] = std::move(b);
  }
  j["blocks"] = std::move(blocks);
  return j.dump(1) + "\n";
}

std::vector<std::string> stats_registry::block_stat_paths() const {
  std::vector<std::string> out;
  for (const auto& [block, stats] : m_blocks)
    for (const auto& [name, e] : stats) {
      const std::string path = "blocks." + block + "." + name;
      if (e.hist) {
        out.push_back(path + ".bucket_width");
        out.push_back(path + ".counts[*]");
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
