// PAVER's low-sharing benchmarks the generators add (Tripathy's thesis Table 3.2): Rodinia
// pathfinder (PF) and dwt2d (DWT). Grids, launches, masks, lane addresses and barrier counts
// are computed here from the benchmarks' own indexing (pathfinder.cu, components.cu,
// dwt_cuda/fdwt53.cu, io.h, transform_buffer.h), worked by hand or by small reference
// computations, and the documented address map; not from the generators' code.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::paver_pf_dwt_test {
namespace {

// ---- pathfinder ------------------------------------------------------------------------

// dynproc_kernel of one launch, restated: TB bx covers columns blkX .. blkX + 255 with
// blkX = (256 - 2 iteration) bx - pyramid_height.
struct pf_launch {
  std::int64_t cols, iteration, start, border;
  std::int64_t blk_x(std::int64_t bx) const { return (256 - 2 * iteration) * bx - border; }
};

// Lanes of warp w of TB bx whose column is inside the grid.
std::uint32_t pf_valid(const pf_launch& k, std::int64_t bx, std::uint32_t w) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l) {
    const std::int64_t x = k.blk_x(bx) + 32 * w + l;
    if (x >= 0 && x < k.cols) m |= 1u << l;
  }
  return m;
}

// Lanes computing in step i: valid and tx in [i + 1, 254 - i].
std::uint32_t pf_computed(const pf_launch& k, std::int64_t bx, std::uint32_t w, std::int64_t i) {
  std::uint32_t m = 0;
  const std::uint32_t valid = pf_valid(k, bx, w);
  for (unsigned l = 0; l < 32; ++l) {
    const std::int64_t tx = 32 * w + l;
    if ((valid >> l & 1u) && tx >= i + 1 && tx <= 254 - i) m |= 1u << l;
  }
  return m;
}

// Checks one warp of dynproc_kernel against the reference: the prev[] load, per step the
// three shared reads (west and east neighbours clamped to the grid), the gpuWall load and the
// result store, the copy back except in the last step, the final store; 2 iteration BAR.SYNC.
void check_pf_warp(const app_trace& app, const warp_trace& wt, const pf_launch& k, std::int64_t bx,
                   std::uint32_t w, std::uint64_t src, std::uint64_t dst, std::uint64_t wall) {
  SCOPED_TRACE("TB " + std::to_string(bx) + " warp " + std::to_string(w));
  const std::int64_t blk = k.blk_x(bx);
  auto xidx = [&](unsigned l) { return blk + 32 * std::int64_t(w) + l; };
  EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), std::size_t(2 * k.iteration));
  const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
  const auto lds = find(app, wt, "LDS"), sts = find(app, wt, "STS");
  std::size_t g = 0, ls = 0, ss = 0;
  const std::uint32_t valid = pf_valid(k, bx, w);
  if (valid) {
    ASSERT_LT(g, ldg.size());
    EXPECT_EQ(ldg[g]->active_mask, valid);
    for (auto [l, a] : lane_addresses(wt, *ldg[g])) EXPECT_EQ(a, src + 4 * xidx(l));
    ++g;
    ASSERT_LT(ss, sts.size());
    for (auto [l, a] : lane_addresses(wt, *sts[ss])) EXPECT_EQ(a, 4 * (32 * w + l));
    ++ss;
  }
  std::uint32_t computed = 0;
  for (std::int64_t i = 0; i < k.iteration; ++i) {
    computed = pf_computed(k, bx, w, i);
    if (!computed) continue;
    ASSERT_LE(ls + 3, lds.size());
    for (int n = 0; n < 3; ++n) EXPECT_EQ(lds[ls + n]->active_mask, computed);
    for (auto [l, a] : lane_addresses(wt, *lds[ls])) {  // prev[W]
      const std::int64_t tx = 32 * w + l;
      EXPECT_EQ(a, 4 * std::uint64_t(xidx(l) - 1 >= 0 ? tx - 1 : tx));
    }
    for (auto [l, a] : lane_addresses(wt, *lds[ls + 1])) EXPECT_EQ(a, 4 * (32 * w + l));
    for (auto [l, a] : lane_addresses(wt, *lds[ls + 2])) {  // prev[E]
      const std::int64_t tx = 32 * w + l;
      EXPECT_EQ(a, 4 * std::uint64_t(tx + 1 < 256 && xidx(l) + 1 < k.cols ? tx + 1 : tx));
    }
    ls += 3;
    ASSERT_LT(g, ldg.size());
    EXPECT_EQ(ldg[g]->active_mask, computed);
    for (auto [l, a] : lane_addresses(wt, *ldg[g]))
      EXPECT_EQ(a, wall + 4 * std::uint64_t(k.cols * (k.start + i) + xidx(l)));
    ++g;
    ASSERT_LT(ss, sts.size());
    for (auto [l, a] : lane_addresses(wt, *sts[ss])) EXPECT_EQ(a, 1024 + 4 * (32 * w + l));
    ++ss;
    if (i + 1 < k.iteration) {  // prev[tx] = result[tx]
      for (auto [l, a] : lane_addresses(wt, *lds[ls])) EXPECT_EQ(a, 1024 + 4 * (32 * w + l));
      for (auto [l, a] : lane_addresses(wt, *sts[ss])) EXPECT_EQ(a, 4 * (32 * w + l));
      ++ls;
      ++ss;
    }
  }
  EXPECT_EQ(g, ldg.size());
  if (computed) {
    ASSERT_EQ(stg.size(), 1u);
    EXPECT_EQ(stg[0]->active_mask, computed);
    for (auto [l, a] : lane_addresses(wt, *stg[0])) EXPECT_EQ(a, dst + 4 * xidx(l));
    ++ls;  // result[tx] for the store
  } else {
    EXPECT_TRUE(stg.empty());
  }
  EXPECT_EQ(ls, lds.size());
  EXPECT_EQ(ss, sts.size());
}

