// The locality graph of a trace (Tripathy thesis §3.2, traces/locality.h): the MM example
// against the thesis's closed-form access sets, a hand-made three-TB trace, the METIS file,
// `gputlm trace locality` on bad input, and the cache beside the trace.
#include "traces/locality.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "test_util.h"
#include "tests/common/run_command.h"
#include "traces/footprint.h"
#include "traces/generators/registry.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::locality_test {
namespace {

namespace fs = std::filesystem;
using element_set = std::set<std::uint64_t>;

std::uint64_t common(const element_set& a, const element_set& b) {
  std::uint64_t n = 0;
  for (std::uint64_t x : a) n += b.count(x);
  return n;
}

// The in-memory kernel as a tb_source (no ownership: `k` outlives the build).
tb_source source_of(const generators::kernel_trace& k) {
  return [&k](std::uint32_t id) {
    return std::shared_ptr<const tb_trace>(std::shared_ptr<void>(), &k.tbs.at(id));
  };
}

// §3.2: with TB k at (bx, by) = (k mod gridDim.x, k / gridDim.x) of a bs x bs block, it reads
// A_k = { i + K(by·bs + j) } (rows of the row-major M x K matrix A) and
// B_k = { i·N + bx·bs + j } (columns of the K x N matrix B), i in [0, K), j in [0, bs):
// element indices, i.e. addresses at 4-byte granularity. The thesis has M = N = K.
void expect_mm_graph(std::uint32_t m, std::uint32_t n, std::uint32_t kdim, std::uint32_t bs) {
  const generators::app_trace app = generators::generate_in_memory(
      "sgemm_naive", {fmt::format("M={}", m), fmt::format("N={}", n), fmt::format("K={}", kdim),
                      fmt::format("block={}", bs)});
  ASSERT_EQ(app.kernels.size(), 1u);
  const generators::kernel_trace& k = app.kernels[0];
  const std::uint32_t gx = k.info.grid.x, gy = k.info.grid.y, tbs = gx * gy;
  ASSERT_EQ(gx, n / bs);
  ASSERT_EQ(gy, m / bs);
  const locality_graph g = build_locality_graph(tbs, source_of(k), 4);

  std::vector<element_set> a(tbs), b(tbs);
  for (std::uint32_t t = 0; t < tbs; ++t)
    for (std::uint32_t i = 0; i < kdim; ++i)
      for (std::uint32_t j = 0; j < bs; ++j) {
        a[t].insert(i + std::uint64_t(kdim) * ((t / gx) * bs + j));
        b[t].insert(std::uint64_t(i) * n + (t % gx) * bs + j);
      }
  std::uint64_t edges = 0, weight = 0;
  for (std::uint32_t i = 0; i < tbs; ++i)
    for (std::uint32_t j = 0; j < tbs; ++j) {
      if (i == j) continue;
      const std::uint64_t expect = common(a[i], a[j]) + common(b[i], b[j]);
      EXPECT_EQ(g.weight(i, j), expect) << "TBs " << i << ", " << j;
      if (i < j && expect) {
        ++edges;
        weight += expect;
      }
    }
  EXPECT_EQ(g.tbs, tbs);
  EXPECT_EQ(g.edges, edges);
  EXPECT_EQ(g.total_weight, weight);
  // A, B and C (read for beta * C) are read whole; only A and B are shared.
  EXPECT_EQ(g.distinct_lines,
            std::uint64_t(m) * kdim + std::uint64_t(kdim) * n + std::uint64_t(m) * n);
  // Each TB shares with the other TBs of its grid row and of its grid column.
  EXPECT_EQ(edges, std::uint64_t(tbs) * (gx - 1 + gy - 1) / 2);
  EXPECT_DOUBLE_EQ(g.spscore, 1.0 - double(2 * edges) / (double(tbs) * tbs));
  EXPECT_EQ(g.shared_tbs, tbs);
  EXPECT_DOUBLE_EQ(g.degree_of_sharing, double(gx - 1 + gy - 1) / double(tbs - 1));
  for (const auto& adj : g.adj)
    for (std::size_t e = 1; e < adj.size(); ++e) EXPECT_LT(adj[e - 1].first, adj[e].first);
}

TEST(LocalityGraph, ThesisMatrixMultiplyClosedForm) { expect_mm_graph(32, 32, 32, 8); }

TEST(LocalityGraph, MatrixMultiplyRectangular) { expect_mm_graph(24, 40, 12, 8); }

// Three TBs of one warp each. 4-byte granules (address / 4):
//   TB0 reads 0x400..0x403 (and 0x400 again; LDS is not global);
//   TB1 reads 0x402, 0x800, 0x400-0x401 (one 8-byte load), 0x801 (generic LD, global);
//       its generic LD into the shared window is not global;
//   TB2 reads 0xc00 only; it stores to 0x1000 and 0x1004 and does atomics on 0x1008 and
//       0x2000, none of which is a read.
// L[0][1] = |{0x400, 0x401, 0x402}| = 3; TB2 shares nothing.
std::string three_tb_trace() {
  const std::string exit_line = "00f0 ffffffff 0 EXIT 0 0\n";
  auto tb = [&](int x, const std::vector<std::string>& insts) {
    std::string s = fmt::format("#BEGIN_TB\nthread block = {},0,0\nwarp = 0\ninsts = {}\n", x,
                                insts.size() + 1);
    for (const auto& i : insts) s += i + "\n";
    return s + exit_line + "#END_TB\n";
  };
  return test::header(3, false, "(3,1,1)", "(32,1,1)") +
         tb(0, {"0000 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4",
                "0010 00000001 1 R3 LDG.E 1 R4 4 0 0x1000",
                "0020 00000001 1 R9 LDS.U8 1 R2 1 0 0x00007f2c60000000"}) +
         tb(1, {"0000 00000003 1 R2 LDG.E 1 R4 4 0 0x1008 0x2000",
                "0010 00000001 1 R6 LDG.E.64 1 R4 8 0 0x1000",
                "0020 00000001 1 R7 LD.E 1 R4 4 0 0x2004",
                "0030 00000001 1 R8 LD.E 1 R4 4 0 0x00007f2c60000100"}) +
         tb(2, {"0000 00000001 1 R2 LDG.E 1 R4 4 0 0x3000",
                "0010 00000003 0 STG.E 2 R4 R6 4 1 0x1000 4",
                "0020 00000001 1 R8 ATOM.E.ADD 2 R4 R6 4 0 0x1008",
                "0030 00000001 0 RED.E.ADD 2 R4 R6 4 0 0x2000"});
}

TEST(LocalityGraph, HandMadeThreeTbs) {
  auto dir = test::one_kernel_trace(test::scratch_dir(), three_tb_trace());
  auto app = open_trace(dir.string());
  const locality_graph g = build_locality_graph(app->kernel(std::size_t(1)), 4);
  EXPECT_EQ(g.tbs, 3u);
  EXPECT_EQ(g.kernel_id, 1u);
  EXPECT_EQ(g.weight(0, 1), 3u);
  EXPECT_EQ(g.weight(1, 0), 3u);
  EXPECT_EQ(g.weight(0, 2), 0u);
  EXPECT_EQ(g.weight(2, 0), 0u);
  EXPECT_EQ(g.weight(1, 2), 0u);
  EXPECT_EQ(g.weight(2, 1), 0u);
  EXPECT_EQ(g.weight(0, 0), 0u);
  EXPECT_EQ(g.distinct_lines, 7u);  // 0x400-0x403, 0x800, 0x801, 0xc00: no store, no atomic
  EXPECT_EQ(g.shared_lines, 3u);
  EXPECT_EQ(g.edges, 1u);
  EXPECT_EQ(g.total_weight, 3u);
  EXPECT_DOUBLE_EQ(g.spscore, 1.0 - 2.0 / 9.0);
  EXPECT_EQ(g.shared_tbs, 2u);
  EXPECT_DOUBLE_EQ(g.degree_of_sharing, 2.0 / (2.0 * 2.0));

  // 32-byte granules: TB0 {0x80}, TB1 {0x80, 0x100}, TB2 {0x180}.
  app->release(1);
  const locality_graph g32 = build_locality_graph(app->kernel(std::size_t(1)), 32);
  EXPECT_EQ(g32.weight(0, 1), 1u);
  EXPECT_EQ(g32.distinct_lines, 3u);
  EXPECT_EQ(g32.shared_tbs, 2u);
  EXPECT_THROW(build_locality_graph(app->kernel(std::size_t(1)), 24), std::invalid_argument);
}

// Shared footprint ratios (Wang thesis §5.1.1) on a hand-made CDP trace, 128-byte blocks:
//   parent kernel 1: P0 touches {1, 2, 3} and launches kernel 2; P1 touches {3, 4}.
//   child kernel 2:  C0 touches {2, 5}, C1 {5, 6} (C1 by a store: every global access).
// parent-child: c = {2, 5, 6}, pc = {2}                      -> 1/3
// child-sibling: C0 vs {5, 6} shares {5}; C1 vs {2, 5} shares {5} -> (1 + 1) / (2 + 2)
// among parents: P0 vs {3, 4} shares {3}; P1 vs {1, 2, 3} shares {3} -> (1 + 1) / (2 + 3)
TEST(SharedFootprint, HandMadeParentAndChildren) {
  auto tb = [](int x, const std::vector<std::string>& insts) {
    std::string s = fmt::format("#BEGIN_TB\nthread block = {},0,0\nwarp = 0\ninsts = {}\n", x,
                                insts.size() + 1);
    for (const auto& i : insts) s += i + "\n";
    return s + "00f0 00000001 0 EXIT 0 0\n#END_TB\n";
  };
  auto load = [](int pc, unsigned block) {
    return fmt::format("{:04x} 00000001 1 R2 LDG.E 1 R4 4 0 0x{:x}", pc, block * 128 + 4);
  };
  const fs::path dir = test::scratch_dir();
  test::write_file(dir / "kernelslist.g", "kernel-1.traceg\nDeviceKernel,kernel-2.traceg\n");
  test::write_file(
      dir / "kernel-1.traceg",
      test::header(4, false, "(2,1,1)") +
          tb(0, {load(0, 1), load(0x10, 2), load(0x20, 3),
                 "0030 00000001 0 CDP.LAUNCH 0 0 kernel=2 grid=2,1,1 block=32,1,1 shmem=0 "
                 "param=0x7f4000000000"}) +
          tb(1, {load(0, 3), load(0x10, 4)}));
  std::string child = test::header(4, false, "(2,1,1)");
  child.replace(child.find("-kernel id = 1"), 14, "-kernel id = 2");
  test::write_file(dir / "kernel-2.traceg",
                   child + tb(0, {load(0, 2), load(0x10, 5)}) +
                       tb(1, {load(0, 5), "0010 00000001 0 STG.E 2 R4 R6 4 0 0x304"}));
  auto app = open_trace(dir.string());
  const shared_footprint f = measure_shared_footprint(*app);
  EXPECT_EQ(f.parent_tbs, 1u);
  EXPECT_EQ(f.child_tbs, 2u);
  EXPECT_EQ(f.c, 3u);
  EXPECT_EQ(f.pc, 1u);
  EXPECT_DOUBLE_EQ(f.parent_child(), 1.0 / 3.0);
  EXPECT_EQ(f.cs, 4u);
  EXPECT_EQ(f.cos, 2u);
  EXPECT_DOUBLE_EQ(f.child_sibling(), 0.5);
  EXPECT_DOUBLE_EQ(f.among_parents(), 2.0 / 5.0);
  EXPECT_THROW(measure_shared_footprint(*app, 100), std::invalid_argument);
}

TEST(LocalityGraph, MetisRoundTrip) {
  const generators::app_trace app =
      generators::generate_in_memory("sgemm_naive", {"M=32", "N=48", "K=16", "block=8"});
  locality_graph g =
      build_locality_graph(std::uint32_t(app.kernels[0].tbs.size()), source_of(app.kernels[0]), 32);
  g.kernel_id = 7;
  g.kernel_name = "void sgemm(int, float*)";
  std::ostringstream os;
  write_metis(os, g);
  const std::string text = os.str();
  EXPECT_NE(text.find(fmt::format("\n{} {} 001\n", g.tbs, g.edges)), std::string::npos) << text;

  std::istringstream is(text);
  const locality_graph r = read_metis(is, "mm.graph");
  EXPECT_EQ(r.tbs, g.tbs);
  EXPECT_EQ(r.adj, g.adj);
  EXPECT_EQ(r.kernel_id, 7u);
  EXPECT_EQ(r.kernel_name, g.kernel_name);
  EXPECT_EQ(r.granularity, 32u);
  EXPECT_EQ(r.distinct_lines, g.distinct_lines);
  EXPECT_EQ(r.shared_lines, g.shared_lines);
  EXPECT_EQ(r.edges, g.edges);
  EXPECT_EQ(r.total_weight, g.total_weight);
  EXPECT_EQ(r.shared_tbs, g.shared_tbs);
  EXPECT_DOUBLE_EQ(r.spscore, g.spscore);
  EXPECT_DOUBLE_EQ(r.degree_of_sharing, g.degree_of_sharing);

  // Through a file, and a plain METIS graph (vertex weights, comments, an isolated vertex).
  const fs::path dir = test::scratch_dir();
  write_metis_file((dir / "g.graph").string(), g);
  EXPECT_EQ(read_metis_file((dir / "g.graph").string()).adj, g.adj);
  std::istringstream plain("% a comment\n4 2 011 1\n5 2 3 4 3\n% inside\n1 1 3\n2\n7 1 3\n");
  const locality_graph p = read_metis(plain, "plain.graph");
  EXPECT_EQ(p.tbs, 4u);
  EXPECT_EQ(p.weight(0, 1), 3u);
  EXPECT_EQ(p.weight(3, 0), 3u);
  EXPECT_EQ(p.weight(2, 3), 0u);
  EXPECT_EQ(p.shared_tbs, 3u);

  auto bad = [](const std::string& text, std::initializer_list<std::string> parts) {
    test::expect_input_error(
        [&] {
          std::istringstream in(text);
          read_metis(in, "bad.graph");
        },
        parts);
  };
  bad("2 1 001\n2 5\n1 4\n", {"bad.graph", "not listed the same way"});
  bad("2 2 001\n2 5\n1 5\n", {"bad.graph:1:3", "m:", "2 edges"});
  bad("2 1 001\n3 5\n1 5\n", {"bad.graph:2:1", "neighbour", "not in 1..2"});
  bad("2 1 001\n2 x\n1 5\n", {"bad.graph:2:3", "weight"});
  bad("2 1 201\n", {"bad.graph:1:5", "fmt"});
  bad("3 1 001\n2 5\n1 5\n", {"3 vertex lines expected"});
}

TEST(FootprintCli, BadInputExitsTwoWithOneLine) {
  const fs::path dir = test::scratch_dir();
  fs::create_directories(dir / "trace");
  test::one_kernel_trace(dir / "trace", three_tb_trace());
  const std::string bin = gputlm::testing::gputlm_bin() + " trace footprint ";
  struct bad_case {
    std::string args, expect;
  };
  const std::vector<bad_case> cases = {
      {(dir / "missing").string(), "missing"},
      {"", "TRACE: no trace given"},
      {(dir / "trace").string() + " --block 64B", "--block"},
      {(dir / "trace").string() + " --bogus", "bogus"},
  };
  int n = 0;
  for (const auto& c : cases) {
    auto r = gputlm::testing::run_command(bin + c.args, "footprint_bad_" + std::to_string(n++));
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
  }
  // A trace without launches: no parents, every ratio 0.
  auto r = gputlm::testing::run_command(bin + (dir / "trace").string(), "footprint_flat");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"parent_tbs\": 0"), std::string::npos) << r.out;
}

