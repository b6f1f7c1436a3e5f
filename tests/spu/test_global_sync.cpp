// The SPU's global block sync (models/spu/global_sync.h): three active units of four
// arriving at cycles 5, 12 and 20 are all released at cycle 20, in the same cycle, and both
// links' buffer pairs swap once per barrier; waits by hand: 15 + 8 cycles at the first
// barrier. The fourth unit takes no part until activated. A barrier one unit never reaches
// names the units waiting.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

#include "models/spu/communication_buffer.h"
#include "models/spu/global_sync.h"
#include "tests/memory/mem_testbench.h"
#include "tests/spu/sync_unit.h"

namespace test_global_sync {

using gputlm::spu::communication_buffer;
using gputlm::spu::global_sync;
using gputlm::test::sync_unit;

TEST(global_sync, all_active_units_leave_together_and_every_link_swaps) {
  gputlm::test::block_env env;
  auto& clk = env.clock("core", 700e6);
  auto sync = env.make<global_sync>("sync", clk, {{"bound:unit", "4"}, {"bound:link", "2"}},
                                    "global_sync");
  auto cb0 = env.make<communication_buffer>("cb0", clk, {}, "communication_buffer");
  auto cb1 = env.make<communication_buffer>("cb1", clk, {}, "communication_buffer");
  sync->link[0]->connect(*cb0);  // as the platform binds link[i] -> cb[i].swap
  sync->link[1]->connect(*cb1);
  sync->set_active(3);
  // Unit 0: first sync at 5, then 10 cycles of work between syncs; unit 1 at 12 then 10;
  // unit 2 at 20 then 2, and one barrier more than the others.
  sync_unit u0("u0", clk, 5, 10, 2), u1("u1", clk, 12, 10, 2), u2("u2", clk, 20, 2, 3);
  u0.sync.bind(*sync->unit[0]);
  u1.sync.bind(*sync->unit[1]);
  u2.sync.bind(*sync->unit[2]);
  // The other ends of the links' sockets (data unused here) and of the inactive unit 3.
  struct ends : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<ends> w0{"w0"}, r0{"r0"}, w1{"w1"}, r1{"r1"};
    tlm_utils::simple_initiator_socket<ends> ws0{"ws0"}, rs0{"rs0"}, ws1{"ws1"}, rs1{"rs1"};
    tlm_utils::simple_initiator_socket<ends> idle{"idle"};
    explicit ends(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
  } e("ends");
  e.w0.bind(cb0->writer);
  e.r0.bind(cb0->reader);
  e.w1.bind(cb1->writer);
  e.r1.bind(cb1->reader);
  e.ws0.bind(cb0->writer_sync);
  e.rs0.bind(cb0->reader_sync);
  e.ws1.bind(cb1->writer_sync);
  e.rs1.bind(cb1->reader_sync);
  e.idle.bind(*sync->unit[3]);
  sc_core::sc_start(clk.delay_cycles(200));
  // Barrier 1 at 20 (the last arrival); barrier 2: u0 and u1 arrive at 30, u2 at 22 -> 30.
  EXPECT_EQ(u0.released, (std::vector<std::uint64_t>{20, 30}));
  EXPECT_EQ(u1.released, (std::vector<std::uint64_t>{20, 30}));
  EXPECT_EQ(u2.released, (std::vector<std::uint64_t>{20, 30}));
  EXPECT_EQ(sync->barriers(), 2u);
  EXPECT_EQ(sync->wait_cycles(), (15u + 8u) + (8u + 0u));
  EXPECT_EQ(cb0->count("swaps"), 2u);
  EXPECT_EQ(cb1->count("swaps"), 2u);
  // u2's third sync (at 32) finds nobody: reported.
  EXPECT_EQ(sync->pending_work(), "1 of 3 active units at barrier 3 (unit[2] waiting)");
}

}  // namespace test_global_sync
