// The pure logic of the memory blocks, without SystemC: set-index hashing, the cache policy
// core against a plain reference model written here, MSHR merging and reservation fails,
// sectored fills, the GPGPU-Sim address map and the DRAM command scheduler's timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "models/memory/access_breakdown.h"
#include "models/memory/address_decoder.h"
#include "models/memory/cache_config.h"
#include "models/memory/cache_logic.h"
#include "models/memory/dram_chooser.h"
#include "models/memory/dram_engine.h"
#include "models/memory/sectors.h"
#include "models/memory/set_index.h"

namespace test_memory_logic {

using namespace gputlm::memory;

// ---- set-index functions --------------------------------------------------------------

TEST(set_index, linear_takes_the_bits_above_the_line) {
  EXPECT_EQ(set_index(index_function::linear, 0x0, 32, 7), 0u);
  EXPECT_EQ(set_index(index_function::linear, 0x80, 32, 7), 1u);
  EXPECT_EQ(set_index(index_function::linear, 31 * 128 + 5, 32, 7), 31u);
  EXPECT_EQ(set_index(index_function::linear, 32 * 128, 32, 7), 0u);
}

TEST(set_index, fermi_hash_by_hand) {
  // Bits 7..11 XOR (13, 14, 15, 17, 19); for 64 sets bit 12 on top.
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x80, 32, 7), 1u);      // bit 7
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x2000, 32, 7), 1u);    // bit 13 -> 0
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x2080, 32, 7), 0u);    // cancel
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x20000, 32, 7), 8u);   // bit 17 -> 3
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x80000, 32, 7), 16u);  // bit 19 -> 4
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x1000, 64, 7), 32u);   // bit 12 -> 5
  EXPECT_EQ(set_index(index_function::fermi_hash, 0x1000, 32, 7), 0u);
}

namespace {
// Reference: GF(2) long division of the 64-bit value by x^4+x+1, x^5+x^2+1 or x^6+x+1.
std::uint32_t gf2_remainder(std::uint64_t v, unsigned degree) {
  const std::uint64_t poly = degree == 4 ? 0x13 : degree == 5 ? 0x25 : 0x43;
  for (unsigned bit = 63; bit >= degree; --bit)
    if (v >> bit & 1) v ^= poly << (bit - degree);
  return static_cast<std::uint32_t>(v);
}
}  // namespace

TEST(set_index, ipoly_is_the_remainder_modulo_the_irreducible_polynomial) {
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    for (unsigned degree = 4; degree <= 6; ++degree)
      ASSERT_EQ(ipoly_hash(x, 1u << degree), gf2_remainder(x, degree)) << std::hex << x;
  }
  EXPECT_EQ(ipoly_hash(0x10, 16), 0x3u);  // x^4 = x + 1
  EXPECT_EQ(ipoly_hash(0x40, 64), 0x3u);  // x^6 = x + 1
}

// The hasher that remembers the hash of the bits above the low 16 gives the same remainder,
// whether those bits stay (runs of nearby values) or change (including back to zero).
TEST(set_index, ipoly_hasher_matches_the_remainder) {
  for (std::uint32_t size : {8u, 16u, 32u, 64u, 128u}) {
    const ipoly_hasher h(size);
    const unsigned degree = size == 16 ? 4 : size == 32 ? 5 : 6;
    const bool ipoly = size >= 16 && size <= 64;  // else the low bits, as ipoly_hash
    std::uint64_t x = 0x2545f4914f6cdd1dULL;
    for (int i = 0; i < 3000; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      // Mostly small steps within 64 KiB, now and then a jump or a value below 2^16.
      const std::uint64_t v = i % 7 == 0    ? x
                              : i % 11 == 0 ? (x & 0xffff)
                                            : (x & ~0xffffULL) | (i * 128 & 0xffff);
      const std::uint32_t want = ipoly ? gf2_remainder(v, degree) : std::uint32_t(v & (size - 1));
      ASSERT_EQ(h(v), want) << "size " << size << " value " << std::hex << v;
    }
  }
}

TEST(set_index, ipoly_spreads_a_power_of_two_stride_over_every_set) {
  for (std::uint32_t sets : {16u, 32u, 64u}) {
    std::set<std::uint32_t> linear, ipoly;
    for (std::uint64_t i = 0; i < sets; ++i) {
      const std::uint64_t addr = i * sets * 128;  // same linear set every time
      linear.insert(set_index(index_function::linear, addr, sets, 7));
      ipoly.insert(set_index(index_function::ipoly, addr, sets, 7));
    }
    EXPECT_EQ(linear.size(), 1u);
    EXPECT_EQ(ipoly.size(), sets) << sets;
  }
}

TEST(set_index, xor_folds_the_next_bits) {
  // 32 sets: block 0b00001_00011 -> 3 ^ 1 = 2
  EXPECT_EQ(set_index(index_function::xor_fold, ((1u << 5) | 3u) * 128, 32, 7), 2u);
}

// ---- the cache policy core against a reference model -----------------------------------

namespace {
// A plain set-associative cache with LRU or FIFO replacement and whole-line accesses:
// the reference the policy core is checked against.
struct reference_cache {
  struct line {
    std::uint64_t addr;
    bool dirty;
    std::uint64_t used, filled;
  };
  struct outcome {
    bool hit = false, fetch = false, forward = false, writeback = false;
    std::uint64_t wb_addr = 0;
  };
  std::uint32_t sets, ways, line_size;
  bool fifo;
  write_policy wp;
  write_alloc wa;
  std::vector<std::vector<line>> data;
  std::uint64_t clock = 0;

  reference_cache(std::uint32_t s, std::uint32_t w, bool f, write_policy p, write_alloc a)
      : sets(s), ways(w), line_size(128), fifo(f), wp(p), wa(a), data(s) {}

