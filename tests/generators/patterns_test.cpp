// Address patterns, masks and counts of the generated kernels, checked against values
// computed here from the kernels' definitions and the documented address map.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>

#include "gen_test_util.h"
#include "traces/generators/input_gen.h"

namespace gputlm::traces::generators::test {
namespace {

constexpr std::uint64_t heap = 0x7f0000000000ull;

TEST(GenVectorAdd, LaneAddressesAndMasks) {
  const std::uint64_t n = 1000;
  const app_trace app = generate_in_memory("vectoradd", {"n=1000"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 2u);
  const std::uint64_t a = in[0], b = in[1], c = b + align256(4 * n);
  EXPECT_EQ(a, heap);
  EXPECT_EQ(b, a + align256(4 * n));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{4, 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
  EXPECT_EQ(k.info.binary_version, 70u);
  ASSERT_EQ(k.tbs.size(), 4u);
  for (const tb_trace& tb : k.tbs) {
    ASSERT_EQ(tb.warps.size(), 8u);
    for (std::uint32_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      std::uint32_t expect = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (tb.index.x * 256 + w * 32 + l < n) expect |= 1u << l;
      const auto ldg = find(app, wt, "LDG.E.SYS");
      const auto stg = find(app, wt, "STG.E.SYS");
      ASSERT_FALSE(wt.insts.empty());
      EXPECT_EQ(mnemonic(app, wt.insts.back()), "EXIT");
      if (expect == 0) {
        EXPECT_TRUE(ldg.empty());
        EXPECT_TRUE(stg.empty());
        EXPECT_EQ(wt.insts.back().active_mask, 0xffffffffu);
        continue;
      }
      ASSERT_EQ(ldg.size(), 2u);
      ASSERT_EQ(stg.size(), 1u);
      for (const warp_instruction* in : {ldg[0], ldg[1], stg[0]})
        EXPECT_EQ(in->active_mask, expect);
      for (auto [l, addr] : lane_addresses(wt, *ldg[0]))
        EXPECT_EQ(addr, a + 4 * (tb.index.x * 256 + w * 32 + l));
      for (auto [l, addr] : lane_addresses(wt, *ldg[1]))
        EXPECT_EQ(addr, b + 4 * (tb.index.x * 256 + w * 32 + l));
      for (auto [l, addr] : lane_addresses(wt, *stg[0]))
        EXPECT_EQ(addr, c + 4 * (tb.index.x * 256 + w * 32 + l));
      // A partially filled warp drops its out-of-range lanes with an early EXIT.
      const auto exits = find(app, wt, "EXIT");
      if (expect != 0xffffffffu) {
        ASSERT_EQ(exits.size(), 2u);
        EXPECT_EQ(exits[0]->active_mask, ~expect);
      } else {
        EXPECT_EQ(exits.size(), 1u);
      }
    }
  }
}

TEST(GenVectorAdd, MnemonicsFollowTheBinaryVersion) {
  auto mnemonics = [](std::uint32_t arch) {
    const app_trace app = generate_in_memory("vectoradd", {"n=64"}, arch);
    std::set<std::string> s;
    for (const auto& in : app.kernels[0].tbs[0].warps[0].insts) s.insert(mnemonic(app, in));
    return s;
  };
  const auto volta = mnemonics(70), pascal = mnemonics(61), kepler = mnemonics(35);
  EXPECT_TRUE(volta.count("IMAD.WIDE") && volta.count("LDG.E.SYS") && volta.count("STG.E.SYS"));
  EXPECT_TRUE(pascal.count("XMAD") && pascal.count("XMAD.MRG") && pascal.count("LEA") &&
              pascal.count("LDG.E") && pascal.count("STG.E"));
  EXPECT_TRUE(kepler.count("ISCADD") && kepler.count("IMAD.HI.X") && kepler.count("LD.E") &&
              kepler.count("ST.E"));
  // PCs: 16-byte instructions on Volta; a control word every 3 (Pascal) or 7 (Kepler).
  const app_trace p = generate_in_memory("vectoradd", {"n=64"}, 61);
  for (const auto& in : p.kernels[0].tbs[0].warps[0].insts) EXPECT_NE(in.pc % 32, 0u);
  const app_trace k = generate_in_memory("vectoradd", {"n=64"}, 35);
  for (const auto& in : k.kernels[0].tbs[0].warps[0].insts) EXPECT_NE(in.pc % 64, 0u);
}

TEST(GenStencil2d, NeighbourAddressesAndBoundaryMasks) {
  const std::uint32_t nx = 40, ny = 21;
  const app_trace app = generate_in_memory("stencil2d", {"nx=40", "ny=21"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 1u);
  const std::uint64_t src = in[0], dst = src + align256(4ull * nx * ny);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{3, 2, 1}));
  std::uint64_t interior_points = 0;
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      std::uint32_t interior = 0;
      std::int64_t idx[32] = {};
      for (unsigned l = 0; l < 32; ++l) {
        const std::uint32_t t = w * 32 + l, x = tb.index.x * 16 + t % 16,
                            y = tb.index.y * 16 + t / 16;
        idx[l] = std::int64_t(y) * nx + x;
        if (x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2) interior |= 1u << l;
      }
      interior_points += popcount(interior);
      const auto ldg = find(app, wt, "LDG");
      const auto stg = find(app, wt, "STG");
      if (interior == 0) {
        EXPECT_TRUE(ldg.empty());
        continue;
      }
      ASSERT_EQ(ldg.size(), 5u);
      ASSERT_EQ(stg.size(), 1u);
      const std::int64_t delta[5] = {0, -1, 1, -std::int64_t(nx), nx};  // c, w, e, n, s
      for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(ldg[i]->active_mask, interior);
        for (auto [l, addr] : lane_addresses(wt, *ldg[i]))
          EXPECT_EQ(addr, src + 4 * std::uint64_t(idx[l] + delta[i])) << "load " << i;
      }
      for (auto [l, addr] : lane_addresses(wt, *stg[0])) EXPECT_EQ(addr, dst + 4 * idx[l]);
    }
  EXPECT_EQ(interior_points, std::uint64_t(nx - 2) * (ny - 2));
}

TEST(GenSgemmTiled, SharedAddressesAndBarriers) {
  const std::uint32_t m = 40, n = 48, kk = 64, t = 16;
  const app_trace app = generate_in_memory("sgemm_tiled", {"M=40", "N=48", "K=64", "tile=16"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 3u);
  const std::uint64_t a = in[0], b = in[1];
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{3, 3, 1}));
  EXPECT_EQ(k.info.shmem, 2 * t * t * 4);
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 2u * kk / t);
      const auto sts = find(app, wt, "STS");
      const auto lds = find(app, wt, "LDS");
      ASSERT_EQ(sts.size(), 2u * kk / t);
      ASSERT_EQ(lds.size(), 2u * t * kk / t);
      auto tx = [&](unsigned l) { return (w * 32 + l) % t; };
      auto ty = [&](unsigned l) { return (w * 32 + l) / t; };
      for (std::size_t i = 0; i < sts.size(); ++i)
        for (auto [l, addr] : lane_addresses(wt, *sts[i]))
          EXPECT_EQ(addr, (i % 2) * t * t * 4 + 4ull * (ty(l) * t + tx(l)));
      for (std::size_t i = 0; i < lds.size(); ++i) {
        const std::uint64_t kk_in_tile = (i / 2) % t;
        for (auto [l, addr] : lane_addresses(wt, *lds[i]))
          EXPECT_EQ(addr, i % 2 == 0 ? 4 * (ty(l) * t + kk_in_tile)
                                     : t * t * 4 + 4 * (kk_in_tile * t + tx(l)));
      }
      // Global loads of the tiles (tile index = BAR.SYNCs seen / 2); rows past M are
      // predicated off.
      unsigned bars = 0;
      for (const auto& ins : wt.insts) {
        const std::string& op = mnemonic(app, ins);
        if (op == "BAR.SYNC") ++bars;
        if (op != "LDG.E.SYS") continue;
        const std::uint64_t ti = bars / 2;
        for (auto [l, addr] : lane_addresses(wt, ins)) {
          const std::uint64_t row = tb.index.y * t + ty(l), col = tb.index.x * t + tx(l);
          if (addr >= a && addr < a + 4ull * m * kk) {
            EXPECT_LT(row, m);
            EXPECT_EQ((addr - a) / 4, row * kk + ti * t + tx(l));
          } else if (addr >= b && addr < b + 4ull * kk * n) {
            EXPECT_EQ((addr - b) / 4, (ti * t + ty(l)) * n + col);
          } else {
            EXPECT_EQ(bars, 2u * kk / t) << "only the final C load is elsewhere";
          }
        }
      }
    }
}

