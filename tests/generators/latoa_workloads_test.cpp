// The LATOA workloads (seed 003, Table 1) the generators add: Rodinia kmeans and nearest
// neighbour, the CUDA SDK fast Walsh transform and scanLargeArray, the MUMmerGPU-like tree
// walk and the RAY-like BVH walk. Grids, masks, lane
// addresses and barrier counts are computed here from the benchmarks' own indexing and the
// documented address map, not from the generators' code.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "gen_test_util.h"

namespace gputlm::traces::generators::test::latoa_workloads_test {
namespace {

std::uint32_t low_lanes(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }

TEST(GenKmeans, FeatureMajorLoadsBroadcastCentresAndPaddedSquareGrid) {
  // 1300 points of 3 features, 2 clusters, 2 iterations, 256 threads per TB: ceil(1300 / 256)
  // = 6 TBs, padded to a 3 x 3 square (9 TBs); point 1299 is lane 19 of warp 0 of TB 5.
  const std::uint64_t n = 1300, nf = 3, nc = 2;
  const app_trace app =
      generate_in_memory("kmeans", {"points=1300", "features=3", "clusters=2", "iterations=2"});
  const std::uint64_t flipped = heap, features = flipped + align256(4 * n * nf);
  const std::uint64_t membership = features + align256(4 * n * nf);
  const std::uint64_t clusters = membership + align256(4 * n);
  EXPECT_EQ(input_addresses(app),
            (std::vector<std::uint64_t>{flipped, membership, clusters, membership, clusters}));
  ASSERT_EQ(app.kernels.size(), 3u);
  EXPECT_EQ(app.kernels[0].info.name, "_Z14invert_mappingPfS_ii");
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{9, 1, 1}));
  for (int k : {1, 2}) {
    EXPECT_EQ(app.kernels[k].info.name, "_Z11kmeansPointPfiiiPiS_S_S0_");
    EXPECT_EQ(app.kernels[k].info.grid, (dim3{3, 3, 1}));
    EXPECT_EQ(app.kernels[k].info.block, (dim3{256, 1, 1}));
  }

  // invert_mapping: lane l of warp w of TB b is point 256 b + 32 w + l; it reads its features
  // point-major and writes them feature-major.
  for (const tb_trace& tb : app.kernels[0].tbs)
    for (std::uint32_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::uint64_t first = 256ull * tb.index.x + 32 * w;
      const std::uint32_t mask = first >= n ? 0u : low_lanes(unsigned(n - first));
      const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
      ASSERT_EQ(ldg.size(), mask ? nf : 0u);
      ASSERT_EQ(stg.size(), mask ? nf : 0u);
      for (std::uint64_t i = 0; i < ldg.size(); ++i) {
        EXPECT_EQ(ldg[i]->active_mask, mask);
        for (auto [l, a] : lane_addresses(wt, *ldg[i]))
          EXPECT_EQ(a, flipped + 4 * ((first + l) * nf + i));
        for (auto [l, a] : lane_addresses(wt, *stg[i]))
          EXPECT_EQ(a, features + 4 * (first + l + n * i));
      }
    }

  // kmeansPoint: block_id = 3 * blockIdx.y + blockIdx.x, point = 256 block_id + 32 w + l.
  const kernel_trace& k = app.kernels[2];
  ASSERT_EQ(k.tbs.size(), 9u);
  for (const tb_trace& tb : k.tbs) {
    const std::uint64_t block_id = 3ull * tb.index.y + tb.index.x;
    for (std::uint32_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::uint64_t first = 256 * block_id + 32 * w;
      const std::uint32_t mask = first >= n ? 0u : low_lanes(unsigned(n - first));
      const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
      if (mask == 0) {
        EXPECT_TRUE(ldg.empty());
        EXPECT_TRUE(stg.empty());
        EXPECT_EQ(find(app, wt, "EXIT").at(0)->active_mask, 0xffffffffu);
        continue;
      }
      // Per cluster c, per feature f: the point's feature, then centre c's feature f.
      ASSERT_EQ(ldg.size(), 2 * nc * nf);
      for (std::uint64_t c = 0; c < nc; ++c)
        for (std::uint64_t f = 0; f < nf; ++f) {
          const warp_instruction& feat = *ldg[2 * (c * nf + f)];
          const warp_instruction& centre = *ldg[2 * (c * nf + f) + 1];
          EXPECT_EQ(feat.active_mask, mask);
          EXPECT_EQ(centre.active_mask, mask);
          for (auto [l, a] : lane_addresses(wt, feat))
            EXPECT_EQ(a, features + 4 * (f * n + first + l));
          for (auto [l, a] : lane_addresses(wt, centre)) EXPECT_EQ(a, clusters + 4 * (c * nf + f));
        }
      ASSERT_EQ(stg.size(), 1u);
      EXPECT_EQ(stg[0]->active_mask, mask);
      for (auto [l, a] : lane_addresses(wt, *stg[0])) EXPECT_EQ(a, membership + 4 * (first + l));
    }
  }
  // The tail by hand: TB (2, 1) is block 5, points 1280..1299 in warp 0, lanes 0..19.
  const warp_trace& tail = k.tbs[5].warps[0];
  EXPECT_EQ(find(app, tail, "STG").at(0)->active_mask, 0x000fffffu);
  const auto tail_ldg = find(app, tail, "LDG");
  // Cluster 1, feature 2: lane 19 (point 1299) reads features[2 * 1300 + 1299].
  EXPECT_EQ(lane_addresses(tail, *tail_ldg[10]).back(),
            (std::pair<unsigned, std::uint64_t>{19, features + 4 * 3899}));
  EXPECT_EQ(lane_addresses(tail, *tail_ldg[11]).back().second, clusters + 4 * 5);
}

