// The μC-States applications (Kayiran et al., PACT'16, Table 1) SAD (Parboil sad) and NN
// (the ISPASS'09 neural network). Grids, masks, lane addresses and barrier counts are
// computed here by running the original kernels' index arithmetic thread by thread
// (Parboil kernel.cu / largerBlocks.cu, NN_kernel.cu) over the documented address map
// (docs/traces.md: arrays 256-byte aligned from the heap base in allocation order; the
// reference frame's texels pitch-linear with clamp addressing), not from the generators'
// code.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::uc_apps_test {
namespace {

constexpr std::uint32_t full = 0xffffffffu;

// The dynamic instructions of `w` whose mnemonic starts with `prefix`.
std::vector<access> traced(const app_trace& app, const warp_trace& w, const std::string& prefix) {
  std::vector<access> r;
  for (const warp_instruction* in : find(app, w, prefix))
    r.push_back({in->active_mask, lane_addresses(w, *in)});
  return r;
}

void expect_accesses(const app_trace& app, const warp_trace& w, const std::string& prefix,
                     const std::vector<access>& want, const std::string& where) {
  const std::vector<access> got = traced(app, w, prefix);
  ASSERT_EQ(got.size(), want.size()) << where << " " << prefix;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].mask, want[i].mask) << where << " " << prefix << " #" << i;
    EXPECT_EQ(got[i].addr, want[i].addr) << where << " " << prefix << " #" << i;
  }
}

// Per-thread address streams of one static access site, merged into warp instructions: the
// k-th access of every thread that makes at least k + 1 of them is one warp instruction.
// seq[lane] is the thread's sequence of addresses; lanes without a thread hold nothing.
std::vector<access> merge(const std::vector<std::vector<std::uint64_t>>& seq) {
  std::vector<access> r;
  for (std::size_t k = 0;; ++k) {
    access a;
    for (unsigned l = 0; l < 32; ++l)
      if (k < seq[l].size()) {
        a.mask |= 1u << l;
        a.addr.emplace_back(l, seq[l][k]);
      }
    if (a.mask == 0) return r;
    r.push_back(a);
  }
}

std::uint32_t live_mask(std::uint64_t threads, std::uint64_t warp) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (32 * warp + l < threads) m |= 1u << l;
  return m;
}

// ---- Parboil sad ----

constexpr std::uint64_t max_pos = 1089, max_pos_padded = 1096;

struct sad_frames {
  std::uint64_t width, height;
  std::uint64_t mb_w() const { return width / 16; }
  std::uint64_t mbs() const { return width / 16 * (height / 16); }
  // cudaMalloc d_cur_image, the reference array, then d_sads.
  std::uint64_t cur() const { return heap; }
  std::uint64_t ref() const { return cur() + align256(2 * width * height); }
  std::uint64_t sads() const { return ref() + align256(2 * width * height); }
  std::uint64_t texel(std::int64_t x, std::int64_t y) const {
    x = std::clamp<std::int64_t>(x, 0, std::int64_t(width) - 1);
    y = std::clamp<std::int64_t>(y, 0, std::int64_t(height) - 1);
    return ref() + 2 * (std::uint64_t(y) * width + std::uint64_t(x));
  }
  std::vector<std::string> params() const {
    return {"width=" + std::to_string(width), "height=" + std::to_string(height)};
  }
};

// mb_sad_calc, thread by thread as kernel.cu runs it (THREADS_W = THREADS_H = 1, 61 threads).
struct sad_warp {
  std::vector<access> ldg, sts, lds, tex, stg;
};