TEST(GenPathfinder, DefaultsGiveTheThesis463TbsInFiveLaunches) {
  // cols=100000 rows=100 pyramid_height=20: TBs cover 256 - 40 = 216 columns each,
  // ceil(100000 / 216) = 463; launches at t = 0, 20, 40, 60, 80 (t < rows - 1), the last
  // with iteration = min(20, 100 - 80 - 1) = 19.
  sampling_writer out([](const kernel_info& k, const tb_trace& tb) {
    return (k.id == 1 || k.id == 5) && (tb.index.x == 0 || tb.index.x >= 458);
  });
  generate("pathfinder", {}, 70, out);
  const app_trace& app = out.app;
  ASSERT_EQ(app.kernels.size(), 5u);
  EXPECT_EQ(out.tbs, (std::vector<std::uint64_t>(5, 463)));
  for (const auto& k : app.kernels) {
    EXPECT_EQ(k.info.name, "_Z14dynproc_kerneliPiS_S_iiii");
    EXPECT_EQ(k.info.grid, (dim3{463, 1, 1}));
    EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
    EXPECT_EQ(k.info.shmem, 2048u);  // prev[256], result[256]
  }
  // gpuResult[0], gpuResult[1] (100000 ints each), gpuWall (99 rows); rows 0 and 1..99 copied.
  const std::uint64_t res0 = heap, res1 = heap + align256(400000), wall = res1 + align256(400000);
  ASSERT_EQ(app.commands.size(), 2u);
  EXPECT_EQ(app.commands[0].addr, res0);
  EXPECT_EQ(app.commands[0].bytes, 400000u);
  EXPECT_EQ(app.commands[1].addr, wall);
  EXPECT_EQ(app.commands[1].bytes, 4u * 100000 * 99);
  // Launch 1 (src gpuResult[0]) and launch 5 (t = 80, src gpuResult[0] again after four swaps).
  const pf_launch first{100000, 20, 0, 20}, last{100000, 19, 80, 20};
  for (const tb_trace& tb : app.kernels[0].tbs)
    for (std::uint32_t w = 0; w < 8; ++w)
      check_pf_warp(app, tb.warps[w], first, tb.index.x, w, res0, res1, wall);
  for (const tb_trace& tb : app.kernels[4].tbs)
    for (std::uint32_t w = 0; w < 8; ++w)
      check_pf_warp(app, tb.warps[w], last, tb.index.x, w, res0, res1, wall);
  // The last launch places its tiles 218 columns apart: TB 458 starts at 218 * 458 - 20 =
  // 99824, and TBs 459..462 lie past column 99999 and do nothing but exit.
  for (const tb_trace& tb : app.kernels[4].tbs)
    if (tb.index.x >= 459)
      for (const warp_trace& wt : tb.warps) {
        EXPECT_TRUE(find(app, wt, "LDG").empty());
        EXPECT_TRUE(find(app, wt, "STG").empty());
      }
}

