// SHOC level-1 benchmarks of the μC-States workloads (Kayiran et al., PACT'16, Table 1):
// Triad (TRD) and SpMV (SPMV-S). Launch order, grids, copies and lane addresses are worked out here
// from SHOC's Triad.cu host loop and kernel over the documented address map (docs/traces.md: arrays
// 256-byte aligned from the heap base in cudaMalloc order), not from the generator.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::shoc_test {
namespace {

constexpr std::uint32_t full = 0xffffffffu;

// One entry of the command list: a copy (addr, bytes) or a launch (grid).
struct step {
  bool copy;
  std::uint64_t addr_or_grid, bytes;
  bool operator==(const step& o) const {
    return copy == o.copy && addr_or_grid == o.addr_or_grid && bytes == o.bytes;
  }
};

std::vector<step> steps_of(const app_trace& app) {
  std::vector<step> r;
  std::size_t k = 0;
  for (const auto& c : app.commands)
    if (c.what == command::kind::memcpy_h2d)
      r.push_back({true, c.addr, c.bytes});
    else
      r.push_back({false, app.kernels[k++].info.grid.x, 0});
  return r;
}

// ---- Triad ----

TEST(GenShocTriad, HostLoopCopiesAndLaunchesAsTriadCu) {
  // mem_kb 4, chunks of 1, 2, 4 KB: 4 + 2 + 1 launches of 256, 512, 1024 threads / 128.
  const app_trace app = generate_in_memory("triad", {"mem_kb=4", "min_chunk_kb=1"});
  const std::uint64_t A0 = heap, B0 = heap + 4096, A1 = heap + 3 * 4096, B1 = heap + 4 * 4096;
  std::vector<step> want;
  auto copy = [&](std::uint64_t a, std::uint64_t kb) { want.push_back({true, a, 1024 * kb}); };
  auto launch = [&](std::uint64_t grid) { want.push_back({false, grid, 0}); };
  // 1 KB: A0 B0 K0 A1 B1 K1 A0 B0 K2 A1 B1 K3
  copy(A0, 1), copy(B0, 1), launch(2), copy(A1, 1), copy(B1, 1), launch(2);
  copy(A0, 1), copy(B0, 1), launch(2), copy(A1, 1), copy(B1, 1), launch(2);
  copy(A0, 2), copy(B0, 2), launch(4), copy(A1, 2), copy(B1, 2), launch(4);
  copy(A0, 4), copy(B0, 4), launch(8);
  const std::vector<step> got = steps_of(app);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i] == want[i]) << "command " << i;
  for (std::size_t k = 0; k < app.kernels.size(); ++k) {
    EXPECT_EQ(app.kernels[k].info.id, k + 1);
    EXPECT_EQ(app.kernels[k].info.block.x, 128u);
    EXPECT_EQ(app.kernels[k].info.stream_id, 0u);
    EXPECT_EQ(app.kernels[k].info.name, "_Z5triadPfS_S_f");
  }
}

TEST(GenShocTriad, HandWorkedThreadOfTheSecondChunk) {
  const app_trace app = generate_in_memory("triad", {"mem_kb=4", "min_chunk_kb=1"});
  // Kernel 2 (chunk 1 of 1 KB) uses set 1: A1, B1, C1 at heap + 3, 4, 5 x 4096. TB 1, warp 2,
  // lane 5: gid = 1 * 128 + 2 * 32 + 5 = 197, byte offset 788.
  const warp_trace& w = app.kernels[1].tbs[1].warps[2];
  auto one = [&](const std::string& op) {
    auto v = find(app, w, op);
    EXPECT_EQ(v.size(), 1u) << op;
    return lane_addresses(w, *v.at(0));
  };
  const lanes st = one("STG");
  const auto ldg = find(app, w, "LDG");
  ASSERT_EQ(ldg.size(), 2u);
  const lanes ld = lane_addresses(w, *ldg[0]), ldb = lane_addresses(w, *ldg[1]);
  ASSERT_EQ(ld.size(), 32u);
  EXPECT_EQ(ld[5].second, heap + 3 * 4096 + 788);
  EXPECT_EQ(ldb[5].second, heap + 4 * 4096 + 788);
  EXPECT_EQ(st[5].second, heap + 5 * 4096 + 788);
  EXPECT_EQ(st[0].second, heap + 5 * 4096 + 4 * 192);
  EXPECT_EQ(st[31].second, heap + 5 * 4096 + 4 * 223);
  for (const auto& in : w.insts) EXPECT_EQ(in.active_mask, full);
  // Kernel 3 is back on set 0: its TB 0 lane 0 loads A0[0].
  EXPECT_EQ(lane_addresses(app.kernels[2].tbs[0].warps[0],
                           *find(app, app.kernels[2].tbs[0].warps[0], "LDG")[0])[0]
                .second,
            heap);
}

