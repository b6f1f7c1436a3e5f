// Coalescing and shared-memory bank conflicts against counts worked out here: distinct
// 128 B lines (per sub-warp on Fermi/Kepler) and distinct words per bank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "models/core/coalescer.h"

namespace test_coalescer {

using namespace gputlm::core;

namespace {
std::vector<std::uint64_t> strided(std::uint64_t base, std::uint64_t stride) {
  std::vector<std::uint64_t> a;
  for (std::uint64_t lane = 0; lane < 32; ++lane) a.push_back(base + lane * stride);
  return a;
}
// Draws for the reference tests (Knuth's MMIX LCG, high bits).
struct lcg {
  std::uint64_t x;
  std::uint64_t operator()() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  }
};
std::size_t requests(std::uint32_t arch, const std::vector<std::uint64_t>& a, std::uint32_t size,
                     std::uint32_t mask = 0xffffffffu) {
  std::vector<coalesced_request> out;
  coalesce(arch, mask, a.data(), size, out);
  return out.size();
}
}  // namespace

TEST(coalescer, stride_one_is_one_line) {
  auto a = strided(0x10000, 4);  // 32 x 4 B = 128 B, line aligned
  for (std::uint32_t arch : {20u, 35u, 60u, 61u, 70u}) EXPECT_EQ(requests(arch, a, 4), 1u) << arch;
  std::vector<coalesced_request> out;
  coalesce(70, 0xffffffffu, a.data(), 4, out);
  EXPECT_EQ(out[0].line_address, 0x10000u);
  EXPECT_EQ(out[0].sector_mask, 0xfu);
  EXPECT_EQ(out[0].lane_mask, 0xffffffffu);
  EXPECT_EQ(out[0].bytes, 128u);
}

TEST(coalescer, stride_two_is_two_lines) {
  auto a = strided(0x10000, 8);  // 32 x 8 B apart = 256 B = 2 lines
  EXPECT_EQ(requests(70, a, 4), 2u);
  EXPECT_EQ(requests(20, a, 4), 2u);
}

TEST(coalescer, misaligned_stride_one_touches_two_lines_and_five_sectors) {
  auto a = strided(0x10000 + 32, 4);  // bytes 32..159: sectors 1,2,3 of line 0 and 0 of line 1
  std::vector<coalesced_request> out;
  coalesce(70, 0xffffffffu, a.data(), 4, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].sector_mask, 0xeu);
  EXPECT_EQ(out[1].sector_mask, 0x1u);
  EXPECT_EQ(out[1].lane_mask, 0xff000000u);  // lanes 24..31 reach into the second line
}

TEST(coalescer, random_addresses_give_distinct_lines) {
  std::uint64_t x = 12345;
  std::vector<std::uint64_t> a;
  for (int lane = 0; lane < 32; ++lane) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    a.push_back(0x7f0000000000ull + ((x >> 20) % (1 << 20)) * 4);
  }
  std::set<std::uint64_t> lines;
  for (auto v : a) lines.insert(v / 128);
  EXPECT_EQ(requests(70, a, 4), lines.size());
  EXPECT_EQ(requests(20, a, 4), lines.size());  // 4 B accesses: one 32-lane sub-warp
}

TEST(coalescer, fermi_splits_wide_accesses_into_subwarps) {
  // Every lane reads the same 8 B: one line, but Fermi/Kepler process 8 B accesses in
  // two 16-lane sub-warps, each making its own request; Pascal/Volta merge the warp.
  std::vector<std::uint64_t> same(32, 0x20000);
  EXPECT_EQ(requests(20, same, 8), 2u);
  EXPECT_EQ(requests(35, same, 16), 4u);  // 16 B: four 8-lane sub-warps
  EXPECT_EQ(requests(70, same, 8), 1u);
  // 16 B stride-one: 512 B = 4 lines; each 8-lane sub-warp covers exactly one line.
  auto wide = strided(0x40000, 16);
  EXPECT_EQ(requests(20, wide, 16), 4u);
  EXPECT_EQ(requests(70, wide, 16), 4u);
}

TEST(coalescer, inactive_lanes_make_no_requests) {
  // Addresses are listed for active lanes only (the trace format).
  std::vector<std::uint64_t> a{0x1000, 0x9000};
  EXPECT_EQ(requests(70, a, 4, 0x00010001u), 2u);
  EXPECT_EQ(requests(70, {}, 4, 0u), 0u);
}

