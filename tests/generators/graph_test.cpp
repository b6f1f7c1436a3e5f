// Graph inputs: the Matrix Market and edge-list reader against hand-built graphs, its errors,
// the citation and banded generators against properties recomputed here from their
// definitions (traces/generators/input_gen.h), and the graph parameter of the kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gen_test_util.h"
#include "models/base/input_error.h"
#include "traces/generators/gen_cli.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::generators::test::graph_test {
namespace {

namespace fs = std::filesystem;
using edge_set = std::set<std::pair<std::uint32_t, std::uint32_t>>;

std::string write_file(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// The CSR of an undirected graph given by its edges, one direction each.
csr_graph expected_csr(std::uint32_t n, const edge_set& edges) {
  std::vector<std::set<std::uint32_t>> adj(n);
  for (auto [u, v] : edges) {
    adj[u].insert(v);
    adj[v].insert(u);
  }
  csr_graph g;
  g.vertices = n;
  g.row_ptr.push_back(0);
  for (const auto& a : adj) {
    g.col.insert(g.col.end(), a.begin(), a.end());
    g.row_ptr.push_back(std::uint32_t(g.col.size()));
  }
  return g;
}

void expect_same_graph(const csr_graph& got, const csr_graph& want) {
  EXPECT_EQ(got.vertices, want.vertices);
  EXPECT_EQ(got.row_ptr, want.row_ptr);
  EXPECT_EQ(got.col, want.col);
}

// Sorted rows without duplicates or self-loops, every edge in both directions.
void expect_undirected(const csr_graph& g) {
  ASSERT_EQ(g.row_ptr.size(), std::size_t(g.vertices) + 1);
  ASSERT_EQ(g.row_ptr.front(), 0u);
  ASSERT_EQ(g.row_ptr.back(), g.col.size());
  for (std::uint32_t v = 0; v < g.vertices; ++v) {
    ASSERT_LE(g.row_ptr[v], g.row_ptr[v + 1]);
    for (std::uint32_t i = g.row_ptr[v]; i < g.row_ptr[v + 1]; ++i) {
      const std::uint32_t u = g.col[i];
      ASSERT_LT(u, g.vertices);
      EXPECT_NE(u, v) << "self-loop";
      if (i > g.row_ptr[v]) {
        EXPECT_LT(g.col[i - 1], u) << "row " << v << " not sorted or repeated";
      }
      EXPECT_TRUE(
          std::binary_search(g.col.begin() + g.row_ptr[u], g.col.begin() + g.row_ptr[u + 1], v))
          << v << "-" << u << " has no reverse";
    }
  }
}

TEST(GraphFile, MatrixMarketPatternGeneral) {
  const fs::path dir = scratch_dir();
  const std::string path = write_file(dir, "g.mtx",
                                      "%%MatrixMarket matrix coordinate pattern general\n"
                                      "% a comment\n"
                                      "%\n"
                                      "5 5 6\n"
                                      "1 2\n"
                                      "2 3\n"
                                      "3 1\n"
                                      "4 4\n"  // self-loop: dropped
                                      "2 1\n"  // the reverse of 1 2: one edge
                                      "5 3\n");
  // Vertex 3 (the self-loop's) keeps its place with no neighbour.
  expect_same_graph(read_graph_file(path), expected_csr(5, {{0, 1}, {1, 2}, {0, 2}, {2, 4}}));
  const csr_graph g = read_graph_file(path);
  EXPECT_EQ(g.row_ptr, (std::vector<std::uint32_t>{0, 2, 4, 7, 7, 8}));
  EXPECT_EQ(g.col, (std::vector<std::uint32_t>{1, 2, 0, 2, 0, 1, 4, 2}));
}

TEST(GraphFile, MatrixMarketRealSymmetricAndInteger) {
  const fs::path dir = scratch_dir();
  // CRLF line ends, a blank line, values in the forms C's strtod reads.
  const std::string real = write_file(dir, "r.mtx",
                                      "%%MatrixMarket matrix coordinate real symmetric\r\n"
                                      "4 4 5\r\n"
                                      "1 1 2.5\r\n"
                                      "2 1 -1.0e-3\r\n"
                                      "\r\n"
                                      "3 2 4\r\n"
                                      "4 1 .5\r\n"
                                      "4 3\t1E2\r\n");
  expect_same_graph(read_graph_file(real), expected_csr(4, {{0, 1}, {1, 2}, {0, 3}, {2, 3}}));
  const std::string integer = write_file(dir, "i.mtx",
                                         "%%MatrixMarket MATRIX Coordinate Integer General\n"
                                         "3 3 2\n"
                                         "1 3 7\n"
                                         "3 2 -4\n");
  expect_same_graph(read_graph_file(integer), expected_csr(3, {{0, 2}, {1, 2}}));
}

TEST(GraphFile, EdgeLists) {
  const fs::path dir = scratch_dir();
  const std::string text =
      "# FromNodeId\tToNodeId\n"
      "0 1\n"
      "1\t2\n"
      "2 0 # a comment after the edge\n"
      "\n"
      "5 1\n"
      "1 0\n"
      "3 3\n";
  // Vertices 0..5: 3 has only its self-loop, 4 appears nowhere.
  const csr_graph want = expected_csr(6, {{0, 1}, {1, 2}, {0, 2}, {1, 5}});
  expect_same_graph(read_graph_file(write_file(dir, "g.el", text)), want);
  expect_same_graph(read_graph_file(write_file(dir, "g.txt", text)), want);
}

// A bad file is one input_error at its file and line, key "graph", on one line.
void expect_file_error(const std::string& name, const std::string& text, std::uint64_t line,
                       const std::string& part) {
  SCOPED_TRACE(name + ": " + part);
  const std::string path = write_file(scratch_dir(), name, text);
  try {
    read_graph_file(path);
    ADD_FAILURE() << "no input_error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.where().line, line) << e.what();
    EXPECT_EQ(e.key(), "graph");
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + (line ? ":" + std::to_string(line) : "") + ": graph: ", 0), 0u)
        << what;
    EXPECT_NE(what.find(part), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(GraphFile, MalformedFilesNameFileAndLine) {
  const std::string head = "%%MatrixMarket matrix coordinate pattern general\n";
  const std::string real = "%%MatrixMarket matrix coordinate real general\n";
  expect_file_error("size.mtx", head + "% c\n3 x 2\n", 3, "'x' is not a non-negative integer");
  expect_file_error("size2.mtx", head + "3 3\n", 2, "size line");
  expect_file_error("nosize.mtx", head + "% only comments\n", 2, "before the size line");
  expect_file_error("square.mtx", head + "3 4 1\n1 1\n", 2, "square");
  expect_file_error("zero.mtx", head + "0 0 0\n", 2, "no rows");
  expect_file_error("big.mtx", head + "16777217 16777217 1\n", 2, "limit of 2^24");
  expect_file_error("many.mtx", head + "3 3 268435457\n", 2, "limit of 2^28");
  expect_file_error("range.mtx", head + "3 3 2\n1 2\n4 1\n", 4, "row 4 is outside 1..3");
  expect_file_error("range0.mtx", head + "3 3 2\n1 2\n2 0\n", 4, "column 0 is outside 1..3");
  expect_file_error("index.mtx", head + "3 3 1\n1 b\n", 3, "column 'b' is not");
  expect_file_error("neg.mtx", head + "3 3 1\n-1 2\n", 3, "row '-1' is not");
  expect_file_error("value.mtx", real + "3 3 2\n1 2 0.5\n2 3 abc\n", 4,
                    "value 'abc' is not a number");
  expect_file_error("words.mtx", real + "3 3 1\n1 2\n", 3, "expected 'i j value'");
  expect_file_error("words2.mtx", head + "3 3 1\n1 2 3\n", 3, "expected 'i j'");
  expect_file_error("short.mtx", head + "3 3 3\n1 2\n2 3\n", 4, "ends after 2 of 3 entries");
  expect_file_error("long.mtx", head + "3 3 1\n1 2\n2 3\n", 4, "more entries than the 1");
  expect_file_error("header.mtx", "3 3 1\n1 2\n", 1, "%%MatrixMarket");
  expect_file_error("empty.mtx", "", 0, "empty file");
  expect_file_error("array.mtx", "%%MatrixMarket matrix array real general\n3 3\n", 1,
                    "'coordinate'");
  expect_file_error("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n", 1,
                    "'complex' is not supported");
  expect_file_error("herm.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 1,
                    "'hermitian' is not supported");
  expect_file_error("words.el", "0 1\n1 2 3\n", 2, "expected 'u v'");
  expect_file_error("number.el", "0 1\n\n1 x2\n", 3, "vertex 'x2' is not");
  expect_file_error("neg.el", "0 -1\n", 1, "vertex '-1' is not");
  expect_file_error("huge.el", "0 99999999999999999999999\n", 1, "too large");
  expect_file_error("limit.el", "0 16777216\n", 1, "limit of 2^24 - 1");
  expect_file_error("none.txt", "# nothing\n", 0, "no edges");
  expect_file_error("kind.csv", "0 1\n", 0, ".mtx, .el or .txt");
  const std::string missing = (scratch_dir() / "missing.mtx").string();
  try {
    read_graph_file(missing);
    ADD_FAILURE() << "no input_error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().file, missing);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

// Through the command line: one input_error at the file's line, and no output folder.
TEST(GraphFile, BadFileOnTheCommandLineWritesNothing) {
  const fs::path dir = scratch_dir();
  const std::string bad = write_file(dir, "bad.mtx",
                                     "%%MatrixMarket matrix coordinate pattern general\n"
                                     "4 4 1\n"
                                     "9 1\n");
  const fs::path out = dir / "out";
  std::ostringstream text;
  try {
    gen_main({"bfs", "-p", "graph=" + bad, "-o", out.string()}, text);
    ADD_FAILURE() << "no input_error";
  } catch (const input_error& e) {
    EXPECT_EQ(std::string(e.what()), bad + ":3: graph: row 9 is outside 1..4");
  }
  EXPECT_FALSE(fs::exists(out));
}

// Banded: edges farther than `band` are exactly the long-range ones; their share among the
// distinct edges follows from the draws: per vertex degree·f long-range draws (repeats need
// the same far vertex twice: negligible), and each of the b pairs (v, v + k) within the band
// is drawn by v and by v + k, each with degree·(1 - f) draws over 2b places, so it is present
// with probability 1 - exp(-degree·(1 - f) / b).
TEST(GraphGen, BandedEdgesStayInTheBandExceptTheLongRangeShare) {
  const std::uint32_t n = 1u << 14, degree = 8, band = 16;
  const double f = 0.1;
  const csr_graph g = make_banded_graph(n, degree, band, f, 3);
  EXPECT_EQ(g.vertices, n);
  expect_undirected(g);
  std::uint64_t far = 0;
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t i = g.row_ptr[v]; i < g.row_ptr[v + 1]; ++i)
      far += (g.col[i] > v ? g.col[i] - v : v - g.col[i]) > band;
  const double long_edges = double(n) * degree * f;
  const double band_edges = double(n) * band * (1 - std::exp(-double(degree) * (1 - f) / band));
  const double edges = double(g.col.size()) / 2;
  EXPECT_NEAR(edges / (long_edges + band_edges), 1.0, 0.02);
  EXPECT_NEAR((double(far) / 2) / edges, long_edges / (long_edges + band_edges), 0.005);

  const csr_graph near = make_banded_graph(n, degree, band, 0.0, 3);
  const csr_graph all_far = make_banded_graph(n, degree, band, 1.0, 3);
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::uint32_t i = near.row_ptr[v]; i < near.row_ptr[v + 1]; ++i)
      ASSERT_LE(near.col[i] > v ? near.col[i] - v : v - near.col[i], band);
    for (std::uint32_t i = all_far.row_ptr[v]; i < all_far.row_ptr[v + 1]; ++i)
      ASSERT_GT(all_far.col[i] > v ? all_far.col[i] - v : v - all_far.col[i], band);
  }
  // A band wider than the graph: every edge is a near one.
  const csr_graph tiny = make_banded_graph(4, 3, 10, 0.5, 1);
  expect_undirected(tiny);
  EXPECT_GT(tiny.col.size(), 0u);

  EXPECT_EQ(make_banded_graph(n, degree, band, f, 3).col, g.col);
  EXPECT_NE(make_banded_graph(n, degree, band, f, 4).col, g.col);
}

// Citation: papers of step s = v / ceil(n / steps) cite `cite` distinct papers of step s - 1;
// every other reference is one of those papers' references (copied with probability
// p = 1/cite - 1/degree), so the steady-state mean is cite / (1 - cite·p) = degree.
TEST(GraphGen, CitationPapersCiteThePreviousStepAndCopyItsReferences) {
  const std::uint32_t n = 1u << 15, steps = 16, m = 3, degree = 8;
  const std::uint32_t per_step = n / steps;
  const double p = 1.0 / m - 1.0 / degree;
  const csr_graph c = make_citation_graph(n, steps, m, degree, 5);
  ASSERT_EQ(c.vertices, n);
  ASSERT_EQ(c.row_ptr.size(), n + 1u);
  std::uint64_t pairs = 0, copied = 0, late_refs = 0, late_papers = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t step = v / per_step;
    const auto begin = c.col.begin() + c.row_ptr[v], end = c.col.begin() + c.row_ptr[v + 1];
    if (step == 0) {
      ASSERT_EQ(begin, end) << "a paper of the first step cites nothing";
      continue;
    }
    ASSERT_TRUE(std::is_sorted(begin, end));
    ASSERT_EQ(std::adjacent_find(begin, end), end) << "repeated reference of " << v;
    std::vector<std::uint32_t> direct;
    for (auto it = begin; it != end; ++it) {
      ASSERT_LT(*it / per_step, step) << v << " cites " << *it << " of a later step";
      if (*it / per_step == step - 1) direct.push_back(*it);
    }
    ASSERT_EQ(direct.size(), m) << "paper " << v;
    for (auto it = begin; it != end; ++it) {
      if (*it / per_step == step - 1) continue;
      bool found = false;
      for (std::uint32_t a : direct)
        found = found || std::binary_search(c.col.begin() + c.row_ptr[a],
                                            c.col.begin() + c.row_ptr[a + 1], *it);
      ASSERT_TRUE(found) << v << " cites " << *it << ", no reference of the papers it picked";
    }
    for (std::uint32_t a : direct)
      for (std::uint32_t i = c.row_ptr[a]; i < c.row_ptr[a + 1]; ++i) {
        ++pairs;
        copied += std::binary_search(begin, end, c.col[i]);
      }
    if (step >= 8) {
      late_refs += std::uint64_t(end - begin);
      ++late_papers;
    }
  }
  // Two picked papers sharing a reference copy it twice, once stored: small at these sizes.
  EXPECT_NEAR(double(copied) / double(pairs), p, 0.01);
  EXPECT_NEAR(double(late_refs) / double(late_papers), degree, 0.05 * degree);

  // The undirected input: every citation once in each direction, nothing else.
  const param_set ps(graph_params("graph", "rmat", "R-MAT"),
                     {"graph=citation", "steps=16", "cite=3"});
  const csr_graph g = graph_input(ps, "graph", "rmat", n, degree, 5);
  expect_undirected(g);
  EXPECT_EQ(g.col.size(), 2 * c.col.size());
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t i = c.row_ptr[v]; i < c.row_ptr[v + 1]; ++i)
      ASSERT_TRUE(std::binary_search(g.col.begin() + g.row_ptr[v], g.col.begin() + g.row_ptr[v + 1],
                                     c.col[i]));

