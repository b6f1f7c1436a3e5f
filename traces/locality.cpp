// The locality graph of a kernel, L[i][j] = |S_i ∩ S_j| over the TBs' global read sets
// (Tripathy, PhD thesis, UC Riverside 2021, §3.2; docs/tb-scheduling.md, "The locality
// graph"): the streaming builder, the METIS graph file, the JSON summary and the cache.
#include "traces/locality.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "models/base/input_error.h"
#include "traces/content_hash.h"

namespace gputlm::traces {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t no_list = 0xffffffffu;
// Bumped whenever what the cache file holds changes meaning.
constexpr const char* cache_format = "gputlm-locality-1";

// Per granule: the TBs that read it, each once. TBs arrive in increasing id order, so a TB
// already recorded is the last one, and every list comes out sorted. Most granules are read
// by one TB only: their entry holds it inline, a list exists only from the second TB on.
class sharer_table {
 public:
  void add(std::uint64_t line, std::uint32_t tb) {
    auto [it, fresh] = m_lines.try_emplace(line, entry{tb, tb, no_list});
    if (fresh) return;
    entry& e = it->second;
    if (e.last == tb) return;
    if (e.list == no_list) {
      e.list = std::uint32_t(m_lists.size());
      m_lists.push_back({e.first, tb});
    } else {
      m_lists[e.list].push_back(tb);
    }
    e.last = tb;
  }
  std::uint64_t lines() const { return m_lines.size(); }
  // The lists of TBs sharing a granule (two or more TBs each); frees the per-granule map.
  std::vector<std::vector<std::uint32_t>> take_lists() {
    decltype(m_lines)().swap(m_lines);
    return std::move(m_lists);
  }

 private:
  struct entry {
    std::uint32_t first, last, list;
  };
  std::unordered_map<std::uint64_t, entry> m_lines;
  std::vector<std::vector<std::uint32_t>> m_lists;
};

struct list_hash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const {
    return std::size_t(XXH3_64bits(v.data(), v.size() * sizeof(std::uint32_t)));
  }
};

