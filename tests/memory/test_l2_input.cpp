// The L2 bank's input path, as GPGPU-Sim's memory_sub_partition has it: requests are
// admitted one a cycle while the icnt->L2 queue has room for a line's four sectors, spend
// the ROP delay in a pipeline with no bound of its own, enter the icnt->L2 queue one a cycle,
// and are looked up from its head a cycle later (docs/memory.md, "The L2's input"). A
// traffic generator offers six loads at cycle 0 to an L2 with a 4-entry icnt->L2 queue and a
// 10-cycle ROP delay, in front of a 50-cycle memory; the cycles are worked out by hand.
#include "models/memory/l2_cache.h"
#include "tests/memory/mem_testbench.h"

namespace test_l2_input {

using namespace gputlm;
using namespace gputlm::test;
using gputlm::memory::l2_cache;

TEST(l2_input, requests_pass_the_rop_pipeline_beyond_the_queue_depth) {
  block_env env;
  clock_domain& clk = env.clock("l2", 1e9);
  std::vector<tg_request> script;
  for (std::uint64_t k = 0; k < 6; ++k) {
    tg_request r;
    r.addr = 0x10000 + k * 128;  // six distinct lines: six misses
    r.length = 32;
    r.sectors = 1;
    script.push_back(r);
  }
  auto l2 = env.make<l2_cache>("l2", clk, test_l2_params({{"icnt_to_l2_queue", "4"}}), "l2_cache");
  traffic_generator tg("tg", clk, script);
  fixed_memory mem("mem", clk, 50);
  tg.socket.bind(l2->icnt);
  l2->dram.bind(mem.socket);
  sc_core::sc_start(1000, sc_core::SC_NS);
  ASSERT_EQ(tg.completed, 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    // Admitted in cycle k (one a cycle; the ROP pipeline holds more than the 4-entry queue),
    // in the queue at k + 10, looked up at k + 11, the fill 50 cycles later answers it.
    EXPECT_EQ(tg.records[k].accepted, k) << k;
    EXPECT_EQ(tg.records[k].responded, k + 10 + 1 + 50) << k;
  }
}

}  // namespace test_l2_input