TEST(shared_memory, bank_conflicts) {
  // 32 banks x 4 B: stride-1 words hit 32 banks once each.
  EXPECT_EQ(shared_memory_cycles(0xffffffffu, strided(0, 4).data(), 4, 32), 1u);
  // stride 2 words: banks 0,2,..,30 each twice.
  EXPECT_EQ(shared_memory_cycles(0xffffffffu, strided(0, 8).data(), 4, 32), 2u);
  // stride 32 words: all lanes in bank 0, distinct words.
  EXPECT_EQ(shared_memory_cycles(0xffffffffu, strided(0, 128).data(), 4, 32), 32u);
  // all lanes the same word: broadcast.
  std::vector<std::uint64_t> same(32, 0x40);
  EXPECT_EQ(shared_memory_cycles(0xffffffffu, same.data(), 4, 32), 1u);
  // 8 B per lane, stride 8 B: 64 words over 32 banks, 2 per bank.
  EXPECT_EQ(shared_memory_cycles(0xffffffffu, strided(0, 8).data(), 8, 32), 2u);
}

// A reference written from the rule, byte by byte: for each sub-warp, the segments (lines,
// or sectors on Pascal/Volta) its active lanes touch in order of first touch, each with the sectors and lanes touching it. The
// unit-stride trials also go through coalesce_contiguous (the strided form's entry).
TEST(coalescer, matches_a_byte_by_byte_reference_on_mixed_patterns) {
  lcg rnd{99};
  for (int trial = 0; trial < 3000; ++trial) {
    const std::uint32_t arch = trial / 4 % 2 ? 70 : 20;  // (unit-stride trials on both too)
    const std::uint32_t size = 1u << (rnd() % 5);  // 1..16 B
    // Every fourth trial a unit-stride access (full warp, lane i at base + i * size) from a
    // random, possibly unaligned, base; the others strided, jittered or scattered.
    const bool unit = trial % 4 == 1;
    std::uint32_t mask = unit || trial % 3 ? 0xffffffffu : static_cast<std::uint32_t>(rnd());
    std::vector<std::uint64_t> a;
    const std::uint64_t base = 0x10000 + (rnd() % 64) * 4096 + (unit ? rnd() % 256 : 0);
    const std::uint64_t stride = rnd() % 4 == 0 ? rnd() % 300 : size * (1 + rnd() % 3);
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1)
        a.push_back(unit               ? base + lane * size
                    : rnd() % 5 == 0 ? base + rnd() % 2048
                                     : base + lane * stride + rnd() % 3);
    // Both request sizes: a line (Fermi's rule) and a sector (Pascal's and Volta's).
    for (const std::uint32_t seg : {128u, 32u}) {
      std::vector<coalesced_request> got;
      coalesce(arch, mask, a.data(), size, got, seg);

      const std::uint32_t subwarp = arch < 60 ? (size <= 4 ? 32 : size == 8 ? 16 : 8) : 32;
      std::vector<coalesced_request> want;
      std::vector<std::uint64_t> want_seg;  // each request's segment address
      std::size_t index = 0, group_begin = 0;
      for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (lane % subwarp == 0) group_begin = want.size();
        if (!(mask >> lane & 1)) continue;
        const std::uint64_t addr = a[index++];
        for (std::uint64_t b = addr; b < addr + size; ++b) {
          const std::uint64_t line = b / 128 * 128, segment = b / seg * seg;
          std::size_t k = group_begin;
          while (k < want.size() && want_seg[k] != segment) ++k;
          if (k == want.size()) {
            want.push_back({line, 0, 0, 0});
            want_seg.push_back(segment);
          }
          want[k].sector_mask |= static_cast<std::uint8_t>(1u << ((b - line) / 32));
          want[k].lane_mask |= 1u << lane;
        }
      }
      auto expect_want = [&](const std::vector<coalesced_request>& out, const char* how) {
        ASSERT_EQ(out.size(), want.size()) << how << " trial " << trial << " segment " << seg;
        for (std::size_t k = 0; k < want.size(); ++k) {
          EXPECT_EQ(out[k].line_address, want[k].line_address) << how << " trial " << trial;
          EXPECT_EQ(out[k].sector_mask, want[k].sector_mask) << how << " trial " << trial;
          EXPECT_EQ(out[k].lane_mask, want[k].lane_mask) << how << " trial " << trial;
          EXPECT_EQ(out[k].bytes,
                    32u * static_cast<std::uint32_t>(__builtin_popcount(want[k].sector_mask)));
        }
      };
      expect_want(got, "lanes");
      // A unit-stride access as the trace's strided form gives it (base and size only).
      if (unit) {
        std::vector<coalesced_request> direct;
        coalesce_contiguous(arch, base, size, direct, seg);
        expect_want(direct, "strided form");
      }
    }
  }
}

