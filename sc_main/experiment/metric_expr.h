// A metric of an experiment: an arithmetic expression over the values of a run's `--stats`
// JSON (docs/experiments.md, "Metrics").
//
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := '-' unary | primary
//   primary := NUMBER | '(' expr ')' | FUNC '(' PATH ')' | NAME
//   FUNC    := sum | mean | min | max | count
//
// A PATH names values from the JSON's root: keys joined by '.', an array element as
// `name[i]`; in a segment `*` matches any characters (`blocks.gpu.smx[*].l1.hits`,
// `kernels[*].cycles`). A function aggregates every value the path matches; a bare NAME
// is another metric of the file, else a path that must match exactly one value.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gputlm::experiment {

class expression {
 public:
  struct node;

  expression();
  ~expression();
  expression(expression&&) noexcept;
  expression& operator=(expression&&) noexcept;

  // Throws std::invalid_argument with a message naming the column.
  static expression parse(const std::string& text);
  // Names that are other metrics become references; the rest are paths.
  void resolve(const std::set<std::string>& metric_names);

  const std::vector<std::string>& paths() const { return m_paths; }
  const std::vector<std::string>& references() const { return m_refs; }

  // The value on `stats`; nullopt with `why` set when a path matches nothing (or more than
  // one value for a bare path), a reference has no value, or a division is by zero.
  std::optional<double> eval(
      const nlohmann::json& stats,
      const std::function<std::optional<double>(const std::string&)>& reference,
      std::string& why) const;

 private:
  std::unique_ptr<node> m_root;
  std::vector<std::string> m_paths;
  std::vector<std::string> m_refs;
};

// Every numeric value of `stats` that `path` matches, in document order.
std::vector<double> match_path(const nlohmann::json& stats, const std::string& path);

// Whether `path` matches one of `names`: statistic names as `gputlm elaborate
// --list-stats` prints them, where `[*]` stands for any array index.
bool path_matches_any(const std::string& path, const std::vector<std::string>& names);

}  // namespace gputlm::experiment