bool is_power_of_two(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

unsigned log2_of(std::uint32_t v) {
  unsigned s = 0;
  while ((1u << s) < v) ++s;
  return s;
}

// Adds every granule TB `tb` reads to `table`.
void add_tb_reads(const tb_trace& tb, std::uint32_t id, unsigned shift, sharer_table& table) {
  std::uint64_t addrs[32];
  std::uint64_t previous = ~std::uint64_t(0);  // neighbouring lanes often share a granule
  for (const warp_trace& w : tb.warps)
    for (const warp_instruction& in : w.insts) {
      if (!is_global_read(in)) continue;
      const std::uint32_t n = expand_addresses(w, in, addrs);
      const std::uint64_t extent = in.access_size ? in.access_size - 1u : 0u;
      for (std::uint32_t l = 0; l < n; ++l)
        for (std::uint64_t g = addrs[l] >> shift; g <= (addrs[l] + extent) >> shift; ++g)
          if (g != previous) table.add(previous = g, id);
    }
}

// Pair weights from the sharer lists: identical lists (every granule of a row of A, say)
// are counted once with their multiplicity, then each contributes to all its pairs.
std::unordered_map<std::uint64_t, std::uint64_t> pair_weights(
    std::vector<std::vector<std::uint32_t>> lists) {
  std::unordered_map<std::vector<std::uint32_t>, std::uint64_t, list_hash> groups;
  for (auto& l : lists) ++groups[std::move(l)];
  lists.clear();
  lists.shrink_to_fit();
  std::unordered_map<std::uint64_t, std::uint64_t> pairs;
  for (const auto& [list, count] : groups)
    for (std::size_t a = 0; a < list.size(); ++a)
      for (std::size_t b = a + 1; b < list.size(); ++b)
        pairs[std::uint64_t(list[a]) << 32 | list[b]] += count;
  return pairs;
}

void fill_adjacency(locality_graph& g,
                    const std::unordered_map<std::uint64_t, std::uint64_t>& pairs) {
  g.adj.assign(g.tbs, {});
  for (const auto& [key, w] : pairs) {
    const auto i = std::uint32_t(key >> 32), j = std::uint32_t(key);
    g.adj[i].emplace_back(j, w);
    g.adj[j].emplace_back(i, w);
  }
  for (auto& a : g.adj) std::sort(a.begin(), a.end());
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- METIS reading ------------------------------------------------------------------------

// Whitespace-separated tokens of one line with their 1-based columns.
struct token {
  std::string text;
  std::uint64_t column;
};

std::vector<token> split(const std::string& line) {
  std::vector<token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back({line.substr(start, i - start), start + 1});
  }
  return out;
}

class metis_reader {
 public:
  metis_reader(std::istream& is, std::string name) : m_is(is), m_name(std::move(name)) {}

  locality_graph read() {
    locality_graph g;
    std::vector<token> head = next_content_line(g);
    if (head.empty()) fail(0, "", "no header line `n m [fmt [ncon]]`");
    read_header(head);
    g.tbs = std::uint32_t(m_n);
    g.adj.assign(g.tbs, {});
    std::uint64_t entries = 0;
    for (std::uint32_t v = 0; v < g.tbs; ++v) {
      if (!next_vertex_line())
        fail(0, "", fmt::format("{} vertex lines expected, {} found", m_n, v));
      read_vertex(v, split(m_line), g);
      entries += g.adj[v].size();
    }
    while (next_vertex_line())
      if (!split(m_line).empty()) fail(1, "", "text after the last vertex line");
    if (entries != 2 * m_m)
      throw input_error(
          {m_name, m_header_line, m_m_column}, "m",
          fmt::format("header says {} edges, the vertex lines hold {} neighbour entries "
                      "(2 per edge)",
                      m_m, entries));
    check_symmetric(g);
    g.summarize();
    return g;
  }

 private:
  [[noreturn]] void fail(std::uint64_t column, const std::string& key, const std::string& msg) {
    throw input_error({m_name, m_lineno, column}, key, msg);
  }

  bool next_line() {
    if (!std::getline(m_is, m_line)) return false;
    ++m_lineno;
    return true;
  }

  // The next line that is not a comment (an empty line is a vertex without neighbours).
  bool next_vertex_line() {
    while (next_line()) {
      const std::size_t first = m_line.find_first_not_of(" \t\r");
      if (first == std::string::npos || m_line[first] != '%') return true;
    }
    return false;
  }

  // Skips comment lines (keeping ours' `% key value` figures); returns the header's tokens.
  std::vector<token> next_content_line(locality_graph& g) {
    while (next_line()) {
      std::vector<token> t = split(m_line);
      if (t.empty()) continue;
      if (t[0].text[0] != '%') return t;
      note_comment(t, g);
    }
    return {};
  }

  void note_comment(const std::vector<token>& t, locality_graph& g) {
    if (t.size() < 3 || t[0].text != "%") return;
    const std::string& key = t[1].text;
    std::string value = t[2].text;
    if (key == "kernel_name") {  // the rest of the line: a demangled name has spaces
      value = m_line.substr(t[2].column - 1);
      while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
    }
    try {
      if (key == "kernel_id") g.kernel_id = std::uint32_t(std::stoul(value));
      if (key == "kernel_name") g.kernel_name = value;
      if (key == "granularity") g.granularity = std::uint32_t(std::stoul(value));
      if (key == "distinct_lines") g.distinct_lines = std::stoull(value);
      if (key == "shared_lines") g.shared_lines = std::stoull(value);
      if (key == "build_seconds") g.build_seconds = std::stod(value);
    } catch (const std::exception&) {
      fail(t[2].column, key, fmt::format("'{}' is not a number", value));
    }
  }

  std::uint64_t number(const token& t, const std::string& key) {
    std::uint64_t v = 0;
    if (t.text.empty() || t.text.size() > 19)
      fail(t.column, key, "'" + t.text + "' is not a number");
    for (char c : t.text) {
      if (c < '0' || c > '9') fail(t.column, key, "'" + t.text + "' is not a non-negative integer");
      v = v * 10 + std::uint64_t(c - '0');
    }
    return v;
  }

  void read_header(const std::vector<token>& h) {
    if (h.size() < 2 || h.size() > 4) fail(1, "header", "expected `n m [fmt [ncon]]`");
    m_n = number(h[0], "n");
    m_m = number(h[1], "m");
    m_header_line = m_lineno;
    m_m_column = h[1].column;
    if (m_n > 0xffffffffull) fail(h[0].column, "n", "too many vertices");
    if (h.size() >= 3) {
      const std::string& f = h[2].text;
      if (f.size() > 3 || f.find_first_not_of("01") != std::string::npos)
        fail(h[2].column, "fmt", "'" + f + "' is not a METIS fmt (up to three 0/1 digits)");
      const std::string p = std::string(3 - f.size(), '0') + f;
      m_vsize = p[0] == '1';
      m_vwgt = p[1] == '1';
      m_ewgt = p[2] == '1';
    }
    if (h.size() == 4) {
      m_ncon = number(h[3], "ncon");
      if (!m_vwgt) fail(h[3].column, "ncon", "given without vertex weights in fmt");
    }
  }

  void read_vertex(std::uint32_t v, const std::vector<token>& t, locality_graph& g) {
    std::size_t k = (m_vsize ? 1 : 0) + (m_vwgt ? m_ncon : 0);
    if (t.size() < k) fail(1, "vertex", fmt::format("vertex {} lacks its size or weights", v + 1));
    for (std::size_t i = 0; i < k; ++i) number(t[i], "vertex");
    const std::size_t step = m_ewgt ? 2 : 1;
    if ((t.size() - k) % step != 0)
      fail(t.back().column, "vertex",
           fmt::format("vertex {}: a neighbour without its weight", v + 1));
    auto& a = g.adj[v];
    for (; k < t.size(); k += step) {
      const std::uint64_t u = number(t[k], "neighbour");
      if (u < 1 || u > m_n)
        fail(t[k].column, "neighbour", fmt::format("{} is not in 1..{}", u, m_n));
      if (u == v + 1) fail(t[k].column, "neighbour", "a vertex lists itself");
      const std::uint64_t w = m_ewgt ? number(t[k + 1], "weight") : 1;
      if (w == 0) fail(t[k + 1].column, "weight", "edge weights must be positive");
      a.emplace_back(std::uint32_t(u - 1), w);
    }
    std::sort(a.begin(), a.end());
    for (std::size_t i = 1; i < a.size(); ++i)
      if (a[i].first == a[i - 1].first)
        fail(1, "neighbour", fmt::format("vertex {} lists {} twice", v + 1, a[i].first + 1));
  }

  void check_symmetric(const locality_graph& g) {
    for (std::uint32_t i = 0; i < g.tbs; ++i)
      for (const auto& [j, w] : g.adj[i])
        if (g.weight(j, i) != w)
          throw input_error({m_name, 0, 0}, "neighbour",
                            fmt::format("edge {}-{} of weight {} is not listed the same way by "
                                        "vertex {}",
                                        i + 1, j + 1, w, j + 1));
  }

  std::istream& m_is;
  std::string m_name;
  std::string m_line;
  std::uint64_t m_lineno = 0;
  std::uint64_t m_n = 0, m_m = 0, m_ncon = 1;
  std::uint64_t m_header_line = 0, m_m_column = 0;
  bool m_vsize = false, m_vwgt = false, m_ewgt = false;
};

// Writes `text` to `path` through a temporary name in the same folder and a rename.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw input_error({path, 0, 0}, "", "cannot write file");
    body(f);
    f.flush();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw input_error({path, 0, 0}, "", "cannot write file");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw input_error({path, 0, 0}, "", "cannot write file: " + ec.message());
  }
}

