#include "sc_main/experiment/metric_expr.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "models/common/vcd_writer.h"

namespace gputlm::experiment {

struct expression::node {
  enum class kind { number, name, path, negate, add, subtract, multiply, divide } what;
  double number = 0;
  std::string text;  // name or path
  std::string func;  // path: sum | mean | min | max | count
  std::unique_ptr<node> left, right;
  bool is_reference = false;  // name: another metric
};

namespace {

using node = expression::node;

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' ||
         c == ']' || c == '*' || c == '?';
}

class parser {
 public:
  explicit parser(const std::string& s) : m_s(s) {}

  std::unique_ptr<node> parse_all() {
    auto n = expr();
    skip();
    if (m_p != m_s.size()) fail("unexpected '" + std::string(1, m_s[m_p]) + "'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("at column " + std::to_string(m_p + 1) + ": " + what);
  }
  void skip() {
    while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p]))) ++m_p;
  }
  bool take(char c) {
    skip();
    if (m_p < m_s.size() && m_s[m_p] == c) {
      ++m_p;
      return true;
    }
    return false;
  }
  static std::unique_ptr<node> binary(node::kind k, std::unique_ptr<node> l,
                                      std::unique_ptr<node> r) {
    auto n = std::make_unique<node>();
    n->what = k;
    n->left = std::move(l);
    n->right = std::move(r);
    return n;
  }
  std::unique_ptr<node> expr() {
    auto l = term();
    for (;;) {
      if (take('+'))
        l = binary(node::kind::add, std::move(l), term());
      else if (take('-'))
        l = binary(node::kind::subtract, std::move(l), term());
      else
        return l;
    }
  }
  std::unique_ptr<node> term() {
    auto l = unary();
    for (;;) {
      if (take('*'))
        l = binary(node::kind::multiply, std::move(l), unary());
      else if (take('/'))
        l = binary(node::kind::divide, std::move(l), unary());
      else
        return l;
    }
  }
  std::unique_ptr<node> unary() {
    if (take('-')) {
      auto n = std::make_unique<node>();
      n->what = node::kind::negate;
      n->left = unary();
      return n;
    }
    return primary();
  }
  std::unique_ptr<node> primary() {
    skip();
    if (m_p >= m_s.size()) fail("expected a value, a path or '('");
    auto n = std::make_unique<node>();
    if (take('(')) {
      n = expr();
      if (!take(')')) fail("expected ')'");
      return n;
    }
    const char c = m_s[m_p];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      std::size_t used = 0;
      try {
        n->number = std::stod(m_s.substr(m_p), &used);
      } catch (const std::exception&) {
        fail("malformed number");
      }
      m_p += used;
      n->what = node::kind::number;
      return n;
    }
    const std::size_t start = m_p;
    while (m_p < m_s.size() && path_char(m_s[m_p])) ++m_p;
    if (m_p == start) fail("expected a value, a path or '('");
    std::string word = m_s.substr(start, m_p - start);
    if (take('(')) {
      static const char* funcs[] = {"sum", "mean", "min", "max", "count", "total"};
      if (std::find(std::begin(funcs), std::end(funcs), word) == std::end(funcs))
        fail("unknown function '" + word + "' (sum, mean, min, max, count, total)");
      skip();
      const std::size_t ps = m_p;
      while (m_p < m_s.size() && path_char(m_s[m_p])) ++m_p;
      if (m_p == ps) fail("expected a statistics path");
      n->what = node::kind::path;
      n->func = word;
      n->text = m_s.substr(ps, m_p - ps);
      if (!take(')')) fail("expected ')'");
      return n;
    }
    n->what = node::kind::name;
    n->text = std::move(word);
    return n;
  }

  const std::string& m_s;
  std::size_t m_p = 0;
};

// "gpu.smx[0].l1" -> {"gpu", "smx[0]", "l1"}
std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : path) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '.' && depth == 0)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

bool glob(const std::string& pattern, const std::string& text) {
  return vcd_writer::glob_match(pattern.c_str(), text.c_str());
}

// "kernels[*]" -> {"kernels", "*"}; false when the segment has no index.
bool split_index(const std::string& seg, std::string& name, std::string& index) {
  if (seg.empty() || seg.back() != ']') return false;
  const auto open = seg.rfind('[');
  if (open == std::string::npos) return false;
  name = seg.substr(0, open);
  index = seg.substr(open + 1, seg.size() - open - 2);
  return true;
}