TEST(LocalityCli, BadInputExitsTwoWithOneLineAndNoOutput) {
  const fs::path dir = test::scratch_dir();
  const fs::path trace = dir / "trace";
  fs::create_directories(trace);
  test::one_kernel_trace(trace, three_tb_trace());
  test::write_file(dir / "file.txt", "x");
  const std::string bin = gputlm::testing::gputlm_bin() + " trace locality ";
  const fs::path out = dir / "out";
  struct bad_case {
    std::string args, expect;
  };
  const std::vector<bad_case> cases = {
      {(dir / "missing").string() + " -o " + out.string(), "missing"},
      {trace.string() + " --kernel 9 -o " + out.string(), "--kernel: no kernel with id 9"},
      {trace.string() + " --granularity 64B -o " + out.string(), "--granularity"},
      {trace.string() + " -o " + (dir / "file.txt" / "out").string(),
       "-o: '" + (dir / "file.txt" / "out").string() + "' cannot be made"},
      {trace.string() + " -o " + (dir / "file.txt").string(), "-o: "},
      {trace.string(), "-o: no output directory"},
  };
  int n = 0;
  for (const auto& c : cases) {
    auto r = gputlm::testing::run_command(bin + c.args, "locality_bad_" + std::to_string(n++));
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.args;
    for (const auto& e : fs::directory_iterator(dir))
      EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }

  // Good input: one graph per kernel and the JSON summary; a second run reuses the cache.
  auto ok = gputlm::testing::run_command(bin + trace.string() + " -o " + out.string(), "loc_ok");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(fs::is_regular_file(out / "kernel-1.graph"));
  const std::string json = test::read_file(out / "locality.json");
  EXPECT_NE(json.find("\"shared_tbs\": 2"), std::string::npos) << json;
  EXPECT_NE(json.find("\"cached\": false"), std::string::npos) << json;
  EXPECT_NE(ok.out.find("kernel 1 "), std::string::npos) << ok.out;
  auto again =
      gputlm::testing::run_command(bin + trace.string() + " -o " + out.string(), "loc_again");
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("(cached)"), std::string::npos) << again.out;
  EXPECT_EQ(read_metis_file((out / "kernel-1.graph").string()).weight(0, 1), 3u);
}

