// The interconnects as SystemC blocks between traffic generators (the L1s' side) and
// fixed-latency memories (the L2s' side): unloaded latency of the 2-D mesh is
// routers x (routing + channel latency) + serialisation, and grows under contention; the
// crossbar's is latency + ceil(flits / speedup) per direction; full buffers push back.
// Hop counts and flit counts are computed here from the node coordinates and packet sizes.
#include <cstdlib>

#include "models/memory/dram_channel.h"
#include "models/noc/crossbar.h"
#include "models/noc/network_interface.h"
#include "models/noc/mesh.h"
#include "platforms/platform.h"
#include "tests/memory/mem_testbench.h"

namespace test_noc {

using namespace gputlm;
using namespace gputlm::test;

namespace {
tg_request req(std::uint64_t addr, access_kind k = access_kind::fill, unsigned len = 128,
               bool after_previous = false) {
  tg_request r;
  r.addr = addr;
  r.length = len;
  r.kind = k;
  r.after_previous = after_previous;
  return r;
}

// LATOA mesh (docs/references.md, "LATOA mesh platform"): 8 x 8, 4 VCs, routing 4,
// channel 1; GS3 flit 32 B.
std::map<std::string, std::string> latoa_mesh(std::map<std::string, std::string> extra) {
  std::map<std::string, std::string> p = {{"columns", "8"},
                                          {"rows", "8"},
                                          {"vcs", "4"},
                                          {"vc_buffer", "8"},
                                          {"flit_size", "32B"},
                                          {"routing_latency", "4cycles"},
                                          {"channel_latency", "1cycles"},
                                          {"mem_channels", "2"},
                                          {"partition_indexing", "linear"}};
  for (auto& [k, v] : extra) p[k] = v;
  return p;
}
std::uint32_t routers(std::uint32_t a, std::uint32_t b) {
  return std::uint32_t(std::abs(int(a % 8) - int(b % 8)) + std::abs(int(a / 8) - int(b / 8)) + 1);
}
// Traffic generators on the network's first `ports` SMX ports, each writing `per_port`
// 128 B lines, port i's k-th at line(i, k) x 128.
template <class Line>
std::vector<std::unique_ptr<traffic_generator>> line_writers(noc::network& net, clock_domain& clk,
                                                             int ports, int per_port, Line line) {
  std::vector<std::unique_ptr<traffic_generator>> tg;
  for (int i = 0; i < ports; ++i) {
    std::vector<tg_request> s;
    for (int k = 0; k < per_port; ++k)
      s.push_back(req(std::uint64_t(line(i, k)) * 128, access_kind::global_store));
    tg.push_back(std::make_unique<traffic_generator>(("tg" + std::to_string(i)).c_str(), clk, s));
    tg.back()->socket.bind(*net.smx[std::size_t(i)]);
  }
  return tg;
}
}  // namespace

TEST(mesh, unloaded_latency_is_routers_times_router_plus_channel) {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  // SMX 0 at (0,0), SMX 1 at (3,3); memory port 0 at (7,7), port 1 at (5,0).
  auto m = env.make<noc::mesh>("mesh", clk,
                               latoa_mesh({{"bound:smx", "2"},
                                           {"bound:mem", "2"},
                                           {"smx_nodes", "[0, 27]"},
                                           {"mem_nodes", "[63, 5]"}}),
                               "mesh");
  // Port 0 serves even 256 B chunks, port 1 odd ones (two channels, dramid@8).
  traffic_generator tg0("tg0", clk, {req(0x0), req(0x100, access_kind::fill, 128, true)});
  traffic_generator tg1("tg1", clk, {req(0x100)});
  fixed_memory mem0("mem0", clk, 0), mem1("mem1", clk, 0);
  tg0.socket.bind(*m->smx[0]);
  tg1.socket.bind(*m->smx[1]);
  m->mem[0]->bind(mem0.socket);
  m->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  ASSERT_EQ(tg0.completed, 2u);
  ASSERT_EQ(tg1.completed, 1u);
  const std::uint64_t R = 4, C = 1;
  const std::uint64_t reply_flits = (8 + 128 + 31) / 32;  // header + line in 32 B flits = 5
  // smx0 (node 0) -> mem0 (node 63): 15 routers; the 1-flit read request.
  const std::uint64_t h00 = routers(0, 63);
  EXPECT_EQ(h00, 15u);
  EXPECT_EQ(mem0.log.at(0).cycle - tg0.records[0].issued, h00 * (R + C));
  EXPECT_EQ(tg0.latency(0), h00 * (R + C) + h00 * (R + C) + reply_flits - 1);
  // smx0 -> mem1 (node 5): 6 routers.
  const std::uint64_t h01 = routers(0, 5);
  EXPECT_EQ(tg0.latency(1), 2 * h01 * (R + C) + reply_flits - 1);
  // smx1 (node 27) -> mem1 (node 5): |3-5| + |3-0| + 1 = 6 routers.
  const std::uint64_t h11 = routers(27, 5);
  EXPECT_EQ(tg1.latency(0), 2 * h11 * (R + C) + reply_flits - 1);
  EXPECT_EQ(m->packets_in_flight(), 0u);
  EXPECT_EQ(tg0.pool.in_use(), 0u);
}

TEST(mesh, latency_grows_under_contention) {
  // Eight SMXs in row 0 write 128 B lines to one memory port at (7,7); every packet has
  // 5 flits and they all cross the same ejection channel, which carries one flit a cycle.
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto m = env.make<noc::mesh>("mesh", clk,
                               latoa_mesh({{"bound:smx", "8"},
                                           {"bound:mem", "1"},
                                           {"mem_channels", "1"},
                                           {"smx_nodes", "[0, 1, 2, 3, 4, 5, 6, 7]"},
                                           {"mem_nodes", "[63]"}}),
                               "mesh");
  const int per_smx = 16;
  auto tg = line_writers(*m, clk, 8, per_smx, [](int, int k) { return k; });
  fixed_memory mem("mem", clk, 0);
  m->mem[0]->bind(mem.socket);
  sc_core::sc_start();
  const std::uint64_t flits = (8 + 128 + 31) / 32;
  ASSERT_EQ(mem.log.size(), 8u * per_smx);
  double sum = 0, unloaded_sum = 0;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(tg[i]->completed, std::size_t(per_smx));
    EXPECT_EQ(tg[i]->pool.in_use(), 0u);
  }
  // Arrivals through one ejection channel are at least `flits` cycles apart.
  for (std::size_t k = 1; k < mem.log.size(); ++k)
    EXPECT_GE(mem.log[k].cycle - mem.log[k - 1].cycle, flits) << k;
  for (const auto& e : mem.log) sum += double(e.cycle);
  for (int i = 0; i < 8; ++i)
    unloaded_sum += per_smx * double(routers(std::uint32_t(i), 63) * 5 + flits - 1);
  EXPECT_GT(sum, unloaded_sum);  // later arrivals than an unloaded network would give
  const double span = double(mem.log.back().cycle - mem.log.front().cycle);
  EXPECT_GE(span, double((8 * per_smx - 1) * flits));
  double stalls = 0;
  for (int r = 0; r < 64; ++r)
    stalls += stat(env.stats, "mesh", "router[" + std::to_string(r) + "].stall_cycles");
  EXPECT_GT(stalls, 0);
  EXPECT_EQ(m->packets_in_flight(), 0u);
}

