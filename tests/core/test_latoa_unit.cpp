// LATOA's core-state classifier and core statistics (models/core/latoa_unit.h) on the
// 56-core mesh: the bands at 21/22/42/43 of 64 entries by hand; the time in each state
// equal to the time the L1's MSHR waveform (mshr_entries, written by the L1 itself) spends
// in each band; a pointer chase (one thread, dependent loads) stalled nearly all its
// resident time and a dependent FP32 chain never; the mechanism only watches (cycles equal
// without it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "models/core/latoa_unit.h"
#include "tests/common/run_stats.h"
#include "tests/common/vcd_read.h"

namespace test_latoa_unit {

using namespace gputlm::testing;
using gputlm::core::latoa_unit;

namespace {

const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";
const std::string mesh = yaml + "latoa.yaml";
const std::string mechanism = yaml + "mechanisms/latoa.yaml";
constexpr int cores = 56;

std::string trace(const std::string& kernel, const std::string& params, const std::string& name) {
  return generated_trace(kernel, params, name);
}

nlohmann::json run(const std::string& dir, const std::string& opts, const std::string& tag) {
  return run_stats(mesh, dir, opts, tag);
}

const nlohmann::json& unit(const nlohmann::json& j, int s) {
  return j["blocks"]["gpu.smx[" + std::to_string(s) + "].latoa"];
}

}  // namespace

TEST(latoa_unit, the_bands_by_hand_at_21_22_42_43_of_64_entries) {
  const double third = 1.0 / 3.0, two = 2.0 / 3.0;
  using s = latoa_unit::core_state;
  EXPECT_EQ(latoa_unit::classify(0, 64, third, two), s::relaxed);
  EXPECT_EQ(latoa_unit::classify(21, 64, third, two), s::relaxed);  // 21 <= 21.33
  EXPECT_EQ(latoa_unit::classify(22, 64, third, two), s::neutral);
  EXPECT_EQ(latoa_unit::classify(42, 64, third, two), s::neutral);  // 42 <= 42.67
  EXPECT_EQ(latoa_unit::classify(43, 64, third, two), s::critical);
  EXPECT_EQ(latoa_unit::classify(64, 64, third, two), s::critical);
  // An exact third stays in its band: 2 of 6 relaxed, 4 of 6 neutral, 5 critical.
  EXPECT_EQ(latoa_unit::classify(2, 6, third, two), s::relaxed);
  EXPECT_EQ(latoa_unit::classify(4, 6, third, two), s::neutral);
  EXPECT_EQ(latoa_unit::classify(5, 6, third, two), s::critical);
}

TEST(latoa_unit, state_residency_is_the_mshr_waveforms_time_in_each_band) {
  const std::string dir = trace("stream", " -p footprint=4194304 -p passes=1", "latoa_stream");
  const std::string vcd = test_tmp("latoa_stream.vcd");
  const auto j = run(dir,
                     " --with " + mechanism + " --vcd " + vcd +
                         " --trace 'smx[*].l1.mshr_entries' --trace 'smx[*].latoa.state'",
                     "latoa_stream");
  const vcd_file v(slurp(vcd));
  const std::uint64_t period = std::uint64_t(std::llround(1e15 / 700e6));  // core: 700 MHz
  std::uint64_t critical = 0, changes = 0;
  for (int s = 0; s < cores; ++s) {
    const auto& u = unit(j, s);
    const std::uint64_t end = u["relaxed_cycles"].get<std::uint64_t>() +
                              u["neutral_cycles"].get<std::uint64_t>() +
                              u["critical_cycles"].get<std::uint64_t>();
    EXPECT_EQ(end, j["total_cycles"].get<std::uint64_t>()) << s;
    // The waveform's steps, each band's time to the next change (the last to the end).
    std::uint64_t in[3] = {0, 0, 0};
    std::uint64_t at = 0, used = 0;
    const auto& steps = v.of.at("gpu.smx(" + std::to_string(s) + ").l1.mshr_entries");
    auto band = [](std::uint64_t n) { return n <= 21 ? 0 : n <= 42 ? 1 : 2; };
    for (const auto& [fs, value] : steps) {
      EXPECT_EQ(fs % period, 0u);
      in[band(used)] += fs / period - at;
      at = fs / period;
      used = value;
    }
    in[band(used)] += end - at;
    EXPECT_EQ(u["relaxed_cycles"].get<std::uint64_t>(), in[0]) << s;
    EXPECT_EQ(u["neutral_cycles"].get<std::uint64_t>(), in[1]) << s;
    EXPECT_EQ(u["critical_cycles"].get<std::uint64_t>(), in[2]) << s;
    critical += in[2] + in[1];
    // The candidate search: checked only while critical; what is irregular has an adopter
    // or not.
    const auto checks = u["candidate_checks"].get<std::uint64_t>();
    const auto irregular = u["irregular_entries"].get<std::uint64_t>();
    EXPECT_LE(irregular, checks) << s;
    EXPECT_EQ(
        u["offload_opportunities"].get<std::uint64_t>() + u["no_adopter"].get<std::uint64_t>(),
        irregular)
        << s;
    if (in[2] == 0) {
      EXPECT_EQ(checks, 0u) << s;
    }
    changes += u["state_changes"].get<std::uint64_t>();
    const auto& state = v.of.at("gpu.smx(" + std::to_string(s) + ").latoa.state");
    EXPECT_EQ(state.size(), 1 + u["state_changes"].get<std::uint64_t>()) << s;  // + dumpvars
    // Stalled only while resident; idle the rest of the run.
    EXPECT_LE(u["stall_cycles"].get<std::uint64_t>(), u["resident_cycles"].get<std::uint64_t>());
    EXPECT_EQ(u["idle_cycles"].get<double>() + u["resident_cycles"].get<double>(), double(end));
  }
  EXPECT_GT(critical, 0u) << "the check is vacuous: no core left the relaxed band";
  EXPECT_GT(changes, 0u);
}

TEST(latoa_unit, a_pointer_chase_stalls_and_a_dependent_fp32_chain_never_does) {
  const auto chase = run(trace("pchase", " -p iterations=512", "latoa_pchase"),
                         " --with " + mechanism, "latoa_pchase");
  const auto& c = unit(chase, 0);  // one thread: SMX 0's
  const double resident = c["resident_cycles"].get<double>();
  ASSERT_GT(resident, 1000);
  EXPECT_GT(c["stall_cycles"].get<double>(), 0.8 * resident);
  EXPECT_EQ(c["critical_cycles"].get<std::uint64_t>(), 0u);  // one entry at a time
  const auto chain =
      run(trace("fu_chain", " -p warps=4", "latoa_fu"), " --with " + mechanism, "latoa_fu");
  const auto& f = unit(chain, 0);
  EXPECT_GT(f["resident_cycles"].get<double>(), 1000);
  EXPECT_EQ(f["stall_cycles"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(f["relaxed_cycles"].get<std::uint64_t>(), chain["total_cycles"].get<std::uint64_t>());
}

TEST(latoa_unit, a_crossbar_or_half_a_candidate_search_is_refused_in_one_line) {
  const std::string dir = trace("vectoradd", "", "latoa_refuse");
  const auto xbar =
      run_command(gputlm_bin() + " run " + yaml + "fermi.yaml " + dir + " --with " + mechanism,
                  "latoa_refuse_xbar");
  EXPECT_EQ(xbar.status, 2);
  EXPECT_NE(xbar.err.find("mechanisms/latoa.yaml:"), std::string::npos) << xbar.err;
  EXPECT_NE(xbar.err.find("icnt.topology"), std::string::npos) << xbar.err;
  EXPECT_EQ(std::count(xbar.err.begin(), xbar.err.end(), '\n'), 1) << xbar.err;
  const std::string half = test_tmp("latoa_half.yaml");
  write_text(half,
             "gpu:\n  smx:\n    latoa: { type: latoa_unit }\n    bind+:\n"
             "      - events -> latoa.watch\n      - l1.events -> latoa.mshr\n"
             "      - latoa.l1 -> l1.mshr_state\n");
  const auto r = run_command(gputlm_bin() + " run " + mesh + " " + dir + " --with " + half,
                             "latoa_refuse_half");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("irregular: the candidate search needs both"), std::string::npos) << r.err;
}

TEST(latoa_unit, watching_changes_no_cycle) {
  const std::string dir = trace("stream", " -p footprint=1048576 -p passes=1", "latoa_watch");
  const auto with =
      run(dir, " --with " + mechanism + " --set smx.latoa.offload=false", "latoa_watch_on");
  const auto without = run(dir, "", "latoa_watch_off");
  EXPECT_EQ(with["total_cycles"], without["total_cycles"]);
  for (int s = 0; s < cores; ++s) {
    const std::string smx = "gpu.smx[" + std::to_string(s) + "]";
    EXPECT_EQ(with["blocks"][smx], without["blocks"][smx]) << smx;
  }
}

}  // namespace test_latoa_unit
