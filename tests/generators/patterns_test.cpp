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

namespace gputlm::traces::generators::test::patterns_test {
namespace {

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

TEST(GenPchase, OneThreadChasesTheStrideAroundTheFootprint) {
  // 1 KiB footprint (256 elements), stride 96 B (24 elements), 20 loads: load k reads
  // A[(24 k) mod 256], lane 0 only; the other 31 lanes leave at once.
  const app_trace app =
      generate_in_memory("pchase", {"footprint=1024", "stride=96", "iterations=20"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 1u);
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  ASSERT_EQ(k.tbs.size(), 1u);
  ASSERT_EQ(k.tbs[0].warps.size(), 1u);
  const warp_trace& wt = k.tbs[0].warps[0];
  const auto ldg = find(app, wt, "LDG.E.SYS");
  ASSERT_EQ(ldg.size(), 20u);
  for (std::size_t i = 0; i < ldg.size(); ++i) {
    EXPECT_EQ(ldg[i]->active_mask, 1u);
    const auto lanes = lane_addresses(wt, *ldg[i]);
    ASSERT_EQ(lanes.size(), 1u);
    EXPECT_EQ(lanes[0].second, in[0] + 4 * ((24 * i) % 256)) << i;
  }
  EXPECT_EQ(mnemonic(app, wt.insts.back()), "EXIT");
}

TEST(GenSmemBank, LaneWordsFollowTheStride) {
  // stride 4: lane l reads shared word 4 l (byte 16 l), every load all 32 lanes, 10 loads.
  const app_trace app = generate_in_memory("smem_bank", {"stride=4", "iterations=10"});
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.shmem, 32u * 4 * 4);
  const warp_trace& wt = k.tbs[0].warps[0];
  const auto lds = find(app, wt, "LDS");
  ASSERT_EQ(lds.size(), 10u);
  for (const warp_instruction* in : lds) {
    EXPECT_EQ(in->active_mask, 0xffffffffu);
    for (auto [l, addr] : lane_addresses(wt, *in)) EXPECT_EQ(addr, 16u * l);
  }
}

TEST(GenStream, GridStrideSweepsRepeatPerPass) {
  // 1000 words, 2 TBs of 64 threads (stride 128 threads), 3 passes of reads: thread t reads
  // words t, t + 128, ... below 1000 in every pass (8 words for t < 104, else 7), lane l of
  // warp w of TB b being thread 64 b + 32 w + l; then stores its sum to out[t].
  const app_trace app = generate_in_memory(
      "stream", {"mode=read", "footprint=4000", "passes=3", "block=64", "grid=2"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 2u);
  const kernel_trace& k = app.kernels.at(0);
  ASSERT_EQ(k.tbs.size(), 2u);
  std::map<std::uint64_t, unsigned> reads;  // word -> times read
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const auto ldg = find(app, wt, "LDG");
      std::size_t n = 0;
      for (std::uint64_t pass = 0; pass < 3; ++pass)
        for (std::uint64_t it = 0; it < 8; ++it) {
          std::uint32_t expect = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (64 * tb.index.x + 32 * w + l + 128 * it < 1000) expect |= 1u << l;
          if (!expect) continue;
          ASSERT_LT(n, ldg.size());
          EXPECT_EQ(ldg[n]->active_mask, expect);
          for (auto [l, addr] : lane_addresses(wt, *ldg[n])) {
            EXPECT_EQ(addr, in[0] + 4 * (64 * tb.index.x + 32 * w + l + 128 * it));
            ++reads[(addr - in[0]) / 4];
          }
          ++n;
        }
      EXPECT_EQ(n, ldg.size());
      const auto stg = find(app, wt, "STG");
      ASSERT_EQ(stg.size(), 1u);
      for (auto [l, addr] : lane_addresses(wt, *stg[0]))
        EXPECT_EQ(addr, in[1] + 4 * (64 * tb.index.x + 32 * w + l));
    }
  ASSERT_EQ(reads.size(), 1000u);
  for (auto [word, times] : reads) EXPECT_EQ(times, 3u) << word;
  // Writes: the same sweep, stores only.
  const app_trace wr = generate_in_memory(
      "stream", {"mode=write", "footprint=4000", "passes=3", "block=64", "grid=2"});
  std::size_t stores = 0, loads = 0;
  for (const tb_trace& tb : wr.kernels.at(0).tbs)
    for (const warp_trace& wt : tb.warps) {
      for (const warp_instruction* s : find(wr, wt, "STG")) stores += lane_addresses(wt, *s).size();
      loads += find(wr, wt, "LDG").size();
    }
  EXPECT_EQ(stores, 3000u);
  EXPECT_EQ(loads, 0u);
}

TEST(GenAtomics, ThreadsUpdateTheirWordEveryIteration) {
  // 3 words 32 B apart, 1 TB of 64 threads, 5 iterations: thread t adds to word t mod 3.
  const app_trace app = generate_in_memory(
      "atomics", {"addresses=3", "spacing=32", "iterations=5", "block=64", "grid=1"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 1u);
  const kernel_trace& k = app.kernels.at(0);
  ASSERT_EQ(k.tbs.size(), 1u);
  std::map<std::uint64_t, unsigned> updates;
  for (std::uint32_t w = 0; w < 2; ++w) {
    const warp_trace& wt = k.tbs[0].warps[w];
    const auto red = find(app, wt, "RED.E.ADD");
    ASSERT_EQ(red.size(), 5u);
    for (const warp_instruction* in_ : red) {
      EXPECT_EQ(in_->active_mask, 0xffffffffu);
      for (auto [l, addr] : lane_addresses(wt, *in_)) {
        EXPECT_EQ(addr, in[0] + 32 * ((32 * w + l) % 3));
        ++updates[addr - in[0]];
      }
    }
  }
  // 64 threads: 22 on word 0, 21 on words 1 and 2, five times each.
  EXPECT_EQ(updates, (std::map<std::uint64_t, unsigned>{{0, 110}, {32, 105}, {64, 105}}));
}

TEST(GenFuChain, ChainsDependOnlyOnThemselves) {
  // 3 chains of FFMA, 2 trips: each trip has 8 rounds of the 3 chains (24 FFMAs), each FFMA
  // reading and writing its chain's register, the loop's counter independent of them.
  const app_trace app =
      generate_in_memory("fu_chain", {"unit=fp32", "chains=3", "warps=2", "iterations=2"});
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.block, (dim3{64, 1, 1}));
  for (const warp_trace& wt : k.tbs.at(0).warps) {
    const auto ffma = find(app, wt, "FFMA");
    ASSERT_EQ(ffma.size(), 48u);
    for (std::size_t i = 0; i < ffma.size(); ++i) {
      const warp_instruction& in = *ffma[i];
      ASSERT_EQ(in.num_dst, 1u);
      EXPECT_EQ(in.dst[0], ffma[i % 3]->dst[0]) << i;  // chain i mod 3
      EXPECT_EQ(in.src[0], in.dst[0]) << i;            // reads its own result
      if (i >= 3) {
        EXPECT_EQ(ffma[i - 3]->dst[0], in.src[0]);  // the chain's previous op
      }
    }
    std::set<reg> chain_regs{ffma[0]->dst[0], ffma[1]->dst[0], ffma[2]->dst[0]};
    EXPECT_EQ(chain_regs.size(), 3u);
  }
  // The unit class follows the operation: DFMA is fp64 (register pairs), MUFU the SFU.
  const app_trace dp = generate_in_memory("fu_chain", {"unit=fp64", "chains=2"});
  const auto dfma = find(dp, dp.kernels[0].tbs[0].warps[0], "DFMA");
  ASSERT_EQ(dfma.size(), 256u * 8 * 2);
  EXPECT_EQ(dfma[1]->dst[0], dfma[0]->dst[0] + 2);
  const app_trace sfu = generate_in_memory("fu_chain", {"unit=sfu", "iterations=1"});
  EXPECT_EQ(find(sfu, sfu.kernels[0].tbs[0].warps[0], "MUFU.RSQ").size(), 8u);
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
                     const std::function<std::uint32_t(std::uint32_t)>& work,
                     std::uint32_t child_block, const std::string& group_function = "") {
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
    EXPECT_EQ(rec.block, (dim3{child_block, 1, 1}));
    EXPECT_EQ(rec.grid.x, (work(who) + child_block - 1) / child_block);
    // A DTBL group runs its launcher's function, so it can coalesce into the launcher.
    if (!group_function.empty()) {
      EXPECT_EQ(child.info.name, group_function);
    }
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
    std::vector<std::string> params = {"scale=9", "degree=8", "seed=3", "threshold=16", "block=64"};
    if (cdp) params.push_back("child_block=32");
    const app_trace app = generate_in_memory(kind, params);
    const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 64);
    EXPECT_EQ(l.size(), expect) << kind;
    EXPECT_TRUE(launches(app, cdp ? "DTBL.LAUNCH" : "CDP.LAUNCH", 64).empty());
    for (const auto& [v, rec] : l) EXPECT_GE(g.degree(v), 16u);
    expect_children(
        app, l, [&](std::uint32_t v) { return g.degree(v); }, cdp ? 32 : 64,
        cdp ? "" : host_kernels(app).front()->info.name);
    expect_bfs_levels(app, g, 0);  // children do not change the frontiers
  }
}

