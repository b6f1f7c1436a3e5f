// The SMX timing model and TB dispatch, end to end through `gputlm run` on hand-built
// traces, against cycle counts worked out here from the parameters the test sets:
// N independent FFMAs take about N x initiation interval, a dependent chain N x latency;
// LRR interleaves two warps where GTO finishes the older one first; the TBs resident at
// once match the CUDA occupancy arithmetic; coalescing gives the expected request counts;
// and the DTBL thesis's K20 dispatch example.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/common/run_command.h"
#include "traces/trace_writer.h"

namespace test_smx_timing {

using namespace gputlm;
using namespace gputlm::traces;
using gputlm::testing::run_command;

namespace {

const std::string k_platform = std::string(GPUTLM_SOURCE_DIR) + "/tests/data/volta_ideal.yaml";

// Builds one kernel: `tbs` TBs of `warps_per_tb` warps; body(tb, warp, ops, trace) fills a warp.
struct kernel_builder {
  opcode_table ops{70};
  kernel_info info;
  std::function<void(std::uint32_t, std::uint32_t, opcode_table&, warp_trace&)> body;

  // Writes `kernels` copies of the kernel, kernel i on CUDA stream streams[i].
  std::string write(const std::string& name, std::uint32_t tbs, std::uint32_t warps_per_tb,
                    std::vector<std::uint64_t> streams = {0}) {
    std::string dir = std::string(GPUTLM_TEST_TMP) + "/" + name;
    std::filesystem::remove_all(dir);
    auto w = make_text_writer(dir);
    for (std::uint32_t i = 0; i < streams.size(); ++i) {
      info.stream_id = streams[i];
      write_kernel(*w, name, i + 1, tbs, warps_per_tb);
    }
    w->finish();
    return dir;
  }

  void write_kernel(trace_writer& wr, const std::string& name, std::uint32_t id, std::uint32_t tbs,
                    std::uint32_t warps_per_tb) {
    trace_writer* w = &wr;
    info.name = name;
    info.id = id;
    info.grid = {tbs, 1, 1};
    info.block = {32 * warps_per_tb, 1, 1};
    info.binary_version = 70;
    info.tracer_version = 4;
    if (info.nregs == 0) info.nregs = 16;
    w->begin_kernel(info);
    for (std::uint32_t t = 0; t < tbs; ++t) {
      tb_trace tb;
      tb.index = {t, 0, 0};
      tb.linear_id = t;
      tb.warps.resize(warps_per_tb);
      for (std::uint32_t k = 0; k < warps_per_tb; ++k) {
        body(t, k, ops, tb.warps[k]);
        warp_instruction exit;
        exit.opcode = ops.intern("EXIT");
        exit.pc = 0x10 * static_cast<std::uint32_t>(tb.warps[k].insts.size());
        exit.active_mask = 0xffffffffu;
        tb.warps[k].insts.push_back(exit);
      }
      w->write_tb(tb, ops);
    }
    w->end_kernel();
  }
};

warp_instruction ffma(opcode_table& ops, std::uint32_t pc, std::uint16_t dst, std::uint16_t a) {
  warp_instruction in;
  in.opcode = ops.intern("FFMA");
  in.pc = pc;
  in.active_mask = 0xffffffffu;
  in.num_dst = 1;
  in.dst[0] = dst;
  in.num_src = 3;
  in.src[0] = a;
  in.src[1] = 2;
  in.src[2] = 3;
  return in;
}

// A global memory instruction of the LDST unit with one 4 B access per lane (all 32 active),
// its lane addresses appended to the warp's by the caller.
warp_instruction memory_access(opcode_table& ops, const char* opcode, mem_space space,
                               std::uint32_t pc, std::uint16_t dst, const warp_trace& w) {
  warp_instruction in;
  in.opcode = ops.intern(opcode);
  in.pc = pc;
  in.active_mask = 0xffffffffu;
  in.num_dst = 1;
  in.dst[0] = dst;
  in.num_src = 1;
  in.src[0] = 4;
  in.access_size = 4;
  in.space = space;
  in.unit = unit_class::ldst;
  in.addr_index = static_cast<std::uint32_t>(w.addresses.size());
  return in;
}

// N FFMAs; dependent: each reads the previous one's result (R10 = R10*R2+R3).
void ffmas(warp_trace& w, opcode_table& ops, std::uint32_t n, bool dependent) {
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint16_t dst = dependent ? 10 : static_cast<std::uint16_t>(10 + i % 100);
    w.insts.push_back(ffma(ops, 0x10 * i, dst, dependent ? 10 : 1));
  }
}

nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag,
                   const std::string& platform = k_platform) {
  std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  auto r = run_command(std::string(GPUTLM_BIN) + " run " + platform + " " + trace + " " + sets +
                           " --no-wall-clock --stats-form=full --stats " + stats,
                       tag);
  EXPECT_EQ(r.status, 0) << r.err;
  if (r.status != 0) return nlohmann::json::object();
  return nlohmann::json::parse(gputlm::testing::slurp(stats));
}