  std::vector<line>& set_of(std::uint64_t a) { return data[(a / line_size) % sets]; }
  line* find(std::uint64_t a) {
    for (line& l : set_of(a))
      if (l.addr == a) return &l;
    return nullptr;
  }
  void insert(std::uint64_t a, bool dirty, outcome& o) {
    auto& s = set_of(a);
    if (s.size() == ways) {
      auto victim = std::min_element(s.begin(), s.end(), [&](const line& x, const line& y) {
        return fifo ? x.filled < y.filled : x.used < y.used;
      });
      if (victim->dirty) {
        o.writeback = true;
        o.wb_addr = victim->addr;
      }
      s.erase(victim);
    }
    ++clock;
    s.push_back({a, dirty, clock, clock});
  }
  outcome read(std::uint64_t a) {
    outcome o;
    if (line* l = find(a)) {
      l->used = ++clock;
      o.hit = true;
      return o;
    }
    o.fetch = true;
    insert(a, false, o);
    return o;
  }
  outcome write(std::uint64_t a, bool local) {
    outcome o;
    write_policy p = wp;
    if (p == write_policy::local_wb_global_evict)
      p = local ? write_policy::write_back : write_policy::write_evict;
    line* l = find(a);
    o.hit = l != nullptr;
    switch (p) {
      case write_policy::write_evict: {
        auto& s = set_of(a);
        if (l) s.erase(s.begin() + (l - s.data()));
        o.forward = true;
        break;
      }
      case write_policy::write_through:
        o.forward = true;
        if (l)
          l->used = ++clock;
        else if (wa != write_alloc::none)
          insert(a, false, o);
        break;
      case write_policy::write_back:
        if (l) {
          l->used = ++clock;
          l->dirty = true;
        } else if (wa == write_alloc::none) {
          o.forward = true;
        } else {
          insert(a, true, o);
        }
        break;
      default:
        o.forward = true;
    }
    return o;
  }
};

struct policy_case {
  write_policy wp;
  write_alloc wa;
  alloc_policy ap;
  bool fifo;
};

void compare_with_reference(const policy_case& pc, unsigned seed) {
  cache_geometry g;
  g.sets = 4;
  g.ways = 2;
  g.line_size = 128;
  g.fifo = pc.fifo;
  g.write = pc.wp;
  g.wr_alloc = pc.wa;
  g.alloc = pc.ap;
  g.mshr_entries = 4;
  g.mshr_merge = 4;
  cache_logic dut(g);
  reference_cache ref(4, 2, pc.fifo, pc.wp, pc.wa);
  std::mt19937 rng(seed);
  std::vector<mshr_table::slot> ready;
  int hits = 0, misses = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::uint64_t a = (rng() % 24) * 128;
    const bool write = rng() % 3 == 0;
    const bool local = rng() % 2 == 0;
    access_request req;
    req.addr = a;
    req.sectors = 0xf;
    req.write = write;
    req.local = local;
    req.miss_queue_free = 8;
    const access_result r = dut.access(req);
    const reference_cache::outcome o = write ? ref.write(a, local) : ref.read(a);
    ASSERT_NE(r.kind, access_result::fail) << "op " << i;
    if (write) {
      EXPECT_EQ(r.forward_write, o.forward) << "op " << i;
      EXPECT_EQ(!r.line_miss, o.hit) << "op " << i;
    } else {
      EXPECT_EQ(r.kind == access_result::hit, o.hit) << "op " << i;
      EXPECT_EQ(r.kind == access_result::miss, o.fetch) << "op " << i;
      (o.hit ? hits : misses)++;
    }
    bool wb = r.writeback;
    std::uint64_t wb_line = r.wb_line;
    if (r.kind == access_result::miss) {  // serialised: the fill comes back at once
      EXPECT_EQ(r.fetch, 0xf);
      fill_result f = dut.fill(r.mshr, r.fetch, ready);
      EXPECT_TRUE(f.complete);
      ASSERT_EQ(ready.size(), 1u);
      ready.clear();
      if (f.writeback) {
        wb = true;
        wb_line = f.wb_line;
      }
    }
    EXPECT_EQ(wb, o.writeback) << "op " << i;
    if (wb && o.writeback) {
      EXPECT_EQ(wb_line, o.wb_addr) << "op " << i;
    }
  }
  EXPECT_GT(hits, 100);
  EXPECT_GT(misses, 100);
  EXPECT_EQ(dut.mshr().used(), 0u);
}
}  // namespace

TEST(cache_logic, hand_worked_lru_sequence) {
  // One set, two ways, LRU: A B A C B -> miss miss hit miss(evicts B) miss(evicts A).
  cache_geometry g;
  g.sets = 1;
  g.ways = 2;
  cache_logic c(g);
  std::vector<mshr_table::slot> ready;
  const std::uint64_t A = 0, B = 128, C = 256;
  std::vector<bool> hit;
  for (std::uint64_t a : {A, B, A, C, B}) {
    access_request r;
    r.addr = a;
    r.miss_queue_free = 4;
    access_result res = c.access(r);
    hit.push_back(res.kind == access_result::hit);
    if (res.kind == access_result::miss) c.fill(res.mshr, res.fetch, ready);
  }
  EXPECT_EQ(hit, (std::vector<bool>{false, false, true, false, false}));
  EXPECT_TRUE(c.probe(C, 0xf));
  EXPECT_TRUE(c.probe(B, 0xf));
  EXPECT_FALSE(c.probe(A, 0xf));
}

TEST(cache_logic, hand_worked_fifo_sequence) {
  // One set, two ways, FIFO: A B A C -> C replaces A (first in) although A was used last.
  cache_geometry g;
  g.sets = 1;
  g.ways = 2;
  g.fifo = true;
  cache_logic c(g);
  std::vector<mshr_table::slot> ready;
  for (std::uint64_t a : {0, 128, 0, 256}) {
    access_request r;
    r.addr = a;
    r.miss_queue_free = 4;
    access_result res = c.access(r);
    if (res.kind == access_result::miss) c.fill(res.mshr, res.fetch, ready);
  }
  EXPECT_FALSE(c.probe(0, 0xf));
  EXPECT_TRUE(c.probe(128, 0xf));
}

TEST(cache_logic, write_back_lazy_allocate_writes_back_dirty_victims) {
  // One set, one way: store A (allocate dirty, no fetch), load B (evicts A: write-back).
  cache_geometry g;
  g.sets = 1;
  g.ways = 1;
  g.write = write_policy::write_back;
  g.wr_alloc = write_alloc::lazy_fetch_on_read;
  cache_logic c(g);
  access_request w;
  w.addr = 0;
  w.write = true;
  w.sectors = 0x1;
  w.miss_queue_free = 4;
  access_result r = c.access(w);
  EXPECT_EQ(r.kind, access_result::write_done);
  EXPECT_FALSE(r.forward_write);
  const cache_line& l = c.tags().at(c.tags().lookup(0));
  EXPECT_EQ(l.valid, 0x1);
  EXPECT_EQ(l.dirty, 0x1);
  access_request rd;
  rd.addr = 0;
  rd.sectors = 0x3;
  rd.miss_queue_free = 4;
  r = c.access(rd);
  // Unsectored cache: the whole line is wanted, the missing sectors are fetched.
  EXPECT_EQ(r.kind, access_result::miss);
  EXPECT_EQ(r.fetch, 0xe);
  std::vector<mshr_table::slot> ready;
  c.fill(r.mshr, r.fetch, ready);
  rd.addr = 128;
  r = c.access(rd);
  EXPECT_EQ(r.kind, access_result::miss);
  EXPECT_TRUE(r.writeback);
  EXPECT_EQ(r.wb_line, 0u);
  EXPECT_EQ(r.wb_sectors, 0x1);
}