TEST(GenSgemmNaive, LoopTripCountIsK) {
  const app_trace app = generate_in_memory("sgemm_naive", {"M=20", "N=20", "K=7"});
  for (const tb_trace& tb : app.kernels.at(0).tbs)
    for (const warp_trace& wt : tb.warps) {
      const auto ffma = find(app, wt, "FFMA");
      if (ffma.empty()) continue;
      EXPECT_EQ(ffma.size(), 7u + 1u);  // K steps + beta * C
      EXPECT_EQ(find(app, wt, "LDG").size(), 2u * 7u + 1u);
    }
}

TEST(GenSyrk, UpdatesCEveryStep) {
  const app_trace app = generate_in_memory("syrk", {"n=33", "k=5"});
  const auto in = input_addresses(app);
  const std::uint64_t a = in.at(0), c = in.at(1);
  std::uint64_t elements = 0;
  for (const tb_trace& tb : app.kernels.at(0).tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const auto stg = find(app, wt, "STG");
      const auto ldg = find(app, wt, "LDG");
      if (stg.empty()) continue;
      ASSERT_EQ(stg.size(), 1u + 5u);
      ASSERT_EQ(ldg.size(), 1u + 2u * 5u);
      elements += popcount(stg[0]->active_mask);
      for (auto [l, addr] : lane_addresses(wt, *ldg[1])) {  // a[i][0]
        const std::uint64_t i = tb.index.y * 8 + (w * 32 + l) / 32;
        EXPECT_EQ(addr, a + 4 * (i * 5));
      }
      for (auto [l, addr] : lane_addresses(wt, *ldg[2])) {  // a[j][0]
        const std::uint64_t j = tb.index.x * 32 + l;
        EXPECT_EQ(addr, a + 4 * (j * 5));
      }
      for (auto [l, addr] : lane_addresses(wt, *stg[3])) {
        const std::uint64_t i = tb.index.y * 8 + w, j = tb.index.x * 32 + l;
        EXPECT_EQ(addr, c + 4 * (i * 33 + j));
      }
    }
  EXPECT_EQ(elements, 33u * 33u);
}