TEST(GenPathfinder, SmallGridByHand) {
  // cols=600 rows=6 pyramid_height=2: border 2, 256 - 4 = 252 columns per TB, 3 TBs;
  // launches at t = 0, 2 (iteration 2) and t = 4 (iteration min(2, 6 - 4 - 1) = 1).
  const app_trace app =
      generate_in_memory("pathfinder", {"cols=600", "rows=6", "pyramid_height=2"});
  const std::uint64_t res0 = heap, res1 = heap + align256(2400), wall = res1 + align256(2400);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{res0, wall}));
  EXPECT_EQ(app.commands[1].bytes, 4u * 600 * 5);
  ASSERT_EQ(app.kernels.size(), 3u);
  const pf_launch launches[] = {{600, 2, 0, 2}, {600, 2, 2, 2}, {600, 1, 4, 2}};
  const std::uint64_t srcs[] = {res0, res1, res0}, dsts[] = {res1, res0, res1};
  for (std::size_t n = 0; n < 3; ++n) {
    const kernel_trace& k = app.kernels[n];
    EXPECT_EQ(k.info.grid, (dim3{3, 1, 1}));
    ASSERT_EQ(k.tbs.size(), 3u);
    for (const tb_trace& tb : k.tbs)
      for (std::uint32_t w = 0; w < 8; ++w)
        check_pf_warp(app, tb.warps[w], launches[n], tb.index.x, w, srcs[n], dsts[n], wall);
  }

  // Launch 1 by hand. TB 0: blkX = -2, so threads 2..255 load gpuSrc[0..253]; warp 0 lanes
  // 2..31. Lane 2 (column 0) reads prev[W] at its own slot: W = max(1, validXmin = 2).
  const kernel_trace& k1 = app.kernels[0];
  const warp_trace& w0 = k1.tbs[0].warps[0];
  EXPECT_EQ(find(app, w0, "LDG").at(0)->active_mask, 0xfffffffcu);
  EXPECT_EQ(lane_addresses(w0, *find(app, w0, "LDG")[0]).front(),
            (std::pair<unsigned, std::uint64_t>{2, res0}));
  EXPECT_EQ(lane_addresses(w0, *find(app, w0, "LDS")[0]).front(),
            (std::pair<unsigned, std::uint64_t>{2, 8}));
  // Step 0 computes threads 1..254 of the valid ones, step 1 threads 2..253: warp 7 stores
  // threads 224..253 (lanes 0..29), columns 222..251.
  const warp_trace& w7 = k1.tbs[0].warps[7];
  const auto ldg7 = find(app, w7, "LDG");
  ASSERT_EQ(ldg7.size(), 3u);
  EXPECT_EQ(ldg7[1]->active_mask, 0x7fffffffu);
  EXPECT_EQ(ldg7[2]->active_mask, 0x3fffffffu);
  EXPECT_EQ(lane_addresses(w7, *ldg7[2]).back().second, wall + 4 * (600 + 251));
  EXPECT_EQ(find(app, w7, "STG").at(0)->active_mask, 0x3fffffffu);
  EXPECT_EQ(lane_addresses(w7, *find(app, w7, "STG")[0]).back().second, res1 + 4 * 251);
  // TB 2: blkX = 502, blkXmax = 757 > 599, validXmax = 255 - 158 = 97: threads 0..97 load
  // columns 502..599; thread 97 (warp 3 lane 1) clamps E to itself.
  const warp_trace& t2w3 = k1.tbs[2].warps[3];
  EXPECT_EQ(find(app, t2w3, "LDG").at(0)->active_mask, 0x3u);
  EXPECT_EQ(lane_addresses(t2w3, *find(app, t2w3, "LDS")[2]).back(),
            (std::pair<unsigned, std::uint64_t>{1, 4 * 97}));
  EXPECT_TRUE(find(app, k1.tbs[2].warps[4], "LDG").empty());

  // The halo: neighbouring TBs load 2 * pyramid_height = 4 common columns of gpuSrc and,
  // in step 0, 2 common columns of gpuWall; every column is stored exactly once per launch.
  for (std::size_t n = 0; n < 3; ++n) {
    std::vector<std::set<std::uint64_t>> src_read(3), wall_read(3);
    std::map<std::uint64_t, unsigned> stores;
    for (const tb_trace& tb : app.kernels[n].tbs)
      for (const warp_trace& wt : tb.warps) {
        for (const warp_instruction* in : find(app, wt, "LDG"))
          for (auto [l, a] : lane_addresses(wt, *in))
            (a >= wall ? wall_read : src_read)[tb.index.x].insert(a);
        for (const warp_instruction* in : find(app, wt, "STG"))
          for (auto [l, a] : lane_addresses(wt, *in)) ++stores[a];
      }
    auto common = [](const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
      std::vector<std::uint64_t> r;
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
      return r.size();
    };
    const std::size_t halo = n < 2 ? 4 : 2;  // 2 * iteration: the last launch has one step
    EXPECT_EQ(common(src_read[0], src_read[1]), halo) << "launch " << n + 1;
    EXPECT_EQ(common(src_read[1], src_read[2]), halo) << "launch " << n + 1;
    EXPECT_EQ(common(src_read[0], src_read[2]), 0u);
    EXPECT_EQ(common(wall_read[0], wall_read[1]), n < 2 ? 2u : 0u) << "launch " << n + 1;
    ASSERT_EQ(stores.size(), 600u);
    EXPECT_EQ(stores.begin()->first, dsts[n]);
    for (const auto& [a, c] : stores) EXPECT_EQ(c, 1u);
  }
}