// group_function=separate: the same launches, each group in a function of its own (named
// like the CDP child, never a host kernel's) with child_block-thread TBs; the work (the
// frontier) is unchanged. A child_block in the launcher's function is refused.
TEST(GenBfsDtbl, SeparateFunctionGroupsKeepTheLaunchesInTheirOwnFunction) {
  const csr_graph g = make_rmat_graph(9, 8, 3);
  const std::vector<std::string> base = {"scale=9", "degree=8", "seed=3", "threshold=16",
                                         "block=64"};
  std::vector<std::string> sep = base;
  sep.push_back("group_function=separate");
  sep.push_back("child_block=32");
  const app_trace launcher = generate_in_memory("bfs_dtbl", base);
  const app_trace separate = generate_in_memory("bfs_dtbl", sep);
  const auto l = launches(separate, "DTBL.LAUNCH", 64);
  EXPECT_EQ(l.size(), launches(launcher, "DTBL.LAUNCH", 64).size());
  ASSERT_FALSE(l.empty());
  expect_children(
      separate, l, [&](std::uint32_t v) { return g.degree(v); }, 32, "_Z14bfs_dtbl_childPKjPijjPi");
  for (const kernel_trace* k : host_kernels(separate))
    EXPECT_NE(k->info.name, "_Z14bfs_dtbl_childPKjPijjPi");
  expect_bfs_levels(separate, g, 0);
  std::vector<std::string> bad = base;
  bad.push_back("child_block=64");
  EXPECT_THROW(generate_in_memory("bfs_dtbl", bad), std::exception);
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
    expect_children(
        app, l, [&](std::uint32_t r) { return a.row_length(r); }, cdp ? 32 : 256,
        cdp ? "" : host_kernels(app).front()->info.name);
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

// target=gpu (Ranasinghe 2014): the same CTAs exchange their faces through global memory.
// Face traffic by hand, thesis Eq 3.2: per CTA 4Nb (a west and a north face in, an east and
// a south face out, per tile) + 2b^2 (A and H); the status words: one poll per producer per
// tile, one flag store per tile; one ticket per CTA.
TEST(GenSpuStencil, GpuBaselineExchangesFacesThroughGlobalMemory) {
  const std::uint64_t n = 64, b = 16, tiles = n / b, ctas = n / b;
  const app_trace app =
      generate_in_memory("spu_stencil", {"n=64", "b=16", "s=4", "iu=none", "target=gpu"});
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{4, 4, 1}));
  std::uint64_t faces = 0, polls = 0, flags = 0, tickets = 0;
  for (const tb_trace& tb : k.tbs)
    for (const warp_trace& wt : tb.warps)
      for (const auto& ins : wt.insts) {
        EXPECT_NE(ins.special, special_op::cb_push);
        EXPECT_NE(ins.special, special_op::cb_pop);
        EXPECT_NE(ins.special, special_op::block_sync);
        if (starts_with(mnemonic(app, ins), "ATOM")) {
          tickets += popcount(ins.active_mask);
          continue;
        }
        if (ins.space != mem_space::global) continue;
        const std::uint64_t bytes = std::uint64_t(popcount(ins.active_mask)) * ins.access_size;
        if (ins.access_size == 4) {
          (starts_with(mnemonic(app, ins), "ST") ? flags : polls) += popcount(ins.active_mask);
        } else {
          faces += bytes;
        }
      }
  EXPECT_EQ(faces, ctas * ctas * (4 * n * b + 2 * b * b) * 4);
  // Producers: (ctas - 1) CTAs a row have a west one, as many a column a north one.
  EXPECT_EQ(polls, 2 * ctas * (ctas - 1) * tiles);
  EXPECT_EQ(flags, ctas * ctas * tiles);
  EXPECT_EQ(tickets, ctas * ctas);
  // The GPU kernel has no interface units: iu=ring (the default) is refused.
  EXPECT_THROW(generate_in_memory("spu_stencil", {"target=gpu"}), std::exception);
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