sad_warp expected_mb_sad_calc(const sad_frames& f, std::uint64_t bx, std::uint64_t by,
                              std::uint64_t w) {
  constexpr std::uint64_t ceil_pos = 61, pos_per_thread = 18, dim = 33, range = 16;
  std::vector<std::vector<std::uint64_t>> ldg(32), sts_copy(32), lds_frame[16], tex[4][6],
      sts_sad[3], lds_out(32), stg(32);
  for (auto& v : lds_frame) v.resize(32);
  for (auto& row : tex)
    for (auto& v : row) v.resize(32);
  for (auto& v : sts_sad) v.resize(32);
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint64_t tid = 32 * w + l;
    if (tid >= ceil_pos) continue;
    const std::uint64_t txy = tid / ceil_pos, ty = txy, tx = txy - ty;
    const std::uint64_t mb_x = (tx + bx) >> 2, mb_y = (ty + by) >> 2;
    const std::uint64_t block_x = (tx + bx) & 3, block_y = (ty + by) & 3;
    if ((tid >> 4) < 1) {  // the copy of the current 4x4 block
      const std::uint64_t tgroup = tid & 15, n = (tid >> 4);
      const std::uint64_t frame_x = bx << 2, frame_y = by << 2;
      const std::uint64_t cur_o = frame_y * f.width + frame_x;
      ldg[l].push_back(f.cur() + 2 * (cur_o + (tgroup >> 2) * f.width + (tgroup & 3)));
      sts_copy[l].push_back(2 * ((n << 4) + tgroup));
    }
    const std::int64_t frame_x = std::int64_t(((mb_x << 2) + block_x) << 2);
    const std::int64_t frame_y = std::int64_t(((mb_y << 2) + block_y) << 2);
    const std::int64_t ref_x = frame_x - std::int64_t(range), ref_y = frame_y - std::int64_t(range);
    const std::uint64_t cur_o = ty + tx;
    const std::uint64_t base = (tid % ceil_pos) * pos_per_thread;
    const std::uint64_t end = std::min(base + pos_per_thread, max_pos);
    const std::uint64_t sotmp = base / dim;
    std::uint64_t local_x = base - dim * sotmp;
    std::int64_t off_y = ref_y + std::int64_t(sotmp);
    for (std::uint64_t i = 0; i < 16; ++i)  // FRAME_GET(cur_o, x, y), hoisted
      lds_frame[i][l] = {2 * ((cur_o << 4) + i)};
    for (std::uint64_t pos = base; pos < end; pos += 3) {
      const std::int64_t off_x = ref_x + std::int64_t(local_x);
      for (std::int64_t y = 0; y < 4; ++y)
        for (std::int64_t dx = 0; dx < 6; ++dx)
          tex[y][dx][l].push_back(f.texel(off_x + dx, off_y + y));
      for (std::uint64_t k = 0; k < 3; ++k)  // sad_loc after the 32-byte frame_loc
        sts_sad[k][l].push_back(32 + 2 * (cur_o * max_pos_padded + pos + k));
      local_x += 3;
      if (local_x >= dim) {
        local_x -= dim;
        ++off_y;
      }
    }
    if ((tid >> 5) < 1) {  // the copy of sad_loc to blk_sad, 8 bytes a thread
      const std::uint64_t tgroup = tid & 31;
      const std::uint64_t blk =
          f.sads() + 2 * (25 * f.mbs() + (mb_y * f.mb_w() + mb_x) * 16 + 4 * block_y + block_x) *
                         max_pos_padded;
      for (std::uint64_t index = tgroup; index < max_pos_padded / 4; index += 32) {
        lds_out[l].push_back(32 + 8 * index);
        stg[l].push_back(blk + 8 * index);
      }
    }
  }
  sad_warp r;
  r.ldg = merge(ldg);
  r.sts = merge(sts_copy);
  for (auto& v : lds_frame) {
    const auto m = merge(v);
    r.lds.insert(r.lds.end(), m.begin(), m.end());
  }
  // Per trip: 4 rows of 6 fetches, then the three stores.
  std::vector<std::vector<access>> tex_sites, sts_sites;
  for (auto& row : tex)
    for (auto& v : row) tex_sites.push_back(merge(v));
  for (auto& v : sts_sad) sts_sites.push_back(merge(v));
  for (std::size_t t = 0; t < tex_sites[0].size(); ++t) {
    for (auto& s : tex_sites) r.tex.push_back(s[t]);
    for (auto& s : sts_sites) r.sts.push_back(s[t]);
  }
  const auto lo = merge(lds_out);
  r.lds.insert(r.lds.end(), lo.begin(), lo.end());
  r.stg = merge(stg);
  return r;
}

