// End-to-end tests of the `gputlm` command: bad input gives one line naming file, line,
// column and key, exit status 2, and writes nothing; good input round-trips through
// --dump-config; statistics are byte-identical from run to run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "tests/common/run_command.h"

namespace test_cli {

using namespace gputlm::testing;

namespace {

const std::string k_fermi = std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml";
const std::string k_latoa = std::string(GPUTLM_SOURCE_DIR) + "/yaml/latoa.yaml";

struct mutated {
  std::string path;
  std::size_t line = 0;    // 1-based line of the (first) replaced text
  std::size_t column = 0;  // 1-based column where it starts
};

// `base` with the first occurrence of each `from` replaced by its `to`, in order; the
// position is that of the first replacement.
mutated mutate_many(const std::string& base, const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text = slurp(base);
  mutated m;
  m.path = std::string(GPUTLM_TEST_TMP) + "/" + name + ".yaml";
  for (std::size_t k = 0; k < edits.size(); ++k) {
    const auto& [from, to] = edits[k];
    auto pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    if (pos == std::string::npos) continue;
    text.replace(pos, from.size(), to);
    if (k == 0) {
      m.line = 1 + std::count(text.begin(), text.begin() + pos, '\n');
      m.column = pos - text.rfind('\n', pos - 1);
    }
  }
  write_text(m.path, text);
  return m;
}

// fermi.yaml with the first occurrence of `from` replaced by `to`.
mutated mutate(const std::string& name, const std::string& from, const std::string& to) {
  return mutate_many(k_fermi, name, {{from, to}});
}

std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

// Runs `gputlm elaborate` on `m` and checks the one-line error.
void expect_bad(const mutated& m, const std::string& tag, const std::string& key,
                const std::string& message, std::size_t line = 0, std::size_t column = 0) {
  auto r = run_command(gputlm_bin() + " elaborate " + m.path + " -q", tag);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  std::string where = m.path + ":" + std::to_string(line ? line : m.line) + ":" +
                      std::to_string(column ? column : m.column) + ": ";
  EXPECT_NE(r.err.find("error: " + where + key + ": "), std::string::npos)
      << "expected at " << where << key << "\n got: " << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("SystemC"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

}  // namespace

TEST(cli, elaborate_prints_hierarchy_and_counts) {
  auto r = run_command(gputlm_bin() + " elaborate " + k_fermi, "hier");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gpu.smx[12].l1 (l1_cache, core)"), std::string::npos);
  EXPECT_NE(r.out.find("  smx: 15\n"), std::string::npos);
  EXPECT_NE(r.out.find("  l2_cache: 12\n"), std::string::npos);
  EXPECT_NE(r.out.find("  dram_channel: 6\n"), std::string::npos);
}

// --list-stats: once per block type with the instance count (the GTX480: 15 SMXs, 12 L2
// banks); =all: every instance, each path once, and the two forms list the same paths.
TEST(cli, list_stats_per_block_type_and_all) {
  auto types = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --list-stats", "lst_t");
  ASSERT_EQ(types.status, 0) << types.err;
  EXPECT_NE(types.out.find("\nblocks.gpu.smx[*].l1.hits (15 instances)\n"), std::string::npos);
  EXPECT_NE(types.out.find("\nblocks.gpu.l2[*].hits (12 instances)\n"), std::string::npos);
  EXPECT_EQ(types.out.rfind("total_cycles\n", 0), 0u) << types.out.substr(0, 200);
  EXPECT_EQ(types.out.find("smx[3]"), std::string::npos);
  auto all = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --list-stats=all", "lst_a");
  ASSERT_EQ(all.status, 0) << all.err;
  std::set<std::string> from_all, from_types;
  std::istringstream in(all.out);
  for (std::string line; std::getline(in, line);) {
    EXPECT_TRUE(from_all.insert(line).second) << "twice: " << line;
    from_types.insert(std::regex_replace(line, std::regex(R"(\[[0-9]+\])"), "[*]"));
  }
  EXPECT_NE(from_all.count("blocks.gpu.smx[14].l1.hits"), 0u);
  std::set<std::string> listed;
  std::istringstream tin(types.out);
  for (std::string line; std::getline(tin, line);)
    listed.insert(std::regex_replace(line, std::regex(R"( \([0-9]+ instances\)$)"), ""));
  EXPECT_EQ(listed, from_types);
  auto bad = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --list-stats=some", "lst_b");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "error: <command line>: --list-stats: expected types or all, got 'some'\n");
}

TEST(cli, help_on_every_subcommand) {
  for (const char* sub : {"elaborate", "run"}) {
    auto r = run_command(gputlm_bin() + " " + sub + " --help", std::string("help_") + sub);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("--set"), std::string::npos) << sub;
  }
  EXPECT_EQ(run_command(gputlm_bin() + " --help", "help_top").status, 0);
}

TEST(cli, dump_config_round_trips) {
  for (const char* p : {"fermi", "kepler", "pascal", "volta"}) {
    std::string tag = std::string("dump_") + p;
    std::string yaml = std::string(GPUTLM_SOURCE_DIR) + "/yaml/" + p + ".yaml";
    std::string first = std::string(GPUTLM_TEST_TMP) + "/" + tag + "_1.yaml";
    auto a =
        run_command(gputlm_bin() + " elaborate " + yaml +
                        " --set smx[3].l1.hit_latency=7cycles --set smx.max_tbs=4 --dump-config",
                    tag + "_a");
    ASSERT_EQ(a.status, 0) << a.err;
    write_text(first, a.out);
    auto b = run_command(gputlm_bin() + " elaborate " + first + " --dump-config", tag + "_b");
    ASSERT_EQ(b.status, 0) << b.err;
    // Identical but for the first comment line naming the source file.
    EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n'))) << p;
    EXPECT_NE(a.out.find("  smx[3].l1.hit_latency: 7cycles"), std::string::npos) << p;
    EXPECT_NE(a.out.find("    max_tbs: 4  #"), std::string::npos) << p;
  }
}

// A child inheriting a per-instance domain (the L1 of smx[3] on sm[3]) keeps it through a
// dump: the dump names no domain for it, as the YAML does not.
TEST(cli, dump_config_keeps_inherited_per_instance_domains) {
  const std::string yaml = std::string(GPUTLM_SOURCE_DIR) + "/yaml/variants/kepler-dvfs.yaml";
  const std::string dumped = std::string(GPUTLM_TEST_TMP) + "/dump_dvfs.yaml";
  auto a = run_command(gputlm_bin() + " elaborate " + yaml, "dump_dvfs_a");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_NE(a.out.find("gpu.smx[3].l1 (l1_cache, sm[3])"), std::string::npos) << a.out;
  auto d = run_command(gputlm_bin() + " elaborate " + yaml + " --dump-config", "dump_dvfs_d");
  ASSERT_EQ(d.status, 0) << d.err;
  write_text(dumped, d.out);
  auto b = run_command(gputlm_bin() + " elaborate " + dumped, "dump_dvfs_b");
  ASSERT_EQ(b.status, 0) << b.err;
  // The same blocks on the same domains (the first line names the file).
  EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n')));
  EXPECT_NE(d.out.find("pstates: [706MHz@1V, 100MHz@550mV]"), std::string::npos);
}

TEST(cli, dot_file) {
  std::string dot = std::string(GPUTLM_TEST_TMP) + "/fermi.dot";
  auto r = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --dot " + dot, "dot");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string text = slurp(dot);
  EXPECT_EQ(text.rfind("digraph", 0), 0u);
  EXPECT_NE(text.find("\"gpu.smx[0].ni\" -> \"gpu.icnt\" [label=\"out -> smx[0]\"]"),
            std::string::npos);
  // Graphviz (installed by scripts/install-deps.sh) draws it without a complaint.
  auto svg = run_command("dot -Tsvg " + dot + " -o " + dot + ".svg", "dot_svg");
  EXPECT_EQ(svg.status, 0) << svg.err;
  EXPECT_EQ(svg.err, "");
  EXPECT_NE(slurp(dot + ".svg").find("<svg"), std::string::npos);
}

TEST(cli, bad_misspelled_key_suggests) {
  expect_bad(mutate("szie", "      size: 16KiB", "      szie: 16KiB"), "szie", "gpu.smx[0].l1.szie",
             "unknown key for a block of type 'l1_cache'; did you mean 'size'?", 0, 7);
}

TEST(cli, bad_unknown_type_suggests) {
  expect_bad(mutate("type", "type: l2_cache", "type: l2_cahce"), "type", "gpu.l2.type",
             "unknown block type 'l2_cahce'; did you mean 'l2_cache'?", 0, 11);
}

TEST(cli, bad_unit) {
  expect_bad(mutate("unit", "hit_latency: 35cycles", "hit_latency: 35ns"), "unit",
             "gpu.smx[0].l1.hit_latency", "expected a cycle count like 120cycles, got '35ns'");
}

TEST(cli, bad_type) {
  expect_bad(mutate("btype", "max_tbs: 8", "max_tbs: eight"), "btype", "gpu.smx[0].max_tbs",
             "expected a non-negative integer, got 'eight'");
}

TEST(cli, bad_choice) {
  expect_bad(mutate("choice", "scheduler_policy: gto", "scheduler_policy: fifo"), "choice",
             "gpu.smx[0].scheduler_policy",
             "unknown warp scheduling policy 'fifo' (one of gto, lrr)");
}

TEST(cli, bad_frequency) {
  expect_bad(mutate("freq", "frequency: 924MHz", "frequency: 924"), "freq", "clocks.dram.frequency",
             "expected a frequency like 700MHz, got '924'", 0, 11);
}

// Clocks of a physical range only: 1 MHz to 10 GHz, at most 5 V.
TEST(cli, bad_frequency_and_voltage_range) {
  expect_bad(mutate("freq_lo", "frequency: 924MHz", "frequency: 0.5MHz"), "freq_lo",
             "clocks.dram.frequency", "'0.5MHz' is outside 1MHz..10GHz", 0, 11);
  expect_bad(mutate("freq_hi", "frequency: 924MHz", "frequency: 11GHz"), "freq_hi",
             "clocks.dram.frequency", "'11GHz' is outside 1MHz..10GHz", 0, 11);
  expect_bad(mutate("volt_hi", "voltage: 1V", "voltage: 12V"), "volt_hi", "clocks.core.voltage",
             "'12V' is above 5V", 0, 0);
}

// Arithmetic in a binding's index expression is checked: overflow and division by zero
// are bad input naming the expression, never a crash.
TEST(cli, bad_bind_index_arithmetic) {
  struct bad_case {
    std::string index, message;
  };
  const std::vector<bad_case> cases = {
      {"i", ""},  // (the unchanged binding: the base line of the cases)
      {"99999999999999999999", "has a number beyond 64-bit integers"},
      {"i*9223372036854775807*4", "overflows 64-bit integers"},
      {"(0-9223372036854775807-1)/(0-1)", "overflows 64-bit integers"},
      {"i/(i-i)", "divides by zero"},
      {"i%0", "divides by zero"},
      {"0-1", "is negative (-1)"},
      {"i + nosuch", "'nosuch' is not one of the platform's vars"},
  };
  for (std::size_t n = 1; n < cases.size(); ++n) {
    const std::string tag = "bind_arith_" + std::to_string(n);
    const mutated m = mutate(tag, "smx_scheduler.smx[i] -> smx[*].tbcr",
                             "smx_scheduler.smx[" + cases[n].index + "] -> smx[*].tbcr");
    auto r = run_command(gputlm_bin() + " elaborate " + m.path + " -q", tag);
    EXPECT_EQ(r.status, 2) << cases[n].index << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(cases[n].message), std::string::npos) << r.err;
  }
}

// A key with a newline (a quoted YAML key) is written with an escape: one line.
TEST(cli, bad_key_with_a_newline_stays_one_line) {
  expect_bad(mutate("nl_key", "    hw_queues: 32", "    \"hw\\nqueues\": 32"), "nl_key",
             "gpu.kmu.hw\\nqueues", "unknown key for a block of type 'kmu'", 0, 5);
}

// A block name SystemC would rewrite (with a warning before the error it then leads to) is
// an error at its key: spaces, dots, brackets, a leading digit, a control character.
TEST(cli, bad_block_names_are_one_line_at_their_key) {
  const std::pair<const char*, const char*> cases[] = {{"\"k d\"", "gpu.k d"},
                                                       {"\"k.d\"", "gpu.k.d"},
                                                       {"\"k[0]\"", "gpu.k[0]"},
                                                       {"2kd", "gpu.2kd"},
                                                       {"\"k\\td\"", "gpu.k\\td"}};
  int n = 0;
  for (const auto& [yaml_name, key] : cases) {
    const std::string tag = "block_name" + std::to_string(n++);
    expect_bad(mutate(tag, "  kd:\n", std::string("  ") + yaml_name + ":\n"), tag, key,
               "a block name is letters, digits and '_'", 0, 3);
  }
}

TEST(cli, bad_cache_geometry) {
  // 32 sets x 4 ways x 128 B = 16 KiB, not 32 KiB.
  expect_bad(mutate("geom", "      size: 16KiB", "      size: 32KiB"), "geom", "gpu.smx[0].l1.size",
             "is 32KiB but sets x ways x line_size = 32 x 4 x 128 = 16KiB", 0, 7);
}

TEST(cli, bad_sets_not_power_of_two) {
  expect_bad(mutate("sets", "    sets: 64\n    ways: 8", "    sets: 48\n    ways: 8"), "sets",
             "gpu.l2[0].sets", "must be a power of two", 0, 5);
}

TEST(cli, bad_ways_too_many) {
  // The tag array numbers a set's ways in 16 bits.
  auto m = mutate("ways", "    sets: 64\n    ways: 8", "    sets: 1\n    ways: 65535");
  expect_bad(m, "ways", "gpu.l2[0].ways", "must be at most 65534", m.line + 1, 5);
}

// A cache's tables are allocated once its parameters are valid, so sizes they cannot hold
// are a one-line error too (they had ended in "internal error: std::bad_alloc").
TEST(cli, bad_mshr_entries_too_many) {
  auto m = mutate("mshrs", "      mshr_entries: 64", "      mshr_entries: 4000000000");
  expect_bad(m, "mshrs", "gpu.smx[0].l1.mshr_entries", "must be at most 65535", m.line, 7);
}

TEST(cli, bad_mshr_slots_too_many) {
  // 256 x 100000 slots: more than 2^18.
  auto m = mutate("merge", "    mshr_merge: 4", "    mshr_merge: 100000");
  expect_bad(m, "merge", "gpu.l2[0].mshr_merge", "mshr_entries x mshr_merge must be at most 262144",
             m.line, 5);
}

TEST(cli, bad_cache_lines_too_many) {
  // 2^25 sets of 8 ways: 2^28 lines (checked before the size, which no longer matches).
  auto m = mutate("lines", "    sets: 64\n    ways: 8", "    sets: 33554432\n    ways: 8");
  expect_bad(m, "lines", "gpu.l2[0].sets", "sets x ways must be at most 16777216 lines per cache",
             m.line, 5);
}

TEST(cli, bad_count_zero) {
  expect_bad(mutate("count0", "count: channels                #", "count: 0 #"), "count0",
             "gpu.dram.count", "count must be at least 1", 0, 12);
  // An expression of vars, and a var changed from the command line.
  auto r = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set vars.channels=0",
                       "count0_var");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gpu.l2_ni.count: count must be at least 1 ('channels * sub_partitions' "
                       "is 0)"),
            std::string::npos)
      << r.err;
}

