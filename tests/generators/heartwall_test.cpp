// Rodinia heartwall (HW of the μC-States workloads): launches, TBs, shared memory, the
// device heap in main.cu's cudaMalloc order, hand-worked addresses of kernel.cu's loads and
// stores, and counts that follow from the kernel's loop bounds alone (a full convolution of
// an m x m template with an n x n window makes m^2 n^2 multiply-adds), computed here from
// kernel.cu and main.cu, not from the generator's code.
#include <gtest/gtest.h>

#include <vector>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::heartwall_test {
namespace {

// main.cu's allocations for tSize t, sSize s, a rows x cols frame and no_frames nf.
struct heap_layout {
  std::uint64_t t, s, rows, cols, nf;
  std::uint64_t in() const { return 2 * t + 1; }
  std::uint64_t in2() const { return 2 * s + 1; }
  std::uint64_t conv() const { return in() + in2() - 1; }
  std::uint64_t pad() const { return in2() + 2 * in(); }
  std::uint64_t frame() const { return heap; }
  std::uint64_t endo_row() const { return frame() + align256(4 * rows * cols); }
  std::uint64_t endo_col() const { return endo_row() + 256; }  // 80 bytes
  std::uint64_t t_endo_row() const { return endo_col() + 256; }
  std::uint64_t t_endo_col() const { return t_endo_row() + align256(80 * nf); }
  std::uint64_t epi_row() const { return t_endo_col() + align256(80 * nf); }
  std::uint64_t epi_col() const { return epi_row() + 256; }  // 124 bytes
  std::uint64_t t_epi_row() const { return epi_col() + 256; }
  std::uint64_t t_epi_col() const { return t_epi_row() + align256(124 * nf); }
  std::uint64_t endo_t() const { return t_epi_col() + align256(124 * nf); }
  std::uint64_t epi_t() const { return endo_t() + align256(4 * in() * in() * 20); }
  // The per-point arrays: 51 allocations of each, in order.
  std::uint64_t per_point(unsigned which, unsigned point) const {
    const std::uint64_t c = 4 * conv() * conv();
    const std::uint64_t bytes[] = {4 * in2() * in2(),
                                   c,
                                   4 * pad() * pad(),
                                   4 * conv() * pad(),
                                   4 * conv() * pad(),
                                   c,
                                   c,
                                   4 * in2() * in2(),
                                   c,
                                   4 * in() * in(),
                                   c,
                                   c};
    std::uint64_t a = epi_t() + align256(4 * in() * in() * 31);
    for (unsigned k = 0; k < which; ++k) a += 51 * align256(bytes[k]);
    return a + point * align256(bytes[which]);
  }
  enum {
    in2_a,
    conv_a,
    pad_a,
    pad_sel_a,
    sub_cumh_a,
    sub_cumh_sel_a,
    sub2_a,
    in2_sqr_a,
    sqr_sub2_a,
    in_sqr_a,
    tmask_a,
    mask_conv_a
  };
};

std::vector<std::string> params(const heap_layout& h, std::uint64_t frames) {
  return {"t_size=" + std::to_string(h.t), "s_size=" + std::to_string(h.s),
          "frames=" + std::to_string(frames)};
}

// Sum of active lanes over a TB's memory instructions of `prefix` whose first lane's
// address lies in [lo, hi).
std::uint64_t lanes_in(const app_trace& app, const tb_trace& tb, const std::string& prefix,
                       std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t n = 0;
  for (const warp_trace& w : tb.warps)
    for (const warp_instruction* in : find(app, w, prefix)) {
      const auto a = lane_addresses(w, *in);
      if (!a.empty() && a[0].second >= lo && a[0].second < hi) n += popcount(in->active_mask);
    }
  return n;
}

TEST(GenHeartwall, LaunchesTbsAndHeapFollowMainCu) {
  const heap_layout h{2, 3, 590, 609, 104};
  const app_trace app = generate_in_memory("heartwall", params(h, 3));
  ASSERT_EQ(app.kernels.size(), 3u);  // one launch per frame
  for (const kernel_trace& k : app.kernels) {
    EXPECT_EQ(k.info.name, "_Z6kernelv");
    EXPECT_EQ(k.info.grid, (dim3{51, 1, 1}));  // ALL_POINTS
    EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
    // in_partial_sum[51], in_sqr_partial_sum[51], three floats, par_max_val[131],
    // par_max_coo[131], d_in_mod_temp[2601]: 4-byte words.
    EXPECT_EQ(k.info.shmem, 4u * (51 + 51 + 3 + 131 + 131 + 2601));
    ASSERT_EQ(k.tbs.size(), 51u);
    EXPECT_EQ(k.tbs[0].warps.size(), 8u);
  }
  // The four point arrays copied as allocated, then the frame before every launch.
  EXPECT_EQ(input_addresses(app),
            (std::vector<std::uint64_t>{h.endo_row(), h.endo_col(), h.epi_row(), h.epi_col(),
                                        h.frame(), h.frame(), h.frame()}));
}

TEST(GenHeartwall, FirstFrameCopiesTemplatesAtRodiniaSizes) {
  const heap_layout h{25, 40, 590, 609, 104};
  const app_trace app = generate_in_memory("heartwall", {"frames=1", "t_size=25", "s_size=40"});
  ASSERT_EQ(app.kernels.size(), 1u);
  const tb_trace& tb = app.kernels[0].tbs[0];  // endo point 0: row 369, column 408
  const warp_trace& w0 = tb.warps[0];
  const auto ldg = find(app, w0, "LDG");
  // Thread 0's Row and Col, then every thread's, then the template's first trip.
  ASSERT_GE(ldg.size(), 5u);
  EXPECT_EQ(lane_addresses(w0, *ldg[0]), (lanes{{0, h.endo_row()}}));
  EXPECT_EQ(lane_addresses(w0, *ldg[1]), (lanes{{0, h.endo_col()}}));
  const auto tmpl = lane_addresses(w0, *ldg[4]);
  ASSERT_EQ(tmpl.size(), 32u);
  // ei = 5: row 5, col 0: frame[(408 - 25 + 0 - 1) * 590 + 369 - 25 + 5 - 1].
  EXPECT_EQ(tmpl[5].second, h.frame() + 4 * (382 * 590 + 348));
  const auto stg = find(app, w0, "STG");
  ASSERT_GE(stg.size(), 3u);
  EXPECT_EQ(lane_addresses(w0, *stg[0]), (lanes{{0, h.t_endo_row()}}));  // point 0, frame 0
  EXPECT_EQ(lane_addresses(w0, *stg[1]), (lanes{{0, h.t_endo_col()}}));
  EXPECT_EQ(lane_addresses(w0, *stg[2])[5].second, h.endo_t() + 4 * 5);
  // 2601 template elements: 11 trips, the last of threads 0..40 (warps 0 and 1).
  const tb_trace& epi = app.kernels[0].tbs[50];  // epi point 30: the 31st template
  std::uint64_t stores = 0;
  for (const warp_trace& w : epi.warps)
    for (const warp_instruction* in : find(app, w, "STG")) {
      const auto a = lane_addresses(w, *in);
      if (a[0].second >= h.epi_t()) stores += a.size();
    }
  EXPECT_EQ(stores, 2601u);
  EXPECT_EQ(lanes_in(app, epi, "STG", h.epi_t() + 30 * 4 * 2601, h.epi_t() + 31 * 4 * 2601), 2601u);
  for (const warp_trace& w : tb.warps) EXPECT_TRUE(find(app, w, "BAR").empty());
}

TEST(GenHeartwall, TrackedFrameFollowsKernelCuIndexing) {
  const heap_layout h{2, 3, 590, 609, 104};  // in 5, in2 7, conv 11, pad 17
  const app_trace app = generate_in_memory("heartwall", params(h, 2));
  const tb_trace& tb = app.kernels[1].tbs[20];  // epi point 0: row 390, column 457
  const warp_trace& w0 = tb.warps[0];
  // 34 __syncthreads() in kernel.cu, all on the tracked frames, by every warp.
  for (const warp_trace& w : tb.warps) EXPECT_EQ(find(app, w, "BAR.SYNC").size(), 34u);
  // Row and Col, then the window: ei = 9 is row 2, col 1:
  // frame[(1 + 457 - 3 - 1) * 590 + 2 + 390 - 3 - 1].
  const auto ldg = find(app, w0, "LDG");
  EXPECT_EQ(lane_addresses(w0, *ldg[0])[0].second, h.epi_row());
  EXPECT_EQ(lane_addresses(w0, *ldg[1])[0].second, h.epi_col());
  EXPECT_EQ(lane_addresses(w0, *ldg[2])[9].second, h.frame() + 4 * (454 * 590 + 388));
  const std::uint64_t point = 20, conv = h.conv();
  const std::uint64_t sqr_sub2 = h.per_point(heap_layout::sqr_sub2_a, point);
  // The convolution: each of the 25 template elements meets each of the 49 window elements
  // once: 1225 LDS of d_in_mod_temp (at 1468) and 1225 window loads in it; the window is
  // also read by the pad (49) and the squaring (49).
  EXPECT_EQ(lanes_in(app, tb, "LDS", 1468, 1468 + 4 * 25), 1225u);
  const std::uint64_t in2 = h.per_point(heap_layout::in2_a, point);
  EXPECT_EQ(lanes_in(app, tb, "LDG", in2, in2 + 4 * 49), 1225u + 49 + 49);
  // The mask convolution: output row ic (1..11) sums rows max(1, ic + 6 - 10) .. min(11,
  // ic + 5) of tMask: 6 7 8 9 10 10 9 8 7 6 5 = 85 per dimension.
  const std::uint64_t tmask = h.per_point(heap_layout::tmask_a, point);
  EXPECT_EQ(lanes_in(app, tb, "LDG", tmask, tmask + 4 * conv * conv), 85u * 85);
  // Stores of the tMask (121), the mask convolution reads sqr_sub2 once per element.
  EXPECT_EQ(lanes_in(app, tb, "STG", tmask, tmask + 4 * conv * conv), 121u);
  const std::uint64_t pad = h.per_point(heap_layout::pad_a, point);
  // Pads: 289 stores each, vertical sums: 17 columns x 17 loads and stores; both chains.
  EXPECT_EQ(lanes_in(app, tb, "STG", pad, pad + 4 * 289), 2 * (289u + 289));
  (void)sqr_sub2;
  // Thread 0 stores the point's location for frame 1 (point_no 0: pointer 1) and read
  // frame 0's for the template mask.
  std::vector<std::uint64_t> trow_loads, trow_stores;
  for (const warp_instruction* in : find(app, w0, "LDG")) {
    const auto a = lane_addresses(w0, *in);
    if (a[0].second >= h.t_epi_row() && a[0].second < h.t_epi_col())
      trow_loads.push_back(a[0].second);
  }
  for (const warp_instruction* in : find(app, w0, "STG")) {
    const auto a = lane_addresses(w0, *in);
    if (a[0].second >= h.t_epi_row() && a[0].second < h.t_epi_col()) {
      trow_stores.push_back(a[0].second);
      EXPECT_EQ(in->active_mask, 1u);
    }
  }
  EXPECT_EQ(trow_loads, (std::vector<std::uint64_t>{h.t_epi_row()}));
  EXPECT_EQ(trow_stores, (std::vector<std::uint64_t>{h.t_epi_row() + 4}));
}

TEST(GenHeartwall, TemplateUpdateEveryTenthFrame) {
  const heap_layout h{2, 3, 590, 609, 104};
  const app_trace app = generate_in_memory("heartwall", params(h, 11));
  ASSERT_EQ(app.kernels.size(), 11u);
  for (std::size_t f = 0; f < 11; ++f) {
    const tb_trace& tb = app.kernels[f].tbs[3];  // endo point 3
    // Every thread writes Row[3] and Col[3] on frame 10 only.
    EXPECT_EQ(lanes_in(app, tb, "STG", h.endo_row() + 12, h.endo_row() + 16), f == 10 ? 256u : 0u)
        << f;
    // The template is rewritten (25 elements) on frames 0 and 10.
    const std::uint64_t t = h.endo_t() + 3 * 4 * 25;
    EXPECT_EQ(lanes_in(app, tb, "STG", t, t + 4 * 25), f == 0 || f == 10 ? 25u : 0u) << f;
  }
}

TEST(GenHeartwall, BadParametersAreRefused) {
  expect_refused("heartwall", {"frames=0"});
  expect_refused("heartwall", {"frames=105"});
  expect_refused("heartwall", {"frames=20", "video_frames=10"});
  expect_refused("heartwall", {"t_size=26"});   // d_in_mod_temp[2601] holds 51 x 51
  expect_refused("heartwall", {"s_size=41"});   // par_max_val[131]
  expect_refused("heartwall", {"height=560"});  // row 543 + sSize 20 - 1 outside
  expect_refused("heartwall", {"width=470"});   // column 457 + 20 - 1 outside
  expect_refused("heartwall", {"points=10"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::heartwall_test
