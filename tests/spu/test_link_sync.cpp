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

using gputlm::spu::communication_buffer;

namespace {
struct sm_thread : sc_core::sc_module {
  SC_HAS_PROCESS(sm_thread);
  tlm_utils::simple_initiator_socket<sm_thread> sync{"sync"};
  const gputlm::clock_domain& clk;
  std::uint64_t first, work;  // cycle of the first sync; cycles of work between syncs
  int syncs;
  std::vector<std::uint64_t> released;  // cycle of each release
  sc_core::sc_event resp;
  tlm::tlm_generic_payload gp;  // (a member: a thread left waiting does not own it)
  sc_core::sc_time resp_delay;
  sm_thread(const sc_core::sc_module_name& n, const gputlm::clock_domain& c, std::uint64_t f,
            std::uint64_t w, int s)
      : sc_core::sc_module(n), clk(c), first(f), work(w), syncs(s) {
    sync.register_nb_transport_bw(this, &sm_thread::bw);
    SC_THREAD(run);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time& d) {
    resp_delay = d;
    resp.notify();
    return tlm::TLM_COMPLETED;
  }
  void run() {
    wait(clk.delay_cycles(first));
    for (int i = 0; i < syncs; ++i) {
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      if (sync->nb_transport_fw(gp, ph, d) == tlm::TLM_ACCEPTED) {
        wait(resp);
        d = resp_delay;
      }
      wait(d);
      released.push_back(clk.now_cycle());
      if (i + 1 < syncs) wait(clk.delay_cycles(work));
    }
  }
};
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
  sm_thread producer("producer", clk, 10, 10, 3);
  sm_thread consumer("consumer", clk, 5, 30, 4);  // a 4th sync the producer never meets
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