TEST(GenKmeans, BadParametersAreRefused) {
  expect_refused("kmeans", {"points=0"});
  expect_refused("kmeans", {"features=0"});
  expect_refused("kmeans", {"clusters=0"});
  expect_refused("kmeans", {"points=4", "clusters=5"});
  expect_refused("kmeans", {"block=16"});
  expect_refused("kmeans", {"iterations=0"});
}

TEST(GenNn, LatLongRecordsAndDistances) {
  // 1000 records, 4 TBs of 256: the last warp holds records 992..999 (lanes 0..7).
  const app_trace app = generate_in_memory("nn", {"records=1000"});
  const std::uint64_t loc = heap, dist = heap + align256(8 * 1000);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{loc}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.grid, (dim3{4, 1, 1}));
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::uint64_t first = 256ull * tb.index.x + 32 * w;
      const std::uint32_t mask = low_lanes(unsigned(std::min<std::uint64_t>(32, 1000 - first)));
      const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
      ASSERT_EQ(ldg.size(), 2u);
      ASSERT_EQ(stg.size(), 1u);
      for (const warp_instruction* in : {ldg[0], ldg[1], stg[0]}) EXPECT_EQ(in->active_mask, mask);
      for (auto [l, a] : lane_addresses(wt, *ldg[0])) EXPECT_EQ(a, loc + 8 * (first + l));
      for (auto [l, a] : lane_addresses(wt, *ldg[1])) EXPECT_EQ(a, loc + 8 * (first + l) + 4);
      for (auto [l, a] : lane_addresses(wt, *stg[0])) EXPECT_EQ(a, dist + 4 * (first + l));
    }
  EXPECT_EQ(find(app, k.tbs[3].warps[7], "STG").at(0)->active_mask, 0xffu);
}

TEST(GenNn, GridFoldsIntoTwoRowsPast65535Blocks) {
  // 65536 * 32 - 5 records in TBs of 32: 65536 blocks, gridY = ceil(65536 / 65535) = 2,
  // gridX = 32768. TB (32767, 1) is block 65535: records 2097120..2097146, lanes 0..26.
  const app_trace app = generate_in_memory("nn", {"records=2097147", "block=32"});
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{32768, 2, 1}));
  const tb_trace& last = k.tbs.back();
  EXPECT_EQ(last.index, (dim3{32767, 1, 0}));
  const auto ldg = find(app, last.warps[0], "LDG");
  ASSERT_EQ(ldg.size(), 2u);
  EXPECT_EQ(ldg[0]->active_mask, 0x07ffffffu);
  EXPECT_EQ(lane_addresses(last.warps[0], *ldg[0]).front().second, heap + 8 * 2097120ull);
  // TB (0, 1) is block 32768.
  const tb_trace& row1 = k.tbs[32768];
  EXPECT_EQ(row1.index, (dim3{0, 1, 0}));
  EXPECT_EQ(lane_addresses(row1.warps[0], *find(app, row1.warps[0], "LDG")[0])[3].second,
            heap + 8 * (32768ull * 32 + 3));
}

TEST(GenNn, BadParametersAreRefused) {
  expect_refused("nn", {"records=0"});
  expect_refused("nn", {"block=2048"});
  expect_refused("nn", {"lat=1"});
}

// The four indices of fwtBatch2Kernel's radix-4 butterfly of thread pos at `stride`: pos
// lies in group pos / stride of `stride` butterflies, each group spanning 4 * stride.
std::uint64_t butterfly(std::uint64_t pos, std::uint64_t stride, std::uint64_t j) {
  return pos / stride * 4 * stride + pos % stride + j * stride;
}