const std::string k_one_smx = "--set smx.count=1";

std::uint64_t kernel_cycles(const nlohmann::json& j) { return j["kernels"][0]["cycles"]; }

// One SMX with one scheduler issuing one SP instruction per cycle (4-cycle latency); a wide
// fetch keeps every instruction buffer filled, so that only the scheduling policy decides
// who issues.
const std::string k_one_scheduler = k_one_smx +
                                    " --set smx.warp_schedulers=1 --set smx.sub_core_model=false"
                                    " --set smx.sp_latency=4cycles --set smx.sp_initiation=1cycles"
                                    " --set smx.ibuffer_entries=8 --set smx.fetch_width=8";

// The end cycle of TB `tb` of the first kernel, from the TB dispatch log.
std::uint64_t tb_end(const nlohmann::json& j, int tb) {
  return j["kernels"][0]["tb_log"][tb][3].get<std::uint64_t>();
}

}  // namespace

TEST(smx_timing, independent_ffmas_take_n_times_initiation) {
  const std::uint64_t n = 200, latency = 8, ii = 2;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  auto j = run(k.write("independent", 1, 1),
               k_one_smx + " --set smx.sp_latency=8cycles --set smx.sp_initiation=2cycles",
               "independent");
  const std::uint64_t c = kernel_cycles(j);
  EXPECT_GE(c, n * ii);
  EXPECT_LE(c, n * ii + latency + 10);
  EXPECT_EQ(j["warp_instructions"], n + 1);  // + EXIT
  EXPECT_EQ(j["thread_instructions"], (n + 1) * 32);
}

TEST(smx_timing, a_warp_fetched_only_when_its_buffer_is_empty_issues_two_in_three_cycles) {
  // GPGPU-Sim's front end: a warp is fetched only when its two-entry buffer is empty, two
  // instructions a fetch, landing the next cycle. One warp of n independent FFMAs: fetch at
  // t, issue at t + 1 and t + 2, the buffer empty after the second, fetched again at t + 3:
  // two instructions every three cycles. Refilled whenever it has room, the same warp issues
  // one a cycle.
  const std::uint64_t n = 300;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  const std::string dir = k.write("fetch_empty", 1, 1);
  const std::string common = k_one_smx +
                             " --set smx.sp_latency=4cycles --set smx.sp_initiation=1cycles"
                             " --set smx.fetch_width=2 --set smx.ibuffer_entries=2"
                             " --set smx.fetch_warps=1";
  const std::uint64_t empty =
      kernel_cycles(run(dir, common + " --set smx.fetch_when_empty=true", "fetch_empty"));
  const std::uint64_t room =
      kernel_cycles(run(dir, common + " --set smx.fetch_when_empty=false", "fetch_room"));
  EXPECT_GE(empty, 3 * n / 2);
  EXPECT_LE(empty, 3 * n / 2 + 20);
  EXPECT_GE(room, n);
  EXPECT_LE(room, n + 20);
}

TEST(smx_timing, dependent_chain_takes_n_times_latency) {
  const std::uint64_t n = 100, latency = 8;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, true);
  };
  auto j =
      run(k.write("dependent", 1, 1),
          k_one_smx + " --set smx.sp_latency=8cycles --set smx.sp_initiation=2cycles", "dependent");
  const std::uint64_t c = kernel_cycles(j);
  EXPECT_GE(c, n * latency);
  EXPECT_LE(c, n * latency + 10);
  // While the chain waits, the scheduler's stall reason is the scoreboard.
  EXPECT_GT(j["blocks"]["gpu.smx[0]"]["issue_scoreboard"].get<std::uint64_t>(), n * (latency - 2));
}

