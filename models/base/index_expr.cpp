#include "models/base/index_expr.h"

#include <cctype>
#include <stdexcept>

namespace gputlm {

namespace {
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

bool index_expr::uses_i(const std::string& text) {
  for (std::size_t k = 0; k < text.size(); ++k)
    if (text[k] == 'i' && (k == 0 || !word_char(text[k - 1])) &&
        (k + 1 == text.size() || !word_char(text[k + 1])))
      return true;
  return false;
}

bool index_expr::eval(std::int64_t& out) {
  if (!expr(out)) return false;
  skip();
  if (m_p != m_s.size()) return fail("unexpected '" + m_s.substr(m_p, 1) + "'");
  return true;
}

void index_expr::skip() {
  while (m_p < m_s.size() && m_s[m_p] == ' ') ++m_p;
}

bool index_expr::expr(std::int64_t& v) {
  if (!term(v)) return false;
  for (skip(); m_p < m_s.size() && (m_s[m_p] == '+' || m_s[m_p] == '-'); skip()) {
    char op = m_s[m_p++];
    std::int64_t r;
    if (!term(r)) return false;
    if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
      return fail("overflows 64-bit integers");
  }
  return true;
}

bool index_expr::term(std::int64_t& v) {
  if (!factor(v)) return false;
  for (skip(); m_p < m_s.size() && (m_s[m_p] == '*' || m_s[m_p] == '/' || m_s[m_p] == '%');
       skip()) {
    char op = m_s[m_p++];
    std::int64_t r;
    if (!factor(r)) return false;
    if (op == '*') {
      if (__builtin_mul_overflow(v, r, &v)) return fail("overflows 64-bit integers");
      continue;
    }
    if (r == 0) return fail("divides by zero");
    if (r == -1 && v == INT64_MIN) return fail("overflows 64-bit integers");
    v = op == '/' ? v / r : v % r;
  }
  return true;
}

bool index_expr::factor(std::int64_t& v) {
  skip();
  if (m_p >= m_s.size()) return fail("ends early");
  if (m_s[m_p] == '(') {
    ++m_p;
    if (!expr(v)) return false;
    skip();
    if (m_p >= m_s.size() || m_s[m_p] != ')') return fail("misses a ')'");
    ++m_p;
    return true;
  }
  if (std::isalpha(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_') {
    const std::size_t from = m_p;
    while (m_p < m_s.size() && word_char(m_s[m_p])) ++m_p;
    const std::string name = m_s.substr(from, m_p - from);
    if (name == "i") {
      if (!m_i) return fail("uses i, but there is no [*] for it to range over");
      v = *m_i;
      return true;
    }
    auto it = m_vars.find(name);
    if (it == m_vars.end()) return fail("'" + name + "' is not one of the platform's vars");
    v = it->second;
    return true;
  }
  if (!std::isdigit(static_cast<unsigned char>(m_s[m_p])))
    return fail("unexpected '" + m_s.substr(m_p, 1) + "'");
  v = 0;
  while (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p])))
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, m_s[m_p++] - '0', &v))
      return fail("has a number beyond 64-bit integers");
  return true;
}

std::string substitute_vars(const std::string& text, const var_values& vars,
                            const text_vars& texts) {
  std::string out;
  std::size_t p = 0;
  while (true) {
    const std::size_t open = text.find("${", p);
    if (open == std::string::npos) break;
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) throw std::invalid_argument("'${' is not closed by '}'");
    out += text.substr(p, open - p);
    const std::string e = text.substr(open + 2, close - open - 2);
    if (auto t = texts.find(e); t != texts.end()) {
      out += t->second;
      p = close + 1;
      continue;
    }
    std::int64_t v = 0;
    index_expr ex(e, vars);
    if (!ex.eval(v)) throw std::invalid_argument("bad expression '${" + e + "}': " + ex.why());
    out += std::to_string(v);
    p = close + 1;
  }
  return p == 0 ? text : out + text.substr(p);
}

}  // namespace gputlm