void expect_mb_sad_calc_matches_parboil(const sad_frames& f) {
  const app_trace app = generate_in_memory("sad", f.params());
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{f.cur(), f.ref()}));
  ASSERT_EQ(app.kernels.size(), 3u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.name, "_Z11mb_sad_calcPtS_ii");
  EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(f.width / 4), std::uint32_t(f.height / 4), 1}));
  EXPECT_EQ(k.info.block, (dim3{61, 1, 1}));
  EXPECT_EQ(k.info.shmem, 32u + 2 * 1096);  // frame_loc, then SAD_LOC_SIZE_BYTES
  ASSERT_EQ(k.tbs.size(), f.width / 4 * (f.height / 4));
  for (const tb_trace& tb : k.tbs) {
    ASSERT_EQ(tb.warps.size(), 2u);
    for (std::uint64_t w = 0; w < 2; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::string where = "TB (" + std::to_string(tb.index.x) + ", " +
                                std::to_string(tb.index.y) + ") warp " + std::to_string(w);
      const sad_warp want = expected_mb_sad_calc(f, tb.index.x, tb.index.y, w);
      expect_accesses(app, wt, "LDG", want.ldg, where);
      expect_accesses(app, wt, "STS", want.sts, where);
      expect_accesses(app, wt, "LDS", want.lds, where);
      expect_accesses(app, wt, "TEX", want.tex, where);
      expect_accesses(app, wt, "STG", want.stg, where);
      const std::uint32_t live = live_mask(61, w);
      const auto bars = find(app, wt, "BAR.SYNC");
      ASSERT_EQ(bars.size(), 2u) << where;
      for (const warp_instruction* in : bars) EXPECT_EQ(in->active_mask, live) << where;
      const auto exits = find(app, wt, "EXIT");
      ASSERT_EQ(exits.size(), 1u) << where;
      EXPECT_EQ(exits[0]->active_mask, live) << where;
      for (const warp_instruction* in : find(app, wt, "TEX"))
        EXPECT_EQ(in->space, mem_space::texture) << where;
    }
  }
}