// Reference BFS levels (-1: unreached).
std::vector<int> bfs_levels(const csr_graph& g, std::uint32_t source) {
  std::vector<int> level(g.vertices, -1);
  std::queue<std::uint32_t> q;
  level[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const std::uint32_t v = q.front();
    q.pop();
    for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (level[g.col[e]] < 0) {
        level[g.col[e]] = level[v] + 1;
        q.push(g.col[e]);
      }
  }
  return level;
}

// Vertices whose thread read its row_ptr entry in each host launch (the frontier).
std::vector<std::set<std::uint32_t>> frontiers(const app_trace& app, std::uint64_t row_ptr,
                                               std::uint32_t n) {
  std::vector<std::set<std::uint32_t>> r;
  for (const kernel_trace* k : host_kernels(app)) {
    std::set<std::uint32_t> f;
    for (const tb_trace& tb : k->tbs)
      for (const warp_trace& wt : tb.warps)
        for (const auto* in : find(app, wt, "LDG")) {
          const auto la = lane_addresses(wt, *in);
          if (la.empty() || la[0].second < row_ptr || la[0].second >= row_ptr + 4ull * (n + 1))
            continue;
          for (auto [l, addr] : la) f.insert(std::uint32_t((addr - row_ptr) / 4));
          break;  // the first row_ptr load: row_ptr[v]
        }
    r.push_back(f);
  }
  return r;
}

void expect_bfs_levels(const app_trace& app, const csr_graph& g, std::uint32_t source) {
  const auto level = bfs_levels(g, source);
  const int depth = *std::max_element(level.begin(), level.end());
  const auto f = frontiers(app, input_addresses(app).at(0), g.vertices);
  ASSERT_EQ(f.size(), std::size_t(depth + 1)) << "one launch per level";
  for (int d = 0; d <= depth; ++d) {
    std::set<std::uint32_t> expect;
    for (std::uint32_t v = 0; v < g.vertices; ++v)
      if (level[v] == d) expect.insert(v);
    EXPECT_EQ(f[d], expect) << "level " << d;
  }
}