// A warp's 4-byte load on 1, 2 or 4 sectors of one line, and on two lines (worked by hand):
// Pascal's and Volta's coalescer makes one request per sector, Fermi's one per line.
TEST(coalescer, sector_requests_on_pascal_and_volta_line_requests_on_fermi) {
  EXPECT_EQ(default_segment(20), 128u);
  EXPECT_EQ(default_segment(35), 128u);
  for (std::uint32_t arch : {60u, 61u, 70u}) EXPECT_EQ(default_segment(arch), 32u);
  struct pattern {
    const char* what;
    std::vector<std::uint64_t> lanes;
    std::size_t sectors, lines;
  };
  std::vector<pattern> cases;
  cases.push_back({"one word, broadcast", std::vector<std::uint64_t>(32, 0x20004), 1, 1});
  cases.push_back({"two sectors", {}, 2, 1});  // lanes 0-15 in sector 0, 16-31 in sector 2
  for (std::uint64_t l = 0; l < 32; ++l)
    cases.back().lanes.push_back(0x20000 + (l < 16 ? 0 : 64) + l % 8 * 4);
  cases.push_back({"four sectors", strided(0x20000, 4), 4, 1});
  cases.push_back({"two lines", strided(0x20000, 8), 8, 2});
  for (const pattern& p : cases) {
    std::vector<coalesced_request> out;
    for (std::uint32_t arch : {60u, 61u, 70u}) {
      coalesce(arch, 0xffffffffu, p.lanes.data(), 4, out, default_segment(arch));
      EXPECT_EQ(out.size(), p.sectors) << p.what << " arch " << arch;
      std::uint32_t lanes = 0;
      for (const coalesced_request& r : out) {
        EXPECT_EQ(__builtin_popcount(r.sector_mask), 1) << p.what;
        EXPECT_EQ(r.bytes, 32u) << p.what;
        EXPECT_EQ(lanes & r.lane_mask, 0u) << p.what;  // each lane in one request (4 B aligned)
        lanes |= r.lane_mask;
      }
      EXPECT_EQ(lanes, 0xffffffffu) << p.what;
    }
    coalesce(20, 0xffffffffu, p.lanes.data(), 4, out, default_segment(20));
    EXPECT_EQ(out.size(), p.lines) << p.what << " Fermi";
  }
}

// Shared-memory cycles against a reference written from the rule (the most distinct
// 4-byte words any bank must serve), on aligned accesses of mixed patterns: broadcast,
// unit stride, strides, a few lanes apart, scattered, partial masks; 32 and 48 banks.
TEST(shared_memory, matches_a_distinct_words_per_bank_reference) {
  lcg rnd{7};
  for (int trial = 0; trial < 4000; ++trial) {
    const std::uint32_t size = trial % 5 == 4 ? 8 : 4;
    const std::uint32_t banks = trial % 7 == 3 ? 48 : 32;
    const std::uint32_t mask = trial % 3 == 2 ? static_cast<std::uint32_t>(rnd()) : 0xffffffffu;
    const std::uint64_t base = (rnd() % 1024) * size;
    const int pattern = static_cast<int>(rnd() % 5);
    std::vector<std::uint64_t> a;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      if (!(mask >> lane & 1)) continue;
      std::uint64_t addr = base;
      if (pattern == 1) addr = base + lane * size;                       // unit stride
      if (pattern == 2) addr = base + lane * size * (1 + rnd() % 4);     // strided
      if (pattern == 3) addr = base + (lane / 4) * size;                 // groups share
      if (pattern == 4) addr = (rnd() % 512) * size;                     // scattered
      a.push_back(addr);
    }
    std::vector<std::set<std::uint64_t>> words(banks);
    for (std::uint64_t addr : a)
      for (std::uint64_t w = addr / 4; w <= (addr + size - 1) / 4; ++w) words[w % banks].insert(w);
    std::size_t want = 0;
    for (const auto& b : words) want = std::max(want, b.size());
    EXPECT_EQ(shared_memory_cycles(mask, a.data(), size, banks), want)
        << "trial " << trial << " pattern " << pattern << " banks " << banks;
  }
}