// ---- dynamic-parallelism applications of Wang's thesis: sssp, clr, join, amr ----

// The device-runtime parameter buffers (docs/traces.md, "Device memory"): a launch's two
// 8-byte parameter stores go there.
constexpr std::uint64_t param_buffers = 0x7f4000000000ull;

// Kernel ids of device kernels mapped to the host-kernel index (round) they belong to.
std::vector<int> round_of_kernels(const app_trace& app) {
  std::vector<int> r;
  int round = -1;
  for (const auto& k : app.kernels) {
    if (!k.info.device_launched) ++round;
    r.push_back(round);
  }
  return r;
}

std::vector<std::uint64_t> dijkstra(const csr_graph& g, const std::vector<std::uint32_t>& w,
                                    std::uint32_t source) {
  std::vector<std::uint64_t> d(g.vertices, ~0ull);
  using item = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> q;
  d[source] = 0;
  q.push({0, source});
  while (!q.empty()) {
    const auto [dv, v] = q.top();
    q.pop();
    if (dv != d[v]) continue;
    for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (dv + w[e] < d[g.col[e]]) {
        d[g.col[e]] = dv + w[e];
        q.push({d[g.col[e]], g.col[e]});
      }
  }
  return d;
}

// Replays the trace's relaxations: a lane's d is its load of dist[v] (a child's: its
// launcher's), its w its load of weight[e], and each atomic min on dist[u] applies d + w.
std::vector<std::uint64_t> replay_sssp(const app_trace& app, const csr_graph& g,
                                       const std::vector<std::uint32_t>& w) {
  const auto in = input_addresses(app);
  const std::uint64_t weight = in.at(2), dist_addr = in.at(3);
  const std::uint32_t n = g.vertices, m = std::uint32_t(g.col.size());
  std::vector<std::uint64_t> dist(n, 0x7fffffff);
  dist[0] = 0;
  std::map<std::uint32_t, std::uint64_t> child_d;
  for (const auto& k : app.kernels)
    for (const tb_trace& tb : k.tbs)
      for (const warp_trace& wt : tb.warps) {
        std::array<std::uint64_t, 32> d{}, wl{};
        if (k.info.device_launched) d.fill(child_d.at(k.info.id));
        for (const auto& ins : wt.insts) {
          const std::string& op = mnemonic(app, ins);
          if (starts_with(op, "LDG"))
            for (auto [l, a] : lane_addresses(wt, ins)) {
              if (a >= dist_addr && a < dist_addr + 4ull * n) d[l] = dist[(a - dist_addr) / 4];
              if (a >= weight && a < weight + 4ull * m) wl[l] = w[(a - weight) / 4];
            }
          if (starts_with(op, "ATOMG.E.MIN"))
            for (auto [l, a] : lane_addresses(wt, ins)) {
              std::uint64_t& du = dist.at((a - dist_addr) / 4);
              du = std::min(du, d[l] + wl[l]);
            }
          if (ins.special == special_op::launch_kernel ||
              ins.special == special_op::launch_agg_group)
            for (unsigned l = 0; l < 32; ++l)
              if (ins.active_mask >> l & 1u)
                child_d[wt.launches.at(ins.ext_index).child_kernel] = d[l];
        }
      }
  return dist;
}

TEST(GenSssp, ReplayedDistancesEqualDijkstraAndLaunchesFollowDegrees) {
  const csr_graph g = make_rmat_graph(9, 8, 3);
  const auto w = make_uniform_range(g.col.size(), 20, 4);
  auto ref = dijkstra(g, w, 0);
  for (auto& d : ref)
    if (d == ~0ull) d = 0x7fffffff;
  for (const char* kind : {"sssp", "sssp_cdp", "sssp_dtbl"}) {
    SCOPED_TRACE(kind);
    const std::string k = kind;
    std::vector<std::string> params = {"scale=9", "degree=8", "seed=3", "max_weight=20",
                                       "block=64"};
    if (k != "sssp") params.push_back("threshold=16");
    const app_trace app = generate_in_memory(kind, params);
    EXPECT_EQ(replay_sssp(app, g, w), ref);
    if (k == "sssp") {
      EXPECT_EQ(app.kernels.size(), host_kernels(app).size());
      continue;
    }
    // Every frontier vertex (row_ptr loaded) with degree >= threshold launches, no other.
    std::size_t expect = 0;
    for (const auto& f : frontiers(app, input_addresses(app).at(0), g.vertices))
      for (std::uint32_t v : f) expect += g.degree(v) >= 16 ? 1 : 0;
    const bool cdp = k == "sssp_cdp";
    const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 64);
    ASSERT_GT(expect, 0u);
    EXPECT_EQ(l.size(), expect);
    expect_children(
        app, l, [&](std::uint32_t v) { return g.degree(v); }, cdp ? 32 : 64,
        cdp ? "" : host_kernels(app).front()->info.name);
  }
}