TEST(GenFwt, GlobalStagesQuarterTheStrideAndTouchEveryElementOnce) {
  // 2^14 elements: stages while log2N > 11, at log2N = 14 and 12: strides 2^12 and 2^10,
  // each on 16 TBs of 256 threads (2^14 / 1024), no barriers, no shared memory.
  const app_trace app = generate_in_memory("fwt", {"log2n=14"});
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{heap}));
  ASSERT_EQ(app.kernels.size(), 2u);
  const std::uint64_t strides[] = {4096, 1024};
  for (std::size_t s = 0; s < 2; ++s) {
    const kernel_trace& k = app.kernels[s];
    EXPECT_EQ(k.info.name, "_Z15fwtBatch2KernelPfS_i");
    EXPECT_EQ(k.info.grid, (dim3{16, 1, 1}));
    EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
    EXPECT_EQ(k.info.shmem, 0u);
    std::map<std::uint64_t, unsigned> loads, stores;
    for (const tb_trace& tb : k.tbs)
      for (std::uint32_t w = 0; w < 8; ++w) {
        const warp_trace& wt = tb.warps[w];
        EXPECT_TRUE(find(app, wt, "BAR").empty());
        EXPECT_TRUE(find(app, wt, "LDS").empty());
        const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
        ASSERT_EQ(ldg.size(), 4u);
        ASSERT_EQ(stg.size(), 4u);
        for (std::uint64_t j = 0; j < 4; ++j) {
          EXPECT_EQ(ldg[j]->active_mask, 0xffffffffu);
          for (auto [l, a] : lane_addresses(wt, *ldg[j])) {
            EXPECT_EQ(a, heap + 4 * butterfly(256ull * tb.index.x + 32 * w + l, strides[s], j));
            ++loads[a];
          }
          for (auto [l, a] : lane_addresses(wt, *stg[j])) {
            EXPECT_EQ(a, heap + 4 * butterfly(256ull * tb.index.x + 32 * w + l, strides[s], j));
            ++stores[a];
          }
        }
      }
    EXPECT_EQ(loads.size(), 16384u);
    EXPECT_EQ(stores.size(), 16384u);
    for (auto [a, times] : loads) EXPECT_EQ(times, 1u);
  }
  // By hand: stage 2 (stride 1024), TB 5 warp 3 lane 7 is pos 1383 = 1024 + 359: group 1,
  // i0 = 4096 + 359 = 4455, i3 = 4455 + 3072 = 7527.
  const warp_trace& wt = app.kernels[1].tbs[5].warps[3];
  EXPECT_EQ(lane_addresses(wt, *find(app, wt, "LDG")[0])[7].second, heap + 4 * 4455);
  EXPECT_EQ(lane_addresses(wt, *find(app, wt, "STG")[3])[7].second, heap + 4 * 7527);
}

TEST(GenFwt, SharedBatchKernelWithBarriersWhenAsked) {
  // 2^13 elements, batch1=1: one global stage (stride 2^11), then fwtBatch1Kernel on
  // 4 batches of 2^11: 512 threads, 8 KiB shared; radix-4 shared stages at strides 512, 128,
  // 32, 8, 2 (a BAR.SYNC before each), the radix-2 stage of odd log2N (a BAR.SYNC), a final
  // BAR.SYNC: 7 per warp.
  const app_trace app = generate_in_memory("fwt", {"log2n=13", "batch1=1"});
  ASSERT_EQ(app.kernels.size(), 2u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{8, 1, 1}));
  const kernel_trace& k = app.kernels[1];
  EXPECT_EQ(k.info.name, "_Z15fwtBatch1KernelPfS_i");
  EXPECT_EQ(k.info.grid, (dim3{4, 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{512, 1, 1}));
  EXPECT_EQ(k.info.shmem, 8192u);
  const std::uint64_t strides[] = {512, 128, 32, 8, 2};
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < 16; ++w) {
      const warp_trace& wt = tb.warps[w];
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 7u);
      // The batch in and out: pos = tid + 512 k, 4 trips each.
      const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
      ASSERT_EQ(ldg.size(), 4u);
      ASSERT_EQ(stg.size(), 4u);
      for (std::uint64_t t = 0; t < 4; ++t)
        for (auto [l, a] : lane_addresses(wt, *ldg[t]))
          EXPECT_EQ(a, heap + 4 * (2048ull * tb.index.x + 32 * w + l + 512 * t));
      // Shared loads: the five radix-4 stages (4 each), the radix-2 stage (2 trips of 2),
      // the output loop (4).
      const auto lds = find(app, wt, "LDS");
      ASSERT_EQ(lds.size(), 5 * 4 + 4 + 4u);
      for (std::size_t s = 0; s < 5; ++s)
        for (std::uint64_t j = 0; j < 4; ++j)
          for (auto [l, a] : lane_addresses(wt, *lds[4 * s + j]))
            EXPECT_EQ(a, 4 * butterfly(32ull * w + l, strides[s], j));
      // Radix-2: pairs (2 pos, 2 pos + 1) for pos = tid and tid + 512.
      for (std::uint64_t t = 0; t < 2; ++t)
        for (auto [l, a] : lane_addresses(wt, *lds[20 + 2 * t + 1]))
          EXPECT_EQ(a, 4 * (2 * (32ull * w + l + 512 * t) + 1));
    }
  // Even log2N: 2^12, batch1=1: a global stage at stride 2^10, then 4 batches of 2^10 (256
  // threads): stages at 256, 64, 16, 4, 1 and no radix-2 stage: 6 BAR.SYNC.
  const app_trace even = generate_in_memory("fwt", {"log2n=12", "batch1=1"});
  ASSERT_EQ(even.kernels.size(), 2u);
  EXPECT_EQ(even.kernels[1].info.block, (dim3{256, 1, 1}));
  EXPECT_EQ(find(even, even.kernels[1].tbs[0].warps[0], "BAR.SYNC").size(), 6u);
  // Small: 2^11 with batch1=1 is the shared kernel alone.
  EXPECT_EQ(generate_in_memory("fwt", {"log2n=11", "batch1=1"}).kernels.size(), 1u);
}

