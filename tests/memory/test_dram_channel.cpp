// The DRAM channel as a SystemC block: a row-hit read is faster than a row-miss read by
// tRP + tRCD, and a stream of reads over every channel of a platform reaches its published
// peak bandwidth (within 5 %). Channel parameters are read from the platform YAML; the
// expected peaks are the vendors' published figures.
#include "models/memory/dram_channel.h"
#include "tests/memory/mem_testbench.h"

namespace test_dram_channel {

using namespace gputlm;
using namespace gputlm::test;
using gputlm::memory::address_decoder;
using gputlm::memory::dram_channel;

namespace {
tg_request read_at(std::uint64_t addr, std::uint64_t not_before, unsigned len = 128) {
  tg_request r;
  r.addr = addr;
  r.length = len;
  r.kind = access_kind::fill;
  r.not_before = not_before;
  return r;
}

// Streams `lines` consecutive 128 B lines through every channel of `file`; returns GB/s.
double stream(const std::string& file, std::uint64_t lines) {
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/" + file, "dram");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["sector_atoms"] = "false";  // the bus's peak: whole lines on whole atoms
  clock_domain& clk = env.clock("dram", y.clock_hz);
  const std::uint32_t channels = static_cast<std::uint32_t>(y.count);
  const std::uint32_t subs = static_cast<std::uint32_t>(y.vars.at("sub_partitions"));
  address_decoder dec(y.values.at("address_map"), channels, subs);
  std::vector<std::vector<tg_request>> scripts(std::size_t(channels) * subs);
  for (std::uint64_t i = 0; i < lines; ++i) {
    const auto a = dec.decode(i * 128);
    scripts[a.sub_partition].push_back(read_at(i * 128, 0));
  }
  std::vector<std::unique_ptr<dram_channel>> ch;
  std::vector<std::unique_ptr<traffic_generator>> tg;
  for (std::uint32_t c = 0; c < channels; ++c) {
    ch.push_back(
        env.make<dram_channel>("dram_" + std::to_string(c), clk, y.values, "dram_channel"));
    for (std::uint32_t s = 0; s < subs; ++s) {
      const std::uint32_t sp = c * subs + s;
      tg.push_back(std::make_unique<traffic_generator>(("tg_" + std::to_string(sp)).c_str(), clk,
                                                       scripts[sp]));
      tg.back()->socket.bind(*ch.back()->l2[s]);
    }
  }
  sc_core::sc_start();
  std::uint64_t first = ~std::uint64_t(0), last = 0, done = 0;
  for (auto& t : tg) {
    EXPECT_EQ(t->completed, t->records.size());
    EXPECT_EQ(t->pool.in_use(), 0u);
    done += t->completed;
    first = std::min(first, t->first_issue);
    last = std::max(last, t->last_response);
  }
  EXPECT_EQ(done, lines);
  double row_hits = 0, row_misses = 0;
  for (auto& c : ch) {
    row_hits += double(c->stats_view().row_hits.value());
    row_misses += double(c->stats_view().row_misses.value());
    EXPECT_FALSE(c->busy());
  }
  EXPECT_GT(row_hits / (row_hits + row_misses), 0.9);
  return double(lines) * 128.0 * y.clock_hz / double(last - first) / 1e9;
}
}  // namespace

TEST(dram_channel, row_hit_read_is_faster_than_row_miss_read_by_tRP_plus_tRCD) {
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  y.values["sector_atoms"] = "false";  // requests of whole atoms (this test's timing)  // one channel: addresses are channel-local
  clock_domain& clk = env.clock("dram", y.clock_hz);
  auto ch = env.make<dram_channel>("dram", clk, y.values, "dram_channel");
  // GTX480 map: row from bit 16, bank bits 8 and 13..15, column bits 6, 7, 9..12.
  // A: bank 0 row 0; B: column 1 of the same row; C: bank 0 row 1.
  traffic_generator tg("tg", clk,
                       {read_at(0x0, 0, 64), read_at(0x40, 100, 64), read_at(0x10000, 200, 64)});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 3u);
  const std::uint64_t tRP = 12, tRCD = 12, CL = 12, burst = 8 / 4;  // GS4 GTX480 timing
  EXPECT_EQ(tg.latency(0), tRCD + CL + burst);                      // closed bank: ACT, RD
  EXPECT_EQ(tg.latency(1), CL + burst);                             // open row: RD
  EXPECT_EQ(tg.latency(2) - tg.latency(1), tRP + tRCD);
  EXPECT_EQ(ch->stats_view().row_hits.value(), 1u);
  EXPECT_EQ(ch->stats_view().row_misses.value(), 2u);
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

TEST(dram_channel, full_queue_withholds_end_req) {
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  y.values["sector_atoms"] = "false";  // requests of whole atoms (this test's timing)
  y.values["queue_depth"] = "2";
  clock_domain& clk = env.clock("dram", y.clock_hz);
  auto ch = env.make<dram_channel>("dram", clk, y.values, "dram_channel");
  // Four reads to four rows of bank 0 arrive together: two queue, the rest wait for room.
  traffic_generator tg(
      "tg", clk, {read_at(0x0, 0), read_at(0x10000, 0), read_at(0x20000, 0), read_at(0x30000, 0)});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 4u);
  EXPECT_EQ(tg.records[1].accepted, 0u);
  // A (128 B = two 64 B atoms) leaves the queue with its second column access:
  // ACT at 0, RD at tRCD = 12, RD at 12 + tCCDL = 15 (same bank group). Then C enters.
  EXPECT_EQ(tg.records[2].accepted, 15u);
  EXPECT_EQ(tg.records[0].responded, 15u + 12 + 2);  // + CL + burst
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

// GTX480: 384-bit GDDR5 at 3696 MT/s = 48 B x 3.696 GT/s = 177.4 GB/s.
TEST(dram_channel, gtx480_stream_reaches_peak) {
  const double peak = 48 * 3.696;
  const double got = stream("yaml/fermi.yaml", 24000);
  RecordProperty("achieved_gbps", std::to_string(got));
  std::printf("GTX480 stream: %.1f GB/s of %.1f (%.1f %%)\n", got, peak, 100 * got / peak);
  EXPECT_GE(got, 0.95 * peak);
  EXPECT_LE(got, 1.0001 * peak);
}

// TITAN X (Pascal): 384-bit GDDR5X at 10 GT/s = 480 GB/s.
TEST(dram_channel, titanx_stream_reaches_peak) {
  const double peak = 48 * 10.0;
  const double got = stream("yaml/pascal.yaml", 24000);
  std::printf("TITAN X stream: %.1f GB/s of %.1f (%.1f %%)\n", got, peak, 100 * got / peak);
  EXPECT_GE(got, 0.95 * peak);
  EXPECT_LE(got, 1.0001 * peak);
}

// TITAN V: 3072-bit HBM2 at 1.7 GT/s = 652.8 GB/s.
TEST(dram_channel, titanv_stream_reaches_peak) {
  const double peak = 384 * 1.7;
  const double got = stream("yaml/volta.yaml", 48000);
  std::printf("TITAN V stream: %.1f GB/s of %.1f (%.1f %%)\n", got, peak, 100 * got / peak);
  EXPECT_GE(got, 0.95 * peak);
  EXPECT_LE(got, 1.0001 * peak);
}

// GPGPU-Sim sends the L2's misses to DRAM one 32-byte sector per request, and each takes a
// whole column access: on the GTX480's 64-byte atom (2 chips x 4 B x BL8) a sector request
// occupies a 64-byte burst's bus time, and a 128-byte line four of them. Worked by hand from
// the GS4 GTX480 timing: ACT 0, RD at tRCD = 12 and then every tCCDL = 3 cycles (one bank
// group); the data of the last RD ends CL + BL/4 = 12 + 2 cycles after it.
TEST(dram_channel, gtx480_sector_requests_take_a_whole_atom_each) {
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  ASSERT_EQ(y.values.at("sector_atoms"), "true");  // the platform's setting (GS4)
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  clock_domain& clk = env.clock("dram", y.clock_hz);
  auto ch = env.make<dram_channel>("dram", clk, y.values, "dram_channel");
  tg_request sector = read_at(0x0, 0, 32), line = read_at(0x20000, 200, 128);
  sector.sectors = 0x1;
  line.sectors = 0xf;
  traffic_generator tg("tg", clk, {sector, line});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 2u);
  const std::uint64_t tRP = 12, tRCD = 12, CL = 12, tCCDL = 3, burst = 8 / 4;
  EXPECT_EQ(tg.latency(0), tRCD + CL + burst);  // one column access: a 64-byte atom's time
  // Bank 0, another row: PRE, ACT, then four column accesses.
  EXPECT_EQ(tg.latency(1), tRP + tRCD + 3 * tCCDL + CL + burst);
  EXPECT_EQ(ch->stats_view().bytes.value(), 5u * 64);        // five atoms on the bus
  EXPECT_EQ(ch->stats_view().requested_bytes.value(), 160u);  // 32 + 128 asked for
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

// A write-back is one DRAM request of its modified sectors' bytes on whole atoms (GPGPU-Sim:
// nbytes = m_modified_size, a column access per dram_atom_size until they are sent), not a
// column access per sector as a read's sectors take: on the GTX480's 64-byte atom a full
// line is 2 atoms, three sectors (96 B) 2, one sector 1.
TEST(dram_channel, gtx480_write_backs_take_their_bytes_on_whole_atoms) {
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  ASSERT_EQ(y.values.at("sector_atoms"), "true");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  clock_domain& clk = env.clock("dram", y.clock_hz);
  auto ch = env.make<dram_channel>("dram", clk, y.values, "dram_channel");
  auto write_back = [](std::uint64_t addr, std::uint8_t sectors) {
    tg_request r;
    r.addr = addr;
    r.length = 128;
    r.kind = access_kind::writeback;
    r.sectors = sectors;
    return r;
  };
  traffic_generator tg("tg", clk,
                       {write_back(0x0, 0xf), write_back(0x80, 0x7), write_back(0x100, 0x1)});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 3u);
  EXPECT_EQ(ch->stats_view().writes.value(), 3u);
  EXPECT_EQ(ch->stats_view().bytes.value(), (2u + 2u + 1u) * 64);  // five atoms on the bus
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

TEST(dram_channel, queueing_latency_counts_the_wait_for_the_first_command) {
  // Two reads to two rows of bank 0 at cycle 0: the first is activated at once (queueing 0);
  // the second waits for the first's precharge: ACT 0, RD 12 and 15 (two 64 B atoms, tCCDL
  // 3), PRE at max(tRAS 28, 15 + max(burst 2, tRTPL 2)) = 28.
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  y.values["sector_atoms"] = "false";  // requests of whole atoms (this test's timing)
  clock_domain& clk = env.clock("dram", y.clock_hz);
  auto ch = env.make<dram_channel>("dram", clk, y.values, "dram_channel");
  traffic_generator tg("tg", clk, {read_at(0x0, 0), read_at(0x10000, 0)});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 2u);
  EXPECT_DOUBLE_EQ(stat(env.stats, "dram", "avg_queueing_latency"), (0.0 + 28.0) / 2);
}

}  // namespace test_dram_channel