TEST(cache_logic, every_write_and_allocation_policy_matches_the_reference) {
  const std::vector<policy_case> cases = {
      {write_policy::write_evict, write_alloc::none, alloc_policy::on_miss, false},
      {write_policy::write_evict, write_alloc::none, alloc_policy::on_fill, true},
      {write_policy::local_wb_global_evict, write_alloc::none, alloc_policy::on_miss, false},
      {write_policy::local_wb_global_evict, write_alloc::none, alloc_policy::streaming, false},
      {write_policy::write_through, write_alloc::none, alloc_policy::on_miss, false},
      {write_policy::write_through, write_alloc::lazy_fetch_on_read, alloc_policy::on_miss, true},
      {write_policy::write_through, write_alloc::none, alloc_policy::streaming, false},
      {write_policy::write_back, write_alloc::none, alloc_policy::on_miss, false},
      {write_policy::write_back, write_alloc::lazy_fetch_on_read, alloc_policy::on_miss, false},
      {write_policy::write_back, write_alloc::naive, alloc_policy::on_miss, true},
  };
  unsigned seed = 1;
  for (const policy_case& pc : cases) {
    SCOPED_TRACE(testing::Message() << "policy " << int(pc.wp) << " wa " << int(pc.wa) << " alloc "
                                    << int(pc.ap) << " fifo " << pc.fifo);
    compare_with_reference(pc, seed++);
  }
}

// The tag array's search state (address fingerprints, an order list per set, bitmasks of
// empty and reserved ways) against a plain scan of every way: lookup finds the first way
// holding the line; the victim is the first empty way, else the unreserved line of least
// stamp (use stamp for LRU, fill stamp for FIFO). Random installs, touches, reservations,
// clears and invalidations, on geometries with one and with several mask words per set,
// below and above the eight-way compare step, and with lines whose fingerprints collide.
TEST(tag_array, lookup_and_victim_match_a_scan_of_every_way) {
  struct ref_line {
    bool allocated = false, reserved = false;
    std::uint64_t line = 0, used = 0, filled = 0;
    bool dirty = false;
  };
  // Without a dirty-line cap, and with one of 30 % (dirty lines pass as victims only once
  // 30 % of the 4 x ways lines are dirty).
  for (std::uint32_t cap : {0u, 30u})
    for (std::uint32_t ways : {1u, 2u, 7u, 24u, 64u, 70u, 130u}) {
      for (bool fifo : {false, true}) {
        SCOPED_TRACE(testing::Message() << ways << " ways, fifo " << fifo << ", cap " << cap);
        cache_geometry g;
        g.sets = 4;
        g.ways = ways;
        g.line_size = 128;
        g.fifo = fifo;
        g.dirty_cap_percent = cap;
        tag_array dut(g);
        std::vector<ref_line> ref(std::size_t(g.sets) * ways);
        std::uint64_t clock = 0;
        std::mt19937 rng(ways * 2 + fifo + cap);
        // Line numbers x and x ^ 0x10001 share a fingerprint (x ^ x>>16 ^ ...), and so do
        // x and x ^ 0x1000000010000, in the same set (x's low two bits).
        auto pick = [&] {
          std::uint64_t x = rng() % (ways * 6 + 8);
          if (rng() % 3 == 0) x ^= 0x10001ull << 2;
          if (rng() % 5 == 0) x ^= 0x1000000010000ull << 2;
          return x * 128;
        };
        auto ref_lookup = [&](std::uint64_t line) {
          const std::size_t base = ((line / 128) % g.sets) * ways;
          for (std::size_t w = 0; w < ways; ++w)
            if (ref[base + w].allocated && ref[base + w].line == line) return int(base + w);
          return -1;
        };
        auto ref_victim = [&](std::uint32_t set) {
          const std::size_t base = std::size_t(set) * ways;
          std::size_t dirty = 0;
          for (const ref_line& l : ref) dirty += l.dirty;
          const bool dirty_ok = dirty * 100 >= cap * ref.size();
          int best = -1;
          for (std::size_t w = 0; w < ways; ++w) {
            const ref_line& l = ref[base + w];
            if (!l.allocated) return int(base + w);
            if (l.reserved || (l.dirty && !dirty_ok)) continue;
            const std::uint64_t rank = fifo ? l.filled : l.used;
            if (best < 0 || rank < (fifo ? ref[best].filled : ref[best].used)) best = int(base + w);
          }
          return best;
        };
        int reserved_victims = 0, full_sets = 0, dirty_passed = 0;
        for (int step = 0; step < 20000; ++step) {
          const std::uint64_t line = pick();
          const std::uint32_t set = dut.set_of(line);
          ASSERT_EQ(set, (line / 128) % g.sets);
          const int idx = dut.lookup(line, set);
          ASSERT_EQ(idx, ref_lookup(line)) << "step " << step;
          const int v = dut.victim(set);
          ASSERT_EQ(v, ref_victim(set)) << "step " << step;
          std::size_t dirty = 0;
          for (const ref_line& l : ref) dirty += l.dirty;
          ASSERT_EQ(dut.dirty_lines(), dirty) << "step " << step;
          if (cap != 0 && dirty * 100 < cap * ref.size()) {
            for (std::size_t w = 0; w < ways; ++w) {
              const ref_line& l = ref[std::size_t(set) * ways + w];
              dirty_passed += l.allocated && l.dirty && !l.reserved;
            }
          }
          const unsigned op = rng() % 10;
          if (idx >= 0 && op < 4) {  // a hit (a write hit in one of three makes the line dirty)
            dut.touch(idx);
            ref[idx].used = ++clock;
            if (rng() % 3 == 0) {
              dut.mark_dirty(idx, static_cast<std::uint8_t>(1 + rng() % 15));
              ref[idx].dirty = true;
            }
          } else if (idx >= 0 && op < 6) {  // a miss reserves its line until the fill
            const bool r = !ref[idx].reserved;
            dut.set_reserved(idx, r);
            ref[idx].reserved = r;
          } else if (idx >= 0 && op == 6 && !ref[idx].reserved) {
            dut.clear(idx);
            ref[idx] = ref_line{};
          } else if (idx < 0 && v >= 0 && op < 9) {
            if (ref[v].allocated) ++full_sets;
            dut.install(v, line);
            ++clock;
            ref[v] = ref_line{true, false, line, clock, clock};
            if (rng() % 2) {  // reserved at once, as a read miss does
              dut.set_reserved(v, true);
              dut.touch(v);
              ref[v].reserved = true;
              ref[v].used = ++clock;
            }
          } else if (idx < 0 && v < 0) {
            ++reserved_victims;
          }
          // An L1 flush: every unreserved line goes (at the start, of an empty array; and
          // twice in a row, the second finding nothing to clear).
          if (step == 0 || step % 997 == 996) {
            dut.invalidate_all();
            if (step % 2) dut.invalidate_all();
            for (ref_line& l : ref)
              if (!l.reserved) l = ref_line{};
          }
        }
        EXPECT_GT(full_sets, 100);  // replacements, not only empty ways
        if (ways <= 2) {
          EXPECT_GT(reserved_victims, 0);  // sets with every line reserved
        }
        if (cap != 0) {
          EXPECT_GT(dirty_passed, 0);  // dirty lines passed over below the cap
        }
      }
    }
}