// Sizes that had ended in std::bad_alloc, SIGFPE, SIGSEGV, a hang while sockets or tables
// were built, or a deadlock (a value truncated to 0) are one-line errors, reported before
// anything is sized by them (each of these returns at once).
TEST(cli, bad_count_too_many) {
  expect_bad(mutate("count_big", "count: sms ", "count: 100000000 "), "count_big", "gpu.smx.count",
             "count must be at most 1024", 0, 12);
  auto r =
      run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set l2.count=5000", "count_set");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: --set l2.count=5000: l2.count: count must be at most 1024\n");
  // Nested arrays multiply.
  auto n = run_command(
      gputlm_bin() + " elaborate " + k_fermi + " -q --set smx.count=1024 --set smx.l1.count=2",
      "count_nested");
  EXPECT_EQ(n.status, 2);
  EXPECT_EQ(n.err,
            "error: --set smx.l1.count=2: gpu.smx.l1.count: gives 2048 instances with the "
            "enclosing blocks' counts; at most 1024\n");
}

TEST(cli, bad_dram_queue_depth_too_large) {
  auto m = mutate("dram_qd", "    queue_depth: 64", "    queue_depth: 1000000000000");
  expect_bad(m, "dram_qd", "gpu.dram[0].queue_depth", "must be at most 4096", m.line, 5);
  auto r = mutate("dram_rq", "    return_queue: 116", "    return_queue: 1000000000000");
  expect_bad(r, "dram_rq", "gpu.dram[0].return_queue", "must be at most 4096", r.line, 5);
}

