// The Slumber control unit on a hand-written warp, at 1 GHz (cycles are ns), with Table 6.1's
// states on a register file of 8 warp registers: ON 1 mW, SS 0.94 mW (wake-up 4 cycles), DS
// 0.42 mW (13), OFF 0 W (16), no transition energy; the MSHR tracker's latencies given (L1
// 20, L2 200, DRAM 400 cycles), registers read at issue (read_stage 0) and WRF's drowsy
// state waking in DS's 13 cycles (wrf_wake 0) unless a test says otherwise. Each test drives the
// unit as the SMX does (reads at issue with the scheduler's lookahead, destinations at issue,
// write-backs, warp exit, TB end) and checks the mode each rule chooses, the cycles it stays there
// (what the counter says), the waits of accesses that find a register asleep and the energy, all
// worked out by hand from the rules of slumber_control_unit.h (docs/power.md, "Slumber").
#include <gtest/gtest.h>

#include "models/common/mem_request.h"
#include "models/power/slumber_control_unit.h"
#include "tests/memory/mem_testbench.h"

namespace test_slumber {

using namespace gputlm;
using gputlm::pm::slumber_control_unit;

namespace {
constexpr std::uint64_t ns = 1000000;  // fs per cycle
constexpr std::uint32_t on = 0, ss = 1, ds = 2, off = 3;

struct bench {
  test::block_env env;
  clock_domain& clk = env.clock("core", 1e9);
  pm::power_component rf{"smx.register_file",
                         {{"on", 1e-3, 0, 0},
                          {"shallow_sleep", 0.94e-3, 4, 0},
                          {"deep_sleep", 0.42e-3, 13, 0},
                          {"off", 0.0, 16, 0}},
                         {{"read", 0.0}, {"write", 0.0}},
                         pm::operating_point{1.0, ns},
                         8};
  std::unique_ptr<slumber_control_unit> unit;
  explicit bench(bool wrf = false, std::map<std::string, std::string> extra = {},
                 std::uint32_t warps = 2) {
    std::map<std::string, std::string> params{{"rule", wrf ? "wrf" : "slumber"},
                                              {"l1_latency", "20cycles"},
                                              {"l2_latency", "200cycles"},
                                              {"dram_latency", "400cycles"},
                                              // worked with the read at issue and WRF
                                              // on the table's DS (13 cycles) unless a
                                              // test says otherwise
                                              {"read_stage", "0cycles"},
                                              {"wrf_wake", "0cycles"}};
    for (auto& [k, v] : extra) params[k] = v;
    unit = env.make<slumber_control_unit>("slumber", clk, params, "slumber_control_unit");
    unit->configure(warps, 4);
    unit->control(rf, ss, ds, off);
  }
  // Element-cycles spent in `state` up to `cycle` (after settling there).
  double cycles_in(std::uint32_t state, std::uint64_t cycle) {
    unit->settle(cycle * ns);
    return rf.residency_seconds(state, cycle * ns) * 1e9;
  }
  const slumber_control_unit::statistics& s() const { return unit->stats(); }
};
}  // namespace

TEST(slumber, alu_destinations_sleep_as_deep_as_their_latency_allows) {
  // Four ALU results issued at 100 into registers the lookahead woke at 0 (ON at 16):
  // latency 2 (a branch: ON), 6 (SS: 4 <= 6 < 13), 15 (DS: 13 <= 15 < 16), 153 (an integer
  // division: OFF, the next access being this write). Each counter wakes its register to
  // ON exactly at the result (fire = 100 + latency - wake-up): no write waits. After the
  // write the warp's next instruction does not read it: SS until the end at 400.
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 8, 0));
  const std::uint64_t latency[4] = {2, 6, 15, 153};
  for (std::uint16_t r = 0; r < 4; ++r) {
    b.unit->issued(0, r, 0, 100, 0);  // instruction r, in the lookahead from 0
    EXPECT_EQ(
        b.unit->fixed_destination(0, r, 0, 100, r, latency[r], 100 + latency[r], false, r + 1), 0u)
        << r;
  }
  EXPECT_EQ(b.unit->written(0, 3), 253u);
  // ON:  R0 [0,102)  R1 [0,100)+[102,106)  R2 [0,100)+[102,115)  R3 [0,100)+[237,253)
  // SS:  R0 [102,400)  R1 [100,102)+[106,400)  R2 [115,400)  R3 [253,400)
  // DS:  R2 [100,102)     OFF: R3 [100,237), R4..R7 [0,400)
  EXPECT_DOUBLE_EQ(b.cycles_in(on, 400), 102 + 104 + 113 + 116);
  EXPECT_DOUBLE_EQ(b.cycles_in(ss, 400), 298 + 296 + 285 + 147);
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 400), 2);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 400), 137 + 4 * 400);
  EXPECT_EQ(b.s().idle_ss.value(), 1026u);
  EXPECT_EQ(b.s().idle_ds.value(), 2u);
  EXPECT_EQ(b.s().idle_off.value(), 1737u);
  EXPECT_EQ(b.s().wakes.value(), 7u);  // four by the lookahead, three by their counters
  EXPECT_EQ(b.s().write_waits.value(), 0u);
  // Energy = sum of residency x state power (mW x ns = pJ).
  EXPECT_NEAR(b.rf.static_joules(400 * ns), (435 * 1.0 + 1026 * 0.94 + 2 * 0.42) * 1e-12, 1e-18);
}

