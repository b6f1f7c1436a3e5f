// The L1 bank as a SystemC block between a traffic generator (standing in for the LDST
// unit) and a fixed-latency memory: hit and miss timing, MSHR merging up to the merge limit
// then a reservation fail, a full MSHR stalling and resuming the requester, sectored fills,
// write policies and bypass. Expected values are worked out by hand in each test.
#include "models/memory/l1_cache.h"
#include "tests/memory/mem_testbench.h"

namespace test_l1_cache {

using namespace gputlm;
using namespace gputlm::test;
using gputlm::memory::l1_cache;

namespace {
std::map<std::string, std::string> l1_params(std::map<std::string, std::string> extra = {}) {
  return fermi_l1_params(std::move(extra));
}

struct bench {
  block_env env;
  clock_domain& clk = env.clock("core", 700e6);
  std::unique_ptr<l1_cache> l1;
  std::unique_ptr<traffic_generator> tg;
  std::unique_ptr<fixed_memory> mem;
  bench(std::map<std::string, std::string> params, std::vector<tg_request> script,
        std::uint64_t mem_latency) {
    l1 = env.make<l1_cache>("l1", clk, params, "l1_cache");
    tg = std::make_unique<traffic_generator>("tg", clk, std::move(script));
    mem = std::make_unique<fixed_memory>("mem", clk, mem_latency);
    tg->socket.bind(l1->core);
    l1->icnt.bind(mem->socket);
  }
  double s(const std::string& name) { return stat(env.stats, "l1", name); }
  void check_done_and_no_leaks() {
    EXPECT_EQ(tg->completed, tg->records.size());
    EXPECT_EQ(tg->pool.in_use(), 0u);
    EXPECT_EQ(l1->pool().in_use(), 0u);
    EXPECT_FALSE(l1->busy());
  }
};

tg_request load(std::uint64_t addr, bool after_previous = false, unsigned len = 4) {
  tg_request r;
  r.addr = addr;
  r.length = len;
  r.after_previous = after_previous;
  return r;
}
tg_request store(std::uint64_t addr, bool after_previous = true,
                 access_kind k = access_kind::global_store) {
  tg_request r = load(addr, after_previous);
  r.kind = k;
  return r;
}
}  // namespace

TEST(l1_cache, hit_takes_hit_latency_and_miss_takes_the_memory_round_trip) {
  bench b(l1_params(), {load(0x1000), load(0x1000, true), load(0x1040, true)}, 100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.tg->latency(0), 100u);  // miss: straight to memory and back (100 cycles)
  // Hit: hit_latency, looked up one cycle late: the fill that arrived at cycle 100 holds the
  // one data bank in that cycle (128 B through the 128 B port), when the hit was issued.
  EXPECT_EQ(b.tg->latency(1), 1u + 35u);
  EXPECT_EQ(b.tg->latency(2), 35u);  // same 128 B line
  EXPECT_EQ(b.s("accesses"), 3);
  EXPECT_EQ(b.s("hits"), 2);
  EXPECT_EQ(b.s("line_misses"), 1);
  ASSERT_EQ(b.mem->log.size(), 1u);
  EXPECT_EQ(b.mem->log[0].addr, 0x1000u);
  EXPECT_EQ(b.mem->log[0].length, 128u);
  EXPECT_EQ(b.mem->log[0].kind, access_kind::fill);
}

TEST(l1_cache, mshr_merges_up_to_the_limit_then_the_request_is_held) {
  // Merge limit 2: the third load to a line waiting for its fill cannot merge. It is held
  // (no END_REQ) until the fill at cycle 0 + 100 makes the line valid and has left the data
  // bank (one cycle: 128 B through the 128 B port), then it hits.
  bench b(l1_params({{"mshr_merge", "2"}, {"hit_latency", "1cycles"}}),
          {load(0x2000), load(0x2004), load(0x2008)}, 100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.s("line_misses"), 1);
  EXPECT_EQ(b.s("mshr_hits"), 1);
  EXPECT_EQ(b.s("reservation_fails.merge_limit"), 1);
  EXPECT_EQ(b.s("hits"), 1);
  EXPECT_EQ(b.mem->log.size(), 1u);
  EXPECT_EQ(b.tg->records[0].accepted, 0u);
  EXPECT_EQ(b.tg->records[1].accepted, 1u);    // one lookup per cycle
  EXPECT_EQ(b.tg->records[2].accepted, 101u);  // held until the fill, then the bank
  EXPECT_EQ(b.tg->records[0].responded, 100u);
  EXPECT_EQ(b.tg->records[1].responded, 101u);  // responses leave one per cycle
  EXPECT_EQ(b.tg->records[2].responded, 102u);  // hit at 100 + 1 cycle, after the queue
}

// GPGPU-Sim's breakdown (access_breakdown.h) of the lookups above and a few more, one L1
// of 1 set x 1 way, merge limit 2, hit latency 1, memory 100 cycles away. By hand:
//   cycle 0  load A        line miss                      global_read.miss
//   cycle 1  load A+4      joins A's entry                global_read.hit_reserved, mshr_hit
//   cycle 2  load A+8      merge limit: held              global_read.reservation_fail
//   101      (A+8 again)   hits the filled line           global_read.hit
//   then     local load B  evicts A: line miss            local_read.miss
//   then     global store A  tag absent (no allocate)     global_write.miss
//   then     atomic B      passes the L1: not counted
// The fills leave with the cause's type: A's and B's as global_read and local_read.
TEST(l1_cache, the_breakdown_counts_each_lookup_once_under_its_type_and_outcome) {
  tg_request local = load(0x2100, true);
  local.kind = access_kind::local_load;
  tg_request atom = load(0x2100, true);
  atom.kind = access_kind::atomic;
  bench b(l1_params({{"mshr_merge", "2"},
                     {"hit_latency", "1cycles"},
                     {"size", "128B"},
                     {"sets", "1"},
                     {"ways", "1"}}),
          {load(0x2000), load(0x2004), load(0x2008), local, store(0x2000), atom}, 100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  const std::map<std::string, double> want = {
      {"global_read.miss", 1},     {"global_read.hit_reserved", 1},
      {"global_read.mshr_hit", 1}, {"global_read.reservation_fail", 1},
      {"global_read.hit", 1},      {"local_read.miss", 1},
      {"global_write.miss", 1}};
  double counted = 0;
  for (const char* t : {"global_read", "local_read", "constant_read", "texture_read",
                        "global_write", "local_write"})
    for (const char* o :
         {"hit", "hit_reserved", "miss", "sector_miss", "mshr_hit", "reservation_fail"}) {
      const std::string k = std::string(t) + "." + o;
      const auto it = want.find(k);
      EXPECT_EQ(b.s("by_access." + k), it == want.end() ? 0.0 : it->second) << k;
      counted += b.s("by_access." + k);
    }
  EXPECT_EQ(counted, 7);
  EXPECT_EQ(b.s("bypassed"), 1);
  ASSERT_EQ(b.mem->log.size(), 4u);  // A's fill, B's fill, the store, the atomic
  EXPECT_EQ(b.mem->log[0].kind, access_kind::fill);
  EXPECT_EQ(b.mem->log[0].type, memory::access_type::global_read);
  EXPECT_EQ(b.mem->log[1].kind, access_kind::fill);
  EXPECT_EQ(b.mem->log[1].type, memory::access_type::local_read);
  EXPECT_EQ(b.mem->log[2].type, memory::access_type::global_write);
  EXPECT_EQ(b.mem->log[3].type, memory::access_type::global_read);
}

TEST(l1_cache, full_mshr_stalls_the_requester_and_resumes_it) {
  // Two MSHR entries: loads to lines A and B fill them; C is held until A's fill (cycle
  // 100) frees an entry. The one data bank is busy with A's fill in cycle 100 and with B's
  // fill (1 + 100; a fill takes the bank before a lookup of the same cycle) in cycle 101, so
  // C is looked up at 102 and D, sent after C's END_REQ, at 103.
  bench b(l1_params({{"mshr_entries", "2"}, {"hit_latency", "1cycles"}}),
          {load(0x0), load(0x80), load(0x100), load(0x180)}, 100);
  bool stalled_mid = false;
  std::size_t used_mid = 0;
  probe p("probe", b.clk, 50, [&] {
    stalled_mid = b.l1->stalled();
    used_mid = b.l1->mshr().used();
  });
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_TRUE(stalled_mid);
  EXPECT_EQ(used_mid, 2u);
  EXPECT_EQ(b.s("reservation_fails.mshr_full"), 1);  // C
  EXPECT_EQ(b.tg->records[2].accepted, 102u);
  EXPECT_EQ(b.tg->records[3].accepted, 103u);
  EXPECT_EQ(b.tg->records[2].responded, 202u);  // misses: + 100
  EXPECT_EQ(b.tg->records[3].responded, 203u);
  // The occupancy histogram saw two entries in use for most of the run.
  const auto& h = b.l1->stats_view().mshr_occupancy.counts();
  EXPECT_GE(h[2], 190u);
}

TEST(l1_cache, sectored_misses_fetch_only_missing_sectors) {
  bench b(l1_params({{"sectored", "true"}, {"hit_latency", "1cycles"}}),
          {load(0x3000, false, 32), load(0x3000, true, 64), load(0x3020, true, 32)}, 50);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  ASSERT_EQ(b.mem->log.size(), 2u);
  EXPECT_EQ(b.mem->log[0].sectors, 0x1);
  EXPECT_EQ(b.mem->log[0].length, 32u);
  EXPECT_EQ(b.mem->log[1].sectors, 0x2);
  EXPECT_EQ(b.mem->log[1].length, 32u);
  EXPECT_EQ(b.s("line_misses"), 1);
  EXPECT_EQ(b.s("sector_misses"), 1);
  EXPECT_EQ(b.s("hits"), 1);
}

TEST(l1_cache, fermi_global_store_hit_evicts_local_store_writes_back) {
  // local_wb_global_evict, 1 set x 1 way: load A (fill), global store A (hit: evict + write),
  // load A (miss again), local store A (hit: dirty, no write), load B (evicts A: write-back).
  bench b(l1_params({{"size", "128B"},
                     {"sets", "1"},
                     {"ways", "1"},
                     {"hit_latency", "1cycles"},
                     {"miss_queue", "1"}}),
          {load(0x0), store(0x0), load(0x0, true), store(0x0, true, access_kind::local_store),
           load(0x80, true)},
          20);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  ASSERT_EQ(b.mem->log.size(), 5u);
  EXPECT_EQ(b.mem->log[0].kind, access_kind::fill);
  EXPECT_EQ(b.mem->log[1].kind, access_kind::global_store);
  EXPECT_TRUE(b.mem->log[1].write);
  EXPECT_EQ(b.mem->log[2].kind, access_kind::fill);
  // The load of B: its fill and the write-back of dirty A (queued first).
  EXPECT_EQ(b.mem->log[3].kind, access_kind::writeback);
  EXPECT_EQ(b.mem->log[3].addr, 0x0u);
  EXPECT_EQ(b.mem->log[4].kind, access_kind::fill);
  EXPECT_EQ(b.mem->log[4].addr, 0x80u);
  EXPECT_EQ(b.s("writebacks"), 1);
  EXPECT_EQ(b.s("evictions"), 2);
}

namespace {
// local_wb_global_evict, 2 sets x 2 ways (A, B, C in set 0): load A, load B, local store A
// (a hit: A dirty), load B (a hit: A is the LRU line), load C. One line of the four is
// dirty: 25 %. Returns the memory's log.
std::vector<fixed_memory::seen> dirty_cap_run(const char* cap, double& writebacks) {
  bench b(l1_params({{"size", "512B"},
                     {"sets", "2"},
                     {"ways", "2"},
                     {"hit_latency", "1cycles"},
                     {"dirty_line_cap", cap}}),
          {load(0x0), load(0x100, true), store(0x0, true, access_kind::local_store),
           load(0x100, true), load(0x200, true)},
          20);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  writebacks = b.s("writebacks");
  return b.mem->log;
}
}  // namespace

TEST(l1_cache, a_dirty_line_cap_reached_lets_the_dirty_lru_line_go) {
  // Cap 25: 1 x 100 / 4 = 25 >= 25, so A, the LRU line, is replaced: written back, then C's
  // fill.
  double writebacks = 0;
  const auto log = dirty_cap_run("25", writebacks);
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[2].kind, access_kind::writeback);
  EXPECT_EQ(log[2].addr, 0x0u);
  EXPECT_EQ(log[3].kind, access_kind::fill);
  EXPECT_EQ(log[3].addr, 0x200u);
  EXPECT_EQ(writebacks, 1);
}

TEST(l1_cache, below_the_dirty_line_cap_a_clean_line_is_replaced_instead) {
  // Cap 50 (the most 2 sets allow, 100 / 2): 25 < 50 keeps the dirty A; clean B is replaced,
  // nothing is written back.
  double writebacks = 0;
  const auto log = dirty_cap_run("50", writebacks);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[2].kind, access_kind::fill);
  EXPECT_EQ(log[2].addr, 0x200u);
  EXPECT_EQ(writebacks, 0);
}