TEST(cli, bad_dram_banks_too_many) {
  auto m = mutate("dram_banks", "    banks: 16", "    banks: 1000000000");
  expect_bad(m, "dram_banks", "gpu.dram[0].banks", "at most 64 banks per channel", m.line, 5);
}

// A DRAM channel serves as many sub-partitions as the bindings give it (l2[i]): at most 16.
TEST(cli, bad_dram_sub_partitions_too_many) {
  auto r = run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set vars.sub_partitions=17",
                       "dram_subs");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("gpu.dram[0].l2: the bindings name l2[0] to l2[16]: at most 16"),
            std::string::npos)
      << r.err;
}

TEST(cli, bad_dram_atom_too_large) {
  // 2^30 x 4 B x 2 chips had wrapped to a 0-byte column access (SIGFPE in the channel).
  auto m = mutate("dram_burst", "    burst_length: 8 ", "    burst_length: 1073741824 ");
  expect_bad(m, "dram_burst", "gpu.dram[0].burst_length", "must be at most 4096", m.line, 5);
  auto p = mutate("dram_atom", "    burst_length: 8 ", "    burst_length: 1024 ");
  expect_bad(p, "dram_atom", "gpu.dram[0].burst_length",
             "burst_length x bus_width x chips (bytes per column access) must be at most 4KiB",
             p.line, 5);
  auto w = mutate("dram_bus0", "    bus_width: 4B", "    bus_width: 0B");
  expect_bad(w, "dram_bus0", "gpu.dram[0].bus_width", "must be at least 1B", w.line, 5);
}

