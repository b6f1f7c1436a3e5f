// The memory hierarchy across host commands and kernel boundaries, end to end through
// `gputlm run` on hand-built traces with the TITAN V platform (yaml/volta.yaml):
// MemcpyHtoD warm-up of the L2 (warm_from_memcpy), the L1 flush at each kernel's end
// (flush_at_kernel_end) and the unified L1's per-kernel carve-out (unified_size).
// Expected counts are worked out here from the trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/common/run_command.h"
#include "traces/trace_writer.h"

namespace test_kernel_memory {

using namespace gputlm;
using namespace gputlm::traces;
using gputlm::testing::run_command;

namespace {

const std::string k_platform = std::string(GPUTLM_SOURCE_DIR) + "/yaml/volta.yaml";
const std::string k_one_smx =
    " --set smx.count=1 --set vars.sms=1";
// A line load as one request (Fermi's coalescer; Volta's would make four sector requests):
// these tests count lines through warm-up and flushes, not the coalescer's requests.
const std::string k_line_requests = " --set smx.coalescing_segment=128";
constexpr std::uint64_t k_base = 0x7f0000000000ull;

// A fully coalesced 4-byte load of the 128 B line at `line` (32 lanes, 4 sectors).
warp_instruction line_load(opcode_table& ops, warp_trace& w, std::uint32_t pc, std::uint64_t line,
                           std::uint16_t dst) {
  warp_instruction ld;
  ld.opcode = ops.intern("LDG.E.SYS");
  ld.pc = pc;
  ld.active_mask = 0xffffffffu;
  ld.num_dst = 1;
  ld.dst[0] = dst;
  ld.num_src = 1;
  ld.src[0] = 4;
  ld.access_size = 4;
  ld.space = mem_space::global;
  ld.unit = unit_class::ldst;
  ld.addr_index = static_cast<std::uint32_t>(w.addresses.size());
  for (std::uint64_t lane = 0; lane < 32; ++lane) w.addresses.push_back(line + 4 * lane);
  return ld;
}

// Writes `dir`: an optional MemcpyHtoD of [k_base, k_base + memcpy_bytes), then one kernel per
// entry of `kernels`, each one TB of one warp loading the lines of its entry, then EXIT.
std::string write_trace(const std::string& name, std::uint64_t memcpy_bytes,
                        const std::vector<std::vector<std::uint64_t>>& kernels,
                        std::uint32_t shmem = 0) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/" + name;
  std::filesystem::remove_all(dir);
  auto w = make_text_writer(dir);
  opcode_table ops{70};
  if (memcpy_bytes) w->memcpy_h2d(k_base, memcpy_bytes);
  for (std::uint32_t k = 0; k < kernels.size(); ++k) {
    kernel_info info;
    info.name = name;
    info.id = k + 1;
    info.grid = {1, 1, 1};
    info.block = {32, 1, 1};
    info.binary_version = 70;
    info.tracer_version = 4;
    info.nregs = 16;
    info.shmem = shmem;  // bytes per TB
    info.stream_id = 0;  // one stream: the kernels run one after the other
    w->begin_kernel(info);
    tb_trace tb;
    tb.index = {0, 0, 0};
    tb.linear_id = 0;
    tb.warps.resize(1);
    warp_trace& wt = tb.warps[0];
    std::uint32_t pc = 0;
    for (std::size_t i = 0; i < kernels[k].size(); ++i, pc += 0x10)
      wt.insts.push_back(
          line_load(ops, wt, pc, kernels[k][i], static_cast<std::uint16_t>(20 + i % 100)));
    warp_instruction exit;
    exit.opcode = ops.intern("EXIT");
    exit.pc = pc;
    exit.active_mask = 0xffffffffu;
    wt.insts.push_back(exit);
    w->write_tb(tb, ops);
    w->end_kernel();
  }
  w->finish();
  return dir;
}

nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  auto r = run_command(std::string(GPUTLM_BIN) + " run " + k_platform + " " + trace + " " + sets +
                           " --no-wall-clock --no-tb-log --stats-form=full --stats " + stats,
                       tag);
  EXPECT_EQ(r.status, 0) << r.err;
  if (r.status != 0) return nlohmann::json::object();
  return nlohmann::json::parse(gputlm::testing::slurp(stats));
}

// Sum of statistic `stat` over the blocks whose name matches `pattern`.
std::uint64_t sum(const nlohmann::json& j, const std::string& pattern, const std::string& stat) {
  std::uint64_t s = 0;
  if (!j.contains("blocks")) return 0;
  const std::regex re(pattern);
  for (auto it = j["blocks"].begin(); it != j["blocks"].end(); ++it)
    if (std::regex_match(it.key(), re) && it.value().contains(stat))
      s += it.value()[stat].get<std::uint64_t>();
  return s;
}

const std::string k_l1 = R"(gpu\.smx\[\d+\]\.l1)";
const std::string k_l2 = R"(gpu\.l2\[\d+\])";
const std::string k_dram = R"(gpu\.dram\[\d+\])";

}  // namespace

