// A run's statistics with the RTL blocks' own counters taken out (each block's
// `<group>.rtl_edges`, which the C++ implementation does not have), for comparing an RTL
// run with the C++ run byte for byte; `edges` gets their sum (the RTL was exercised when
// it is not zero).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gputlm::testing {

inline std::string without_rtl_edges(const std::string& stats_json, double* edges) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(stats_json);
  double sum = 0;
  for (auto& [block, values] : j["blocks"].items()) {
    (void)block;
    for (auto it = values.begin(); it != values.end();) {
      const std::string key = it.key();
      if (key.size() >= 10 && key.compare(key.size() - 10, 10, ".rtl_edges") == 0) {
        sum += it.value().get<double>();
        it = values.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (edges) *edges = sum;
  return j.dump(1);
}

}  // namespace gputlm::testing
