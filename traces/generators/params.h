// Kernel parameters of `gputlm trace gen` (`--param k=v`): each generator declares its
// parameters with a default, a range and a one-line description; param_set checks the
// command line against them and reports any problem as an input_error naming the parameter.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gputlm::traces::generators {

struct param_desc {
  enum class kind : std::uint8_t { integer, real, choice, text };

  std::string name;
  kind type = kind::integer;
  std::string default_value;
  std::string description;
  double min = 0, max = 0;           // integer and real: inclusive range
  std::vector<std::string> choices;  // choice: allowed values
  // false: the trace's note leaves the parameter out while it has its default, so that
  // adding such a parameter to a kernel leaves the kernel's existing traces byte-identical.
  bool noted_at_default = true;

  static param_desc integer(std::string name, std::uint64_t def, std::uint64_t min,
                            std::uint64_t max, std::string description);
  static param_desc real(std::string name, double def, double min, double max,
                         std::string description);
  static param_desc choice(std::string name, std::vector<std::string> choices,
                           std::string description);  // default: the first choice
  // Any non-empty string; the generator checks it (e.g. a file name).
  static param_desc text(std::string name, std::string def, std::string description);
};

class param_set {
 public:
  // `assignments` are "name=value" strings, as given to --param; later ones win.
  param_set(const std::vector<param_desc>& descs, const std::vector<std::string>& assignments);

  std::uint64_t u64(const std::string& name) const;
  std::uint32_t u32(const std::string& name) const;
  double real(const std::string& name) const;
  const std::string& str(const std::string& name) const;

  // Reports a constraint between parameters (e.g. "n must be a multiple of b").
  [[noreturn]] static void fail(const std::string& name, const std::string& message);

 private:
  const std::string& raw(const std::string& name) const;

  std::map<std::string, std::string> m_values;
};

}  // namespace gputlm::traces::generators
