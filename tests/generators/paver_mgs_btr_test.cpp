// The PAVER workloads MGS (CUDA SDK mergeSort) and BTR (Rodinia b+tree findK). Grids, masks,
// lane addresses and barrier counts are computed here from the benchmarks' own indexing and
// the documented address map; the sort's result is replayed from the trace's own loads and
// stores and compared with std::stable_sort, and the B+ tree is the one Rodinia's insert()
// builds, drawn by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "gen_test_util.h"
#include "traces/generators/input_gen.h"

namespace gputlm::traces::generators::test::paver_mgs_btr_test {
namespace {

std::uint32_t low_lanes(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }

// Replays the data movement of a kernel's trace: per TB, the warps run in barrier phases
// (every warp up to its next BAR.SYNC, then the next phase); a load copies the 4-byte word at
// each lane's address into the lane's destination register, a store writes the lane's value
// register (its last source) to the lane's address. Other instructions move no data.
void replay_moves(const app_trace& app, const kernel_trace& k,
                  std::map<std::uint64_t, std::uint32_t>& global) {
  for (const tb_trace& tb : k.tbs) {
    std::map<std::uint64_t, std::uint32_t> shared;
    std::vector<std::array<std::array<std::uint32_t, 256>, 32>> regs(tb.warps.size());
    std::vector<std::size_t> at(tb.warps.size(), 0);
    for (bool again = true; again;) {
      again = false;
      for (std::size_t w = 0; w < tb.warps.size(); ++w) {
        const warp_trace& wt = tb.warps[w];
        while (at[w] < wt.insts.size()) {
          const warp_instruction& in = wt.insts[at[w]++];
          const std::string& m = mnemonic(app, in);
          if (starts_with(m, "BAR.SYNC")) {
            again = true;
            break;
          }
          const bool load = starts_with(m, "LDG") || starts_with(m, "LDS");
          const bool store = starts_with(m, "STG") || starts_with(m, "STS");
          if (!load && !store) continue;
          auto& mem = m[2] == 'S' ? shared : global;  // LDS, STS
          for (auto [l, a] : lane_addresses(wt, in)) {
            if (load) {
              const auto it = mem.find(a);
              regs[w][l][in.dst[0]] = it == mem.end() ? 0xdeadbeefu : it->second;
            } else {
              mem[a] = regs[w][l][in.src[in.num_src - 1]];
            }
          }
        }
      }
    }
  }
}

// The sample's device arrays (main.cpp, then initMergeSort): DstKey, DstVal, BufKey,
// BufVal, SrcKey, SrcVal (n words each), RanksA, RanksB, LimitsA, LimitsB (32768 words each).
struct mgs_layout {
  std::uint64_t dst_key, dst_val, buf_key, buf_val, src_key, src_val;
  std::uint64_t ranks_a, ranks_b, limits_a, limits_b;
  explicit mgs_layout(std::uint64_t n) {
    const std::uint64_t a = align256(4 * n), r = 4 * 32768;
    dst_key = heap;
    dst_val = dst_key + a;
    buf_key = dst_val + a;
    buf_val = buf_key + a;
    src_key = buf_val + a;
    src_val = src_key + a;
    ranks_a = src_val + a;
    ranks_b = ranks_a + r;
    limits_a = ranks_b + r;
    limits_b = limits_a + r;
  }
};

std::vector<std::uint32_t> mgs_keys(std::uint64_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::uint32_t> k(n);
  for (auto& v : k) v = std::uint32_t(r.below(65536));
  return k;
}

TEST(GenMergesort, KernelSequenceGridsAndSharedSortByHand) {
  // n = 4096: mergeSortSharedKernel on 4096 / 1024 = 4 TBs of 512 threads (8 KiB shared),
  // then strides 1024 and 2048, each: generateSampleRanksKernel and two
  // mergeRanksAndIndicesKernel launches on ceil((4096 / 256) / 256) = 1 TB of 256 threads
  // (16 live), and mergeElementaryIntervalsKernel on 4096 / 128 = 32 TBs of 128 threads.
  // Two stages (even): the shared sort writes DstKey, stride 1024 merges into BufKey,
  // stride 2048 back into DstKey.
  const std::uint64_t n = 4096;
  const app_trace app = generate_in_memory("mergesort", {"n=4096"});
  const mgs_layout d(n);
  EXPECT_EQ(input_addresses(app), (std::vector<std::uint64_t>{d.src_key, d.src_val}));
  const std::string shared = "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j";
  const std::string ranks = "_Z25generateSampleRanksKernelILj1EEvPjS0_S0_jjj";
  const std::string limits = "_Z26mergeRanksAndIndicesKernelPjS_jjj";
  const std::string merge = "_Z30mergeElementaryIntervalsKernelILj1EEvPjS0_S0_S0_S0_S0_jj";
  const std::vector<std::string> names = {shared, ranks,  limits, limits, merge,
                                          ranks,  limits, limits, merge};
  const std::uint32_t grids[] = {4, 1, 1, 1, 32, 1, 1, 1, 32};
  const std::uint32_t blocks[] = {512, 256, 256, 256, 128, 256, 256, 256, 128};
  ASSERT_EQ(app.kernels.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(app.kernels[i].info.name, names[i]) << i;
    EXPECT_EQ(app.kernels[i].info.grid, (dim3{grids[i], 1, 1})) << i;
    EXPECT_EQ(app.kernels[i].info.block, (dim3{blocks[i], 1, 1})) << i;
  }
  EXPECT_EQ(app.kernels[0].info.shmem, 8192u);
  EXPECT_EQ(app.kernels[4].info.shmem, 2u * 1024 + 6 * 4);

  // Shared sort: per warp 4 LDG (keys and values at tid and tid + 512), 10 strides of two
  // BAR.SYNC, a final BAR.SYNC, 4 STG into DstKey / DstVal. LDS per stride: keyA, valA,
  // keyB, valB and log2(stride) + 1 probes per search: 4·10 + 2·(1 + ... + 10) + 4 at the end.
  const std::vector<std::uint32_t> keys = mgs_keys(n, 1);
  const kernel_trace& sk = app.kernels[0];
  for (const tb_trace& tb : sk.tbs)
    for (std::uint32_t w = 0; w < 16; ++w) {
      const warp_trace& wt = tb.warps[w];
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 21u);
      EXPECT_EQ(find(app, wt, "LDS").size(), 40u + 2 * 55 + 4);
      const auto ldg = find(app, wt, "LDG"), stg = find(app, wt, "STG");
      ASSERT_EQ(ldg.size(), 4u);
      ASSERT_EQ(stg.size(), 4u);
      const std::uint64_t t0 = 1024ull * tb.index.x + 32 * w;
      const std::uint64_t from[] = {d.src_key, d.src_val, d.src_key + 2048, d.src_val + 2048};
      const std::uint64_t to[] = {d.dst_key, d.dst_val, d.dst_key + 2048, d.dst_val + 2048};
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(ldg[i]->active_mask, 0xffffffffu);
        for (auto [l, a] : lane_addresses(wt, *ldg[i])) EXPECT_EQ(a, from[i] + 4 * (t0 + l));
        for (auto [l, a] : lane_addresses(wt, *stg[i])) EXPECT_EQ(a, to[i] + 4 * (t0 + l));
      }
      // Stride 1: thread t merges s[2t] (A) with s[2t + 1] (B): one probe each, of the other
      // element; keyA goes to 2t + (keyB < keyA), keyB to 2t + (keyA <= keyB).
      const auto lds = find(app, wt, "LDS");
      const auto sts = find(app, wt, "STS");
      for (auto [l, a] : lane_addresses(wt, *lds[4])) EXPECT_EQ(a, 4 * (2 * (32 * w + l) + 1));
      for (auto [l, a] : lane_addresses(wt, *lds[5])) EXPECT_EQ(a, 4 * (2 * (32 * w + l)));
      for (unsigned l = 0; l < 32; ++l) {
        const std::uint64_t t = 32 * w + l, c = 1024ull * tb.index.x;
        const std::uint32_t ka = keys[c + 2 * t], kb = keys[c + 2 * t + 1];
        EXPECT_EQ(lane_addresses(wt, *sts[4])[l].second, 4 * (2 * t + (kb < ka ? 1 : 0)));
        EXPECT_EQ(lane_addresses(wt, *sts[6])[l].second, 4 * (2 * t + (ka <= kb ? 1 : 0)));
        EXPECT_EQ(lane_addresses(wt, *sts[5])[l].second, 4096 + 4 * (2 * t + (kb < ka ? 1 : 0)));
      }
    }