TEST(GenPathfinder, BadParametersAreRefused) {
  expect_refused("pathfinder", {"cols=0"});
  expect_refused("pathfinder", {"rows=1"});
  expect_refused("pathfinder", {"pyramid_height=0"});
  expect_refused("pathfinder", {"pyramid_height=128"});  // 256 - 2 * 128 = 0 columns per TB
  expect_refused("pathfinder", {"block=8", "pyramid_height=4"});
  expect_refused("pathfinder", {"cols=100000", "rows=100000"});  // int indices
}

// ---- dwt2d -------------------------------------------------------------------------------

// TransformBuffer<int, W, 11, 2> of fdwt53Kernel<W, 8>, worked by hand: VERTICAL_STRIDE
// 2 + W/2, BUFFER_SIZE 11 stride, PADDING 32 - (BUFFER_SIZE + 16) mod 32, odd half at
// BUFFER_SIZE + PADDING. W = 64: stride 34, 374 + 26 = 400, 774 words (3096 B); W = 128:
// 66, 726 + 26, 1478 words (5912 B); W = 192: 98, 1078 + 26, 2182 words (8728 B).
std::uint64_t column_word(std::int64_t column, std::uint64_t odd_offset) {
  return std::uint64_t(column + 2) / 2 + (std::uint64_t(column + 2) % 2) * odd_offset;
}