// larger_sad_calc_8 (sixteen = false) and _16: pointer arithmetic of largerBlocks.cu in
// shorts, uint accesses at search_pos = threadIdx.x, += 32, < (MAX_POS + 1) / 2.
void expect_larger_matches_parboil(const sad_frames& f, bool sixteen) {
  const app_trace app = generate_in_memory("sad", f.params());
  const kernel_trace& k = app.kernels.at(sixteen ? 2 : 1);
  EXPECT_EQ(k.info.name, sixteen ? "_Z18larger_sad_calc_16Ptii" : "_Z17larger_sad_calc_8Ptii");
  EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(f.width / 16), std::uint32_t(f.height / 16), 1}));
  EXPECT_EQ(k.info.block, (dim3{32, sixteen ? 1u : 4u, 1}));
  ASSERT_EQ(k.tbs.size(), f.mbs());
  const std::uint64_t h = max_pos_padded / 2;
  for (const tb_trace& tb : k.tbs) {
    ASSERT_EQ(tb.warps.size(), sixteen ? 1u : 4u);
    for (std::uint64_t w = 0; w < tb.warps.size(); ++w) {
      std::vector<std::vector<std::uint64_t>> ld[4], st[5];
      for (auto& v : ld) v.resize(32);
      for (auto& v : st) v.resize(32);
      for (unsigned l = 0; l < 32; ++l) {
        const std::uint64_t thread_y = w;  // blockDim.x = 32: warp w is threadIdx.y
        const std::uint64_t mb_x = tb.index.x, mb_y = tb.index.y;
        std::uint64_t bi, bo[5], in_off[4], out_off[5];
        if (!sixteen) {
          const std::uint64_t tx = thread_y & 1, ty = thread_y >> 1;
          const std::uint64_t macroblocks = f.mbs();
          const std::uint64_t mbi = (mb_y * f.mb_w() + mb_x) * max_pos_padded;
          bi = (macroblocks * 25 + (ty * 8 + tx * 2)) * max_pos_padded + mbi * 16;
          const std::uint64_t bo_6 =
              ((macroblocks << 4) + macroblocks + (ty * 4 + tx * 2)) * max_pos_padded + mbi * 8;
          const std::uint64_t bo_5 =
              ((macroblocks << 3) + macroblocks + (ty * 4 + tx)) * max_pos_padded + mbi * 8;
          const std::uint64_t bo_4 =
              ((macroblocks << 2) + macroblocks + (ty * 2 + tx)) * max_pos_padded + mbi * 4;
          const std::uint64_t b[5] = {bo_6, bo_6, bo_5, bo_5, bo_4};
          const std::uint64_t io[4] = {0, h, 4 * h, 5 * h}, oo[5] = {0, h, 0, 2 * h, 0};
          std::copy(b, b + 5, bo);
          std::copy(io, io + 4, in_off);
          std::copy(oo, oo + 5, out_off);
        } else {
          const std::uint64_t macroblocks = f.mbs() * max_pos_padded;
          const std::uint64_t mbi = (mb_y * f.mb_w() + mb_x) * max_pos_padded;
          bi = ((macroblocks + mbi) << 2) + macroblocks;
          const std::uint64_t bo_3 = ((macroblocks + mbi) << 1) + macroblocks;
          const std::uint64_t bo_2 = macroblocks + mbi * 2, bo_1 = mbi;
          const std::uint64_t b[5] = {bo_3, bo_3, bo_2, bo_2, bo_1};
          const std::uint64_t io[4] = {0, h, 2 * h, 3 * h}, oo[5] = {0, h, 0, h, 0};
          std::copy(b, b + 5, bo);
          std::copy(io, io + 4, in_off);
          std::copy(oo, oo + 5, out_off);
        }
        for (std::uint64_t sp = l; sp < (max_pos + 1) / 2; sp += 32) {
          for (int j = 0; j < 4; ++j) ld[j][l].push_back(f.sads() + 2 * bi + 4 * (sp + in_off[j]));
          for (int j = 0; j < 5; ++j)
            st[j][l].push_back(f.sads() + 2 * bo[j] + 4 * (sp + out_off[j]));
        }
      }
      std::vector<access> want_ld, want_st;
      std::vector<std::vector<access>> lds, sts;
      for (auto& v : ld) lds.push_back(merge(v));
      for (auto& v : st) sts.push_back(merge(v));
      for (std::size_t t = 0; t < lds[0].size(); ++t) {
        for (auto& s : lds) want_ld.push_back(s[t]);
        for (auto& s : sts) want_st.push_back(s[t]);
      }
      const std::string where = std::string(sixteen ? "16" : "8") + " TB (" +
                                std::to_string(tb.index.x) + ", " + std::to_string(tb.index.y) +
                                ") warp " + std::to_string(w);
      expect_accesses(app, tb.warps[w], "LDG", want_ld, where);
      expect_accesses(app, tb.warps[w], "STG", want_st, where);
      EXPECT_TRUE(find(app, tb.warps[w], "BAR").empty()) << where;
      EXPECT_TRUE(find(app, tb.warps[w], "TEX").empty()) << where;
    }
  }
}

TEST(GenSad, MbSadCalcFollowsParboilIndexing) {
  // 32 x 48: 8 x 12 TBs of 4x4 blocks in 2 x 3 macroblocks; the search area of every
  // block reaches past the frame, so the clamp is exercised on all four edges.
  expect_mb_sad_calc_matches_parboil({32, 48});
}

TEST(GenSad, LargerBlockKernelsFollowParboilIndexing) {
  expect_larger_matches_parboil({48, 32}, false);
  expect_larger_matches_parboil({48, 32}, true);
}

