// The VCD writer records a traced value's changes at the exact simulated times, and a
// small reader in the test recovers the same sequence. The blocks' signals follow known
// event sequences: a DRAM channel's open rows, bytes and data-bus activity for a hand-built
// request sequence (times computed from the timing parameters), and a Kernel Distributor
// entry's TB counts against a run's TB log. The GTKWave layout zooms to the whole window.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <systemc>

#include "models/common/vcd_writer.h"
#include "models/memory/dram_channel.h"
#include "tests/common/run_command.h"
#include "tests/common/vcd_read.h"
#include "tests/memory/mem_testbench.h"

namespace test_vcd {

using gputlm::traced_value;
using gputlm::vcd_writer;

using gputlm::testing::vcd_file;

namespace {
struct driver : sc_core::sc_module {
  traced_value depth;
  SC_HAS_PROCESS(driver);
  explicit driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    wait(5, sc_core::SC_NS);
    depth.set(3);
    depth.set(3);  // no change, nothing written
    wait(2, sc_core::SC_NS);
    depth.set(1);
    depth.set(6);  // two changes at one time: the last one wins in the reader
    wait(1, sc_core::SC_NS);
  }
};

// Minimal reader: {time in fs -> value} for one identifier code.
std::map<std::uint64_t, std::uint64_t> read_changes(const std::string& text, const std::string& code) {
  std::map<std::uint64_t, std::uint64_t> out;
  std::istringstream in(text);
  std::string line;
  std::uint64_t now = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      now = std::stoull(line.substr(1));
    } else if (line[0] == 'b') {
      auto sp = line.find(' ');
      if (line.substr(sp + 1) == code) out[now] = std::stoull(line.substr(1, sp - 1), nullptr, 2);
    }
  }
  return out;
}

gputlm::test::tg_request read_at(std::uint64_t addr, std::uint64_t cycle, unsigned len) {
  gputlm::test::tg_request r;
  r.addr = addr;
  r.length = len;
  r.kind = gputlm::access_kind::fill;
  r.not_before = cycle;
  return r;
}
}  // namespace

TEST(vcd, changes_at_exact_times) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  const std::string path = std::string(GPUTLM_TEST_TMP) + "/changes.vcd";
  std::filesystem::remove(path);
  driver d("d");
  {
    vcd_writer w(path);
    d.depth.trace(w, "top.queue", "depth", 8);
    sc_core::sc_start();
    EXPECT_FALSE(std::filesystem::exists(path));  // only PATH.partial until finish()
    w.finish();
  }
  std::string text = gputlm::testing::slurp(path);
  EXPECT_NE(text.find("$scope module top $end\n$scope module queue $end\n$var wire 8 ! depth $end"),
            std::string::npos)
      << text;
  auto changes = read_changes(text, "!");
  std::map<std::uint64_t, std::uint64_t> expected{{0, 0}, {5'000'000, 3}, {7'000'000, 6}};
  EXPECT_EQ(changes, expected);
}