TEST(GenFwt, BadParametersAreRefused) {
  expect_refused("fwt", {"log2n=11"});  // no global stage, and batch1=0
  expect_refused("fwt", {"log2n=1", "batch1=1"});
  expect_refused("fwt", {"log2n=27"});
  expect_refused("fwt", {"batch1=2"});
}

// Byte offset of element i in the scan's padded shared array (16 banks).
std::uint64_t padded(std::uint64_t i) { return 4 * (i + i / 16); }

TEST(GenScan, BlellochTreeBarriersAndBlockSums) {
  // 1000 elements, 64 threads (128 elements) per TB: 8 blocks, the last holding
  // 1000 - 7 * 128 = 104 elements, so prescan<true,false> on 7 TBs, prescan<true,true> on one
  // TB of floorPow2(104) = 64 threads for it, a scan of the 8 block sums in one TB of 4
  // threads, then uniformAdd on the 7 TBs and on the last block.
  const app_trace app = generate_in_memory("scan", {"elements=1000", "block=64"});
  const std::uint64_t in = heap, out = heap + 4096, sums = out + 4096;
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{in}));
  ASSERT_EQ(app.kernels.size(), 5u);
  const char* names[] = {"_Z7prescanILb1ELb0EEvPfPKfS0_iii", "_Z7prescanILb1ELb1EEvPfPKfS0_iii",
                         "_Z7prescanILb0ELb0EEvPfPKfS0_iii", "_Z10uniformAddPfS_iii",
                         "_Z10uniformAddPfS_iii"};
  const std::uint32_t grids[] = {7, 1, 1, 7, 1}, blocks[] = {64, 64, 4, 64, 64};
  const std::uint32_t shmem[] = {4 * (128 + 8), 4 * (128 + 8), 4 * 8, 4, 4};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(app.kernels[i].info.name, names[i]) << i;
    EXPECT_EQ(app.kernels[i].info.grid, (dim3{grids[i], 1, 1})) << i;
    EXPECT_EQ(app.kernels[i].info.block, (dim3{blocks[i], 1, 1})) << i;
    EXPECT_EQ(app.kernels[i].info.shmem, shmem[i]) << i;
  }

  // prescan, TB 3: 2 log2(64) + 3 = 15 BAR.SYNC per warp; thread t loads elements
  // 384 + t and 448 + t into padded slots t and t + 64, thread 0 stores the total to sums[3].
  const tb_trace& tb = app.kernels[0].tbs[3];
  for (std::uint32_t w = 0; w < 2; ++w) {
    const warp_trace& wt = tb.warps[w];
    EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 15u);
    const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
    ASSERT_EQ(ldg.size(), 2u);
    for (auto [l, a] : lane_addresses(wt, *ldg[0])) EXPECT_EQ(a, in + 4 * (384 + 32 * w + l));
    for (auto [l, a] : lane_addresses(wt, *ldg[1])) EXPECT_EQ(a, in + 4 * (448 + 32 * w + l));
    const auto sts = find(app, wt, "STS");
    for (auto [l, a] : lane_addresses(wt, *sts[0])) EXPECT_EQ(a, padded(32 * w + l));
    for (auto [l, a] : lane_addresses(wt, *sts[1])) EXPECT_EQ(a, padded(64 + 32 * w + l));
    ASSERT_EQ(stg.size(), w == 0 ? 3u : 2u);
    if (w == 0) {
      EXPECT_EQ(stg[0]->active_mask, 1u);
      EXPECT_EQ(lane_addresses(wt, *stg[0])[0].second, sums + 4 * 3);
    }
    for (auto [l, a] : lane_addresses(wt, *stg[stg.size() - 1]))
      EXPECT_EQ(a, out + 4 * (448 + 32 * w + l));
  }
  // Shared addresses of warp 0 by hand. Up-sweep level 0 (stride 1, all 32 lanes): lane 5
  // reads s[10], s[11]. Level 3 (stride 8, d = 8, lanes 0..7): lane 5 reads ai = 87 and
  // bi = 95, padded to 92 and 100. Warp 1 (threads 32..63) works only at level 0 of each
  // sweep's widest step (d = 64).
  const warp_trace& w0 = tb.warps[0];
  const auto lds = find(app, w0, "LDS");
  // Up: 7 levels x 2 LDS; the total (thread 0); down: 7 levels x 2; the two final loads.
  ASSERT_EQ(lds.size(), 14 + 1 + 14 + 2u);
  EXPECT_EQ(lds[0]->active_mask, 0xffffffffu);
  EXPECT_EQ(lane_addresses(w0, *lds[0])[5].second, padded(10));
  EXPECT_EQ(lane_addresses(w0, *lds[1])[5].second, padded(11));
  EXPECT_EQ(lds[6]->active_mask, 0xffu);
  EXPECT_EQ(lane_addresses(w0, *lds[6])[5].second, 4u * 92);
  EXPECT_EQ(lane_addresses(w0, *lds[7])[5].second, 4u * 100);
  // d = 1: thread 0 adds s[63] into s[127]; the total is at padded(127) = 4 * 134.
  EXPECT_EQ(lds[12]->active_mask, 1u);
  EXPECT_EQ(lane_addresses(w0, *lds[13])[0].second, padded(127));
  EXPECT_EQ(lane_addresses(w0, *lds[14])[0].second, 4u * 134);
  // Down-sweep masks widen 1, 2, 4, ... lanes; the stride halves from 64 to 1.
  for (unsigned lvl = 0; lvl < 7; ++lvl) {
    const std::uint64_t d = 1ull << lvl, stride = 64 >> lvl;
    const warp_instruction& a = *lds[15 + 2 * lvl];
    EXPECT_EQ(a.active_mask, low_lanes(unsigned(std::min<std::uint64_t>(d, 32)))) << lvl;
    for (auto [l, addr] : lane_addresses(w0, a))
      EXPECT_EQ(addr, padded(2 * stride * l + stride - 1));
  }
  EXPECT_EQ(find(app, tb.warps[1], "LDS").size(), 2 + 2 + 2u);

  // The partial last block: base 896, n = 104, so bi = t + 64 < 104 for t < 40: warp 1
  // loads and stores its second element only in lanes 0..7; thread 0 stores sums[7].
  const tb_trace& np2 = app.kernels[1].tbs[0];
  const auto ldg_b = find(app, np2.warps[1], "LDG");
  ASSERT_EQ(ldg_b.size(), 2u);
  EXPECT_EQ(ldg_b[1]->active_mask, 0xffu);
  EXPECT_EQ(lane_addresses(np2.warps[1], *ldg_b[1])[7].second, in + 4 * (896 + 64 + 39));
  EXPECT_EQ(find(app, np2.warps[1], "STG").back()->active_mask, 0xffu);
  EXPECT_EQ(lane_addresses(np2.warps[0], *find(app, np2.warps[0], "STG")[0])[0].second,
            sums + 4 * 7);
  // The block sums' own scan: one warp of 4 threads, in place, 2 log2(4) + 3 = 7 BAR.SYNC.
  const warp_trace& bs = app.kernels[2].tbs[0].warps[0];
  EXPECT_EQ(find(app, bs, "BAR.SYNC").size(), 7u);
  const auto bs_ldg = find(app, bs, "LDG");
  EXPECT_EQ(bs_ldg[0]->active_mask, 0xfu);
  EXPECT_EQ(lane_addresses(bs, *bs_ldg[1])[2].second, sums + 4 * 6);

  // uniformAdd, TB 2: thread 0 reads sums[2] into shared word 0, one BAR.SYNC, then every
  // thread updates elements 256 + t and 320 + t.
  const warp_trace& u0 = app.kernels[3].tbs[2].warps[0];
  const auto u_ldg = find(app, u0, "LDG"), u_stg = find(app, u0, "STG");
  ASSERT_EQ(u_ldg.size(), 3u);
  EXPECT_EQ(u_ldg[0]->active_mask, 1u);
  EXPECT_EQ(lane_addresses(u0, *u_ldg[0])[0].second, sums + 8);
  EXPECT_EQ(find(app, u0, "BAR.SYNC").size(), 1u);
  for (auto [l, a] : lane_addresses(u0, *u_ldg[1])) EXPECT_EQ(a, out + 4 * (256 + l));
  for (auto [l, a] : lane_addresses(u0, *u_stg[1])) EXPECT_EQ(a, out + 4 * (320 + l));
  EXPECT_EQ(find(app, app.kernels[3].tbs[2].warps[1], "LDG").size(), 2u);
  // The last block's uniformAdd reads sums[7]; its second update is unconditional, so
  // threads 40..63 touch elements 1000..1023, past the array (as the SDK kernel does).
  const tb_trace& ul = app.kernels[4].tbs[0];
  EXPECT_EQ(lane_addresses(ul.warps[0], *find(app, ul.warps[0], "LDG")[0])[0].second, sums + 4 * 7);
  const auto last_ldg = find(app, ul.warps[1], "LDG");
  ASSERT_EQ(last_ldg.size(), 2u);
  EXPECT_EQ(last_ldg[1]->active_mask, 0xffffffffu);
  EXPECT_EQ(lane_addresses(ul.warps[1], *last_ldg[1])[31].second, out + 4 * 1023);
}

