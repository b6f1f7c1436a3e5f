#include "models/common/stats_forms.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gputlm {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr const char* k_form_key = "stats_form";
constexpr const char* k_instances = "instances";

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool is_dense_histogram(const json& v) {
  return v.is_object() && v.size() == 2 && v.contains("bucket_width") && v.contains("counts") &&
         v["counts"].is_array();
}

json sparse_histogram(const json& h) {
  json nonzero = json::array();
  const json& counts = h["counts"];
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (!(counts[i].is_number_unsigned() && counts[i].get<std::uint64_t>() == 0))
      nonzero.push_back(json::array({i, counts[i]}));
  return json{
      {"bucket_width", h["bucket_width"]}, {"buckets", counts.size()}, {"nonzero", nonzero}};
}

json compact_value(const json& v) { return is_dense_histogram(v) ? sparse_histogram(v) : v; }

// The path with every index replaced by [*], and the indices in order.
std::pair<std::string, std::vector<std::uint64_t>> type_of(const std::string& path) {
  std::string type;
  std::vector<std::uint64_t> idx;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '[') {
      std::size_t j = i + 1;
      while (j < path.size() && std::isdigit(static_cast<unsigned char>(path[j]))) ++j;
      if (j > i + 1 && j < path.size() && path[j] == ']') {
        idx.push_back(std::stoull(path.substr(i + 1, j - i - 1)));
        type += "[*]";
        i = j;
        continue;
      }
    }
    type += path[i];
  }
  return {type, idx};
}

// The compact form's table of one block: its statistics, histograms sparse.
ordered_json one_block(const json& stats) {
  ordered_json t = ordered_json::object();
  for (auto it = stats.begin(); it != stats.end(); ++it) t[it.key()] = compact_value(it.value());
  return t;
}

// One block type's table: the instances in numeric order, each statistic once when every
// instance has the same value. nullopt when the instances' statistics differ in name (they
// are then written one by one).
std::optional<ordered_json> type_table(const std::vector<const json*>& members,
                                       const std::vector<std::string>& paths) {
  const json& first = *members.front();
  if (first.contains(k_instances)) return std::nullopt;
  for (const json* s : members) {
    if (s->size() != first.size()) return std::nullopt;
    for (auto it = s->begin(); it != s->end(); ++it)
      if (!first.contains(it.key())) return std::nullopt;
  }
  ordered_json t = ordered_json::object();
  t[k_instances] = paths;
  for (auto it = first.begin(); it != first.end(); ++it) {
    json values = json::array();
    bool same = true;
    for (const json* m : members) {
      values.push_back(compact_value((*m)[it.key()]));
      same = same && values.back() == values.front();
    }
    t[it.key()] = same ? values.front() : values;
  }
  return t;
}

// The compact form's blocks, in key order.
ordered_json compact_blocks(const json& blocks) {
  std::map<std::string, std::vector<std::pair<std::vector<std::uint64_t>, std::string>>> types;
  std::map<std::string, ordered_json> out;
  for (auto it = blocks.begin(); it != blocks.end(); ++it) {
    auto [type, idx] = type_of(it.key());
    if (idx.empty())
      out[it.key()] = one_block(it.value());
    else
      types[type].emplace_back(std::move(idx), it.key());
  }
  for (auto& [type, members] : types) {
    std::sort(members.begin(), members.end());
    std::vector<const json*> stats;
    std::vector<std::string> paths;
    for (const auto& [idx, path] : members) {
      stats.push_back(&blocks[path]);
      paths.push_back(path);
    }
    if (auto t = type_table(stats, paths)) {
      out[type] = std::move(*t);
      continue;
    }
    for (std::size_t i = 0; i < paths.size(); ++i)  // instances that differ: one by one
      out[paths[i]] = one_block(*stats[i]);
  }
  ordered_json o = ordered_json::object();
  for (auto& [key, t] : out) o[key] = std::move(t);
  return o;
}

std::string indent(std::size_t d) { return std::string(d, ' '); }

// `v` with its first `levels` levels of objects and arrays one element per line.
template <typename J>
void print(std::ostream& os, const J& v, std::size_t depth, int levels) {
  if (levels <= 0 || !(v.is_object() || v.is_array()) || v.empty()) {
    os << v.dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  os << (v.is_object() ? "{\n" : "[\n");
  std::size_t i = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++i) {
    os << indent(depth + 1);
    if (v.is_object()) os << dump(json(it.key())) << ": ";
    // A kernel's TB log: one TB per line, as `gputlm run` streams it.
    const bool tb_log = v.is_object() && it.key() == "tb_log" && it.value().is_array();
    print(os, it.value(), depth + 1, tb_log ? 1 : levels - 1);
    os << (i + 1 < v.size() ? ",\n" : "\n");
  }
  os << indent(depth) << (v.is_object() ? "}" : "]");
}

