// Slumber and WRF in a whole GPU through `gputlm run` (the GTX480, bundled samples): the
// control unit's own count of register-cycles in SS and DS agrees with the residency the
// register file's power component accumulated from the state changes (two accounts of the
// same time); WRF never uses SS; the register file's leakage falls below always-on's; the
// waveform's register counts add up to the file's 1024 registers at every change; the
// unit's own logic leaks its table's watts all run; with always_on nothing of Slumber
// appears.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_slumber_run {

using namespace gputlm::testing;

namespace {
nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  auto r = run_command(gputlm_bin() + " run " + GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " +
                           GPUTLM_SOURCE_DIR "/traces/samples/" + trace +
                           " --no-wall-clock --no-tb-log " + sets + " --stats-form=full --stats " +
                           stats,
                       tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(slurp(stats));
}

double rf_static(const nlohmann::json& j) {
  double sum = 0;
  for (const auto& [name, b] : j["blocks"].items())
    if (b.contains("power.register_file.static_joules"))
      sum += b["power.register_file.static_joules"].get<double>();
  return sum;
}
}  // namespace

TEST(slumber_run, the_unit_and_the_power_component_account_the_same_sleep) {
  for (const char* trace : {"vectoradd", "sgemm_tiled"}) {
    const auto base = run(trace, "", std::string("slumber_base_") + trace);
    for (const char* policy : {"slumber", "wrf"}) {
      const auto j = run(trace,
                         "--with " GPUTLM_SOURCE_DIR
                         "/yaml/mechanisms/slumber.yaml "
                         "--set smx.slumber.rule=" +
                             std::string(policy),
                         std::string("slumber_run_") + policy + "_" + trace);
      int smxs = 0;
      for (const auto& [unit_name, u] : j["blocks"].items()) {
        // The unit beside each SMX (gpu.smx[i].slumber); the SMX's register file.
        if (unit_name.size() < 8 || unit_name.substr(unit_name.size() - 8) != ".slumber") continue;
        const std::string name = unit_name.substr(0, unit_name.size() - 8);
        const auto& b = j["blocks"][name];
        ++smxs;
        const double ss = u["idle_ss_cycles"].get<double>();
        const double ds = u["idle_ds_cycles"].get<double>();
        const double res_ss = b["power.register_file.residency.shallow_sleep"].get<double>();
        const double res_ds = b["power.register_file.residency.deep_sleep"].get<double>();
        if (ss + ds > 0) {
          EXPECT_NEAR(ss / (ss + ds), res_ss / (res_ss + res_ds), 1e-9) << policy << name;
        }
        double total = 0;
        for (const char* s : {"on", "shallow_sleep", "deep_sleep", "off"})
          total += b["power.register_file.residency." + std::string(s)].get<double>();
        EXPECT_NEAR(total, 1.0, 1e-9) << name;
        if (std::string(policy) == "wrf") {
          EXPECT_EQ(ss, 0) << name;
        }
        EXPECT_LE(u["idle_periods_over_16"].get<double>(), u["idle_periods"].get<double>());
        // The unit's own logic leaks 5.939 mW all run long (yaml/mechanisms/slumber.yaml).
        EXPECT_NEAR(u["power.logic.static_joules"].get<double>(),
                    5.939e-3 * j["simulated_seconds"].get<double>(), 1e-15)
            << name;
      }
      EXPECT_EQ(smxs, 15) << policy;
      EXPECT_LT(rf_static(j), rf_static(base)) << policy << " " << trace;
    }
    for (const auto& [name, b] : base["blocks"].items())
      EXPECT_EQ(name.find(".slumber"), std::string::npos) << name;
  }
}

TEST(slumber_run, the_waveform_counts_every_register_once) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/";
  run("vectoradd",
      "--with " GPUTLM_SOURCE_DIR "/yaml/mechanisms/slumber.yaml --vcd " + dir +
          "slumber.vcd --trace 'smx[0].slumber.*'",
      "slumber_traced");
  std::istringstream vcd(slurp(dir + "slumber.vcd"));
  std::string line;
  std::map<std::string, long> value;  // by identifier code
  int signals = 0, changes = 0;
  bool dumping = false;
  while (std::getline(vcd, line)) {
    if (line.rfind("$var", 0) == 0) {
      std::istringstream v(line);
      std::string var, wire, width, code;
      v >> var >> wire >> width >> code;
      value[code] = 0;
      ++signals;
    } else if (line.rfind("#", 0) == 0) {
      if (dumping) {
        long sum = 0;
        for (const auto& [c, x] : value) sum += x;
        EXPECT_EQ(sum, 1024) << line;
        ++changes;
      }
      dumping = true;
    } else if (dumping && line.size() > 2 && line[0] == 'b') {
      const auto sp = line.find(' ');
      value[line.substr(sp + 1)] = std::stol(line.substr(1, sp - 1), nullptr, 2);
    }
  }
  EXPECT_EQ(signals, 4);
  EXPECT_GT(changes, 10);
}

// A Slumber control unit placed where no SMX hands it a register file (under the L1, its
// export never bound) would gate nothing: one line at its YAML, exit 2.
TEST(slumber_run, a_control_unit_that_acts_on_nothing_is_an_input_error) {
  const std::string mech = std::string(GPUTLM_TEST_TMP) + "/slumber_misplaced.yaml";
  write_text(mech,
             "gpu:\n"
             "  smx:\n"
             "    l1:\n"
             "      slumber: { type: slumber_control_unit }\n");
  const auto r = run_command(
      gputlm_bin() + " elaborate " + GPUTLM_SOURCE_DIR "/yaml/fermi.yaml" + " -q --with " + mech,
      "slumber_misplaced");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "error: " + mech +
                       ":4:7: gpu.smx[0].l1.slumber: acts on no register file: bind an SMX's "
                       "port to it (registers -> slumber.registers)\n");
}

}  // namespace test_slumber_run