TEST(slumber, a_load_missing_l1_and_l2_powers_its_destination_off_until_the_counter) {
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 4, 0));  // R0..R3; registers 4..7 stay unallocated (OFF)
  // 100: LD R0, [R1] (instruction 0, in the lookahead from 0). R1 is read (woken at 0: no
  // wait). R0 stays ON for the L1 lookup (20 cycles), then, the tracker predicting an L2 hit
  // (200), is OFF with its counter firing at 120 + 180 - 16 = 284: ON at 300, the
  // predicted return.
  b.unit->issued(0, 0, 0, 100, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 100, 0), 0u);
  b.unit->load_destination(0, 0, 100, 0);
  EXPECT_EQ(b.unit->load_due(0), 300u);
  // R1's next access is a read and the warp's next instruction waits for the load (200
  // cycles): DS, its counter firing at 300 - 13 = 287 to bring it to SS by 296, SS's
  // wake-up before the predicted return.
  b.unit->after_access(0, 1, 100, false, {200, true}, 1);
  // 450: the data come from DRAM (an L2 miss). R0 has been ON since 300: no wait.
  b.unit->load_answered(0, 100, 450, mem_request::by_dram);
  EXPECT_EQ(b.unit->load_written(0, 0, 0, 450, mem_request::by_dram), 0u);
  b.unit->after_access(0, 0, 450, false, {0, true}, 1);  // the next one is ready: ON
  // 451: IMUL R2, R0, R1 (instruction 1) issues the cycle it became ready: R1 (SS since
  // 287) wakes only now and the read waits its 4 cycles.
  b.unit->issued(0, 1, 451, 451, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 451, 1), 4u);
  EXPECT_EQ(b.unit->read(0, 0, 0, 451, 1), 0u);
  // 500: LD R2 (instruction 2, about to be ready from 480: R2, OFF since its allocation,
  // wakes then and is ON at 496) with the tracker at "L2 miss": predicted 400, OFF from 520
  // with its counter firing at 520 + 380 - 16 = 884. The data come early (an L2 hit at
  // 600): the write wakes R2 on demand and waits the 16 cycles of OFF.
  b.unit->issued(0, 2, 480, 500, 0);
  b.unit->load_destination(0, 2, 500, 2);
  EXPECT_EQ(b.unit->load_due(0), 900u);
  b.unit->load_answered(0, 500, 600, mem_request::by_l2);
  EXPECT_EQ(b.unit->load_written(0, 2, 0, 600, mem_request::by_l2), 16u);
  EXPECT_EQ(b.unit->written(0, 2), 616u);
  b.unit->after_access(0, 2, 616, false, {0, true}, 3);
  // R0: ON [0,120) OFF [120,284) ON [284,1000); R1: ON [0,100) DS [100,287) SS [287,451)
  // ON [451,1000); R2: OFF [0,480) ON [480,520) OFF [520,600) ON [600,1000); R3 and
  // R4..R7 OFF.
  EXPECT_DOUBLE_EQ(b.cycles_in(on, 1000), 836 + 649 + 440);
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 1000), 187);
  EXPECT_DOUBLE_EQ(b.cycles_in(ss, 1000), 164);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 1000), 164 + 560 + 1000 + 4000);
  EXPECT_EQ(b.s().idle_off.value(), 164u + 560 + 1000);  // allocated registers only
  EXPECT_EQ(b.s().read_waits.value(), 1u);
  EXPECT_EQ(b.s().wake_wait_cycles.value(), 4u);
  EXPECT_EQ(b.s().write_waits.value(), 1u);
  EXPECT_EQ(b.s().write_wait_cycles.value(), 16u);
  EXPECT_EQ(b.s().wakes.value(), 6u);
}