TEST(cli, bad_smx_sizes) {
  // 2^32 schedulers had become 0 as a 32-bit count (SIGFPE).
  auto w = mutate("smx_sched", "    warp_schedulers: 2", "    warp_schedulers: 4294967296");
  expect_bad(w, "smx_sched", "gpu.smx[0].warp_schedulers", "must be at most 64", w.line, 5);
  // 2^32 SP units had become 0 units (a deadlock).
  auto u = mutate("smx_units", "    sp_units: 2", "    sp_units: 4294967296");
  expect_bad(u, "smx_units", "gpu.smx[0].sp_units", "must be at most 1024", u.line, 5);
  auto t = mutate("smx_tbs", "    max_tbs: 8", "    max_tbs: 100000000000");
  expect_bad(t, "smx_tbs", "gpu.smx[0].max_tbs", "must be at most 1024", t.line, 5);
  auto th = mutate("smx_threads", "    max_threads: 1536", "    max_threads: 1048576");
  expect_bad(th, "smx_threads", "gpu.smx[0].max_threads", "must be at most 4096 (128 warps)",
             th.line, 5);
  auto c = mutate("smx_coll", "    collectors_sp: 6", "    collectors_sp: 4294967296");
  expect_bad(c, "smx_coll", "gpu.smx[0].collectors_sp", "must be at most 1024", c.line, 5);
}

TEST(cli, bad_register_file_too_large) {
  // The register file's power component is declared by the SMX's constructor.
  auto r = mutate("smx_regs", "    registers: 32768", "    registers: 4294967296");
  expect_bad(r, "smx_regs", "gpu.smx[0].registers", "must be at most 1048576", r.line, 5);
  auto b = mutate("smx_rbanks", "    register_banks: 16", "    register_banks: 100000000");
  expect_bad(b, "smx_rbanks", "gpu.smx[0].register_banks", "must be at most 1024", b.line, 5);
}

TEST(cli, bad_power_elements_too_many) {
  // A 32 MiB L2 bank in 1-byte elements: 2^25 of them (a gating policy keeps state for each).
  auto m = mutate_many(k_fermi, "pw_elements",
                       {{"    l2_cache:\n      data:\n        granularity: 32B",
                         "    l2_cache:\n      data:\n        granularity: 1B"},
                        {"    size: 64KiB", "    size: 32MiB"},
                        {"    sets: 64\n    ways: 8", "    sets: 32768\n    ways: 8"}});
  expect_bad(m, "pw_elements", "power.components.l2_cache.data.granularity",
             "splits the 33554432 B of gpu.l2[0] into 33554432 elements; at most 16777216",
             m.line + 2, 9);
}

TEST(cli, bad_l1_banks_too_many) {
  auto m = mutate("l1_banks", "      banks: 1 ", "      banks: 100000000 ");
  expect_bad(m, "l1_banks", "gpu.smx[0].l1.banks", "must be at most 64", m.line, 7);
}

TEST(cli, bad_control_sizes) {
  auto kd = mutate("kd_entries", "    entries: 32", "    entries: 100000000");
  expect_bad(kd, "kd_entries", "gpu.kd.entries", "must be at most 4096", kd.line, 5);
  // The scheduler's TBCR sockets and the KMU's launch paths are one per SMX bound: the
  // old keys are unknown now.
  auto tb = mutate("tb_smxs", "    tb_launch_latency: 0cycles", "    smxs: 15");
  expect_bad(tb, "tb_smxs", "gpu.smx_scheduler.smxs", "unknown key for a block of type", tb.line,
             5);
  // 2^64 - 1 cycles had overflowed simulated time (the run never ended).
  auto l = mutate("kmu_lat", "    dispatch_latency: 0cycles",
                  "    dispatch_latency: 18446744073709551615cycles");
  expect_bad(l, "kmu_lat", "gpu.kmu.dispatch_latency", "must be at most 4294967296cycles", l.line,
             5);
}

TEST(cli, bad_kmu_hw_queues_on_run) {
  // The KMU's queues are built when the simulation starts: the bound is checked at
  // elaboration, so `run` stops before simulating and writes nothing.
  auto m = mutate("kmu_hwq", "    hw_queues: 32", "    hw_queues: 10000000000");
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/kmu_hwq.json";
  std::filesystem::remove(stats);
  auto r = run_command(gputlm_bin() + " run " + m.path + " " + GPUTLM_SOURCE_DIR +
                           "/traces/samples/vectoradd --no-wall-clock --stats-form=full --stats " +
                           stats,
                       "kmu_hwq");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "error: " + m.path + ":" + std::to_string(m.line) +
                       ":5: gpu.kmu.hw_queues: must be at most 4096\n");
  EXPECT_FALSE(std::filesystem::exists(stats));
}

TEST(cli, bad_icnt_sizes) {
  // The crossbar's ports are as many as the bindings name: at most 1024, reported at the
  // crossbar's declaration.
  auto p =
      mutate("icnt_ports", "smx[*].ni.out -> icnt.smx[i]", "smx[*].ni.out -> icnt.smx[i + 2000]");
  std::string text = slurp(p.path);
  const std::size_t icnt_line =
      1 + std::count(text.begin(), text.begin() + text.find("\n  icnt:\n") + 1, '\n');
  expect_bad(p, "icnt_ports", "gpu.icnt.smx", "the bindings name smx[0] to smx[2014]: at most 1024",
             icnt_line, 3);
  // A 0-byte flit had divided by zero while the crossbar was built.
  auto f = mutate("icnt_flit", "    flit_size: 40B", "    flit_size: 0B");
  expect_bad(f, "icnt_flit", "gpu.icnt.flit_size", "must hold at least the 8 B packet header",
             f.line, 5);
  // 2^32 flits had become a 0-flit buffer (a deadlock).
  auto b = mutate("icnt_inbuf", "    input_buffer: 64", "    input_buffer: 4294967296");
  expect_bad(b, "icnt_inbuf", "gpu.icnt.input_buffer", "must be at most 65536 flits", b.line, 5);
}