TEST(GenScan, BlockSumsRecurseLevelByLevel) {
  // 100 elements, 2 threads per TB (4 elements): level 0 has 25 full blocks; level 1 scans
  // 25 sums (6 full blocks + a 1-element block), level 2 scans 7 (1 full + 3 elements on
  // floorPow2(3) = 2 threads), level 3 scans 2 in one thread. uniformAdds run from the
  // deepest level back up.
  const app_trace app = generate_in_memory("scan", {"elements=100", "block=2"});
  const std::uint64_t out = heap + 512, s0 = out + 512, s1 = s0 + 256, s2 = s1 + 256;
  struct launch {
    std::string name;
    std::uint32_t grid, block;
  };
  const std::string p10 = "_Z7prescanILb1ELb0EEvPfPKfS0_iii",
                    p11 = "_Z7prescanILb1ELb1EEvPfPKfS0_iii";
  const std::string p00 = "_Z7prescanILb0ELb0EEvPfPKfS0_iii", ua = "_Z10uniformAddPfS_iii";
  const std::vector<launch> expect = {{p10, 25, 2}, {p10, 6, 2}, {p11, 1, 1}, {p10, 1, 2},
                                      {p11, 1, 2},  {p00, 1, 1}, {ua, 1, 2},  {ua, 1, 2},
                                      {ua, 6, 2},   {ua, 1, 1},  {ua, 25, 2}};
  ASSERT_EQ(app.kernels.size(), expect.size());
  for (std::size_t i = 0; i < expect.size(); ++i) {
    EXPECT_EQ(app.kernels[i].info.name, expect[i].name) << i;
    EXPECT_EQ(app.kernels[i].info.grid, (dim3{expect[i].grid, 1, 1})) << i;
    EXPECT_EQ(app.kernels[i].info.block, (dim3{expect[i].block, 1, 1})) << i;
  }
  // Each uniformAdd reads its level's sums at blockIdx.x + blockOffset.
  auto uniform_of = [&](std::size_t k, std::size_t tb) {
    const warp_trace& wt = app.kernels[k].tbs[tb].warps[0];
    return lane_addresses(wt, *find(app, wt, "LDG")[0])[0].second;
  };
  EXPECT_EQ(uniform_of(6, 0), s2 + 0);
  EXPECT_EQ(uniform_of(7, 0), s2 + 4);      // level 2's last block is block 1
  EXPECT_EQ(uniform_of(8, 5), s1 + 4 * 5);  // level 1
  EXPECT_EQ(uniform_of(9, 0), s1 + 4 * 6);
  EXPECT_EQ(uniform_of(10, 24), s0 + 4 * 24);
  // Level 1's partial block scans sum 24 alone: base 24, one thread, the second element
  // (bi = 1) past n = 1, so one LDG.
  const warp_trace& one = app.kernels[2].tbs[0].warps[0];
  const auto ldg = find(app, one, "LDG");
  ASSERT_EQ(ldg.size(), 1u);
  EXPECT_EQ(lane_addresses(one, *ldg[0])[0].second, s0 + 4 * 24);
  // 1 thread: 2 log2(1) + 3 = 3 BAR.SYNC.
  EXPECT_EQ(find(app, one, "BAR.SYNC").size(), 3u);
}

