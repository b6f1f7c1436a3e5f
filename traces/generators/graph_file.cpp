// Graph files (Matrix Market coordinate, edge lists) and the choice of a kernel's graph.
#include "traces/generators/graph_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>

#include "models/base/input_error.h"

namespace gputlm::traces::generators {

namespace {
// A file read line by line; every problem is reported at the current line.
class line_reader {
 public:
  line_reader(const std::string& path, const std::string& key)
      : m_path(path), m_key(key), m_in(path, std::ios::binary) {
    if (!m_in) {
      const std::string why = std::strerror(errno);
      throw input_error(source_location{m_path, 0, 0}, m_key, "cannot open the file: " + why);
    }
  }

  bool next(std::string& line) {
    if (!std::getline(m_in, line)) {
      if (m_in.bad()) fail("read error");
      return false;
    }
    ++m_line;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw input_error(source_location{m_path, m_line, 0}, m_key, message);
  }

 private:
  std::string m_path, m_key;
  std::ifstream m_in;
  std::uint64_t m_line = 0;
};

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool blank(std::string_view line) { return split(line).empty(); }

// A token as the message quotes it: at most 32 characters.
std::string quoted(std::string_view word) {
  if (word.size() <= 32) return "'" + std::string(word) + "'";
  return "'" + std::string(word.substr(0, 29)) + "...'";
}

std::uint64_t unsigned_number(const line_reader& in, std::string_view word,
                              const std::string& what) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec == std::errc::result_out_of_range) in.fail(what + " " + quoted(word) + " is too large");
  if (ec != std::errc() || end != word.data() + word.size())
    in.fail(what + " " + quoted(word) + " is not a non-negative integer");
  return v;
}

