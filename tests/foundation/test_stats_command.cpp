// `gputlm stats`: a hand-written statistics file printed under GPGPU-Sim's names, every
// value worked out by hand; a real run's file read back; bad files refused with one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/run_command.h"

namespace test_stats_command {

namespace {

using gputlm::testing::run_command;
using gputlm::testing::write_text;

const std::string k_bin = GPUTLM_BIN;
const std::string k_tmp = GPUTLM_TEST_TMP;

// Two kernels, the second launched finishing first; two L1s (one of them smx[10], after
// smx[1] as text), one L2 bank, one DRAM channel; an SMX block whose counters must not
// count as an L1's.
const char* k_small = R"({
  "total_cycles": 160, "thread_instructions": 1400, "warp_instructions": 60,
  "simulated_seconds": 1e-6, "platform": "hand", "trace": "none",
  "kernels": [
    {"name": "k_one", "cycles": 150, "start_cycle": 0, "end_cycle": 150,
     "thread_instructions": 1000, "tbs": 4, "finished": true},
    {"name": "k_two", "cycles": 80, "start_cycle": 20, "end_cycle": 100,
     "thread_instructions": 400, "tbs": 2, "finished": true}],
  "blocks": {
    "gpu.smx[0]": {"accesses": 1000, "hits": 1000},
    "gpu.smx[0].l1": {"accesses": 10, "hits": 4, "mshr_hits": 2, "line_misses": 3,
                      "sector_misses": 1, "reservation_fails.mshr_full": 2,
                      "reservation_fails.miss_queue_full": 1},
    "gpu.smx[10].l1": {"accesses": 6, "hits": 6, "line_misses": 0, "sector_misses": 0},
    "gpu.l2[0]": {"accesses": 20, "hits": 10, "line_misses": 5, "sector_misses": 5},
    "gpu.dram[0]": {"reads": 7, "writes": 3, "bytes": 320}}
})";

TEST(stats_command, accelsim_names_by_hand) {
  const std::string f = k_tmp + "/stats_small.json";
  write_text(f, k_small);
  const auto r = run_command(k_bin + " stats " + f + " --accelsim", "stats_small");
  ASSERT_EQ(r.status, 0) << r.err;
  // k_two completes first (cycle 100): its lines, then k_one's (cycle 150) with the run's
  // instructions so far (400 + 1000) over its end cycle; then the run's totals.
  const std::string want =
      "kernel_name = k_two \n"
      "kernel_launch_uid = 2 \n"
      "gpu_sim_cycle = 80\n"
      "gpu_sim_insn = 400\n"
      "gpu_ipc =       5.0000\n"
      "gpu_tot_sim_cycle = 100\n"
      "gpu_tot_sim_insn = 400\n"
      "gpu_tot_ipc =       4.0000\n"
      "gpu_tot_issued_cta = 2\n"
      "kernel_name = k_one \n"
      "kernel_launch_uid = 1 \n"
      "gpu_sim_cycle = 150\n"
      "gpu_sim_insn = 1000\n"
      "gpu_ipc =       6.6667\n"
      "gpu_tot_sim_cycle = 150\n"
      "gpu_tot_sim_insn = 1400\n"
      "gpu_tot_ipc =       9.3333\n"
      "gpu_tot_issued_cta = 6\n"
      "----- gputlm: totals of the run -----\n"
      "gpu_tot_sim_cycle = 160\n"
      "gpu_tot_sim_insn = 1400\n"
      "gpu_tot_ipc =       8.7500\n"
      "gpgpu_n_tot_thrd_icount = 1400\n"
      "gpgpu_n_tot_w_icount = 60\n"
      // 20 L2 accesses x 32 B in 1 us = 0.64 GB/s.
      "L2_BW  =       0.6400 GB/Sec\n"
      // L1s: 10 + 6 accesses; 3 + 1 misses; 2 MSHR hits; 2 + 1 reservation fails.
      "L1D_total_cache_accesses = 16\n"
      "L1D_total_cache_misses = 4\n"
      "L1D_total_cache_miss_rate = 0.2500\n"
      "L1D_total_cache_pending_hits = 2\n"
      "L1D_total_cache_reservation_fails = 3\n"
      "L2_total_cache_accesses = 20\n"
      "L2_total_cache_misses = 10\n"
      "L2_total_cache_miss_rate = 0.5000\n"
      "L2_total_cache_pending_hits = 0\n"
      "L2_total_cache_reservation_fails = 0\n"
      "total dram reads = 7\n"
      "total dram writes = 3\n";
  EXPECT_EQ(r.out, want);
}