  EXPECT_EQ(make_citation_graph(n, steps, m, degree, 5).col, c.col);
  EXPECT_NE(make_citation_graph(n, steps, m, degree, 6).col, c.col);
  // degree <= cite: every reference is a direct one.
  const csr_graph direct_only = make_citation_graph(1024, 8, 3, 2, 1);
  for (std::uint32_t v = 128; v < 1024; ++v) EXPECT_EQ(direct_only.degree(v), 2u);
}

std::vector<std::uint32_t> bfs_depths(const csr_graph& g, std::uint32_t source) {
  std::vector<std::uint32_t> depth(g.vertices, ~0u);
  std::vector<std::uint32_t> queue{source};
  depth[source] = 0;
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (std::uint32_t i = g.row_ptr[queue[h]]; i < g.row_ptr[queue[h] + 1]; ++i)
      if (depth[g.col[i]] == ~0u) {
        depth[g.col[i]] = depth[queue[h]] + 1;
        queue.push_back(g.col[i]);
      }
  return depth;
}

// graph=FILE: the trace's arrays and grid are the file's vertex count (2^scale plays no
// part), and its launches the file's BFS depth.
TEST(GraphFile, BfsOnAFileHasTheFilesVertices) {
  const fs::path dir = scratch_dir();
  // A path 0 - 1 - ... - 98 plus vertex 99 joined to 0: 100 vertices, BFS depth 98 from 0.
  std::string text = "# path\n";
  for (std::uint32_t v = 0; v + 1 < 99; ++v)
    text += std::to_string(v + 1) + " " + std::to_string(v) + "\n";
  text += "99 0\n";
  const std::string path = write_file(dir, "path.el", text);
  const app_trace app = generate_in_memory("bfs", {"scale=4", "block=32", "graph=" + path});
  const std::uint64_t n = 100;
  ASSERT_GE(app.commands.size(), 3u);
  EXPECT_EQ(app.commands[0].bytes, 4 * (n + 1)) << "row_ptr";
  EXPECT_EQ(app.commands[1].bytes, 4 * 2 * (n - 1)) << "col: 99 edges both ways";
  EXPECT_EQ(app.commands[2].bytes, 4 * n) << "levels";
  const auto hk = host_kernels(app);
  for (const kernel_trace* k : hk) EXPECT_EQ(k->info.grid.x, (n + 31) / 32);
  edge_set edges{{0, 99}};
  for (std::uint32_t v = 0; v + 1 < 99; ++v) edges.insert({v, v + 1});
  const auto depth = bfs_depths(expected_csr(100, edges), 0);
  EXPECT_EQ(hk.size(), std::size_t(*std::max_element(depth.begin(), depth.end())) + 1);

  // A Matrix Market file with isolated last vertices: its size line's rows count.
  const std::string mtx = write_file(dir, "iso.mtx",
                                     "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                     "40 40 1\n"
                                     "2 1\n");
  const app_trace m = generate_in_memory("sssp", {"graph=" + mtx, "block=32"});
  EXPECT_EQ(m.commands.at(0).bytes, 4u * 41);
  EXPECT_EQ(host_kernels(m).at(0)->info.grid.x, 2u);
  const app_trace s = generate_in_memory("spmv", {"matrix=" + mtx, "rows=5", "block=32"});
  EXPECT_EQ(s.commands.at(0).bytes, 4u * 41) << "row_ptr of the file's 40 rows";
  EXPECT_EQ(s.commands.at(1).bytes, 4u * 2) << "the two stored entries";
}

