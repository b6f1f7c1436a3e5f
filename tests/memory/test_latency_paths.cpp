// The load latency of each path through a platform's memory side (L1 -> crossbar -> L2 ->
// DRAM, as yaml/<platform>.yaml sets it up), one request at a time on an idle chip, against
// the composition of the YAML's own parameters worked out here (docs/fidelity.md):
//
//   L1 hit                 hit_latency
//   L2 hit through the L1  miss_latency + there + rop_latency + 1 + back
//   L2 hit, L1 bypassed    there + rop_latency + 1 + back
//     there = crossbar latency + ceil((request flits + allocation_steps) /
//             internal_speedup), a read request being one flit; back = latency +
//             ceil((reply flits + allocation_steps x packets) / internal_speedup), a reply
//             carrying the fill's bytes (a 32 B sector from a sectored L1, the 128 B line
//             from a line L1, the load's bytes when bypassing) + 8 B of header in flit_size
//             flits, one packet, or with sector_replies one packet of 32 + 8 B per sector;
//             the 1 is the cycle from the ROP pipeline into the icnt->L2 queue before the
//             lookup (GPGPU-Sim's order).
//   DRAM, row hit          the L2 miss goes to the channel dram_latency core cycles after
//                          the lookup; CL + bursts x burst_length / data_rate DRAM cycles
//                          later the data is back (bursts: the fill's bytes over the
//                          channel's atom, burst_length x bus_width x chips, or with
//                          sector_atoms one atom per 32-byte sector; one bank's column
//                          accesses tCCDL apart, at least a burst); the L2 writes
//                          the fill and answers
//   DRAM, row miss         + tRCD DRAM cycles (the ACT to an idle bank)
//
// Core, crossbar and L2 share one clock on every bundled platform, so the first three are
// exact. The DRAM runs on its own clock: the request and the data each cross into the
// other domain at its next edge, so a DRAM figure is the composition rounded up at two
// crossings (at most 2 core cycles more, and never less).
#include "models/memory/address_decoder.h"
#include "tests/memory/hierarchy.h"