void collect(const nlohmann::json& j, const std::vector<std::string>& pat, std::size_t i,
             std::vector<double>& out) {
  if (i == pat.size()) {
    if (j.is_number())
      out.push_back(j.get<double>());
    else if (j.is_boolean())
      out.push_back(j.get<bool>() ? 1.0 : 0.0);
    return;
  }
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::vector<std::string> key = segments(it.key());
    if (key.size() == 1 && it.value().is_array()) {
      std::string name, index;
      if (!split_index(pat[i], name, index) || !glob(name, key[0])) continue;
      const auto& arr = it.value();
      for (std::size_t e = 0; e < arr.size(); ++e)
        if (glob(index, std::to_string(e))) collect(arr[e], pat, i + 1, out);
      continue;
    }
    if (i + key.size() > pat.size()) continue;
    bool ok = true;
    for (std::size_t k = 0; ok && k < key.size(); ++k) ok = glob(pat[i + k], key[k]);
    if (ok) collect(it.value(), pat, i + key.size(), out);
  }
}

// A pattern segment against a name segment where "x[*]" stands for every index.
bool segment_matches(const std::string& pattern, const std::string& name) {
  std::string nn, ni, pn, pi;
  if (split_index(name, nn, ni) && ni == "*" && split_index(pattern, pn, pi)) return glob(pn, nn);
  return glob(pattern, name);
}

void walk(const node& n, std::vector<std::string>& paths, std::vector<std::string>& refs) {
  if (n.what == node::kind::path || (n.what == node::kind::name && !n.is_reference))
    paths.push_back(n.text);
  if (n.what == node::kind::name && n.is_reference) refs.push_back(n.text);
  if (n.left) walk(*n.left, paths, refs);
  if (n.right) walk(*n.right, paths, refs);
}

void mark_references(node& n, const std::set<std::string>& names) {
  if (n.what == node::kind::name) n.is_reference = names.count(n.text) != 0;
  if (n.left) mark_references(*n.left, names);
  if (n.right) mark_references(*n.right, names);
}

using lookup = std::function<std::optional<double>(const std::string&)>;

std::optional<double> evaluate(const node& n, const nlohmann::json& stats, const lookup& ref,
                               std::string& why) {
  switch (n.what) {
    case node::kind::number:
      return n.number;
    case node::kind::name:
      if (n.is_reference) {
        auto v = ref(n.text);
        if (!v) why = "metric '" + n.text + "' has no value";
        return v;
      }
      [[fallthrough]];
    case node::kind::path: {
      const std::vector<double> vals = match_path(stats, n.text);
      if (n.func == "count") return double(vals.size());
      if (n.func == "total" && vals.empty()) return 0.0;  // a mechanism's, where it is off
      if (vals.empty()) {
        why = "'" + n.text + "' matches no value";
        return std::nullopt;
      }
      if (n.func.empty()) {
        if (vals.size() != 1) {
          why = "'" + n.text + "' matches " + std::to_string(vals.size()) +
                " values (aggregate them with sum, mean, min or max)";
          return std::nullopt;
        }
        return vals[0];
      }
      if (n.func == "min") return *std::min_element(vals.begin(), vals.end());
      if (n.func == "max") return *std::max_element(vals.begin(), vals.end());
      double s = 0;
      for (double v : vals) s += v;
      return n.func == "mean" ? s / double(vals.size()) : s;
    }
    default:
      break;
  }
  auto l = evaluate(*n.left, stats, ref, why);
  if (!l) return l;
  if (n.what == node::kind::negate) return -*l;
  auto r = evaluate(*n.right, stats, ref, why);
  if (!r) return r;
  switch (n.what) {
    case node::kind::add:
      return *l + *r;
    case node::kind::subtract:
      return *l - *r;
    case node::kind::multiply:
      return *l * *r;
    default:
      if (*r == 0) {
        why = "division by zero";
        return std::nullopt;
      }
      return *l / *r;
  }
}

}  // namespace

expression::expression() = default;
expression::~expression() = default;
expression::expression(expression&&) noexcept = default;
expression& expression::operator=(expression&&) noexcept = default;

expression expression::parse(const std::string& text) {
  expression e;
  e.m_root = parser(text).parse_all();
  e.resolve({});
  return e;
}

void expression::resolve(const std::set<std::string>& metric_names) {
  mark_references(*m_root, metric_names);
  m_paths.clear();
  m_refs.clear();
  walk(*m_root, m_paths, m_refs);
}

std::optional<double> expression::eval(const nlohmann::json& stats, const lookup& reference,
                                       std::string& why) const {
  return evaluate(*m_root, stats, reference, why);
}

std::vector<double> match_path(const nlohmann::json& stats, const std::string& path) {
  std::vector<double> out;
  collect(stats, segments(path), 0, out);
  return out;
}

bool path_matches_any(const std::string& path, const std::vector<std::string>& names) {
  const std::vector<std::string> pat = segments(path);
  for (const auto& name : names) {
    const std::vector<std::string> seg = segments(name);
    if (seg.size() != pat.size()) continue;
    bool ok = true;
    for (std::size_t k = 0; ok && k < seg.size(); ++k) ok = segment_matches(pat[k], seg[k]);
    if (ok) return true;
  }
  return false;
}

}  // namespace gputlm::experiment