// The parameters exist on the graph kernels, are checked, and enter the trace's note only
// when set away from their defaults.
TEST(GraphParams, KernelsTakeTheGraphParameter) {
  for (const char* k : {"bfs", "bfs_cdp", "bfs_dtbl", "sssp", "sssp_cdp", "sssp_dtbl", "clr",
                        "clr_cdp", "clr_dtbl"}) {
    const app_trace c = generate_in_memory(k, {"scale=7", "graph=citation"});
    EXPECT_EQ(c.commands.at(0).bytes, 4u * 129) << k;
    const app_trace b = generate_in_memory(k, {"scale=7", "graph=banded", "band=4"});
    EXPECT_EQ(b.commands.at(0).bytes, 4u * 129) << k;
  }
  for (const char* k : {"spmv", "spmv_cdp", "spmv_dtbl"}) {
    const app_trace a = generate_in_memory(k, {"rows=100", "matrix=banded", "band=2"});
    EXPECT_EQ(a.commands.at(0).bytes, 4u * 101) << k;
  }

  auto key_of = [](const std::string& kernel, const std::vector<std::string>& params) {
    try {
      generate_in_memory(kernel, params);
    } catch (const input_error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return e.key() + ": " + e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(key_of("bfs", {"graph=grid"}),
            "graph: 'grid' is not rmat, citation, banded or a .mtx, .el or .txt file");
  EXPECT_EQ(key_of("spmv", {"matrix=rmat"}),
            "matrix: 'rmat' is not powerlaw, citation, banded or a .mtx, .el or .txt file");
  EXPECT_EQ(key_of("spmv", {"matrix=banded", "cols=5"}),
            "cols: must be 0 when the matrix is a graph");
  EXPECT_EQ(key_of("bfs", {"graph="}), "graph: empty value");
  EXPECT_EQ(key_of("bfs", {"graph=a\nb.el"}), "graph: control character in the value");
  EXPECT_EQ(key_of("bfs", {"graph=banded", "scale=24", "degree=64"}),
            "degree: the graph would exceed 2^28 edges");
  EXPECT_EQ(key_of("bfs", {"scale=4", "source=16", "graph=banded"}),
            "source: must be below the vertex count 16");
  EXPECT_EQ(key_of("bfs", {"cite=0"}), "cite: 0 is out of range [1, 64]");

  const fs::path dir = scratch_dir();
  auto note = [&](const std::string& name, const std::vector<std::string>& params) {
    auto w = make_text_writer((dir / name).string());
    generate("bfs", params, 70, *w);
    open_options opts;
    return open_trace((dir / name).string(), opts)->notes().at(0);
  };
  const std::string base =
      "generated by: gputlm trace gen bfs --arch 70 scale=6 degree=8 seed=1 source=0 block=256";
  EXPECT_EQ(note("default", {"scale=6"}), base);
  EXPECT_EQ(note("named", {"scale=6", "graph=rmat", "steps=32"}), base);
  EXPECT_EQ(note("banded", {"scale=6", "graph=banded", "band=8"}), base + " graph=banded band=8");
}

// Merrill's BFS (bfs_merrill*) on a graph built here: hub 0 with 150 neighbours (a CTA-based
// gather with 64-thread TBs), vertex 1 with 40 more (warp-based), the rest of small degree
// (scan-based), and a path 191 - ... - 199 that the source does not reach.
edge_set merrill_edges() {
  edge_set e;
  for (std::uint32_t v = 1; v <= 150; ++v) e.insert({0, v});
  for (std::uint32_t v = 151; v <= 190; ++v) e.insert({1, v});
  for (std::uint32_t v = 2; v <= 150; ++v) {
    const std::uint32_t u = v * 7 % 149 + 2;
    if (u != v) e.insert({std::min(u, v), std::max(u, v)});
  }
  for (std::uint32_t v = 151; v < 190; v += 3) e.insert({v, v + 1});
  for (std::uint32_t v = 191; v < 199; ++v) e.insert({v, v + 1});
  return e;
}

std::string merrill_graph_file(const fs::path& dir) {
  std::string text;
  for (auto [u, v] : merrill_edges()) text += std::to_string(u) + " " + std::to_string(v) + "\n";
  return write_file(dir, "merrill.el", text);
}

// The global loads and stores of kernel k whose address lies in [lo, hi), per address.
std::map<std::uint64_t, unsigned> accesses(const app_trace& app, const kernel_trace& k,
                                           const std::string& op, std::uint64_t lo,
                                           std::uint64_t hi) {
  std::map<std::uint64_t, unsigned> r;
  for (const auto& tb : k.tbs)
    for (const auto& w : tb.warps)
      for (const auto* in : find(app, w, op))
        for (auto [lane, a] : lane_addresses(w, *in))
          if (a >= lo && a < hi) ++r[a];
  return r;
}

// Each iteration's kernel has one thread per frontier vertex, loads every edge of the
// frontier's vertices exactly once (whichever gather), labels exactly the next level, and
// enqueues each of its vertices once; the last kernel finds nothing new.
TEST(MerrillBfs, EachIterationGathersItsFrontiersEdgesOnceAndEnqueuesTheNextLevel) {
  const fs::path dir = scratch_dir();
  const std::uint32_t n = 200, block = 64;
  const csr_graph g = expected_csr(n, merrill_edges());
  const auto depth = bfs_depths(g, 0);
  const app_trace app = generate_in_memory(
      "bfs_merrill", {"block=" + std::to_string(block), "graph=" + merrill_graph_file(dir)});
  std::uint32_t levels = 0;
  for (std::uint32_t v = 0; v < n; ++v)
    if (depth[v] != ~0u) levels = std::max(levels, depth[v] + 1);
  const auto in = input_addresses(app);  // row_ptr, col, labels, queue 0
  ASSERT_EQ(in.size(), 4u + levels) << "four arrays, then the counter's reset per iteration";
  const std::uint64_t col = in[1], labels = in[2];
  const auto hk = host_kernels(app);
  ASSERT_EQ(hk.size(), levels) << "one kernel per level; the last enqueues nothing";
  EXPECT_EQ(hk.size(), app.kernels.size());
  for (std::uint32_t i = 0; i < hk.size(); ++i) {
    SCOPED_TRACE("iteration " + std::to_string(i));
    std::map<std::uint64_t, unsigned> edges, next;
    std::uint32_t frontier = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (depth[v] == i) {
        ++frontier;
        for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) ++edges[col + 4ull * e];
      }
      if (depth[v] == i + 1) next[labels + 4ull * v] = 1;
    }
    EXPECT_EQ(hk[i]->info.grid.x, (frontier + block - 1) / block);
    EXPECT_EQ(accesses(app, *hk[i], "LDG", col, col + 4ull * g.col.size()), edges);
    // A label may be stored by two lanes of one warp that reach it at once; each vertex of
    // the next level is stored, and nothing else.
    auto stored = accesses(app, *hk[i], "STG", labels, labels + 4ull * n);
    for (auto& [a, c] : stored) c = 1;
    EXPECT_EQ(stored, next);
    // The queue: next-level-many stores, to consecutive distinct slots (the queue region
    // is every store outside the labels).
    const auto queue = accesses(app, *hk[i], "STG", 0, labels);
    auto queue_hi = accesses(app, *hk[i], "STG", labels + 4ull * n, ~0ull);
    queue_hi.insert(queue.begin(), queue.end());
    ASSERT_EQ(queue_hi.size(), next.size());
    std::uint64_t expect = queue_hi.empty() ? 0 : queue_hi.begin()->first;
    for (auto [a, c] : queue_hi) {
      EXPECT_EQ(a, expect);
      EXPECT_EQ(c, 1u);
      expect += 4;
    }
  }
  // The strategies: in the first kernel the hub's 150 edges are loaded by the whole TB
  // (CTA-based: 64 threads, then 64, then 22); in the second vertex 1's 41 edges by one warp
  // (warp-based: 32 lanes, then 9), every other vertex's by the scan.
  const auto& w0 = hk[0]->tbs.at(0).warps;
  EXPECT_FALSE(find(app, w0.at(0), "BAR").empty());
  unsigned hub_loads[2] = {0, 0};
  for (unsigned w = 0; w < 2; ++w)
    for (const auto* in : find(app, w0.at(w), "LDG"))
      for (auto [lane, a] : lane_addresses(w0.at(w), *in))
        if (a >= col + 4ull * g.row_ptr[0] && a < col + 4ull * g.row_ptr[1]) ++hub_loads[w];
  EXPECT_EQ(hub_loads[0], 32u + 32u + 22u) << "lanes 0-31 of three 64-edge rounds";
  EXPECT_EQ(hub_loads[1], 32u + 32u) << "lanes 32-63 of the first two";
  // Vertex 1 is the first of the second frontier (the hub's edges in order): TB 0, warp 0
  // walks its 41 edges, lane l at edge l, then lanes 0-8 at edges 32-40.
  const auto& w1 = hk.at(1)->tbs.at(0).warps;
  std::vector<std::pair<unsigned, std::uint64_t>> v1, want;
  for (unsigned w = 0; w < 2; ++w)
    for (const auto* in : find(app, w1.at(w), "LDG"))
      for (auto [lane, a] : lane_addresses(w1.at(w), *in))
        if (a >= col + 4ull * g.row_ptr[1] && a < col + 4ull * g.row_ptr[2])
          v1.emplace_back(w * 32 + lane, a);
  for (std::uint32_t e = 0; e < 41; ++e) want.emplace_back(e % 32, col + 4ull * (g.row_ptr[1] + e));
  EXPECT_EQ(v1, want);
}

