// The μC-States workloads (Kayiran et al., PACT'16, Table 1) the generators add: the CUDA
// SDK scalarProd (SCP) and transposeNaive (TRA). Grids, masks, lane addresses, barrier
// counts and shared-memory offsets are computed here from the SDK kernels' own indexing and
// the documented address map (inputs first, each 256-byte aligned from the heap base), not
// from the generators' code.
#include <gtest/gtest.h>

#include <vector>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::uc_workloads_test {
namespace {

constexpr std::uint32_t full = 0xffffffffu;

// The traced instructions of `w` starting with `prefix` against `want`, in order.
void expect_accesses(const app_trace& app, const warp_trace& w, const std::string& prefix,
                     const std::vector<access>& want, const std::string& where) {
  const auto got = find(app, w, prefix);
  ASSERT_EQ(got.size(), want.size()) << where << " " << prefix;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i]->active_mask, want[i].mask) << where << " " << prefix << " #" << i;
    EXPECT_EQ(lane_addresses(w, *got[i]), want[i].addr) << where << " " << prefix << " #" << i;
  }
}

// ---- scalarProdGPU(d_C, d_A, d_B, vectorN, elementN) ----

struct scp_case {
  std::uint64_t vectors, elements, accum, block, grid;
};

// What warp w of TB bx does, thread by thread as the SDK kernel runs, lanes grouped by loop
// trip (the k-th trip of a loop is one warp instruction for the lanes that make it).
struct scp_warp {
  std::vector<access> ldg, sts, lds, stg;
  unsigned bars = 0;
  std::uint32_t live = 0;
};

scp_warp expected_scp_warp(const scp_case& c, std::uint64_t bx, std::uint64_t w) {
  const std::uint64_t a = heap, b = a + align256(4 * c.vectors * c.elements);
  const std::uint64_t cc = b + align256(4 * c.vectors * c.elements);
  scp_warp r;
  auto tid = [&](unsigned l) { return 32 * w + l; };
  for (unsigned l = 0; l < 32; ++l)
    if (tid(l) < c.block) r.live |= 1u << l;
  // for (iAccum = threadIdx.x; iAccum < bound; iAccum += blockDim.x), trip k: the lanes in it.
  auto trip = [&](std::uint64_t k, std::uint64_t bound) {
    std::uint32_t m = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((r.live >> l & 1u) && tid(l) + k * c.block < bound) m |= 1u << l;
    return m;
  };
  auto of = [](std::uint32_t mask, auto addr) {
    access x{mask, {}};
    for (unsigned l = 0; l < 32; ++l)
      if (mask >> l & 1u) x.addr.emplace_back(l, addr(l));
    return x;
  };
  for (std::uint64_t vec = bx; vec < c.vectors; vec += c.grid) {
    const std::uint64_t base = c.elements * vec, end = base + c.elements;
    for (std::uint64_t k = 0; trip(k, c.accum) != 0; ++k) {
      const std::uint32_t m = trip(k, c.accum);
      auto i_accum = [&](unsigned l) { return tid(l) + k * c.block; };
      // for (pos = vectorBase + iAccum; pos < vectorEnd; pos += ACCUM_N), trip j
      for (std::uint64_t j = 0;; ++j) {
        std::uint32_t mj = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((m >> l & 1u) && base + i_accum(l) + j * c.accum < end) mj |= 1u << l;
        if (mj == 0) break;
        auto pos = [&](unsigned l) { return base + i_accum(l) + j * c.accum; };
        r.ldg.push_back(of(mj, [&](unsigned l) { return a + 4 * pos(l); }));
        r.ldg.push_back(of(mj, [&](unsigned l) { return b + 4 * pos(l); }));
      }
      r.sts.push_back(of(m, [&](unsigned l) { return 4 * i_accum(l); }));
    }
    for (std::uint64_t stride = c.accum / 2; stride > 0; stride >>= 1) {
      ++r.bars;
      for (std::uint64_t k = 0; trip(k, stride) != 0; ++k) {
        const std::uint32_t m = trip(k, stride);
        auto i_accum = [&](unsigned l) { return tid(l) + k * c.block; };
        r.lds.push_back(of(m, [&](unsigned l) { return 4 * i_accum(l); }));
        r.lds.push_back(of(m, [&](unsigned l) { return 4 * (stride + i_accum(l)); }));
        r.sts.push_back(of(m, [&](unsigned l) { return 4 * i_accum(l); }));
      }
    }
    ++r.bars;
    if (w == 0) {  // threadIdx.x == 0: accumResult[0] to d_C[vec]
      r.lds.push_back(of(1u, [](unsigned) { return 0ull; }));
      r.stg.push_back(of(1u, [&](unsigned) { return cc + 4 * vec; }));
    }
  }
  return r;
}