TEST(GenDwt2d, DefaultsAreTheRodiniaRunWith4096ComponentTbs) {
  // dwt2d rgb.bmp -d 1024x1024 -f -5 -l 3: c_CopySrcToComponents on 1024 * 1024 / 256 = 4096
  // TBs (the thesis's 4096), then per component three fdwt53Kernel launches: 1024 x 1024
  // with <192, 8> (steps = ceil(1024 / 120) = 9: grid 6 x ceil(1024 / 72) = 15), 512 x 512
  // with <128, 8> (steps 5: 4 x 13), 256 x 256 with <64, 8> (steps 3: 4 x 11).
  sampling_writer out([](const kernel_info& k, const tb_trace& tb) {
    return k.id == 1 ? tb.linear_id == 4095 : false;
  });
  generate("dwt2d", {}, 70, out);
  const app_trace& app = out.app;
  ASSERT_EQ(app.kernels.size(), 10u);
  EXPECT_EQ(app.kernels[0].info.name, "_Z21c_CopySrcToComponentsIiEvPT_S1_S1_Phi");
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{4096, 1, 1}));
  EXPECT_EQ(app.kernels[0].info.block, (dim3{256, 1, 1}));
  EXPECT_EQ(app.kernels[0].info.shmem, 768u);
  EXPECT_EQ(out.tbs[0], 4096u);
  const dim3 grids[] = {{6, 15, 1}, {4, 13, 1}, {4, 11, 1}};
  const std::uint32_t widths[] = {192, 128, 64}, shmem[] = {8728, 5912, 3096};
  for (std::size_t k = 1; k < 10; ++k) {
    const std::size_t l = (k - 1) % 3;
    EXPECT_EQ(app.kernels[k].info.name,
              "_ZN8dwt_cuda12fdwt53KernelILi" + std::to_string(widths[l]) + "ELi8EEEvPKiPiiii");
    EXPECT_EQ(app.kernels[k].info.grid, grids[l]);
    EXPECT_EQ(app.kernels[k].info.block, (dim3{widths[l], 1, 1}));
    EXPECT_EQ(app.kernels[k].info.shmem, shmem[l]);
    EXPECT_EQ(out.tbs[k], std::uint64_t(grids[l].x) * grids[l].y);
  }
  // c_r_out, backup, c_g_out, c_b_out, c_r, c_g, c_b (4 MiB each), then d_src, of which the
  // 3 MiB image is copied.
  const std::uint64_t mib4 = 4ull << 20, d_src = heap + 7 * mib4;
  ASSERT_EQ(app.commands.size(), 1u);
  EXPECT_EQ(app.commands[0].addr, d_src);
  EXPECT_EQ(app.commands[0].bytes, 3ull << 20);
  // The last TB copies words 192 * 4095 + x of d_src and stores pixels 256 * 4095 + x.
  const tb_trace& tb = app.kernels[0].tbs.at(0);
  const auto ldg = find(app, tb.warps[5], "LDG");
  ASSERT_EQ(ldg.size(), 1u);
  EXPECT_EQ(lane_addresses(tb.warps[5], *ldg[0]).back().second, d_src + 4 * (192 * 4095 + 191));
  EXPECT_TRUE(find(app, tb.warps[6], "LDG").empty());
  const auto stg = find(app, tb.warps[7], "STG");
  ASSERT_EQ(stg.size(), 3u);
  const std::uint64_t c_r = heap + 4 * mib4, c_g = c_r + mib4, c_b = c_g + mib4;
  EXPECT_EQ(lane_addresses(tb.warps[7], *stg[0]).back().second, c_r + 4 * (1048576 - 1));
  EXPECT_EQ(lane_addresses(tb.warps[7], *stg[1]).back().second, c_g + 4 * (1048576 - 1));
  EXPECT_EQ(lane_addresses(tb.warps[7], *stg[2]).back().second, c_b + 4 * (1048576 - 1));
}