// Jones-Plassmann rounds: colour[v] = the round v is a local maximum among the vertices
// uncoloured when the round begins (rand, then id, breaks ties).
std::vector<int> jones_plassmann(const csr_graph& g, const std::vector<std::uint32_t>& rnd) {
  std::vector<int> color(g.vertices, -1);
  auto beats = [&](std::uint32_t u, std::uint32_t v) {
    return rnd[u] > rnd[v] || (rnd[u] == rnd[v] && u > v);
  };
  for (int c = 0;; ++c) {
    std::vector<std::uint32_t> winners;
    bool left = false;
    for (std::uint32_t v = 0; v < g.vertices; ++v) {
      if (color[v] >= 0) continue;
      left = true;
      bool max = true;
      for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
        if (color[g.col[e]] < 0 && beats(g.col[e], v)) max = false;
      if (max) winners.push_back(v);
    }
    if (!left) return color;
    for (std::uint32_t v : winners) color[v] = c;
  }
}

TEST(GenClr, ColourStoresPerRoundEqualJonesPlassmann) {
  const csr_graph g = make_rmat_graph(8, 8, 5);
  const auto rnd = make_uniform_u32(g.vertices, 6);
  const auto color = jones_plassmann(g, rnd);
  const int rounds = *std::max_element(color.begin(), color.end()) + 1;
  for (const char* kind : {"clr", "clr_cdp", "clr_dtbl"}) {
    SCOPED_TRACE(kind);
    const std::string k = kind;
    std::vector<std::string> params = {"scale=8", "degree=8", "seed=5", "block=64"};
    if (k != "clr") params.push_back("threshold=24");
    const app_trace app = generate_in_memory(kind, params);
    ASSERT_EQ(host_kernels(app).size(), std::size_t(rounds));
    const std::uint64_t col_addr = input_addresses(app).at(3);
    const auto round = round_of_kernels(app);
    std::vector<std::set<std::uint32_t>> stored(rounds);
    for (std::size_t i = 0; i < app.kernels.size(); ++i)
      for (const tb_trace& tb : app.kernels[i].tbs)
        for (const warp_trace& wt : tb.warps)
          for (const auto* in : find(app, wt, "STG"))
            for (auto [l, a] : lane_addresses(wt, *in))
              if (a >= col_addr && a < col_addr + 4ull * g.vertices) {
                EXPECT_TRUE(stored[round[i]].insert(std::uint32_t((a - col_addr) / 4)).second);
              }
    for (int c = 0; c < rounds; ++c) {
      std::set<std::uint32_t> expect;
      for (std::uint32_t v = 0; v < g.vertices; ++v)
        if (color[v] == c) expect.insert(v);
      EXPECT_EQ(stored[c], expect) << "round " << c;
    }
    if (k == "clr") continue;
    // Launches: per round, the vertices uncoloured at its start with degree >= threshold.
    std::size_t expect = 0;
    for (std::uint32_t v = 0; v < g.vertices; ++v)
      if (g.degree(v) >= 24) expect += std::size_t(color[v]) + 1;
    const bool cdp = k == "clr_cdp";
    const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 64);
    ASSERT_GT(expect, 0u);
    EXPECT_EQ(l.size(), expect);
    expect_children(
        app, l, [&](std::uint32_t v) { return g.degree(v); }, cdp ? 32 : 64,
        cdp ? "" : host_kernels(app).back()->info.name);
  }
}

TEST(GenJoin, OutputStoresEqualMatchesAndLaunchesFollowMatchCounts) {
  for (const char* keys : {"uniform", "gaussian"}) {
    const std::vector<std::string> common = {"r_size=1500",
                                             "s_size=1000",
                                             "key_range=800",
                                             "sigma=12",
                                             "seed=7",
                                             "block=128",
                                             std::string("keys=") + keys};
    std::vector<std::uint32_t> r, s;
    if (std::string(keys) == "uniform") {
      r = make_uniform_range(1500, 800, 7);
      s = make_uniform_range(1000, 800, 8);
      for (auto& x : r) --x;
      for (auto& x : s) --x;
    } else {
      r = make_gaussian_u32(1500, 400, 12, 800, 7);
      s = make_gaussian_u32(1000, 400, 12, 800, 8);
    }
    std::vector<std::uint32_t> matches(r.size(), 0);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      matches[i] = std::uint32_t(std::count(s.begin(), s.end(), r[i]));
      total += matches[i];
    }
    std::size_t big = 0;
    for (std::uint32_t c : matches) big += c >= 20 ? 1 : 0;
    if (std::string(keys) == "gaussian") {
      ASSERT_GT(big, 0u);
    }
    for (const char* kind : {"join", "join_cdp", "join_dtbl"}) {
      SCOPED_TRACE(std::string(kind) + " " + keys);
      const std::string k = kind;
      auto params = common;
      if (k != "join") params.push_back("threshold=20");
      const app_trace app = generate_in_memory(kind, params);
      // count, one scan (flat) or two (small and big counts), write.
      EXPECT_EQ(host_kernels(app).size(), k == "join" ? 3u : 4u);
      std::set<std::uint64_t> out;
      for (const auto& kt : app.kernels)
        for (const tb_trace& tb : kt.tbs)
          for (const warp_trace& wt : tb.warps)
            for (const auto* in : find(app, wt, "STG.E.64"))
              for (auto [l, a] : lane_addresses(wt, *in))
                if (a < param_buffers) {
                  EXPECT_TRUE(out.insert(a).second);
                }
      ASSERT_EQ(out.size(), total);
      if (total > 0) {
        EXPECT_EQ(*out.rbegin() - *out.begin(), 8 * (total - 1));
      }
      if (k == "join") continue;
      const bool cdp = k == "join_cdp";
      const auto l = launches(app, cdp ? "CDP.LAUNCH" : "DTBL.LAUNCH", 128);
      EXPECT_EQ(l.size(), big);
      expect_children(
          app, l, [&](std::uint32_t i) { return matches[i]; }, cdp ? 32 : 128,
          cdp ? "" : host_kernels(app).back()->info.name);
    }
  }
}

