// Rodinia lavaMD (LAV of the μC-States workloads): the launch, the device heap in
// kernel_gpu_cuda_wrapper.cu's cudaMalloc order, hand-worked addresses of the kernel's
// loads, and counts that follow from main.c's box list and the kernel's loop bounds alone
// (a box visits itself and its nn neighbours; each visit is 100 x 100 pair interactions and
// two barriers), computed here, not from the generator's code.
#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::lavamd_test {
namespace {

// main.h: sizeof(box_str) = 4 ints, a long, an int (padded to 8), 26 nei_str of 4 ints and
// a long (24 bytes): 32 + 26 * 24 = 656. FOUR_VECTOR of floats: 16 bytes.
constexpr std::uint64_t box_bytes = 656, vec = 16;

struct heap_layout {
  std::uint64_t b;  // boxes1d
  std::uint64_t boxes() const { return b * b * b; }
  std::uint64_t box() const { return heap; }
  std::uint64_t rv() const { return box() + align256(box_bytes * boxes()); }
  std::uint64_t qv() const { return rv() + align256(vec * 100 * boxes()); }
  std::uint64_t fv() const { return qv() + align256(4 * 100 * boxes()); }
};

const app_trace& three_cubed() {
  static const app_trace app = generate_in_memory("lavamd", {"boxes1d=3"}, 70);
  return app;
}

// Thread-level lanes of the instructions whose mnemonic starts with prefix, over a TB.
std::uint64_t thread_count(const app_trace& app, const tb_trace& tb, const std::string& prefix) {
  std::uint64_t n = 0;
  for (const warp_trace& w : tb.warps)
    for (const warp_instruction* in : find(app, w, prefix)) n += popcount(in->active_mask);
  return n;
}

TEST(GenLavamd, LaunchAndHeapFollowTheWrapper) {
  const app_trace& app = three_cubed();
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{27, 1, 1}));    // one TB per box
  EXPECT_EQ(k.info.block, (dim3{128, 1, 1}));  // NUMBER_THREADS
  // rA_shared[100], rB_shared[100] (16 bytes each), qB_shared[100] (4 bytes).
  EXPECT_EQ(k.info.shmem, 1600u + 1600u + 400u);
  EXPECT_EQ(k.tbs.size(), 27u);
  const heap_layout h{3};
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{h.box(), h.rv(), h.qv(), h.fv()}));
}

// Box numbers z b^2 + y b + x: box 0 is a corner (7 neighbours), box 1 (x = 1) an edge's
// middle (11), box 4 (x = y = 1, z = 0) a face's centre (17), box 13 the centre (26).
TEST(GenLavamd, NeighbourCountsSetBarriersAndExps) {
  const app_trace& app = three_cubed();
  const kernel_trace& k = app.kernels[0];
  const std::uint64_t expected_nn[][2] = {{0, 7}, {1, 11}, {4, 17}, {13, 26}, {26, 7}};
  for (auto [box, nn] : expected_nn) {
    const tb_trace& tb = k.tbs[box];
    ASSERT_EQ(tb.warps.size(), 4u);
    for (const warp_trace& w : tb.warps)  // one after the home copy, two per box visited
      EXPECT_EQ(find(app, w, "BAR").size(), 1 + 2 * (nn + 1)) << "box " << box;
    // 100 home particles (threads 0..99) x 100 neighbour particles x boxes visited.
    EXPECT_EQ(thread_count(app, tb, "MUFU.EX2"), 100u * 100u * (nn + 1)) << "box " << box;
    // Warp-level: warps 0..3 all compute (warp 3 with threads 96..99 only).
    std::uint64_t warp_ex2 = 0;
    for (const warp_trace& w : tb.warps) warp_ex2 += find(app, w, "MUFU.EX2").size();
    EXPECT_EQ(warp_ex2, 4u * 100u * (nn + 1)) << "box " << box;
    for (const warp_instruction* in : find(app, tb.warps[3], "MUFU.EX2"))
      EXPECT_EQ(in->active_mask, 0xfu);
  }
}

// TB 13's last neighbour (k = 26) is nei[25], main.c's (l, m, n) = (1, 1, 1): box (2, 2, 2)
// = 26, particles from offset 2600. Thread 37 (warp 1, lane 5) copies rB[37].x from
// d_rv_gpu[2637].x; box 13's nei[25].number is read at d_box_gpu + 13 * 656 + 32 + 25 * 24
// + 12, and box 26's offset at d_box_gpu + 26 * 656 + 16.
TEST(GenLavamd, NeighbourParticleLoadAddresses) {
  const app_trace& app = three_cubed();
  const heap_layout h{3};
  const tb_trace& tb = app.kernels[0].tbs[13];
  const warp_trace& w = tb.warps[1];
  const std::uint64_t rb_x = h.rv() + vec * 2637 + 4;
  const std::uint64_t nei_number = h.box() + 13 * box_bytes + 32 + 25 * 24 + 12;
  const std::uint64_t offset26 = h.box() + 26 * box_bytes + 16;
  unsigned rb_hits = 0, nei_hits = 0, offset_hits = 0;
  for (const warp_instruction* in : find(app, w, "LDG")) {
    const auto a = lane_addresses(w, *in);
    ASSERT_FALSE(a.empty());
    if (a.size() > 5 && a[5] == std::pair<unsigned, std::uint64_t>{5, rb_x}) {
      ++rb_hits;
      EXPECT_EQ(in->active_mask, 0xffffffffu);
      EXPECT_EQ(a[0].second, h.rv() + vec * (2600 + 32) + 4);  // lane 0: thread 32
    }
    if (a[0].second == nei_number) ++nei_hits;
    if (a[0].second == offset26) ++offset_hits;
  }
  EXPECT_EQ(rb_hits, 1u);
  EXPECT_EQ(nei_hits, 1u);
  EXPECT_EQ(offset_hits, 1u);
  // The compute phase reads rB_shared[99].z (shared offset 1600 + 99 * 16 + 8) once per box
  // visited, by every lane (a broadcast).
  unsigned lds_hits = 0;
  for (const warp_instruction* in : find(app, w, "LDS")) {
    const auto a = lane_addresses(w, *in);
    if (!a.empty() && a[0].second == 1600 + 99 * 16 + 8 && a[31].second == a[0].second) ++lds_hits;
  }
  EXPECT_EQ(lds_hits, 27u);
}

TEST(GenLavamd, LoneBoxOnKeplerHasRroBeforeEx2) {
  const app_trace app = generate_in_memory("lavamd", {"boxes1d=1"}, 35);
  ASSERT_EQ(app.kernels.size(), 1u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{1, 1, 1}));  // a lone box: no neighbour
  const tb_trace& tb = app.kernels[0].tbs[0];
  EXPECT_EQ(thread_count(app, tb, "MUFU.EX2"), 100u * 100u);
  EXPECT_EQ(thread_count(app, tb, "RRO.EX2"), 100u * 100u);
  EXPECT_EQ(find(app, tb.warps[0], "BAR").size(), 3u);
}

TEST(GenLavamd, BadParametersAreRefused) {
  expect_refused("lavamd", {"boxes1d=0"});
  expect_refused("lavamd", {"boxes1d=41"});
  expect_refused("lavamd", {"boxes1d=two"});
  expect_refused("lavamd", {"alpha=0.5"});
  try {
    generate_in_memory("lavamd", {"boxes1d=0"});
    FAIL() << "boxes1d=0 accepted";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("boxes1d"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;  // one line
  }
}

}  // namespace
}  // namespace gputlm::traces::generators::test::lavamd_test