TEST(memcpy_warmup, copied_lines_hit_in_l2_only_with_warm_from_memcpy) {
  // 8 lines copied, then loaded once each: every load misses in L1 and reaches its L2 bank.
  constexpr std::uint64_t lines = 8;
  std::vector<std::uint64_t> loads;
  for (std::uint64_t i = 0; i < lines; ++i) loads.push_back(k_base + 128 * i);
  const std::string trace = write_trace("memcpy_warmup", lines * 128, {loads});

  const auto cold = run(trace, k_line_requests, "memcpy_cold");
  EXPECT_EQ(sum(cold, k_l2, "accesses"), lines);
  EXPECT_EQ(sum(cold, k_l2, "hits"), 0u);
  EXPECT_EQ(sum(cold, k_l2, "line_misses"), lines);
  EXPECT_EQ(sum(cold, k_l2, "warmed_lines"), 0u);
  EXPECT_EQ(sum(cold, k_dram, "reads"), lines);  // one 128 B fill per line

  const auto warm = run(trace, "--set l2.warm_from_memcpy=true" + k_line_requests, "memcpy_warm");
  EXPECT_EQ(sum(warm, k_l2, "warmed_lines"), lines);
  EXPECT_EQ(sum(warm, R"(gpu\.icnt)", "warm_writes"), lines);
  EXPECT_EQ(sum(warm, k_l2, "accesses"), lines);
  EXPECT_EQ(sum(warm, k_l2, "hits"), lines);
  EXPECT_EQ(sum(warm, k_l2, "line_misses") + sum(warm, k_l2, "sector_misses"), 0u);
  EXPECT_EQ(sum(warm, k_dram, "reads"), 0u);
  // The kernel is shorter: no DRAM round trip.
  EXPECT_LT(warm["kernels"][0]["cycles"].get<std::uint64_t>(),
            cold["kernels"][0]["cycles"].get<std::uint64_t>());
}

TEST(memcpy_warmup, each_line_goes_to_the_bank_that_owns_it) {
  // Copy 64 lines but load only lines 0 and 63: with warm-up both hit, each in the bank the
  // crossbar routes it to (a line warmed into any other bank would miss).
  const std::string trace = write_trace("memcpy_owner", 64 * 128, {{k_base, k_base + 63 * 128}});
  const auto warm = run(trace, "--set l2.warm_from_memcpy=true" + k_line_requests, "memcpy_owner");
  EXPECT_EQ(sum(warm, k_l2, "warmed_lines"), 64u);
  EXPECT_EQ(sum(warm, k_l2, "hits"), 2u);
  EXPECT_EQ(sum(warm, k_dram, "reads"), 0u);
}

TEST(l1_flush, same_load_in_two_kernels_misses_twice_with_flush_hits_without) {
  const std::string trace = write_trace("l1_flush", 0, {{k_base}, {k_base}});
  // flush_at_kernel_end: true in yaml/volta.yaml. One SMX, so both kernels use the same L1.
  const auto on = run(trace, k_one_smx + k_line_requests, "l1_flush_on");
  EXPECT_EQ(sum(on, k_l1, "accesses"), 2u);
  EXPECT_EQ(sum(on, k_l1, "line_misses"), 2u);
  EXPECT_EQ(sum(on, k_l1, "hits"), 0u);
  EXPECT_EQ(sum(on, k_l1, "flushes"), 2u);  // one per kernel end
  EXPECT_EQ(sum(on, R"(gpu\.smx\[\d+\])", "l1_flushes"), 2u);
  EXPECT_EQ(sum(on, k_l2, "hits"), 1u);  // the second kernel's miss hits in L2

  const auto off =
      run(trace, k_one_smx + k_line_requests + " --set smx.l1.flush_at_kernel_end=false",
          "l1_flush_off");
  EXPECT_EQ(sum(off, k_l1, "accesses"), 2u);
  EXPECT_EQ(sum(off, k_l1, "line_misses"), 1u);
  EXPECT_EQ(sum(off, k_l1, "hits"), 1u);
  EXPECT_EQ(sum(off, k_l1, "flushes"), 2u);  // still asked, nothing invalidated
  EXPECT_EQ(sum(off, k_l2, "accesses"), 1u);
}

// The TITAN V's unified L1 (128 KB with shared memory; 4 sets of 128 B lines: 256 ways):
// each kernel gets what its shared memory leaves, in -gpgpu_shmem_option steps. By hand,
// with one TB of 32 threads and 16 registers a thread, an SM of 96 KiB shared memory and
// 32 TB slots: no shared memory: option 0, all 256 ways; 1 KiB per TB: 32 TBs x 1 KiB =
// 32 KiB, option 32: round(256 x (1 - 32/128)) = 192 ways; 3 KiB per TB: 32 x 3 = 96 KiB,
// option 96: 64 ways (the 32 KB of yaml/volta.yaml's cache string).
TEST(unified_l1, the_l1_follows_each_kernels_shared_memory) {
  for (const auto& [shmem, ways] : std::vector<std::pair<std::uint32_t, std::uint64_t>>{
           {0, 256}, {1024, 192}, {3072, 64}}) {
    const std::string tag = "unified_l1_" + std::to_string(shmem);
    const std::string trace = write_trace(tag, 0, {{k_base}}, shmem);
    const auto j = run(trace, k_one_smx, tag);
    EXPECT_EQ(sum(j, k_l1, "active_ways"), ways) << shmem;
    EXPECT_EQ(sum(j, k_l1, "carveouts"), 1u) << shmem;
  }
  // Without the carve-out the L1 keeps its cache string's 64 ways.
  const std::string trace = write_trace("unified_l1_off", 0, {{k_base}});
  const auto off = run(trace, k_one_smx + " --set smx.unified_l1=false", "unified_l1_off");
  EXPECT_EQ(sum(off, k_l1, "active_ways"), 64u);
  EXPECT_EQ(sum(off, k_l1, "carveouts"), 0u);
}

}  // namespace test_kernel_memory