// The refined mesh: cells per depth and refined cells per depth (docs/traces.md, amr).
struct amr_tree {
  std::vector<std::uint64_t> cells, refined;
};
amr_tree amr_reference(std::uint32_t cells, std::uint32_t sub, float refine,
                       std::uint32_t max_depth, std::uint64_t seed) {
  amr_tree t;
  t.cells.assign(max_depth + 1, 0);
  t.refined.assign(max_depth + 1, 0);
  std::function<void(std::uint64_t, float, std::uint32_t)> visit = [&](std::uint64_t key, float e,
                                                                       std::uint32_t depth) {
    ++t.cells[depth];
    if (depth == max_depth || !(e > refine)) return;
    ++t.refined[depth];
    for (std::uint32_t j = 0; j < sub; ++j) {
      const std::uint64_t k = key * 1000003 + j + 1;
      visit(k, e * float(hash_unit(seed, k)), depth + 1);
    }
  };
  for (std::uint32_t c = 0; c < cells; ++c) visit(c, float(hash_unit(seed, c)), 0);
  return t;
}

TEST(GenAmr, LevelsLaunchesAndNestingDepthFollowTheRefinedMesh) {
  const amr_tree t = amr_reference(200, 40, 0.7f, 3, 9);
  ASSERT_GT(t.refined[2], 0u);
  const std::vector<std::string> common = {"cells=200",   "sub=40", "refine=0.7",
                                           "max_depth=3", "seed=9", "block=64"};
  {
    const app_trace app = generate_in_memory("amr", common);
    const auto hk = host_kernels(app);
    ASSERT_EQ(hk.size(), 3u);
    for (std::size_t d = 0; d < 3; ++d) EXPECT_EQ(hk[d]->info.grid.x, (t.cells[d] + 63) / 64);
  }
  const std::uint64_t refined = t.refined[0] + t.refined[1] + t.refined[2];
  const std::uint64_t sub_cells = t.cells[1] + t.cells[2] + t.cells[3];
  for (const char* kind : {"amr", "amr_cdp", "amr_dtbl", "amr_cdp sync"}) {
    SCOPED_TRACE(kind);
    const std::string k = kind;
    auto params = common;
    if (k != "amr") params.push_back("threshold=32");
    if (k == "amr_cdp sync") params.push_back("sync=1");
    const app_trace app = generate_in_memory(k.substr(0, k.find(' ')), params);
    // Every sub-cell's key is stored once (8-byte stores).
    std::uint64_t keys = 0, syncs = 0;
    std::map<std::uint32_t, std::uint32_t> depth;  // kernel id -> nesting depth
    for (const auto& kt : app.kernels) {
      if (!kt.info.device_launched) depth[kt.info.id] = 0;
      const std::uint32_t my = depth.at(kt.info.id);
      for (const tb_trace& tb : kt.tbs)
        for (const warp_trace& wt : tb.warps)
          for (const auto& in : wt.insts) {
            if (starts_with(mnemonic(app, in), "STG.E.64"))
              for (auto [l, a] : lane_addresses(wt, in)) keys += a < param_buffers ? 1 : 0;
            if (in.special == special_op::device_sync) syncs += popcount(in.active_mask);
            if (in.special != special_op::launch_kernel &&
                in.special != special_op::launch_agg_group)
              continue;
            const device_launch& rec = wt.launches.at(in.ext_index);
            depth[rec.child_kernel] = my + 1;
            const std::uint32_t cb = k == "amr_dtbl" ? 64 : 32;
            EXPECT_EQ(rec.grid.x, (40 + cb - 1) / cb);
            EXPECT_EQ(rec.block, (dim3{cb, 1, 1}));
          }
    }
    EXPECT_EQ(keys, sub_cells);
    if (k == "amr") continue;
    std::uint32_t deepest = 0;
    std::uint64_t device = 0;
    for (const auto& kt : app.kernels) {
      deepest = std::max(deepest, depth.at(kt.info.id));
      if (!kt.info.device_launched) continue;
      ++device;
      if (k == "amr_dtbl") {
        EXPECT_EQ(kt.info.name, app.kernels.front().info.name);
      }
    }
    EXPECT_EQ(host_kernels(app).size(), 1u);
    EXPECT_EQ(device, refined);
    EXPECT_EQ(deepest, 3u);
    EXPECT_EQ(syncs, k == "amr_cdp sync" ? refined : 0u);
  }
}

// Global loads and stores of one warp, in program order.
std::vector<const warp_instruction*> global_mem(const app_trace&, const warp_trace& w) {
  std::vector<const warp_instruction*> r;
  for (const auto& in : w.insts)
    if (in.space == mem_space::global) r.push_back(&in);
  return r;
}

void expect_lane_addresses(const warp_trace& w, const warp_instruction& in,
                           const std::function<std::uint64_t(unsigned)>& expect,
                           const std::string& what) {
  for (auto [l, addr] : lane_addresses(w, in)) EXPECT_EQ(addr, expect(l)) << what << " lane " << l;
}