std::vector<std::string> scp_params(const scp_case& c) {
  return {"vectors=" + std::to_string(c.vectors), "elements=" + std::to_string(c.elements),
          "accum=" + std::to_string(c.accum), "block=" + std::to_string(c.block),
          "grid=" + std::to_string(c.grid)};
}

// Every warp of every TB against the model above.
void expect_scp_matches_sdk(const scp_case& c) {
  const app_trace app = generate_in_memory("scalar_prod", scp_params(c));
  const std::uint64_t bytes = 4 * c.vectors * c.elements;
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{heap, heap + align256(bytes)}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.name, "_Z13scalarProdGPUPfS_S_ii");
  EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(c.grid), 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{std::uint32_t(c.block), 1, 1}));
  EXPECT_EQ(k.info.shmem, 4 * c.accum);
  ASSERT_EQ(k.tbs.size(), c.grid);
  const std::uint64_t warps = (c.block + 31) / 32;
  for (const tb_trace& tb : k.tbs) {
    ASSERT_EQ(tb.warps.size(), warps);
    for (std::uint64_t w = 0; w < warps; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::string where = "TB " + std::to_string(tb.index.x) + " warp " + std::to_string(w);
      const scp_warp want = expected_scp_warp(c, tb.index.x, w);
      expect_accesses(app, wt, "LDG", want.ldg, where);
      expect_accesses(app, wt, "STS", want.sts, where);
      expect_accesses(app, wt, "LDS", want.lds, where);
      expect_accesses(app, wt, "STG", want.stg, where);
      const auto bars = find(app, wt, "BAR.SYNC");
      EXPECT_EQ(bars.size(), want.bars) << where;
      for (const warp_instruction* in : bars) EXPECT_EQ(in->active_mask, want.live) << where;
      const auto exits = find(app, wt, "EXIT");
      ASSERT_EQ(exits.size(), 1u) << where;
      EXPECT_EQ(exits[0]->active_mask, want.live) << where;
    }
  }
}