TEST(cli, bad_mesh_geometry) {
  auto c = mutate_many(k_latoa, "mesh_cols", {{"    columns: 8", "    columns: 0"}});
  expect_bad(c, "mesh_cols", "gpu.icnt.columns", "must be 1..16", c.line, 5);
  auto big =
      mutate_many(k_latoa, "mesh_big",
                  {{"    columns: 8 ", "    columns: 65536 "}, {"    rows: 8", "    rows: 65536"}});
  expect_bad(big, "mesh_big", "gpu.icnt.columns", "must be 1..16", big.line, 5);
  auto f = mutate_many(k_latoa, "mesh_flit", {{"    flit_size: ", "    flit_size: 0B #"}});
  expect_bad(f, "mesh_flit", "gpu.icnt.flit_size", "must hold at least the 8 B packet header",
             f.line, 5);
}

TEST(cli, bad_socket_bound_twice) {
  auto m = mutate("twice", "    - icnt.mem[i] -> l2_ni[*].in",
                  "    - icnt.mem[i] -> l2_ni[*].in\n    - smx[0].ni.out -> icnt.smx[3]");
  auto r = run_command(gputlm_bin() + " elaborate " + m.path + " -q", "twice");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(":" + std::to_string(m.line + 1) +
                       ":7: gpu.bind[7]: socket "
                       "'gpu.smx[0].ni.out' is already bound at " +
                       m.path + ":" + std::to_string(m.line - 1) + ":7"),
            std::string::npos)
      << r.err;
}

TEST(cli, bad_socket_never_bound) {
  // The L2s' DRAM sockets unbound: the first in path order is L2 0's, reported at the L2
  // block's declaration ("  l2:" in fermi.yaml).
  auto m =
      mutate("never", "    - l2[*].dram -> dram[i / sub_partitions].l2[i % sub_partitions]\n", "");
  auto r = run_command(gputlm_bin() + " elaborate " + m.path + " -q", "never");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  std::string text = slurp(m.path);
  std::size_t dram_line =
      1 + std::count(text.begin(), text.begin() + text.find("\n  dram:\n") + 1, '\n');
  // The DRAM channels' sockets are sized by their bindings: with none, none exist, and the
  // channel says so before anything else is checked.
  EXPECT_NE(r.err.find(m.path + ":" + std::to_string(dram_line) +
                       ":3: gpu.dram[0].l2: no binding names l2[0]"),
            std::string::npos)
      << r.err;
}

TEST(cli, bad_binding_index_out_of_range) {
  // A socket array sized by its bindings grows to the highest index named: a gap below it
  // is a socket never bound.
  auto m = mutate("range", "smx[*].ni.out -> icnt.smx[i]", "smx[*].ni.out -> icnt.smx[i+1]");
  std::string text = slurp(m.path);
  const std::size_t icnt_line =
      1 + std::count(text.begin(), text.begin() + text.find("\n  icnt:\n") + 1, '\n');
  expect_bad(m, "range", "gpu.icnt.smx[0]", "target socket is never bound", icnt_line, 3);
  // A fixed socket array: an index past its end names no socket.
  expect_bad(mutate("range2", "smx[*].launch -> kmu.smx[i]", "smx[*].launch -> kmu.agg[i]"),
             "range2", "gpu.bind[4]", "no socket or port 'gpu.kmu.agg[0]'", 0, 7);
}

TEST(cli, bad_malformed_yaml) {
  auto m = mutate("malformed", "  kmu:\n", "  kmu: [\n");
  auto r = run_command(gputlm_bin() + " elaborate " + m.path + " -q", "malformed");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("error: " + m.path + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("malformed YAML"), std::string::npos) << r.err;
}

TEST(cli, bad_missing_files) {
  auto r = run_command(gputlm_bin() + " elaborate /nonexistent.yaml", "missing_platform");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: /nonexistent.yaml: cannot open platform file\n");
  auto t = run_command(gputlm_bin() + " run " + k_fermi + " /nonexistent_trace", "missing_trace");
  EXPECT_EQ(t.status, 2);
  EXPECT_EQ(t.err, "error: /nonexistent_trace: TRACE: no such file or directory\n");
}

TEST(cli, bad_set_options) {
  auto a =
      run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set smx.l1.szie=1KiB", "set_a");
  EXPECT_EQ(a.status, 2);
  EXPECT_EQ(a.err,
            "error: --set smx.l1.szie=1KiB: gpu.smx[0].l1.szie: unknown key for a block of type "
            "'l1_cache'; did you mean 'size'?\n");
  auto b =
      run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set smx[99].max_tbs=2", "set_b");
  EXPECT_EQ(b.status, 2);
  EXPECT_EQ(b.err,
            "error: --set smx[99].max_tbs=2: smx[99].max_tbs: matches no block instance of this "
            "platform\n");
  auto c =
      run_command(gputlm_bin() + " elaborate " + k_fermi + " -q --set smxx.max_tbs=2", "set_c");
  EXPECT_EQ(c.status, 2);
  EXPECT_EQ(
      c.err,
      "error: --set smxx.max_tbs=2: smxx.max_tbs: no block 'smxx' in gpu; did you mean 'smx'?\n");
  auto d = run_command(
      gputlm_bin() + " elaborate " + k_fermi + " -q --set clocks.core.frequency=fast", "set_d");
  EXPECT_EQ(d.status, 2);
  EXPECT_EQ(d.err,
            "error: --set clocks.core.frequency=fast: clocks.core.frequency: expected a frequency "
            "like 700MHz, got 'fast'\n");
  auto e = run_command(gputlm_bin() + " elaborate " + k_fermi + " --bogus", "set_e");
  EXPECT_EQ(e.status, 2);
  EXPECT_EQ(lines(e.err), 1u);
}