TEST(GenScan, BadParametersAreRefused) {
  expect_refused("scan", {"elements=1"});
  expect_refused("scan", {"block=48"});
  expect_refused("scan", {"block=1"});
  expect_refused("scan", {"block=2048"});
}

// The tree walk's child loads, read back as (node, base) = ((addr - nodes) / 16, addr / 4 % 4):
// every walk starts at the root, and a (node, base) step always leads to the same child,
// each child having one parent and one depth, as in a tree.
struct walk_check {
  std::map<std::pair<std::uint64_t, unsigned>, std::uint64_t> child;  // (node, base) -> node
  std::map<std::uint64_t, std::uint64_t> depth;
  std::map<std::uint64_t, std::pair<std::uint64_t, unsigned>> parent;
};

TEST(GenMumWalk, DependentChildLoadsFollowATree) {
  // 300 reads of 12 bases on a 2000-base reference, no read errors: every read is a
  // substring of the reference, so every walk takes all 12 steps.
  const app_trace app = generate_in_memory(
      "mum_walk", {"queries=300", "query_len=12", "ref_len=2000", "error_rate=0", "block=128"});
  ASSERT_GE(app.commands.size(), 2u);
  const std::uint64_t nodes = heap, tree_bytes = app.commands[0].bytes;
  const std::uint64_t reads = nodes + align256(tree_bytes);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{nodes, reads}));
  EXPECT_EQ(app.commands[1].bytes, 300u * 12);
  const std::uint64_t out = reads + align256(300 * 12);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{3, 1, 1}));
  walk_check tree;
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < 4; ++w) {
      const warp_trace& wt = tb.warps[w];
      const std::uint64_t first = 128ull * tb.index.x + 32 * w;
      const std::uint32_t mask = first >= 300 ? 0u : low_lanes(unsigned(300 - first));
      const auto bases = find(app, wt, "LDG.E.U8"), children = find(app, wt, "LDG.E.SYS");
      ASSERT_EQ(bases.size(), mask ? 12u : 0u);
      ASSERT_EQ(children.size(), mask ? 12u : 0u);
      std::array<std::uint64_t, 32> node{};
      for (std::uint64_t i = 0; i < bases.size(); ++i) {
        EXPECT_EQ(bases[i]->active_mask, mask);
        EXPECT_EQ(children[i]->active_mask, mask);
        for (auto [l, a] : lane_addresses(wt, *bases[i]))
          EXPECT_EQ(a, reads + (first + l) * 12 + i);
        for (auto [l, a] : lane_addresses(wt, *children[i])) {
          ASSERT_GE(a, nodes);
          ASSERT_LT(a, nodes + tree_bytes);
          const std::uint64_t n = (a - nodes) / 16;
          const unsigned b = unsigned((a - nodes) / 4 % 4);
          EXPECT_EQ(n, node[l]) << "step " << i << " lane " << l;  // where the last step led
          const auto [it, fresh] = tree.depth.emplace(n, i);
          if (!fresh) {
            EXPECT_EQ(it->second, i) << "node " << n << " at two depths";
          }
          // The next child load tells where (n, b) led.
          if (i + 1 < bases.size()) {
            const auto next = lane_addresses(wt, *children[i + 1]);
            for (auto [l2, a2] : next)
              if (l2 == l) {
                const std::uint64_t c = (a2 - nodes) / 16;
                EXPECT_NE(c, 0u);
                const auto [ci, cfresh] = tree.child.emplace(std::make_pair(n, b), c);
                if (!cfresh) {
                  EXPECT_EQ(ci->second, c);
                }
                const auto [pi, pfresh] = tree.parent.emplace(c, std::make_pair(n, b));
                if (!pfresh) {
                  EXPECT_EQ(pi->second, std::make_pair(n, b));
                }
                node[l] = c;
              }
          }
        }
      }
      const auto stg = find(app, wt, "STG.E.64");
      ASSERT_EQ(stg.size(), mask ? 1u : 0u);
      if (mask) {
        EXPECT_EQ(stg[0]->active_mask, mask);
        for (auto [l, a] : lane_addresses(wt, *stg[0])) EXPECT_EQ(a, out + 8 * (first + l));
      }
    }
  EXPECT_EQ(tree.depth.at(0), 0u);  // the root
  EXPECT_GT(tree.depth.size(), 300u);
}