TEST(cache_logic, a_dirty_line_cap_protects_dirty_lines_until_enough_are_dirty) {
  // Two sets of two ways (4 lines), write-back, LRU; A, B, C map to set 0. Load A, load B,
  // store A (a hit: A dirty), load B (a hit): set 0 holds A (least recent, dirty) and B
  // (clean), and 1 of the 4 lines is dirty: 25 %. A load of C then replaces
  //   cap 0:  A, the LRU line (any line may go): A is written back;
  //   cap 25: A too, since 1 x 100 / 4 = 25 >= 25 (GPGPU-Sim's test is >=);
  //   cap 50: B, since 25 < 50 keeps the dirty A out of the candidates: no write-back.
  // With B dirty too (store B instead of load B), 2 of 4 lines = 50 %:
  //   cap 50: A again (50 >= 50); cap 75: no candidate in set 0, the load fails (no_line).
  const std::uint64_t A = 0, B = 256, C = 512;  // line / 128 even: set 0
  auto run = [&](std::uint32_t cap, bool store_b) {
    cache_geometry g;
    g.sets = 2;
    g.ways = 2;
    g.write = write_policy::write_back;
    g.dirty_cap_percent = cap;
    auto c = std::make_unique<cache_logic>(g);
    std::vector<mshr_table::slot> ready;
    auto access = [&](std::uint64_t addr, bool write) {
      access_request r;
      r.addr = addr;
      r.write = write;
      r.miss_queue_free = 4;
      access_result res = c->access(r);
      if (res.kind == access_result::miss) c->fill(res.mshr, res.fetch, ready);
      return res;
    };
    EXPECT_EQ(access(A, false).kind, access_result::miss);
    EXPECT_EQ(access(B, false).kind, access_result::miss);
    EXPECT_EQ(access(A, true).kind, access_result::write_done);  // hit: A dirty
    EXPECT_EQ(access(B, store_b).kind, store_b ? access_result::write_done : access_result::hit);
    EXPECT_EQ(c->tags().dirty_lines(), store_b ? 2u : 1u);
    return std::make_pair(access(C, false), std::move(c));
  };
  {
    auto [r, c] = run(0, false);
    EXPECT_EQ(r.kind, access_result::miss);
    EXPECT_TRUE(r.writeback);
    EXPECT_EQ(r.wb_line, A);
    EXPECT_TRUE(c->probe(B, 0xf));
    EXPECT_EQ(c->tags().dirty_lines(), 0u);
  }
  {
    auto [r, c] = run(25, false);
    EXPECT_TRUE(r.writeback);
    EXPECT_EQ(r.wb_line, A);
  }
  {
    auto [r, c] = run(50, false);
    EXPECT_EQ(r.kind, access_result::miss);
    EXPECT_FALSE(r.writeback);
    EXPECT_FALSE(c->probe(B, 0xf));  // B replaced by C
    EXPECT_TRUE(c->probe(A, 0xf));
    EXPECT_EQ(c->tags().dirty_lines(), 1u);
  }
  {
    auto [r, c] = run(50, true);
    EXPECT_TRUE(r.writeback);
    EXPECT_EQ(r.wb_line, A);
  }
  {
    auto [r, c] = run(75, true);
    EXPECT_EQ(r.kind, access_result::fail);
    EXPECT_EQ(r.cause, fail_cause::no_line);
  }
}

TEST(cache_logic, mshr_merges_up_to_the_limit_then_fails) {
  cache_geometry g;
  g.mshr_entries = 2;
  g.mshr_merge = 3;
  cache_logic c(g);
  access_request r;
  r.addr = 0x1000;
  r.miss_queue_free = 4;
  int tag[4];
  r.requester = &tag[0];
  EXPECT_EQ(c.access(r).kind, access_result::miss);
  r.requester = &tag[1];
  EXPECT_EQ(c.access(r).kind, access_result::merged);
  r.requester = &tag[2];
  EXPECT_EQ(c.access(r).kind, access_result::merged);
  r.requester = &tag[3];
  access_result f = c.access(r);
  EXPECT_EQ(f.kind, access_result::fail);
  EXPECT_EQ(f.cause, fail_cause::merge_limit);
  EXPECT_EQ(c.mshr().used(), 1u);
  EXPECT_EQ(c.mshr().slots_used(), 3u);
  // Second line: the table has two entries; a third line finds it full.
  r.addr = 0x2000;
  EXPECT_EQ(c.access(r).kind, access_result::miss);
  r.addr = 0x3000;
  f = c.access(r);
  EXPECT_EQ(f.cause, fail_cause::mshr_full);
  // FIFO order: the first line's entry is the oldest.
  ASSERT_EQ(c.mshr().order().size(), 2u);
  EXPECT_EQ(c.mshr().at(c.mshr().order()[0]).line, 0x1000u);
  // Its fill releases the three merged requesters in arrival order.
  std::vector<mshr_table::slot> ready;
  EXPECT_TRUE(c.fill(c.mshr().find(0x1000), 0xf, ready).complete);
  ASSERT_EQ(ready.size(), 3u);
  EXPECT_EQ(ready[0].requester, &tag[0]);
  EXPECT_EQ(ready[2].requester, &tag[2]);
  EXPECT_FALSE(c.mshr().full());
}

TEST(cache_logic, reservation_fails_without_a_replaceable_line_or_miss_queue_room) {
  cache_geometry g;
  g.sets = 1;
  g.ways = 1;
  cache_logic c(g);
  access_request r;
  r.addr = 0;
  r.miss_queue_free = 0;
  EXPECT_EQ(c.access(r).cause, fail_cause::miss_queue_full);
  r.miss_queue_free = 1;
  EXPECT_EQ(c.access(r).kind, access_result::miss);  // reserves the only line
  r.addr = 128;
  EXPECT_EQ(c.access(r).cause, fail_cause::no_line);
}

TEST(cache_logic, sectored_misses_fetch_only_missing_sectors) {
  cache_geometry g;
  g.sectored = true;
  cache_logic c(g);
  std::vector<mshr_table::slot> ready;
  access_request r;
  r.miss_queue_free = 4;
  r.addr = 0;
  r.sectors = 0x1;
  access_result a = c.access(r);
  EXPECT_TRUE(a.line_miss);
  EXPECT_EQ(a.fetch, 0x1);
  c.fill(a.mshr, a.fetch, ready);
  ready.clear();
  r.sectors = 0x3;
  a = c.access(r);
  EXPECT_TRUE(a.sector_miss);
  EXPECT_EQ(a.fetch, 0x2);
  // While sector 1 is on its way: sector 1 merges, sector 2 merges and adds a fill.
  r.sectors = 0x2;
  EXPECT_EQ(c.access(r).kind, access_result::merged);
  r.sectors = 0x4;
  access_result b = c.access(r);
  EXPECT_EQ(b.kind, access_result::miss);
  EXPECT_EQ(b.fetch, 0x4);
  EXPECT_EQ(b.mshr, a.mshr);
  EXPECT_FALSE(c.fill(a.mshr, 0x2, ready).complete);
  EXPECT_TRUE(c.fill(a.mshr, 0x4, ready).complete);
  EXPECT_EQ(ready.size(), 3u);
  EXPECT_TRUE(c.probe(0, 0x7));
  EXPECT_FALSE(c.probe(0, 0x8));
}

// ---- address map ------------------------------------------------------------------------