TEST(cli, bad_more_than_64_warps_per_scheduler) {
  // 3072 threads = 96 warps on one scheduler; the issue scan keeps a scheduler's warps in
  // one 64-bit word.
  auto r = run_command(gputlm_bin() + " elaborate " + k_fermi +
                           " -q --set smx.warp_schedulers=1 --set smx.max_threads=3072",
                       "warps64");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "error: --set smx.max_threads=3072: gpu.smx[0].max_threads: gives more than 64 warps "
            "per warp scheduler (warp_schedulers is 1)\n");
  auto ok = run_command(gputlm_bin() + " elaborate " + k_fermi +
                            " -q --set smx.warp_schedulers=2 --set smx.max_threads=3072",
                        "warps64_ok");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// The power table (`power:`): schema errors at parse time, and entries that no block
// declares or events a block does not have at elaboration.
TEST(cli, bad_power_key_suggests) {
  expect_bad(mutate("pw_key", "  components:\n    smx:", "  componets:\n    smx:"), "pw_key",
             "power.componets", "unknown key 'componets'; did you mean 'components'?", 0, 3);
}

TEST(cli, bad_power_unit) {
  const mutated m = mutate("pw_unit", "{fetch: 516pJ}", "{fetch: 516pV}");
  expect_bad(m, "pw_unit", "power.components.smx.fetch_decode.events.fetch",
             "expected an energy, e.g. 20pJ", 0, m.column + 8);
}

TEST(cli, bad_power_component) {
  const mutated m = mutate("pw_comp", "    l1_cache:\n      data:", "    l1_cache:\n      dta:");
  expect_bad(m, "pw_comp", "power.components.l1_cache.dta",
             "a l1_cache has no power component 'dta' (it has: data, mshr, tag)", m.line + 1, 7);
}

TEST(cli, bad_power_event) {
  const mutated m = mutate("pw_event", "{activate: 2nJ", "{actvate: 2nJ");
  expect_bad(m, "pw_event", "power.components.dram_channel.device.events.actvate",
             "has no event 'actvate' (it has: activate, precharge, read, write)", 0, m.column + 1);
}

TEST(cli, bad_power_policy) {
  expect_bad(mutate("pw_policy", "  policy: always_on", "  policy: snoze"), "pw_policy",
             "power.policy", "unknown policy 'snoze' (one of always_on, idle_timeout)", 0, 11);
  // Snooze and Slumber are controllers beside the blocks now: the policy's old names say so.
  expect_bad(mutate("pw_controller", "  policy: always_on", "  policy: {l1_cache: snooze_bank}"),
             "pw_controller", "power.policy.l1_cache",
             "snooze_bank is a controller beside the blocks it gates, not a gating policy: add it "
             "to the platform with --with yaml/mechanisms/snooze-l1.yaml (or -l2)",
             0, 12);
  // A policy per block type: each error at its own key.
  expect_bad(mutate("pw_type", "  policy: always_on",
                    "  policy: {l1_cache: always_on, l3_cache: always_on}"),
             "pw_type", "power.policy.l3_cache",
             "no block of type 'l3_cache' declares power components", 0, 33);
  expect_bad(mutate("pw_param", "  policy: always_on",
                    "  policy: {l1_cache: {type: idle_timeout, after: fast, state: sleep}}"),
             "pw_param", "power.policy.l1_cache.after",
             "expected a cycle count like 120cycles, got 'fast'", 0, 50);
  expect_bad(mutate("pw_key", "  policy: always_on", "  policy: {type: always_on, after: 5}"),
             "pw_key", "power.policy.after",
             "unknown key for the gating policy always_on (it takes no parameters)", 0, 36);
  // Slumber's parameters, and a register file without its states: the controller's keys.
  const std::string slumber = gputlm_bin() + " elaborate " + k_fermi + " -q --with " +
                              GPUTLM_SOURCE_DIR +
                              "/yaml/mechanisms/slumber.yaml --set smx.slumber.";
  auto bits = run_command(slumber + "counter_bits=40", "pw_slumber");
  EXPECT_EQ(bits.status, 2);
  EXPECT_EQ(bits.err,
            "error: --set smx.slumber.counter_bits=40: gpu.smx[0].slumber.counter_bits: "
            "expected 1..20 bits\n");
  auto key = run_command(slumber + "wake=3cycles", "pw_slumber_key");
  EXPECT_EQ(key.status, 2);
  EXPECT_NE(key.err.find("gpu.smx[0].slumber.wake: unknown key for a block of type "
                         "'slumber_control_unit'"),
            std::string::npos)
      << key.err;
  auto state = run_command(slumber + "ds_state=drowsy", "pw_slumber_state");
  EXPECT_EQ(state.status, 2);
  EXPECT_NE(state.err.find("gpu.smx[0].slumber.ds_state: the register file this unit manages "
                           "(gpu.smx[0].register_file) has no state 'drowsy' (not the first) in "
                           "the platform's power table"),
            std::string::npos)
      << state.err;
}

TEST(cli, bad_l2_partition_map) {
  // The L2's set index within the sub-partition: a malformed DRAM map is an error at its key.
  expect_bad(mutate("l2_map", "    channels: ${channels}\n", "    channels: 0\n"), "l2_map",
             "gpu.l2[0].channels", "must be 1..4096", 0, 5);
  expect_bad(mutate("l2_map_text", "\"${address_map}\"  # = dram.address_map: set index",
                    "\"dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB."
                    "CCSSSSSQ\"  # = dram.address_map: set index"),
             "l2_map_text", "gpu.l2[0].address_map", "", 0, 5);
}

TEST(cli, bad_power_granularity) {
  expect_bad(mutate("pw_gran", "granularity: 32B", "granularity: 48B"), "pw_gran",
             "power.components.l1_cache.data.granularity", "does not divide", 0, 0);
}