TEST(GenSad, HandWorkedPositionsMasksAndClamping) {
  const sad_frames f{32, 32};
  const app_trace app = generate_in_memory("sad", f.params());
  const kernel_trace& k = app.kernels.at(0);
  // TB (0, 0): thread 0 searches from (-16, -16): every texel clamps to (0, 0) ... (5, 0)
  // along x, (0, 0) along y. Thread 1 starts at position 18: column 18, x = 2.
  const warp_trace& w0 = k.tbs[0].warps[0];
  const auto tex = find(app, w0, "TEX");
  ASSERT_EQ(tex.size(), 6u * 24);  // six trips of 4 rows x 6 fetches, all 32 lanes
  for (const warp_instruction* in : tex) EXPECT_EQ(in->active_mask, full);
  EXPECT_EQ(lane_addresses(w0, *tex[0])[0].second, f.ref());
  EXPECT_EQ(lane_addresses(w0, *tex[0])[1].second, f.ref() + 2 * 2);
  EXPECT_EQ(lane_addresses(w0, *tex[5])[1].second, f.ref() + 2 * 7);
  // Thread 1's sixth trip: positions 33..35 wrapped to row 1, column 0: x = -16 (clamped
  // to 0), y = -15 (clamped to 0); thread 2's (base 36 = row 1, column 3) sixth trip is row
  // 1, column 18: x = 2, y = -15 + 3 (row y = 3 of the 4x4) = -12: still clamped to 0.
  EXPECT_EQ(lane_addresses(w0, *tex[5 * 24])[1].second, f.ref());
  EXPECT_EQ(lane_addresses(w0, *tex[5 * 24 + 18])[2].second, f.ref() + 2 * 2);
  // TB (7, 7), the bottom-right block: thread 31's positions 558.. = row 16, column 30:
  // x = 28 - 16 + 30 = 42 (clamped to 31), y = 28 - 16 + 16 = 28.
  const warp_trace& last0 = k.tbs.back().warps[0];
  EXPECT_EQ(lane_addresses(last0, *find(app, last0, "TEX").at(0))[31].second,
            f.ref() + 2 * (28 * 32 + 31));
  // Warp 1 holds threads 32..60 (29 lanes); thread 60 has positions 1080..1088 only: three
  // trips, so its last three trips run without lane 28.
  const warp_trace& w1 = k.tbs[0].warps[1];
  const auto tex1 = find(app, w1, "TEX");
  ASSERT_EQ(tex1.size(), 6u * 24);
  EXPECT_EQ(tex1[0]->active_mask, 0x1fffffffu);
  EXPECT_EQ(tex1[3 * 24 - 1]->active_mask, 0x1fffffffu);
  EXPECT_EQ(tex1[3 * 24]->active_mask, 0x0fffffffu);
  // Only threads 0..15 copy the block; only warp 0 writes the SADs: 9 trips of 8 bytes,
  // the last of lanes 0..17 (274 = 8 * 32 + 18 words).
  EXPECT_EQ(find(app, w0, "LDG").at(0)->active_mask, 0xffffu);
  EXPECT_TRUE(find(app, w1, "LDG").empty());
  EXPECT_TRUE(find(app, w1, "STG").empty());
  const auto stg = find(app, w0, "STG");
  ASSERT_EQ(stg.size(), 9u);
  EXPECT_EQ(stg[8]->active_mask, 0x3ffffu);
  // TB (0, 0) is block 0 of macroblock 0: blk_sad + 25 mbs * 1096 shorts (4 macroblocks).
  EXPECT_EQ(lane_addresses(w0, *stg[0])[0].second, f.sads() + 2 * 25 * 4 * 1096);
  EXPECT_EQ(lane_addresses(w0, *stg[8])[17].second, f.sads() + 2 * 25 * 4 * 1096 + 8 * 273);
  // larger_sad_calc: 18 trips, the last of lane 0 (search_pos 544).
  const warp_trace& l8 = app.kernels.at(1).tbs.at(0).warps.at(3);
  const auto ld8 = find(app, l8, "LDG");
  ASSERT_EQ(ld8.size(), 4u * 18);
  EXPECT_EQ(ld8.back()->active_mask, 1u);
  EXPECT_EQ(ld8[0]->active_mask, full);
}

TEST(GenSad, DefaultsAreParboilDefaultDataset) {
  // 176 x 144 (QCIF): 44 x 36 TBs of 61 threads, 11 x 9 macroblocks.
  sampling_writer out(last_tb);  // (a default-size run is not held whole)
  generate("sad", {}, 70, out);
  const app_trace& app = out.app;
  const sad_frames f{176, 144};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> copies;
  for (const command& c : app.commands)
    if (c.what == command::kind::memcpy_h2d) copies.emplace_back(c.addr, c.bytes);
  EXPECT_EQ(copies, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{
                        {f.cur(), 2 * 176 * 144}, {f.ref(), 2 * 176 * 144}}));
  ASSERT_EQ(app.kernels.size(), 3u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{44, 36, 1}));
  EXPECT_EQ(app.kernels[1].info.grid, (dim3{11, 9, 1}));
  EXPECT_EQ(app.kernels[2].info.grid, (dim3{11, 9, 1}));
  EXPECT_EQ(out.tbs, (std::vector<std::uint64_t>{44 * 36, 99, 99}));
  // The last TB (43, 35) is block (3, 3) of the last macroblock (98): warp 0 stores there.
  const warp_trace& w = app.kernels[0].tbs.back().warps[0];
  EXPECT_EQ(lane_addresses(w, *find(app, w, "STG").at(0))[0].second,
            f.sads() + 2 * (25 * 99 + 98 * 16 + 15) * 1096);
}