TEST(l1_cache, a_dirty_line_cap_above_100_over_sets_is_rejected_when_lines_can_be_dirty) {
  // 32 sets: a set of dirty lines is 3.125 % of the L1, so a cap above 3 could leave a set
  // without a replaceable line for good. A write-through L1 holds no dirty line: any cap.
  block_env env;
  clock_domain& clk = env.clock("core", 700e6);
  EXPECT_NO_THROW(env.make<l1_cache>("ok", clk, l1_params({{"dirty_line_cap", "3"}}), "l1_cache"));
  EXPECT_THROW(env.make<l1_cache>("bad", clk, l1_params({{"dirty_line_cap", "4"}}), "l1_cache"),
               input_error);
  EXPECT_NO_THROW(env.make<l1_cache>(
      "wt", clk, l1_params({{"dirty_line_cap", "25"}, {"write_policy", "write_through"}}),
      "l1_cache"));
}

TEST(l1_cache, volta_write_through_allocates_written_sectors) {
  bench b(l1_params({{"sectored", "true"},
                     {"write_policy", "write_through"},
                     {"write_allocate", "lazy_fetch_on_read"},
                     {"hit_latency", "1cycles"}}),
          {store(0x4000, false), load(0x4000, true, 4), load(0x4020, true, 4)}, 20);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  ASSERT_EQ(b.mem->log.size(), 2u);
  EXPECT_TRUE(b.mem->log[0].write);       // the write goes through
  EXPECT_EQ(b.mem->log[1].sectors, 0x2);  // sector 1 was not written: fetched
  EXPECT_EQ(b.tg->latency(1), 1u);        // sector 0 was written: a hit
}