TEST(GenBfs, FrontierPerLaunchEqualsReferenceBfs) {
  const csr_graph g = make_rmat_graph(9, 8, 3);
  const app_trace app =
      generate_in_memory("bfs", {"scale=9", "degree=8", "seed=3", "source=5", "block=128"});
  expect_bfs_levels(app, g, 5);
  // Stores into levels[] of launch d target exactly the vertices of level d + 1.
  const auto level = bfs_levels(g, 5);
  const std::uint64_t levels = input_addresses(app).at(2);
  const auto hk = host_kernels(app);
  for (std::size_t d = 0; d < hk.size(); ++d) {
    std::set<std::uint32_t> stored, expect;
    for (const tb_trace& tb : hk[d]->tbs)
      for (const warp_trace& wt : tb.warps)
        for (const auto* in : find(app, wt, "STG"))
          for (auto [l, addr] : lane_addresses(wt, *in))
            if (addr >= levels && addr < levels + 4ull * g.vertices)
              stored.insert(std::uint32_t((addr - levels) / 4));
    for (std::uint32_t v = 0; v < g.vertices; ++v)
      if (level[v] == int(d) + 1) expect.insert(v);
    EXPECT_EQ(stored, expect) << "launch " << d;
  }
}

TEST(GenBfs, RmatGraphIsSymmetricAndDeduplicated) {
  const csr_graph g = make_rmat_graph(8, 8, 1);
  ASSERT_EQ(g.row_ptr.size(), 257u);
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t v = 0; v < g.vertices; ++v)
    for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      EXPECT_NE(g.col[e], v);
      EXPECT_TRUE(edges.emplace(v, g.col[e]).second);
    }
  for (auto [u, v] : edges) EXPECT_TRUE(edges.count({v, u}));
  EXPECT_EQ(make_rmat_graph(8, 8, 1).col, g.col);
  EXPECT_NE(make_rmat_graph(8, 8, 2).col, g.col);
}