TEST(GenDwt2d, ComponentSplitByHand) {
  // 40 x 10 RGB: 400 pixels, 2 TBs; d_src holds 2 * 256 * 3 bytes. TB 1: threads x < 192 copy
  // words 192 + x, every thread reads bytes 3x, 3x + 1, 3x + 2 of the shared copy, and
  // pixels 256 + x < 400 (x < 144: warp 4 lanes 0..15) store.
  const app_trace app =
      generate_in_memory("dwt2d", {"width=40", "height=10", "components=3", "levels=1"});
  const std::uint64_t size = align256(1600);
  const std::uint64_t c_r = heap + 4 * size, d_src = heap + 7 * size;
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{d_src}));
  EXPECT_EQ(app.commands[0].bytes, 1200u);
  ASSERT_EQ(app.kernels.size(), 4u);  // split + one level for each of R, G, B
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{2, 1, 1}));
  for (std::uint32_t w = 0; w < 8; ++w) {
    const warp_trace& wt = k.tbs[1].warps[w];
    EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 1u);
    const auto ldg = find(app, wt, "LDG");
    ASSERT_EQ(ldg.size(), w < 6 ? 1u : 0u);
    if (w < 6) {
      for (auto [l, a] : lane_addresses(wt, *ldg[0])) EXPECT_EQ(a, d_src + 4 * (192 + 32 * w + l));
    }
    const auto lds = find(app, wt, "LDS.U8");
    ASSERT_EQ(lds.size(), 3u);
    for (std::uint64_t c = 0; c < 3; ++c)
      for (auto [l, a] : lane_addresses(wt, *lds[c])) EXPECT_EQ(a, 3 * (32 * w + l) + c);
    const auto stg = find(app, wt, "STG");
    const std::uint32_t inside = w < 4 ? 0xffffffffu : w == 4 ? 0xffffu : 0u;
    ASSERT_EQ(stg.size(), inside ? 3u : 0u);
    for (std::uint64_t c = 0; c < stg.size(); ++c) {
      EXPECT_EQ(stg[c]->active_mask, inside);
      for (auto [l, a] : lane_addresses(wt, *stg[c]))
        EXPECT_EQ(a, c_r + c * size + 4 * (256 + 32 * w + l));
    }
  }
  // One component (c_CopySrcToComponent): threads x < 64 copy word 64 bx + x.
  const app_trace bw =
      generate_in_memory("dwt2d", {"width=40", "height=10", "components=1", "levels=1"});
  ASSERT_EQ(bw.kernels.size(), 2u);
  EXPECT_EQ(bw.kernels[0].info.name, "_Z20c_CopySrcToComponentIiEvPT_Phi");
  const warp_trace& b1 = bw.kernels[0].tbs[1].warps[1];
  EXPECT_EQ(lane_addresses(b1, *find(bw, b1, "LDG").at(0)).front().second,
            heap + 3 * size + 4 * (64 + 32));
  EXPECT_TRUE(find(bw, bw.kernels[0].tbs[1].warps[2], "LDG").empty());
}

// The rows a column loader of TB row `by` reads (130 x 40 at one level: steps 1): rows
// firstY - 2 .. firstY + 8 (the top row: 0, 1, 2, then from row 1), rows past the last one
// reflected: sy + k -> sy - 2 - k.
std::vector<std::int64_t> dwt_rows(std::int64_t by, std::int64_t sy) {
  std::vector<std::int64_t> r;
  if (by == 0) {
    r = {0, 1, 2};
    for (std::int64_t y = 1; y <= 8; ++y) r.push_back(y);
  } else {
    for (std::int64_t y = 8 * by - 2; y <= 8 * by + 8; ++y)
      r.push_back(y < sy ? y : 2 * sy - 2 - y);
  }
  return r;
}