TEST(GenScalarProd, GridStrideVectorsSharedTreeAndOneStorePerVector) {
  // 3 vectors of 512 on 2 TBs of 128 threads, 256 accumulators: TB 0 takes vectors 0 and 2,
  // TB 1 vector 1. Each thread fills accumulators tid and tid + 128, each from 512 / 256 = 2
  // pairs (pos = base + iAccum, + 256); then strides 128 … 1, BAR.SYNC before each and after.
  const scp_case c{3, 512, 256, 128, 2};
  expect_scp_matches_sdk(c);

  const app_trace app = generate_in_memory("scalar_prod", scp_params(c));
  const std::uint64_t a = heap, b = heap + 6144, cc = heap + 2 * 6144;
  const kernel_trace& k = app.kernels.at(0);
  // 9 BAR.SYNC per vector: TB 0 (two vectors) 18 in every warp, TB 1 9.
  for (std::uint32_t w = 0; w < 4; ++w) {
    EXPECT_EQ(find(app, k.tbs[0].warps[w], "BAR.SYNC").size(), 18u);
    EXPECT_EQ(find(app, k.tbs[1].warps[w], "BAR.SYNC").size(), 9u);
  }
  // TB 1, warp 2 (threads 64..95), vector 1: 2 accumulators x 2 pairs = 8 LDG, A then B.
  const warp_trace& w2 = k.tbs[1].warps[2];
  const auto ldg = find(app, w2, "LDG");
  ASSERT_EQ(ldg.size(), 8u);
  for (const warp_instruction* in : ldg) EXPECT_EQ(in->active_mask, full);
  EXPECT_EQ(lane_addresses(w2, *ldg[0])[3].second, a + 4 * (512 + 67));
  EXPECT_EQ(lane_addresses(w2, *ldg[1])[3].second, b + 4 * (512 + 67));
  EXPECT_EQ(lane_addresses(w2, *ldg[2])[3].second, a + 4 * (512 + 67 + 256));
  // accumulator 95 + 128, its second pair: pos = 512 + 223 + 256.
  EXPECT_EQ(lane_addresses(w2, *ldg[7])[31].second, b + 4 * (512 + 95 + 128 + 256));

  // The reduction of warp 0 (threads 0..31), vector 0: after the two accumulator stores,
  // strides 128, 64, 32 with all lanes, then 16, 8, 4, 2, 1 with the lanes tid < stride;
  // each trip loads [iAccum] and [stride + iAccum] and stores [iAccum]; thread 0 then
  // loads accumResult[0] and stores d_C[0].
  const warp_trace& w0 = k.tbs[0].warps[0];
  const auto sts = find(app, w0, "STS"), lds = find(app, w0, "LDS");
  ASSERT_EQ(sts.size(), 2 * (2u + 8u));
  ASSERT_EQ(lds.size(), 2 * (16u + 1u));
  const std::uint32_t strides[] = {128, 64, 32, 16, 8, 4, 2, 1};
  const std::uint32_t masks[] = {full, full, full, 0xffffu, 0xffu, 0xfu, 0x3u, 0x1u};
  for (unsigned s = 0; s < 8; ++s) {
    const warp_instruction& self = *lds[2 * s];
    const warp_instruction& other = *lds[2 * s + 1];
    const warp_instruction& put = *sts[2 + s];
    EXPECT_EQ(self.active_mask, masks[s]) << strides[s];
    EXPECT_EQ(other.active_mask, masks[s]) << strides[s];
    EXPECT_EQ(put.active_mask, masks[s]) << strides[s];
    for (auto [l, addr] : lane_addresses(w0, self)) EXPECT_EQ(addr, 4u * l);
    for (auto [l, addr] : lane_addresses(w0, other)) EXPECT_EQ(addr, 4u * (strides[s] + l));
    for (auto [l, addr] : lane_addresses(w0, put)) EXPECT_EQ(addr, 4u * l);
  }
  EXPECT_EQ(lds[16]->active_mask, 1u);
  EXPECT_EQ(lane_addresses(w0, *lds[16]), (lanes{{0, 0}}));
  // The accumulator stores: tid, then tid + 128.
  EXPECT_EQ(lane_addresses(w0, *sts[0])[31].second, 4u * 31);
  EXPECT_EQ(lane_addresses(w0, *sts[1])[31].second, 4u * (128 + 31));
  // d_C[vec] by thread 0 only: vectors 0 and 2 from TB 0, vector 1 from TB 1.
  const auto stg0 = find(app, w0, "STG");
  ASSERT_EQ(stg0.size(), 2u);
  EXPECT_EQ(lane_addresses(w0, *stg0[0]), (lanes{{0, cc}}));
  EXPECT_EQ(lane_addresses(w0, *stg0[1]), (lanes{{0, cc + 8}}));
  EXPECT_EQ(lane_addresses(k.tbs[1].warps[0], *find(app, k.tbs[1].warps[0], "STG").at(0)),
            (lanes{{0, cc + 4}}));
  for (std::uint32_t w = 1; w < 4; ++w) {
    EXPECT_TRUE(find(app, k.tbs[0].warps[w], "STG").empty());
    EXPECT_TRUE(find(app, k.tbs[1].warps[w], "STG").empty());
  }
  // Warp 1 (threads 32..63) takes part in strides 128 and 64 only.
  EXPECT_EQ(find(app, k.tbs[1].warps[1], "LDS").size(), 4u);
  EXPECT_EQ(find(app, k.tbs[1].warps[3], "LDS").size(), 2u);
}

TEST(GenScalarProd, ThreadsPastTheAccumulatorsAndTbsPastTheVectors) {
  // 96 threads, 64 accumulators: threads 64..95 (warp 2) skip the accumulation; one vector
  // on 3 TBs, so TBs 1 and 2 leave at once (vec = blockIdx.x >= vectorN).
  const scp_case c{1, 128, 64, 96, 3};
  expect_scp_matches_sdk(c);
  const app_trace app = generate_in_memory("scalar_prod", scp_params(c));
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_TRUE(find(app, k.tbs[0].warps[2], "LDG").empty());
  EXPECT_EQ(find(app, k.tbs[0].warps[2], "BAR.SYNC").size(), 7u);  // log2(64) + 1
  for (std::uint32_t t : {1u, 2u})
    for (std::uint32_t w = 0; w < 3; ++w) {
      const warp_trace& wt = k.tbs[t].warps[w];
      EXPECT_TRUE(find(app, wt, "LDG").empty());
      EXPECT_TRUE(find(app, wt, "BAR").empty());
      EXPECT_TRUE(find(app, wt, "STS").empty());
      EXPECT_EQ(find(app, wt, "EXIT").at(0)->active_mask, full);
    }
}