TEST(GenSpmv, TripCountsEqualRowLengths) {
  const csr_matrix a = make_powerlaw_matrix(300, 300, 1.5, 64, 5);
  const app_trace app =
      generate_in_memory("spmv", {"rows=300", "alpha=1.5", "max_row=64", "seed=5", "block=128"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 4u);
  const std::uint64_t val = in[2], x = in[3];
  std::map<std::uint32_t, std::vector<std::uint64_t>> val_addr, x_addr;
  for (const tb_trace& tb : app.kernels.at(0).tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w)
      for (const auto* ins : find(app, tb.warps[w], "LDG"))
        for (auto [l, addr] : lane_addresses(tb.warps[w], *ins)) {
          const std::uint32_t row = tb.index.x * 128 + w * 32 + l;
          if (addr >= val && addr < val + 4ull * a.val.size()) val_addr[row].push_back(addr);
          if (addr >= x && addr < x + 4ull * 300) x_addr[row].push_back(addr);
        }
  std::uint64_t nonzeros = 0;
  for (std::uint32_t r = 0; r < 300; ++r) {
    const std::uint32_t len = a.row_ptr[r + 1] - a.row_ptr[r];
    nonzeros += len;
    ASSERT_EQ(val_addr[r].size(), len) << "row " << r;
    ASSERT_EQ(x_addr[r].size(), len) << "row " << r;
    for (std::uint32_t j = 0; j < len; ++j) {
      EXPECT_EQ(val_addr[r][j], val + 4ull * (a.row_ptr[r] + j));
      EXPECT_EQ(x_addr[r][j], x + 4ull * a.col[a.row_ptr[r] + j]);
    }
  }
  EXPECT_EQ(nonzeros, a.val.size());
}

TEST(GenSpmv, PowerLawRowLengths) {
  const csr_matrix a = make_powerlaw_matrix(4000, 4000, 2.0, 256, 1);
  std::map<std::uint32_t, int> histogram;
  for (std::uint32_t r = 0; r < a.rows; ++r) {
    const std::uint32_t len = a.row_length(r);
    ASSERT_GE(len, 1u);
    ASSERT_LE(len, 256u);
    ++histogram[len];
    for (std::uint32_t j = a.row_ptr[r] + 1; j < a.row_ptr[r + 1]; ++j)
      EXPECT_LT(a.col[j - 1], a.col[j]);
  }
  // P(1) / P(2) = 2^alpha = 4 for alpha = 2.
  EXPECT_NEAR(double(histogram[1]) / histogram[2], 4.0, 0.8);
  EXPECT_GT(histogram[1], histogram[4] * 8);
}

TEST(GenReduction, ActiveLanesHalvePerStep) {
  const std::uint64_t n = 256 * 3 + 17;
  const app_trace app = generate_in_memory("reduction", {"n=785", "block=256"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 1u);
  const std::uint64_t partial = in[0] + align256(4 * n);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.shmem, 1024u);
  for (const tb_trace& tb : k.tbs) {
    std::vector<unsigned> active(8, 0);
    unsigned stores = 0;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 9u);
      unsigned bars = 0, lds_since_bar = 0;
      for (const auto& ins : wt.insts) {
        const std::string& op = mnemonic(app, ins);
        if (op == "BAR.SYNC") {
          ++bars;
          lds_since_bar = 0;
        } else if (op == "LDS" && bars >= 1 && bars <= 8) {
          const std::uint32_t s = 256u >> bars;
          if (lds_since_bar++ == 0) {
            active[bars - 1] += popcount(ins.active_mask);
          } else {
            for (auto [l, addr] : lane_addresses(wt, ins)) EXPECT_EQ(addr, 4ull * (w * 32 + l + s));
          }
        } else if (op == "STG.E.SYS") {
          ++stores;
          EXPECT_EQ(ins.active_mask, 1u);
          EXPECT_EQ(w, 0u);
          EXPECT_EQ(lane_addresses(wt, ins).at(0).second, partial + 4ull * tb.index.x);
        } else if (op == "LDG.E.SYS") {
          for (auto [l, addr] : lane_addresses(wt, ins))
            EXPECT_EQ(addr, in[0] + 4ull * (tb.index.x * 256 + w * 32 + l));
          const std::uint64_t valid = std::min<std::uint64_t>(
              32, n - std::min<std::uint64_t>(n, tb.index.x * 256 + w * 32));
          EXPECT_EQ(popcount(ins.active_mask), valid);
        }
      }
    }
    for (unsigned s = 0; s < 8; ++s) EXPECT_EQ(active[s], 128u >> s) << "step " << s;
    EXPECT_EQ(stores, 1u);
  }
  // final=atomic: one RED per TB into the total.
  const app_trace at = generate_in_memory("reduction", {"n=785", "final=atomic"});
  const std::uint64_t total = input_addresses(at).at(1);
  unsigned reds = 0;
  for (const tb_trace& tb : at.kernels.at(0).tbs)
    for (const warp_trace& wt : tb.warps)
      for (const auto* ins : find(at, wt, "RED")) {
        ++reds;
        EXPECT_EQ(lane_addresses(wt, *ins).at(0).second, total);
      }
  EXPECT_EQ(reds, 4u);
}

TEST(GenHistogram, OneAtomicPerValueIntoItsBin) {
  const app_trace app =
      generate_in_memory("histogram", {"n=5000", "bins=64", "block=128", "grid=8", "seed=9"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 2u);
  const std::uint64_t bins = in[1];
  std::vector<std::uint64_t> counted(64, 0), expect(64, 0);
  std::uint64_t atomics = 0;
  for (const tb_trace& tb : app.kernels.at(0).tbs)
    for (const warp_trace& wt : tb.warps)
      for (const auto* ins : find(app, wt, "RED.E.ADD")) {
        EXPECT_EQ(ins->space, mem_space::global_atomic);
        atomics += popcount(ins->active_mask);
        for (auto [l, addr] : lane_addresses(wt, *ins)) ++counted.at((addr - bins) / 4);
      }
  EXPECT_EQ(atomics, 5000u);
  for (std::uint32_t v : make_uniform_u32(5000, 9)) ++expect[v % 64];
  EXPECT_EQ(counted, expect);
}

// Launch records of the host kernels: (launching vertex/row, record).
std::vector<std::pair<std::uint32_t, device_launch>> launches(const app_trace& app,
                                                              const std::string& op,
                                                              std::uint32_t block) {
  std::vector<std::pair<std::uint32_t, device_launch>> r;
  for (const kernel_trace* k : host_kernels(app))
    for (const tb_trace& tb : k->tbs)
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w)
        for (const auto* ins : find(app, tb.warps[w], op)) {
          EXPECT_EQ(popcount(ins->active_mask), 1u);
          unsigned lane = 0;
          while (!(ins->active_mask >> lane & 1u)) ++lane;
          r.emplace_back(tb.index.x * block + w * 32 + lane,
                         tb.warps[w].launches.at(ins->ext_index));
        }
  return r;
}