TEST(smx_timing, a_gated_sp_group_adds_its_wake_up_to_each_instruction_after_a_gap) {
  // A dependent FFMA chain issues one FFMA every `latency` = 8 cycles. With the SP group put
  // OFF after 4 idle cycles (idle_timeout; tests/data/volta_ideal.yaml gives OFF a 10-cycle
  // wake-up), every FFMA after the first finds the group asleep and waits 10 more cycles:
  // about n x 18 instead of n x 8. With a timeout longer than the gap the group never sleeps.
  const std::uint64_t n = 50, latency = 8, wake = 10;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, true);
  };
  const std::string trace = k.write("gated_sp", 1, 1);
  const std::string common =
      k_one_smx + " --set smx.sp_latency=8cycles --set smx.sp_initiation=2cycles";
  const std::string gate =
      " --set power.policy=idle_timeout --set power.policy.state=off"
      " --set power.policy.components=smx.sp";
  auto gated = run(trace, common + gate + " --set power.policy.after=4cycles", "gated_sp_4");
  auto awake = run(trace, common + gate + " --set power.policy.after=20cycles", "gated_sp_20");
  const std::uint64_t c_gated = kernel_cycles(gated), c_awake = kernel_cycles(awake);
  // (The first FFMA issues within 4 cycles of the start, while the group is still ON.)
  EXPECT_GE(c_gated, (n - 1) * (latency + wake) + latency);
  EXPECT_LE(c_gated, n * (latency + wake) + 10);
  EXPECT_GE(c_awake, n * latency);
  EXPECT_LE(c_awake, n * latency + wake + 10);
  // Each 18-cycle step leaves the group OFF for 14 cycles.
  EXPECT_GT(gated["blocks"]["gpu.smx[0]"]["power.sp.residency.off"].get<double>(), 0.7);
  EXPECT_EQ(gated["blocks"]["gpu.smx[0]"]["power.sp.events.op"].get<double>(), double(n * 32));
}

TEST(smx_power, a_busy_smx_keeps_the_parts_it_uses_awake_under_idle_timeout) {
  // tests/data/volta_ideal.yaml with power entries for the SMX's front end, register file,
  // collectors and shared memory, and idle_timeout putting any of them OFF after 50 idle
  // cycles. One TB of 4 warps, one per scheduler (sub-core: each scheduler has 2 of the 8
  // register banks and one SP unit), each issuing n = 1000 independent FFMAs, one every
  // 2 cycles (sp_initiation). Every FFMA reads R1, R2, R3 and writes R10+: registers of both
  // parities, so both banks of its scheduler, the fetch/decode unit, the scheduler and the
  // collector are used every few cycles (far fewer than 50) from a warp's first FFMA to its
  // last, which are (n - 1) x 2 = 1998 cycles apart or more. An element goes OFF only after
  // 50 idle cycles, so only before the first FFMA and after the last one: its OFF residency
  // is at most (total - 1998) / total. (Before the SMX reported these uses, they went OFF at
  // cycle 50 and stayed there: about 0.97.) Shared memory, never used, is OFF from cycle 50.
  const std::uint64_t n = 1000, ii = 2, after = 50;
  const std::string platform = std::string(GPUTLM_TEST_TMP) + "/volta_ideal_smx_power.yaml";
  {
    std::ofstream f(platform);
    f << gputlm::testing::slurp(k_platform)
      << "      register_file:\n"
         "        states: {on: 100mW, off: {static: 0W, wake: 16cycles, break_even: 32cycles}}\n"
         "        events: {read: 25pJ, write: 30pJ}\n";
    for (const char* c : {"fetch_decode", "scheduler", "operand_collector", "shared_memory"})
      f << "      " << c << ":\n"
        << "        states: {on: 10mW, off: {static: 0W, wake: 10cycles, break_even: 20cycles}}\n";
  }
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  const std::string trace = k.write("busy_rf", 1, 4);
  auto j = run(trace,
               k_one_smx +
                   " --set power.policy=idle_timeout --set power.policy.state=off"
                   " --set power.policy.after=" +
                   std::to_string(after) + "cycles",
               "busy_rf", platform);
  const nlohmann::json& smx = j["blocks"]["gpu.smx[0]"];
  const double total = j["total_cycles"].get<double>();
  const double bound = (total - double((n - 1) * ii)) / total;
  ASSERT_GT(total, double((n - 1) * ii));
  for (const char* c : {"register_file", "fetch_decode", "scheduler", "operand_collector"}) {
    const double off = smx["power." + std::string(c) + ".residency.off"].get<double>();
    EXPECT_LE(off, bound) << c;
    EXPECT_LT(off, 0.15) << c;  // (the bound is about 0.1: the launch and the drain)
  }
  // Unused, it sleeps: OFF from cycle 50 to the end.
  EXPECT_GE(smx["power.shared_memory.residency.off"].get<double>(), (total - after - 1) / total);
  EXPECT_EQ(smx["power.register_file.events.read"].get<double>(), double(4 * n * 3));
  EXPECT_EQ(smx["warp_instructions"].get<double>(), double(4 * (n + 1)));
}

