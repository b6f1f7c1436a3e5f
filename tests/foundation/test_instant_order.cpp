// The order of the blocks within an instant is the platform's, not the history of their
// wake-up requests (models/common/edge_scheduler.h). A zero-latency network interface is
// transparent: placing the memory-side or the core-side network interfaces in another clock
// domain of the same frequency changes which calendar holds them, and with it when they
// would run within an instant, but must not change any statistic (cycles, stalls, queue
// occupancies, energy). Only the blocks' host-side `activations` counters may differ.
// Before the fixed order, Fermi histogram moved from 4,108 to 3,597 cycles this way.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/run_command.h"

namespace test_instant_order {

using namespace gputlm::testing;

namespace {

// The statistics without the host-side activation counters.
nlohmann::json strip(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "activations") out[it.key()] = strip(it.value());
    return out;
  }
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(strip(v));
    return out;
  }
  return j;
}

nlohmann::json run(const std::string& platform, const std::string& trace, const std::string& set,
                   const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  auto r =
      run_command(std::string(GPUTLM_BIN) + " run " + GPUTLM_SOURCE_DIR + "/yaml/" + platform +
                      ".yaml " + GPUTLM_SOURCE_DIR + "/traces/samples/" + trace +
                      " --no-wall-clock --no-tb-log " + set + " --stats-form=full --stats " + stats,
                  tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return strip(nlohmann::json::parse(slurp(stats)));
}

void expect_same_whatever_the_iu_domain(const std::string& platform, const std::string& trace) {
  const std::string tag = "order_" + platform + "_" + trace;
  const nlohmann::json base = run(platform, trace, "", tag + "_base");
  const nlohmann::json mem = run(platform, trace, "--set l2_ni.clock=icnt", tag + "_mem");
  const nlohmann::json core = run(platform, trace, "--set smx.ni.clock=icnt", tag + "_core");
  ASSERT_GT(base.at("total_cycles").get<double>(), 0.0);
  EXPECT_EQ(base.at("total_cycles"), mem.at("total_cycles"));
  EXPECT_EQ(base.at("total_cycles"), core.at("total_cycles"));
  EXPECT_TRUE(base == mem) << "memory-side network interfaces in the icnt domain";
  EXPECT_TRUE(base == core) << "core-side network interfaces in the icnt domain";
}

}  // namespace

// Atomics contend at the L2: the workload that moved most.
TEST(instant_order, fermi_histogram) { expect_same_whatever_the_iu_domain("fermi", "histogram"); }
TEST(instant_order, volta_histogram) { expect_same_whatever_the_iu_domain("volta", "histogram"); }
// A mesh, and L2 input queues of 8 that fill.
TEST(instant_order, latoa_spmv) { expect_same_whatever_the_iu_domain("latoa", "spmv"); }

// Running instants ahead of the SystemC kernel (the default of `gputlm run`) or returning
// to it after every instant (--kernel-every-instant) gives byte-identical statistics, the
// blocks' activation counts included, and the same waveforms. Multi-kernel traces bring
// the KMU's thread and the SMX scheduler's method (SystemC processes) into the run.
namespace {
void expect_same_with_the_kernel_every_instant(const std::string& platform,
                                               const std::string& trace) {
  std::string tag = "ahead_" + platform + "_" + trace;
  std::replace(tag.begin(), tag.end(), '/', '_');
  const std::string base = std::string(GPUTLM_TEST_TMP) + "/" + tag;
  auto one = [&](const std::string& mode, const std::string& name) {
    // (A platform given with its folder is a file of the source tree.)
    const std::string yaml =
        platform.find('/') != std::string::npos ? platform + ".yaml" : "yaml/" + platform + ".yaml";
    auto r = run_command(std::string(GPUTLM_BIN) + " run " + GPUTLM_SOURCE_DIR + "/" + yaml + " " +
                             GPUTLM_SOURCE_DIR + "/traces/samples/" + trace + " --no-wall-clock " +
                             mode + " --stats-form=full --stats " + base + name + ".json --vcd " +
                             base + name + ".vcd",
                         tag + name);
    EXPECT_EQ(r.status, 0) << r.err;
  };
  one("", "_ahead");
  one("--kernel-every-instant", "_lockstep");
  const std::string a = slurp(base + "_ahead.json"), l = slurp(base + "_lockstep.json");
  ASSERT_FALSE(a.empty());
  EXPECT_GT(nlohmann::json::parse(a).at("total_cycles").get<double>(), 0.0);
  EXPECT_TRUE(a == l) << "statistics differ";
  const std::string va = slurp(base + "_ahead.vcd"), vl = slurp(base + "_lockstep.vcd");
  ASSERT_FALSE(va.empty());
  EXPECT_TRUE(va == vl) << "waveforms differ";
}
}  // namespace

TEST(instant_order, run_ahead_fermi) {
  for (const char* t : {"bfs", "bfs_cdp", "histogram"})
    expect_same_with_the_kernel_every_instant("fermi", t);
}
TEST(instant_order, run_ahead_kepler) {
  for (const char* t : {"bfs", "bfs_cdp", "spmv"})
    expect_same_with_the_kernel_every_instant("kepler", t);
}
TEST(instant_order, run_ahead_pascal) {
  for (const char* t : {"bfs_cdp", "reduction"})
    expect_same_with_the_kernel_every_instant("pascal", t);
}
TEST(instant_order, run_ahead_volta) {
  for (const char* t : {"bfs", "bfs_cdp", "sgemm_tiled"})
    expect_same_with_the_kernel_every_instant("volta", t);
}
TEST(instant_order, run_ahead_latoa) { expect_same_with_the_kernel_every_instant("latoa", "spmv"); }
// The SPU: links, syncs and interface units.
TEST(instant_order, run_ahead_spu) {
  for (const char* t : {"spu_stencil", "bfs"}) expect_same_with_the_kernel_every_instant("spu", t);
}
// Volta SMXs on a fixed-latency memory whose responses come from a SystemC PEQ: every
// response is a kernel activity the dispatcher must hand back for.
TEST(instant_order, run_ahead_fixed_latency_memory) {
  for (const char* t : {"vectoradd", "histogram", "bfs_cdp"})
    expect_same_with_the_kernel_every_instant("tests/data/volta_ideal", t);
}

}  // namespace test_instant_order