TEST(GenShocTriad, InstructionsPerWarpOnEveryArch) {
  // Volta: IMAD.MOV, 2 S2R, IMAD, 2 IMAD.WIDE, 2 LDG, IMAD.WIDE, FFMA, STG, EXIT = 12;
  // Kepler: MOV, 2 S2R, IMAD, 2 x (ISCADD, IMAD.HI.X), 2 LD, ISCADD, IMAD.HI.X, FFMA, ST,
  // EXIT = 15; Pascal: as Kepler with XMAD x 3 for IMAD and LEA/LEA.HI.X pairs = 17.
  const std::pair<std::uint32_t, std::size_t> per_arch[] = {{70, 12}, {35, 15}, {61, 17}};
  for (auto [arch, n] : per_arch) {
    const app_trace app = generate_in_memory("triad", {"mem_kb=2", "min_chunk_kb=2"}, arch);
    ASSERT_EQ(app.kernels.size(), 1u);
    ASSERT_EQ(app.kernels[0].tbs.size(), 4u);  // 512 floats / 128
    for (const auto& tb : app.kernels[0].tbs)
      for (const auto& w : tb.warps) EXPECT_EQ(w.insts.size(), n) << "arch " << arch;
  }
}

TEST(GenShocTriad, TwoStreamsAndPasses) {
  const app_trace app =
      generate_in_memory("triad", {"mem_kb=4", "min_chunk_kb=1", "streams=two", "passes=2"});
  const std::uint64_t want[] = {0, 1, 0, 1, 0, 1, 0};
  ASSERT_EQ(app.kernels.size(), 14u);
  for (std::size_t k = 0; k < 14; ++k) EXPECT_EQ(app.kernels[k].info.stream_id, want[k % 7]);
  EXPECT_EQ(input_addresses(app).size(), 28u);
}

TEST(GenShocTriad, Defaults) {
  // mem_kb 4096, chunks 64..4096 KB: 64 + 32 + ... + 1 = 127 launches of 128..8192 TBs.
  sampling_writer out([](const kernel_info&, const tb_trace&) { return false; });
  generate("triad", {}, 35, out);
  ASSERT_EQ(out.app.kernels.size(), 127u);
  std::size_t k = 0;
  for (std::uint64_t kb = 64, chunks = 64; kb <= 4096; kb *= 2, chunks /= 2)
    for (std::uint64_t c = 0; c < chunks; ++c, ++k) {
      EXPECT_EQ(out.tbs[k], 256 * kb / 128);
      EXPECT_EQ(out.app.kernels[k].info.grid.x, 256 * kb / 128);
    }
  // Six arrays of 4 MB: the last copy is B0 (heap + 4 MB) of the single 4 MB chunk.
  EXPECT_EQ(input_addresses(out.app).size(), 2 * 127u);  // A and B before every launch
  EXPECT_EQ(input_addresses(out.app).back(), heap + (4u << 20));
}

TEST(GenShocTriad, BadParametersAreRefusedInOneLine) {
  const std::vector<std::vector<std::string>> bad = {
      {"mem_kb=3"}, {"min_chunk_kb=48"}, {"mem_kb=4", "min_chunk_kb=8"},
      {"block=96"}, {"block=16"},        {"streams=three"},
      {"passes=0"}, {"mem_kb=two"}};
  for (const auto& params : bad) {
    try {
      generate_in_memory("triad", params);
      ADD_FAILURE() << params[0] << " accepted";
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_FALSE(what.empty());
    }
  }
}

