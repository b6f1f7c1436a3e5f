// scripts/weighted-speedup.py, which writes the docs' weighted-speedup tables from a
// multi-programmed experiment's results.csv (docs/uc-states.md, "The heterogeneous chip"):
// on a results.csv written here by hand (applications x and y alone, mixes x+y and y+x
// under two configurations), WS = sum of IPC_i / IPC_i,alone per mix and its geomean as
// worked out below; the rest of the page unchanged byte for byte; --check exits 0 on a
// written page and 1 once a value changes; bad input is one line naming file:line, exit
// status 2 and the page unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/common/run_command.h"

namespace test_weighted_speedup {

using namespace gputlm::testing;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

std::string weighted_speedup(const std::string& args) {
  return python3() + " " + k_src + "/scripts/weighted-speedup.py " + args;
}

// x alone: IPC 2; y alone: IPC 4. Under base, x+y: streams 1 and 2 -> 1/2 + 2/4 = 1;
// y+x: 2 and 1 -> 2/4 + 1/2 = 1. Under het, x+y: 1.5 and 3 -> 0.75 + 0.75 = 1.5; y+x:
// `het_yx_memory` and 0.5 -> (3: 0.75 + 0.25 = 1). Geomeans: base 1, het sqrt(1.5 * 1) =
// 1.225. (c_half ran x alone only: not a column, not read.)
std::string results_csv(const std::string& het_yx_memory = "3") {
  return "platform,configuration,workload,repetition,status,reused,seconds,ipc,ipc.vs_baseline,"
         "ipc_memory,ipc_compute,stats,error\n"
         "big,base,x,0,ok,no,1.000,2,1,,,points/a/stats.json,\n"
         "big,base,y,0,ok,no,1.000,4,1,,,points/b/stats.json,\n"
         "big,base,x+y,0,ok,no,1.000,3,1,1,2,points/c/stats.json,\n"
         "big,base,y+x,0,ok,no,1.000,3,1,2,1,points/d/stats.json,\n"
         "big,c_half,x,0,ok,no,1.000,1,0.5,,,points/e/stats.json,\n"
         "big,het,x+y,0,ok,no,1.000,4.5,1.5,1.5,3,points/f/stats.json,\n"
         "big,het,y+x,0,ok,no,1.000,3.5,1.1,"
         + het_yx_memory + ",0.5,points/g/stats.json,\n";
}

const std::string k_before = "# Page\n\nText before.\n\n";
const std::string k_marker =
    "<!-- weighted-speedup: experiment=mixes alone=base streams=ipc_memory,ipc_compute\n"
    "     columns: base \"shared\"; het \"8 + 8\" -->\n";
const std::string k_after = "<!-- end weighted-speedup -->\n\nText after.\n";
const std::string k_table =
    "\n"
    "| mix | shared | 8 + 8 |\n"
    "|---|---:|---:|\n"
    "| x+y | 1.000 | 1.500 |\n"
    "| y+x | 1.000 | 1.000 |\n"
    "| **geomean** | 1.000 | 1.225 |\n"
    "\n";

std::string page(const std::string& table, const std::string& marker = k_marker) {
  return k_before + marker + table + k_after;
}

struct fixture {
  std::string root, doc;
};

fixture make(const std::string& name, const std::string& text = page("| old |\n")) {
  const std::string dir = fresh_dir(name);
  fixture f{dir + "/results", dir + "/page.md"};
  std::filesystem::create_directories(f.root + "/mixes");
  write_text(f.root + "/mixes/results.csv", results_csv());
  write_text(f.doc, text);
  return f;
}

}  // namespace

TEST(weighted_speedup, writes_the_table_and_keeps_the_rest_byte_for_byte) {
  const fixture f = make("ws_write");
  auto r = run_command(weighted_speedup("--results-root " + f.root + " " + f.doc), "ws_w1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(f.doc), page(k_table));
  r = run_command(weighted_speedup("--check --results-root " + f.root + " " + f.doc), "ws_w2");
  EXPECT_EQ(r.status, 0) << r.out << r.err;

  // het's y+x stream 0 at IPC 1: 0.25 + 0.25 = 0.5, geomean sqrt(1.5 * 0.5) = 0.866.
  write_text(f.root + "/mixes/results.csv", results_csv("1"));
  r = run_command(weighted_speedup("--check --results-root " + f.root + " " + f.doc), "ws_w3");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(slurp(f.doc), page(k_table));
  r = run_command(weighted_speedup("--results-root " + f.root + " " + f.doc), "ws_w4");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string t = k_table;
  t.replace(t.find("| 1.000 |\n| **geomean**"), 9, "| 0.500 |");
  t.replace(t.find("1.225"), 5, "0.866");
  EXPECT_EQ(slurp(f.doc), page(t));
}

TEST(weighted_speedup, bad_input_is_one_line_exit_2_and_the_page_unchanged) {
  struct bad_case {
    std::string name, from, to, expected;
  };
  const std::vector<bad_case> cases = {
      {"no_streams", "streams=ipc_memory,ipc_compute", "", "5: the marker has no streams="},
      {"metric", "ipc_compute", "ipc_comp", "5: experiment mixes has no metric ipc_comp"},
      {"configuration", "het \"8", "hat \"8", "5: experiment mixes has no configuration hat"},
      {"not_run", "het \"8", "c_half \"8", "5: no result for x+y under c_half"},
      {"experiment", "experiment=mixes", "experiment=none", "5: no results file"},
  };
  for (const auto& c : cases) {
    std::string marker = k_marker;
    marker.replace(marker.find(c.from), c.from.size(), c.to);
    const fixture f = make("ws_bad_" + c.name, page("| old |\n", marker));
    for (const char* mode : {"", "--check "}) {
      auto r = run_command(weighted_speedup(mode + ("--results-root " + f.root + " " + f.doc)),
                           "ws_bad");
      EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
      EXPECT_EQ(r.err.rfind("error: " + f.doc + ":" + c.expected, 0), 0u) << c.name << ": " << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << c.name << ": " << r.err;
      EXPECT_EQ(slurp(f.doc), page("| old |\n", marker)) << c.name;
    }
  }
}

}  // namespace test_weighted_speedup