TEST(l1_cache, bypassed_global_loads_and_atomics_go_straight_to_memory) {
  tg_request atom = load(0x5000, true);
  atom.kind = access_kind::atomic;
  bench b(l1_params({{"bypass_global_loads", "true"}}), {load(0x5000), load(0x5000, true), atom},
          30);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  ASSERT_EQ(b.mem->log.size(), 3u);
  EXPECT_EQ(b.mem->log[0].kind, access_kind::global_load);
  EXPECT_EQ(b.mem->log[2].kind, access_kind::atomic);
  EXPECT_EQ(b.tg->latency(1), 30u);
  EXPECT_EQ(b.s("bypassed"), 3);
  EXPECT_EQ(b.s("hits"), 0);
}

TEST(l1_cache, full_miss_queue_pushes_back) {
  // Miss queue of 1 and a memory that takes one request at a time for 200 cycles: the
  // second miss waits in the queue, the third finds it full.
  block_env env;
  clock_domain& clk = env.clock("core", 700e6);
  auto l1 = env.make<l1_cache>(
      "l1", clk, l1_params({{"miss_queue", "1"}, {"hit_latency", "1cycles"}}), "l1_cache");
  traffic_generator tg("tg", clk, {load(0x0), load(0x80), load(0x100)});
  fixed_memory mem("mem", clk, 200, 1);
  tg.socket.bind(l1->core);
  l1->icnt.bind(mem.socket);
  sc_core::sc_start();
  EXPECT_EQ(tg.completed, 3u);
  EXPECT_EQ(stat(env.stats, "l1", "reservation_fails.miss_queue_full"), 1);
  EXPECT_GE(tg.records[2].accepted, 200u);
  EXPECT_EQ(tg.pool.in_use(), 0u);
  EXPECT_EQ(l1->pool().in_use(), 0u);
}