TEST(sectors, popcount8_counts_the_set_bits_of_every_mask) {
  for (unsigned m = 0; m < 256; ++m)
    EXPECT_EQ(popcount8(static_cast<std::uint8_t>(m)), std::bitset<8>(m).count()) << m;
}

TEST(address_decoder, gtx480_map_by_hand) {
  const std::string map =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";
  address_decoder d(map, 6, 2);
  // 256 B chunks go round the six channels.
  EXPECT_EQ(d.decode(0).channel, 0u);
  EXPECT_EQ(d.decode(256).channel, 1u);
  EXPECT_EQ(d.decode(5 * 256).channel, 5u);
  // Chunk 6: channel 0 again, quotient 1 stitched at bit 8 = bank bit 0 -> sub-partition 1.
  dram_address a = d.decode(6 * 256);
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.bank, 1u);
  EXPECT_EQ(a.sub_partition, 1u);
  // Column bits 6, 7, 9..12; bank bits 8, 13..15; row from bit 16 of the local address.
  a = d.decode(0x40);  // byte 64 of chunk 0: column 1
  EXPECT_EQ(a.column, 1u);
  EXPECT_EQ(a.row, 0u);
  const std::uint64_t local_row1 = std::uint64_t(1) << 16;  // local address -> global: chunk x 6
  a = d.decode(((local_row1 >> 8) * 6) << 8);
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.row, 1u);
  EXPECT_EQ(a.bank, 0u);
  EXPECT_EQ(d.banks(), 16u);
}

TEST(address_decoder, the_partition_address_drops_the_channel_and_sub_partition_bits) {
  // GPGPU-Sim's partition_address on the GTX480 map: Q = (addr >> 8) / 6 stitched under the
  // low byte, then the sub-partition's bank bit (local bit 8, Q's lowest) removed. 0x12345:
  // chunk 0x123 = 291, Q = 48, local 0x3045, bit 8 (0) out -> 0x1845; the L2's linear set
  // (64 sets of 128 B) is then addr[7] | ((Q >> 1) & 31) << 1 = 48.
  const std::string map =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";
  address_decoder d(map, 6, 2);
  EXPECT_EQ(d.partition_address(0x12345), 0x1845u);
  EXPECT_EQ(set_index(index_function::linear, d.partition_address(0x12345), 64, 7), 48u);
  // Q odd (sub-partition 1): chunk 6 -> Q = 1, bit 8 set and removed.
  EXPECT_EQ(d.partition_address(6 * 256 + 0x80), 0x80u);
  // One L2 bank (sub-partition 0 of channel 0) reaches every one of its 64 sets, while the
  // raw address bits reach 16.
  std::set<std::uint32_t> within, raw;
  for (std::uint64_t line = 0; line < 65536; ++line) {
    const std::uint64_t addr = line * 128;
    if (d.sub_partition(addr) != 0) continue;
    within.insert(set_index(index_function::linear, d.partition_address(addr), 64, 7));
    raw.insert(set_index(index_function::linear, addr, 64, 7));
  }
  EXPECT_EQ(within.size(), 64u);
  EXPECT_EQ(raw.size(), 16u);
}

TEST(address_decoder, power_of_two_channels_remove_the_channel_bits) {
  const std::string map =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";
  address_decoder d(map, 8, 1);
  // Channel = bits 8..10; bit 11 becomes local bit 8 (bank bit 0).
  EXPECT_EQ(d.decode(0x700).channel, 7u);
  EXPECT_EQ(d.decode(0x800).bank, 1u);
  EXPECT_EQ(d.decode(0x800).channel, 0u);
}

TEST(address_decoder, ipoly_and_random_cover_every_sub_partition) {
  const std::string map =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
  for (auto idx : {partition_indexing::ipoly, partition_indexing::random,
                   partition_indexing::linear, partition_indexing::xor_fold}) {
    address_decoder d(map, 24, 2, idx);
    std::set<std::uint32_t> seen;
    for (std::uint64_t chunk = 0; chunk < 4096; ++chunk) {
      dram_address a = d.decode(chunk * 256);
      EXPECT_LT(a.sub_partition, 48u);
      EXPECT_EQ(a.channel, a.sub_partition / 2);
      seen.insert(a.sub_partition);
    }
    EXPECT_EQ(seen.size(), 48u) << int(idx);
  }
}

TEST(address_decoder, random_indexing_hashes_128_byte_units_with_two_sub_partitions) {
  // GPGPU-Sim's RANDOM keys its table by addr >> (ADDR_CHIP_S - log2(sub-partitions per
  // channel)): with 256 B chunks and two sub-partitions a channel, each 128 B half of a chunk
  // draws its own sub-partition (so about 47 in 48 chunks are split between two), while every
  // byte of a 128 B line stays in one; with one sub-partition a channel the unit is the chunk.
  const std::string map =
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
  address_decoder two(map, 24, 2, partition_indexing::random);
  address_decoder one(map, 24, 1, partition_indexing::random);
  std::uint32_t split_two = 0, split_one = 0;
  for (std::uint64_t chunk = 0; chunk < 4800; ++chunk) {
    const std::uint64_t base = chunk * 256;
    for (std::uint64_t off = 0; off < 256; off += 32) {
      EXPECT_EQ(two.sub_partition(base + off), two.sub_partition(base + (off & 128)));
      EXPECT_EQ(two.decode(base + off).sub_partition, two.sub_partition(base + off));
      EXPECT_EQ(one.sub_partition(base + off), one.sub_partition(base));
    }
    split_two += two.sub_partition(base) != two.sub_partition(base + 128);
    split_one += one.sub_partition(base) != one.sub_partition(base + 128);
  }
  EXPECT_EQ(split_one, 0u);
  // 4800 x 47/48 = 4700 expected; a uniform hash stays within a few standard deviations
  // (sqrt(4800 x 47/48 x 1/48) = 9.9).
  EXPECT_GT(split_two, 4650u);
  EXPECT_LT(split_two, 4750u);
}

TEST(address_decoder, rejects_bad_maps) {
  EXPECT_FALSE(address_decoder::check("dramid@8;RRRR").empty());
  EXPECT_FALSE(address_decoder::check("dramid@8" + std::string(64, 'R')).empty());
  EXPECT_TRUE(address_decoder::check(std::string(64, '0')).empty());
}

// ---- DRAM scheduler -----------------------------------------------------------------------

namespace {
// The bank and timing engine with a request chooser (FR-FCFS or FCFS), as a channel drives
// them.
struct dram_scheduler : dram_engine {
  dram_scheduler(const dram_timing& t, std::size_t depth, const char* chooser = "fr_fcfs")
      : dram_engine(t, depth), m_chooser(chooser) {}
  std::uint64_t step(std::uint64_t now, std::vector<completion>& done) {
    return dram_engine::step(now, done, *m_chooser);
  }
  gputlm::standalone_strategy<dram_chooser> m_chooser;
};

// Runs the scheduler from `start` until the request tagged `tag` completes; its done cycle.
std::uint64_t run_until_done(dram_scheduler& s, std::uint64_t start, void* tag) {
  std::vector<dram_scheduler::completion> done;
  std::uint64_t now = start;
  for (int guard = 0; guard < 10000; ++guard) {
    const std::uint64_t next = s.step(now, done);
    for (auto& c : done)
      if (c.tag == tag) return c.done;
    done.clear();
    if (next == dram_scheduler::never) break;
    now = next;
  }
  return dram_scheduler::never;
}
}  // namespace