TEST(cli, power_policy_from_the_command_line) {
  // --set chooses the gating policy and its parameters: with the data arrays sleeping after
  // 200 idle cycles the L2 banks' data arrays spend time asleep and the chip uses less
  // energy than with always_on; a misspelled parameter is one line and exit 2.
  const std::string trace = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/sgemm_tiled";
  const std::string base = std::string(GPUTLM_TEST_TMP) + "/policy_";
  auto on = run_command(gputlm_bin() + " run " + k_fermi + " " + trace +
                            " --no-wall-clock --stats-form=full --stats " + base + "on.json",
                        "policy_on");
  ASSERT_EQ(on.status, 0) << on.err;
  auto gated =
      run_command(gputlm_bin() + " run " + k_fermi + " " + trace +
                      " --set power.policy=idle_timeout --set power.policy.after=200cycles"
                      " --set power.policy.state=sleep --no-wall-clock --stats-form=full --stats " +
                      base + "gated.json",
                  "policy_gated");
  ASSERT_EQ(gated.status, 0) << gated.err;
  auto number = [](const std::string& json, const std::string& key) {
    auto pos = json.find("\"" + key + "\":");
    EXPECT_NE(pos, std::string::npos) << key;
    return std::stod(json.substr(pos + key.size() + 3));
  };
  const std::string j_on = slurp(base + "on.json"), j_gated = slurp(base + "gated.json");
  EXPECT_LT(number(j_gated, "energy_joules"), number(j_on, "energy_joules"));
  EXPECT_EQ(number(j_on, "power.data.residency.sleep"), 0.0);
  EXPECT_GT(number(j_gated, "power.data.residency.sleep"), 0.0);
  EXPECT_NE(j_gated.find("\"policy\": \"idle_timeout\""), std::string::npos);

  auto bad = run_command(gputlm_bin() + " elaborate " + k_fermi +
                             " -q --set power.policy=idle_timeout --set power.policy.aftr=9",
                         "policy_bad");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(
      bad.err,
      "error: --set power.policy.aftr=9: power.policy.aftr: unknown key for the gating policy "
      "idle_timeout (its keys: after, state, components)\n");
}

TEST(cli, bad_input_writes_nothing) {
  auto m = mutate("nothing", "max_tbs: 8", "max_tbs: -1");
  std::string stats = std::string(GPUTLM_TEST_TMP) + "/nothing.json";
  std::string dot = std::string(GPUTLM_TEST_TMP) + "/nothing.dot";
  std::filesystem::remove(stats);
  std::filesystem::remove(dot);
  auto r = run_command(gputlm_bin() + " run " + m.path + " " + GPUTLM_SOURCE_DIR +
                           " --stats-form=full --stats " + stats,
                       "nothing_run");
  EXPECT_EQ(r.status, 2);
  auto e = run_command(gputlm_bin() + " elaborate " + m.path + " --dot " + dot, "nothing_dot");
  EXPECT_EQ(e.status, 2);
  EXPECT_FALSE(std::filesystem::exists(stats));
  EXPECT_FALSE(std::filesystem::exists(dot));
  EXPECT_FALSE(std::filesystem::exists(stats + ".partial"));
}

TEST(cli, stats_are_byte_identical) {
  std::string a = std::string(GPUTLM_TEST_TMP) + "/stats_a.json";
  std::string b = std::string(GPUTLM_TEST_TMP) + "/stats_b.json";
  const std::string trace = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/vectoradd";
  for (const auto& f : {a, b}) {
    auto r = run_command(gputlm_bin() + " run " + k_fermi + " " + trace +
                             " --no-wall-clock --stats-form=full --stats " + f,
                         "stats");
    ASSERT_EQ(r.status, 0) << r.err;
  }
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_NE(slurp(a).find("\"total_cycles\": "), std::string::npos);
  EXPECT_EQ(slurp(a).find("wall_seconds"), std::string::npos);
}

TEST(cli, documented_example_elaborates) {
  std::string doc = slurp(std::string(GPUTLM_SOURCE_DIR) + "/docs/platforms.md");
  auto start = doc.find("```yaml\n", doc.find("A two-SM toy platform"));
  ASSERT_NE(start, std::string::npos);
  start += 8;
  std::string yaml = doc.substr(start, doc.find("```", start) - start);
  std::string path = std::string(GPUTLM_TEST_TMP) + "/toy.yaml";
  write_text(path, yaml);
  auto r = run_command(gputlm_bin() + " elaborate " + path, "toy");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  smx: 2\n"), std::string::npos);
  // kmu, scheduler->kd, doorbell, 2 TBCR, 2 LDST, 2 launch, 2 L1->icnt, 2 icnt->L2, 2 L2->DRAM
  EXPECT_NE(r.out.find("socket bindings: 15\n"), std::string::npos) << r.out;
}