// ---- SpMV (CSR vector kernel) ----

// Row delimiters and columns below are from SHOC's initRandomMatrix run with the C library's
// drand48 (srand48(8675309)): dim 64, n = 2457 (density 0.6): rowDelimiters 0 40 74 109 145
// 192 229; row 5's columns 0 4 5 8 9 11 13 14 16 18 19 20 24 26 27 29 30 33 34 35 36 37 38 39
// 41 43 44 47 48 49 51 55 57 59 60 61 62.
struct spmv_layout {
  std::uint64_t nnz, rows;
  std::uint64_t val() const { return heap; }
  std::uint64_t cols() const { return val() + align256(4 * nnz); }
  std::uint64_t vec() const { return cols() + align256(4 * nnz); }
  std::uint64_t out() const { return vec() + align256(4 * rows); }
  std::uint64_t delims() const { return out() + align256(4 * rows); }
};

TEST(GenShocSpmv, HandWorkedRowOfTwoTrips) {
  const app_trace app = generate_in_memory("spmv_shoc", {"rows=64", "density=0.6"});
  const spmv_layout m{2457, 64};
  ASSERT_EQ(app.kernels.size(), 1u);
  EXPECT_EQ(app.kernels[0].info.grid.x, 16u);  // 64 rows, 4 warps a TB
  EXPECT_EQ(app.kernels[0].info.shmem, 512u);
  const std::vector<std::uint64_t> copies = {m.val(), m.cols(), m.vec(), m.delims()};
  EXPECT_EQ(input_addresses(app), copies);
  // Row 5: TB 1, warp 1, j = 192 .. 228: trip 1 all lanes, trip 2 lanes 0..4.
  const warp_trace& w = app.kernels[0].tbs[1].warps[1];
  const auto ldg = find(app, w, "LDG");
  ASSERT_EQ(ldg.size(), 6u);  // start, end, (cols, val) x 2 trips
  EXPECT_EQ(lane_addresses(w, *ldg[0])[0].second, m.delims() + 20);
  EXPECT_EQ(lane_addresses(w, *ldg[1])[0].second, m.delims() + 24);
  EXPECT_EQ(ldg[2]->active_mask, full);
  EXPECT_EQ(lane_addresses(w, *ldg[2])[3].second, m.cols() + 4 * 195);
  EXPECT_EQ(lane_addresses(w, *ldg[3])[3].second, m.val() + 4 * 195);
  EXPECT_EQ(ldg[4]->active_mask, 0x1fu);
  EXPECT_EQ(lane_addresses(w, *ldg[4])[4].second, m.cols() + 4 * 228);
  const auto tld = find(app, w, "TLD");
  ASSERT_EQ(tld.size(), 2u);
  EXPECT_EQ(lane_addresses(w, *tld[0])[3].second, m.vec() + 4 * 8);    // column of j = 195
  EXPECT_EQ(lane_addresses(w, *tld[0])[31].second, m.vec() + 4 * 55);  // j = 223
  EXPECT_EQ(lane_addresses(w, *tld[1])[4].second, m.vec() + 4 * 62);   // j = 228
  // partialSums[t], t = 32 + lane; the tree's steps l = 16 .. 1 with l lanes.
  const auto sts = find(app, w, "STS");
  ASSERT_EQ(sts.size(), 6u);
  EXPECT_EQ(sts[0]->active_mask, full);
  EXPECT_EQ(lane_addresses(w, *sts[0])[7].second, 4u * 39);
  const auto lds = find(app, w, "LDS");
  ASSERT_EQ(lds.size(), 11u);
  for (unsigned s = 0; s < 5; ++s) {
    const std::uint32_t l = 16u >> s;
    EXPECT_EQ(lds[2 * s]->active_mask, (1u << l) - 1) << l;
    EXPECT_EQ(lane_addresses(w, *lds[2 * s + 1])[0].second, 4u * (32 + l));
  }
  EXPECT_EQ(lds[10]->active_mask, 1u);
  const auto stg = find(app, w, "STG");
  ASSERT_EQ(stg.size(), 1u);
  EXPECT_EQ(stg[0]->active_mask, 1u);
  EXPECT_EQ(lane_addresses(w, *stg[0])[0].second, m.out() + 4 * 5);
  // Volta: head 7 (IMAD.MOV, 2 S2R, LOP3, SHF, IMAD, ISETP), IMAD.WIDE, 2 LDG, 3 (MOV, IADD3,
  // ISETP), 2 trips of 8 and one BRA back, SHF, STS, ISETP, BRA (lanes 16-31), 5 x 5, ISETP,
  // LDS, IMAD.WIDE, STG, EXIT = 64.
  EXPECT_EQ(w.insts.size(), 64u);
}