namespace {
tg_request masked(std::uint64_t addr, std::uint8_t sectors) {
  tg_request r = load(addr, false, 128);
  r.sectors = sectors;
  return r;
}
}  // namespace

TEST(l1_banks, fermi_one_bank_128B_port_full_line_hits_take_one_cycle) {
  // 1 bank, 128 B port: a 128 B fill or hit holds the bank one cycle. The miss's fill
  // arrives at 100 and holds the bank in cycle 100, when the first hit is issued: it is
  // looked up at 101; the next hits follow one per cycle.
  bench b(l1_params({{"hit_latency", "1cycles"}}),
          {load(0x1000, false, 128), load(0x1000, true, 128), load(0x1000, false, 128),
           load(0x1000, false, 128)},
          100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.tg->records[1].accepted, 101u);
  EXPECT_EQ(b.tg->records[2].accepted, 102u);
  EXPECT_EQ(b.tg->records[3].accepted, 103u);
  EXPECT_EQ(b.tg->records[3].responded, 104u);
  EXPECT_EQ(b.s("hits"), 3);
  EXPECT_EQ(b.s("bank_conflicts"), 1);    // the first hit, behind the fill
  EXPECT_EQ(b.s("bank_wait_cycles"), 1);  // 100 -> 101
  EXPECT_EQ(b.s("data_port_cycles"), 4);  // fill + 3 hits, one cycle each
}