TEST(GenScalarProd, PartialWarpsAndUnevenAccumulatorTrips) {
  // 48 threads, 64 accumulators: threads 0..15 fill two (tid, tid + 48), threads 16..47 one;
  // warp 1 holds threads 32..47 only (16 live lanes). One TB handles both vectors.
  const scp_case c{2, 128, 64, 48, 1};
  expect_scp_matches_sdk(c);
  const app_trace app = generate_in_memory("scalar_prod", scp_params(c));
  const warp_trace& w0 = app.kernels.at(0).tbs.at(0).warps.at(0);
  const auto sts = find(app, w0, "STS");
  ASSERT_GE(sts.size(), 2u);
  EXPECT_EQ(sts[0]->active_mask, full);
  EXPECT_EQ(sts[1]->active_mask, 0xffffu);
  EXPECT_EQ(lane_addresses(w0, *sts[1])[15].second, 4u * (15 + 48));
  EXPECT_EQ(find(app, app.kernels[0].tbs[0].warps[1], "BAR.SYNC").at(0)->active_mask, 0xffffu);
}

TEST(GenScalarProd, DefaultsAreTheSdkRun) {
  // VECTOR_N 256, ELEMENT_N 4096, ACCUM_N 1024, <<<128, 256>>>: A and B copied (4 MiB each).
  const app_trace app = generate_in_memory("scalar_prod", {});
  const std::uint64_t bytes = 4ull * 256 * 4096;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> copies;
  for (const command& cmd : app.commands)
    if (cmd.what == command::kind::memcpy_h2d) copies.emplace_back(cmd.addr, cmd.bytes);
  EXPECT_EQ(copies, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{heap, bytes},
                                                                          {heap + bytes, bytes}}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{128, 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
  EXPECT_EQ(k.info.shmem, 4096u);
  // Two vectors per TB, 11 BAR.SYNC each; 4 accumulators x 4 pairs x 2 loads per vector.
  const warp_trace& wt = k.tbs[127].warps[7];
  EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 22u);
  const auto ldg = find(app, wt, "LDG");
  ASSERT_EQ(ldg.size(), 64u);
  // Vector 255 (the TB's second), accumulator 224 + 768 + 31 of lane 31, its last pair.
  EXPECT_EQ(lane_addresses(wt, *ldg[63])[31].second,
            heap + bytes + 4 * (255ull * 4096 + 224 + 768 + 31 + 3 * 1024));
  const auto stg = find(app, k.tbs[127].warps[0], "STG");
  ASSERT_EQ(stg.size(), 2u);
  EXPECT_EQ(lane_addresses(k.tbs[127].warps[0], *stg[1]), (lanes{{0, heap + 2 * bytes + 4 * 255}}));
}

TEST(GenScalarProd, BadParametersAreRefused) {
  expect_refused("scalar_prod", {"accum=100", "elements=4000"});  // not a power of two
  expect_refused("scalar_prod", {"accum=768", "elements=3072"});  // not a power of two
  expect_refused("scalar_prod", {"elements=1000"});               // not a multiple of 1024
  expect_refused("scalar_prod", {"elements=512"});                // less than accum
  expect_refused("scalar_prod", {"elements=96", "accum=64"});     // not a multiple
  expect_refused("scalar_prod", {"block=2048"});                  // more than 1024 threads
  expect_refused("scalar_prod", {"block=0"});
  expect_refused("scalar_prod", {"vectors=0"});
  expect_refused("scalar_prod", {"grid=0"});
  expect_refused("scalar_prod", {"vectors=65536", "elements=8192"});  // 2^29 elements
}

// ---- transposeNaive(odata, idata, width, height) ----

// Every warp of every TB: thread (tx, ty) of TB (bx, by) has xIndex = 32 bx + tx, yIndex =
// 32 by + ty; for i = 0, 8, 16, 24: LDG idata[xIndex + width (yIndex + i)], then STG
// odata[yIndex + i + height xIndex]. Warp w of a 32 x 8 TB is row ty = w, lane l is tx = l.
void expect_transpose_matches_sdk(std::uint64_t width, std::uint64_t height) {
  const app_trace app = generate_in_memory(
      "transpose_naive", {"width=" + std::to_string(width), "height=" + std::to_string(height)});
  const std::uint64_t idata = heap, odata = heap + align256(4 * width * height);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{idata}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.name, "_Z14transposeNaivePfS_ii");
  EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(width / 32), std::uint32_t(height / 32), 1}));
  EXPECT_EQ(k.info.block, (dim3{32, 8, 1}));
  EXPECT_EQ(k.info.shmem, 0u);
  ASSERT_EQ(k.tbs.size(), width / 32 * (height / 32));
  for (const tb_trace& tb : k.tbs) {
    ASSERT_EQ(tb.warps.size(), 8u);
    for (std::uint64_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::string where = "TB (" + std::to_string(tb.index.x) + ", " +
                                std::to_string(tb.index.y) + ") warp " + std::to_string(w);
      std::vector<access> ldg, stg;
      for (std::uint64_t i = 0; i < 32; i += 8) {
        access ld{full, {}}, st{full, {}};
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint64_t x = 32ull * tb.index.x + l, y = 32ull * tb.index.y + w;
          const std::uint64_t index_in = x + width * y, index_out = y + height * x;
          ld.addr.emplace_back(l, idata + 4 * (index_in + i * width));
          st.addr.emplace_back(l, odata + 4 * (index_out + i));
        }
        ldg.push_back(ld);
        stg.push_back(st);
      }
      expect_accesses(app, wt, "LDG", ldg, where);
      expect_accesses(app, wt, "STG", stg, where);
      EXPECT_TRUE(find(app, wt, "BAR").empty()) << where;
      EXPECT_TRUE(find(app, wt, "LDS").empty()) << where;
      EXPECT_TRUE(find(app, wt, "STS").empty()) << where;
      // Program order: each load followed by its store (odata may alias idata).
      std::string order;
      for (const warp_instruction& in : wt.insts) {
        const std::string& mn = mnemonic(app, in);
        if (starts_with(mn, "LDG")) order += 'L';
        if (starts_with(mn, "STG")) order += 'S';
      }
      EXPECT_EQ(order, "LSLSLSLS") << where;
    }
  }
}