  // generateSampleRanksKernel, stride 1024: 16 threads, i = pos & 7, segmentBase =
  // (pos - i) * 256. Lane 9 (i = 1, segment 2048) stores RanksA[16 + 1] = 128, reads
  // SrcKey[2048 + 128] and searches B = [3072, 4096) in 11 probes; then RanksB[16 + 8 + 1]
  // = 128, SrcKey[3072 + 128], 11 probes over A. Warps 1..7 only exit.
  const kernel_trace& gk = app.kernels[1];
  const warp_trace& g0 = gk.tbs[0].warps[0];
  const auto g_ldg = find(app, g0, "LDG"), g_stg = find(app, g0, "STG");
  ASSERT_EQ(g_ldg.size(), 2u * (1 + 11));
  ASSERT_EQ(g_stg.size(), 4u);
  for (const auto* in : g_ldg) EXPECT_EQ(in->active_mask, 0xffffu);
  EXPECT_EQ(lane_addresses(g0, *g_stg[0])[9].second, d.ranks_a + 4 * 17);
  EXPECT_EQ(lane_addresses(g0, *g_ldg[0])[9].second, d.dst_key + 4 * (2048 + 128));
  EXPECT_EQ(lane_addresses(g0, *g_stg[1])[9].second, d.ranks_b + 4 * 17);
  EXPECT_EQ(lane_addresses(g0, *g_stg[2])[9].second, d.ranks_b + 4 * 25);
  EXPECT_EQ(lane_addresses(g0, *g_ldg[12])[9].second, d.dst_key + 4 * (3072 + 128));
  EXPECT_EQ(lane_addresses(g0, *g_stg[3])[9].second, d.ranks_a + 4 * 25);
  // The first probe of every search is data[min(0 + 1024, 1024) - 1].
  EXPECT_EQ(lane_addresses(g0, *g_ldg[1])[9].second, d.dst_key + 4 * (3072 + 1023));
  EXPECT_EQ(lane_addresses(g0, *g_ldg[13])[9].second, d.dst_key + 4 * (2048 + 1023));
  for (std::uint32_t w = 1; w < 8; ++w) {
    EXPECT_TRUE(find(app, gk.tbs[0].warps[w], "LDG").empty());
    EXPECT_EQ(find(app, gk.tbs[0].warps[w], "EXIT").size(), 1u);
  }
  // mergeRanksAndIndicesKernel: 16 threads, 8 samples per run: Ranks[i], 4 probes over the
  // other run's samples; Ranks[8 + i], 4 probes. The second launch reads RanksB.
  for (int k : {2, 3}) {
    const warp_trace& m0 = app.kernels[k].tbs[0].warps[0];
    const auto ldg = find(app, m0, "LDG");
    ASSERT_EQ(ldg.size(), 10u);
    const std::uint64_t r = k == 2 ? d.ranks_a : d.ranks_b;
    EXPECT_EQ(lane_addresses(m0, *ldg[0])[9].second, r + 4 * (16 + 1));
    EXPECT_EQ(lane_addresses(m0, *ldg[1])[9].second, r + 4 * (16 + 8 + 7));
    EXPECT_EQ(lane_addresses(m0, *ldg[5])[9].second, r + 4 * (16 + 8 + 1));
    EXPECT_EQ(lane_addresses(m0, *ldg[6])[9].second, r + 4 * (16 + 7));
    for (auto [l, a] : lane_addresses(m0, *find(app, m0, "STG")[0]))
      EXPECT_TRUE(a >= (k == 2 ? d.limits_a : d.limits_b) + 4 * 16 * (l / 8) &&
                  a < (k == 2 ? d.limits_a : d.limits_b) + 4 * 16 * (l / 8 + 1))
          << l;
  }