TEST(smx_power, a_core_clock_at_half_a_volt_halves_static_and_quarters_dynamic_energy) {
  // The power table is at 1 V (tests/data/volta_ideal.yaml: the SP group 100 mW, 4 pJ per
  // lane op). With the core domain at 0.5 V the same run (same cycles) costs, for the SP
  // group of SMX 0: static 100 mW x 0.5 x the simulated time, dynamic 4 pJ x 0.25 x its ops.
  const std::uint64_t n = 100;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  const std::string trace = k.write("half_volt", 1, 1);
  auto one = run(trace, k_one_smx, "volt_1");
  auto half = run(trace, k_one_smx + " --set clocks.core.voltage=0.5V", "volt_05");
  ASSERT_EQ(kernel_cycles(one), kernel_cycles(half));
  ASSERT_EQ(one["simulated_seconds"], half["simulated_seconds"]);
  const double t = half["simulated_seconds"].get<double>();
  const nlohmann::json& s1 = one["blocks"]["gpu.smx[0]"];
  const nlohmann::json& s05 = half["blocks"]["gpu.smx[0]"];
  const double ops = s05["power.sp.events.op"].get<double>();
  EXPECT_EQ(ops, double(n * 32));  // every FFMA, 32 lanes (EXIT is not an SP op)
  EXPECT_NEAR(s1["power.sp.static_joules"].get<double>(), 0.1 * t, 0.1 * t * 1e-9);
  EXPECT_NEAR(s1["power.sp.dynamic_joules"].get<double>(), ops * 4e-12, 1e-21);
  EXPECT_NEAR(s05["power.sp.static_joules"].get<double>(), 0.1 * 0.5 * t, 0.1 * t * 1e-9);
  EXPECT_NEAR(s05["power.sp.dynamic_joules"].get<double>(), ops * 4e-12 * 0.25, 1e-21);
}

TEST(smx_timing, gto_finishes_the_older_warp_first_lrr_interleaves) {
  const std::uint64_t n = 100;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  const std::string trace = k.write("two_warps", 2, 1);  // two TBs of one warp each
  auto gto = run(trace, k_one_scheduler + " --set smx.scheduler_policy=gto", "gto");
  auto lrr = run(trace, k_one_scheduler + " --set smx.scheduler_policy=lrr", "lrr");
  // One scheduler issues one instruction per cycle: 2(n+1) issue cycles in all.
  // GTO: warp 0 (older) runs alone to completion after ~n+1 cycles, then warp 1.
  EXPECT_LE(tb_end(gto, 0), n + 1 + 10);
  EXPECT_GE(tb_end(gto, 1), 2 * (n + 1));
  // LRR: the two warps alternate, so both finish near 2(n+1).
  EXPECT_GE(tb_end(lrr, 0), 2 * (n + 1) - 2);
  EXPECT_GE(tb_end(lrr, 1), 2 * (n + 1));
  EXPECT_LE(tb_end(lrr, 1), 2 * (n + 1) + 10);
}

TEST(smx_timing, gto_and_lrr_order_six_warps_on_one_scheduler) {
  // Three TBs of two warps, n independent FFMAs each, one scheduler issuing one per cycle.
  const std::uint64_t n = 60;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, n, false);
  };
  const std::string trace = k.write("six_warps", 3, 2);
  auto gto = run(trace, k_one_scheduler + " --set smx.scheduler_policy=gto", "gto6");
  auto lrr = run(trace, k_one_scheduler + " --set smx.scheduler_policy=lrr", "lrr6");
  // GTO runs the warps one after the other, oldest first: TB t ends once its second warp
  // has issued its n + 1 instructions, after 2(t + 1)(n + 1) issue cycles.
  for (int t = 0; t < 3; ++t) {
    EXPECT_GE(tb_end(gto, t), 2 * (t + 1) * (n + 1)) << t;
    EXPECT_LE(tb_end(gto, t), 2 * (t + 1) * (n + 1) + 10) << t;
  }
  // LRR takes the six warps in turn, so every TB ends near 6(n + 1).
  for (int t = 0; t < 3; ++t) {
    EXPECT_GE(tb_end(lrr, t), 6 * (n + 1) - 6) << t;
    EXPECT_LE(tb_end(lrr, t), 6 * (n + 1) + 10) << t;
  }
}