TEST(GenSad, BadParametersAreRefused) {
  expect_refused("sad", {"width=100"});  // not a multiple of 16
  expect_refused("sad", {"height=40"});
  expect_refused("sad", {"width=0"});
  expect_refused("sad", {"height=8"});
  expect_refused("sad", {"width=8192"});
  expect_refused("sad", {"depth=2"});
}

// ---- ISPASS'09 NN ----

struct nn_arrays {
  std::uint64_t n1, w1, n2, w2, n3, w3, n4, w4, n5;
};

// NN.cu's cudaMalloc order.
nn_arrays nn_layout(std::uint64_t num) {
  nn_arrays a;
  a.n1 = heap;
  a.w1 = a.n1 + align256(4 * 29 * 29 * num);
  a.n2 = a.w1 + align256(4 * 156);
  a.w2 = a.n2 + align256(4 * 13 * 13 * 6 * num);
  a.n3 = a.w2 + align256(4 * 7800);
  a.w3 = a.n3 + align256(4 * 1250 * num);
  a.n4 = a.w3 + align256(4 * 125100);
  a.w4 = a.n4 + align256(4 * 100 * num);
  a.n5 = a.w4 + align256(4 * 1010);
  return a;
}

constexpr int kernel_template[25] = {0,  1,  2,  3,  4,  29, 30, 31,  32,  33,  58,  59, 60,
                                     61, 62, 87, 88, 89, 90, 91, 116, 117, 118, 119, 120};
constexpr int kernel_template2[25] = {0,  1,  2,  3,  4,  13, 14, 15, 16, 17, 26, 27, 28,
                                      29, 30, 39, 40, 41, 42, 43, 52, 53, 54, 55, 56};

// The global loads of a layer-1 or layer-2 warp, thread by thread as NN_kernel.cu runs it.
std::vector<access> expected_conv_loads(const nn_arrays& a, bool second, std::uint64_t bx,
                                        std::uint64_t by, std::uint64_t w) {
  const std::uint64_t bdx = second ? 5 : 13;
  std::vector<std::vector<std::uint64_t>> seq(32);
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint64_t t = 32 * w + l;
    if (t >= bdx * bdx) continue;
    const std::uint64_t pixel_x = t % bdx, pixel_y = t / bdx;
    const std::uint64_t window_x = pixel_x * 2, window_y = pixel_y * 2;
    auto& s = seq[l];
    if (!second) {
      std::uint64_t weight_begin = bx * 26;
      s.push_back(a.w1 + 4 * weight_begin);
      ++weight_begin;
      for (int i = 0; i < 25; ++i) {
        s.push_back(a.n1 + 4 * ((window_y * 29 + window_x + kernel_template[i]) + 29 * 29 * by));
        s.push_back(a.w1 + 4 * (weight_begin + i));
      }
    } else {
      std::uint64_t weight_begin = bx * 26 * 6;
      s.push_back(a.w2 + 4 * weight_begin);
      ++weight_begin;
      for (int i = 0; i < 25; ++i)
        for (std::uint64_t k = 0; k < 6; ++k) {
          s.push_back(a.n2 + 4 * ((169 * k + window_x + 13 * window_y + kernel_template2[i]) +
                                  13 * 13 * 6 * by));
          s.push_back(a.w2 + 4 * (weight_begin + i * 6 + k));
        }
    }
  }
  // Straight-line code: access j of every thread is warp instruction j.
  std::vector<access> r;
  std::size_t n = 0;
  for (const auto& s : seq) n = std::max(n, s.size());
  for (std::size_t j = 0; j < n; ++j) {
    access x;
    for (unsigned l = 0; l < 32; ++l)
      if (j < seq[l].size()) {
        x.mask |= 1u << l;
        x.addr.emplace_back(l, seq[l][j]);
      }
    r.push_back(x);
  }
  return r;
}