namespace test_latency_paths {

using namespace gputlm;
using namespace gputlm::test;

namespace {

std::uint64_t number(const yaml_block& y, const std::string& key) {
  return std::stoull(y.values.at(key));  // "160cycles", "40B", "2" -> the leading number
}

struct composition {
  std::uint64_t l1_hit, l2_hit, l2_hit_bypass;
  double dram_row_hit, row_miss_extra;  // core cycles, before the crossings' rounding
};

composition compose(const std::string& file) {
  const std::string path = std::string(GPUTLM_SOURCE_DIR) + "/" + file;
  const yaml_block l1 = read_yaml_block(path, "smx.l1");
  const yaml_block x = read_yaml_block(path, "icnt");
  const yaml_block l2 = read_yaml_block(path, "l2");
  const yaml_block d = read_yaml_block(path, "dram");
  const std::uint64_t flit = number(x, "flit_size"), speedup = number(x, "internal_speedup");
  const std::uint64_t lat = number(x, "latency");
  const std::uint64_t steps =
      x.values.count("allocation_steps") ? number(x, "allocation_steps") : 0;
  const bool sector_replies =
      x.values.count("sector_replies") && x.values.at("sector_replies") == "true";
  auto hop = [&](std::uint64_t bytes) {
    std::uint64_t packets = 1, flits = (bytes + 8 + flit - 1) / flit;
    if (sector_replies && bytes > 32) {  // a packet per 32 B sector
      packets = bytes / 32;
      flits = packets * ((32 + 8 + flit - 1) / flit);
    }
    return lat + (flits + steps * packets + speedup - 1) / speedup;
  };
  const bool sectored = l1.values.at("sectored") == "true";
  const std::uint64_t fill = sectored ? 32 : 128;
  const std::uint64_t rop = number(l2, "rop_latency");
  composition c{};
  c.l1_hit = number(l1, "hit_latency");
  c.l2_hit = number(l1, "miss_latency") + hop(0) + rop + 1 + hop(fill);
  c.l2_hit_bypass = hop(0) + rop + 1 + hop(4);
  const double ratio = l1.clock_hz / d.clock_hz;  // core cycles per DRAM cycle
  const std::uint64_t bl = number(d, "burst_length");
  const std::uint64_t atom = bl * number(d, "bus_width") * number(d, "chips");
  const double burst = std::max(1.0, double(bl) / double(number(d, "data_rate")));
  // sector_atoms: each 32-byte sector of the fill a column access of its own (GS4).
  const bool sector_atoms = d.values.count("sector_atoms") && d.values.at("sector_atoms") == "true";
  const double bursts = double(sector_atoms ? fill / 32 * ((32 + atom - 1) / atom)
                                            : (fill + atom - 1) / atom);
  // A fill's column accesses go to one bank: one bank group, tCCDL apart (at least a burst).
  const double step = std::max(burst, double(number(d, "bank_groups") > 1 ? number(d, "tCCDL")
                                                                          : number(d, "tCCD")));
  c.dram_row_hit = double(c.l2_hit + number(l2, "dram_latency")) +
                   (double(number(d, "CL")) + (bursts - 1) * step + burst) * ratio;
  c.row_miss_extra = double(number(d, "tRCD")) * ratio;
  return c;
}

tg_request load(std::uint64_t addr, std::uint64_t at) {
  tg_request r;
  r.addr = addr;
  r.length = 4;
  r.not_before = at;
  return r;
}

// Another line in the same DRAM channel, sub-partition, bank and row as `addr`.
std::uint64_t same_row(const std::string& file, std::uint64_t addr) {
  const yaml_block d = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/" + file, "dram");
  const yaml_block x = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/" + file, "icnt");
  const memory::address_decoder dec(
      d.values.at("address_map"), static_cast<std::uint32_t>(d.count),
      static_cast<std::uint32_t>(d.vars.at("sub_partitions")),
      memory::parse_partition_indexing(x.values.at("partition_indexing")));
  const memory::dram_address a = dec.decode(addr);
  for (std::uint64_t k = 1; k < (1u << 20); ++k) {
    const std::uint64_t y = addr + k * 128;
    const memory::dram_address b = dec.decode(y);
    if (b.channel == a.channel && b.sub_partition == a.sub_partition && b.bank == a.bank &&
        b.row == a.row)
      return y;
  }
  ADD_FAILURE() << "no other line in the row of " << addr;
  return addr;
}

// L1 hit, L2 hit through the L1, and the DRAM row miss / row hit pair, on one platform,
// with global loads cached in the L1 (also where the platform bypasses it by default).
void check_cached_paths(const std::string& file) {
  const composition c = compose(file);
  const std::uint64_t x = 0x10000, y = same_row(file, x);
  // SMX 0: x cold (L1, L2 miss; the DRAM bank idle), x again (L1 hit). SMX 1: x (L2 hit),
  // then y (L1 and L2 miss; x's row still open in the bank).
  hierarchy h(file, {{load(x, 0), load(x, 5000)}, {load(x, 2500), load(y, 7500)}},
              {{"l1", {{"bypass_global_loads", "false"}}}});
  sc_core::sc_start();
  ASSERT_EQ(h.completed(), 4u);
  EXPECT_EQ(h.tg[0]->latency(1), c.l1_hit);
  EXPECT_EQ(h.tg[1]->latency(0), c.l2_hit);
  const double row_hit = double(h.tg[1]->latency(1)), row_miss = double(h.tg[0]->latency(0));
  EXPECT_GE(row_hit, c.dram_row_hit);
  EXPECT_LE(row_hit, c.dram_row_hit + 2);
  EXPECT_GE(row_miss, c.dram_row_hit + c.row_miss_extra);
  EXPECT_LE(row_miss, c.dram_row_hit + c.row_miss_extra + 2);
  EXPECT_EQ(h.payloads_in_use(), 0u);
}

void check_bypass_path(const std::string& file) {
  const composition c = compose(file);
  // With global loads bypassing the L1: the second SMX's load of x hits in the L2.
  hierarchy h(file, {{load(0x10000, 0)}, {load(0x10000, 2500)}},
              {{"l1", {{"bypass_global_loads", "true"}}}});
  sc_core::sc_start();
  ASSERT_EQ(h.completed(), 2u);
  EXPECT_EQ(h.tg[1]->latency(0), c.l2_hit_bypass);
  EXPECT_EQ(h.payloads_in_use(), 0u);
}

}  // namespace

TEST(latency_paths, titan_v_through_l1) { check_cached_paths("yaml/volta.yaml"); }
TEST(latency_paths, titan_v_l1_bypassed) { check_bypass_path("yaml/volta.yaml"); }
TEST(latency_paths, titan_x_through_l1) { check_cached_paths("yaml/pascal.yaml"); }
TEST(latency_paths, titan_x_l1_bypassed) { check_bypass_path("yaml/pascal.yaml"); }
TEST(latency_paths, gtx480_through_l1) { check_cached_paths("yaml/fermi.yaml"); }
TEST(latency_paths, gtx480_l1_bypassed) { check_bypass_path("yaml/fermi.yaml"); }
TEST(latency_paths, k20c_through_l1) { check_cached_paths("yaml/kepler.yaml"); }
TEST(latency_paths, k20c_l1_bypassed) { check_bypass_path("yaml/kepler.yaml"); }

}  // namespace test_latency_paths