TEST(LocalityCache, SecondCallReusesTheFile) {
  const fs::path dir = test::scratch_dir();
  const fs::path trace = dir / "mm.gtb";
  {
    auto w = make_binary_writer(trace.string());
    generators::generate("sgemm_naive", {"M=32", "N=32", "K=32", "block=8"}, 70, *w);
  }
  auto app = open_trace(trace.string());
  std::size_t kernel = 0;
  while (app->commands()[kernel].what == command::kind::memcpy_h2d) ++kernel;

  double built = -1;
  const locality_graph first =
      cached_locality_graph(trace.string(), std::uint32_t(kernel), 4, *app, &built);
  EXPECT_GT(built, 0.0);
  EXPECT_FALSE(first.from_cache);
  const fs::path folder = dir / "mm.gtb.locality";
  ASSERT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);

  double again = -1;
  const locality_graph second =
      cached_locality_graph(trace.string(), std::uint32_t(kernel), 4, *app, &again);
  EXPECT_EQ(again, 0.0);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.adj, first.adj);
  EXPECT_EQ(second.distinct_lines, first.distinct_lines);
  EXPECT_EQ(second.kernel_name, first.kernel_name);

  // Another granularity is another file.
  const locality_graph coarse =
      cached_locality_graph(trace.string(), std::uint32_t(kernel), 128, *app, &again);
  EXPECT_GT(again, 0.0);
  EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 2);

  // Another kernel's graph under this kernel's name (a file copied from another trace's
  // folder) is not trusted: it names another kernel and another grid, and is rebuilt.
  {
    const fs::path other = dir / "va.gtb";
    {
      auto w = make_binary_writer(other.string());
      generators::generate("vectoradd", {"n=8192"}, 70, *w);
    }
    auto va = open_trace(other.string());
    std::size_t vk = 0;
    while (va->commands()[vk].what == command::kind::memcpy_h2d) ++vk;
    const locality_graph foreign = cached_locality_graph(other.string(), std::uint32_t(vk), 4, *va);
    ASSERT_NE(foreign.tbs, first.tbs);
    fs::path mine;
    for (const auto& e : fs::directory_iterator(folder))
      if (read_metis_file(e.path().string()).granularity == 4) mine = e.path();
    ASSERT_FALSE(mine.empty());
    write_metis_file(mine.string(), foreign);
    const locality_graph checked =
        cached_locality_graph(trace.string(), std::uint32_t(kernel), 4, *app, &again);
    EXPECT_FALSE(checked.from_cache);
    EXPECT_GT(again, 0.0);
    EXPECT_EQ(checked.adj, first.adj);
    EXPECT_EQ(read_metis_file(mine.string()).kernel_name, first.kernel_name);  // rewritten
  }

  // A damaged cache file is rebuilt; where no folder can be made, the graph is built only.
  for (const auto& e : fs::directory_iterator(folder)) test::write_file(e.path(), "garbage\n");
  EXPECT_EQ(cached_locality_graph(trace.string(), std::uint32_t(kernel), 4, *app, &again).adj,
            first.adj);
  EXPECT_GT(again, 0.0);
  fs::remove_all(folder);
  test::write_file(folder, "a file where the folder would go");
  EXPECT_EQ(cached_locality_graph(trace.string(), std::uint32_t(kernel), 4, *app, &again).adj,
            first.adj);
  EXPECT_GT(again, 0.0);
  EXPECT_TRUE(fs::is_regular_file(folder));
}

}  // namespace
}  // namespace gputlm::traces::locality_test