TEST(GenNeuralNet, ConvolutionLayersFollowNnKernelIndexing) {
  const std::uint64_t num = 2;
  const app_trace app = generate_in_memory("neural_net", {"images=2"});
  const nn_arrays a = nn_layout(num);
  ASSERT_EQ(app.kernels.size(), 4u);
  for (int layer = 0; layer < 2; ++layer) {
    const bool second = layer == 1;
    const kernel_trace& k = app.kernels[layer];
    const std::uint64_t maps = second ? 50 : 6, side = second ? 5 : 13;
    EXPECT_EQ(k.info.name, second ? "_Z18executeSecondLayerPfS_S_" : "_Z17executeFirstLayerPfS_S_");
    EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(maps), std::uint32_t(num), 1}));
    EXPECT_EQ(k.info.block, (dim3{std::uint32_t(side), std::uint32_t(side), 1}));
    ASSERT_EQ(k.tbs.size(), maps * num);
    const std::uint64_t warps = (side * side + 31) / 32;
    for (const tb_trace& tb : k.tbs) {
      ASSERT_EQ(tb.warps.size(), warps);
      for (std::uint64_t w = 0; w < warps; ++w) {
        const warp_trace& wt = tb.warps[w];
        const std::uint64_t bx = tb.index.x, by = tb.index.y;
        const std::string where = "layer " + std::to_string(layer + 1) + " TB (" +
                                  std::to_string(bx) + ", " + std::to_string(by) + ") warp " +
                                  std::to_string(w);
        expect_accesses(app, wt, "LDG", expected_conv_loads(a, second, bx, by, w), where);
        access st;
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint64_t t = 32 * w + l;
          if (t >= side * side) continue;
          const std::uint64_t px = t % side, py = t / side;
          st.mask |= 1u << l;
          st.addr.emplace_back(
              l, second ? a.n3 + 4 * ((5 * 5 * bx + py * 5 + px) + 1250 * by)
                        : a.n2 + 4 * ((13 * 13 * bx + py * 13 + px) + 13 * 13 * 6 * by));
        }
        expect_accesses(app, wt, "STG", {st}, where);
        EXPECT_TRUE(find(app, wt, "BAR").empty()) << where;
        const auto exits = find(app, wt, "EXIT");
        ASSERT_EQ(exits.size(), 1u) << where;
        EXPECT_EQ(exits[0]->active_mask, live_mask(side * side, w)) << where;
      }
    }
  }
  // Layer 1: 169 threads, the last warp has 9 lanes; layer 2: one warp of 25 lanes.
  EXPECT_EQ(find(app, app.kernels[0].tbs[0].warps[5], "LDG").at(0)->active_mask, 0x1ffu);
  EXPECT_EQ(find(app, app.kernels[1].tbs[0].warps[0], "LDG").at(0)->active_mask, 0x1ffffffu);
  // `if (blockID == 1 && pixelX == 0 && pixelY == 0) result += 0`: one FADD of thread 0 in
  // the TBs of map 1 only.
  auto single_lane_fadds = [&](const tb_trace& tb) {
    std::size_t n = 0;
    for (const warp_instruction* in : find(app, tb.warps[0], "FADD")) n += in->active_mask == 1u;
    return n;
  };
  for (const tb_trace& tb : app.kernels[1].tbs)
    EXPECT_EQ(single_lane_fadds(tb), tb.index.x == 1 ? 1u : 0u) << tb.index.x;
}