  // mergeElementaryIntervalsKernel: 4 BAR.SYNC per warp; thread 0 reads LimitsA[b],
  // LimitsB[b] and, unless b is the last interval of its segment (16 per segment at stride
  // 1024), LimitsA[b + 1], LimitsB[b + 1]. Each stage loads every key of its input once.
  for (int k : {4, 8}) {
    const kernel_trace& mk = app.kernels[k];
    const std::uint64_t in_key = k == 4 ? d.dst_key : d.buf_key;
    const std::uint32_t per_segment = k == 4 ? 16 : 32;
    std::map<std::uint64_t, unsigned> loaded;
    for (const tb_trace& tb : mk.tbs) {
      const std::uint32_t b = tb.index.x;
      const bool last = (b & (per_segment - 1)) == per_segment - 1;
      const auto t0 = find(app, tb.warps[0], "LDG");
      ASSERT_GE(t0.size(), last ? 2u : 4u);
      EXPECT_EQ(t0[0]->active_mask, 1u);
      EXPECT_EQ(lane_addresses(tb.warps[0], *t0[0])[0].second, d.limits_a + 4 * b);
      EXPECT_EQ(lane_addresses(tb.warps[0], *t0[1])[0].second, d.limits_b + 4 * b);
      if (!last) {
        EXPECT_EQ(lane_addresses(tb.warps[0], *t0[2])[0].second, d.limits_a + 4 * (b + 1));
        EXPECT_EQ(lane_addresses(tb.warps[0], *t0[3])[0].second, d.limits_b + 4 * (b + 1));
      }
      for (std::uint32_t w = 0; w < 4; ++w) {
        const warp_trace& wt = tb.warps[w];
        EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 4u);
        for (const auto* in : find(app, wt, "LDG"))
          for (auto [l, a] : lane_addresses(wt, *in))
            if (a >= in_key && a < in_key + 4 * n) ++loaded[a];
      }
    }
    EXPECT_EQ(loaded.size(), n) << k;
    for (auto [a, times] : loaded) EXPECT_EQ(times, 1u);
  }
}

