// Integer expressions of a platform: a block's `count`, the indices of a binding and
// `${...}` in a parameter's value. Integers, the platform's `vars`, `i` (the index a
// binding's [*] ranges over), + - * / % and parentheses. Every operation is checked: an
// overflow (a huge literal, a product, INT64_MIN / -1), a division by zero or an unknown
// name makes the expression bad, with the reason in why().
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace gputlm {

using var_values = std::map<std::string, std::int64_t>;

class index_expr {
 public:
  // `i`: the value of `i` when the expression may use it (a binding's [*]), else none.
  index_expr(const std::string& text, const var_values& vars, std::optional<std::int64_t> i = {})
      : m_s(text), m_vars(vars), m_i(i) {}
  bool eval(std::int64_t& out);
  const std::string& why() const { return m_why; }
  // Whether the text names `i` (as a whole word).
  static bool uses_i(const std::string& text);

 private:
  bool fail(std::string why) {
    if (m_why.empty()) m_why = std::move(why);
    return false;
  }
  void skip();
  bool expr(std::int64_t& v);
  bool term(std::int64_t& v);
  bool factor(std::int64_t& v);

  std::string m_s;
  const var_values& m_vars;
  std::optional<std::int64_t> m_i;
  std::size_t m_p = 0;
  std::string m_why;
};

// Variables whose value is text (an address map), usable only as `${name}`.
using text_vars = std::map<std::string, std::string>;

// `text` with each `${expr}` replaced by its value (a text variable's text, or an
// expression's integer); throws std::invalid_argument with the reason when an expression
// is bad or a `${` is not closed.
std::string substitute_vars(const std::string& text, const var_values& vars,
                            const text_vars& texts = {});

}  // namespace gputlm