// prolong=1: a child thread reads its parent's energy and the parent's two neighbours among
// its siblings (clamped at the ends), the parent having read its own; a sub-cell's energy is
// the parent's interpolated to its centre, times h(key'). The refinement below depth 1 then
// follows that interpolation (a reference of the tree computed here), in every form.
TEST(GenAmr, ProlongationReadsTheParentsNeighbourhood) {
  const std::uint32_t cells = 5, sub = 4;
  const app_trace app = generate_in_memory(
      "amr_cdp",
      {"cells=5", "sub=4", "refine=0", "max_depth=1", "seed=9", "threshold=4", "prolong=1"});
  ASSERT_EQ(host_kernels(app).size(), 1u);
  const kernel_trace& host = *host_kernels(app).front();
  const warp_trace& hw = host.tbs.at(0).warps.at(0);
  const auto hl = global_mem(app, hw);
  ASSERT_FALSE(hl.empty());
  const std::uint64_t energy = lane_addresses(hw, *hl[0]).at(0).second;  // energy[0]
  std::vector<const kernel_trace*> children;
  for (const auto& k : app.kernels)
    if (k.info.device_launched) children.push_back(&k);
  ASSERT_EQ(children.size(), cells);  // every cell refines (refine = 0), in lane order
  for (std::uint32_t i = 0; i < cells; ++i) {
    const warp_trace& w = children[i]->tbs.at(0).warps.at(0);
    const auto g = global_mem(app, w);
    ASSERT_GE(g.size(), 3u);
    const std::uint32_t nb[3] = {i > 0 ? i - 1 : 0, i, i + 1 < cells ? i + 1 : i};
    for (int n = 0; n < 3; ++n) {
      EXPECT_EQ(g[n]->active_mask, (1u << sub) - 1);
      expect_lane_addresses(
          w, *g[n], [&](unsigned) { return energy + 4ull * nb[n]; }, "child " + std::to_string(i));
    }
  }

  // The tree with interpolated energies, three levels: refined cells per depth.
  const std::uint32_t n0 = 60, s = 8, depth_max = 3;
  const float refine = 0.3f;
  const std::uint64_t seed = 4;
  struct c_t {
    std::uint64_t key;
    float e;
  };
  std::uint64_t refined = 0;
  std::function<void(const c_t&, const c_t&, const c_t&, std::uint32_t)> visit =
      [&](const c_t& l, const c_t& m, const c_t& r, std::uint32_t depth) {
        if (depth == depth_max || !(m.e > refine)) return;
        ++refined;
        std::vector<c_t> x(s);
        for (std::uint32_t j = 0; j < s; ++j) {
          const float t = (float(j) + 0.5f) / float(s);
          const float e =
              t < 0.5f ? l.e * (0.5f - t) + m.e * (t + 0.5f) : m.e * (1.5f - t) + r.e * (t - 0.5f);
          const std::uint64_t k = m.key * 1000003 + j + 1;
          x[j] = {k, e * float(hash_unit(seed, k))};
        }
        for (std::uint32_t j = 0; j < s; ++j)
          visit(x[j > 0 ? j - 1 : 0], x[j], x[j + 1 < s ? j + 1 : j], depth + 1);
      };
  auto level0 = [&](std::uint32_t i) { return c_t{i, float(hash_unit(seed, i))}; };
  for (std::uint32_t i = 0; i < n0; ++i)
    visit(level0(i > 0 ? i - 1 : 0), level0(i), level0(i + 1 < n0 ? i + 1 : i), 0);
  ASSERT_GT(refined, n0 / 4);
  for (const char* kind : {"amr_cdp", "amr_dtbl"}) {
    const app_trace a =
        generate_in_memory(kind, {"cells=60", "sub=8", "refine=0.3", "max_depth=3", "seed=4",
                                  "threshold=8", "block=64", "prolong=1"});
    std::uint64_t device = 0;
    for (const auto& k : a.kernels) device += k.info.device_launched ? 1 : 0;
    EXPECT_EQ(device, refined) << kind;
  }
}

TEST(GenSyr2k, LoadsAOfRowAndColumnEveryStep) {
  const std::uint64_t n = 33, kk = 5;
  const app_trace app = generate_in_memory("syr2k", {"n=33", "k=5"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 3u);
  const std::uint64_t a = in[0], b = in[1], c = in[2];
  ASSERT_EQ(app.kernels.size(), 1u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{2, 5, 1}));
  EXPECT_EQ(app.kernels[0].info.block, (dim3{32, 8, 1}));
  std::uint64_t elements = 0;
  for (const tb_trace& tb : app.kernels[0].tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const auto mem = global_mem(app, wt);
      if (mem.empty()) continue;
      ASSERT_EQ(mem.size(), 2u + 5u * kk);  // c, c*beta, then 4 loads + 1 store per k
      const std::uint64_t i = tb.index.y * 8 + w;
      elements += popcount(mem[0]->active_mask);
      for (std::uint64_t k = 0; k < kk; ++k) {
        const auto* st = mem[2 + 5 * k];
        auto j = [&](unsigned l) { return tb.index.x * 32ull + l; };
        expect_lane_addresses(
            wt, *st, [&](unsigned) { return a + 4 * (i * kk + k); }, "a[i][k]");
        expect_lane_addresses(
            wt, *mem[3 + 5 * k], [&](unsigned l) { return b + 4 * (j(l) * kk + k); }, "b[j][k]");
        expect_lane_addresses(
            wt, *mem[4 + 5 * k], [&](unsigned) { return b + 4 * (i * kk + k); }, "b[i][k]");
        expect_lane_addresses(
            wt, *mem[5 + 5 * k], [&](unsigned l) { return a + 4 * (j(l) * kk + k); }, "a[j][k]");
        expect_lane_addresses(
            wt, *mem[6 + 5 * k], [&](unsigned l) { return c + 4 * (i * n + j(l)); }, "c[i][j]");
        EXPECT_TRUE(starts_with(mnemonic(app, *mem[6 + 5 * k]), "STG"));
      }
    }
  EXPECT_EQ(elements, n * n);
}

// Checks one naive PolyBench product X op= P * Q (rows x cols, inner) launched as `k`.
void expect_product(const app_trace& app, const kernel_trace& k, std::uint64_t p, std::uint64_t q,
                    std::uint64_t x, std::uint64_t rows, std::uint64_t cols, std::uint64_t inner,
                    bool scale_x) {
  EXPECT_EQ(k.info.block, (dim3{32, 8, 1}));
  EXPECT_EQ(k.info.grid, (dim3{std::uint32_t((cols + 31) / 32), std::uint32_t((rows + 7) / 8), 1}));
  std::uint64_t elements = 0;
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const auto mem = global_mem(app, wt);
      if (mem.empty()) continue;
      const std::size_t head = scale_x ? 2 : 1;
      ASSERT_EQ(mem.size(), head + 3 * inner);
      elements += popcount(mem[0]->active_mask);
      const std::uint64_t i = tb.index.y * 8 + w;
      auto j = [&](unsigned l) { return tb.index.x * 32ull + l; };
      for (std::size_t h = 0; h < head; ++h)
        expect_lane_addresses(
            wt, *mem[h], [&](unsigned l) { return x + 4 * (i * cols + j(l)); }, "x");
      for (std::uint64_t kk = 0; kk < inner; ++kk) {
        expect_lane_addresses(
            wt, *mem[head + 3 * kk], [&](unsigned) { return p + 4 * (i * inner + kk); }, "p[i][k]");
        expect_lane_addresses(
            wt, *mem[head + 3 * kk + 1], [&](unsigned l) { return q + 4 * (kk * cols + j(l)); },
            "q[k][j]");
        expect_lane_addresses(
            wt, *mem[head + 3 * kk + 2], [&](unsigned l) { return x + 4 * (i * cols + j(l)); },
            "x[i][j]");
      }
    }
  EXPECT_EQ(elements, rows * cols);
}