TEST(l1_banks, one_bank_32B_port_full_line_hits_take_four_cycles_back_to_back) {
  // 1 bank, 32 B port: 128 B = 4 cycles. Fill in [100, 104); hit 1 in [104, 108); hit 2,
  // sent at 104 and looked up from 105, waits for 108; hit 3 for 112.
  bench b(l1_params({{"hit_latency", "1cycles"}, {"data_port_width", "32B"}}),
          {load(0x1000, false, 128), load(0x1000, true, 128), load(0x1000, false, 128),
           load(0x1000, false, 128)},
          100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.tg->records[1].accepted, 104u);
  EXPECT_EQ(b.tg->records[2].accepted, 108u);
  EXPECT_EQ(b.tg->records[3].accepted, 112u);
  EXPECT_EQ(b.tg->latency(1), 4u + 1u);  // issued at 100, looked up at 104, + hit_latency
  EXPECT_EQ(b.tg->records[3].responded, 113u);
  EXPECT_EQ(b.s("bank_conflicts"), 3);
  EXPECT_EQ(b.s("bank_wait_cycles"), 4 + 3 + 3);
  EXPECT_EQ(b.s("data_port_cycles"), 16);  // 4 transfers x 4 cycles
}

TEST(l1_banks, pascal_two_banks_32B_interleave_four_sector_hit_takes_two_cycles) {
  // 2 banks x 32 B interleave, 32 B port (Pascal): sectors 0, 2 of a line at 0x1000 are in
  // bank 0, sectors 1, 3 in bank 1. A 4-sector transfer puts 64 B in each bank: 2 cycles,
  // both banks in parallel.
  //   fill (4 sectors)      at 100: banks 0, 1 in [100, 102)
  //   r1 4 sectors   issued 100, looked up 102: banks 0, 1 in [102, 104)
  //   r2 4 sectors   issued 102, waits for 104: banks 0, 1 in [104, 106)
  //   r3 sectors 0+2 issued 104, waits for 106: bank 0 in [106, 108)
  //   r4 sector 1    issued 106, looked up 107: bank 1 is free (the banks work in parallel)
  //   r5 sectors 0+2 issued 107, looked up 108: bank 0 in [108, 110)
  //   r6 sector 0    issued 108, waits for 110 (same bank: serialised)
  bench b(
      l1_params({{"hit_latency", "1cycles"},
                 {"sectored", "true"},
                 {"banks", "2"},
                 {"bank_interleave", "32B"},
                 {"data_port_width", "32B"}}),
      {load(0x1000, false, 128), load(0x1000, true, 128), load(0x1000, false, 128),
       masked(0x1000, 0x5), load(0x1020, false, 32), masked(0x1000, 0x5), load(0x1000, false, 32)},
      100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.tg->records[1].accepted, 102u);
  EXPECT_EQ(b.tg->records[2].accepted, 104u);
  EXPECT_EQ(b.tg->records[3].accepted, 106u);
  EXPECT_EQ(b.tg->records[4].accepted, 107u);
  EXPECT_EQ(b.tg->records[5].accepted, 108u);
  EXPECT_EQ(b.tg->records[6].accepted, 110u);
  EXPECT_EQ(b.s("hits"), 6);
  EXPECT_EQ(b.s("bank_conflicts"), 4);  // r1, r2, r3, r6
  EXPECT_EQ(b.s("bank_wait_cycles"),
            2 + 1 + 1 + 1);  // r1 100-102, r2 103-104, r3 105-106, r6 109-110
  EXPECT_EQ(b.s("data_port_cycles"), 4 + 4 + 4 + 2 + 1 + 2 + 1);
}

