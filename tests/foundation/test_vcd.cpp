// The VCD writer records a traced value's changes at the exact simulated times, and a
// small reader in the test recovers the same sequence.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <systemc>

#include "models/common/vcd_writer.h"
#include "tests/common/run_command.h"

using gputlm::traced_value;
using gputlm::vcd_writer;

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