// The directory a trace path stands for (a kernelslist.g path: its directory), absolute and
// without a trailing separator, so that `<it>.locality` lies beside it.
fs::path trace_root(const std::string& trace_path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(trace_path), ec);
  if (ec) p = fs::absolute(fs::path(trace_path)).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  if (fs::is_regular_file(p, ec) && !is_binary_trace(p.string())) p = p.parent_path();
  return p;
}

}  // namespace

// ---- the graph ----------------------------------------------------------------------------

std::uint64_t locality_graph::weight(std::uint32_t i, std::uint32_t j) const {
  if (i >= adj.size()) return 0;
  const auto& a = adj[i];
  auto it = std::lower_bound(a.begin(), a.end(), std::make_pair(j, std::uint64_t(0)));
  return it != a.end() && it->first == j ? it->second : 0;
}

void locality_graph::summarize() {
  std::uint64_t entries = 0, weights = 0;
  shared_tbs = 0;
  for (const auto& a : adj) {
    entries += a.size();
    shared_tbs += a.empty() ? 0 : 1;
    for (const auto& e : a) weights += e.second;
  }
  edges = entries / 2;
  total_weight = weights / 2;
  const double total = double(tbs) * double(tbs);
  spscore = tbs ? 1.0 - double(entries) / total : 1.0;
  degree_of_sharing =
      shared_tbs && tbs > 1 ? double(entries) / (double(shared_tbs) * double(tbs - 1)) : 0.0;
}