TEST(smx_timing, resident_tbs_follow_occupancy_arithmetic) {
  // Volta SMX: 32 TB slots, 2048 threads, 65536 registers, 96 KiB shared memory.
  struct kase {
    std::uint32_t nregs;
    std::uint32_t shmem;
    std::uint32_t expected;
  };
  // 256 threads x 40 regs = 10240 registers per TB: 65536 / 10240 = 6 (threads allow 8).
  // 256 threads x 16 regs = 4096 (16 fit); 20 KiB shared: 96 / 20 = 4.
  // 256 threads x 8 regs: registers allow 32, threads allow 2048 / 256 = 8.
  for (const kase& c : {kase{40, 0, 6}, kase{16, 20 * 1024, 4}, kase{8, 0, 8}}) {
    kernel_builder k;
    k.info.nregs = c.nregs;
    k.info.shmem = c.shmem;
    k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
      ffmas(w, ops, 50, true);
    };
    std::string tag = "occupancy_" + std::to_string(c.nregs) + "_" + std::to_string(c.shmem);
    auto j = run(k.write(tag, 20, 8), k_one_smx, tag);
    const auto& log = j["kernels"][0]["tb_log"];
    std::uint64_t first_end = ~0ull;
    for (const auto& t : log) first_end = std::min(first_end, t[3].get<std::uint64_t>());
    std::uint32_t resident = 0;
    for (const auto& t : log) resident += t[2].get<std::uint64_t>() < first_end;
    EXPECT_EQ(resident, c.expected) << tag;
  }
}

TEST(smx_timing, coalesced_request_counts) {
  // One warp: a stride-1 load (1 line, 4 sectors), a stride-2 load (2 lines, 8 sectors), a
  // random load; Volta's coalescer makes one request per distinct 32-byte sector.
  std::set<std::uint64_t> random_sectors;
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    std::uint64_t x = 99;
    for (int pattern = 0; pattern < 3; ++pattern) {
      const warp_instruction ld =
          memory_access(ops, "LDG.E.SYS", mem_space::global, 0x10 * std::uint32_t(pattern),
                        static_cast<std::uint16_t>(20 + pattern), w);
      for (std::uint64_t lane = 0; lane < 32; ++lane) {
        std::uint64_t a;
        if (pattern == 0) {
          a = 0x7f0000000000ull + 4 * lane;
        } else if (pattern == 1) {
          a = 0x7f0000001000ull + 8 * lane;
        } else {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          a = 0x7f0000100000ull + ((x >> 24) % 65536) * 4;
          random_sectors.insert(a / 32);
        }
        w.addresses.push_back(a);
      }
      w.insts.push_back(ld);
    }
  };
  auto j = run(k.write("coalescing", 1, 1), k_one_smx, "coalescing");
  const std::uint64_t expected = 4 + 8 + random_sectors.size();
  EXPECT_EQ(j["blocks"]["gpu.smx[0]"]["memory_requests"], expected);
  EXPECT_EQ(j["blocks"]["gpu.smx[0].mem"]["requests"], expected);
}

TEST(smx_timing, atomic_request_counts) {
  // One warp, three global atomics (GPGPU-Sim's atomic rule: one request per 32 B sector and
  // per group of lanes with no byte in common): 32 lanes on one counter -> 32 requests;
  // unit stride over one line -> 4 sectors; lane i on word i / 2 over 64 B -> 2 sectors x 2.
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    for (int pattern = 0; pattern < 3; ++pattern) {
      warp_instruction at =
          memory_access(ops, "ATOMG.E.ADD.STRONG.GPU", mem_space::global_atomic,
                        0x10 * std::uint32_t(pattern), static_cast<std::uint16_t>(20 + pattern), w);
      at.num_src = 2;  // address and operand
      at.src[1] = 5;
      for (std::uint64_t lane = 0; lane < 32; ++lane)
        w.addresses.push_back(pattern == 0   ? 0x7f0000000040ull
                              : pattern == 1 ? 0x7f0000001000ull + 4 * lane
                                             : 0x7f0000002000ull + 4 * (lane / 2));
      w.insts.push_back(at);
    }
  };
  auto j = run(k.write("atomics", 1, 1), k_one_smx, "atomics");
  const std::uint64_t expected = 32 + 4 + 4;
  EXPECT_EQ(j["blocks"]["gpu.smx[0]"]["memory_requests"], expected);
  EXPECT_EQ(j["blocks"]["gpu.smx[0].mem"]["requests"], expected);
}