TEST(GenTransposeNaive, CoalescedRowReadsAndStridedColumnWrites) {
  // 64 x 32: a 2 x 1 grid of 32 x 8 TBs.
  expect_transpose_matches_sdk(64, 32);
  const app_trace app = generate_in_memory("transpose_naive", {"width=64", "height=32"});
  const std::uint64_t idata = heap, odata = heap + 8192;
  // TB (1, 0), warp 3 (yIndex 3), lane 5 (xIndex 37), i = 16: idata[37 + 64 * 19],
  // odata[19 + 32 * 37].
  const warp_trace& wt = app.kernels.at(0).tbs.at(1).warps.at(3);
  const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
  ASSERT_EQ(ldg.size(), 4u);
  ASSERT_EQ(stg.size(), 4u);
  EXPECT_EQ(lane_addresses(wt, *ldg[2])[5].second, idata + 4 * 1253);
  EXPECT_EQ(lane_addresses(wt, *stg[2])[5].second, odata + 4 * 1203);
  // A warp reads 32 consecutive words and writes 32 words 4 * height = 128 bytes apart.
  const lanes rd = lane_addresses(wt, *ldg[0]), wr = lane_addresses(wt, *stg[0]);
  for (unsigned l = 1; l < 32; ++l) {
    EXPECT_EQ(rd[l].second - rd[l - 1].second, 4u);
    EXPECT_EQ(wr[l].second - wr[l - 1].second, 128u);
  }
}

TEST(GenTransposeNaive, TallMatrix) {
  // 32 x 96: a 1 x 3 grid; index_out strides by height = 96 words.
  expect_transpose_matches_sdk(32, 96);
}

TEST(GenTransposeNaive, DefaultsAreTheSdkSize) {
  // size_x = size_y = 1024: a 32 x 32 grid, idata copied (4 MiB), odata after it.
  const app_trace app = generate_in_memory("transpose_naive", {});
  ASSERT_EQ(app.commands.size(), 2u);
  EXPECT_EQ(app.commands[0].what, command::kind::memcpy_h2d);
  EXPECT_EQ(app.commands[0].addr, heap);
  EXPECT_EQ(app.commands[0].bytes, 4ull * 1024 * 1024);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{32, 32, 1}));
  EXPECT_EQ(k.info.block, (dim3{32, 8, 1}));
  // The last TB (31, 31), warp 7, lane 31, i = 24: idata[1023 + 1024 * 1023],
  // odata[1023 + 1024 * 1023].
  const warp_trace& wt = k.tbs.back().warps[7];
  EXPECT_EQ(lane_addresses(wt, *find(app, wt, "LDG").at(3))[31].second,
            heap + 4 * (1023 + 1024ull * 1023));
  EXPECT_EQ(lane_addresses(wt, *find(app, wt, "STG").at(3))[31].second,
            heap + 4ull * 1024 * 1024 + 4 * (1023 + 1024ull * 1023));
}

TEST(GenTransposeNaive, BadParametersAreRefused) {
  expect_refused("transpose_naive", {"width=48"});
  expect_refused("transpose_naive", {"height=40"});
  expect_refused("transpose_naive", {"width=1000", "height=1000"});
  expect_refused("transpose_naive", {"width=16"});
  expect_refused("transpose_naive", {"height=0"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::uc_workloads_test