bool is_global_read(const warp_instruction& in) {
  return in.space == mem_space::global && in.num_dst > 0 && in.special == special_op::none;
}

locality_graph build_locality_graph(std::uint32_t tbs, const tb_source& tb,
                                    std::uint32_t granularity_bytes) {
  if (!is_power_of_two(granularity_bytes))
    throw std::invalid_argument(
        fmt::format("granularity {} is not a power of two", granularity_bytes));
  const auto t0 = std::chrono::steady_clock::now();
  const unsigned shift = log2_of(granularity_bytes);
  sharer_table table;
  for (std::uint32_t id = 0; id < tbs; ++id) add_tb_reads(*tb(id), id, shift, table);
  locality_graph g;
  g.tbs = tbs;
  g.granularity = granularity_bytes;
  g.distinct_lines = table.lines();
  auto lists = table.take_lists();
  g.shared_lines = lists.size();
  fill_adjacency(g, pair_weights(std::move(lists)));
  g.summarize();
  g.build_seconds = seconds_since(t0);
  return g;
}

locality_graph build_locality_graph(kernel_reader& k, std::uint32_t granularity_bytes) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t n = k.tb_count();
  if (n > 0xffffffffull)
    throw input_error({k.source(), 0, 0}, "grid", "more than 2^32 thread blocks");
  locality_graph g = build_locality_graph(
      std::uint32_t(n), [&](std::uint32_t id) { return k.read_tb(id); }, granularity_bytes);
  g.kernel_id = k.info().id;
  g.kernel_name = k.info().name;
  g.build_seconds = seconds_since(t0);
  return g;
}

// ---- METIS files --------------------------------------------------------------------------

void write_metis(std::ostream& os, const locality_graph& g) {
  os << "% gputlm locality graph: L[i][j] = |S_i & S_j|, global read granules shared by "
        "TBs i and j\n";
  os << "% (Tripathy thesis 3.2; docs/tb-scheduling.md). Vertex v is TB v-1 (linear id).\n";
  os << "% kernel_id " << g.kernel_id << "\n";
  if (!g.kernel_name.empty()) os << "% kernel_name " << g.kernel_name << "\n";
  os << "% granularity " << g.granularity << "\n";
  os << "% distinct_lines " << g.distinct_lines << "\n";
  os << "% shared_lines " << g.shared_lines << "\n";
  os << fmt::format("% build_seconds {:.6f}\n", g.build_seconds);
  std::uint64_t entries = 0;
  for (const auto& a : g.adj) entries += a.size();
  os << g.tbs << " " << entries / 2 << " 001\n";
  std::string line;
  for (const auto& a : g.adj) {
    line.clear();
    for (const auto& [j, w] : a) {
      if (!line.empty()) line += ' ';
      line += fmt::format("{} {}", j + 1, w);
    }
    line += '\n';
    os << line;
  }
}