TEST(stats_command, summary_by_hand) {
  const std::string f = k_tmp + "/stats_summary.json";
  write_text(f, k_small);
  const auto r = run_command(k_bin + " stats " + f, "stats_summary");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cycles 160 (1e-06 s simulated); instructions 60 warp, 1400 thread; "
                       "IPC 8.75 thread, 0.375 warp\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("     2 k_two  cycles 80 (20-100)  TBs 2  IPC 0\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("L1 (2 instances): accesses 16, hits 10, MSHR hits 2, misses 4 (miss rate "
                       "0.2500), reservation fails 3\n"),
            std::string::npos)
      << r.out;
  // 320 bytes in 1 us: 0.32 GB/s.
  EXPECT_NE(r.out.find("DRAM (1 channels): reads 7, writes 3, 320 bytes, 0.32 GB/s\n"),
            std::string::npos)
      << r.out;
}

// A real run: the totals printed are the file's, the L1 accesses the sum over its L1s.
TEST(stats_command, a_run_read_back) {
  const std::string f = k_tmp + "/stats_run.json";
  const auto run =
      run_command(k_bin + " run " + std::string(GPUTLM_SOURCE_DIR) + "/yaml/volta.yaml " +
                      GPUTLM_SOURCE_DIR + "/traces/samples/vectoradd --no-wall-clock --stats " + f,
                  "stats_run");
  ASSERT_EQ(run.status, 0) << run.err;
  // The compact form (the default): the 80 L1s' accesses are one array, or one value when
  // every L1 has the same.
  const nlohmann::json s = nlohmann::json::parse(gputlm::testing::slurp(f));
  ASSERT_EQ(s["stats_form"], "compact");
  const nlohmann::json& acc = s["blocks"]["gpu.smx[*].l1"]["accesses"];
  ASSERT_EQ(s["blocks"]["gpu.smx[*].l1"]["instances"].size(), 80u);
  double l1 = 0;
  for (int i = 0; i < 80; ++i) l1 += (acc.is_array() ? acc[i] : acc).get<double>();
  const auto r = run_command(k_bin + " stats --accelsim " + f, "stats_run_read");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto last = [&](const std::string& name) {
    // (GPGPU-Sim indents the core caches' lines with a tab.)
    std::size_t at = r.out.rfind("\n" + name + " = ");
    if (at == std::string::npos) at = r.out.rfind("\n\t" + name + " = ");
    if (at == std::string::npos) return std::string();
    const std::size_t from = r.out.find(" = ", at) + 3;
    return r.out.substr(from, r.out.find('\n', from) - from);
  };
  EXPECT_EQ(last("gpu_tot_sim_cycle"), std::to_string(s["total_cycles"].get<long>()));
  EXPECT_EQ(last("gpu_tot_sim_insn"), std::to_string(s["thread_instructions"].get<long>()));
  EXPECT_EQ(last("L1D_total_cache_accesses"), std::to_string(static_cast<long>(l1)));
  EXPECT_NE(r.out.find("kernel_name = _Z9vectorAddPKfS0_Pfi \n"), std::string::npos);
}