std::string lower(std::string_view word) {
  std::string s(word);
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

csr_graph read_matrix_market(const std::string& path, const std::string& key) {
  line_reader in(path, key);
  std::string line;
  if (!in.next(line)) in.fail("empty file: expected the '%%MatrixMarket' header");
  const std::vector<std::string_view> head = split(line);
  if (head.empty() || head[0] != "%%MatrixMarket")
    in.fail("expected the header '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (head.size() != 5)
    in.fail("the header has " + std::to_string(head.size()) +
            " words; expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (lower(head[1]) != "matrix") in.fail(quoted(head[1]) + " is not 'matrix'");
  if (lower(head[2]) != "coordinate")
    in.fail(quoted(head[2]) + " is not supported: a graph needs the 'coordinate' format");
  const std::string field = lower(head[3]), symmetry = lower(head[4]);
  if (field != "pattern" && field != "real" && field != "integer")
    in.fail("field " + quoted(head[3]) + " is not supported (pattern, real or integer)");
  if (symmetry != "general" && symmetry != "symmetric")
    in.fail("symmetry " + quoted(head[4]) + " is not supported (general or symmetric)");
  const std::size_t words = field == "pattern" ? 2 : 3;

  bool sized = false;
  while (!sized && in.next(line)) sized = !blank(line) && line[0] != '%';
  if (!sized) in.fail("the file ends before the size line 'rows cols entries'");
  const std::vector<std::string_view> size = split(line);
  if (size.size() != 3) in.fail("expected the size line 'rows cols entries'");
  const std::uint64_t rows = unsigned_number(in, size[0], "size line: rows");
  const std::uint64_t cols = unsigned_number(in, size[1], "size line: cols");
  const std::uint64_t entries = unsigned_number(in, size[2], "size line: entries");
  if (rows != cols)
    in.fail("the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
            "; a graph needs a square matrix");
  if (rows == 0) in.fail("the matrix has no rows: a graph needs a vertex");
  if (rows > max_graph_vertices)
    in.fail(std::to_string(rows) + " vertices exceed the limit of 2^24");
  if (entries > max_graph_edges)
    in.fail(std::to_string(entries) + " entries exceed the limit of 2^28");

  std::vector<std::uint64_t> edges;
  edges.reserve(std::min<std::uint64_t>(entries, 1u << 20));  // the size line may lie
  while (in.next(line)) {
    if (line.empty() || line[0] == '%' || blank(line)) continue;
    if (edges.size() == entries)
      in.fail("more entries than the " + std::to_string(entries) + " of the size line");
    const std::vector<std::string_view> w = split(line);
    if (w.size() != words)
      in.fail(std::string("expected '") + (words == 2 ? "i j" : "i j value") + "' (" + field +
              "), found " + std::to_string(w.size()) + " words");
    std::uint64_t ij[2];
    for (int k = 0; k < 2; ++k) {
      ij[k] = unsigned_number(in, w[k], k == 0 ? "row" : "column");
      if (ij[k] < 1 || ij[k] > rows)
        in.fail(std::string(k == 0 ? "row " : "column ") + std::to_string(ij[k]) +
                " is outside 1.." + std::to_string(rows));
    }
    if (words == 3) {
      const std::string value(w[2]);
      char* end = nullptr;
      errno = 0;
      if (field == "integer") {
        (void)std::strtoll(value.c_str(), &end, 10);
      } else {
        const double v = std::strtod(value.c_str(), &end);
        if (!std::isfinite(v)) end = nullptr;
      }
      if (end == nullptr || end == value.c_str() || *end != '\0' || errno == ERANGE)
        in.fail("value " + quoted(w[2]) + " is not " +
                (field == "integer" ? "an integer" : "a number"));
    }
    edges.push_back(((ij[0] - 1) << 32) | (ij[1] - 1));
  }
  if (edges.size() < entries)
    in.fail("the file ends after " + std::to_string(edges.size()) + " of " +
            std::to_string(entries) + " entries");
  return make_undirected_graph(std::uint32_t(rows), std::move(edges));
}

csr_graph read_edge_list(const std::string& path, const std::string& key) {
  line_reader in(path, key);
  std::string line;
  std::vector<std::uint64_t> edges;
  std::uint64_t top = 0;
  while (in.next(line)) {
    const std::vector<std::string_view> w = split(std::string_view(line).substr(0, line.find('#')));
    if (w.empty()) continue;
    if (w.size() != 2) in.fail("expected 'u v', found " + std::to_string(w.size()) + " words");
    std::uint64_t uv[2];
    for (int k = 0; k < 2; ++k) {
      uv[k] = unsigned_number(in, w[k], "vertex");
      if (uv[k] >= max_graph_vertices)
        in.fail("vertex " + std::to_string(uv[k]) + " exceeds the limit of 2^24 - 1");
      top = std::max(top, uv[k]);
    }
    if (edges.size() == max_graph_edges) in.fail("more than 2^28 edges");
    edges.push_back((uv[0] << 32) | uv[1]);
  }
  if (edges.empty()) throw input_error(source_location{path, 0, 0}, key, "no edges in the file");
  return make_undirected_graph(std::uint32_t(top + 1), std::move(edges));
}

bool is_graph_file(const std::string& value) {
  return ends_with(value, ".mtx") || ends_with(value, ".el") || ends_with(value, ".txt");
}
}  // namespace

csr_graph read_graph_file(const std::string& path, const std::string& key) {
  if (ends_with(path, ".mtx")) return read_matrix_market(path, key);
  if (ends_with(path, ".el") || ends_with(path, ".txt")) return read_edge_list(path, key);
  throw input_error(source_location{path, 0, 0}, key,
                    "unknown graph file type (.mtx, .el or .txt)");
}

std::vector<param_desc> graph_params(const std::string& name, const std::string& builtin,
                                     const std::string& builtin_description) {
  std::vector<param_desc> p = {
      param_desc::text(name, builtin,
                       "input: " + builtin + " (" + builtin_description +
                           "), citation, banded, or a .mtx, .el or .txt file"),
      param_desc::integer("steps", 32, 1, max_graph_vertices,
                          "citation: time steps (of vertices / steps papers each)"),
      param_desc::integer("cite", 3, 1, 64, "citation: papers of the previous step a paper cites"),
      param_desc::integer("band", 32, 1, max_graph_vertices, "banded: half-width of the band"),
      param_desc::real("long_range", 0.05, 0.0, 1.0,
                       "banded: probability that an edge leaves the band")};
  for (param_desc& d : p) d.noted_at_default = false;
  return p;
}

csr_graph graph_input(const param_set& ps, const std::string& name, const std::string& builtin,
                      std::uint32_t vertices, std::uint32_t degree, std::uint64_t seed) {
  const std::string& kind = ps.str(name);
  const bool generated = kind == "citation" || kind == "banded";
  if (generated && std::uint64_t(vertices) * degree > max_graph_edges)
    param_set::fail("degree", "the graph would exceed 2^28 edges");
  if (kind == "citation") {
    const csr_graph cites =
        make_citation_graph(vertices, ps.u32("steps"), ps.u32("cite"), degree, seed);
    std::vector<std::uint64_t> edges;
    edges.reserve(cites.col.size());
    for (std::uint32_t v = 0; v < vertices; ++v)
      for (std::uint32_t i = cites.row_ptr[v]; i < cites.row_ptr[v + 1]; ++i)
        edges.push_back((std::uint64_t(v) << 32) | cites.col[i]);
    return make_undirected_graph(vertices, std::move(edges));
  }
  if (kind == "banded")
    return make_banded_graph(vertices, degree, ps.u32("band"), ps.real("long_range"), seed);
  if (is_graph_file(kind)) return read_graph_file(kind, name);
  param_set::fail(
      name, "'" + kind + "' is not " + builtin + ", citation, banded or a .mtx, .el or .txt file");
}

csr_graph kernel_graph(const param_set& ps) {
  const std::uint32_t scale = ps.u32("scale"), degree = ps.u32("degree");
  const std::uint64_t seed = ps.u64("seed");
  if (ps.str("graph") == "rmat") return make_rmat_graph(scale, degree, seed);
  return graph_input(ps, "graph", "rmat", std::uint32_t(1) << scale, degree, seed);
}

std::vector<param_desc> graph_search_params(const std::string& kernel) {
  std::vector<param_desc> p = {
      param_desc::integer("scale", 10, 1, 24, "2^scale vertices (generated graphs)"),
      param_desc::integer("degree", 8, 1, 64,
                          "edges generated per vertex (rmat, citation, banded)"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the graph generator"),
      param_desc::integer("source", 0, 0, (1u << 24) - 1, "BFS source vertex"),
      param_desc::integer("block", 256, 32, 1024, "threads per TB of the " + kernel)};
  for (param_desc& d : graph_params("graph", "rmat", "R-MAT")) p.push_back(std::move(d));
  return p;
}

}  // namespace gputlm::traces::generators