TEST(dram_scheduler, row_hit_is_faster_than_row_miss_by_tRP_plus_tRCD) {
  dram_timing t;  // GTX480 GS4 values
  t.tRCD = 12;
  t.tRP = 12;
  t.CL = 12;
  t.tRAS = 28;
  t.burst_cycles = 2;
  dram_scheduler s(t, 16);
  int a, b, c;
  // Cold bank: ACT at 0, RD at tRCD, data CL + burst later.
  s.push({&a, 0, 5, false, 1, 0});
  EXPECT_EQ(run_until_done(s, 0, &a), 12u + 12u + 2u);
  // Same row, later: a row hit, RD at once.
  s.push({&b, 0, 5, false, 1, 100});
  const std::uint64_t hit = run_until_done(s, 100, &b) - 100;
  EXPECT_EQ(hit, 12u + 2u);
  // Another row of the same bank: PRE, tRP, ACT, tRCD, RD.
  s.push({&c, 0, 6, false, 1, 200});
  const std::uint64_t miss = run_until_done(s, 200, &c) - 200;
  EXPECT_EQ(miss - hit, t.tRP + t.tRCD);
  EXPECT_EQ(s.row_hits(), 1u);
  EXPECT_EQ(s.row_misses(), 2u);
}

TEST(dram_scheduler, fr_fcfs_serves_ready_row_hits_before_older_row_misses) {
  dram_timing t;
  dram_scheduler s(t, 16);
  int a, b, c;
  s.push({&a, 0, 1, false, 1, 0});
  run_until_done(s, 0, &a);           // row 1 open in bank 0
  s.push({&b, 0, 2, false, 1, 100});  // older, other row
  s.push({&c, 0, 1, false, 1, 100});  // younger, row hit
  std::vector<dram_scheduler::completion> done;
  std::uint64_t now = 100;
  std::vector<void*> order;
  while (order.size() < 2) {
    std::uint64_t next = s.step(now, done);
    for (auto& d : done) order.push_back(d.tag);
    done.clear();
    now = next;
  }
  EXPECT_EQ(order[0], &c);
  EXPECT_EQ(order[1], &b);
}

// FCFS serves the oldest request first even when a younger one hits the open row of its
// bank: the row is closed and opened for the oldest, then the younger one misses in turn.
TEST(dram_scheduler, fcfs_serves_the_oldest_before_a_younger_row_hit_in_its_bank) {
  dram_timing t;
  dram_scheduler s(t, 8, "fcfs");
  int first = 1, oldest = 2, younger = 3;
  std::vector<dram_scheduler::completion> done;
  s.push({&first, 0, 0, false, 1, 0});  // opens row 0 of bank 0
  std::uint64_t now = 0;
  while (done.empty()) now = s.step(now, done);
  s.push({&oldest, 0, 1, false, 1, now});   // row 1: needs PRE + ACT
  s.push({&younger, 0, 0, false, 1, now});  // row 0, open now
  for (int i = 0; i < 1000 && s.size() > 0; ++i) now = s.step(now, done);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[1].tag, &oldest);
  EXPECT_FALSE(done[1].row_hit);
  EXPECT_EQ(done[2].tag, &younger);
  EXPECT_FALSE(done[2].row_hit);  // row 0 had to be opened again
  EXPECT_EQ(s.activates(), 3u);
  EXPECT_EQ(s.precharges(), 2u);
}

namespace {
// The scheduler's rules as plain scans of the age-ordered queue, with no per-bank state
// kept between steps: the reference for the random test below.
class reference_dram {
 public:
  reference_dram(const dram_timing& t, bool fr_fcfs)
      : m_t(t), m_fr_fcfs(fr_fcfs), m_banks(t.banks), m_group_col_ok(std::max(1u, t.bank_groups), 0) {}
  void push(const dram_scheduler::request& r) { m_queue.push_back({r, r.bursts ? r.bursts : 1}); }
  std::size_t size() const { return m_queue.size(); }
  std::uint64_t activates = 0, precharges = 0, row_hits = 0, row_misses = 0, bursts = 0;

  std::uint64_t step(std::uint64_t now, std::vector<dram_scheduler::completion>& done) {
    constexpr std::uint64_t never = dram_scheduler::never;
    if (m_queue.empty()) return never;
    // Column command: the oldest row hit whose timing allows it (FCFS: the oldest request).
    if (m_t.dual_bus ? m_last_col != now : m_last_cmd != now) {
      const column c = constraints();
      for (std::size_t i = 0; i < m_queue.size(); ++i) {
        entry& e = m_queue[i];
        bank& b = m_banks[e.r.bank];
        if (hit(e) && column_ready(e, c) <= now) {
          if (!e.started) {
            e.started = true;
            ++(e.activated ? row_misses : row_hits);
          }
          const std::uint64_t bc = m_t.burst_cycles;
          m_col_ok = now + m_t.tCCD;
          m_group_col_ok[group(e.r.bank)] = now + std::max(m_t.tCCD, m_t.tCCDL);
          std::uint64_t end;
          if (e.r.write) {
            end = now + m_t.WL + bc;
            b.pre_ok = std::max(b.pre_ok, end + m_t.tWR);
            m_read_ok = std::max(m_read_ok, end + m_t.tCDLR);
          } else {
            end = now + m_t.CL + bc;
            b.pre_ok = std::max(b.pre_ok, now + std::max<std::uint64_t>(bc, m_t.tRTPL));
            const std::uint64_t rtw = m_t.CL + bc + 2 > m_t.WL ? m_t.CL + bc + 2 - m_t.WL : 0;
            m_write_ok = std::max(m_write_ok, now + rtw);
          }
          m_bus_free = end;
          ++bursts;
          m_last_col = m_last_cmd = now;
          if (--e.left == 0) {
            done.push_back({e.r.tag, end, !e.activated, std::min(e.first_command, now)});
            m_queue.erase(m_queue.begin() + static_cast<std::ptrdiff_t>(i));
          }
          break;
        }
        if (!m_fr_fcfs) break;
      }
    }
    // Row command: the oldest request that needs one, unless an older request uses its bank
    // or (FR-FCFS) its bank has row hits queued.
    if (m_t.dual_bus ? m_last_row != now : m_last_cmd != now) {
      for (std::size_t i = 0; i < m_queue.size(); ++i) {
        entry& e = m_queue[i];
        bank& b = m_banks[e.r.bank];
        if (hit(e)) {
          if (!m_fr_fcfs) break;
          continue;
        }
        if (older_in_bank(i) || (m_fr_fcfs && has_hits(e.r.bank))) continue;
        if (row_ready(e.r.bank) <= now) {
          e.first_command = std::min(e.first_command, now);
          if (b.open) {
            b.open = false;
            b.pre_at = now;
            ++precharges;
          } else {
            b = {true, e.r.row, now, b.pre_at, now + m_t.tRCD, now + m_t.tRAS, true};
            m_act_ok = now + m_t.tRRD;
            e.activated = true;
            ++activates;
          }
          m_last_row = m_last_cmd = now;
          break;
        }
        if (!m_fr_fcfs) break;
      }
    }
    if (m_queue.empty()) return never;
    // The earliest cycle any request could be next.
    const column c = constraints();
    std::uint64_t next = never;
    for (std::size_t i = 0; i < m_queue.size(); ++i) {
      const entry& e = m_queue[i];
      if (hit(e))
        next = std::min(next, column_ready(e, c));
      else if (!older_in_bank(i) && !(m_fr_fcfs && has_hits(e.r.bank)))
        next = std::min(next, row_ready(e.r.bank));
      else
        continue;
      if (!m_fr_fcfs) break;
    }
    return std::max(next, now + 1);
  }

