// Module factory (GreenSocs/QBox style): a block's `type` in the platform YAML names a
// constructor registered here. A type may declare parameter groups: a mapping under the
// block named like a group (`dispatch: {implementation: rtl}`, `policy: {type: rb_ts}`)
// holds parameters of the block itself, keyed `group.name` (`dispatch.implementation`,
// `policy.type`), not a child block; a plain value of a group is its `type` (a strategy's,
// models/common/strategy.h).
//
// Every block registers itself in its own source file, so that a new block (a mechanism's
// controller, a test's) is a file and nothing else:
//   GPUTLM_BLOCK("idle_smx_counter", idle_smx_counter, "what it is", {});
// (Every program links the whole models library: models/CMakeLists.txt.)
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/common/component.h"

namespace gputlm {

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

  // The factory with every block type registered.
  static const block_factory& builtin() { return registry(); }
  static block_factory& registry() {
    static block_factory f;
    return f;
  }

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
  std::vector<std::string> types() const {
    std::vector<std::string> v;
    for (const auto& [k, e] : m_types) v.push_back(k);
    return v;
  }

 private:
  std::map<std::string, entry> m_types;
};

template <class T>
struct block_registration {
  block_registration(const char* type, const char* description,
                     std::vector<std::string> groups = {}) {
    block_factory::registry().add<T>(type, description, std::move(groups));
  }
};

}  // namespace gputlm

#define GPUTLM_BLOCK_CAT2(a, b) a##b
#define GPUTLM_BLOCK_CAT(a, b) GPUTLM_BLOCK_CAT2(a, b)
#define GPUTLM_BLOCK(TYPE, CLASS, DESCRIPTION, ...)                                          \
  static const ::gputlm::block_registration<CLASS> GPUTLM_BLOCK_CAT(gputlm_block_, \
                                                                                __LINE__)(    \
      TYPE, DESCRIPTION, __VA_ARGS__)
