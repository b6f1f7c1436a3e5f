// The directional block sync of one SPU link (communication_buffer's writer_sync /
// reader_sync; thesis §4.2, Algorithm 3): a producer SM and a consumer SM as SystemC
// threads, the producer working 10 cycles per tile, the consumer 30, each syncing once per
// tile; by hand, the pair meets at cycles 10, 40 and 70, the consumer waits 5 cycles for
// the first tile (buffer empty) and the producer 20 + 20 for the consumer (buffer full);
// every meeting swaps the pair; a sync with no partner left is named as the link's pending
// work.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

#include "models/spu/communication_buffer.h"
#include "tests/memory/mem_testbench.h"
#include "tests/spu/sync_unit.h"

namespace test_link_sync {

using gputlm::spu::communication_buffer;
using gputlm::test::sync_unit;

namespace {
// The data sockets' other ends (this test only syncs).
struct data_ends : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<data_ends> w{"w"}, r{"r"};
  explicit data_ends(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
};
}  // namespace

TEST(link_sync, producer_and_consumer_wait_exactly_while_full_or_empty) {
  gputlm::test::block_env env;
  auto& clk = env.clock("core", 700e6);
  auto cb = env.make<communication_buffer>("cb", clk, {}, "communication_buffer");
  sync_unit producer("producer", clk, 10, 10, 3);
  sync_unit consumer("consumer", clk, 5, 30, 4);  // a 4th sync the producer never meets
  producer.sync.bind(cb->writer_sync);
  consumer.sync.bind(cb->reader_sync);
  data_ends ends("ends");
  ends.w.bind(cb->writer);
  ends.r.bind(cb->reader);
  sc_core::sc_start(clk.delay_cycles(1000));
  EXPECT_EQ(producer.released, (std::vector<std::uint64_t>{10, 40, 70}));
  EXPECT_EQ(consumer.released, (std::vector<std::uint64_t>{10, 40, 70}));
  EXPECT_EQ(cb->count("reader_wait_cycles"), 5u);
  EXPECT_EQ(cb->count("writer_wait_cycles"), 40u);
  EXPECT_EQ(cb->count("swaps"), 3u);
  EXPECT_EQ(cb->write_buffer(), 1u);
  EXPECT_EQ(cb->pending_work(), "reader waits at its sync 4 (the writer is at 3)");
}

}  // namespace test_link_sync