TEST(GenMumWalk, ReadErrorsEndWalksEarlyPerLane) {
  // With read errors, lanes leave the loop at different steps: the child loads' masks only
  // shrink, some walk stops before the end, and the store has every read's lane again.
  const app_trace app = generate_in_memory(
      "mum_walk", {"queries=256", "query_len=24", "ref_len=4096", "error_rate=0.2"});
  bool early = false;
  for (const warp_trace& wt : app.kernels.at(0).tbs.at(0).warps) {
    const auto children = find(app, wt, "LDG.E.SYS");
    ASSERT_FALSE(children.empty());
    EXPECT_EQ(children[0]->active_mask, 0xffffffffu);
    EXPECT_LE(children.size(), 24u);
    for (std::size_t i = 1; i < children.size(); ++i)
      EXPECT_EQ(children[i]->active_mask & ~children[i - 1]->active_mask, 0u);
    early = early || children.back()->active_mask != 0xffffffffu || children.size() < 24;
    EXPECT_EQ(find(app, wt, "STG").at(0)->active_mask, 0xffffffffu);
    EXPECT_EQ(find(app, wt, "BSYNC").at(0)->active_mask, 0xffffffffu);
  }
  EXPECT_TRUE(early);
  // Deterministic from the seed.
  const app_trace again = generate_in_memory(
      "mum_walk", {"queries=256", "query_len=24", "ref_len=4096", "error_rate=0.2"});
  const app_trace other = generate_in_memory(
      "mum_walk", {"queries=256", "query_len=24", "ref_len=4096", "error_rate=0.2", "seed=2"});
  const warp_trace& a = app.kernels[0].tbs[0].warps[0];
  const warp_trace& b = again.kernels[0].tbs[0].warps[0];
  const warp_trace& c = other.kernels[0].tbs[0].warps[0];
  EXPECT_EQ(a.addresses, b.addresses);
  EXPECT_NE(a.addresses, c.addresses);
}