TEST(GenMergesort, TraceDataFlowSortsTheKeysStably) {
  // Replaying the trace's loads and stores over SrcKey (the keys) and SrcVal (their
  // indices) leaves DstKey sorted and DstVal the stable permutation, for an even (n = 4096,
  // two merge stages) and an odd (n = 8192, three) stage count.
  for (std::uint64_t n : {4096ull, 8192ull}) {
    const std::uint64_t seed = 5;
    const app_trace app =
        generate_in_memory("mergesort", {"n=" + std::to_string(n), "seed=" + std::to_string(seed)});
    const mgs_layout d(n);
    const std::vector<std::uint32_t> keys = mgs_keys(n, seed);
    std::map<std::uint64_t, std::uint32_t> global;
    for (std::uint64_t i = 0; i < n; ++i) {
      global[d.src_key + 4 * i] = keys[i];
      global[d.src_val + 4 * i] = std::uint32_t(i);
    }
    for (const kernel_trace& k : app.kernels) replay_moves(app, k, global);
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    for (std::uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(global[d.dst_key + 4 * i], keys[order[i]]) << n << " " << i;
      ASSERT_EQ(global[d.dst_val + 4 * i], order[i]) << n << " " << i;
    }
  }
}

TEST(GenMergesort, BadParametersAreRefused) {
  expect_refused("mergesort", {"n=3000"});
  expect_refused("mergesort", {"n=512"});
  expect_refused("mergesort", {"n=8388608"});  // past SAMPLE_STRIDE * MAX_SAMPLE_COUNT
  expect_refused("mergesort", {"block=256"});
}