namespace {
std::map<std::string, std::string> fermi_xbar(std::map<std::string, std::string> extra) {
  std::map<std::string, std::string> p = {
      {"bound:smx", "2"},     {"bound:mem", "2"},        {"mem_channels", "1"},
      {"flit_size", "40B"},   {"internal_speedup", "2"}, {"latency", "1cycles"},
      {"input_buffer", "64"}, {"output_buffer", "64"},   {"ejection_buffer", "32"}};
  for (auto& [k, v] : extra) p[k] = v;
  return p;
}
}  // namespace

TEST(crossbar, unloaded_latency_is_latency_plus_serialisation) {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>("xbar", clk, fermi_xbar({}), "crossbar");
  traffic_generator tg("tg", clk, {req(0x0), req(0x0, access_kind::global_store, 128, true)});
  traffic_generator idle("idle", clk, {});
  fixed_memory mem0("mem0", clk, 0), mem1("mem1", clk, 0);
  tg.socket.bind(*x->smx[0]);
  idle.socket.bind(*x->smx[1]);
  x->mem[0]->bind(mem0.socket);
  x->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 2u);
  auto ser = [](std::uint64_t bytes) { return ((bytes + 39) / 40 + 1) / 2; };  // flits / speedup 2
  // Read: 8 B request (1 flit), 136 B reply (4 flits). Write: 136 B request, 8 B ack.
  EXPECT_EQ(tg.latency(0), (1 + ser(8)) + (1 + ser(136)));
  EXPECT_EQ(tg.latency(1), (1 + ser(136)) + (1 + ser(8)));
  EXPECT_EQ(mem0.log.size(), 2u);  // one sub-partition per channel: chunk 0 -> port 0
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

TEST(crossbar, full_buffers_push_back_to_the_sender) {
  // A memory that takes one request per 500 cycles: the output buffer (8 flits = two
  // 4-flit writes) and the input buffer fill, then END_REQ is withheld.
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>(
      "xbar", clk, fermi_xbar({{"input_buffer", "8"}, {"output_buffer", "8"}}), "crossbar");
  std::vector<tg_request> s;
  for (int k = 0; k < 10; ++k) s.push_back(req(0x0, access_kind::global_store));
  traffic_generator tg("tg", clk, s);
  traffic_generator idle("idle", clk, {});
  fixed_memory mem0("mem0", clk, 500, 1), mem1("mem1", clk, 0);
  tg.socket.bind(*x->smx[0]);
  idle.socket.bind(*x->smx[1]);
  x->mem[0]->bind(mem0.socket);
  x->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 10u);
  EXPECT_GT(stat(env.stats, "xbar", "injection_stalls"), 0);
  // 1 at the memory, 1 waiting for its END_REQ, 2 in the output buffer, 2 in the input
  // buffer: the seventh request is accepted only after the first one has been answered.
  EXPECT_GE(tg.records[6].accepted, 500u);
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