TEST(slumber, dead_registers_power_gate_and_an_exited_warp_is_off) {
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 0, 0, 20, 0), 0u);
  EXPECT_EQ(b.unit->read(0, 1, 1, 20, 0), 0u);
  // 100 idle cycles ahead: R0's next access is a write (OFF), R1's a read (DS).
  b.unit->after_access(0, 0, 20, true, {100, true}, 1);
  b.unit->after_access(0, 1, 20, false, {100, true}, 1);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::off), 7u);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::ds), 1u);
  b.unit->warp_exited(0, 60);  // every register of the warp OFF
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::off), 8u);
  b.unit->release(0, 80);  // the TB's registers freed: unallocated, OFF
  EXPECT_DOUBLE_EQ(b.cycles_in(on, 100), 40);
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 100), 40);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 100), 80 + 40 + 600);
  EXPECT_EQ(b.s().idle_off.value(), 40u + 20 + 20);
  EXPECT_EQ(b.s().idle_ds.value(), 40u);
}

TEST(slumber, the_lookahead_wakes_a_warps_sleeping_registers_when_it_is_about_to_issue) {
  // R1, read at 20 with the warp's next instruction 6 cycles away, sleeps in SS. The warp's
  // next instruction (1, not using R1) is about to be ready at 26: the lookahead wakes the
  // warp's SS registers then, so instruction 2 reads R1 at 40 without waiting.
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, false, {6, true}, 1);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::ss), 1u);
  b.unit->issued(0, 1, 26, 27, 0);
  b.unit->issued(0, 2, 40, 40, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 40, 2), 0u);
  EXPECT_DOUBLE_EQ(b.cycles_in(ss, 50), 6);
  EXPECT_EQ(b.s().idle_ss.value(), 6u);
}

namespace {
// Three warps of 2 registers on one scheduler. Warp 0 reads R1 at 20 (woken from OFF by the
// lookahead from 0, ON at 16) with its next instruction 6 cycles away: SS, woken by the
// lookahead. Warps 1 and 2 issue at 21, 22, 37 and 39; warp 0's next instruction, about to
// be ready since 26, issues at 40 and reads R1. Returns the cycles that read waits.
std::uint64_t three_warps(bench& b) {
  for (std::uint32_t w = 0; w < 3; ++w) EXPECT_TRUE(b.unit->allocate(w, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, false, {6, true}, 1);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::ss), 1u);
  b.unit->issued(1, 0, 0, 21, 0);
  b.unit->issued(2, 0, 0, 22, 0);
  b.unit->issued(1, 1, 0, 37, 0);
  b.unit->issued(2, 1, 0, 39, 0);
  b.unit->issued(0, 1, 26, 40, 0);
  return b.unit->read(0, 1, 0, 40, 1);
}
}  // namespace

TEST(slumber, the_lookahead_sees_only_the_next_warps_of_its_scheduler) {
  // lookahead_warps 1: the current warp and the next one. Walking back from warp 0's issue
  // at 40: warp 2 at 39 (one other warp), warp 1 at 37 (two: when warp 1 issued at 37, warp
  // 0 came after warp 2, beyond the lookahead). So warp 0 is in the lookahead from 38, not
  // 26: R1 wakes from SS at 38, ON at 42, and the read at 40 waits 2 cycles. SS [20,38).
  bench b(false, {{"lookahead_warps", "1"}}, 3);
  EXPECT_EQ(three_warps(b), 2u);
  EXPECT_EQ(b.s().idle_ss.value(), 18u);
}

TEST(slumber, an_unlimited_lookahead_sees_a_warp_as_soon_as_it_is_about_to_be_ready) {
  // lookahead_warps 0 (every ready warp): the same warps; R1 wakes at 26, ON at 30, and the
  // read at 40 does not wait. SS [20,26).
  bench b(false, {{"lookahead_warps", "0"}}, 3);
  EXPECT_EQ(three_warps(b), 0u);
  EXPECT_EQ(b.s().idle_ss.value(), 6u);
}

