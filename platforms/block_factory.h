// Module factory (GreenSocs/QBox style): a block's `type` in the platform YAML names a
// constructor registered here. A type may declare parameter groups: a mapping under the
// block named like a group (`dispatch: {implementation: rtl}`) holds parameters of the
// block itself, keyed `group.name` (`dispatch.implementation`), not a child block.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/common/component.h"

namespace gputlm::platforms {

class block_factory {
 public:
  using creator = std::function<component*(const sc_core::sc_module_name&, const block_context&)>;

  struct entry {
    creator create;
    std::string description;
    std::vector<std::string> groups;  // parameter groups
    bool has_group(const std::string& g) const {
      for (const auto& x : groups)
        if (x == g) return true;
      return false;
    }
  };

  // The factory with every built-in block type.
  static const block_factory& builtin();

  template <typename T>
  void add(const std::string& type, std::string description, std::vector<std::string> groups = {}) {
    m_types[type] = {[](const sc_core::sc_module_name& n, const block_context& c) -> component* {
                       return new T(n, c);
                     },
                     std::move(description), std::move(groups)};
  }

  const entry* find(const std::string& type) const {
    auto it = m_types.find(type);
    return it == m_types.end() ? nullptr : &it->second;
  }
  std::vector<std::string> types() const;

 private:
  std::map<std::string, entry> m_types;
};

}  // namespace gputlm::platforms