// The LATOA platform elaborates with its mesh: 56 cores and 8 memory nodes on 8 x 8
// routers, 8 L2 banks of 128 KB, 8 DDR3-1333 channels of 64 bit = 8 x 8 B x 1.333 GT/s.
TEST(mesh, latoa_platform_elaborates) {
  auto p = platforms::platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/latoa.yaml");
  auto counts = p->count_by_type();
  EXPECT_EQ(counts["smx"], 56u);
  EXPECT_EQ(counts["l1_cache"], 56u);
  EXPECT_EQ(counts["mesh"], 1u);
  EXPECT_EQ(counts["l2_cache"], 1024u / 128u);
  EXPECT_EQ(counts["dram_channel"], 8u);
  double peak = 0;
  for (auto* c : p->components())
    if (auto* d = dynamic_cast<memory::dram_channel*>(c)) peak += d->peak_bandwidth();
  EXPECT_NEAR(peak / 1e9, 8 * 8 * 1.333333, 0.01);
  auto* m = dynamic_cast<noc::mesh*>(p->find("gpu.icnt"));
  ASSERT_NE(m, nullptr);
  // Default placement: memory node j at 8j + 4 (column 4 of row j); cores fill the rest.
  EXPECT_EQ(m->node_of_mem(0), 4u);
  EXPECT_EQ(m->node_of_mem(7), 60u);
  EXPECT_EQ(m->node_of_smx(0), 0u);
  EXPECT_EQ(m->node_of_smx(4), 5u);
  sc_core::sc_start();
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

TEST(network_interface, full_request_buffer_withholds_end_req) {
  // Request buffer of 1, zero latency, in front of a memory that holds one request for
  // 100 cycles. Cycle 0: A finds the buffer empty and goes straight to the memory (taken
  // in the sender's call); B enters the buffer (one request leaves per cycle); C finds it
  // full and is held. Cycle 1: B leaves but the memory withholds its END_REQ; the room it
  // made is offered at the next cycle (the buffer takes what it had room for at the start
  // of a cycle), so C enters at 2 and D is held until A is answered at cycle 100, the
  // memory takes B and D enters at 101.
  block_env env;
  clock_domain& clk = env.clock("core", 700e6);
  auto ni = env.make<noc::network_interface>(
      "ni", clk, {{"request_buffer", "1"}, {"response_buffer", "1"}}, "network_interface");
  traffic_generator tg("tg", clk, {req(0x0), req(0x80), req(0x100), req(0x180)});
  fixed_memory mem("mem", clk, 100, 1);
  tg.socket.bind(ni->in);
  ni->out.bind(mem.socket);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 4u);
  EXPECT_EQ(tg.records[0].accepted, 0u);
  EXPECT_EQ(tg.records[1].accepted, 0u);  // in the buffer; its BEGIN_REQ leaves at cycle 1
  EXPECT_EQ(tg.records[2].accepted, 2u);  // the buffer emptied into the waiting BEGIN_REQ
  EXPECT_EQ(tg.records[3].accepted, 101u);
  EXPECT_EQ(tg.latency(0), 100u);
  EXPECT_EQ(stat(env.stats, "ni", "request_stalls"), 2);  // C, D
  EXPECT_FALSE(ni->busy());
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

namespace {
// Port 0 of a crossbar with 40 B flits and no speedup: a 128 B write is 136 B = 4 flits, so
// the output link to memory port 0 is busy 4 cycles per write. SMX 0 sends ten writes at
// cycle 0 (each END_REQ comes at once, the input buffer holds 16 such packets), all
// eligible at 1; SMX 1 one write at cycle 2 (eligible at 3). The link grants SMX 0's first
// write at 1 (busy until 5). At 5, round robin looks first at the input after SMX 0's,
// i.e. SMX 1; oldest-first takes SMX 0's nine other writes first (1 < 3) and SMX 1's at
// 1 + 10 x 4 = 41. A write granted at g reaches the memory at g + 1 + 4 - 1 (tail).
struct arbitration_bench {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  std::unique_ptr<noc::crossbar> x;
  std::unique_ptr<traffic_generator> tg0, tg1;
  std::unique_ptr<fixed_memory> mem0, mem1;
  explicit arbitration_bench(const std::string& arbiter) {
    x = env.make<noc::crossbar>(
        "xbar", clk, fermi_xbar({{"internal_speedup", "1"}, {"arbiter", arbiter}}), "crossbar");
    std::vector<tg_request> s0;
    for (int k = 0; k < 10; ++k) s0.push_back(req(0x0, access_kind::global_store));
    tg_request late = req(0x40, access_kind::global_store);
    late.not_before = 2;
    tg0 = std::make_unique<traffic_generator>("tg0", clk, s0, 0);
    tg1 = std::make_unique<traffic_generator>("tg1", clk, std::vector<tg_request>{late}, 1);
    mem0 = std::make_unique<fixed_memory>("mem0", clk, 0);
    mem1 = std::make_unique<fixed_memory>("mem1", clk, 0);
    tg0->socket.bind(*x->smx[0]);
    tg1->socket.bind(*x->smx[1]);
    x->mem[0]->bind(mem0->socket);
    x->mem[1]->bind(mem1->socket);
  }
  // Position of SMX 1's write among the writes memory port 0 received.
  std::size_t position_of_late() const {
    for (std::size_t i = 0; i < mem0->log.size(); ++i)
      if (mem0->log[i].addr == 0x40) return i;
    return mem0->log.size();
  }
};
}  // namespace

TEST(crossbar, round_robin_grants_the_next_input_after_the_last_one_granted) {
  arbitration_bench b("round_robin");
  sc_core::sc_start();
  ASSERT_EQ(b.tg0->completed, 10u);
  ASSERT_EQ(b.tg1->completed, 1u);
  ASSERT_EQ(b.mem0->log.size(), 11u);
  EXPECT_EQ(b.position_of_late(), 1u);                // right after SMX 0's first write
  EXPECT_EQ(b.mem0->log[10].cycle, 41u + 1 + 4 - 1);  // SMX 0's last, granted at 1 + 10 x 4
  // Granted at 5, head at 6, tail at 6 + 4 - 1 = 9: ejected into memory port 0 at 9.
  EXPECT_EQ(b.mem0->log[1].cycle, 9u);
  EXPECT_EQ(b.mem0->log[0].cycle, 5u);  // granted at 1: 1 + 1 + 4 - 1
  EXPECT_EQ(b.tg0->pool.in_use() + b.tg1->pool.in_use(), 0u);
}

TEST(crossbar, oldest_first_serves_the_older_packets_of_the_busy_input_first) {
  arbitration_bench b("oldest_first");
  sc_core::sc_start();
  ASSERT_EQ(b.mem0->log.size(), 11u);
  EXPECT_EQ(b.position_of_late(), 10u);  // behind all ten older writes of SMX 0
  EXPECT_EQ(b.mem0->log[10].cycle, 41u + 1 + 4 - 1);
  EXPECT_EQ(b.tg0->pool.in_use() + b.tg1->pool.in_use(), 0u);
}

TEST(crossbar, islip_lets_an_input_start_one_packet_per_cycle) {
  // SMX 0 sends a write to memory port 0 (address 0x0) and one to port 1 (0x100: bank bit 8
  // set, so sub-partition 1), both at cycle 0, eligible at 1. Both outputs grant input 0 at
  // cycle 1; it accepts output 0 (its accept pointer starts at 0); output 1 stays idle and
  // grants again at 2, accepted then. 4 flits, no speedup: a write granted at g reaches
  // its memory at g + 1 + 4 - 1. (Round robin would start both at 1.)
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>(
      "xbar", clk, fermi_xbar({{"internal_speedup", "1"}, {"arbiter", "islip"}}), "crossbar");
  traffic_generator tg(
      "tg", clk, {req(0x0, access_kind::global_store), req(0x100, access_kind::global_store)});
  traffic_generator idle("idle", clk, {});
  fixed_memory mem0("mem0", clk, 0), mem1("mem1", clk, 0);
  tg.socket.bind(*x->smx[0]);
  idle.socket.bind(*x->smx[1]);
  x->mem[0]->bind(mem0.socket);
  x->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  ASSERT_EQ(tg.completed, 2u);
  ASSERT_EQ(mem0.log.size(), 1u);
  ASSERT_EQ(mem1.log.size(), 1u);
  EXPECT_EQ(mem0.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(mem1.log[0].cycle, 2u + 1 + 4 - 1);
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

TEST(crossbar, round_robin_lets_an_input_feed_two_outputs_in_one_cycle) {
  // The same two writes with round robin: each output grants input 0 at cycle 1.
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>(
      "xbar", clk, fermi_xbar({{"internal_speedup", "1"}, {"arbiter", "round_robin"}}), "crossbar");
  traffic_generator tg(
      "tg", clk, {req(0x0, access_kind::global_store), req(0x100, access_kind::global_store)});
  traffic_generator idle("idle", clk, {});
  fixed_memory mem0("mem0", clk, 0), mem1("mem1", clk, 0);
  tg.socket.bind(*x->smx[0]);
  idle.socket.bind(*x->smx[1]);
  x->mem[0]->bind(mem0.socket);
  x->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  ASSERT_EQ(mem0.log.size(), 1u);
  ASSERT_EQ(mem1.log.size(), 1u);
  EXPECT_EQ(mem0.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(mem1.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(tg.pool.in_use(), 0u);
}

namespace {
// SMX 0 sends `reqs` to memory ports 0 and 1 of a two-port crossbar with `params`, SMX 1
// nothing; runs the simulation.
struct port_bench {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  std::unique_ptr<noc::crossbar> x;
  traffic_generator tg;
  traffic_generator idle{"idle", clk, {}};
  fixed_memory mem0{"mem0", clk, 0}, mem1{"mem1", clk, 0};
  port_bench(std::vector<tg_request> reqs, const std::map<std::string, std::string>& params)
      : tg("tg", clk, std::move(reqs)) {
    x = env.make<noc::crossbar>("xbar", clk, params, "crossbar");
    tg.socket.bind(*x->smx[0]);
    idle.socket.bind(*x->smx[1]);
    x->mem[0]->bind(mem0.socket);
    x->mem[1]->bind(mem1.socket);
    sc_core::sc_start();
  }
};

// SMX 0 sends two writes to memory port 0 and then one to port 1, all at cycle 0 and
// eligible at 1; round robin, 4 flits a write, no speedup (granted at g: at the memory at
// g + 1 + 4 - 1).
struct head_of_line_bench : port_bench {
  explicit head_of_line_bench(const char* queueing)
      : port_bench({req(0x0, access_kind::global_store), req(0x0, access_kind::global_store),
                    req(0x100, access_kind::global_store)},
                   fermi_xbar({{"internal_speedup", "1"},
                               {"arbiter", "round_robin"},
                               {"input_queueing", queueing}})) {}
};
}  // namespace

TEST(crossbar, a_fifo_input_holds_a_packet_behind_one_for_a_busy_output) {
  // With one FIFO per input port 1's write is third in line: the first write leaves at 1,
  // the second when the link is free again at 5, and only then is the third the input's
  // oldest packet, granted at 5 by link 1 (examined after link 0 in that cycle): at the
  // memory at 9.
  head_of_line_bench b("fifo");
  ASSERT_EQ(b.tg.completed, 3u);
  ASSERT_EQ(b.mem0.log.size(), 2u);
  ASSERT_EQ(b.mem1.log.size(), 1u);
  EXPECT_EQ(b.mem0.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(b.mem0.log[1].cycle, 5u + 1 + 4 - 1);
  EXPECT_EQ(b.mem1.log[0].cycle, 5u + 1 + 4 - 1);
  EXPECT_EQ(b.tg.pool.in_use(), 0u);
}

TEST(crossbar, a_voq_input_sends_a_packet_past_one_for_a_busy_output) {
  // With a queue per output port 1's write leaves at 1 beside the first write: at the
  // memory at 5.
  head_of_line_bench b("voq");
  ASSERT_EQ(b.mem1.log.size(), 1u);
  ASSERT_EQ(b.mem0.log.size(), 2u);
  EXPECT_EQ(b.mem1.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(b.mem0.log[1].cycle, 5u + 1 + 4 - 1);
}

namespace {
// SMX 0 writes to memory port 0 (0x0) and port 1 (0x100), both at cycle 0 and eligible at 1;
// internal speedup 2, iSLIP, a FIFO input; a 128 B write is 4 flits of 40 B. A write granted
// at g whose link is held s cycles reaches its memory at g + 1 + s - 1.
struct booksim_bench : port_bench {
  booksim_bench(const char* serial, const char* steps, const char* queueing = "fifo")
      : port_bench({req(0x0, access_kind::global_store), req(0x100, access_kind::global_store)},
                   fermi_xbar({{"arbiter", "islip"},
                               {"input_queueing", queueing},
                               {"serial_inputs", serial},
                               {"allocation_steps", steps}})) {}
};
}  // namespace

TEST(crossbar, an_input_may_start_a_packet_every_cycle_by_default) {
  // The first write leaves at 1 (link held ceil(4 / 2) = 2 cycles: at memory 0 at 3); the
  // second is the FIFO's head at 2 and leaves then, while the first is still crossing.
  booksim_bench b("false", "0");
  ASSERT_EQ(b.mem0.log.size(), 1u);
  ASSERT_EQ(b.mem1.log.size(), 1u);
  EXPECT_EQ(b.mem0.log[0].cycle, 1u + 1 + 2 - 1);
  EXPECT_EQ(b.mem1.log[0].cycle, 2u + 1 + 2 - 1);
}

TEST(crossbar, a_serial_input_sends_one_packet_at_a_time) {
  // serial_inputs: the input sends the first write's flits until 1 + 2 = 3; the second
  // leaves at 3: at memory 1 at 3 + 1 + 2 - 1 = 5.
  booksim_bench b("true", "0");
  EXPECT_EQ(b.mem0.log[0].cycle, 1u + 1 + 2 - 1);
  EXPECT_EQ(b.mem1.log[0].cycle, 3u + 1 + 2 - 1);
  EXPECT_EQ(b.tg.pool.in_use(), 0u);
}

TEST(crossbar, a_serial_voq_input_sends_its_next_packet_once_it_has_sent) {
  // The same with a queue per output: output 1 finds input 0 sending at 2 and tries again
  // when it has sent (at 3), rather than waiting for room ahead that it already has.
  booksim_bench b("true", "0", "voq");
  ASSERT_EQ(b.tg.completed, 2u);
  EXPECT_EQ(b.mem1.log[0].cycle, 3u + 1 + 2 - 1);
}

TEST(crossbar, an_allocation_step_holds_input_and_output_for_it) {
  // allocation_steps 1: a write takes 4 + 1 switch steps, ceil(5 / 2) = 3 cycles, so the
  // first reaches memory 0 at 1 + 1 + 3 - 1 = 4 and the second leaves at 4: memory 1 at 7.
  booksim_bench b("true", "1");
  EXPECT_EQ(b.mem0.log[0].cycle, 1u + 1 + 3 - 1);
  EXPECT_EQ(b.mem1.log[0].cycle, 4u + 1 + 3 - 1);
}

namespace {
// SMX 0 and SMX 1 each write to memory port 0 at cycle 0 (eligible at 1); speedup 2, so the
// switch moves a write in 2 cycles: granted at 1 and 3, their tails at the port at 3 and 5.
// Returns the cycles memory port 0 took them at.
// SMX 0 writes to `a0` and SMX 1 to `a1`, both at cycle 0, through a two-port crossbar with
// `params`; runs the simulation.
struct two_smx_bench {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  std::unique_ptr<noc::crossbar> x;
  traffic_generator tg0, tg1;
  fixed_memory mem0{"mem0", clk, 0}, mem1{"mem1", clk, 0};
  two_smx_bench(std::uint64_t a0, std::uint64_t a1,
                const std::map<std::string, std::string>& params)
      : tg0("tg0", clk, {req(a0, access_kind::global_store)}, 0),
        tg1("tg1", clk, {req(a1, access_kind::global_store)}, 1) {
    x = env.make<noc::crossbar>("xbar", clk, params, "crossbar");
    tg0.socket.bind(*x->smx[0]);
    tg1.socket.bind(*x->smx[1]);
    x->mem[0]->bind(mem0.socket);
    x->mem[1]->bind(mem1.socket);
    sc_core::sc_start();
  }
};

std::vector<std::uint64_t> two_writes_to_one_port(const char* output_speedup) {
  two_smx_bench b(0x0, 0x80,
                  fermi_xbar({{"arbiter", "islip"}, {"output_speedup", output_speedup}}));
  std::vector<std::uint64_t> at;
  for (const auto& r : b.mem0.log) at.push_back(r.cycle);
  return at;
}

// SMX 0 writes 128 B (4 sectors) and then reads 128 B from memory port 0 over 32 B flits;
// returns the flits of their replies on port.smx[0].
double reply_flits(const char* sector_replies) {
  port_bench b({req(0x0, access_kind::global_store), req(0x0, access_kind::fill, 128, true)},
               fermi_xbar({{"flit_size", "32B"}, {"sector_replies", sector_replies}}));
  EXPECT_EQ(b.tg.completed, 2u);
  EXPECT_EQ(b.tg.pool.in_use(), 0u);
  return stat(b.env.stats, "xbar", "port.smx[0].flits");
}
}  // namespace

TEST(crossbar, an_output_channel_without_a_rate_takes_a_packet_a_cycle) {
  EXPECT_EQ(two_writes_to_one_port("0"), (std::vector<std::uint64_t>{3, 5}));
}

TEST(crossbar, an_output_channel_carries_a_flit_a_cycle) {
  // output_speedup 1: the port's channel carries the first write's 4 flits until 3 + 4 = 7,
  // when the second is taken.
  EXPECT_EQ(two_writes_to_one_port("1"), (std::vector<std::uint64_t>{3, 7}));
}

TEST(crossbar, a_request_is_answered_with_one_packet_by_default) {
  // The write's 8 B ack is one flit; the read's 136 B reply ceil(136 / 32) = 5.
  EXPECT_EQ(reply_flits("false"), 1 + 5);
}

TEST(crossbar, sector_replies_answer_each_sector_of_a_request_with_a_packet) {
  // An 8 B ack per sector written (4 flits) and a 32 + 8 B reply per sector read,
  // 4 x ceil(40 / 32) = 8 flits.
  EXPECT_EQ(reply_flits("true"), 4 + 8);
}

TEST(crossbar, two_smxs_of_a_cluster_share_one_input_and_one_reply_link) {
  // smx_per_port 2: SMX 0 writes to memory port 0 and SMX 1 to port 1, both at cycle 0
  // (eligible at 1), iSLIP. On ports of their own both would be granted at 1; sharing one
  // input, which accepts one grant a cycle (and, a FIFO, offers only its oldest packet),
  // SMX 0's leaves at 1 and SMX 1's at 2: at the memories at 5 and 6. Each SMX gets its own
  // acknowledgement back through the cluster's reply link.
  two_smx_bench b(0x0, 0x100,
                  fermi_xbar({{"internal_speedup", "1"},
                              {"arbiter", "islip"},
                              {"input_queueing", "fifo"},
                              {"smx_per_port", "2"}}));
  block_env& env = b.env;
  ASSERT_EQ(b.tg0.completed, 1u);
  ASSERT_EQ(b.tg1.completed, 1u);
  ASSERT_EQ(b.mem0.log.size(), 1u);
  ASSERT_EQ(b.mem1.log.size(), 1u);
  EXPECT_EQ(b.mem0.log[0].cycle, 1u + 1 + 4 - 1);
  EXPECT_EQ(b.mem1.log[0].cycle, 2u + 1 + 4 - 1);
  // Both replies crossed port.smx[0] (the cluster's); port.smx[1] carried nothing.
  EXPECT_EQ(stat(env.stats, "xbar", "port.smx[0].flits"), 2);
  EXPECT_EQ(stat(env.stats, "xbar", "port.smx[1].flits"), 0);
  EXPECT_EQ(b.tg0.pool.in_use() + b.tg1.pool.in_use(), 0u);
}

namespace {
// Sends plain payloads of its own (no mem_request, as a block outside the memory hierarchy
// would), one at a time, each of its two payloads in turn: the crossbar must then carry a
// reply's way back itself, and take its note of it off again before delivering.
class plain_initiator : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  SC_HAS_PROCESS(plain_initiator);
  plain_initiator(sc_core::sc_module_name n, std::uint64_t addr, int sends)
      : sc_module(n), socket("socket"), m_sends(sends) {
    socket.register_nb_transport_bw(this, &plain_initiator::bw);
    for (int k = 0; k < 2; ++k) {
      m_gp[k].set_mm(this);
      m_gp[k].set_address(addr);
      m_gp[k].set_data_ptr(m_data[k]);
      m_gp[k].set_data_length(128);
      m_gp[k].set_streaming_width(128);
    }
    SC_THREAD(run);
  }
  void free(tlm::tlm_generic_payload*) override {}

  tlm_utils::simple_initiator_socket<plain_initiator> socket;
  int responses = 0;
  int foreign = 0;         // replies for payloads that are not this initiator's
  int with_extension = 0;  // replies that still carry an extension

 private:
  void run() {
    for (int s = 0; s < m_sends; ++s) {
      tlm::tlm_generic_payload& gp = m_gp[s % 2];
      gp.set_command(s % 3 ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      gp.acquire();
      m_answered = false;
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      socket->nb_transport_fw(gp, ph, t);
      while (!m_answered) wait(m_response);
    }
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    if (&gp != &m_gp[0] && &gp != &m_gp[1]) {
      ++foreign;
      return tlm::TLM_COMPLETED;
    }
    for (unsigned i = 0; i < tlm::max_num_extensions(); ++i)
      if (gp.get_extension(i)) ++with_extension;
    ++responses;
    gp.release();
    m_answered = true;
    m_response.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }

  int m_sends;
  tlm::tlm_generic_payload m_gp[2];
  unsigned char m_data[2][128] = {};
  bool m_answered = false;
  sc_core::sc_event m_response;
};
}  // namespace

TEST(crossbar, a_payload_without_mem_request_finds_its_way_back) {
  // Both SMX ports address memory port 0 (chunk 0); the replies must come
  // back to the port each request entered by, not to port 0 for both.
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>("xbar", clk, fermi_xbar({}), "crossbar");
  plain_initiator a("a", 0x0, 6), b("b", 0x0, 6);
  fixed_memory mem0("mem0", clk, 3), mem1("mem1", clk, 0);
  a.socket.bind(*x->smx[0]);
  b.socket.bind(*x->smx[1]);
  x->mem[0]->bind(mem0.socket);
  x->mem[1]->bind(mem1.socket);
  sc_core::sc_start();
  EXPECT_EQ(a.responses, 6);
  EXPECT_EQ(b.responses, 6);
  EXPECT_EQ(a.foreign + b.foreign, 0);
  EXPECT_EQ(a.with_extension + b.with_extension, 0);
  EXPECT_EQ(mem0.log.size(), 12u);
  EXPECT_EQ(mem1.log.size(), 0u);
  EXPECT_EQ(x->packets_in_flight(), 0u);
}

// A held injection waits for room in its input buffer and is taken in the network cycle a
// packet leaves that buffer, not at some later retry. Four SMX ports share mesh node 0's
// injection buffer (smx_nodes), and every buffer holds one 5-flit write, so 32 writes fill
// the path to a memory that takes one request per 500 cycles: from then on each held write
// enters when the memory's latest take has made room all the way back to node 0. A retry
// that is lost leaves a port held for good (nothing else leaves that buffer at the end); a
// late one shows as a gap after the memory's take.
TEST(mesh, held_injections_enter_when_their_shared_buffer_frees) {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto m = env.make<noc::mesh>("mesh", clk,
                               latoa_mesh({{"bound:smx", "4"},
                                           {"bound:mem", "1"},
                                           {"mem_channels", "1"},
                                           {"vcs", "1"},
                                           {"vc_buffer", "5"},
                                           {"mem_ejection_buffer", "5"},
                                           {"smx_nodes", "[0, 0, 0, 0]"},
                                           {"mem_nodes", "[63]"}}),
                               "mesh");
  const int per_smx = 8;
  auto tg = line_writers(*m, clk, 4, per_smx, [](int i, int k) { return 4 * k + i; });
  fixed_memory mem("mem", clk, 500, 1);
  m->mem[0]->bind(mem.socket);
  sc_core::sc_start();
  ASSERT_EQ(mem.log.size(), 4u * per_smx);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(tg[i]->completed, std::size_t(per_smx)) << i;
    EXPECT_EQ(tg[i]->pool.in_use(), 0u);
  }
  // The memory's pace: one take per 500 cycles.
  for (std::size_t k = 1; k < mem.log.size(); ++k)
    EXPECT_EQ(mem.log[k].cycle - mem.log[k - 1].cycle, 500u) << k;
  // Writes accepted once the path was full: each within the room's way back from node 63
  // to node 0 (at most a cycle per router) after a take of the memory.
  const std::uint64_t back = routers(0, 63);
  int late = 0;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < per_smx; ++k) {
      const std::uint64_t a = tg[i]->records[std::size_t(k)].accepted;
      if (a < mem.log[1].cycle) continue;
      ++late;
      bool after_a_take = false;
      for (const auto& e : mem.log) after_a_take |= a > e.cycle && a - e.cycle <= back;
      EXPECT_TRUE(after_a_take) << "tg" << i << " write " << k << " accepted at " << a;
    }
  EXPECT_GE(late, 3);
  EXPECT_GT(stat(env.stats, "mesh", "injection_stalls"), 0);
  EXPECT_EQ(m->packets_in_flight(), 0u);
}

}  // namespace test_noc

namespace test_noc {

namespace {
// Sends one peer message from `from` to `to` at cycle `at` and records when it arrives.
struct peer_endpoint : sc_core::sc_module, noc::peer_receiver {
  SC_HAS_PROCESS(peer_endpoint);
  peer_endpoint(sc_core::sc_module_name n, clock_domain& clk, noc::network& net, std::uint32_t from,
                std::uint32_t to, std::uint32_t bytes, std::uint64_t at)
      : sc_module(n), m_clk(clk), m_net(net), m_from(from), m_to(to), m_bytes(bytes), m_at(at) {
    SC_THREAD(run);
  }
  void peer_arrived(std::uint32_t from, std::uint64_t tag) override {
    arrived.push_back({from, tag, m_clk.now_cycle()});
  }
  struct arrival {
    std::uint32_t from;
    std::uint64_t tag, cycle;
  };
  std::vector<arrival> arrived;
  std::uint64_t sent = 0;

 private:
  void run() {
    wait(m_clk.delay_cycles(m_at));
    sent = m_clk.now_cycle();
    m_net.send_peer(m_from, m_to, m_bytes, 77);
  }
  clock_domain& m_clk;
  noc::network& m_net;
  std::uint32_t m_from, m_to, m_bytes;
  std::uint64_t m_at;
};
}  // namespace

// LATOA's warp context (seed 003 §4.3): 4 KiB between neighbouring SMX nodes 0 and 1 (one
// hop, two routers) travel as 32 packets of 128 B data + an 8 B header, 5 flits of 32 B
// each. Unloaded, the first packet's tail arrives 2 x (4 + 1) + 5 - 1 = 14 cycles after it
// was sent; the link between the routers carries one 5-flit packet every 5 cycles, so the
// last arrives 31 x 5 cycles later: 169 cycles in all.
TEST(mesh, a_4_kib_context_crosses_one_hop_in_169_cycles) {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto m = env.make<noc::mesh>("mesh", clk,
                               latoa_mesh({{"bound:smx", "2"},
                                           {"bound:mem", "1"},
                                           {"smx_nodes", "[0, 1]"},
                                           {"mem_nodes", "[63]"},
                                           {"mem_channels", "1"}}),
                               "mesh");
  traffic_generator tg0("tg0", clk, {}), tg1("tg1", clk, {});
  fixed_memory mem0("mem0", clk, 0);
  tg0.socket.bind(*m->smx[0]);
  tg1.socket.bind(*m->smx[1]);
  m->mem[0]->bind(mem0.socket);
  ASSERT_EQ(m->peer_unsupported(), nullptr);
  peer_endpoint sender("sender", clk, *m, 0, 1, 4096, 10);
  m->attach_peer(1, sender);  // (it also records what arrives at SMX 1)
  sc_core::sc_start();
  ASSERT_EQ(sender.arrived.size(), 1u);
  EXPECT_EQ(sender.arrived[0].from, 0u);
  EXPECT_EQ(sender.arrived[0].tag, 77u);
  const std::uint64_t R = 4, C = 1, flits = (8 + 128 + 31) / 32, hops = routers(0, 1);
  EXPECT_EQ(hops, 2u);
  EXPECT_EQ(noc::peer_transport::packets_of(4096), 32u);
  EXPECT_EQ(sender.arrived[0].cycle - sender.sent, hops * (R + C) + flits - 1 + 31 * flits);
  EXPECT_EQ(sender.arrived[0].cycle - sender.sent, 169u);
  EXPECT_EQ(m->packets_in_flight(), 0u);
}

// A crossbar joins SMXs to memories only: it says so, and LATOA refuses it (test_latoa).
TEST(crossbar, carries_no_peer_messages) {
  block_env env;
  clock_domain& clk = env.clock("icnt", 700e6);
  auto x = env.make<noc::crossbar>("xbar", clk, fermi_xbar({}), "crossbar");
  EXPECT_NE(x->peer_unsupported(), nullptr);
}

}  // namespace test_noc