// The CDP form: each frontier vertex of degree >= threshold (32) launches one child of
// ceil(degree / child_block) TBs instead of the CTA- or warp-based gather, and the children
// load those edges; all edges are still loaded once per reached vertex.
TEST(MerrillBfs, CdpLaunchesAChildPerVertexOfDegreeAtLeastTheThreshold) {
  const fs::path dir = scratch_dir();
  const std::uint32_t n = 200;
  const csr_graph g = expected_csr(n, merrill_edges());
  const auto depth = bfs_depths(g, 0);
  const app_trace app = generate_in_memory(
      "bfs_merrill_cdp", {"block=64", "child_block=64", "graph=" + merrill_graph_file(dir)});
  std::vector<std::uint32_t> big_grids;
  std::map<std::uint64_t, unsigned> edges;
  const std::uint64_t col = input_addresses(app).at(1);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (depth[v] == ~0u) continue;
    if (g.degree(v) >= 32) big_grids.push_back((g.degree(v) + 63) / 64);
    for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) ++edges[col + 4ull * e];
  }
  std::vector<std::uint32_t> grids;
  std::map<std::uint64_t, unsigned> loaded;
  for (const auto& k : app.kernels) {
    if (k.info.device_launched) grids.push_back(k.info.grid.x);
    for (auto [a, c] : accesses(app, k, "LDG", col, col + 4ull * g.col.size())) loaded[a] += c;
  }
  EXPECT_EQ(grids, big_grids) << "the hub (150: 3 TBs), then vertex 1 (41: 1 TB)";
  EXPECT_EQ(loaded, edges);
}