TEST(GenMm2, TwoLaunchesTmpThenD) {
  const app_trace app = generate_in_memory("mm2", {"ni=20", "nj=24", "nk=7", "nl=40"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 5u);  // tmp, A, B, C, D
  ASSERT_EQ(app.kernels.size(), 2u);
  EXPECT_EQ(app.kernels[0].info.name, "_Z11mm2_kernel1iiiiffPfS_S_");
  expect_product(app, app.kernels[0], in[1], in[2], in[0], 20, 24, 7, false);
  expect_product(app, app.kernels[1], in[0], in[3], in[4], 20, 40, 24, true);
}

TEST(GenMm3, ThreeLaunchesEFG) {
  const app_trace app = generate_in_memory("mm3", {"ni=20", "nj=24", "nk=7", "nl=40", "nm=9"});
  const auto in = input_addresses(app);
  ASSERT_EQ(in.size(), 7u);  // A, B, C, D, E, F, G
  ASSERT_EQ(app.kernels.size(), 3u);
  expect_product(app, app.kernels[0], in[0], in[1], in[4], 20, 24, 7, false);
  expect_product(app, app.kernels[1], in[2], in[3], in[5], 24, 40, 9, false);
  expect_product(app, app.kernels[2], in[4], in[5], in[6], 20, 40, 24, false);
}

TEST(GenHotspot, PyramidLaunchesHaloLoadsAndDisjointStores) {
  const std::int64_t n = 40, b = 16, pyr = 2;
  const app_trace app = generate_in_memory("hotspot", {"n=40", "pyramid_height=2", "iterations=5"});
  // MatrixTemp[0], MatrixTemp[1], power; copies of MatrixTemp[0] and power.
  const std::uint64_t t0 = heap, t1 = t0 + align256(4 * n * n), power = t1 + align256(4 * n * n);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{t0, power}));
  ASSERT_EQ(app.kernels.size(), 3u);  // ceil(5 / 2), iterations 2, 2, 1
  const std::uint64_t src[3] = {t0, t1, t0}, dst[3] = {t1, t0, t1};
  const std::int64_t iters[3] = {2, 2, 1};
  for (int launch = 0; launch < 3; ++launch) {
    const kernel_trace& k = app.kernels[launch];
    EXPECT_EQ(k.info.grid, (dim3{4, 4, 1}));  // ceil(40 / (16 - 2 * 2))
    EXPECT_EQ(k.info.block, (dim3{16, 16, 1}));
    EXPECT_EQ(k.info.shmem, 3u * 16 * 16 * 4);
    std::map<std::int64_t, int> stored;
    const std::int64_t small = b - 2 * iters[launch];
    for (const tb_trace& tb : k.tbs)
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        const warp_trace& wt = tb.warps[w];
        EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 1u + 2u * iters[launch] - 1u);
        const std::int64_t blk_y = small * tb.index.y - pyr, blk_x = small * tb.index.x - pyr;
        std::uint32_t loadable = 0;
        std::int64_t index[32];
        for (unsigned l = 0; l < 32; ++l) {
          const std::int64_t y = blk_y + (w * 32 + l) / 16, x = blk_x + (w * 32 + l) % 16;
          index[l] = n * y + x;
          if (y >= 0 && y < n && x >= 0 && x < n) loadable |= 1u << l;
        }
        const auto mem = global_mem(app, wt);
        std::size_t at = 0;
        if (loadable != 0) {
          ASSERT_GE(mem.size(), 2u);
          EXPECT_EQ(mem[0]->active_mask, loadable);
          expect_lane_addresses(
              wt, *mem[0], [&](unsigned l) { return src[launch] + 4 * index[l]; }, "temp_src");
          expect_lane_addresses(
              wt, *mem[1], [&](unsigned l) { return power + 4 * index[l]; }, "power");
          at = 2;
        }
        for (; at < mem.size(); ++at)
          for (auto [l, addr] : lane_addresses(wt, *mem[at])) {
            EXPECT_EQ(addr, dst[launch] + 4 * index[l]);
            const std::int64_t ty = (w * 32 + l) / 16, tx = (w * 32 + l) % 16;
            // The last step computes the inner small x small cells.
            EXPECT_TRUE(ty >= iters[launch] && ty < b - iters[launch]);
            EXPECT_TRUE(tx >= iters[launch] && tx < b - iters[launch]);
            ++stored[index[l]];
          }
      }
    if (iters[launch] == pyr) {  // full pyramids tile the chip exactly
      EXPECT_EQ(stored.size(), std::size_t(n * n));
      for (auto [i, count] : stored) EXPECT_EQ(count, 1) << i;
    }
  }
}

