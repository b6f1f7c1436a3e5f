// A neighbour link's communication buffer pair (models/spu/communication_buffer.h): a warp's
// CB.PUSH / CB.POP timed like shared memory (latency + one cycle per further 128-byte bank
// row, by hand), the ping-pong of the pair at a swap (the reader sees what was written
// before the swap, the writer an empty buffer), and overflow and underflow counted.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/spu/communication_buffer.h"
#include "tests/memory/mem_testbench.h"

namespace test_communication_buffer {

using gputlm::spu::communication_buffer;

namespace {
struct unit : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<unit> out{"out"};
  explicit unit(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
  // One warp access of `bytes`; returns its delay in cycles of `clk`.
  std::uint64_t access(std::uint64_t bytes, const gputlm::clock_domain& clk) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(static_cast<unsigned>(bytes));
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    out->b_transport(gp, d);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    return static_cast<std::uint64_t>(d / clk.delay_cycles(1));
  }
};

struct cb_link {
  gputlm::test::block_env env;
  gputlm::clock_domain& clk = env.clock("core", 700e6);
  std::unique_ptr<communication_buffer> cb;
  unit up{"up"}, down{"down"};
  explicit cb_link(const std::map<std::string, std::string>& values = {}) {
    cb = env.make<communication_buffer>("cb", clk, values, "communication_buffer");
    up.out.bind(cb->writer);
    down.out.bind(cb->reader);
  }
  std::uint64_t stat(const std::string& n) const { return cb->count(n); }
};
}  // namespace

TEST(communication_buffer, warp_accesses_take_latency_plus_bank_rows) {
  cb_link l;
  // 32 lanes x 16 B (CB.PUSH of a float4 per lane) = 512 B = 4 rows of 32 banks x 4 B.
  EXPECT_EQ(l.up.access(512, l.clk), 26u + 3u);
  EXPECT_EQ(l.down.access(128, l.clk), 26u);       // one row
  EXPECT_EQ(l.down.access(129, l.clk), 26u + 1u);  // a byte into the next row
  EXPECT_EQ(l.stat("accesses"), 4u + 1u + 2u);
}

TEST(communication_buffer, the_pair_swaps_at_a_sync) {
  cb_link l;
  for (int i = 0; i < 8; ++i) l.up.access(512, l.clk);  // one 32 x 32 fp32 face: 4 KiB
  EXPECT_EQ(l.cb->write_fill(), 4096u);
  EXPECT_EQ(l.cb->read_fill(), 0u);
  EXPECT_EQ(l.stat("overflow_bytes"), 0u);
  l.down.access(512, l.clk);  // before the swap the reader's buffer holds nothing
  EXPECT_EQ(l.stat("underflow_bytes"), 512u);
  l.cb->swap();
  EXPECT_EQ(l.cb->write_buffer(), 1u);
  EXPECT_EQ(l.cb->read_fill(), 4096u);
  EXPECT_EQ(l.cb->write_fill(), 0u);
  for (int i = 0; i < 8; ++i) l.down.access(512, l.clk);
  EXPECT_EQ(l.stat("underflow_bytes"), 512u);  // all 4 KiB were there
  l.down.access(4, l.clk);
  EXPECT_EQ(l.stat("underflow_bytes"), 516u);
  // The writer meanwhile fills the other buffer; one byte too many is counted, not stored.
  l.up.access(4096, l.clk);
  l.up.access(1, l.clk);
  EXPECT_EQ(l.cb->write_fill(), 4096u);
  EXPECT_EQ(l.stat("overflow_bytes"), 1u);
  l.cb->swap();
  EXPECT_EQ(l.cb->write_buffer(), 0u);
  EXPECT_EQ(l.cb->read_fill(), 4096u);
  EXPECT_EQ(l.stat("swaps"), 2u);
  EXPECT_EQ(l.stat("pushes"), 10u);
  EXPECT_EQ(l.stat("pops"), 10u);
}

TEST(communication_buffer, sizes_come_from_yaml) {
  cb_link l({{"size", "16KiB"}, {"latency", "2cycles"}});
  EXPECT_EQ(l.cb->capacity(), 16384u);
  EXPECT_EQ(l.up.access(512, l.clk), 2u + 3u);
}

TEST(communication_buffer, an_empty_buffer_is_bad_input) {
  gputlm::test::block_env env;
  auto& clk = env.clock("core", 700e6);
  EXPECT_THROW(env.make<communication_buffer>("cb", clk, {{"size", "0B"}}, "communication_buffer"),
               gputlm::input_error);
}

}  // namespace test_communication_buffer
