#include "models/base/units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gputlm::units {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits "16 KiB" / "16KiB" into the number and the unit text.
struct number_and_unit {
  std::string_view number;
  std::string_view unit;
};

number_and_unit split(std::string_view text) {
  text = trim(text);
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool hex = text.size() > i + 1 && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X');
  if (hex) {
    i += 2;
    while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]))) ++i;
  } else {
    while (i < text.size()) {
      char c = text[i];
      bool exponent = (c == 'e' || c == 'E') && i + 1 < text.size() &&
                      (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' ||
                       text[i + 1] == '+');
      if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
        ++i;
      } else if (exponent) {
        i += 2;
      } else {
        break;
      }
    }
  }
  return {text.substr(0, i), trim(text.substr(i))};
}

std::optional<double> to_double(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string tmp(s);
  char* end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (end != tmp.c_str() + tmp.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> to_uint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

struct unit_scale {
  std::string_view name;
  double scale;
};

template <std::size_t N>
std::optional<double> parse_scaled(std::string_view text, const std::array<unit_scale, N>& table,
                                   bool unit_required) {
  auto [num, unit] = split(text);
  auto v = to_double(num);
  if (!v) return std::nullopt;
  if (unit.empty()) {
    if (unit_required) return std::nullopt;
    return *v;
  }
  for (const auto& u : table)
    if (unit == u.name) return *v * u.scale;
  return std::nullopt;
}

// Prints v/scale with the largest unit that keeps a short exact text.
template <std::size_t N>
std::string format_scaled(double v, const std::array<unit_scale, N>& table) {
  if (v == 0) return "0" + std::string(table.back().name);
  for (const auto& u : table) {  // largest unit giving a whole number: 1417MHz, not 1.417GHz
    double scaled = v / u.scale;
    if (std::fabs(scaled) >= 1.0 && scaled == std::floor(scaled) && scaled * u.scale == v)
      return format_double(scaled) + std::string(u.name);
  }
  for (const auto& u : table) {  // table ordered from the largest unit down
    double scaled = v / u.scale;
    if (std::fabs(scaled) >= 1.0) {
      std::string s = format_double(scaled);
      // Keep only forms that read back to exactly v.
      auto back = to_double(s);
      if (back && *back * u.scale == v) return s + std::string(u.name);
    }
  }
  return format_double(v / table.back().scale) + std::string(table.back().name);
}

constexpr std::array<unit_scale, 4> k_freq{{{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}}};
constexpr std::array<unit_scale, 5> k_time{
    {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}}};
constexpr std::array<unit_scale, 2> k_volt{{{"V", 1}, {"mV", 1e-3}}};
constexpr std::array<unit_scale, 4> k_power{{{"W", 1}, {"mW", 1e-3}, {"uW", 1e-6}, {"nW", 1e-9}}};
constexpr std::array<unit_scale, 6> k_energy{
    {{"J", 1}, {"mJ", 1e-3}, {"uJ", 1e-6}, {"nJ", 1e-9}, {"pJ", 1e-12}, {"fJ", 1e-15}}};

}  // namespace

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  auto [num, unit] = split(text);
  auto v = to_uint(num);
  if (!v) return std::nullopt;
  std::uint64_t scale = 0;
  if (unit.empty() || unit == "B")
    scale = 1;
  else if (unit == "KiB" || unit == "KB" || unit == "K")
    scale = 1ull << 10;
  else if (unit == "MiB" || unit == "MB" || unit == "M")
    scale = 1ull << 20;
  else if (unit == "GiB" || unit == "GB" || unit == "G")
    scale = 1ull << 30;
  else
    return std::nullopt;
  if (*v > UINT64_MAX / scale) return std::nullopt;
  return *v * scale;
}

std::optional<double> parse_frequency(std::string_view text) {
  auto v = parse_scaled(text, k_freq, true);
  if (!v || *v <= 0) return std::nullopt;
  return v;
}
std::optional<double> parse_time(std::string_view text) { return parse_scaled(text, k_time, true); }
std::optional<double> parse_voltage(std::string_view text) { return parse_scaled(text, k_volt, true); }
std::optional<double> parse_power(std::string_view text) { return parse_scaled(text, k_power, true); }
std::optional<double> parse_energy(std::string_view text) { return parse_scaled(text, k_energy, true); }

std::optional<std::uint64_t> parse_cycles(std::string_view text) {
  auto [num, unit] = split(text);
  if (!unit.empty() && unit != "cycles" && unit != "cycle") return std::nullopt;
  return to_uint(num);
}

std::optional<std::uint64_t> parse_uint(std::string_view text) { return to_uint(trim(text)); }

std::optional<std::int64_t> parse_int(std::string_view text) {
  text = trim(text);
  bool negative = !text.empty() && text.front() == '-';
  if (negative || (!text.empty() && text.front() == '+')) text.remove_prefix(1);
  auto v = to_uint(text);
  if (!v || *v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return negative ? -static_cast<std::int64_t>(*v) : static_cast<std::int64_t>(*v);
}

std::optional<double> parse_double(std::string_view text) { return to_double(trim(text)); }

std::optional<bool> parse_bool(std::string_view text) {
  text = trim(text);
  if (text == "true" || text == "yes" || text == "on" || text == "True" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "False" || text == "0") return false;
  return std::nullopt;
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes != 0) {
    if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
    if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
    if (bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  }
  return std::to_string(bytes) + "B";
}

std::string format_frequency(double hz) { return format_scaled(hz, k_freq); }
std::string format_time(double s) { return format_scaled(s, k_time); }
std::string format_cycles(std::uint64_t c) { return std::to_string(c) + "cycles"; }
std::string format_voltage(double v) { return format_scaled(v, k_volt); }
std::string format_power(double w) { return format_scaled(w, k_power); }
std::string format_energy(double j) { return format_scaled(j, k_energy); }

std::string format_double(double v) {
  // Shortest %g precision that reads back to the same double.
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace gputlm::units