 private:
  struct entry {
    dram_scheduler::request r;
    std::uint32_t left;
    bool activated = false, started = false;
    std::uint64_t first_command = dram_scheduler::never;
  };
  struct bank {
    bool open = false;
    std::uint32_t row = 0;
    std::uint64_t act_at = 0, pre_at = 0, col_ok = 0, pre_ok = 0;
    bool ever_activated = false;
  };
  struct column {
    std::uint64_t read, write;
  };
  std::uint32_t group(std::uint32_t b) const {
    const std::uint32_t g = std::max(1u, m_t.bank_groups);
    return m_t.bank_group_low_bits ? b % g : b / (m_t.banks / g);
  }
  bool hit(const entry& e) const {
    return m_banks[e.r.bank].open && m_banks[e.r.bank].row == e.r.row;
  }
  bool has_hits(std::uint32_t b) const {
    return std::any_of(m_queue.begin(), m_queue.end(),
                       [&](const entry& e) { return e.r.bank == b && hit(e); });
  }
  bool older_in_bank(std::size_t i) const {
    for (std::size_t k = 0; k < i; ++k)
      if (m_queue[k].r.bank == m_queue[i].r.bank) return true;
    return false;
  }
  column constraints() const {
    column c{std::max(m_col_ok, m_read_ok), std::max(m_col_ok, m_write_ok)};
    if (m_bus_free > m_t.CL) c.read = std::max(c.read, m_bus_free - m_t.CL);
    if (m_bus_free > m_t.WL) c.write = std::max(c.write, m_bus_free - m_t.WL);
    return c;
  }
  std::uint64_t column_ready(const entry& e, const column& c) const {
    return std::max(
        {m_banks[e.r.bank].col_ok, m_group_col_ok[group(e.r.bank)], e.r.write ? c.write : c.read});
  }
  std::uint64_t row_ready(std::uint32_t bi) const {
    const bank& b = m_banks[bi];
    if (b.open) return b.pre_ok;
    if (!b.ever_activated) return m_act_ok;
    return std::max({m_act_ok, b.pre_at + m_t.tRP, b.act_at + m_t.tRC});
  }

  dram_timing m_t;
  bool m_fr_fcfs;
  std::vector<entry> m_queue;
  std::vector<bank> m_banks;
  std::vector<std::uint64_t> m_group_col_ok;
  std::uint64_t m_col_ok = 0, m_act_ok = 0, m_bus_free = 0, m_read_ok = 0, m_write_ok = 0;
  std::uint64_t m_last_cmd = dram_scheduler::never, m_last_col = dram_scheduler::never,
                m_last_row = dram_scheduler::never;
};
}  // namespace

// Random traffic (few rows per bank, so that hits, misses and conflicts all occur; reads
// and writes; one to four bursts) on several timings: every step's returned cycle, every
// completion and the counters equal the reference's. Steps come at the returned cycle, one
// cycle later than asked (woken early), later than asked, and twice in a cycle.
TEST(dram_scheduler, matches_a_reference_scan_of_the_queue_under_random_traffic) {
  struct config {
    std::uint32_t banks, groups;
    bool low_bits, dual_bus, fr_fcfs;
    std::size_t depth;
    bool fresh_rows;  // every request to a row of its own
  };
  const config configs[] = {
      {16, 4, true, false, true, 64, false},  {16, 4, true, true, true, 64, false},
      {16, 1, false, false, true, 16, false}, {8, 2, false, true, true, 8, false},
      {64, 4, true, true, true, 32, false},   {16, 4, true, false, true, 16, true},
      {16, 4, true, false, false, 16, true},  {4, 1, false, true, false, 4, true},
      {16, 4, true, false, false, 1, false},  {16, 4, true, false, false, 16, false},
      {4, 1, false, true, false, 8, false}};
  for (const config& cf : configs) {
    dram_timing t;
    t.banks = cf.banks;
    t.bank_groups = cf.groups;
    t.bank_group_low_bits = cf.low_bits;
    t.dual_bus = cf.dual_bus;
    if (cf.groups > 1) {
      t.tCCDL = 3;
      t.tRTPL = 2;
    }
    dram_scheduler s(t, cf.depth, cf.fr_fcfs ? "fr_fcfs" : "fcfs");
    reference_dram ref(t, cf.fr_fcfs);
    std::uint64_t x = cf.banks * 131 + cf.depth;
    auto rnd = [&](std::uint64_t n) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return (x >> 33) % n;
    };
    std::uintptr_t tags = 0;
    std::size_t completed = 0;
    auto arrive = [&](std::uint64_t now) {
      if (s.full()) return;
      const dram_scheduler::request r{reinterpret_cast<void*>(++tags),
                                      static_cast<std::uint32_t>(rnd(cf.banks)),
                                      static_cast<std::uint32_t>(cf.fresh_rows ? tags : rnd(3)),
                                      rnd(10) < 3,
                                      static_cast<std::uint32_t>(1 + rnd(4)),
                                      now};
      s.push(r);
      ref.push(r);
    };
    std::vector<dram_scheduler::completion> got, want;
    auto step = [&](std::uint64_t now) {
      const std::uint64_t next = s.step(now, got);
      EXPECT_EQ(next, ref.step(now, want)) << "cycle " << now;
      EXPECT_EQ(got.size(), want.size()) << "cycle " << now;
      for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
        EXPECT_EQ(got[i].tag, want[i].tag) << "cycle " << now;
        EXPECT_EQ(got[i].done, want[i].done) << "cycle " << now;
        EXPECT_EQ(got[i].row_hit, want[i].row_hit) << "cycle " << now;
        EXPECT_EQ(got[i].first_command, want[i].first_command) << "cycle " << now;
      }
      completed += got.size();
      got.clear();
      want.clear();
      return next;
    };
    std::uint64_t now = 0;
    for (int i = 0; i < 30000 && !testing::Test::HasFailure(); ++i) {
      for (std::uint64_t k = rnd(4) ? 0 : 1 + rnd(3); k > 0; --k) arrive(now);
      std::uint64_t next = step(now);
      if (rnd(8) == 0) {  // an arrival after the step, in the same cycle
        arrive(now);
        next = step(now);
      }
      ASSERT_EQ(s.size(), ref.size());
      const std::uint64_t r = rnd(10);
      if (next == dram_scheduler::never || r == 0)
        now += 1 + rnd(30);
      else if (r == 1)
        now += 1;
      else
        now = next + (r == 2 ? rnd(4) : 0);
    }
    // Without new arrivals every queued request completes (no policy may stall for good).
    for (int i = 0; i < 100000 && s.size() > 0 && !testing::Test::HasFailure(); ++i) {
      const std::uint64_t next = step(now);
      if (next == dram_scheduler::never) break;
      now = next;
    }
    EXPECT_EQ(s.size(), 0u);
    EXPECT_EQ(completed, tags);
    EXPECT_EQ(s.activates(), ref.activates);
    EXPECT_EQ(s.precharges(), ref.precharges);
    EXPECT_EQ(s.row_hits(), ref.row_hits);
    EXPECT_EQ(s.row_misses(), ref.row_misses);
    EXPECT_EQ(s.bursts(), ref.bursts);
    std::printf("banks %u groups %u dual %d fr_fcfs %d: %zu completions, %llu ACT\n", cf.banks,
                cf.groups, cf.dual_bus, cf.fr_fcfs, completed,
                static_cast<unsigned long long>(ref.activates));
  }
}

