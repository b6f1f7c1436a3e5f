// Each shipped platform elaborates into the published number of blocks. The expected
// counts are computed here from the vendors' published figures, not read from the YAML.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <systemc>

#include "models/control/workload.h"
#include "models/memory/dram_channel.h"
#include "traces/trace_reader.h"
#include "platforms/platform.h"

namespace test_elaboration {

using gputlm::platforms::platform;

namespace {

struct published {
  const char* file;
  std::size_t sms;
  std::size_t channels;
  std::size_t l2_banks;
  double peak_gbps;  // GB/s
};

void check(const published& g) {
  auto p = platform::load(std::string(GPUTLM_SOURCE_DIR) + "/" + g.file);
  auto counts = p->count_by_type();
  EXPECT_EQ(counts["smx"], g.sms);
  EXPECT_EQ(counts["l1_cache"], g.sms);
  EXPECT_EQ(counts["l2_cache"], g.l2_banks);
  EXPECT_EQ(counts["dram_channel"], g.channels);
  EXPECT_EQ(counts["crossbar"], 1u);
  EXPECT_EQ(counts["kmu"], 1u);
  EXPECT_EQ(counts["kernel_distributor"], 1u);
  EXPECT_EQ(counts["smx_scheduler"], 1u);
  // One network interface per SM and per L2 bank (docs/memory.md).
  EXPECT_EQ(counts["network_interface"], g.sms + g.l2_banks);
  // kmu->kd, scheduler->kd, kd doorbell->scheduler; per SM: TBCR, launch->KMU, LDST->L1,
  // L1->network interface, network interface->crossbar; per L2: crossbar->network interface,
  // network interface->L2, L2->DRAM
  EXPECT_EQ(p->bindings().size(), 3 + 5 * g.sms + 3 * g.l2_banks);

  // Hierarchical SystemC names.
  const std::string last_sm = "gpu.smx[" + std::to_string(g.sms - 1) + "]";
  EXPECT_NE(sc_core::sc_find_object((last_sm + ".l1").c_str()), nullptr);
  EXPECT_NE(p->find(last_sm), nullptr);

  double peak = 0;
  for (auto* c : p->components())
    if (auto* d = dynamic_cast<gputlm::memory::dram_channel*>(c)) peak += d->peak_bandwidth();
  EXPECT_NEAR(peak / 1e9, g.peak_gbps, g.peak_gbps * 1e-3);

  sc_core::sc_start();  // an empty workload runs to completion
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

}  // namespace

// GTX480: 15 SMs of GF100's 16; 384-bit GDDR5 = 6 x 64-bit controllers, each 2 sub-partitions;
// 768 KB L2 in 64 KB banks; 384/8 B x 3696 MT/s.
TEST(elaboration, fermi_gtx480) { check({"yaml/fermi.yaml", 15, 6, 768 / 64, 48 * 3.696}); }

// K20c: 13 SMX; 208 GB/s at 5.2 GT/s = 40 B = 10 x 32-bit channels; 1280 KB L2 in 64 KB banks.
TEST(elaboration, kepler_k20c) { check({"yaml/kepler.yaml", 13, 320 / 32, 1280 / 64, 208.0}); }

// TITAN X (Pascal): 3584 cores / 128 per SM; 384-bit GDDR5X = 12 x 32 bit; 3 MB L2 in 128 KB
// banks; 48 B x 10 GT/s.
TEST(elaboration, pascal_titanx) {
  check({"yaml/pascal.yaml", 3584 / 128, 384 / 32, 3072 / 128, 480.0});
}

// TITAN V: 5120 cores / 64 per SM; 3072-bit HBM2 = 24 x 128 bit; 4.5 MB L2 in 96 KB banks;
// 384 B x 1.7 GT/s.
TEST(elaboration, volta_titanv) {
  check({"yaml/volta.yaml", 5120 / 64, 3072 / 128, 4608 / 96, 652.8});
}

TEST(elaboration, per_instance_and_command_line_overrides) {
  auto p = platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml",
                          {"smx[3].l1.hit_latency=7cycles", "smx.max_tbs=4", "l2.count=12"});
  auto latency_of = [&](const std::string& path) {
    for (auto* prm : p->find(path)->params())
      if (prm->name() == "hit_latency") return prm->to_yaml();
    return std::string();
  };
  EXPECT_EQ(latency_of("gpu.smx[3].l1"), "7cycles");
  EXPECT_EQ(latency_of("gpu.smx[2].l1"), "35cycles");
  for (auto* prm : p->find("gpu.smx[14]")->params()) {
    if (prm->name() == "max_tbs") {
      EXPECT_EQ(prm->to_yaml(), "4");
    }
  }
}

// Per-instance clock domains (docs/platforms.md, "Clock domains"): `sm: {count: sms}` makes
// one domain per SMX, `clock: sm[i]` puts SMX i (and its children) in domain sm[i]; one
// domain's operating point changes at run time without touching the others, and its SMX's
// static energy drops with the voltage.
TEST(elaboration, per_instance_clock_domains) {
  const std::string file = std::string(GPUTLM_TEST_TMP) + "/per_instance_clocks.yaml";
  std::ofstream(file) << "base: " << GPUTLM_SOURCE_DIR << "/yaml/kepler.yaml\n"
                      << "clocks:\n  sm: { frequency: 706MHz, voltage: 1V, count: sms }\n"
                      << "gpu:\n  smx: { clock: \"sm[i]\" }\n";
  auto p = platform::load(file);
  ASSERT_EQ(p->clocks().size(), 4u + 13u);
  for (int s = 0; s < 13; ++s) {
    const std::string smx = "gpu.smx[" + std::to_string(s) + "]";
    EXPECT_EQ(p->find(smx)->clock().name(), "sm[" + std::to_string(s) + "]");
    EXPECT_EQ(&p->find(smx + ".l1")->clock(), &p->find(smx)->clock());
  }
  EXPECT_EQ(p->find("gpu.kmu")->clock().name(), "core");
  // At 1 us, SMX 1's domain drops to half frequency at 0.8 V.
  struct dvfs : sc_core::sc_module {
    SC_HAS_PROCESS(dvfs);
    gputlm::clock_domain& d;
    dvfs(sc_core::sc_module_name n, gputlm::clock_domain& dom) : sc_module(n), d(dom) {
      SC_THREAD(run);
    }
    void run() {
      wait(1, sc_core::SC_US);
      d.set_operating_point(353e6, 0.8);
    }
  } change("change", *p->clock("sm[1]"));
  gputlm::control::workload work(gputlm::traces::open_trace(
      std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/histogram", {}));
  work.open_all();
  p->set_workload(&work);
  sc_core::sc_start();
  for (const auto& k : work.kernels()) EXPECT_TRUE(k.finished);
  EXPECT_DOUBLE_EQ(p->find("gpu.smx[1]")->clock().frequency(), 353e6);
  EXPECT_DOUBLE_EQ(p->find("gpu.smx[0]")->clock().frequency(), 706e6);
  EXPECT_DOUBLE_EQ(p->find("gpu.smx[1].l1")->clock().voltage(), 0.8);
  const auto stats = nlohmann::json::parse(p->stats().to_json());
  const double e0 = stats["blocks"]["gpu.smx[0]"]["power.static_joules"].get<double>();
  const double e1 = stats["blocks"]["gpu.smx[1]"]["power.static_joules"].get<double>();
  EXPECT_LT(e1, e0);  // the same components, 0.8 V for most of the run
  EXPECT_GT(e1, 0.8 * e0 * 0.99);
}

}  // namespace test_elaboration