TEST(slumber, a_register_used_further_on_sleeps_until_the_lookahead_sees_its_next_use) {
  // Per register (the default): R1, read at 20 by instruction 0, is next used by
  // instruction 3, not the warp's next one, and instruction 3 waits for a load with no
  // predicted end (the register file's outlook: unknown): SS (rule (b)), woken for
  // instruction 3 only. Instructions 1 and 2 issue at 21 and 22 without waking it;
  // instruction 3, about to be ready at 30 and issued at 40, wakes it at 30 (ON at 34): no
  // wait. SS [20,30). (From the warp's next instruction, ready at once, R1 would have
  // stayed ON.)
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, false, {0, false}, 3);
  b.unit->issued(0, 1, 21, 21, 0);
  b.unit->issued(0, 2, 22, 22, 0);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::ss), 1u);
  b.unit->issued(0, 3, 30, 40, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 40, 3), 0u);
  EXPECT_EQ(b.s().idle_ss.value(), 10u);
  EXPECT_DOUBLE_EQ(b.cycles_in(ss, 50), 10);
}

TEST(slumber, a_register_no_later_instruction_uses_is_off_for_good) {
  // R1's last use at 20 (hint W, no next use): OFF from 20, no counter: OFF until the end
  // at 100, 80 register-cycles, never woken.
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, true, {0, true}, slumber_control_unit::no_next_use);
  EXPECT_EQ(b.unit->in_mode(slumber_control_unit::off), 8u);  // with R0 and the 6 unallocated
  EXPECT_EQ(b.s().idle_off.value(), 0u);
  b.unit->settle(100 * ns);
  EXPECT_EQ(b.s().idle_off.value(), 80u + 100);  // R1, and R0 never used since 0
  EXPECT_EQ(b.s().wakes.value(), 1u);            // R1's wake-up for its read at 20 only
}

TEST(slumber, the_ten_bit_counter_saturates) {
  // A predicted idleness of 5000 cycles: the counter fires after at most 1023 cycles, so R1
  // (DS from 20) is in SS from 1043; read at 2000 as soon as ready, it waits SS's 4 cycles.
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, false, {5000, true}, 1);
  b.unit->issued(0, 1, 2000, 2000, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 2000, 1), 4u);
  EXPECT_EQ(b.s().idle_ds.value(), 1023u);
  EXPECT_EQ(b.s().idle_ss.value(), 2000u - 1043);
}

TEST(slumber, wrf_makes_every_register_drowsy_after_each_access) {
  // The same load as above under WRF: allocated registers drowsy (DS); the instruction's
  // registers start waking when it is decoded (90), 13 cycles; the load's destination stays
  // ON until written (write-conservative); after each access the register is drowsy again.
  bench b(true);
  ASSERT_TRUE(b.unit->allocate(0, 4, 0));
  b.unit->issued(0, 0, 90, 100, 0);              // decoded at 90
  EXPECT_EQ(b.unit->read(0, 1, 0, 100, 0), 3u);  // ON at 103
  b.unit->load_destination(0, 0, 100, 0);
  b.unit->after_access(0, 1, 103, false, {200, true}, 1);
  b.unit->load_answered(0, 100, 450, mem_request::by_dram);
  EXPECT_EQ(b.unit->load_written(0, 0, 0, 450, mem_request::by_dram), 0u);
  b.unit->after_access(0, 0, 450, false, {0, true}, 1);
  b.unit->issued(0, 1, 440, 451, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 451, 1), 2u);  // decoded at 440: ON at 453
  // R0: DS [0,90) ON [90,450) DS [450,500); R1: DS [0,90) ON [90,103) DS [103,440)
  // ON [440,500); R2, R3 DS; R4..R7 unallocated, OFF.
  EXPECT_DOUBLE_EQ(b.cycles_in(on, 500), 360 + 73);
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 500), 140 + 427 + 1000);
  EXPECT_DOUBLE_EQ(b.cycles_in(ss, 500), 0);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 500), 2000);
  EXPECT_EQ(b.s().read_waits.value(), 2u);
  EXPECT_EQ(b.s().wake_wait_cycles.value(), 5u);
}