TEST(GenShocSpmv, WarpsPastTheLastRowLeave) {
  // block 96: 3 rows a TB, ceil(64 / 3) = 22 TBs; TB 21 holds row 63, then two warps past.
  const app_trace app =
      generate_in_memory("spmv_shoc", {"rows=64", "density=0.6", "block=96", "iterations=2"}, 35);
  ASSERT_EQ(app.kernels.size(), 2u);
  EXPECT_EQ(app.kernels[1].info.grid.x, 22u);
  EXPECT_EQ(app.kernels[1].info.shmem, 384u);
  const auto& tb = app.kernels[1].tbs[21];
  EXPECT_EQ(find(app, tb.warps[0], "ST.E").size(), 1u);
  for (unsigned w = 1; w < 3; ++w) {
    EXPECT_EQ(tb.warps[w].insts.size(), 8u);  // MOV, 2 S2R, LOP32I, SHR, IMAD, ISETP, EXIT
    EXPECT_EQ(mnemonic(app, tb.warps[w].insts.back()), "EXIT");
  }
}

TEST(GenShocSpmv, DefaultsAreSizeClassOne) {
  // 1024 rows, 10485 non-zeros; from the C library's run: row 0 holds columns 44 310 312 328
  // 408 514 555 759, the last row 68 (10485 - 10417; SHOC's fillRemaining).
  const app_trace app = generate_in_memory("spmv_shoc", {});
  const spmv_layout m{10485, 1024};
  ASSERT_EQ(app.kernels.size(), 1u);
  EXPECT_EQ(app.kernels[0].info.grid.x, 256u);
  EXPECT_EQ(app.kernels[0].info.block.x, 128u);
  const warp_trace& w0 = app.kernels[0].tbs[0].warps[0];
  const auto tld0 = find(app, w0, "TLD");
  ASSERT_EQ(tld0.size(), 1u);
  EXPECT_EQ(tld0[0]->active_mask, 0xffu);
  EXPECT_EQ(lane_addresses(w0, *tld0[0])[0].second, m.vec() + 4 * 44);
  EXPECT_EQ(lane_addresses(w0, *tld0[0])[7].second, m.vec() + 4 * 759);
  const warp_trace& last = app.kernels[0].tbs[255].warps[3];
  const auto tld = find(app, last, "TLD");
  ASSERT_EQ(tld.size(), 3u);
  EXPECT_EQ(tld[0]->active_mask, full);
  EXPECT_EQ(tld[1]->active_mask, full);
  EXPECT_EQ(tld[2]->active_mask, 0xfu);
  EXPECT_EQ(lane_addresses(last, *find(app, last, "LDG")[2])[0].second, m.cols() + 4 * 10417);
}

TEST(GenShocSpmv, BadParametersAreRefusedInOneLine) {
  const std::vector<std::vector<std::string>> bad = {
      {"block=48"},     {"size=5"},     {"rows=20000"}, {"density=0"}, {"rows=10", "density=0.001"},
      {"iterations=0"}, {"density=1.5"}};
  for (const auto& params : bad) {
    try {
      generate_in_memory("spmv_shoc", params);
      ADD_FAILURE() << params[0] << " accepted";
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace gputlm::traces::generators::test::shoc_test
