// Snooze in a whole GPU through `gputlm run` (the GTX480, bundled samples): every L1 and
// L2 controller switches off exactly when the hardware says it should, counted against
// events the run reports independently: an L1 is signalled once per kernel-end flush its
// SMX sent, an L2 bank once per moment the GPU had no kernel left (once per kernel of a
// sample whose kernels run one after another); each signal turns the array OFF, leaves it
// asleep (dirty data) or finds it OFF already. With always_on nothing of Snooze appears.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_snooze_run {

using namespace gputlm::testing;

namespace {
nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  auto r = run_command(gputlm_bin() + " run " + GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " +
                           GPUTLM_SOURCE_DIR "/traces/samples/" + trace + " --no-wall-clock " +
                           sets + " --stats-form=full --stats " + stats,
                       tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(slurp(stats));
}
}  // namespace

TEST(snooze_run, switch_offs_follow_kernel_ends_on_a_whole_gpu) {
  for (const char* trace : {"vectoradd", "bfs"}) {
    const auto j =
        run(trace,
            "--with " GPUTLM_SOURCE_DIR "/yaml/mechanisms/snooze-l1.yaml --with " GPUTLM_SOURCE_DIR
            "/yaml/mechanisms/snooze-l2.yaml",
            std::string("snooze_run_") + trace);
    const auto kernels = j["kernels"].size();
    ASSERT_GE(kernels, 1u);
    int l1s = 0, l2s = 0;
    for (const auto& [name, b] : j["blocks"].items()) {
      // A controller beside each cache (gpu.smx[i].l1.switch, gpu.l2[j].switch).
      if (name.size() < 7 || name.substr(name.size() - 7) != ".switch") continue;
      const std::string cache = name.substr(0, name.size() - 7);
      const double signals = b["off_signals"].get<double>();
      if (cache.size() > 3 && cache.substr(cache.size() - 3) == ".l1") {
        ++l1s;
        EXPECT_EQ(signals, j["blocks"][cache]["flushes"].get<double>()) << trace << " " << name;
      } else {
        ++l2s;
        EXPECT_EQ(signals, double(kernels)) << trace << " " << name;
      }
      // Bank granularity: each signal turns the bank OFF, leaves it asleep (dirty), or
      // finds it OFF already (untouched since the last one).
      EXPECT_LE(b["offs"].get<double>() + b["dirty_kept"].get<double>(), signals) << name;
      EXPECT_GE(b["offs"].get<double>() + b["dirty_kept"].get<double>(), 1) << name;
      // Every wake-up follows a Sleep or the OFF the array starts in or was switched to.
      EXPECT_LE(b["wakes"].get<double>(), b["sleeps"].get<double>() + b["offs"].get<double>() + 1)
          << name;
    }
    EXPECT_EQ(l1s, 15) << trace;
    EXPECT_EQ(l2s, 12) << trace;
  }
  const auto base = run("vectoradd", "", "snooze_run_always_on");
  for (const auto& [name, b] : base["blocks"].items())
    EXPECT_FALSE(name.find(".switch") != std::string::npos) << name;
}

TEST(snooze_run, the_waveform_shows_each_sleep_the_statistics_count) {
  // One L1 bank's mode as a waveform: every Sleep the statistics count appears as a value
  // change to 1 (written when the lookahead confirms it, 3 cycles into the idleness), and
  // the run's statistics are those of the same run without tracing.
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/";
  const std::string sets = "--with " GPUTLM_SOURCE_DIR "/yaml/mechanisms/snooze-l1.yaml ";
  const auto traced =
      run("bfs", sets + "--vcd " + dir + "snooze_mode.vcd --trace 'smx[0].l1.switch.mode*'",
          "snooze_traced");
  const auto plain = run("bfs", sets, "snooze_plain");
  const auto& l1 = traced["blocks"]["gpu.smx[0].l1"];
  EXPECT_EQ(l1, plain["blocks"]["gpu.smx[0].l1"]);
  EXPECT_EQ(traced["blocks"]["gpu.smx[0].l1.switch"], plain["blocks"]["gpu.smx[0].l1.switch"]);
  std::istringstream vcd(slurp(dir + "snooze_mode.vcd"));
  std::string line, code;
  int sleeps = 0, signals = 0;
  bool after_start = false;
  while (std::getline(vcd, line)) {
    if (line.rfind("$var", 0) == 0) {
      ++signals;
      std::istringstream v(line);
      std::string var, wire, width;
      v >> var >> wire >> width >> code;
    } else if (line.rfind("#", 0) == 0) {
      after_start = true;
    } else if (after_start && line == "b1 " + code) {
      ++sleeps;
    }
  }
  EXPECT_EQ(signals, 1);
  EXPECT_GT(sleeps, 0);
  EXPECT_EQ(sleeps, traced["blocks"]["gpu.smx[0].l1.switch"]["sleeps"].get<int>());
}

}  // namespace test_snooze_run