TEST(smx_timing, a_warp_with_an_atomic_in_flight_waits_for_it_under_atomic_wait) {
  // One warp: a RED over one line (four sector requests, no destination register), then n
  // independent FFMAs (one a cycle on the one scheduler, 4-cycle latency). A warp retires
  // once its requests are answered and its results written. Without atomic_wait the FFMAs
  // issue while the atomic travels (the test platform's memory answers after 200 cycles),
  // and the warp retires in the cycle of the last reply. With it (GPGPU-Sim's
  // shd_warp_t::waiting) the first FFMA issues in that cycle, the n-th n - 1 cycles later,
  // and the warp retires when its result is written 4 cycles after: n - 1 + 4 cycles more.
  for (std::uint32_t n : {20u, 40u}) {
    SCOPED_TRACE(n);
    kernel_builder k;
    k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
      warp_instruction red =
          memory_access(ops, "RED.E.ADD.STRONG.GPU", mem_space::global_atomic, 0, 0, w);
      red.num_dst = 0;
      red.dst[0] = warp_instruction::no_reg;
      red.num_src = 2;
      red.src[1] = 5;
      for (std::uint64_t lane = 0; lane < 32; ++lane)
        w.addresses.push_back(0x7f0000001000ull + 4 * lane);
      w.insts.push_back(red);
      for (std::uint32_t i = 0; i < n; ++i)
        w.insts.push_back(ffma(ops, 0x10 * (i + 1), static_cast<std::uint16_t>(10 + i), 1));
    };
    const std::string tag = "atomic_wait_" + std::to_string(n);
    const std::string trace = k.write(tag, 1, 1);
    auto free_run = run(trace, k_one_scheduler + " --set smx.atomic_wait=false", tag + "_free");
    auto waiting = run(trace, k_one_scheduler + " --set smx.atomic_wait=true", tag + "_wait");
    EXPECT_GT(kernel_cycles(free_run), 200u);  // the atomic's round trip dominates
    EXPECT_EQ(kernel_cycles(waiting), kernel_cycles(free_run) + n - 1 + 4);
    EXPECT_EQ(free_run["blocks"]["gpu.smx[0]"]["memory_requests"], 4u);
    EXPECT_EQ(waiting["blocks"]["gpu.smx[0]"]["memory_requests"], 4u);
  }
}

TEST(smx_timing, a_warp_waiting_for_the_ldst_unit_stalls_while_it_sends) {
  // One scheduler, two warps (one per TB). Warp 0: an atomic whose 32 lanes update one
  // counter, i.e. 32 requests, which the LDST unit sends one per cycle. Warp 1: a load,
  // which must wait until the unit has sent them all. So about 31 cycles in which the
  // scheduler's only candidate waits for the unit: each counts as unit busy (or memory
  // back-pressure, should the L1 withhold a request). Warp 0 then has nothing left to issue.
  kernel_builder k;
  k.body = [&](std::uint32_t tb, std::uint32_t, opcode_table& ops, warp_trace& w) {
    warp_instruction in;
    if (tb == 0) {
      in = memory_access(ops, "ATOMG.E.ADD.STRONG.GPU", mem_space::global_atomic, 0, 20, w);
      in.num_src = 2;
      in.src[1] = 5;
    } else {
      in = memory_access(ops, "LDG.E.SYS", mem_space::global, 0, 20, w);
    }
    for (std::uint64_t lane = 0; lane < 32; ++lane)
      w.addresses.push_back(tb == 0 ? 0x7f0000000040ull : 0x7f0000010000ull + 4 * lane);
    w.insts.push_back(in);
  };
  auto j = run(k.write("ldst_wait", 2, 1), k_one_scheduler, "ldst_wait");
  const auto& smx = j["blocks"]["gpu.smx[0]"];
  EXPECT_EQ(smx["memory_requests"], 36u);  // 32 + the load's four sector requests (Volta)
  const std::uint64_t waiting = smx["issue_unit_busy"].get<std::uint64_t>() +
                                smx["issue_memory_backpressure"].get<std::uint64_t>();
  EXPECT_GE(waiting, 29u);
  EXPECT_LE(waiting, 33u);
}

TEST(smx_timing, k20_dispatch_example) {
  // DTBL thesis §2.2: 100 TBs on 13 SMXs with 3 TBs per SMX: TB i goes to SMX i mod 13 for
  // the first 39, one per cycle; TB 39 goes to whichever SMX frees a slot first. TB 5 is
  // made short, so that SMX is SMX 5.
  kernel_builder k;
  k.body = [&](std::uint32_t tb, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, tb == 5 ? 5 : 60, true);
  };
  auto j = run(
      k.write("k20", 100, 1),
      "--set smx.count=13 --set smx.max_tbs=3", "k20");
  const auto& log = j["kernels"][0]["tb_log"];
  ASSERT_EQ(log.size(), 100u);
  const std::uint64_t t0 = log[0][2];
  for (std::uint32_t i = 0; i < 39; ++i) {
    EXPECT_EQ(log[i][1], i % 13) << "TB " << i;
    EXPECT_EQ(log[i][2].get<std::uint64_t>(), t0 + i) << "TB " << i;  // one TB per cycle
  }
  EXPECT_EQ(log[39][1], 5u);
  EXPECT_GE(log[39][2].get<std::uint64_t>(), log[5][3].get<std::uint64_t>());
  for (const auto& t : log) EXPECT_LE(t[2].get<std::uint64_t>(), t[3].get<std::uint64_t>());
}

