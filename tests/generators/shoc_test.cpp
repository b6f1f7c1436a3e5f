// SHOC level-1 benchmarks of the μC-States workloads (Kayiran et al., PACT'16, Table 1):
// Triad (TRD). Launch order, grids, copies and lane addresses are worked out here from
// SHOC's Triad.cu host loop and kernel over the documented address map (docs/traces.md:
// arrays 256-byte aligned from the heap base in cudaMalloc order), not from the generator.
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

}  // namespace
}  // namespace gputlm::traces::generators::test::shoc_test
