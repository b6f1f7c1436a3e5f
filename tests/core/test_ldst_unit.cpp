// The SMX's LDST unit and scoreboard alone, against what is worked out here: request
// counts of coalescing, the queue's order and back-pressure, pending-load records and their
// reuse, a context save's line addresses, shared-memory bank cycles, and the scoreboard's
// ready times.
#include <gtest/gtest.h>

#include <cstdint>
#include <tlm>
#include <vector>

#include "models/core/ldst_unit.h"
#include "models/core/scoreboard.h"

namespace test_ldst_unit {

using namespace gputlm;
using namespace gputlm::core;
using traces::warp_instruction;

namespace {
// A warp's address array and one instruction reading it: 32 lanes at base + lane * stride.
struct warp_access {
  std::vector<std::uint64_t> addresses;
  warp_instruction in;
  warp_access(std::uint64_t base, std::uint64_t stride, std::uint8_t size, traces::mem_space space,
              bool load = true) {
    for (std::uint64_t lane = 0; lane < 32; ++lane) addresses.push_back(base + lane * stride);
    in.active_mask = 0xffffffffu;
    in.addr_index = 0;
    in.addr_form = traces::address_form::list;
    in.access_size = size;
    in.space = space;
    in.pc = 0x40;
    if (load) {
      in.num_dst = 1;
      in.dst[0] = 7;
    }
  }
};
}  // namespace

TEST(LdstUnit, CoalescesQueuesInOrderAndReleasesThePendingRecord) {
  ldst_unit u;
  u.configure(70, 128, 32);
  // 32 lanes, 8 B apart: 256 bytes, two 128 B lines.
  warp_access a(0x1000, 8, 8, traces::mem_space::global);
  ASSERT_TRUE(u.coalesce(a.in, a.addresses.data()));
  ASSERT_EQ(u.coalesced().size(), 2u);
  EXPECT_EQ(ldst_unit::kind_of(a.in), access_kind::global_load);
  EXPECT_EQ(u.enqueue(5, a.in, access_kind::global_load), 2u);
  EXPECT_EQ(u.queued(), 2u);
  EXPECT_TRUE(u.can_send(0));
  const ldst_unit::request first = u.pop();
  const ldst_unit::request second = u.pop();
  EXPECT_EQ(first.req.line_address, 0x1000u);
  EXPECT_EQ(second.req.line_address, 0x1080u);
  EXPECT_EQ(first.warp, 5u);
  EXPECT_EQ(first.pc, 0x40u);
  EXPECT_EQ(first.pending, second.pending);
  EXPECT_FALSE(u.can_send(0));  // empty
  ldst_unit::pending_load& pl = u.pending(first.pending);
  EXPECT_EQ(pl.warp, 5u);
  EXPECT_EQ(pl.requests, 2u);
  EXPECT_EQ(pl.dst[0], 7u);
  EXPECT_EQ(pl.restores_tb, ldst_unit::no_tb);
  // A released record is the next one taken, reset.
  u.release(first.pending);
  warp_access store(0x2000, 4, 4, traces::mem_space::global, false);
  ASSERT_TRUE(u.coalesce(store.in, store.addresses.data()));
  EXPECT_EQ(ldst_unit::kind_of(store.in), access_kind::global_store);
  EXPECT_EQ(u.enqueue(1, store.in, access_kind::global_store), 1u);
  const ldst_unit::request s = u.pop();
  EXPECT_EQ(s.pending, first.pending);
  EXPECT_EQ(u.pending(s.pending).dst[0], warp_instruction::no_reg);
}

TEST(LdstUnit, BackPressureHoldsTheQueueUntilItsOwnEndReq) {
  ldst_unit u;
  u.configure(70, 128, 32);
  warp_access a(0, 128, 4, traces::mem_space::global);  // 32 lanes on 32 lines
  ASSERT_TRUE(u.coalesce(a.in, a.addresses.data()));
  EXPECT_EQ(u.enqueue(0, a.in, access_kind::global_load), 32u);
  tlm::tlm_generic_payload withheld, other;
  u.pop();
  u.block(withheld);
  EXPECT_TRUE(u.blocked());
  EXPECT_FALSE(u.can_send(100));
  EXPECT_FALSE(u.unblock(other));  // an earlier request's END_REQ does not free the port
  EXPECT_TRUE(u.blocked());
  EXPECT_TRUE(u.unblock(withheld));
  EXPECT_TRUE(u.can_send(100));
  EXPECT_EQ(u.queued(), 31u);
  // A unit waking from gating sends nothing before send_from.
  u.send_from(50);
  EXPECT_FALSE(u.can_send(49));
  EXPECT_TRUE(u.can_send(50));
}

TEST(LdstUnit, FlushGoesBehindQueuedRequestsAndContextLinesAreConsecutive) {
  ldst_unit u;
  u.configure(20, 128, 32);
  u.enqueue_lines(3, 0x10000, 3, access_kind::local_load, 2);
  u.enqueue_flush();
  EXPECT_EQ(u.queued(), 4u);
  std::uint32_t p = 0;
  for (std::uint64_t l = 0; l < 3; ++l) {
    const ldst_unit::request r = u.pop();
    EXPECT_EQ(r.req.line_address, 0x10000 + 128 * l);
    EXPECT_EQ(r.req.bytes, 128u);
    EXPECT_EQ(r.req.sector_mask, 0xfu);
    EXPECT_EQ(r.kind, access_kind::local_load);
    p = r.pending;
  }
  EXPECT_EQ(u.pending(p).restores_tb, 2u);
  EXPECT_EQ(u.pending(p).requests, 3u);
  EXPECT_EQ(u.pop().kind, access_kind::flush);
}

TEST(LdstUnit, AccessKindsAndNoAddresses) {
  warp_access atom(0, 4, 4, traces::mem_space::global_atomic);
  EXPECT_EQ(ldst_unit::kind_of(atom.in), access_kind::atomic);
  warp_access local(0, 4, 4, traces::mem_space::local, false);
  EXPECT_EQ(ldst_unit::kind_of(local.in), access_kind::local_store);
  warp_access tex(0, 4, 4, traces::mem_space::texture);
  EXPECT_EQ(ldst_unit::kind_of(tex.in), access_kind::texture_load);
  ldst_unit u;
  u.configure(70, 128, 32);
  warp_instruction none;  // a memory instruction whose trace carries no addresses
  none.space = traces::mem_space::global;
  EXPECT_FALSE(u.coalesce(none, nullptr));
  // Atomics: one 32 B request per sector for distinct words (32 lanes x 4 B = 4 sectors).
  ASSERT_TRUE(u.coalesce(atom.in, atom.addresses.data()));
  EXPECT_EQ(u.coalesced().size(), 4u);
}

TEST(LdstUnit, SharedMemoryBankCycles) {
  ldst_unit u;
  u.configure(70, 128, 32);
  // 4 B apart: 32 banks, one word each: 1 cycle.
  warp_access a(0, 4, 4, traces::mem_space::shared);
  EXPECT_EQ(u.shared_cycles(a.in, a.addresses.data()), 1u);
  // 8 B apart: words 0, 2, ..., 62 on the even banks, two distinct words each: 2 cycles.
  warp_access b(0, 8, 4, traces::mem_space::shared);
  EXPECT_EQ(u.shared_cycles(b.in, b.addresses.data()), 2u);
  // 128 B apart: every lane on bank 0, 32 distinct words: 32 cycles.
  warp_access c(0, 128, 4, traces::mem_space::shared);
  EXPECT_EQ(u.shared_cycles(c.in, c.addresses.data()), 32u);
  // Same word for all lanes: a broadcast, 1 cycle.
  warp_access d(64, 0, 4, traces::mem_space::shared);
  EXPECT_EQ(u.shared_cycles(d.in, d.addresses.data()), 1u);
  // No active lane: still the unit's one cycle.
  warp_access e(0, 4, 4, traces::mem_space::shared);
  e.in.active_mask = 0;
  EXPECT_EQ(u.shared_cycles(e.in, e.addresses.data()), 1u);
}

TEST(Scoreboard, ReadyByIsTheLatestSourceOrDestinationAndClearResets) {
  scoreboard sb;
  sb.resize(2);
  warp_instruction in;
  in.num_src = 2;
  in.src[0] = 1;
  in.src[1] = 2;
  in.num_dst = 1;
  in.dst[0] = 3;
  EXPECT_EQ(sb.ready_by(0, in), 0u);
  sb.set(0, 1, 10);
  sb.set(0, 2, 14);
  EXPECT_EQ(sb.ready_by(0, in), 14u);  // RAW on r2
  sb.set(0, 3, 20);
  EXPECT_EQ(sb.ready_by(0, in), 20u);  // WAW on r3
  EXPECT_EQ(sb.ready_by(1, in), 0u);   // another warp slot
  sb.set(0, 200, scoreboard::never);   // a load in flight on a register `in` does not name
  EXPECT_EQ(sb.ready_by(0, in), 20u);
  in.src[1] = 200;
  EXPECT_EQ(sb.ready_by(0, in), scoreboard::never);
  sb.clear(0);
  EXPECT_EQ(sb.ready_by(0, in), 0u);
  // Registers past the 256 the scoreboard tracks (no_reg) are not checked.
  in.src[0] = warp_instruction::no_reg;
  EXPECT_EQ(sb.ready_by(0, in), 0u);
}

}  // namespace test_ldst_unit