// The MSHR lookup against a reference scan of the live entries, over random allocations
// and releases that fill the table (probe runs that wrap and are shifted back on release).
TEST(mshr_table, find_matches_a_scan_of_live_entries_under_churn) {
  for (std::size_t entries : {1u, 3u, 8u, 192u}) {
    for (bool hashed : {true, false}) {  // (without the hash, find() scans)
      mshr_table t(entries, 2, hashed);
      std::vector<std::pair<std::uint64_t, int>> live;  // reference: (line, index)
      std::uint64_t x = entries;
      auto rnd = [&] {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return x >> 33;
      };
      for (int step = 0; step < 20000; ++step) {
        // Few distinct lines, so that lookups hit as well as miss.
        const std::uint64_t line = (rnd() % (3 * entries + 5)) * 128;
        int want = -1;
        for (const auto& [l, i] : live)
          if (l == line) want = i;
        ASSERT_EQ(t.find(line), want)
            << "entries " << entries << " hashed " << hashed << " step " << step;
        if (want < 0 && !t.full() && rnd() % 3) {
          live.push_back({line, t.allocate(line, 1, nullptr)});
        } else if (!live.empty() && rnd() % 2) {
          const std::size_t k = rnd() % live.size();
          std::vector<mshr_table::slot> out;
          t.release(live[k].second, out);
          EXPECT_EQ(out.size(), 1u);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
        ASSERT_EQ(t.used(), live.size());
      }
    }
  }
}

// The type a cache counts a request under (access_breakdown.h): its own kind, a fill its
// cause's (a store's fill is its write-allocate fetch), a write-back always the L1's, and
// the caches' own orders none; with GPGPU-Sim's names.
TEST(access_breakdown, a_request_is_counted_under_its_kind_or_its_cause) {
  using gputlm::access_kind;
  using gputlm::memory::access_type;
  using gputlm::memory::type_of;
  const auto of = [](access_kind kind, access_kind cause = access_kind::global_load) {
    gputlm::mem_request r;
    r.kind = kind;
    r.set_cause(cause);
    return type_of(r);
  };
  EXPECT_EQ(of(access_kind::global_load), access_type::global_read);
  EXPECT_EQ(of(access_kind::atomic), access_type::global_read);
  EXPECT_EQ(of(access_kind::flag_load), access_type::global_read);
  EXPECT_EQ(of(access_kind::flag_store), access_type::global_write);
  EXPECT_EQ(of(access_kind::local_store), access_type::local_write);
  EXPECT_EQ(of(access_kind::instruction_fetch), access_type::instruction_read);
  EXPECT_EQ(of(access_kind::writeback, access_kind::local_store), access_type::l1_writeback);
  EXPECT_EQ(of(access_kind::fill, access_kind::texture_load), access_type::texture_read);
  EXPECT_EQ(of(access_kind::fill, access_kind::constant_load), access_type::constant_read);
  EXPECT_EQ(of(access_kind::fill, access_kind::global_store), access_type::l1_write_allocate);
  EXPECT_EQ(of(access_kind::fill, access_kind::local_store), access_type::l1_write_allocate);
  EXPECT_EQ(of(access_kind::flush), access_type::none);
  EXPECT_EQ(of(access_kind::carveout), access_type::none);
  // A copy keeps the cause; a new request has none set to a store.
  gputlm::mem_request a;
  a.set_cause(access_kind::flag_store);
  a.served = gputlm::mem_request::by_dram;
  const gputlm::mem_request b = a;
  EXPECT_EQ(b.cause_kind(), access_kind::flag_store);
  EXPECT_EQ(b.served, gputlm::mem_request::by_dram);
  EXPECT_EQ(gputlm::mem_request().cause_kind(), access_kind::global_load);
  EXPECT_STREQ(gputlm::memory::gpgpusim_name(access_type::l1_write_allocate), "L1_WR_ALLOC_R");
  EXPECT_STREQ(gputlm::memory::gpgpusim_name(gputlm::memory::access_outcome::hit_reserved),
               "HIT_RESERVED");
  EXPECT_STREQ(gputlm::memory::to_string(access_type::constant_read), "constant_read");
}

// GPGPU-Sim counts a sectored cache's lookups per sector (its sub-partition breaks a line
// request into sector requests): sector_reads counts the sectors a read asked for,
// sector_read_misses those it fetched; writes count in neither. By hand: a cold line read
// (4 sectors, all fetched), a read of 2 present sectors, a read of 3 with 1 missing (a
// sector miss), a merge of 2 pending sectors, a line write.
TEST(cache_statistics, count_reads_per_sector) {
  auto result = [](access_result::kind_t kind, std::uint8_t fetch, bool line_miss) {
    access_result r;
    r.kind = kind;
    r.fetch = fetch;
    r.line_miss = line_miss;
    r.sector_miss = kind == access_result::miss && !line_miss;
    return r;
  };
  cache_statistics st;
  st.count_lookup(access_type::global_read, result(access_result::miss, 0xf, true), false, 0xf,
                  false);
  st.count_lookup(access_type::global_read, result(access_result::hit, 0, false), false, 0x3,
                  false);
  st.count_lookup(access_type::global_read, result(access_result::miss, 0x4, false), false, 0x7,
                  false);
  st.count_lookup(access_type::global_read, result(access_result::merged, 0, false), true, 0xc,
                  false);
  st.count_lookup(access_type::global_write, result(access_result::write_done, 0, false), false,
                  0xf, true);
  EXPECT_EQ(st.sector_reads.value(), 4u + 2 + 3 + 2);
  EXPECT_EQ(st.sector_read_misses.value(), 4u + 1);
  EXPECT_EQ(st.line_misses.value(), 1u);  // per request, as before
  EXPECT_EQ(st.sector_misses.value(), 1u);
}

}  // namespace test_memory_logic