TEST(GenSrad, HaloLoadsBorderReloadsAndStores) {
  const std::int64_t rows = 48, cols = 32, b = 16;
  const app_trace app = generate_in_memory("srad", {"rows=48", "cols=32", "iterations=2"});
  const std::uint64_t bytes = align256(4 * rows * cols);
  std::uint64_t arr[6];  // J, C, E_C, W_C, S_C, N_C
  for (int i = 0; i < 6; ++i) arr[i] = heap + i * bytes;
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{arr[0], arr[0]}));  // J per iteration
  ASSERT_EQ(app.kernels.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(app.kernels[i].info.name,
              i % 2 ? "_Z11srad_cuda_2PfS_S_S_S_S_iiff" : "_Z11srad_cuda_1PfS_S_S_S_S_iif");
    EXPECT_EQ(app.kernels[i].info.grid, (dim3{2, 3, 1}));
  }
  auto J = [&](std::int64_t i) { return arr[0] + 4 * std::uint64_t(i); };
  for (const tb_trace& tb : app.kernels[0].tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::int64_t bx = tb.index.x, by = tb.index.y, base = cols * b * by + b * bx;
      auto tx = [&](unsigned l) { return std::int64_t((w * 32 + l) % 16); };
      auto ty = [&](unsigned l) { return std::int64_t((w * 32 + l) / 16); };
      std::vector<std::function<std::uint64_t(unsigned)>> expect = {
          [&](unsigned l) { return J(base + tx(l) - cols); },       // index_n
          [&](unsigned l) { return J(base + cols * b + tx(l)); }};  // index_s
      if (by == 0) expect.push_back([&](unsigned l) { return J(b * bx + tx(l)); });
      if (by == 2)
        expect.push_back(
            [&](unsigned l) { return J(cols * b * 2 + b * bx + cols * (b - 1) + tx(l)); });
      expect.push_back([&](unsigned l) { return J(base + cols * ty(l) - 1); });  // index_w
      expect.push_back([&](unsigned l) { return J(base + cols * ty(l) + b); });  // index_e
      if (bx == 0) expect.push_back([&](unsigned l) { return J(cols * b * by + cols * ty(l)); });
      if (bx == 1)
        expect.push_back([&](unsigned l) { return J(cols * b * by + b + cols * ty(l) + b - 1); });
      expect.push_back([&](unsigned l) { return J(base + cols * ty(l) + tx(l)); });  // index
      for (int a : {1, 2, 3, 4, 5})  // C, E_C, W_C, S_C, N_C stores
        expect.push_back([&, a](unsigned l) { return arr[a] + 4 * (base + cols * ty(l) + tx(l)); });
      const auto mem = global_mem(app, wt);
      ASSERT_EQ(mem.size(), expect.size());
      for (std::size_t i = 0; i < mem.size(); ++i) {
        EXPECT_EQ(mem[i]->active_mask, 0xffffffffu);
        expect_lane_addresses(wt, *mem[i], expect[i], "srad_cuda_1 access " + std::to_string(i));
      }
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 4u);
    }
}

TEST(GenBlackScholes, GridStrideReadsEveryOptionOnce) {
  const std::uint64_t options = 1000, threads = 2 * 128;
  const app_trace app = generate_in_memory("blackscholes", {"options=1000", "grid=2"});
  const std::uint64_t bytes = align256(4 * options);
  const std::uint64_t call = heap, put = call + bytes, s = put + bytes, x = s + bytes,
                      t = x + bytes;
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{s, x, t}));
  ASSERT_EQ(app.kernels.size(), 1u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{2, 1, 1}));
  EXPECT_EQ(app.kernels[0].info.block, (dim3{128, 1, 1}));
  std::map<std::uint64_t, int> seen;
  for (const tb_trace& tb : app.kernels[0].tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const auto mem = global_mem(app, wt);
      ASSERT_EQ(mem.size() % 5, 0u);
      for (std::size_t r = 0; r < mem.size() / 5; ++r) {
        const std::uint64_t bases[5] = {s, x, t, call, put};
        for (int a = 0; a < 5; ++a)
          expect_lane_addresses(
              wt, *mem[5 * r + a],
              [&](unsigned l) {
                return bases[a] + 4 * (tb.index.x * 128 + w * 32 + l + r * threads);
              },
              "option array " + std::to_string(a));
        for (auto [l, addr] : lane_addresses(wt, *mem[5 * r])) ++seen[(addr - s) / 4];
      }
      EXPECT_EQ(find(app, wt, "MUFU.EX2").size(), 3 * mem.size() / 5);
    }
  EXPECT_EQ(seen.size(), options);
  for (auto [opt, count] : seen) EXPECT_EQ(count, 1) << opt;
}

TEST(GenBackprop, TbsReadDisjointInputsAndWeightRows) {
  const std::uint64_t in = 64, hid = 16;
  const app_trace app = generate_in_memory("backprop", {"in=64"});
  const std::uint64_t input = heap, hidden = input + align256(4 * (in + 1)),
                      weights = hidden + align256(4 * (hid + 1)),
                      partial = weights + align256(4 * (in + 1) * (hid + 1));
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{input, weights}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{1, 4, 1}));
  EXPECT_EQ(k.info.block, (dim3{16, 16, 1}));
  std::map<std::uint64_t, std::set<std::uint32_t>> readers;  // address -> TBs that load it
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::uint64_t by = tb.index.y;
      auto tx = [&](unsigned l) { return std::uint64_t((w * 32 + l) % 16); };
      auto ty = [&](unsigned l) { return std::uint64_t((w * 32 + l) / 16); };
      auto index = [&](unsigned l) {
        return (hid + 1) * 16 * by + (hid + 1) * ty(l) + tx(l) + 1 + (hid + 1);
      };
      const auto mem = global_mem(app, wt);
      ASSERT_EQ(mem.size(), 4u);  // input, weight, weight store, partial sum store
      EXPECT_EQ(mem[0]->active_mask, 0x00010001u);  // tx == 0
      expect_lane_addresses(
          wt, *mem[0], [&](unsigned l) { return input + 4 * (16 * by + ty(l) + 1); }, "input_cuda");
      expect_lane_addresses(
          wt, *mem[1], [&](unsigned l) { return weights + 4 * index(l); }, "weight");
      expect_lane_addresses(
          wt, *mem[2], [&](unsigned l) { return weights + 4 * index(l); }, "store");
      expect_lane_addresses(
          wt, *mem[3], [&](unsigned l) { return partial + 4 * (by * hid + ty(l)); },
          "hidden_partial_sum");
      for (int i : {0, 1})
        for (auto [l, addr] : lane_addresses(wt, *mem[i])) readers[addr].insert(tb.linear_id);
      // Tree over ty: 4 steps; a step loads only in warps holding a ty with ty % 2^i == 0.
      std::size_t steps = 0;
      for (std::uint32_t i = 1; i <= 4; ++i) steps += (2 * w) % (1u << i) == 0 ? 1 : 0;
      EXPECT_EQ(find(app, wt, "LDS").size(), 2u + 2u * steps + 2u);
    }
  for (const auto& [addr, tbs] : readers) EXPECT_EQ(tbs.size(), 1u) << std::hex << addr;
}

}  // namespace
}  // namespace gputlm::traces::generators::test::patterns_test