// The compact form: the blocks as tables (a type, then its statistics, one per line), the
// other sections two levels deep (power three).
std::string compact_text(const json& full) {
  std::ostringstream os;
  json root = full;
  root[k_form_key] = "compact";
  os << "{\n";
  for (auto it = root.begin(); it != root.end(); ++it) {
    os << indent(1) << dump(json(it.key())) << ": ";
    if (it.key() == "blocks" && it.value().is_object())
      print(os, compact_blocks(it.value()), 1, 2);
    else
      print(os, it.value(), 1, it.key() == "power" ? 3 : 2);
    os << (std::next(it) != root.end() ? ",\n" : "\n");
  }
  os << "}\n";
  return os.str();
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

json dense_histogram(const json& h, const std::string& where) {
  if (!h.contains("buckets") || !h["buckets"].is_number_unsigned() ||
      h["buckets"].get<std::uint64_t>() == 0)
    bad(where, "a histogram needs \"buckets\", a positive count");
  if (!h.contains("nonzero") || !h["nonzero"].is_array())
    bad(where, "a histogram needs \"nonzero\", a list of [bucket, count]");
  const std::uint64_t n = h["buckets"].get<std::uint64_t>();
  if (n > (std::uint64_t{1} << 24)) bad(where, "more than 2^24 buckets");
  json counts = json::array();
  for (std::uint64_t i = 0; i < n; ++i) counts.push_back(std::uint64_t{0});
  for (const json& e : h["nonzero"]) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_number_unsigned() || !e[1].is_number())
      bad(where, "a \"nonzero\" entry is not [bucket, count]");
    const std::uint64_t b = e[0].get<std::uint64_t>();
    if (b >= n) bad(where, "bucket " + std::to_string(b) + " of " + std::to_string(n));
    counts[b] = e[1];
  }
  return json{{"bucket_width", h.value("bucket_width", json(1))}, {"counts", counts}};
}

json full_value(const json& v, const std::string& where) {
  if (v.is_object() && v.contains("nonzero")) return dense_histogram(v, where);
  if (v.is_object() || v.is_array()) bad(where, "not a statistic's value");
  return v;
}

void put(json& blocks, const std::string& path, const std::string& name, json value,
         const std::string& where) {
  json& b = blocks[path];
  if (b.contains(name)) bad(where, "block " + path + " has statistic " + name + " twice");
  b[name] = std::move(value);
}

}  // namespace

std::optional<stats_form> parse_stats_form(const std::string& text) {
  if (text == "compact") return stats_form::compact;
  if (text == "full") return stats_form::full;
  return std::nullopt;
}

std::string stats_text(const json& full, stats_form form) {
  if (form == stats_form::compact) return compact_text(full);
  return full.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

json full_stats(const json& doc) {
  if (!doc.is_object() || !doc.contains(k_form_key)) return doc;
  if (doc[k_form_key] != "compact") bad(k_form_key, "expected \"compact\"");
  json out = doc;
  out.erase(k_form_key);
  if (!doc.contains("blocks")) return out;
  const json& in = doc["blocks"];
  if (!in.is_object()) bad("blocks", "not an object");
  json blocks = json::object();
  for (auto it = in.begin(); it != in.end(); ++it) {
    const std::string& key = it.key();
    const std::string where = "blocks." + key;
    if (!it.value().is_object()) bad(where, "not an object");
    if (key.find("[*]") == std::string::npos) {
      if (blocks.contains(key)) bad(where, "block " + key + " twice");
      blocks[key] = json::object();
      for (auto s = it.value().begin(); s != it.value().end(); ++s)
        put(blocks, key, s.key(), full_value(s.value(), where + "." + s.key()), where);
      continue;
    }
    const json& t = it.value();
    if (!t.contains(k_instances) || !t[k_instances].is_array() || t[k_instances].empty())
      bad(where, "a block type needs \"instances\", a list of block paths");
    std::vector<std::string> paths;
    for (const json& p : t[k_instances]) {
      if (!p.is_string() || type_of(p.get<std::string>()).first != key)
        bad(where + ".instances", "not a path of type " + key + ": " + dump(p));
      paths.push_back(p.get<std::string>());
      if (blocks.contains(paths.back())) bad(where, "block " + paths.back() + " twice");
      blocks[paths.back()] = json::object();
    }
    for (auto s = t.begin(); s != t.end(); ++s) {
      if (s.key() == k_instances) continue;
      const std::string at = where + "." + s.key();
      if (s.value().is_array() && s.value().size() != paths.size())
        bad(at, "expected " + std::to_string(paths.size()) + " values (one per instance), found " +
                    std::to_string(s.value().size()));
      for (std::size_t i = 0; i < paths.size(); ++i)
        put(blocks, paths[i], s.key(),
            full_value(s.value().is_array() ? s.value()[i] : s.value(), at), where);
    }
  }
  out["blocks"] = std::move(blocks);
  return out;
}

}  // namespace gputlm