TEST(l1_banks, a_line_starts_in_the_bank_its_address_selects) {
  // 8 banks x 32 B interleave, 16 B port: a 128 B line covers 4 banks, starting at bank
  // (address / 32) mod 8, so line 0x1000 is in banks 0-3 and line 0x1080 in banks 4-7. A
  // sector holds its bank 2 cycles. The lines are filled in turn (at 100 and 200). At 300,
  // r2 reads sector 0 of 0x1000 (bank 0, busy [300, 302)) and r3, sent right behind it,
  // sector 0 of 0x1080 (bank 4): r3 is looked up at 301 without waiting. (Were every line to
  // start in bank 0, r3 would wait for 302.) r5, sent right behind r4, reads the same
  // sector as r4 (bank 0) and waits: one conflict.
  tg_request r2 = load(0x1000, false, 32);
  r2.not_before = 300;
  bench b(l1_params({{"hit_latency", "1cycles"},
                     {"sectored", "true"},
                     {"banks", "8"},
                     {"bank_interleave", "32B"},
                     {"data_port_width", "16B"}}),
          {load(0x1000, false, 128), load(0x1080, true, 128), r2, load(0x1080, false, 32),
           load(0x1000, true, 32), load(0x1000, false, 32)},
          100);
  sc_core::sc_start();
  b.check_done_and_no_leaks();
  EXPECT_EQ(b.tg->records[2].accepted, 300u);
  EXPECT_EQ(b.tg->records[3].accepted, 301u);
  EXPECT_EQ(b.s("hits"), 4);
  EXPECT_EQ(b.s("bank_conflicts"), 1);                    // r5
  EXPECT_EQ(b.s("data_port_cycles"), 2 * 4 * 2 + 4 * 2);  // two fills, four 1-sector hits
}

TEST(l1_cache, blocking_transport_is_refused_with_an_error) {
  // The memory blocks speak the AT base protocol only; an LT initiator's b_transport gets
  // a command error and a SystemC error report naming the block, not a silent adapter.
  bench b(l1_params(), {}, 10);
  tlm::tlm_generic_payload gp;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(0x100);
  // This error is the expected outcome: report it by throwing only (the shared test main
  // turns SystemC errors into failures).
  const auto previous = sc_core::sc_report_handler::set_handler(
      [](const sc_core::sc_report& r, const sc_core::sc_actions& a) {
        if (a & sc_core::SC_THROW) throw r;
      });
  try {
    b.l1->core.get_base_export()->b_transport(gp, t);
    ADD_FAILURE() << "b_transport was accepted";
  } catch (const sc_core::sc_report& r) {
    EXPECT_NE(std::string(r.get_msg()).find("AT base protocol"), std::string::npos);
    EXPECT_NE(std::string(r.get_msg_type()).find("l1"), std::string::npos);
  }
  sc_core::sc_report_handler::set_handler(previous);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
}

}  // namespace test_l1_cache