// The order-4 tree of keys 0..19 inserted in order (leaves split 2 + 2 at cut(3) = 2,
// internal nodes keep cut(4) - 1 = 1 key and push up the second), breadth-first:
//   knode 0 root [4 8 12]; 1 [2], 2 [6], 3 [10], 4 [14 16 18];
//   leaves 5..14 = [0 1] [2 3] ... [18 19] (leaf 5 + k / 2 holds key k).
// knode: int location; int indices[5]; int keys[5]; bool is_leaf; int num_keys = 52 bytes,
// indices at +4, keys at +24; keys[0] = INT_MIN.
struct small_tree {
  static constexpr std::uint64_t size = 52, indices = 4, keys = 24;
  // Slot (thread) of key k in the root and in level-1 node c; the level-1 knode.
  static std::uint32_t root_slot(std::int32_t k) {
    return std::uint32_t((k >= 4) + (k >= 8) + (k >= 12));
  }
  static std::uint32_t inner_slot(std::uint32_t c, std::int32_t k) {
    const std::vector<std::vector<std::int32_t>> ks = {{2}, {6}, {10}, {14, 16, 18}};
    std::uint32_t s = 0;
    for (std::int32_t v : ks[c]) s += k >= v;
    return s;
  }
};

TEST(GenBtree, Order4TreeWalkByHand) {
  const std::uint32_t queries = 64;
  const app_trace app =
      generate_in_memory("btree", {"records=20", "order=4", "queries=64", "seed=3"});
  // recordsD (20 ints), knodesD (15 knodes), currKnodeD, offsetD (longs), keysD, ansD.
  const std::uint64_t records = heap, knodes = heap + 256;
  const std::uint64_t curr = knodes + align256(15 * 52), offset = curr + align256(8 * queries);
  const std::uint64_t keys = offset + align256(8 * queries), ans = keys + align256(4 * queries);
  EXPECT_EQ(input_addresses(app),
            (std::vector<std::uint64_t>{records, knodes, curr, offset, keys, ans}));
  std::vector<std::uint64_t> bytes;
  for (const auto& c : app.commands)
    if (c.what == command::kind::memcpy_h2d) bytes.push_back(c.bytes);
  EXPECT_EQ(bytes, (std::vector<std::uint64_t>{80, 780, 512, 512, 256, 256}));
  ASSERT_EQ(app.kernels.size(), 1u);
  const kernel_trace& k = app.kernels[0];
  EXPECT_EQ(k.info.name, "_Z5findKlP5knodelP6recordPlS3_PiS2_");
  EXPECT_EQ(k.info.grid, (dim3{queries, 1, 1}));
  EXPECT_EQ(k.info.block, (dim3{4, 1, 1}));

  rng r(3);
  for (const tb_trace& tb : k.tbs) {
    const std::uint32_t b = tb.index.x;
    const auto key = std::int32_t(r.below(20));
    ASSERT_EQ(tb.warps.size(), 1u);
    const warp_trace& wt = tb.warps[0];
    const std::uint32_t c0 = small_tree::root_slot(key), c1 = small_tree::inner_slot(c0, key);
    const std::uint64_t level_node[] = {0, 1 + c0};
    const std::uint32_t level_slot[] = {c0, c1};
    const std::uint64_t leaf = 5 + std::uint64_t(key) / 2, leaf_slot = 1 + std::uint64_t(key) % 2;
    // Expected global accesses in order: (mask, address of lane 0 or of the one lane, step
    // between lanes).
    struct access {
      std::uint32_t mask;
      std::uint64_t first, step;
    };
    std::vector<access> loads, stores;
    for (int level = 0; level < 2; ++level) {
      const std::uint64_t node = knodes + small_tree::size * level_node[level];
      const std::uint32_t s = level_slot[level];
      loads.push_back({0xf, curr + 8 * b, 0});
      loads.push_back({0xf, node + small_tree::keys, 4});
      loads.push_back({0xf, keys + 4 * b, 0});
      loads.push_back({low_lanes(s + 1), node + small_tree::keys + 4, 4});
      loads.push_back({1u << s, offset + 8 * b, 0});
      loads.push_back({1u << s, node + small_tree::indices + 4 * s, 0});
      stores.push_back({1u << s, offset + 8 * b, 0});
      loads.push_back({1u, offset + 8 * b, 0});
      stores.push_back({1u, curr + 8 * b, 0});
    }
    const std::uint64_t lnode = knodes + small_tree::size * leaf;
    loads.push_back({0xf, curr + 8 * b, 0});
    loads.push_back({0xf, lnode + small_tree::keys, 4});
    loads.push_back({0xf, keys + 4 * b, 0});
    loads.push_back({1u << leaf_slot, lnode + small_tree::indices + 4 * leaf_slot, 0});
    loads.push_back({1u << leaf_slot, records + 4 * std::uint64_t(key), 0});
    stores.push_back({1u << leaf_slot, ans + 4 * b, 0});

    auto check = [&](const std::vector<const warp_instruction*>& got,
                     const std::vector<access>& want, const char* what) {
      ASSERT_EQ(got.size(), want.size()) << what << " TB " << b << " key " << key;
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i]->active_mask, want[i].mask) << what << " " << i << " key " << key;
        std::uint64_t expect = want[i].first;
        for (auto [l, a] : lane_addresses(wt, *got[i])) {
          if (want[i].step != 0) expect = want[i].first + want[i].step * l;
          EXPECT_EQ(a, expect) << what << " " << i << " lane " << l << " key " << key;
        }
      }
    };
    check(find(app, wt, "LDG"), loads, "LDG");
    check(find(app, wt, "STG"), stores, "STG");
    EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 4u);
  }
  // By hand: key 15 goes root slot 3 (knode 4 = [14 16 18]), slot 1 (leaf knode 12 = [14 15]),
  // leaf slot 2.
  EXPECT_EQ(small_tree::root_slot(15), 3u);
  EXPECT_EQ(small_tree::inner_slot(3, 15), 1u);
}