// Global atomics: one request per 32 B sector and per group of lanes with no byte in common
// (GPGPU-Sim's atomic rule with trace-mode CACHE_GLOBAL), on every architecture alike.
namespace {
std::vector<coalesced_request> atomics(const std::vector<std::uint64_t>& a, std::uint32_t size,
                                       std::uint32_t mask = 0xffffffffu) {
  std::vector<coalesced_request> out;
  coalesce_atomic(mask, a.data(), size, out);
  return out;
}
}  // namespace

TEST(coalescer, atomics_to_one_word_go_one_lane_per_request) {
  // A warp counting into one counter: 32 updates of the same 4 bytes cannot share a request.
  const std::vector<std::uint64_t> a(32, 0x2004);
  auto out = atomics(a, 4);
  ASSERT_EQ(out.size(), 32u);
  for (std::uint32_t k = 0; k < 32; ++k) {
    EXPECT_EQ(out[k].line_address, 0x2000u);
    EXPECT_EQ(out[k].sector_mask, 0x1u);
    EXPECT_EQ(out[k].lane_mask, 1u << k) << k;  // in the order the lanes opened them
    EXPECT_EQ(out[k].bytes, 32u);
  }
}

TEST(coalescer, unit_stride_atomics_make_one_request_per_sector) {
  // 32 x 4 B over one 128 B line: 4 sectors of 8 lanes (a load of the same addresses makes
  // one request for the line).
  auto out = atomics(strided(0x10000, 4), 4);
  ASSERT_EQ(out.size(), 4u);
  for (std::uint32_t s = 0; s < 4; ++s) {
    EXPECT_EQ(out[s].line_address, 0x10000u);
    EXPECT_EQ(out[s].sector_mask, 1u << s);
    EXPECT_EQ(out[s].lane_mask, 0xffu << (8 * s));
  }
  EXPECT_EQ(requests(70, strided(0x10000, 4), 4), 1u);
}

TEST(coalescer, atomics_sharing_words_split_into_as_many_requests_as_the_busiest_word) {
  // Lane i updates word i / 2: 16 words over 64 B (sectors 0 and 1), each word twice, so each
  // sector needs two requests: the even lanes, then the odd ones.
  std::vector<std::uint64_t> a;
  for (std::uint64_t lane = 0; lane < 32; ++lane) a.push_back(0x8000 + lane / 2 * 4);
  auto out = atomics(a, 4);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].sector_mask, 0x1u);
  EXPECT_EQ(out[0].lane_mask, 0x00005555u);
  EXPECT_EQ(out[1].sector_mask, 0x1u);
  EXPECT_EQ(out[1].lane_mask, 0x0000aaaau);
  EXPECT_EQ(out[2].sector_mask, 0x2u);
  EXPECT_EQ(out[2].lane_mask, 0x55550000u);
  EXPECT_EQ(out[3].lane_mask, 0xaaaa0000u);
  // 8-byte atomics at a 4-byte stride overlap their neighbours: lane i and i+1 share bytes,
  // lane i and i+2 do not. 32 lanes over bytes 0..131: sector 0 holds lanes 0..7 (lane 7
  // reaches byte 35 of sector 1 too), and so on; every sector needs two requests.
  auto wide = atomics(strided(0x8000, 4), 8);
  std::size_t per_sector[5] = {};
  for (const auto& r : wide)
    ++per_sector[(r.line_address - 0x8000) / 32 + std::size_t(__builtin_ctz(r.sector_mask))];
  EXPECT_EQ(per_sector[0], 2u);
  EXPECT_EQ(per_sector[3], 2u);
  EXPECT_EQ(per_sector[4], 1u);  // only lane 31's last 4 bytes (128..131)
  EXPECT_EQ(wide.size(), 9u);
}

TEST(coalescer, atomics_skip_inactive_lanes_and_come_out_by_address) {
  // Lanes 3 and 9 active, lane 3 at the higher address: requests by address, not lane.
  std::vector<std::uint64_t> a = {0x4060, 0x4000};  // one address per active lane
  auto out = atomics(a, 4, (1u << 3) | (1u << 9));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].sector_mask, 0x1u);
  EXPECT_EQ(out[0].lane_mask, 1u << 9);
  EXPECT_EQ(out[1].sector_mask, 0x8u);
  EXPECT_EQ(out[1].lane_mask, 1u << 3);
  EXPECT_TRUE(atomics({}, 4, 0).empty());
}

