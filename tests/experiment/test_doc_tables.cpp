// scripts/doc-tables.py, which writes the docs' result tables from an experiment's
// results.json (docs/experiments.md, "Result tables in the docs"): on a results.json written
// here by hand (two configurations, two workloads, a paper value), the tables between the
// markers are exactly the hand-computed ones and the rest of the page is unchanged byte for
// byte; --check exits 0 on a written page and 1 once a value changes; a bad marker is one
// line naming file:line, exit status 2 and the page unchanged.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/run_command.h"

namespace test_doc_tables {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;

std::string doc_tables(const std::string& args) {
  return python3() + " " + k_src + "/scripts/doc-tables.py " + args;
}

// Experiment "tiny": configurations base (the baseline) and fast, workloads a and b.
// cycles (speedup, geometric mean): base 100 and 400 cycles; fast 80 and `fast_b` cycles,
// so speedups 100/80 = 1.25 and 400/fast_b. hit (no comparison, arithmetic mean): base 0.5
// and 0.25, fast 0.6 and 0.3. The paper reports fast's geomean speedup as 1.5.
std::string results_json(double fast_b_cycles, double fast_b_speedup, double fast_geomean) {
  std::ostringstream o;
  o.precision(17);
  o << R"({
  "experiment": {"name": "tiny", "baseline": "base"},
  "platforms": ["gpu"],
  "configurations": ["base", "fast"],
  "workloads": [{"name": "a", "group": null}, {"name": "b", "group": null}],
  "groups": [],
  "metrics": [
    {"name": "cycles", "label": "Speedup over base", "compare": "speedup",
     "mean": "geometric", "baseline": "base", "unit": ""},
    {"name": "hit", "label": "Hit rate", "compare": "none", "mean": "arithmetic",
     "baseline": "base", "unit": ""}],
  "paper": [{"metric": "cycles", "platform": "gpu", "configuration": "fast",
             "workload": "geomean", "value": 1.5, "as_reported": "1.5x", "source": "S"}],
  "points": [],
  "summary": {
    "cycles": {"gpu": {
      "base": {"a": {"value": 100, "compared": 1}, "b": {"value": 400, "compared": 1},
               "geomean": {"value": null, "compared": 1, "count": 2, "of": 2}},
      "fast": {"a": {"value": 80, "compared": 1.25},
               "b": {"value": )"
    << fast_b_cycles << R"(, "compared": )" << fast_b_speedup << R"(},
               "geomean": {"value": null, "compared": )"
    << fast_geomean << R"(, "count": 2, "of": 2}}}},
    "hit": {"gpu": {
      "base": {"a": {"value": 0.5, "compared": null}, "b": {"value": 0.25, "compared": null},
               "geomean": {"value": 0.375, "compared": null, "count": 2, "of": 2}},
      "fast": {"a": {"value": 0.6, "compared": null}, "b": {"value": 0.3, "compared": null},
               "geomean": {"value": 0.45, "compared": null, "count": 2, "of": 2}}}}}
})";
  return o.str();
}

// fast: b in 250 cycles, speedup 1.6; geomean sqrt(1.25 * 1.6) = sqrt(2).
std::string tiny_results() { return results_json(250, 1.6, 1.4142135623730951); }

// Text around and between the tables, with what a rewrite must keep: trailing blanks, a
// tab, non-ASCII text, a marker inside a code fence, and no newline at the end.
const std::string k_before = "# Page  \n\nSome prose, 1.23 and \xc3\x97 2.\t\n\n";
const std::string k_marker1 =
    "<!-- results: experiment=tiny workload=geomean\n"
    "     rows: cycles \"speedup\"; hit format=percent \"hit rate\"\n"
    "     columns: base \"base\"; fast \"fast\"; paper:fast \"paper: fast\" -->\n";
const std::string k_between =
    "<!-- end results -->\n\nMore prose.\n\n```\n<!-- results: not a marker -->\n```\n\n";
const std::string k_marker2 =
    "<!-- results: experiment=tiny metric=cycles\n"
    "     corner: \"workload\"\n"
    "     rows: a \"a\"; b \"b\"; geomean \"**{mean}**\"\n"
    "     columns: base field=value \"base cycles\"; fast \"fast\" -->\n";
const std::string k_after = "<!-- end results -->\nThe end.";

// The tables, computed by hand. Speedups: 3 decimals; a share as a percentage, one
// decimal; cycles as a whole number; a paper value without trailing zeros. The first table
// mixes a geomean and an arithmetic mean, so each row says which; in the second only the
// last row is a mean.
const std::string k_table1 =
    "\n"
    "| | base | fast | paper: fast |\n"
    "|---|---:|---:|---:|\n"
    "| speedup (geomean) | 1.000 | 1.414 | 1.5 |\n"
    "| hit rate (arithmetic mean) | 37.5 % | 45.0 % | \xe2\x80\x94 |\n"
    "\n";
const std::string k_table2 =
    "\n"
    "| workload | base cycles | fast |\n"
    "|---|---:|---:|\n"
    "| a | 100 | 1.250 |\n"
    "| b | 400 | 1.600 |\n"
    "| **geomean** | \xe2\x80\x94 | 1.414 |\n"
    "\n";

// A page whose tables hold `t1` and `t2`.
std::string page(const std::string& t1, const std::string& t2) {
  return k_before + k_marker1 + t1 + k_between + k_marker2 + t2 + k_after;
}

struct fixture {
  std::string dir, root, doc;
};

fixture make(const std::string& name, const std::string& old_tables = "| old |\n") {
  fixture f;
  f.dir = fresh_dir(name);
  f.root = f.dir + "/results";
  fs::create_directories(f.root + "/tiny");
  write_text(f.root + "/tiny/results.json", tiny_results());
  f.doc = f.dir + "/page.md";
  write_text(f.doc, page(old_tables, old_tables));
  return f;
}

}  // namespace

TEST(doc_tables, writes_the_tables_and_keeps_the_rest_byte_for_byte) {
  const fixture f = make("doc_tables_write");
  auto r = run_command(doc_tables("--results-root " + f.root + " " + f.doc), "doc_tables_w1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(slurp(f.doc), page(k_table1, k_table2));

  // A second run changes nothing; --check agrees.
  r = run_command(doc_tables("--results-root " + f.root + " " + f.doc), "doc_tables_w2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(f.doc), page(k_table1, k_table2));
  r = run_command(doc_tables("--check --results-root " + f.root + " " + f.doc), "doc_tables_w3");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(doc_tables, check_exits_1_when_a_value_changed_and_writes_nothing) {
  const fixture f = make("doc_tables_check");
  auto r = run_command(doc_tables("--results-root " + f.root + " " + f.doc), "doc_tables_c1");
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_command(doc_tables("--check --results-root " + f.root + " " + f.doc), "doc_tables_c2");
  EXPECT_EQ(r.status, 0) << r.out << r.err;

  // fast runs b in 200 cycles: speedup 2, geomean sqrt(1.25 * 2) = 1.581.
  write_text(f.root + "/tiny/results.json", results_json(200, 2.0, 1.5811388300841898));
  r = run_command(doc_tables("--check --results-root " + f.root + " " + f.doc), "doc_tables_c3");
  EXPECT_EQ(r.status, 1) << r.err;
  // Both tables differ (the first's geomean, the second's b and geomean), each named by the
  // line of its marker.
  EXPECT_NE(r.out.find(f.doc + ":5: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(f.doc + ":22: "), std::string::npos) << r.out;
  EXPECT_EQ(slurp(f.doc), page(k_table1, k_table2));

  // Written, the page has the new numbers and passes the check.
  r = run_command(doc_tables("--results-root " + f.root + " " + f.doc), "doc_tables_c4");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string t1 = k_table1, t2 = k_table2;
  t1.replace(t1.find("1.414"), 5, "1.581");
  t2.replace(t2.find("1.600"), 5, "2.000");
  t2.replace(t2.find("1.414"), 5, "1.581");
  EXPECT_EQ(slurp(f.doc), page(t1, t2));
  r = run_command(doc_tables("--check --results-root " + f.root + " " + f.doc), "doc_tables_c5");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(doc_tables, bad_input_is_one_line_naming_file_and_line_exit_2_and_the_page_unchanged) {
  struct bad_case {
    std::string name, from, to;  // replace `from` by `to` in the page
    std::string expected;        // in the message, after "error: FILE:LINE: "
    int line;
  };
  const std::vector<bad_case> cases = {
      {"configuration", "paper:fast \"paper", "paper:fats \"paper",
       "unknown name 'fats' in experiment tiny", 7},
      {"workload", "workload=geomean", "workload=c", "unknown workload 'c' in experiment tiny", 5},
      {"experiment", "experiment=tiny metric", "experiment=huge metric",
       "no results of experiment 'huge'", 17},
      {"label", "\"hit rate\"", "\"hit rate", "unterminated label", 6},
      {"no_end", k_after, "The end.", "no <!-- end results --> after the marker", 17},
  };
  for (const auto& c : cases) {
    const fixture f = make("doc_tables_bad_" + c.name);
    std::string text = page("| old |\n", "| old |\n");
    ASSERT_NE(text.find(c.from), std::string::npos) << c.name;
    text.replace(text.find(c.from), c.from.size(), c.to);
    write_text(f.doc, text);
    for (const char* mode : {"", "--check "}) {
      auto r = run_command(doc_tables(mode + ("--results-root " + f.root + " " + f.doc)),
                           "doc_tables_bad");
      EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
      const std::string prefix = "error: " + f.doc + ":" + std::to_string(c.line) + ": ";
      EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << c.name << ": " << r.err;
      EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.name << ": " << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << c.name << ": one line: " << r.err;
      EXPECT_EQ(r.out, "") << c.name;
      EXPECT_EQ(slurp(f.doc), text) << c.name;
    }
  }
}

}  // namespace test_doc_tables