TEST(vcd, dram_open_rows_bytes_and_data_bus_follow_the_commands) {
  // One channel at 1 GHz (one cycle = 1e6 fs) with the GTX480 address map (row from bit 16,
  // bank 0 for 0x0 and 0x10000) and these timings: tRCD 10, CL 7, tRP 9, tRAS 20, tRC 30,
  // tCCD 2, BL 8 at QDR = 2 bus cycles per column access of 2 chips x 4 B x 8 = 64 B.
  //   A: 128 B read of row 0 at cycle 10: ACT 10; RD 20 (data 27-29), RD 22 (data 29-31).
  //   B: 64 B read of row 1 at cycle 100: PRE 100 (tRAS and read-to-precharge long past);
  //      ACT 109 (tRP); RD 119 (tRCD), data 126-128.
  using namespace gputlm;
  using namespace gputlm::test;
  block_env env;
  yaml_block y = read_yaml_block(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", "dram");
  y.values["bound:l2"] = std::to_string(y.vars.at("sub_partitions"));
  y.values["channels"] = "1";
  const std::map<std::string, std::string> timing{
      {"tRCD", "10cycles"}, {"CL", "7cycles"},     {"tRP", "9cycles"},      {"tRAS", "20cycles"},
      {"tRC", "30cycles"},  {"tCCD", "2cycles"},   {"tCCDL", "0cycles"},    {"tRTPL", "0cycles"},
      {"tRRD", "6cycles"},  {"burst_length", "8"}, {"data_rate", "4"},      {"chips", "2"},
      {"bus_width", "4B"},  {"dual_bus", "false"}, {"scheduler", "fr_fcfs"},
      {"sector_atoms", "false"}};  // a request's bytes on whole atoms (128 B: two)
  for (const auto& [k, v] : timing) y.values[k] = v;
  clock_domain& clk = env.clock("dram", 1e9);
  auto ch = env.make<memory::dram_channel>("dram", clk, y.values, "dram_channel");
  traffic_generator tg("tg", clk, {read_at(0x0, 10, 128), read_at(0x10000, 100, 64)});
  traffic_generator idle("idle", clk, {});
  tg.socket.bind(*ch->l2[0]);
  idle.socket.bind(*ch->l2[1]);

  const std::string path = std::string(GPUTLM_TEST_TMP) + "/dram_waves.vcd";
  vcd_writer::options o;
  o.patterns = {"dram.bank[0].*", "dram.bank[1].open_row", "dram.bytes", "dram.data_bus"};
  vcd_writer w(path, o);
  ch->add_traces(w);
  EXPECT_EQ(w.signal_count(), 4u);  // queue and busy not selected
  sc_core::sc_start();
  w.finish();
  ASSERT_EQ(tg.completed, 2u);
  EXPECT_EQ(tg.records[0].responded, 31u);  // the timeline above, from the channel's side
  EXPECT_EQ(tg.records[1].responded, 128u);

  const std::string text = gputlm::testing::slurp(path);
  // A dotted signal name nests: bank[0].open_row is open_row in scope dram.bank(0).
  EXPECT_NE(text.find("$scope module dram $end\n"), std::string::npos) << text;
  EXPECT_NE(text.find("$scope module bank(0) $end\n$var wire 32 # open_row $end\n$upscope $end"),
            std::string::npos)
      << text;
  const vcd_file v(text);
  const std::uint64_t ns = 1'000'000, closed = 0xffffffffu;
  using changes = std::map<std::uint64_t, std::uint64_t>;
  EXPECT_EQ(v.changes.at("dram.bank(0).open_row"),
            (changes{{0, closed}, {10 * ns, 0}, {100 * ns, closed}, {109 * ns, 1}}));
  EXPECT_EQ(v.changes.at("dram.bank(1).open_row"), (changes{{0, closed}}));
  EXPECT_EQ(v.changes.at("dram.bytes"),
            (changes{{0, 0}, {29 * ns, 64}, {31 * ns, 128}, {128 * ns, 192}}));
  EXPECT_EQ(v.changes.at("dram.data_bus"),
            (changes{{0, 0}, {27 * ns, 1}, {31 * ns, 0}, {126 * ns, 1}, {128 * ns, 0}}));
  EXPECT_EQ(ch->stats_view().bytes.value(), 192u);  // the signal ends at the statistic

  // The GTKWave layout keeps the bank signals in the channel's group and zooms so that the
  // whole run [0, 128 ns] fills the wave pane: 2^-zoom fs per 200-pixel frame.
  const std::string gtkw =
      gputlm::testing::slurp(std::string(GPUTLM_TEST_TMP) + "/dram_waves.gtkw");
  EXPECT_NE(gtkw.find("@800200\n-dram\n"), std::string::npos) << gtkw;
  EXPECT_EQ(gtkw.find("-dram.bank"), std::string::npos) << gtkw;
  EXPECT_NE(gtkw.find("@22\n+{bank(0):open_row} dram.bank(0).open_row[31:0]\n"), std::string::npos);
  EXPECT_NE(gtkw.find("@8024\ndram.bytes[47:0]\n"), std::string::npos);
  const std::size_t star = gtkw.find("\n*");
  ASSERT_NE(star, std::string::npos);
  const double zoom = std::stod(gtkw.substr(star + 2));
  const double shown_fs = std::pow(2.0, -zoom) / 200.0 * vcd_writer::gtkw_wave_width;
  EXPECT_NEAR(shown_fs, 128.0 * ns, 0.001 * ns);
}

TEST(vcd, tb_counts_per_kernel_and_kd_entry_follow_the_tb_log) {
  // The histogram sample (16 TBs) on the TITAN V: one kernel, in KDE 0. tbs_dispatched
  // (of the KDE and of the kernel) steps up at each TB's start cycle and tbs_finished at
  // each end cycle of the TB log; kde[0].kernel holds kernel 0 until the last TB ends, then
  // all ones (free).
  const std::string tmp = std::string(GPUTLM_TEST_TMP);
  const std::string vcd = tmp + "/kde_waves.vcd", stats = tmp + "/kde_waves.json";
  const std::string plain = tmp + "/kde_plain.json";
  const std::string base = gputlm::testing::gputlm_bin() + " run " + GPUTLM_SOURCE_DIR +
                           "/yaml/volta.yaml " + GPUTLM_SOURCE_DIR +
                           "/traces/samples/histogram --no-wall-clock"
                           " --set smx_scheduler.tb_launch_latency=0cycles";
  auto r =
      gputlm::testing::run_command(base + " --stats-form=full --stats " + stats + " --vcd " + vcd +
                                       " --trace 'kd.kde[0].*' --trace 'smx_scheduler.kernel[0].*'",
                                   "kde_waves");
  ASSERT_EQ(r.status, 0) << r.err;
  auto r2 = gputlm::testing::run_command(base + " --stats-form=full --stats " + plain, "kde_plain");
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(gputlm::testing::slurp(stats),
            gputlm::testing::slurp(plain));  // tracing changes nothing

  const auto j = nlohmann::json::parse(gputlm::testing::slurp(stats));
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& log = j["kernels"][0]["tb_log"];
  ASSERT_EQ(log.size(), 16u);
  const std::uint64_t period_fs = 833'333;              // 1200 MHz core clock, rounded to 1 fs
  std::map<std::uint64_t, std::uint64_t> starts, ends;  // cycle -> TBs at that cycle
  for (const auto& tb : log) {
    ++starts[tb[2].get<std::uint64_t>()];
    ++ends[tb[3].get<std::uint64_t>()];
  }
  std::map<std::uint64_t, std::uint64_t> dispatched{{0, 0}}, finished{{0, 0}};
  std::uint64_t n = 0;
  for (const auto& [c, k] : starts) dispatched[c * period_fs] = n += k;
  n = 0;
  for (const auto& [c, k] : ends) finished[c * period_fs] = n += k;

  const vcd_file v(gputlm::testing::slurp(vcd));
  EXPECT_EQ(v.changes.size(), 5u);  // only KDE 0's and kernel 0's signals were selected
  EXPECT_EQ(v.changes.at("gpu.kd.kde(0).tbs_dispatched"), dispatched);
  EXPECT_EQ(v.changes.at("gpu.kd.kde(0).tbs_finished"), finished);
  EXPECT_EQ(v.changes.at("gpu.smx_scheduler.kernel(0).tbs_dispatched"), dispatched);
  EXPECT_EQ(v.changes.at("gpu.smx_scheduler.kernel(0).tbs_finished"), finished);
  // kde[0].kernel: free (all ones) at 0 unless the kernel took the entry at time 0, kernel 0
  // from its allocation (no later than the first dispatch), free again at the last TB's end.
  auto kernel = v.changes.at("gpu.kd.kde(0).kernel");
  const std::uint64_t free = 0xffffffffu, last_end = ends.rbegin()->first * period_fs;
  if (kernel.size() == 3) {
    EXPECT_EQ(kernel.begin()->first, 0u);
    EXPECT_EQ(kernel.begin()->second, free);
    kernel.erase(kernel.begin());
  }
  ASSERT_EQ(kernel.size(), 2u);
  EXPECT_EQ(kernel.begin()->second, 0u);
  EXPECT_LE(kernel.begin()->first, starts.begin()->first * period_fs);
  EXPECT_EQ(kernel.rbegin()->first, last_end);
  EXPECT_EQ(kernel.rbegin()->second, free);
}

}  // namespace test_vcd