// The DTBL form: a group runs the expansion kernel's own function with its TB shape and its
// shared memory, so that it coalesces into the running kernel (the KD matches function, TB
// shape and shared memory); with group_function=separate, a function of its own without.
TEST(MerrillBfs, DtblGroupsMatchTheKernelTheyJoin) {
  const fs::path dir = scratch_dir();
  const std::string graph = "graph=" + merrill_graph_file(dir);
  const app_trace own = generate_in_memory("bfs_merrill_dtbl", {"block=64", graph});
  const kernel_trace& parent = *host_kernels(own).at(0);
  std::size_t groups = 0;
  for (const auto& k : own.kernels) {
    if (!k.info.device_launched) continue;
    ++groups;
    EXPECT_EQ(k.info.name, parent.info.name);
    EXPECT_EQ(k.info.block.x, 64u);
    EXPECT_EQ(k.info.shmem, parent.info.shmem);
  }
  EXPECT_EQ(groups, 2u);
  EXPECT_GT(parent.info.shmem, 0u);
  const app_trace sep = generate_in_memory(
      "bfs_merrill_dtbl", {"block=64", "group_function=separate", "child_block=32", graph});
  for (const auto& k : sep.kernels)
    if (k.info.device_launched) {
      EXPECT_NE(k.info.name, parent.info.name);
      EXPECT_EQ(k.info.shmem, 0u);
    }
}

}  // namespace
}  // namespace gputlm::traces::generators::test::graph_test
