// Parsing and checking of `--param k=v` against a generator's declared parameters.
#include "traces/generators/params.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"

namespace gputlm::traces::generators {

namespace {
const source_location k_command_line{"<command line>", 0, 0};

std::string format_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e18) return std::to_string(std::int64_t(v));
  std::string s = std::to_string(v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

bool parse_u64(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s[0] == '-' || s[0] == '+') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (errno != 0 || end == s.c_str() || *end != '\0') return false;
  out = v;
  return true;
}

bool parse_real(const std::string& s, double& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end == s.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

void check(const param_desc& d, const std::string& value) {
  switch (d.type) {
    case param_desc::kind::integer: {
      std::uint64_t v = 0;
      if (!parse_u64(value, v))
        param_set::fail(d.name, "'" + value + "' is not a non-negative integer");
      if (double(v) < d.min || double(v) > d.max)
        param_set::fail(d.name, value + " is out of range [" + format_number(d.min) + ", " +
                                    format_number(d.max) + "]");
      break;
    }
    case param_desc::kind::real: {
      double v = 0;
      if (!parse_real(value, v)) param_set::fail(d.name, "'" + value + "' is not a number");
      if (v < d.min || v > d.max)
        param_set::fail(d.name, value + " is out of range [" + format_number(d.min) + ", " +
                                    format_number(d.max) + "]");
      break;
    }
    case param_desc::kind::choice: {
      for (const auto& c : d.choices)
        if (c == value) return;
      std::string list;
      for (const auto& c : d.choices) list += (list.empty() ? "" : ", ") + c;
      param_set::fail(d.name, "'" + value + "' is not one of: " + list);
    }
    case param_desc::kind::text:
      if (value.empty()) param_set::fail(d.name, "empty value");
      // The value goes into the trace's one-line note.
      for (unsigned char c : value)
        if (c < 0x20 || c == 0x7f) param_set::fail(d.name, "control character in the value");
      break;
  }
}
}  // namespace

param_desc param_desc::integer(std::string name, std::uint64_t def, std::uint64_t min,
                               std::uint64_t max, std::string description) {
  param_desc d;
  d.name = std::move(name);
  d.type = kind::integer;
  d.default_value = std::to_string(def);
  d.description = std::move(description);
  d.min = double(min);
  d.max = double(max);
  return d;
}

param_desc param_desc::real(std::string name, double def, double min, double max,
                            std::string description) {
  param_desc d;
  d.name = std::move(name);
  d.type = kind::real;
  d.default_value = format_number(def);
  d.description = std::move(description);
  d.min = min;
  d.max = max;
  return d;
}

param_desc param_desc::choice(std::string name, std::vector<std::string> choices,
                              std::string description) {
  param_desc d;
  d.name = std::move(name);
  d.type = kind::choice;
  d.default_value = choices.at(0);
  d.description = std::move(description);
  d.choices = std::move(choices);
  return d;
}

param_desc param_desc::text(std::string name, std::string def, std::string description) {
  param_desc d;
  d.name = std::move(name);
  d.type = kind::text;
  d.default_value = std::move(def);
  d.description = std::move(description);
  return d;
}

param_set::param_set(const std::vector<param_desc>& descs,
                     const std::vector<std::string>& assignments) {
  for (const auto& d : descs) m_values[d.name] = d.default_value;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw input_error(k_command_line, "--param", "'" + a + "' is not of the form name=value");
    const std::string name = a.substr(0, eq), value = a.substr(eq + 1);
    const param_desc* desc = nullptr;
    for (const auto& d : descs)
      if (d.name == name) desc = &d;
    if (desc == nullptr) {
      std::string known;
      std::vector<std::string> names;
      for (const auto& d : descs) {
        known += (known.empty() ? "" : ", ") + d.name;
        names.push_back(d.name);
      }
      const std::string near = closest_match(name, names);
      fail(name, "unknown parameter for this kernel" +
                     (near.empty() ? std::string() : "; did you mean '" + near + "'?") +
                     " (known: " + known + ")");
    }
    check(*desc, value);
    m_values[name] = value;
  }
}

void param_set::fail(const std::string& name, const std::string& message) {
  throw input_error(k_command_line, name, message);
}

const std::string& param_set::raw(const std::string& name) const {
  auto it = m_values.find(name);
  if (it == m_values.end()) throw std::logic_error("generator reads undeclared parameter " + name);
  return it->second;
}

std::uint64_t param_set::u64(const std::string& name) const {
  std::uint64_t v = 0;
  if (!parse_u64(raw(name), v)) throw std::logic_error("parameter " + name + " is not an integer");
  return v;
}

std::uint32_t param_set::u32(const std::string& name) const {
  const std::uint64_t v = u64(name);
  if (v > 0xffffffffull) fail(name, "value too large");
  return std::uint32_t(v);
}

double param_set::real(const std::string& name) const {
  double v = 0;
  if (!parse_real(raw(name), v)) throw std::logic_error("parameter " + name + " is not a number");
  return v;
}

const std::string& param_set::str(const std::string& name) const { return raw(name); }

}  // namespace gputlm::traces::generators
