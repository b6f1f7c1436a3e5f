// Typed block parameters (VCML `property<T>` style): a member named after its YAML key,
// with a default, a one-line description and a unit given by its type. The value is read
// from the block's configuration when the member is constructed; a wrong type or unit is
// an input_error naming the file, line, column and key path.
//
//   param<bytes>    m_size{*this, "size", {16 * 1024}, "capacity of the data array"};
//   param<cycles>   m_hit_latency{*this, "hit_latency", {1}, "tag+data access time"};
//   param<std::string> m_replacement{*this, "replacement", "lru", "victim choice",
//                                    {"lru", "fifo"}};
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/base/quantities.h"
#include "models/base/units.h"
#include "models/common/block_config.h"

namespace gputlm {

class param_base;

// What parameters are read from: a block (component), or another owner of a configuration
// (the power model's gating policy). Its parameters, in declaration order, are listed for
// `--dump-config` and for suggestions when a key is misspelled.
class param_owner {
 public:
  explicit param_owner(block_config& config) : m_config(config) {}
  param_owner(const param_owner&) = delete;
  param_owner& operator=(const param_owner&) = delete;
  virtual ~param_owner() = default;
  block_config& config() { return m_config; }
  const block_config& config() const { return m_config; }
  const std::vector<param_base*>& params() const { return m_params; }

 private:
  friend class param_base;
  block_config& m_config;
  std::vector<param_base*> m_params;
};

// A parameter is its value and one pointer to its description (name, text, source), kept
// out of line: a param<std::uint64_t> is 24 bytes (virtual table, description, value), so
// a block's parameters declared together share host cache lines and a hot path reads
// them in place.
class param_base {
 public:
  param_base(param_owner& owner, std::string name, std::string description);
  param_base(const param_base&) = delete;
  param_base& operator=(const param_base&) = delete;
  virtual ~param_base();

  const std::string& name() const { return m_meta->name; }
  const std::string& description() const { return m_meta->description; }
  // Key path for messages, e.g. gpu.smx[3].l1.size
  std::string path() const;
  // Where the value came from (the block's declaration when it is the default).
  const source_location& where() const { return m_meta->where; }
  bool is_default() const { return m_meta->is_default; }
  // The value as YAML text that reads back to the same value.
  virtual std::string to_yaml() const = 0;
  // A short hint of the accepted form, for messages: "a size like 16KiB".
  virtual std::string expected() const = 0;

  // Throws input_error at this parameter's source unless `ok`.
  void require(bool ok, const std::string& message) const;

 protected:
  // Looks the key up in the owner's configuration; returns nullptr when unset.
  config_value* lookup();
  // The value was read from `v`: its source becomes the parameter's.
  void read_from(const config_value& v);
  // The value was set at `at` (not read from a configuration value).
  void set_at(const source_location& at);
  [[noreturn]] void bad_value(const config_value& v) const;

