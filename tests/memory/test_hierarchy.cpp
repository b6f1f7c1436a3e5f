// The whole memory side of the GTX480 platform (L1 -> crossbar -> L2 -> DRAM, parameters
// from yaml/fermi.yaml) under a random mix of loads, stores and atomics from four
// generators: every request is answered once, no payload leaks, and the counts agree
// across levels (each L2 miss is one DRAM read, each L2 write-back one DRAM write).
#include <random>

#include "tests/memory/hierarchy.h"

namespace test_hierarchy {

using namespace gputlm;
using namespace gputlm::test;

TEST(hierarchy, gtx480_random_mix_is_answered_once_without_leaks) {
  std::mt19937 rng(7);
  std::vector<std::vector<tg_request>> scripts(4);
  const std::size_t per = 3000;
  for (auto& s : scripts) {
    for (std::size_t k = 0; k < per; ++k) {
      tg_request r;
      // 1 MB footprint, 12,000 accesses: L1 and L2 misses, and dirty lines evicted from the
      // 768 KB L2.
      const std::uint64_t line = rng() % 8192;
      const unsigned sector = rng() % 4;
      r.addr = line * 128 + sector * 32;
      r.length = 32;
      r.sectors = std::uint8_t(1u << sector);
      const unsigned pick = rng() % 10;
      r.kind = pick < 6   ? access_kind::global_load
               : pick < 8 ? access_kind::global_store
               : pick < 9 ? access_kind::local_store
                          : access_kind::atomic;
      s.push_back(r);
    }
  }
  hierarchy h("yaml/fermi.yaml", scripts);
  sc_core::sc_start();
  EXPECT_EQ(h.completed(), 4 * per);
  EXPECT_EQ(h.payloads_in_use(), 0u);
  EXPECT_FALSE(h.any_busy());

  std::uint64_t l1_accesses = 0, l2_fills = 0, l2_writebacks = 0, l2_writes = 0, dram_reads = 0,
                dram_writes = 0, l1_out = 0;
  for (auto& b : h.l1) {
    l1_accesses += b->stats_view().accesses.value();
    l1_out += b->stats_view().line_misses.value() + b->stats_view().sector_misses.value();
  }
  for (auto& b : h.l2) {
    l2_fills += b->stats_view().line_misses.value() + b->stats_view().sector_misses.value();
    l2_writebacks += b->stats_view().writebacks.value();
    l2_writes += b->stats_view().writes.value();
  }
  for (auto& d : h.dram) {
    dram_reads += d->stats_view().reads.value();
    dram_writes += d->stats_view().writes.value();
  }
  EXPECT_EQ(l1_accesses, 4 * per);
  EXPECT_GT(l1_out, 0u);
  EXPECT_EQ(dram_reads, l2_fills);
  EXPECT_EQ(dram_writes, l2_writebacks);
  EXPECT_GT(l2_writes, 0u);
  EXPECT_GT(l2_writebacks, 0u);
}

namespace {
std::vector<std::vector<tg_request>> random_mix(std::size_t smxs, std::size_t per, unsigned seed,
                                                std::uint64_t lines) {
  std::mt19937 rng(seed);
  std::vector<std::vector<tg_request>> scripts(smxs);
  for (auto& s : scripts) {
    for (std::size_t k = 0; k < per; ++k) {
      tg_request r;
      const unsigned sector = rng() % 4;
      r.addr = (rng() % lines) * 128 + sector * 32;
      r.length = rng() % 2 ? 32 : 4;
      r.sectors = std::uint8_t(1u << sector);
      const unsigned pick = rng() % 10;
      r.kind = pick < 6   ? access_kind::global_load
               : pick < 8 ? access_kind::global_store
               : pick < 9 ? access_kind::local_store
                          : access_kind::atomic;
      s.push_back(r);
    }
  }
  return scripts;
}
}  // namespace

TEST(hierarchy, tiny_queues_everywhere_still_drain_without_leaks) {
  // Every queue at its minimum so that back-pressure is exercised at each level.
  const std::size_t per = 300;
  hierarchy h("yaml/fermi.yaml", random_mix(4, per, 11, 2048),
              {{"l1", {{"mshr_entries", "2"}, {"mshr_merge", "2"}, {"miss_queue", "1"}}},
               {"icnt", {{"input_buffer", "4"}, {"output_buffer", "4"}, {"ejection_buffer", "1"}}},
               {"l2",
                {{"mshr_entries", "2"},
                 {"mshr_merge", "2"},
                 {"icnt_to_l2_queue", "1"},
                 {"l2_to_dram_queue", "1"},
                 {"l2_to_icnt_queue", "1"}}},
               {"dram", {{"queue_depth", "1"}, {"return_queue", "1"}}}});
  sc_core::sc_start();
  EXPECT_EQ(h.completed(), 4 * per);
  EXPECT_EQ(h.payloads_in_use(), 0u);
  EXPECT_FALSE(h.any_busy());
  std::uint64_t fails = 0;
  for (auto& b : h.l1)
    fails += b->stats_view().fail_mshr_full.value() + b->stats_view().fail_merge_limit.value() +
             b->stats_view().fail_miss_queue_full.value();
  EXPECT_GT(fails, 0u);
}

TEST(hierarchy, latoa_mesh_random_mix_is_answered_once_without_leaks) {
  const std::size_t per = 200;
  hierarchy h("yaml/latoa.yaml", random_mix(56, per, 5, 8192));
  sc_core::sc_start();
  EXPECT_EQ(h.completed(), 56 * per);
  EXPECT_EQ(h.payloads_in_use(), 0u);
  EXPECT_FALSE(h.any_busy());
  std::uint64_t l2_fills = 0, dram_reads = 0;
  for (auto& b : h.l2)
    l2_fills += b->stats_view().line_misses.value() + b->stats_view().sector_misses.value();
  for (auto& d : h.dram) dram_reads += d->stats_view().reads.value();
  EXPECT_EQ(dram_reads, l2_fills);
}

}  // namespace test_hierarchy