TEST(GenNeuralNet, FullyConnectedLayersOneThreadPerNeuron) {
  const std::uint64_t num = 3;
  const app_trace app = generate_in_memory("neural_net", {"images=3"});
  const nn_arrays a = nn_layout(num);
  ASSERT_EQ(app.kernels.size(), 4u);
  struct layer {
    std::uint64_t neurons, inputs, in, weights, out;
    const char* name;
  };
  const layer layers[2] = {{100, 1250, a.n3, a.w3, a.n4, "_Z17executeThirdLayerPfS_S_"},
                           {10, 100, a.n4, a.w4, a.n5, "_Z18executeFourthLayerPfS_S_"}};
  for (int j = 0; j < 2; ++j) {
    const layer& c = layers[j];
    const kernel_trace& k = app.kernels[2 + j];
    EXPECT_EQ(k.info.name, c.name);
    EXPECT_EQ(k.info.grid, (dim3{std::uint32_t(c.neurons), std::uint32_t(num), 1}));
    EXPECT_EQ(k.info.block, (dim3{1, 1, 1}));
    ASSERT_EQ(k.tbs.size(), c.neurons * num);
    for (const tb_trace& tb : k.tbs) {
      ASSERT_EQ(tb.warps.size(), 1u);
      const warp_trace& wt = tb.warps[0];
      const std::uint64_t bx = tb.index.x, by = tb.index.y;
      std::vector<access> want;
      std::uint64_t weight_begin = bx * (c.inputs + 1);
      want.push_back({1u, {{0, c.weights + 4 * weight_begin}}});
      ++weight_begin;
      for (std::uint64_t i = 0; i < c.inputs; ++i) {
        want.push_back({1u, {{0, c.in + 4 * (i + c.inputs * by)}}});
        want.push_back({1u, {{0, c.weights + 4 * (weight_begin + i)}}});
      }
      const std::string where =
          std::string(c.name) + " TB (" + std::to_string(bx) + ", " + std::to_string(by) + ")";
      expect_accesses(app, wt, "LDG", want, where);
      expect_accesses(app, wt, "STG", {{1u, {{0, c.out + 4 * (bx + c.neurons * by)}}}}, where);
      for (const warp_instruction& in : wt.insts) EXPECT_EQ(in.active_mask, 1u) << where;
      EXPECT_TRUE(find(app, wt, "BAR").empty()) << where;
    }
  }
}

TEST(GenNeuralNet, DefaultsAreTheIspassRun) {
  // `NN 28`: arrays in cudaMalloc order, copies in cudaMemcpy order.
  sampling_writer out(last_tb);  // (a default-size run is not held whole)
  generate("neural_net", {}, 70, out);
  const app_trace& app = out.app;
  const nn_arrays a = nn_layout(28);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> copies;
  for (const command& c : app.commands)
    if (c.what == command::kind::memcpy_h2d) copies.emplace_back(c.addr, c.bytes);
  EXPECT_EQ(copies, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{a.n1, 4 * 841 * 28},
                                                                          {a.w1, 4 * 156},
                                                                          {a.w2, 4 * 7800},
                                                                          {a.w3, 4 * 125100},
                                                                          {a.w4, 4 * 1010},
                                                                          {a.n5, 4 * 10 * 28}}));
  ASSERT_EQ(app.kernels.size(), 4u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{6, 28, 1}));
  EXPECT_EQ(app.kernels[1].info.grid, (dim3{50, 28, 1}));
  EXPECT_EQ(app.kernels[2].info.grid, (dim3{100, 28, 1}));
  EXPECT_EQ(app.kernels[3].info.grid, (dim3{10, 28, 1}));
  EXPECT_EQ(out.tbs, (std::vector<std::uint64_t>{6 * 28, 50 * 28, 100 * 28, 10 * 28}));
  // The last image's last hidden neuron reads Layer3_Neurons[1249 + 1250 * 27] last.
  const warp_trace& w = app.kernels[2].tbs.back().warps[0];
  const auto ldg = find(app, w, "LDG");
  ASSERT_EQ(ldg.size(), 1u + 2 * 1250);
  EXPECT_EQ(lane_addresses(w, *ldg[2 * 1250 - 1])[0].second, a.n3 + 4 * (1249 + 1250 * 27));
  EXPECT_EQ(lane_addresses(w, *ldg[2 * 1250])[0].second, a.w3 + 4 * (99 * 1251 + 1 + 1249));
  // ... and stores Layer4_Neurons[99 + 100 * 27].
  const auto stg = find(app, w, "STG");
  ASSERT_EQ(stg.size(), 1u);
  EXPECT_EQ(lane_addresses(w, *stg[0])[0].second, a.n4 + 4 * (99 + 100 * 27));
}

TEST(GenNeuralNet, BadParametersAreRefused) {
  expect_refused("neural_net", {"images=0"});
  expect_refused("neural_net", {"images=10001"});
  expect_refused("neural_net", {"images=two"});
  expect_refused("neural_net", {"layers=3"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::uc_apps_test