 private:
  struct meta {
    param_owner& owner;
    std::string name;
    std::string description;
    source_location where;
    bool is_default = true;
  };
  std::unique_ptr<meta> m_meta;
};

template <typename T>
struct param_traits;

#define GPUTLM_SCALAR_TRAITS(T, PARSE, FORMAT, HINT)         \
  template <>                                                \
  struct param_traits<T> {                                   \
    static bool parse(const std::string& s, T& out) {        \
      auto v = PARSE(s);                                     \
      if (!v) return false;                                  \
      out = T{*v};                                           \
      return true;                                           \
    }                                                        \
    static std::string format(const T& v) { return FORMAT; } \
    static const char* hint() { return HINT; }               \
  };

GPUTLM_SCALAR_TRAITS(std::uint64_t, units::parse_uint, std::to_string(v), "a non-negative integer")
GPUTLM_SCALAR_TRAITS(std::int64_t, units::parse_int, std::to_string(v), "an integer")
GPUTLM_SCALAR_TRAITS(double, units::parse_double, units::format_double(v), "a number")
GPUTLM_SCALAR_TRAITS(bool, units::parse_bool, std::string(v ? "true" : "false"), "true or false")
GPUTLM_SCALAR_TRAITS(bytes, units::parse_bytes, units::format_bytes(v.value), "a size like 16KiB")
GPUTLM_SCALAR_TRAITS(cycles, units::parse_cycles, units::format_cycles(v.value),
                     "a cycle count like 120cycles")
GPUTLM_SCALAR_TRAITS(frequency, units::parse_frequency, units::format_frequency(v.hz),
                     "a frequency like 700MHz")
GPUTLM_SCALAR_TRAITS(duration, units::parse_time, units::format_time(v.seconds), "a time like 2ns")
GPUTLM_SCALAR_TRAITS(voltage, units::parse_voltage, units::format_voltage(v.volts),
                     "a voltage like 0.9V")
GPUTLM_SCALAR_TRAITS(power, units::parse_power, units::format_power(v.watts), "a power like 46.4W")
GPUTLM_SCALAR_TRAITS(energy, units::parse_energy, units::format_energy(v.joules),
                     "an energy like 1.2pJ")
#undef GPUTLM_SCALAR_TRAITS

std::string quote_yaml_scalar(const std::string& s);

// A bound every parameter of a type keeps, or nullptr: checked where the value is read.
template <typename T>
inline const char* param_bound(const T&) {
  return nullptr;
}
// A latency, interval or timeout of a block: at most 2^32 cycles (hours of simulated
// time; a larger one is a typo, and would overflow the femtosecond time base).
template <>
inline const char* param_bound<cycles>(const cycles& c) {
  return c.value > (1ull << 32) ? "must be at most 4294967296cycles" : nullptr;
}

template <>
struct param_traits<std::string> {
  static bool parse(const std::string& s, std::string& out) {
    out = s;
    return true;
  }
  static std::string format(const std::string& v) { return quote_yaml_scalar(v); }
  static const char* hint() { return "a string"; }
};

template <typename T>
class param : public param_base {
 public:
  param(param_owner& owner, std::string name, T def, std::string description)
      : param_base(owner, std::move(name), std::move(description)), m_value(std::move(def)) {
    if (config_value* v = lookup()) {
      if (v->is_sequence || !param_traits<T>::parse(v->text, m_value)) bad_value(*v);
      read_from(*v);
      if (const char* why = param_bound(m_value)) require(false, why);
    }
  }

  const T& get() const { return m_value; }
  const T& operator*() const { return m_value; }
  const T* operator->() const { return &m_value; }
  operator const T&() const { return m_value; }

  std::string to_yaml() const override { return param_traits<T>::format(m_value); }
  std::string expected() const override { return param_traits<T>::hint(); }

 private:
  T m_value;
};

static_assert(sizeof(param<std::uint64_t>) == 3 * sizeof(void*),
              "a parameter is its virtual table, its description and its value");

// A string parameter restricted to a set of names (policies, modes).
class choice_param : public param_base {
 public:
  choice_param(param_owner& owner, std::string name, std::string def, std::string description,
               std::vector<std::string> choices);
  const std::string& get() const { return m_value; }
  const std::string& operator*() const { return m_value; }
  bool is(const char* choice) const { return m_value == choice; }
  const std::vector<std::string>& choices() const { return m_choices; }
  std::string to_yaml() const override { return m_value; }
  std::string expected() const override;

 private:
  std::string m_value;
  std::vector<std::string> m_choices;
};

// A list of names (a scalar is a list of one), e.g. [l1_cache.data, l2_cache.*].
class string_list_param : public param_base {
 public:
  string_list_param(param_owner& owner, std::string name, std::vector<std::string> def,
                    std::string description);
  const std::vector<std::string>& get() const { return m_value; }
  const std::vector<std::string>& operator*() const { return m_value; }
  std::string to_yaml() const override;
  std::string expected() const override { return "a name or a list of names"; }

 private:
  std::vector<std::string> m_value;
};

// A list of unsigned integers, e.g. [4, 13, 4, 5, 145].
class list_param : public param_base {
 public:
  list_param(param_owner& owner, std::string name, std::vector<std::uint64_t> def,
             std::string description);
  const std::vector<std::uint64_t>& get() const { return m_value; }
  const std::vector<std::uint64_t>& operator*() const { return m_value; }
  const std::vector<std::uint64_t>* operator->() const { return &m_value; }
  std::string to_yaml() const override;
  std::string expected() const override { return "a list of non-negative integers like [4, 1]"; }

 private:
  std::vector<std::uint64_t> m_value;
};

}  // namespace gputlm