TEST(slumber, a_wake_up_overlaps_the_cycle_from_issue_to_the_operand_read) {
  // read_stage 1 (the default): the register is read in the operand collector a cycle
  // after issue. R1, DS from 20 with its counter bringing it to SS at 1043 (as in the
  // counter test above), is read by an instruction issued at 2000 the cycle it became
  // ready: SS's 4-cycle wake-up from 2000 ends at 2004, the read is at 2001: 3 cycles.
  bench b(false, {{"read_stage", "1cycles"}});
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 0, 20, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 20, 0), 0u);
  b.unit->after_access(0, 1, 20, false, {5000, true}, 1);
  b.unit->issued(0, 1, 2000, 2000, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 2000, 1), 3u);
  EXPECT_EQ(b.s().wake_wait_cycles.value(), 3u);
}

TEST(slumber, wrf_as_its_paper_hides_the_one_cycle_drowsy_wake_up) {
  // WRF's own paper (the defaults wrf_wake 1, read_stage 1): an instruction decoded at 100
  // and issued at 100 reads R1 at 101; R1 (drowsy since allocation) wakes from the decode
  // in 1 cycle, ON at 101: no wait. Drowsy again after the read; an instruction decoded at
  // 200 and issued at 205 finds it ON since 201. R1: DS [0,100) ON [100,101) DS [101,200)
  // ON [200,205) DS [205,300); R0 DS throughout; R2..R7 unallocated, OFF.
  bench b(true, {{"read_stage", "1cycles"}, {"wrf_wake", "1cycles"}});
  ASSERT_TRUE(b.unit->allocate(0, 2, 0));
  b.unit->issued(0, 0, 100, 100, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 100, 0), 0u);
  b.unit->after_access(0, 1, 101, false, {0, true}, 1);
  b.unit->issued(0, 1, 200, 205, 0);
  EXPECT_EQ(b.unit->read(0, 1, 0, 205, 1), 0u);
  b.unit->after_access(0, 1, 205, false, {0, true}, 2);
  EXPECT_DOUBLE_EQ(b.cycles_in(on, 300), 1 + 5);
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 300), 300 + 294);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 300), 6 * 300);
  EXPECT_EQ(b.s().read_waits.value(), 0u);
}

TEST(slumber, registers_are_allocated_first_fit_and_counted_when_they_do_not_fit) {
  bench b;
  EXPECT_TRUE(b.unit->allocate(0, 5, 0));
  EXPECT_FALSE(b.unit->allocate(1, 4, 0));  // 3 left
  EXPECT_EQ(b.s().unplaced_warps.value(), 1u);
  EXPECT_FALSE(b.unit->tracked(1, 0));
  b.unit->release(0, 10);
  EXPECT_TRUE(b.unit->allocate(1, 4, 10));
  EXPECT_TRUE(b.unit->tracked(1, 3));
}

// The idle split counts a register's allocated time only. WRF never powers an allocated
// register off: warp 0's four registers are DS [0, 50), freed (unallocated, OFF in the
// power component) [50, 200), and warp 1's DS [200, 300) in the same four registers.
TEST(slumber, wrf_counts_no_off_time_for_a_register_reallocated) {
  bench b(true);
  ASSERT_TRUE(b.unit->allocate(0, 4, 0));
  b.unit->release(0, 50);
  ASSERT_TRUE(b.unit->allocate(1, 4, 200));
  EXPECT_DOUBLE_EQ(b.cycles_in(ds, 300), 4 * 50 + 4 * 100);
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 300), 4 * 150 + 4 * 300);  // R4..R7 never allocated
  EXPECT_EQ(b.s().idle_off.value(), 0u);
  EXPECT_EQ(b.s().idle_ds.value(), 4u * 50 + 4 * 100);
  EXPECT_EQ(b.s().idle_ss.value(), 0u);
}

// Under Slumber an allocated, unused register is OFF from its allocation: two registers
// allocated at 30 are OFF [30, 100) as allocated registers (2 x 70), not from cycle 0; freed
// at 100 and allocated again at 160 to another warp, [160, 220) counts again (2 x 60).
TEST(slumber, slumber_counts_off_time_from_allocation_to_release) {
  bench b;
  ASSERT_TRUE(b.unit->allocate(0, 2, 30));
  b.unit->release(0, 100);
  ASSERT_TRUE(b.unit->allocate(1, 2, 160));
  EXPECT_DOUBLE_EQ(b.cycles_in(off, 220), 8 * 220);  // every register OFF throughout
  EXPECT_EQ(b.s().idle_off.value(), 2u * 70 + 2 * 60);
  EXPECT_EQ(b.s().idle_ds.value() + b.s().idle_ss.value(), 0u);
}

}  // namespace test_slumber