// The caches' breakdown (models/memory/access_breakdown.h) under GPGPU-Sim's names and
// layout, from a hand-written file; every value by hand. SMX 0's instruction cache: 8 hits,
// 2 misses, 1 lookup joining a missing line, 1 held. L1 0: global reads 5 hits, 2 misses,
// 1 sector miss, 1 hit-reserved, 2 MSHR hits, 3 held; global writes 4 misses. L1 10 (after
// L1 0 in numeric order, before it as text): local reads 2 hits, texture reads 1 miss.
// L2 0: global reads 3 misses, global writes 4 hits, L1 write-backs 2 hits, L1
// write-allocate fetches 1 miss, instruction reads 2 misses.
TEST(stats_command, accelsim_cache_breakdown_by_hand) {
  const std::string f = k_tmp + "/stats_breakdown.json";
  write_text(f, R"({
  "total_cycles": 100, "thread_instructions": 100, "warp_instructions": 10,
  "simulated_seconds": 1e-6, "kernels": [],
  "blocks": {
    "gpu.smx[0]": {"icache_accesses": 12, "icache_hits": 8, "icache_misses": 2,
                   "icache_merged": 1, "icache_reservation_fails": 1},
    "gpu.smx[10]": {"icache_accesses": 0},
    "gpu.smx[0].l1": {"by_access.global_read.hit": 5, "by_access.global_read.miss": 2,
                      "by_access.global_read.sector_miss": 1,
                      "by_access.global_read.hit_reserved": 1,
                      "by_access.global_read.mshr_hit": 2,
                      "by_access.global_read.reservation_fail": 3,
                      "by_access.global_write.miss": 4, "accesses": 99},
    "gpu.smx[10].l1": {"by_access.local_read.hit": 2, "by_access.texture_read.miss": 1},
    "gpu.l2[0]": {"by_access.global_read.miss": 3, "by_access.global_write.hit": 4,
                  "by_access.l1_writeback.hit": 2, "by_access.l1_write_allocate.miss": 1,
                  "by_access.instruction_read.miss": 2}}
})");
  const auto r = run_command(k_bin + " stats " + f + " --accelsim", "stats_breakdown");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto has = [&](const std::string& text) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
  };
  // L1I: accesses 8 + 2 + 1 (a held lookup is not an access), misses 2 (2/11 = 0.1818).
  has("L1I_cache:\n"
      "\tL1I_total_cache_accesses = 11\n"
      "\tL1I_total_cache_misses = 2\n"
      "\tL1I_total_cache_miss_rate = 0.1818\n"
      "\tL1I_total_cache_pending_hits = 1\n"
      "\tL1I_total_cache_reservation_fails = 1\n");
  // L1 0: accesses 5 + 2 + 1 + 1 + 4 = 13, misses 2 + 1 + 4 = 7 (0.538); its "accesses"
  // counter is not what GPGPU-Sim prints. L1 10: 3 accesses, 1 miss.
  has("L1D_cache:\n"
      "\tL1D_cache_core[0]: Access = 13, Miss = 7, Miss_rate = 0.538, Pending_hits = 1, "
      "Reservation_fails = 3\n"
      "\tL1D_cache_core[10]: Access = 3, Miss = 1, Miss_rate = 0.333, Pending_hits = 0, "
      "Reservation_fails = 0\n"
      "\tL1D_total_cache_accesses = 16\n"
      "\tL1D_total_cache_misses = 8\n"
      "\tL1D_total_cache_miss_rate = 0.5000\n"
      "\tL1D_total_cache_pending_hits = 1\n"
      "\tL1D_total_cache_reservation_fails = 3\n");
  has("\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 5\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT_RESERVED] = 1\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][MISS] = 2\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][RESERVATION_FAIL] = 3\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][SECTOR_MISS] = 1\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][MSHR_HIT] = 2\n"
      "\tTotal_core_cache_stats_breakdown[LOCAL_ACC_R][HIT] = 2\n");
  has("\tTotal_core_cache_stats_breakdown[INST_ACC_R][HIT] = 8\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][HIT_RESERVED] = 1\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][MISS] = 2\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][RESERVATION_FAIL] = 1\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][SECTOR_MISS] = 0\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][MSHR_HIT] = 1\n");
  // Totals per type accessed, without RESERVATION_FAIL and MSHR_HIT, in GPGPU-Sim's order.
  has("\tTotal_core_cache_stats_breakdown[L2_WR_ALLOC_R][MSHR_HIT] = 0\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 9\n"
      "\tTotal_core_cache_stats_breakdown[LOCAL_ACC_R][TOTAL_ACCESS] = 2\n"
      "\tTotal_core_cache_stats_breakdown[TEXTURE_ACC_R][TOTAL_ACCESS] = 1\n"
      "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS] = 4\n"
      "\tTotal_core_cache_stats_breakdown[INST_ACC_R][TOTAL_ACCESS] = 11\n"
      "\n========= L2 cache stats =========\n"
      "L2_cache_bank[0]: Access = 12, Miss = 6, Miss_rate = 0.500, Pending_hits = 0, "
      "Reservation_fails = 0\n"
      "L2_total_cache_accesses = 12\n"
      "L2_total_cache_misses = 6\n"
      "L2_total_cache_miss_rate = 0.5000\n"
      "L2_total_cache_pending_hits = 0\n"
      "L2_total_cache_reservation_fails = 0\n"
      "L2_total_cache_breakdown:\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 0\n");
  has("\tL2_cache_stats_breakdown[L1_WRBK_ACC][HIT] = 2\n");
  has("\tL2_cache_stats_breakdown[L1_WR_ALLOC_R][MISS] = 1\n");
  has("\tL2_cache_stats_breakdown[L2_WR_ALLOC_R][MSHR_HIT] = 0\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 3\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS] = 4\n"
      "\tL2_cache_stats_breakdown[L1_WRBK_ACC][TOTAL_ACCESS] = 2\n"
      "\tL2_cache_stats_breakdown[INST_ACC_R][TOTAL_ACCESS] = 2\n"
      "\tL2_cache_stats_breakdown[L1_WR_ALLOC_R][TOTAL_ACCESS] = 1\n"
      "total dram reads = 0\n");
  // GPGPU-Sim's 11 access types x 6 statuses, for the core caches and the L2.
  const auto count = [&](const std::string& prefix) {
    std::size_t n = 0;
    for (std::size_t at = r.out.find(prefix); at != std::string::npos;
         at = r.out.find(prefix, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("\tTotal_core_cache_stats_breakdown["), 66u + 5u);
  EXPECT_EQ(count("\tL2_cache_stats_breakdown["), 66u + 5u);
}

// The host's time of a run without --no-wall-clock, as GPGPU-Sim prints it at exit, by hand:
// 3725.9 s of wall time are 3725 whole seconds (1 hr, 2 min, 5 sec); 7,450,000,000
// instructions and 37,250,000 cycles over them are 2,000,000 inst/sec and 10,000 cycle/sec;
// 37,250,000 cycles in 0.05 simulated seconds are a 745 MHz clock, 74,500 times the
// simulation's rate.
TEST(stats_command, accelsim_simulation_time_and_rate_by_hand) {
  const std::string f = k_tmp + "/stats_wall.json";
  write_text(f, R"({
  "total_cycles": 37250000, "thread_instructions": 7450000000, "warp_instructions": 60,
  "simulated_seconds": 0.05, "wall_seconds": 3725.9, "kernels": [], "blocks": {}
})");
  const auto r = run_command(k_bin + " stats " + f + " --accelsim", "stats_wall");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gpgpu_n_tot_thrd_icount = 7450000000\n"), std::string::npos) << r.out;
  const std::string tail =
      "\n\ngpgpu_simulation_time = 0 days, 1 hrs, 2 min, 5 sec (3725 sec)\n"
      "gpgpu_simulation_rate = 2000000 (inst/sec)\n"
      "gpgpu_simulation_rate = 10000 (cycle/sec)\n"
      "gpgpu_silicon_slowdown = 74500x\n";
  ASSERT_GE(r.out.size(), tail.size());
  EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail) << r.out;
}