TEST(smx_timing, statistics_are_deterministic) {
  const std::string trace = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/sgemm_tiled";
  std::string a = std::string(GPUTLM_TEST_TMP) + "/det_a.json";
  std::string b = std::string(GPUTLM_TEST_TMP) + "/det_b.json";
  for (const auto& f : {a, b}) {
    auto r = run_command(std::string(GPUTLM_BIN) + " run " + k_platform + " " + trace +
                             " --no-wall-clock --stats-form=full --stats " + f,
                         "det");
    ASSERT_EQ(r.status, 0) << r.err;
  }
  EXPECT_EQ(gputlm::testing::slurp(a), gputlm::testing::slurp(b));
}

TEST(kernel_management, streams_serialise_or_overlap_and_launch_latency) {
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, 40, true);
  };
  // Two one-TB kernels. On one stream the second starts after the first completes (one
  // hardware queue); on two streams they run at once, on different SMXs.
  auto same = run(k.write("same_stream", 1, 1, {0, 0}), "", "same_stream");
  auto two = run(k.write("two_streams", 1, 1, {0, 1}), "", "two_streams");
  auto cyc = [](const nlohmann::json& j, int kernel, const char* what) {
    return j["kernels"][kernel][what].get<std::uint64_t>();
  };
  EXPECT_GE(cyc(same, 1, "start_cycle"), cyc(same, 0, "end_cycle"));
  EXPECT_LT(cyc(two, 1, "start_cycle"), cyc(two, 0, "end_cycle"));
  // With one Kernel Distributor entry the two streams serialise again (back-pressure).
  auto one_kde = run(k.write("one_kde", 1, 1, {0, 1}), "--set kd.entries=1", "one_kde");
  EXPECT_GE(cyc(one_kde, 1, "start_cycle"), cyc(one_kde, 0, "end_cycle"));
  // Kernel launch latency: the first TB waits for it; the queue's next kernel waits again
  // after the first completes.
  auto lat =
      run(k.write("latency", 1, 1, {0, 0}), "--set kmu.kernel_launch_latency=500cycles", "latency");
  EXPECT_GE(cyc(lat, 0, "start_cycle"), 500u);
  EXPECT_GE(cyc(lat, 1, "start_cycle"), cyc(lat, 0, "end_cycle") + 500);
}

TEST(kernel_management, barrier_holds_the_tb_until_every_warp_arrives) {
  // Warp 0: 30 dependent FFMAs (8 cycles each) then BAR.SYNC; warp 1: BAR.SYNC then 30
  // dependent FFMAs. Warp 1's chain cannot start before warp 0 has issued its last FFMA
  // (29 x 8 cycles in; the barrier waits for issue, not for register results), then takes
  // 30 x 8 cycles: >= 59 x 8 in all.
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t warp, opcode_table& ops, warp_trace& w) {
    warp_instruction bar;
    bar.opcode = ops.intern("BAR.SYNC");
    bar.active_mask = 0xffffffffu;
    if (warp == 1) w.insts.push_back(bar);
    ffmas(w, ops, 30, true);
    if (warp == 0) w.insts.push_back(bar);
    for (std::uint32_t i = 0; i < w.insts.size(); ++i) w.insts[i].pc = 0x10 * i;
  };
  auto j = run(k.write("barrier", 1, 2), k_one_smx + " --set smx.sp_latency=8cycles", "barrier");
  EXPECT_GE(kernel_cycles(j), 59u * 8);
  EXPECT_LE(kernel_cycles(j), 60u * 8 + 20);
  EXPECT_GT(j["blocks"]["gpu.smx[0]"]["issue_barrier"].get<std::uint64_t>(), 30u * 8 - 10);
}

TEST(bad_trace, truncated_tb_found_during_the_run_exits_2_and_writes_nothing) {
  // An error after the simulation started, thrown on the main stack once coroutines have
  // run: under AddressSanitizer too, exit 2 and the one line (models/common/sanitizer_fibers.cpp).
  // Copy the vectoradd sample and cut its kernel file inside TB 30: the header and the first
  // TBs parse, so the problem only shows when the SMX reads TB 30 during the simulation.
  const std::string src = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/vectoradd";
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/truncated";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy(src + "/kernelslist.g", dir + "/kernelslist.g");
  std::string text = gputlm::testing::slurp(src + "/kernel-1.traceg");
  const std::size_t cut = text.find("thread block = 30,0,0") + 2000;
  gputlm::testing::write_text(dir + "/kernel-1.traceg", text.substr(0, cut));
  const std::size_t last_line = std::count(text.begin(), text.begin() + cut, '\n') + 1;

  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/truncated.json";
  std::filesystem::remove(stats);
  auto r = run_command(std::string(GPUTLM_BIN) + " run " + k_platform + " " + dir +
                           " --stats-form=full --stats " + stats,
                       "truncated");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("error: " + dir + "/kernel-1.traceg:" + std::to_string(last_line) + ": "),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(stats));
}