TEST(GenMumWalk, BadParametersAreRefused) {
  expect_refused("mum_walk", {"query_len=32", "ref_len=16"});
  expect_refused("mum_walk", {"query_len=64", "ref_len=1048576"});  // tree too large
  expect_refused("mum_walk", {"error_rate=1.5"});
  expect_refused("mum_walk", {"queries=0"});
  expect_refused("mum_walk", {"query_len=65"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::latoa_workloads_test

namespace gputlm::traces::generators::test::latoa_workloads_test {
namespace {

// The RAY-like walk on 8 spheres with leaves of 4: the tree is a root (node 0) and two
// leaves (nodes 1 and 2, spheres 0-3 and 4-7 after the median split), 3 x 32 bytes. One
// 16 x 8 TB renders the 16 x 8 image. Read back per lane: node loads come as (lo, hi)
// pairs 16 bytes apart; every walk starts at the root and visits the leaves depth first,
// left before right, each at most once; a leaf whose box the ray meets has its 4 spheres
// loaded in order, one that it misses none; the pixel's result is stored at 4 (16 y + x).
TEST(GenRayWalk, DepthFirstWalksOfATwoLeafTree) {
  const app_trace app = generate_in_memory(
      "ray_walk",
      {"width=16", "height=8", "spheres=8", "leaf=4", "radius=0.25", "block_x=16", "block_y=8"});
  const std::uint64_t nodes = heap, spheres = nodes + align256(96), out = spheres + align256(128);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{nodes, spheres}));
  EXPECT_EQ(app.commands[0].bytes, 96u);
  EXPECT_EQ(app.commands[1].bytes, 128u);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.grid, (dim3{1, 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{16, 8, 1}));
  ASSERT_EQ(k.tbs.size(), 1u);
  std::uint64_t leaf_visits = 0, sphere_loads = 0;
  for (std::uint32_t w = 0; w < 4; ++w) {
    const warp_trace& wt = k.tbs[0].warps[w];
    std::array<std::vector<std::uint64_t>, 32> visits;  // node loads, per lane
    std::array<std::vector<std::uint64_t>, 32> after;   // sphere loads since the last node
    std::array<std::uint64_t, 32> pending_lo{};
    auto close_leaf = [&](unsigned l) {  // a leaf's sphere loads: none, or its four in order
      if (visits[l].empty()) return;
      const std::uint64_t n = visits[l].back();
      if (n == 0) {
        EXPECT_TRUE(after[l].empty());
      } else if (!after[l].empty()) {
        ASSERT_EQ(after[l].size(), 4u) << "lane " << l;
        for (std::uint64_t i = 0; i < 4; ++i) EXPECT_EQ(after[l][i], 4 * (n - 1) + i);
        ++leaf_visits;
      }
      sphere_loads += after[l].size();
      after[l].clear();
    };
    for (const warp_instruction* in : find(app, wt, "LD")) {
      for (auto [l, a] : lane_addresses(wt, *in)) {
        if (a >= nodes && a < nodes + 96) {
          const std::uint64_t n = (a - nodes) / 32, half = (a - nodes) % 32;
          if (half == 0) {
            close_leaf(l);
            pending_lo[l] = a;
            visits[l].push_back(n);
          } else {
            EXPECT_EQ(half, 16u);
            EXPECT_EQ(a, pending_lo[l] + 16) << "lane " << l;
          }
        } else {
          ASSERT_GE(a, spheres);
          ASSERT_LT(a, spheres + 128);
          EXPECT_EQ((a - spheres) % 16, 0u);
          after[l].push_back((a - spheres) / 16);
        }
      }
    }
    for (unsigned l = 0; l < 32; ++l) {
      close_leaf(l);
      ASSERT_FALSE(visits[l].empty()) << "lane " << l;
      EXPECT_EQ(visits[l][0], 0u);  // the root first
      for (std::size_t i = 1; i < visits[l].size(); ++i)
        EXPECT_LT(visits[l][i - 1], visits[l][i]);  // 0, then 1, then 2
      EXPECT_LE(visits[l].size(), 3u);
    }
    const auto stg = find(app, wt, "ST");
    ASSERT_EQ(stg.size(), 1u);
    EXPECT_EQ(stg[0]->active_mask, 0xffffffffu);
    for (auto [l, a] : lane_addresses(wt, *stg[0])) {
      const std::uint64_t flat = 32ull * w + l, x = flat % 16, y = flat / 16;
      EXPECT_EQ(a, out + 4 * (16 * y + x));
    }
  }
  EXPECT_GT(leaf_visits, 0u) << "the check is vacuous: no ray met a leaf";
  EXPECT_GT(sphere_loads, 0u);
}

TEST(GenRayWalk, DeterministicFromTheSeedAndBadParametersAreRefused) {
  const std::vector<std::string> p = {"width=32", "height=16", "spheres=64"};
  const app_trace a = generate_in_memory("ray_walk", p);
  const app_trace b = generate_in_memory("ray_walk", p);
  std::vector<std::string> q = p;
  q.push_back("seed=2");
  const app_trace c = generate_in_memory("ray_walk", q);
  EXPECT_EQ(a.kernels[0].tbs[0].warps[0].addresses, b.kernels[0].tbs[0].warps[0].addresses);
  EXPECT_NE(a.kernels[0].tbs[0].warps[0].addresses, c.kernels[0].tbs[0].warps[0].addresses);
  expect_refused("ray_walk", {"spheres=4096", "stack=4"});   // 10 levels need 11 entries
  expect_refused("ray_walk", {"block_x=64", "block_y=32"});  // 2048 threads
  expect_refused("ray_walk", {"width=0"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::latoa_workloads_test