// A run's breakdown agrees with the caches' own counters: each looked-up request is counted
// once under one access type, when it is looked up, as a hit, hit-reserved, miss or sector
// miss; MSHR hits and sector misses are the counters of the same names; a bypassed request
// is not counted. On the GTX480 (write-back local L1, instruction cache) and the TITAN V
// (sectored, write-through).
TEST(stats_command, a_runs_breakdown_agrees_with_the_caches_counters) {
  for (const std::string platform : {"fermi", "volta"}) {
    SCOPED_TRACE(platform);
    const std::string f = k_tmp + "/stats_breakdown_" + platform + ".json";
    const auto run = run_command(k_bin + " run " + std::string(GPUTLM_SOURCE_DIR) + "/yaml/" +
                                     platform + ".yaml " + GPUTLM_SOURCE_DIR +
                                     "/traces/samples/reduction --no-wall-clock --stats-form full "
                                     "--stats " +
                                     f,
                                 "stats_breakdown_run");
    ASSERT_EQ(run.status, 0) << run.err;
    const nlohmann::json s = nlohmann::json::parse(gputlm::testing::slurp(f));
    std::size_t l1s = 0, l2s = 0;
    double looked_up = 0;
    for (const auto& [name, b] : s["blocks"].items()) {
      const bool l1 = name.find(".l1") != std::string::npos, l2 = name.rfind("gpu.l2[", 0) == 0;
      if (!l1 && !l2) continue;
      (l1 ? l1s : l2s)++;
      double accessed = 0, hits = 0, mshr_hits = 0, sector_misses = 0;
      for (const auto& [k, v] : b.items()) {
        if (k.rfind("by_access.", 0) != 0) continue;
        const std::string outcome = k.substr(k.rfind('.') + 1);
        const double n = v.get<double>();
        if (outcome == "hit" || outcome == "hit_reserved" || outcome == "miss" ||
            outcome == "sector_miss")
          accessed += n;
        if (outcome == "hit") hits += n;
        if (outcome == "mshr_hit") mshr_hits += n;
        if (outcome == "sector_miss") sector_misses += n;
      }
      const double bypassed = l1 ? b["bypassed"].get<double>() : 0.0;
      EXPECT_EQ(accessed, b["accesses"].get<double>() - bypassed) << name;
      EXPECT_EQ(hits, b["hits"].get<double>()) << name;
      EXPECT_EQ(mshr_hits, b["mshr_hits"].get<double>()) << name;
      EXPECT_EQ(sector_misses, b["sector_misses"].get<double>()) << name;
      if (l2) looked_up += accessed;
    }
    EXPECT_GT(l1s, 0u);
    EXPECT_GT(l2s, 0u);
    EXPECT_GT(looked_up, 0);
  }
}