namespace {
// Minimal VCD reader: identifier code of `scope.name`, and its value changes {fs: value}.
std::map<std::uint64_t, std::uint64_t> vcd_changes(const std::string& text,
                                                   const std::string& scope,
                                                   const std::string& name) {
  std::istringstream in(text);
  std::string line, code;
  std::vector<std::string> scopes;
  std::map<std::uint64_t, std::uint64_t> out;
  std::uint64_t now = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tok;
    ls >> tok;
    if (tok == "$scope") {
      std::string kind, n;
      ls >> kind >> n;
      scopes.push_back(n);
    } else if (tok == "$upscope") {
      scopes.pop_back();
    } else if (tok == "$var") {
      std::string type, width, c, n;
      ls >> type >> width >> c >> n;
      std::string s;
      for (const auto& p : scopes) s += (s.empty() ? "" : ".") + p;
      if (s == scope && n == name) code = c;
    } else if (!tok.empty() && tok[0] == '#') {
      now = std::stoull(tok.substr(1));
    } else if (!tok.empty() && tok[0] == 'b') {
      std::string c;
      ls >> c;
      if (c == code) out[now] = std::stoull(tok.substr(1), nullptr, 2);
    }
  }
  return out;
}
}  // namespace

TEST(waveforms, resident_tbs_change_at_dispatch_and_completion_times) {
  // Two one-warp TBs of different lengths on one SMX: the VCD's resident_tbs must step up at
  // each TB's start cycle and down at its end cycle (from the TB log), at exact times.
  kernel_builder k;
  k.body = [&](std::uint32_t tb, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, tb == 0 ? 20 : 40, true);
  };
  const std::string trace = k.write("waves", 2, 1);
  const std::string vcd = std::string(GPUTLM_TEST_TMP) + "/waves.vcd";
  std::filesystem::remove(vcd);
  auto traced = run(trace, k_one_smx + " --vcd " + vcd + " --trace 'smx[0].*'", "waves_on");
  auto plain = run(trace, k_one_smx, "waves_off");
  // Tracing changes nothing in the statistics.
  EXPECT_EQ(traced.dump(), plain.dump());

  const double period_fs = 1e15 / 1200e6;  // volta_ideal core clock
  auto fs = [&](std::uint64_t cycle) {
    return static_cast<std::uint64_t>(std::llround(period_fs)) * cycle;
  };
  const auto& log = traced["kernels"][0]["tb_log"];
  std::map<std::uint64_t, std::uint64_t> expected{{0, 0}};
  expected[fs(log[0][2])] = 1;
  expected[fs(log[1][2])] = 2;
  expected[fs(log[0][3])] = 1;
  expected[fs(log[1][3])] = 0;
  const std::string text = gputlm::testing::slurp(vcd);
  EXPECT_EQ(vcd_changes(text, "gpu.smx(0)", "resident_tbs"), expected);
  // Only the selected block is traced; the GTKWave layout lists it.
  EXPECT_EQ(text.find("$scope module kd"), std::string::npos);
  const std::string gtkw = gputlm::testing::slurp(std::string(GPUTLM_TEST_TMP) + "/waves.gtkw");
  EXPECT_NE(gtkw.find("gpu.smx(0).resident_tbs[5:0]"), std::string::npos);
  EXPECT_NE(gtkw.find("[dumpfile] \"" + vcd + "\""), std::string::npos);
}

TEST(waveforms, time_window_keeps_only_changes_inside_it) {
  kernel_builder k;
  k.body = [&](std::uint32_t, std::uint32_t, opcode_table& ops, warp_trace& w) {
    ffmas(w, ops, 100, false);
  };
  const std::string vcd = std::string(GPUTLM_TEST_TMP) + "/window.vcd";
  run(k.write("window", 4, 1),
      k_one_smx + " --vcd " + vcd + " --vcd-from 100cycles --vcd-to 200cycles", "window");
  const std::uint64_t from = 100 * 833333, to = 200 * 833333;  // 1200 MHz: 833333 fs a cycle
  std::istringstream in(gputlm::testing::slurp(vcd));
  std::string line;
  std::size_t stamps = 0;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '#') {
      const std::uint64_t t = std::stoull(line.substr(1));
      EXPECT_GE(t, from);
      EXPECT_LE(t, to);
      ++stamps;
    }
  EXPECT_GT(stamps, 10u);
}

}  // namespace test_smx_timing