void expect_children(const app_trace& app,
                     const std::vector<std::pair<std::uint32_t, device_launch>>& l,
                     const std::function<std::uint32_t(std::uint32_t)>& work) {
  std::map<std::uint32_t, const kernel_trace*> by_id;
  std::map<std::uint32_t, std::size_t> command_of;
  for (const auto& k : app.kernels) by_id[k.info.id] = &k;
  for (std::size_t i = 0; i < app.commands.size(); ++i)
    if (app.commands[i].what != command::kind::memcpy_h2d)
      command_of[std::uint32_t(std::stoul(app.commands[i].kernel_file.substr(7)))] = i;
  std::set<std::uint64_t> params;
  for (const auto& [who, rec] : l) {
    ASSERT_TRUE(by_id.count(rec.child_kernel));
    const kernel_trace& child = *by_id[rec.child_kernel];
    EXPECT_TRUE(child.info.device_launched);
    EXPECT_EQ(app.commands[command_of[rec.child_kernel]].what, command::kind::device_kernel);
    EXPECT_EQ(child.info.grid, rec.grid);
    EXPECT_EQ(child.info.block, rec.block);
    EXPECT_EQ(rec.block, (dim3{32, 1, 1}));
    EXPECT_EQ(rec.grid.x, (work(who) + 31) / 32);
    EXPECT_EQ(rec.param_addr % 256, 0u);
    EXPECT_TRUE(params.insert(rec.param_addr).second);
  }
  std::size_t device_kernels = 0;
  for (const auto& k : app.kernels) device_kernels += k.info.device_launched ? 1 : 0;
  EXPECT_EQ(device_kernels, l.size());
}

TEST(GenBfsCdp, LaunchesEqualReachableVerticesAboveThreshold) {
  const csr_graph g = make_rmat_graph(9, 8, 3);
  const auto level = bfs_levels(g, 0);
  std::size_t expect = 0;
  for (std::uint32_t v = 0; v < g.vertices; ++v)
    if (level[v] >= 0 && g.degree(v) >= 16) ++expect;
  ASSERT_GT(expect, 0u);
  for (const char* kind : {"bfs_cdp", "bfs_dtbl"}) {
    const bool cdp = std::string(kind) == "bfs_cdp";
    const app_trace app = generate_in_memory(
        kind, {"scale=9", "degree=8", "seed=3", "threshold=16", "child_block=32"});
    const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 256);
    EXPECT_EQ(l.size(), expect) << kind;
    EXPECT_TRUE(launches(app, cdp ? "DTBL.LAUNCH" : "CDP.LAUNCH", 256).empty());
    for (const auto& [v, rec] : l) EXPECT_GE(g.degree(v), 16u);
    expect_children(app, l, [&](std::uint32_t v) { return g.degree(v); });
    expect_bfs_levels(app, g, 0);  // children do not change the frontiers
  }
}

TEST(GenSpmvCdp, LaunchesEqualRowsAboveThreshold) {
  const csr_matrix a = make_powerlaw_matrix(500, 500, 1.2, 200, 4);
  std::size_t expect = 0;
  std::uint64_t child_products = 0;
  for (std::uint32_t r = 0; r < a.rows; ++r)
    if (a.row_length(r) >= 40) {
      ++expect;
      child_products += a.row_length(r);
    }
  ASSERT_GT(expect, 0u);
  for (const char* kind : {"spmv_cdp", "spmv_dtbl"}) {
    const bool cdp = std::string(kind) == "spmv_cdp";
    const app_trace app = generate_in_memory(
        kind, {"rows=500", "alpha=1.2", "max_row=200", "seed=4", "threshold=40"});
    const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 256);
    EXPECT_EQ(l.size(), expect) << kind;
    expect_children(app, l, [&](std::uint32_t r) { return a.row_length(r); });
    // Children add one product each to y[row] with a floating-point RED.
    std::uint64_t reds = 0;
    for (const auto& k : app.kernels)
      if (k.info.device_launched)
        for (const tb_trace& tb : k.tbs)
          for (const warp_trace& wt : tb.warps)
            for (const auto* ins : find(app, wt, "RED.E.ADD.F32"))
              reds += popcount(ins->active_mask);
    EXPECT_EQ(reds, child_products);
  }
}