TEST(GenBtree, RodiniaMilTreeShape) {
  // Rodinia's mil.txt (keys 0 .. 999999 in order) at DEFAULT_ORDER 256 gives
  // knodes_elem = 7874 and knodes_mem = 7874 · 2068 = 16283432 bytes (the benchmark's log),
  // records_mem = 4000000; height 2: 2·2 BAR.SYNC, 256 threads in 8 warps.
  const app_trace app = generate_in_memory("btree", {"queries=2"});
  std::vector<std::uint64_t> bytes;
  for (const auto& c : app.commands)
    if (c.what == command::kind::memcpy_h2d) bytes.push_back(c.bytes);
  ASSERT_EQ(bytes.size(), 6u);
  EXPECT_EQ(bytes[0], 4000000u);
  EXPECT_EQ(bytes[1], 16283432u);
  const kernel_trace& k = app.kernels.at(0);
  EXPECT_EQ(k.info.block, (dim3{256, 1, 1}));
  ASSERT_EQ(k.tbs.size(), 2u);
  const std::uint64_t knodes = heap + align256(4000000);
  for (const tb_trace& tb : k.tbs)
    for (std::uint32_t w = 0; w < 8; ++w) {
      const warp_trace& wt = tb.warps[w];
      EXPECT_EQ(find(app, wt, "BAR.SYNC").size(), 4u);
      // The root's keys[thid]: knodes + 4 + 4·257 + 4·thid.
      const auto ldg = find(app, wt, "LDG");
      for (auto [l, a] : lane_addresses(wt, *ldg[1]))
        EXPECT_EQ(a, knodes + 1032 + 4 * (32 * w + l));
    }
}

TEST(GenPaverMgsBtr, EveryArchUsesOnlyKnownOpcodes) {
  for (std::uint32_t arch : supported_arches) {
    for (const auto& [kernel, params] :
         std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"mergesort", {"n=2048"}}, {"btree", {"records=300", "order=8", "queries=4"}}}) {
      const app_trace app = generate_in_memory(kernel, params, arch);
      EXPECT_FALSE(app.kernels.empty());
      for (std::size_t i = 0; i < app.opcodes.size(); ++i)
        EXPECT_TRUE(app.opcodes[std::uint16_t(i)].known)
            << kernel << " arch " << arch << ": " << app.opcodes[std::uint16_t(i)].mnemonic;
    }
  }
}

TEST(GenBtree, BadParametersAreRefused) {
  expect_refused("btree", {"order=2"});
  expect_refused("btree", {"order=1025"});
  expect_refused("btree", {"queries=0"});
  expect_refused("btree", {"queries=65536"});
  expect_refused("btree", {"records=0"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::paver_mgs_btr_test