namespace test_l1_cache {
namespace {
// Cancels warps' MSHR slots at a cycle (LATOA's export of a warp), releasing the payloads
// it gets back as their owner would, and hears the fills that answer nobody.
struct canceller : sc_core::sc_module, memory::cache_events {
  SC_HAS_PROCESS(canceller);
  canceller(sc_core::sc_module_name n, clock_domain& clk, l1_cache& l1, std::uint64_t at,
            std::vector<std::uint32_t> warps)
      : sc_module(n), m_clk(clk), m_l1(l1), m_at(at), m_warps(std::move(warps)) {
    SC_THREAD(run);
  }
  void fill_unanswered(std::uint32_t cancelled, bool orphan) override {
    unanswered += cancelled;
    orphans += orphan ? 1 : 0;
  }
  std::size_t cancelled = 0, returned = 0, used_after = 0, slots_after = 0;
  std::uint32_t unanswered = 0, orphans = 0;

 private:
  void run() {
    wait(m_clk.delay_cycles(m_at));
    std::vector<tlm::tlm_generic_payload*> out;
    for (std::uint32_t w : m_warps) cancelled += m_l1.cancel_warp(w, out);
    returned = out.size();
    used_after = m_l1.mshr().used();
    slots_after = m_l1.mshr().slots_used();
    for (tlm::tlm_generic_payload* gp : out) gp->release();
  }
  clock_domain& m_clk;
  l1_cache& m_l1;
  std::uint64_t m_at;
  std::vector<std::uint32_t> m_warps;
};
}  // namespace

// Warp 0 and warp 2 leave while their misses are out (cycle 50 of a 100-cycle memory):
// line 0x1000's entry holds warp 0's slot and warp 1's merged one, line 0x3000's only warp
// 2's. Their slots are cancelled and their payloads given back (released by the owner).
// The entries stay until their fills: at cycle 100 line 0x1000's fill answers warp 1 alone
// (one slot unanswered), line 0x3000's answers nobody (an orphan fill) but installs the
// line, which warp 3's load at cycle 300 then hits. Nothing leaks.
TEST(l1_cache, cancelled_slots_go_unanswered_and_an_orphan_fill_installs_its_line) {
  tg_request later = load(0x3000);
  later.not_before = 300;
  bench b(l1_params(), {load(0x1000), load(0x1004), load(0x3000), later}, 100);
  canceller c("canceller", b.clk, *b.l1, 50, {0, 2});
  b.l1->events.connect(c);
  sc_core::sc_start();
  EXPECT_EQ(c.cancelled, 2u);
  EXPECT_EQ(c.returned, 2u);
  EXPECT_EQ(c.used_after, 2u);   // both entries stay for their fills
  EXPECT_EQ(c.slots_after, 3u);  // (cancelled slots keep their place)
  EXPECT_EQ(c.unanswered, 2u);
  EXPECT_EQ(c.orphans, 1u);
  EXPECT_FALSE(b.tg->records[0].done);
  EXPECT_TRUE(b.tg->records[1].done);
  EXPECT_FALSE(b.tg->records[2].done);
  ASSERT_TRUE(b.tg->records[3].done);
  EXPECT_EQ(b.tg->latency(3), 35u);  // a hit on the orphan fill's line
  EXPECT_EQ(b.tg->completed, 2u);
  EXPECT_EQ(b.tg->pool.in_use(), 0u);
  EXPECT_EQ(b.l1->pool().in_use(), 0u);
  EXPECT_EQ(b.l1->mshr().used(), 0u);
  EXPECT_FALSE(b.l1->busy());
  EXPECT_EQ(b.mem->log.size(), 2u);  // two fills, no more
}

}  // namespace test_l1_cache