namespace {
// The reference for the two tests below: per 32 B sector, a list of transactions with a
// 32-entry byte array each. Lanes in order, each sector piece of a lane placed separately,
// in the first transaction of its sector with all its bytes free; then by sector (stable).
struct reference_request {
  std::uint64_t sector;
  std::uint32_t lanes;
};
std::vector<reference_request> reference_atomics(const std::vector<std::uint64_t>& a,
                                                 std::uint32_t size, std::uint32_t mask) {
  struct txn {
    std::uint64_t sector;
    bool byte[32];
    std::uint32_t lanes;
  };
  std::vector<txn> ref;
  std::size_t i = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1)) continue;
    const std::uint64_t first = a[i++], last = first + size - 1;
    for (std::uint64_t sector = first / 32 * 32; sector <= last; sector += 32) {
      const std::uint64_t lo = std::max(first, sector), hi = std::min(last, sector + 31);
      txn* t = nullptr;
      for (txn& x : ref) {
        if (x.sector != sector) continue;
        bool free = true;
        for (std::uint64_t b = lo; b <= hi; ++b) free = free && !x.byte[b - sector];
        if (free) {
          t = &x;
          break;
        }
      }
      if (!t) {
        ref.push_back(txn{sector, {}, 0});
        t = &ref.back();
      }
      for (std::uint64_t b = lo; b <= hi; ++b) t->byte[b - sector] = true;
      t->lanes |= 1u << lane;
    }
  }
  std::stable_sort(ref.begin(), ref.end(),
                   [](const txn& x, const txn& y) { return x.sector < y.sector; });
  std::vector<reference_request> out;
  for (const txn& t : ref) out.push_back({t.sector, t.lanes});
  return out;
}

// coalesce_atomic's requests against the reference, one sector each; returns them.
std::vector<coalesced_request> expect_reference_atomics(const std::vector<std::uint64_t>& a,
                                                        std::uint32_t size, std::uint32_t mask,
                                                        const std::string& context) {
  const auto ref = reference_atomics(a, size, mask);
  auto out = atomics(a, size, mask);
  EXPECT_EQ(out.size(), ref.size()) << context;
  if (out.size() != ref.size()) return out;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    EXPECT_EQ(out[k].line_address + 32 * std::uint64_t(__builtin_ctz(out[k].sector_mask)),
              ref[k].sector)
        << context << " " << k;
    EXPECT_EQ(out[k].lane_mask, ref[k].lanes) << context << " " << k;
  }
  return out;
}
}  // namespace

TEST(coalescer, atomics_match_a_byte_by_byte_reference) {
  // Histogram-like scattered updates: each lane picks one of `bins` 4 B counters (few bins:
  // many collisions).
  lcg rnd{7};
  for (std::uint32_t bins : {1u, 3u, 8u, 64u, 256u, 4096u}) {
    for (int trial = 0; trial < 50; ++trial) {
      const std::uint32_t mask = trial % 5 == 0 ? static_cast<std::uint32_t>(rnd()) : 0xffffffffu;
      std::vector<std::uint64_t> a;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (mask >> lane & 1) a.push_back(0x100000 + 4 * (rnd() % bins));
      const std::string context = std::to_string(bins) + " " + std::to_string(trial);
      for (const coalesced_request& r : expect_reference_atomics(a, 4, mask, context))
        EXPECT_EQ(r.bytes, 32u) << context;
    }
  }
}

TEST(coalescer, wide_and_misaligned_atomics_match_a_byte_by_byte_reference) {
  // Any access size (1 B to the trace format's 255 B) at any byte address: a lane may touch
  // several sectors, and joins, in each, the first transaction with all its bytes there
  // free.
  lcg rnd{11};
  for (std::uint32_t size : {1u, 2u, 8u, 12u, 16u, 33u, 64u, 255u}) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::uint32_t mask = trial % 4 == 0 ? static_cast<std::uint32_t>(rnd()) : 0xffffffffu;
      const std::uint64_t span = trial % 2 ? 64 : 1024;  // crowded or spread
      std::vector<std::uint64_t> a;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        if (mask >> lane & 1) a.push_back(0x200000 + rnd() % span);
      expect_reference_atomics(a, size, mask, std::to_string(size) + " " + std::to_string(trial));
    }
  }
}

}  // namespace test_coalescer
