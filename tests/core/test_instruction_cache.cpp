// The L1 instruction cache (models/core/instruction_cache.h): the cache on its own against a
// reference LRU written here; then in a GTX480 run (yaml/fermi.yaml, 4 sets x 4 ways of 128 B,
// 2 MSHR entries) on hand-made traces: a 17-line loop run twice misses 17 + 5 + 1 times
// (worked below), three warps on three lines fill both MSHR entries and the third fails
// once, a fourth on the first's line joins its miss; and Slumber's rule (c) (Tripathy's
// thesis §6.3.3): a register whose next use is not in L1I sleeps in DS until its counter.
#include <gtest/gtest.h>

#include <cstdio>
#include <list>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "models/core/instruction_cache.h"
#include "tests/common/run_command.h"

namespace test_instruction_cache {

using namespace gputlm::testing;
using gputlm::core::instruction_cache;
using outcome = instruction_cache::outcome;

namespace {

// An LRU cache of whole lines, per set a list from most to least recently used.
struct reference_lru {
  std::uint32_t sets, ways;
  std::vector<std::list<std::uint64_t>> order;
  reference_lru(std::uint32_t s, std::uint32_t w) : sets(s), ways(w), order(s) {}
  bool access(std::uint64_t line) {  // true: hit; a miss inserts (as a fill would)
    auto& l = order[line % sets];
    for (auto it = l.begin(); it != l.end(); ++it)
      if (*it == line) {
        l.splice(l.begin(), l, it);
        return true;
      }
    l.push_front(line);
    if (l.size() > ways) l.pop_back();
    return false;
  }
};

}  // namespace

TEST(instruction_cache, agrees_with_a_reference_lru) {
  // One warp at a time, each miss filled before the next access: the cache is then a plain
  // LRU cache of lines.
  std::mt19937 rng(7);
  for (std::uint32_t sets : {1u, 4u, 8u})
    for (std::uint32_t ways : {1u, 2u, 4u}) {
      instruction_cache c;
      c.configure(sets, ways, 128, 2, 32);
      reference_lru ref(sets, ways);
      std::uint64_t misses = 0;
      for (int i = 0; i < 4000; ++i) {
        const std::uint64_t line = rng() % 40;
        const std::uint64_t addr = 0xF0000000 + line * 128 + rng() % 128;
        const bool hit = ref.access(0xF0000000 / 128 + line);
        const outcome o = c.access(addr, 0);
        ASSERT_EQ(o == outcome::hit, hit) << i;
        if (o == outcome::miss) {
          ++misses;
          int woken = 0;
          c.fill(c.line_of(addr), [&](std::uint32_t w) { woken += w == 0; });
          EXPECT_EQ(woken, 1);
          EXPECT_TRUE(c.contains(addr));
          EXPECT_EQ(c.access(addr, 0), outcome::hit);  // the warp's fetch again
        }
      }
      EXPECT_EQ(c.misses.value(), misses);
      EXPECT_EQ(c.accesses.value(), c.hits.value() + c.misses.value());
    }
}

TEST(instruction_cache, mshr_merges_and_reservation_failures_by_hand) {
  instruction_cache c;
  c.configure(4, 4, 128, 2, 2);
  EXPECT_EQ(c.access(0x000, 0), outcome::miss);
  EXPECT_EQ(c.access(0x010, 1), outcome::merged);            // same line
  EXPECT_EQ(c.access(0x070, 2), outcome::reservation_fail);  // its 2 merges are taken
  EXPECT_EQ(c.access(0x100, 3), outcome::miss);
  EXPECT_EQ(c.access(0x200, 4), outcome::reservation_fail);  // both entries busy
  EXPECT_EQ(c.outstanding(), 2u);
  EXPECT_FALSE(c.contains(0x000));
  std::vector<std::uint32_t> woken;
  c.fill(0x000, [&](std::uint32_t w) { woken.push_back(w); });
  // The line's two warps, then the two that failed.
  EXPECT_EQ(woken, (std::vector<std::uint32_t>{0, 1, 2, 4}));
  EXPECT_TRUE(c.contains(0x07f));
  EXPECT_EQ(c.outstanding(), 1u);
  woken.clear();
  c.fill(0x100, [&](std::uint32_t w) { woken.push_back(w); });
  EXPECT_EQ(woken, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(c.misses.value(), 2u);
  EXPECT_EQ(c.merged.value(), 1u);
  EXPECT_EQ(c.reservation_fails.value(), 2u);
}

namespace {

const std::string k_header =
    "-grid dim = (1,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 61\n"
    "-cuda stream id = 0\n-shmem base_addr = 0x00007ff000000000\n"
    "-local mem base_addr = 0x00007ff800000000\n-nvbit version = 1.5.5\n"
    "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";

std::string hex_pc(std::uint32_t pc) {
  char b[16];
  std::snprintf(b, sizeof b, "%04x", pc);
  return b;
}

// One TB of `warps.size()` warps, warp w running the given trace lines.
std::string one_tb(const std::string& dir, const std::vector<std::vector<std::string>>& warps) {
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");
  std::ostringstream k;
  k << "-kernel name = _Zhand\n-kernel id = 1\n-block dim = (" << 32 * warps.size() << ",1,1)\n"
    << k_header << "#BEGIN_TB\n\nthread block = 0,0,0\n\n";
  for (std::size_t w = 0; w < warps.size(); ++w) {
    k << "warp = " << w << "\ninsts = " << warps[w].size() << "\n";
    for (const std::string& l : warps[w]) k << l << "\n";
    k << "\n";
  }
  k << "#END_TB\n";
  write_text(dir + "/kernel-1.traceg", k.str());
  return dir;
}

nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  const auto r = run_command(gputlm_bin() + " run " GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " + trace +
                                 " --no-wall-clock --no-tb-log " + sets +
                                 " --stats-form=full --stats " + stats,
                             tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? nlohmann::json::parse(slurp(stats)) : nlohmann::json{};
}

double smx0(const nlohmann::json& j, const std::string& key) {
  return j["blocks"]["gpu.smx[0]"][key].get<double>();
}

double l2_sum(const nlohmann::json& j, const std::string& key) {
  double s = 0;
  for (const auto& [name, b] : j["blocks"].items())
    if (name.rfind("gpu.l2[", 0) == 0) s += b[key].get<double>();
  return s;
}

}  // namespace

TEST(instruction_cache, a_loop_larger_than_the_gtx480_l1i_misses_as_lru_says) {
  // 17 lines of 8 instructions (16 B each), run twice, then EXIT on line 17. Fetches take
  // two instructions from an even index, so never straddle a line: the lines looked up are
  // 0..16, 0..16 (each twice, one lookup per pair), 17. By hand: pass 1 misses all 17;
  // set 0 then holds lines 4, 8, 12, 16 (line 0 was its least recent), sets 1-3 their four
  // lines each; pass 2 misses 0, 4, 8, 12 and 16 (each evicting the next one of set 0) and
  // hits the 12 others; line 17 misses: 23 in all.
  std::vector<std::string> code;
  std::vector<std::uint64_t> looked_up;
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint32_t i = 0; i < 17 * 8; ++i) {
      code.push_back(hex_pc(i * 16) + " ffffffff 0 NOP 0 0");
      if (i % 2 == 0) looked_up.push_back(i * 16 / 128);
    }
  code.push_back(hex_pc(17 * 128) + " ffffffff 0 EXIT 0 0");
  looked_up.push_back(17);
  reference_lru ref(4, 4);
  std::uint64_t ref_misses = 0;
  for (std::uint64_t l : looked_up) ref_misses += !ref.access(l);
  EXPECT_EQ(ref_misses, 23u);

  const std::string trace = one_tb(fresh_dir("icache_loop"), {code});
  const auto j = run(trace, "", "icache_loop");
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(smx0(j, "icache_misses"), 23);
  // Every fetch hits once its line is there: 137 fetches (273 instructions, two at a time).
  EXPECT_EQ(smx0(j, "icache_hits"), 137);
  EXPECT_EQ(smx0(j, "icache_accesses"), 137 + 23);
  EXPECT_EQ(smx0(j, "icache_merged"), 0);
  // The second pass's misses hit in L2: DRAM read 18 distinct lines of code.
  EXPECT_EQ(l2_sum(j, "instruction_fill_bytes"), 18 * 128);
  // Always hitting, the same run has no misses, no statistics of the cache, and is faster.
  const auto p = run(trace, "--set gpu.smx.icache_perfect=true", "icache_loop_perfect");
  ASSERT_FALSE(p.empty());
  EXPECT_FALSE(p["blocks"]["gpu.smx[0]"].contains("icache_misses"));
  EXPECT_EQ(l2_sum(p, "instruction_fill_bytes"), 0);
  EXPECT_LT(p["total_cycles"].get<double>(), j["total_cycles"].get<double>());
}

TEST(instruction_cache, two_mshr_entries_a_failed_fetch_and_a_merged_one) {
  // Warps 0, 1, 2 start on lines 0, 2 and 4, warp 3 on line 0. The GTX480 fetches one warp
  // a cycle, round robin: warp 0 misses (entry 1), warp 1 misses (entry 2), warp 2 finds
  // both busy (fails, waits for a fill), warp 3 joins warp 0's miss. Line 0's fill wakes
  // warps 0, 3 and 2; warp 2 then misses. Each warp fetches twice (NOP NOP, EXIT), hitting.
  auto warp = [](std::uint32_t line) {
    const std::uint32_t pc = line * 128;
    return std::vector<std::string>{hex_pc(pc) + " ffffffff 0 NOP 0 0",
                                    hex_pc(pc + 16) + " ffffffff 0 NOP 0 0",
                                    hex_pc(pc + 32) + " ffffffff 0 EXIT 0 0"};
  };
  const std::string trace = one_tb(fresh_dir("icache_mshr"), {warp(0), warp(2), warp(4), warp(0)});
  const auto j = run(trace, "", "icache_mshr");
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(smx0(j, "icache_misses"), 3);
  EXPECT_EQ(smx0(j, "icache_merged"), 1);
  EXPECT_EQ(smx0(j, "icache_reservation_fails"), 1);
  EXPECT_EQ(smx0(j, "icache_hits"), 8);
  EXPECT_EQ(smx0(j, "icache_accesses"), 8 + 3 + 1 + 1);
}

TEST(instruction_cache, slumber_puts_a_register_whose_next_use_misses_l1i_in_deep_sleep) {
  // R1 is written (i0), read (i1), and read again at i24, on line 3, which is not fetched
  // yet. Rule (c): after i1's read R1 goes to DS, its counter waking it to SS by the
  // predicted fetch from L2 (l2_latency 100 here) less SS... less DS's own 13-cycle wake-up:
  // 100 - 13 = 87 cycles in DS. Its next use lies three cold lines away (hundreds of cycles),
  // so the counter fires first. Nothing else is ever in DS. With the fetch always hitting,
  // rule (c) never applies.
  std::vector<std::string> code = {"0000 ffffffff 1 R1 MOV 0 0",
                                   "0010 ffffffff 0 ISETP.GE.AND 1 R1 0"};
  for (std::uint32_t i = 2; i < 24; ++i) code.push_back(hex_pc(i * 16) + " ffffffff 0 NOP 0 0");
  code.push_back(hex_pc(24 * 16) + " ffffffff 0 ISETP.GE.AND 1 R1 0");
  code.push_back(hex_pc(25 * 16) + " ffffffff 0 EXIT 0 0");
  const std::string trace = one_tb(fresh_dir("icache_slumber"), {code});
  const std::string with =
      "--with " GPUTLM_SOURCE_DIR "/yaml/mechanisms/slumber.yaml --set smx.slumber.l2_latency=100";
  const auto j = run(trace, with, "icache_slumber");
  ASSERT_FALSE(j.empty());
  const auto& u = j["blocks"]["gpu.smx[0].slumber"];
  EXPECT_EQ(u["fetch_miss_sleeps"].get<double>(), 1);
  EXPECT_EQ(u["idle_ds_cycles"].get<double>(), 100 - 13);
  const auto p = run(trace, with + " --set gpu.smx.icache_perfect=true", "icache_slumber_perfect");
  ASSERT_FALSE(p.empty());
  const auto& q = p["blocks"]["gpu.smx[0].slumber"];
  EXPECT_EQ(q["fetch_miss_sleeps"].get<double>(), 0);
  EXPECT_EQ(q["idle_ds_cycles"].get<double>(), 0);
}

}  // namespace test_instruction_cache