// The demo run (make demo) in both forms: the compact file is small, and the two forms
// convert into each other byte for byte, TB log included, so the compact one loses
// nothing the full one has.
TEST(stats_command, compact_and_full_forms_convert_byte_for_byte) {
  const std::string run = k_bin + " run " + std::string(GPUTLM_SOURCE_DIR) + "/yaml/volta.yaml " +
                          GPUTLM_SOURCE_DIR + "/traces/samples/vectoradd --no-wall-clock --stats ";
  const std::string c = k_tmp + "/forms_compact.json", f = k_tmp + "/forms_full.json";
  ASSERT_EQ(run_command(run + c, "forms_c").status, 0);
  ASSERT_EQ(run_command(run + f + " --stats-form full", "forms_f").status, 0);
  const std::string compact = gputlm::testing::slurp(c), full = gputlm::testing::slurp(f);
  EXPECT_LT(compact.size(), 200u * 1024) << "the demo's statistics file";
  EXPECT_GT(full.size(), 10 * compact.size());
  EXPECT_NE(compact.find("\n   \"tb_log\": [\n    [0,"), std::string::npos) << "one TB per line";
  const auto to_full = run_command(k_bin + " stats " + c + " --form full", "forms_to_full");
  ASSERT_EQ(to_full.status, 0) << to_full.err;
  EXPECT_TRUE(to_full.out == full) << "the full form of the compact file differs";
  const auto to_compact = run_command(k_bin + " stats " + f + " --form compact", "forms_to_c");
  ASSERT_EQ(to_compact.status, 0) << to_compact.err;
  EXPECT_TRUE(to_compact.out == compact) << "the compact form of the full file differs";
  // Both forms summarise alike.
  EXPECT_EQ(run_command(k_bin + " stats " + c, "forms_sum_c").out,
            run_command(k_bin + " stats " + f, "forms_sum_f").out);

  auto r = run_command(run + k_tmp + "/forms_bad.json --stats-form tiny", "forms_bad");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: <command line>: --stats-form: expected compact or full, got 'tiny'\n");
  EXPECT_FALSE(std::filesystem::exists(k_tmp + "/forms_bad.json"));
  r = run_command(k_bin + " stats " + c + " --form tiny", "forms_bad_form");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  // A compact file whose table has the wrong number of values: the key, exit 2.
  const std::string broken = k_tmp + "/forms_broken.json";
  write_text(broken,
             "{\"stats_form\": \"compact\", \"blocks\": {\"gpu.smx[*]\": {\"instances\": "
             "[\"gpu.smx[0]\", \"gpu.smx[1]\"], \"hits\": [1, 2, 3]}}}\n");
  r = run_command(k_bin + " stats " + broken + " --form full", "forms_broken");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("blocks.gpu.smx[*].hits: expected 2 values (one per instance), found 3"),
            std::string::npos)
      << r.err;
}

TEST(stats_command, bad_files_are_one_line_and_print_nothing) {
  const std::string bad = k_tmp + "/stats_bad.json";
  write_text(bad, "{\n  \"total_cycles\": 1,\n  oops\n}\n");
  auto r = run_command(k_bin + " stats " + bad, "stats_bad");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: " + bad +
                       ":3:3: stats: not JSON (a statistics file is what `gputlm "
                       "run --stats` writes)\n");
  const std::string other = k_tmp + "/stats_other.json";
  write_text(other, "{\"total_cycles\": 1}\n");
  r = run_command(k_bin + " stats " + other + " --accelsim", "stats_other");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(other + ": thread_instructions: missing or not a number"), std::string::npos)
      << r.err;
  r = run_command(k_bin + " stats " + k_tmp + "/no_such_file.json", "stats_missing");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read the file"), std::string::npos) << r.err;
  r = run_command(k_bin + " stat", "stats_typo");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("did you mean 'stats'?"), std::string::npos) << r.err;
}

}  // namespace

}  // namespace test_stats_command
