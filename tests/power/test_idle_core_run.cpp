// The idle-core dynamic power (GPUWattch's IDLE_COREP, docs/power.md "Idle cores") in a whole
// GTX480 through `gputlm run`: a kernel of two TBs, each one warp running a chain of 200
// dependent FFMAs, on 15 SMs. Thirteen SMs never hold a TB: idle the whole run, each draws
// the table's 1.59 W for the simulated time T exactly. The two that run a TB are busy for
// at least the chain's 200 x FFMA latency and at most the kernel's span, and idle for the
// rest, charged as residency x 1.59 W x T. The clock energy is part of the dynamic energy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_idle_core_run {

using namespace gputlm::testing;

TEST(idle_core_run, an_sm_without_a_tb_draws_the_idle_core_power) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/idle_core_trace";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
  std::ostringstream k;
  k << "-kernel name = _Zchain\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
       "-shmem = 0\n-nregs = 16\n-binary version = 35\n-cuda stream id = 0\n"
       "-shmem base_addr = 0x00007ff000000000\n-local mem base_addr = 0x00007ff800000000\n"
       "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";
  for (int t = 0; t < 2; ++t) {
    k << "#BEGIN_TB\n\nthread block = " << t << ",0,0\n\nwarp = 0\ninsts = 201\n";
    for (int i = 0; i < 200; ++i) k << "0010 ffffffff 1 R1 FFMA 3 R1 R1 R1 0\n";
    k << "0200 ffffffff 0 EXIT 0 0\n\n#END_TB\n\n";
  }
  std::ofstream(dir + "/kernel-1.traceg") << k.str();
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/idle_core.json";
  auto r = run_command(gputlm_bin() + " run " GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " + dir +
                           " --no-wall-clock --no-tb-log --stats-form=full --stats " + stats,
                       "idle_core");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(stats));
  const double T = j["simulated_seconds"].get<double>();
  const double cycle = T / j["total_cycles"].get<double>();
  const auto& kernel = j["kernels"][0];
  const double span = kernel["end_cycle"].get<double>() - kernel["start_cycle"].get<double>();
  int idle_all_run = 0, busy = 0;
  double clock_sum = 0;
  for (int s = 0; s < 15; ++s) {
    const auto& b = j["blocks"]["gpu.smx[" + std::to_string(s) + "]"];
    const double idle = b["power.core.residency.idle"].get<double>();
    const double clock = b["power.core.clock_joules"].get<double>();
    EXPECT_NEAR(idle + b["power.core.residency.busy"].get<double>(), 1.0, 1e-12) << s;
    EXPECT_NEAR(clock, 1.59 * idle * T, 1e-15) << s;
    clock_sum += clock;
    if (idle == 1.0) {
      ++idle_all_run;
      EXPECT_NEAR(clock, 1.59 * T, 1e-15) << s;
    } else {
      ++busy;
      const double busy_cycles = (1.0 - idle) * T / cycle;
      EXPECT_GE(busy_cycles + 1e-6, 200.0 * 4) << s;  // 200 FFMAs of at least 4 cycles each
      EXPECT_LE(busy_cycles, span + 1e-6) << s;
    }
  }
  EXPECT_EQ(idle_all_run, 13);
  EXPECT_EQ(busy, 2);
  // Part of the chip's dynamic energy and of the table's entry for smx.core.
  const auto& entry = j["power"]["by_component"]["smx.core"];
  EXPECT_NEAR(entry["dynamic_joules"].get<double>(), clock_sum, 1e-15);
  EXPECT_EQ(entry["static_joules"].get<double>(), 0.0);
  EXPECT_GE(j["dynamic_joules"].get<double>(), clock_sum);
}

}  // namespace test_idle_core_run
