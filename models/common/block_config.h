// The effective configuration of one block instance, as the elaborator resolved it from
// the platform YAML, its `overrides:` section and `--set` options: parameter values by
// name, each with the place it came from. Parameters take their value from here at
// construction; whatever no parameter took is an unknown key, reported by the elaborator.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/base/input_error.h"

namespace gputlm {

struct config_value {
  std::string text;                  // scalar text (empty for a sequence)
  std::vector<std::string> items;    // sequence items
  bool is_sequence = false;
  source_location where;
  bool used = false;
};

class block_config {
 public:
  block_config() = default;
  block_config(std::string path, std::string type, source_location where)
      : m_path(std::move(path)), m_type(std::move(type)), m_where(std::move(where)) {}

  const std::string& path() const { return m_path; }  // hierarchical name, e.g. gpu.smx[3].l1
  const std::string& type() const { return m_type; }
  const source_location& where() const { return m_where; }  // the block's declaration

  void set(const std::string& key, config_value v) { m_values[key] = std::move(v); }
  bool has(const std::string& key) const { return m_values.count(key) != 0; }
  void erase(const std::string& key) { m_values.erase(key); }

  // The value of `key`, marked as used; nullptr when the YAML does not set it.
  config_value* take(const std::string& key) {
    auto it = m_values.find(key);
    if (it == m_values.end()) return nullptr;
    it->second.used = true;
    return &it->second;
  }

  const std::map<std::string, config_value>& values() const { return m_values; }

 private:
  std::string m_path;
  std::string m_type;
  source_location m_where;
  std::map<std::string, config_value> m_values;
};

}  // namespace gputlm