TEST(GenSpuStencil, OffChipTrafficAndCommunicationBuffers) {
  const std::uint32_t n = 32, b = 16, tiles = 2, ctas = 2;
  const app_trace app = generate_in_memory("spu_stencil", {"n=32", "b=16", "s=4"});
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{ctas + 2, ctas + 2, 1}));
  EXPECT_EQ(k.info.block, (dim3{4, 4, 1}));
  std::uint64_t offchip = 0;
  std::map<std::string, std::uint64_t> cb_bytes, syncs;
  for (const tb_trace& tb : k.tbs) {
    const bool corner =
        (tb.index.x == 0 || tb.index.x == ctas + 1) && (tb.index.y == 0 || tb.index.y == ctas + 1);
    const bool sm =
        !corner && tb.index.x >= 1 && tb.index.x <= ctas && tb.index.y >= 1 && tb.index.y <= ctas;
    std::uint64_t push_east = 0;
    for (const warp_trace& wt : tb.warps) {
      std::map<std::string, unsigned> tb_syncs;
      for (const auto& ins : wt.insts) {
        const std::string& op = mnemonic(app, ins);
        if (ins.space == mem_space::global)
          offchip += std::uint64_t(popcount(ins.active_mask)) * ins.access_size;
        if (ins.special == special_op::cb_push || ins.special == special_op::cb_pop) {
          cb_bytes[op] += ins.ext_index;
          if (op == "CB.PUSH.EAST") push_east += ins.ext_index;
        }
        if (ins.special == special_op::block_sync) ++tb_syncs[op];
      }
      if (corner) {  // head, role check + BRA, EXIT
        EXPECT_EQ(wt.insts.size(), 5u + 2u + 1u);
      }
      if (sm) {
        for (const char* d : {"NORTH", "WEST", "SOUTH", "EAST"})
          EXPECT_EQ(tb_syncs[std::string("BAR.BLOCKSYNC.") + d], tiles);
        // One BAR.SYNC per wavefront step: 2 (b/s - 1) + b steps per tile.
        EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), tiles * (2 * (b / 4 - 1) + b));
      }
      for (auto& [op, c] : tb_syncs) syncs[op] += c;
    }
    if (sm) {
      EXPECT_EQ(push_east, std::uint64_t(tiles) * b * b * 4);
    }
  }
  // 3 inputs and 3 outputs of N^2 elements each (K = N): the thesis' 6N^2 lower bound.
  EXPECT_EQ(offchip, 6ull * n * n * 4);
  const std::uint64_t per_dir = std::uint64_t(ctas) * (ctas + 1) * tiles * b * b * 4;
  for (const char* op : {"CB.PUSH.EAST", "CB.POP.WEST", "CB.PUSH.SOUTH", "CB.POP.NORTH"})
    EXPECT_EQ(cb_bytes[op], per_dir) << op;
  EXPECT_EQ(syncs["BAR.BLOCKSYNC.EAST"], syncs["BAR.BLOCKSYNC.WEST"]);
  EXPECT_EQ(syncs["BAR.BLOCKSYNC.SOUTH"], syncs["BAR.BLOCKSYNC.NORTH"]);
}

TEST(GenSpuStencil, GlobalSyncRunsTheWavefrontLoop) {
  const std::uint32_t ctas = 2, tiles = 4;
  const app_trace app = generate_in_memory("spu_stencil", {"n=32", "k=64", "b=16", "sync=global"});
  for (const tb_trace& tb : app.kernels.at(0).tbs) {
    const bool corner =
        (tb.index.x == 0 || tb.index.x == ctas + 1) && (tb.index.y == 0 || tb.index.y == ctas + 1);
    for (const warp_trace& wt : tb.warps) {
      const auto bs = find(app, wt, "BAR.BLOCKSYNC");
      EXPECT_EQ(bs.size(), corner ? 0u : 2u * ctas + tiles);
      for (const auto* ins : bs) EXPECT_EQ(ins->dir, direction::global);
    }
  }
  const app_trace none = generate_in_memory("spu_stencil", {"n=64", "b=16", "iu=none"});
  EXPECT_EQ(none.kernels.at(0).info.grid, (dim3{4, 4, 1}));
}

}  // namespace
}  // namespace gputlm::traces::generators::test