TEST(GenDwt2d, SlidingWindowLoadsMirrorsAndHaloByHand) {
  // One component, 130 x 40, one level: <64, 8>, steps = ceil(40 / 120) = 1, grid
  // ceil(130 / 64) = 3 by ceil(40 / 8) = 5.
  const app_trace app =
      generate_in_memory("dwt2d", {"width=130", "height=40", "components=1", "levels=1"});
  const std::uint64_t size = align256(4 * 130 * 40);
  const std::uint64_t out = heap, in = heap + 2 * size;
  ASSERT_EQ(app.kernels.size(), 2u);
  const kernel_trace& k = app.kernels[1];
  EXPECT_EQ(k.info.grid, (dim3{3, 5, 1}));
  EXPECT_EQ(k.info.block, (dim3{64, 1, 1}));
  EXPECT_EQ(k.info.shmem, 3096u);
  const std::uint64_t stride = 34, odd = 400;

  std::map<std::pair<std::uint32_t, std::uint32_t>, std::set<std::uint64_t>> reads;
  std::map<std::uint64_t, unsigned> writes;
  for (const tb_trace& tb : k.tbs) {
    const std::int64_t bx = tb.index.x, by = tb.index.y;
    const auto rows = dwt_rows(by, 40);
    for (std::uint32_t w = 0; w < 2; ++w) {
      const warp_trace& wt = tb.warps[w];
      SCOPED_TRACE("TB " + std::to_string(bx) + "," + std::to_string(by) + " warp " +
                   std::to_string(w));
      // One window step: 4 BAR.SYNC.
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 4u);
      // Loads: the own column's 3 first rows, the boundary columns' (warp 0 lanes 0..2:
      // columns 64, -2, -1 of the TB), then 8 rows of each.
      const auto ldg = find(app, wt, "LDG");
      ASSERT_EQ(ldg.size(), w == 0 ? 22u : 11u);
      auto image_x = [&](std::int64_t c) {
        const std::int64_t x = 64 * bx + c;
        return x >= 130 ? 258 - x : x < 0 ? -x : x;
      };
      auto check = [&](const warp_instruction& in_, std::int64_t row, bool boundary) {
        EXPECT_EQ(in_.active_mask, boundary ? 0x7u : 0xffffffffu);
        for (auto [l, a] : lane_addresses(wt, in_)) {
          const std::int64_t c = boundary ? (l == 0 ? 64 : std::int64_t(l) - 3) : 32 * w + l;
          EXPECT_EQ(a, in + 4 * std::uint64_t(image_x(c) + 130 * row));
          reads[{tb.index.x, tb.index.y}].insert(a);
        }
      };
      std::size_t n = 0;
      for (std::size_t i = 0; i < 3; ++i) check(*ldg[n++], rows[i], false);
      if (w == 0)
        for (std::size_t i = 0; i < 3; ++i) check(*ldg[n++], rows[i], true);
      for (std::size_t i = 3; i < 11; ++i) check(*ldg[n++], rows[i], false);
      if (w == 0)
        for (std::size_t i = 3; i < 11; ++i) check(*ldg[n++], rows[i], true);
      // Stores into the buffer: rows 0..10 of the own column (and of the boundary columns).
      const auto sts = find(app, wt, "STS");
      ASSERT_GE(sts.size(), 11u);
      for (std::uint64_t r = 0; r < 11; ++r)
        for (auto [l, a] : lane_addresses(wt, *sts[r]))
          EXPECT_EQ(a, 4 * (column_word(32 * w + l, odd) + r * stride));
      // Predict: 8 * 34 - 1 = 271 odd words, 4 passes of 64 threads and one of 15: the first
      // pass reads even words 68 + tx and 69 + tx and updates odd word 68 + 400 + tx.
      const auto lds = find(app, wt, "LDS");
      ASSERT_GE(lds.size(), 15u);
      for (auto [l, a] : lane_addresses(wt, *lds[0])) EXPECT_EQ(a, 4 * (68 + 32 * w + l));
      for (auto [l, a] : lane_addresses(wt, *lds[1])) EXPECT_EQ(a, 4 * (69 + 32 * w + l));
      for (auto [l, a] : lane_addresses(wt, *lds[2])) EXPECT_EQ(a, 4 * (468 + 32 * w + l));
      EXPECT_EQ(lds[12]->active_mask, w == 0 ? 0x7fffu : 0xffffffffu);  // the last pass or
      // the first of the update, which reads odd words 468 + tx, 469 + tx, even 69 + tx
      const std::size_t update = w == 0 ? 15 : 12;
      for (auto [l, a] : lane_addresses(wt, *lds[update])) EXPECT_EQ(a, 4 * (468 + 32 * w + l));
      for (auto [l, a] : lane_addresses(wt, *lds[update + 2])) EXPECT_EQ(a, 4 * (69 + 32 * w + l));
      for (const warp_instruction* s : find(app, wt, "STG"))
        for (auto [l, a] : lane_addresses(wt, *s)) ++writes[a];
    }
  }
  // Every coefficient of the four bands is written once.
  ASSERT_EQ(writes.size(), 130u * 40);
  EXPECT_EQ(writes.begin()->first, out);
  EXPECT_EQ(writes.rbegin()->first, out + 4 * (130 * 40 - 1));
  for (const auto& [a, c] : writes) EXPECT_EQ(c, 1u);

  // TB (2, 4), at both edges: columns 128..191 mirror to 128, 129, 128, 127, ..., 67; rows
  // 30..39 then 38. Only threads 0 and 32 have an output column inside the image (parityIdx
  // 0 and 1: columns 128, 129); they store rows 32..39, low and high alternately, into LL,
  // LH (column 128) and HL, HH (column 129): bands of 65 x 20 at 0, 1300, 2600, 3900.
  const tb_trace& corner = k.tbs[4 * 3 + 2];
  ASSERT_EQ(corner.index, (dim3{2, 4, 0}));
  const auto c_ldg = find(app, corner.warps[0], "LDG");
  EXPECT_EQ(lane_addresses(corner.warps[0], *c_ldg[21]).front().second, in + 4 * (66 + 130 * 38));
  for (std::uint32_t w = 0; w < 2; ++w) {
    const auto stg = find(app, corner.warps[w], "STG");
    ASSERT_EQ(stg.size(), 8u);
    for (std::uint64_t y = 32; y < 40; ++y) {
      const std::uint64_t band = w == 0 ? (y % 2 ? 2600 : 0) : (y % 2 ? 3900 : 1300);
      EXPECT_EQ(stg[y - 32]->active_mask, 0x1u);
      EXPECT_EQ(lane_addresses(corner.warps[w], *stg[y - 32]).at(0).second,
                out + 4 * (band + (y / 2) * 65 + 64));
    }
  }

  // The halo: horizontal neighbours share columns 62, 63, 64 of the left TB (11 rows),
  // vertical neighbours rows 6, 7, 8 (65 columns), diagonal ones the 3 x 3 corner; TBs two
  // apart share nothing.
  auto common = [&](dim3 a, dim3 b) {
    const auto& x = reads[{a.x, a.y}];
    const auto& y = reads[{b.x, b.y}];
    std::vector<std::uint64_t> r;
    std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(r));
    return r.size();
  };
  EXPECT_EQ(common({0, 1, 0}, {1, 1, 0}), 33u);
  EXPECT_EQ(common({0, 0, 0}, {0, 1, 0}), 195u);
  EXPECT_EQ(common({0, 0, 0}, {1, 1, 0}), 9u);
  EXPECT_EQ(common({0, 0, 0}, {0, 2, 0}), 0u);
  EXPECT_EQ(common({0, 1, 0}, {2, 1, 0}), 0u);
}

TEST(GenDwt2d, BadParametersAreRefused) {
  expect_refused("dwt2d", {"components=2"});
  expect_refused("dwt2d", {"width=2", "height=64", "levels=1"});   // mirrored columns < 0
  expect_refused("dwt2d", {"width=20", "height=64", "levels=1"});  // column 64 past 2 * 20 - 2
  expect_refused("dwt2d", {"width=64", "height=1", "levels=1"});   // mirrored rows < 0
  expect_refused("dwt2d", {"width=64", "height=64", "levels=2"});  // level 2: 64 > 2 * 32 - 2
  expect_refused("dwt2d", {"width=32768", "height=32768"});        // int sizes
  expect_refused("dwt2d", {"levels=0"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::paver_pf_dwt_test