void write_metis_file(const std::string& path, const locality_graph& g) {
  write_atomically(path, [&](std::ostream& os) { write_metis(os, g); });
}

locality_graph read_metis(std::istream& is, const std::string& name) {
  return metis_reader(is, name).read();
}

locality_graph read_metis_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw input_error({path, 0, 0}, "", "cannot read file");
  return read_metis(f, path);
}

std::string locality_summary_json(const std::vector<locality_graph>& graphs) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const locality_graph& g : graphs) {
    nlohmann::ordered_json k;
    k["id"] = g.kernel_id;
    k["name"] = g.kernel_name;
    k["tbs"] = g.tbs;
    k["granularity"] = g.granularity;
    k["distinct_lines"] = g.distinct_lines;
    k["shared_lines"] = g.shared_lines;
    k["edges"] = g.edges;
    k["total_weight"] = g.total_weight;
    k["spscore"] = g.spscore;
    k["shared_tbs"] = g.shared_tbs;
    k["degree_of_sharing"] = g.degree_of_sharing;
    k["build_seconds"] = g.build_seconds;
    k["cached"] = g.from_cache;
    kernels.push_back(std::move(k));
  }
  nlohmann::ordered_json doc;
  doc["kernels"] = std::move(kernels);
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// ---- the cache ----------------------------------------------------------------------------

std::string locality_cache::file_for(std::size_t command_index, std::uint32_t granularity) const {
  content_hasher h;
  h.add(cache_format)
      .add(trace_key)
      .add(std::to_string(command_index))
      .add(std::to_string(granularity));
  return (fs::path(folder) / (h.hex() + ".graph")).string();
}

locality_cache open_locality_cache(const std::string& trace_path) {
  const fs::path root = trace_root(trace_path);
  locality_cache c;
  c.folder = root.string() + ".locality";
  c.trace_key = content_hasher().add_tree(root.string()).hex();
  return c;
}

locality_graph cached_locality_graph(const locality_cache& cache, std::size_t command_index,
                                     std::uint32_t granularity, application_trace& app,
                                     double* build_seconds) {
  if (build_seconds) *build_seconds = 0;
  const std::string file = cache.file_for(command_index, granularity);
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) {
    try {
      // Used only when it is this kernel's graph: the file is named by the trace's content
      // hash, but a file copied or renamed into the folder is checked before it is trusted.
      locality_graph g = read_metis_file(file);
      const kernel_info& k = app.kernel(command_index).info();
      if (g.granularity == granularity && g.kernel_id == k.id && g.kernel_name == k.name &&
          g.tbs == k.grid.count() && g.adj.size() == g.tbs) {
        g.from_cache = true;
        return g;
      }
    } catch (const input_error&) {
      // A damaged cache file: rebuild it below.
    }
  }
  locality_graph g = build_locality_graph(app.kernel(command_index), granularity);
  if (build_seconds) *build_seconds = g.build_seconds;
  fs::create_directories(cache.folder, ec);
  if (!ec && fs::is_directory(cache.folder, ec)) {
    try {
      write_metis_file(file, g);
    } catch (const input_error&) {
      // A read-only place: the graph stays in memory only.
    }
  }
  return g;
}

locality_graph cached_locality_graph(const std::string& trace_path, std::uint32_t kernel_index,
                                     std::uint32_t granularity, application_trace& app,
                                     double* build_seconds) {
  return cached_locality_graph(open_locality_cache(trace_path), kernel_index, granularity, app,
                               build_seconds);
}

}  // namespace gputlm::traces
