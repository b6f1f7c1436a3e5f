// bench/fidelity/fidelity-tables.py, which writes docs/fidelity.md's validation-set tables
// from bench/fidelity/results/*.csv: on results written here by hand (three cases on two
// platforms), the summary and per-case tables are exactly the ones computed by hand below and
// the rest of the page is unchanged; --check exits 0 on the written page and 1 once a result
// changes; a bad marker is one line naming file:line, exit status 2, the page unchanged; and
// the shipped docs/fidelity.md agrees with the shipped results.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/common/run_command.h"

namespace test_fidelity_tables {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

std::string tables(const std::string& args) {
  return python3() + " " + k_src + "/bench/fidelity/fidelity-tables.py " + args;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

const char* k_results =
    "platform,case,cycles_ours,cycles_peer,ratio,l1_ours,l1_peer,l2_ours,l2_peer,"
    "dram_mb_ours,dram_mb_peer\n"
    "titanv,a,90,100,0.9000,50.0,50.5,,,1.0,1.0\n"
    "titanv,b,150,100,1.5000,,,80.0,70.0,2.0,1.0\n"
    "gtx480,c,80,100,0.8000,10,10,20,20,0.5,0.49\n";

const char* k_page =
    "# Page\n\ntext before\n\n"
    "<!-- fidelity: summary results=tiny \"shipped\" -->\nold\n<!-- end fidelity -->\n\n"
    "between\n\n"
    "<!-- fidelity: cases results=tiny platform=titanv -->\n<!-- end fidelity -->\n\nafter\n";

// By hand. TITAN V: ratios 0.9 and 1.5: MAE (0.1 + 0.5) / 2 = 30.0 %; 0.9 is within
// 0.9-1.1 and 0.8-1.25, 1.5 in neither; one faster, one slower; worst 1.5 (0.9 is 1/1.11);
// L1 only on a, 0.5 apart; L2 only on b, 10 apart; DRAM a equal, b twice. GTX480: 0.8: MAE
// 20.0 %, outside 0.9-1.1, inside 0.8-1.25 (inclusive); hit rates equal; DRAM 0.5 / 0.49 =
// 1.02. All three: MAE (0.1 + 0.5 + 0.2) / 3 = 26.7 %.
const char* k_expected =
    "# Page\n\ntext before\n\n"
    "<!-- fidelity: summary results=tiny \"shipped\" -->\n"
    "| configuration | platform | MAE of cycles | within 0.9–1.1 | within 0.8–1.25 | faster / "
    "slower | worst | L1 hit ±1 pt | L2 hit ±1 pt | DRAM MB ±5 % |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    "| shipped | TITAN V | 30.0 % | 1 / 2 | 1 / 2 | 1 / 1 | 1.50 | 1 / 1 | 0 / 1 | 1 / 2 |\n"
    "| shipped | GTX480 | 20.0 % | 0 / 1 | 1 / 1 | 1 / 0 | 0.80 | 1 / 1 | 1 / 1 | 1 / 1 |\n"
    "| shipped | all | 26.7 % | 1 / 3 | 2 / 3 | 2 / 1 | 1.50 | 2 / 2 | 1 / 2 | 2 / 3 |\n"
    "<!-- end fidelity -->\n\n"
    "between\n\n"
    "<!-- fidelity: cases results=tiny platform=titanv -->\n"
    "| case | cycles | Accel-Sim | ratio | L1 load hit % | L2 load hit % | DRAM MB |\n"
    "|---|---:|---:|---:|---|---|---|\n"
    "| a | 90 | 100 | 0.90 | 50.0 / 50.5 | — / — | 1.000 / 1.000 |\n"
    "| b | 150 | 100 | 1.50 | — / — | 80.0 / 70.0 | 2.000 / 1.000 |\n"
    "\n"
    "(ours / Accel-Sim's; hit rates per 32-byte sector on both sides where the cache is "
    "sectored, — where no load reached it)\n"
    "<!-- end fidelity -->\n\nafter\n";

}  // namespace

TEST(fidelity_tables, hand_results_give_hand_tables_and_check_follows_them) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/fidelity_tables";
  fs::remove_all(dir);
  fs::create_directories(dir + "/results");
  write(dir + "/results/tiny.csv", k_results);
  const std::string page = dir + "/page.md";
  write(page, k_page);
  const std::string args = "--results " + dir + "/results " + page;

  auto r = run_command(tables(args), "fidelity_tables_write");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(page), k_expected);
  EXPECT_EQ(run_command(tables("--check " + args), "fidelity_tables_check").status, 0);

  // A changed result: --check says so and writes nothing.
  std::string changed = k_results;
  changed.replace(changed.find("150,100,1.5000"), 14, "120,100,1.2000");
  write(dir + "/results/tiny.csv", changed);
  r = run_command(tables("--check " + args), "fidelity_tables_check_changed");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(slurp(page), k_expected);

  // A malformed marker: one line naming the file and line, exit 2, the page unchanged.
  const std::string bad = dir + "/bad.md";
  write(bad, "x\n<!-- fidelity: cases results=tiny platform=nowhere -->\n<!-- end fidelity -->\n");
  r = run_command(tables("--results " + dir + "/results " + bad), "fidelity_tables_bad");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: " + bad + ":2: "), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(slurp(bad),
            "x\n<!-- fidelity: cases results=tiny platform=nowhere -->\n<!-- end fidelity -->\n");
}

TEST(fidelity_tables, the_shipped_page_matches_the_shipped_results) {
  auto r = run_command(tables("--check " + k_src + "/docs/fidelity.md"), "fidelity_tables_shipped");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

}  // namespace test_fidelity_tables