// The livelock watchdog (--watchdog): a healthy run reports progress often enough that a
// low limit does not stop it and its statistics do not change; a limit of 1 trips at the
// first busy instant without progress, which exercises the stop: exit status 1, the
// blocks' pending work, one message naming the cycle and the blocks still waking, no
// statistics or waveforms written. A bad count is bad input.
TEST(cli, watchdog) {
  const std::string trace = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/bfs";
  const std::string tmp = std::string(GPUTLM_TEST_TMP);
  const std::string base = gputlm_bin() + " run " + k_fermi + " " + trace + " --no-wall-clock";
  // bfs runs about 40,000 cycles on Fermi, through far more busy instants than 2000: only
  // the progress reports keep the count low.
  auto plain =
      run_command(base + " --stats-form=full --stats " + tmp + "/wd_plain.json", "wd_plain");
  ASSERT_EQ(plain.status, 0) << plain.err;
  auto low = run_command(
      base + " --watchdog 2000 --stats-form=full --stats " + tmp + "/wd_low.json", "wd_low");
  ASSERT_EQ(low.status, 0) << low.err;
  EXPECT_EQ(slurp(tmp + "/wd_plain.json"), slurp(tmp + "/wd_low.json"));

  for (const char* f :
       {"/wd_trip.json", "/wd_trip.vcd", "/wd_trip.json.partial", "/wd_trip.vcd.partial"})
    std::filesystem::remove(tmp + f);
  auto trip = run_command(base + " --watchdog 1 --stats-form=full --stats " + tmp +
                              "/wd_trip.json --vcd " + tmp + "/wd_trip.vcd",
                          "wd_trip");
  EXPECT_EQ(trip.status, 1);
  EXPECT_NE(trip.err.find("internal error: no progress for 1 busy instants, stopped at cycle "),
            std::string::npos)
      << trip.err;
  EXPECT_NE(trip.err.find("(a livelock; see --watchdog); still waking: gpu."), std::string::npos)
      << trip.err;
  for (const char* f :
       {"/wd_trip.json", "/wd_trip.vcd", "/wd_trip.json.partial", "/wd_trip.vcd.partial"})
    EXPECT_FALSE(std::filesystem::exists(tmp + f)) << f;
  // The report says where the work is: the SMXs' warps (at the first busy instant each
  // warp waits for its first instruction line, the L1I being cold) and, with the fetch
  // always hitting, the memory side's queues (the first misses still in the L1's pipeline).
  for (const char* line : {"\n  gpu.smx[0]: 2 live warps, 1 requests in flight, ",
                           " w0:0/1316 ifetch w1:0/9 ifetch\n"})
    EXPECT_NE(("\n" + trip.err).find(line), std::string::npos) << line << "\n" << trip.err;
  auto hits = run_command(base + " --set gpu.smx.icache_perfect=true --watchdog 1", "wd_hits");
  EXPECT_EQ(hits.status, 1);
  for (const char* line : {"\n  gpu.smx[0]: 2 live warps, ", "\n  gpu.smx[0].l1: input ",
                           "misses queued 0 (+2 in the pipeline); MSHRs 2/64\n"})
    EXPECT_NE(("\n" + hits.err).find(line), std::string::npos) << line << "\n" << hits.err;

  for (const char* bad : {"abc", "-1", "12x", "\"\""}) {
    auto r = run_command(base + " --watchdog " + bad, "wd_bad");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--watchdog: expected a count (0 or more)"), std::string::npos) << r.err;
  }
}

// A kernel whose TB no SMX can hold, or whose grid overflows the 32-bit TB ids, is an input
// error at load naming the kernel file, the header key and the limit (not a deadlock after
// simulating); a grid larger than the TBs the trace has fails at the first missing TB
// without sizing anything from the header's claim.
TEST(cli, bad_kernels_that_cannot_run) {
  const std::string sample = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/vectoradd";
  struct bad_case {
    std::string from, to, expect;
  };
  const std::vector<bad_case> cases = {
      {"-block dim = (256,1,1)", "-block dim = (2048,1,1)",
       "-block dim: a TB of kernel 1 (_Z9vectorAddPKfS0_Pfi) has 2,048 threads; an SMX holds "
       "at most 1,536"},
      {"-nregs = 10", "-nregs = 200",
       "-nregs: a TB of kernel 1 (_Z9vectorAddPKfS0_Pfi) needs 51,200 registers (256 threads "
       "x 200 per thread, allocated in fours); an SMX has at most 32,768"},
      {"-shmem = 0", "-shmem = 49153",
       "-shmem: a TB of kernel 1 (_Z9vectorAddPKfS0_Pfi) needs 49,153 B of shared memory; an "
       "SMX has at most 49,152 B"},
      {"-grid dim = (40,1,1)", "-grid dim = (65536,65536,1)",
       "-grid dim: kernel 1 (_Z9vectorAddPKfS0_Pfi) has 4,294,967,296 TBs, more than the "
       "4,294,967,295 a kernel may have"},
      {"-grid dim = (40,1,1)", "-grid dim = (4294967295,1,1)",
       "thread block (40,0,0) (linear id 40) is not in the trace"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::filesystem::path dir =
        std::filesystem::path(GPUTLM_TEST_TMP) / ("cannot_run_" + std::to_string(n++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::filesystem::copy(sample + "/kernelslist.g", dir / "kernelslist.g");
    std::string text = slurp(sample + "/kernel-1.traceg");
    const auto pos = text.find(c.from);
    ASSERT_NE(pos, std::string::npos) << c.from;
    text.replace(pos, c.from.size(), c.to);
    {
      std::ofstream out(dir / "kernel-1.traceg");
      out << text;
    }
    const std::string stats = (dir / "s.json").string();
    auto r = run_command(gputlm_bin() + " run " + k_fermi + " " + dir.string() +
                             " --no-wall-clock --stats-form=full --stats " + stats,
                         "cannot_run");
    EXPECT_EQ(r.status, 2) << c.to << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find((dir / "kernel-1.traceg").string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(stats));
  }
}

// Text that is not UTF-8 (a kernel name, a platform name, a directory name) does not make
// the run fail at the end: the statistics are written, invalid bytes replaced by U+FFFD.
TEST(cli, non_utf8_names_are_replaced_in_the_statistics) {
  const std::string sample = std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/vectoradd";
  const std::filesystem::path dir = std::filesystem::path(GPUTLM_TEST_TMP) / "utf8_\xff\xfe";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy(sample + "/kernelslist.g", dir / "kernelslist.g");
  std::string text = slurp(sample + "/kernel-1.traceg");
  const std::string name = "_Z9vectorAddPKfS0_Pfi";
  text.replace(text.find(name), name.size(), "vec\xc3\x28tor");  // an invalid 2-byte sequence
  {
    std::ofstream out(dir / "kernel-1.traceg");
    out << text;
  }
  const mutated m = mutate("utf8_platform", "name: fermi-gtx480", "name: fermi-\xe9t\xe9");
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/utf8_stats.json";
  std::filesystem::remove(stats);
  auto r = run_command(gputlm_bin() + " run " + m.path + " '" + dir.string() +
                           "' --no-wall-clock --stats-form=full --stats " + stats,
                       "utf8_run");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = slurp(stats);
  EXPECT_NE(json.find("vec\xef\xbf\xbd(tor"), std::string::npos);  // U+FFFD, then '('
  EXPECT_EQ(json.find('\xff'), std::string::npos);
  EXPECT_EQ(json.find('\xe9'), std::string::npos);
}

}  // namespace test_cli
