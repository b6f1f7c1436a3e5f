// Topology stated once (docs/platforms.md, "Variables, appended bindings, derived arrays"):
// `vars:` in counts, bindings and `${...}` values, `--set vars.x`, `bind+:` appending to a
// base's list, socket arrays sized by their bindings, and where each error points (the file
// of a base chain that wrote the value). Each case runs `gputlm elaborate` on platforms
// written here; the expected counts are worked out by hand from the text.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/common/run_command.h"

namespace test_topology {

using namespace gputlm::testing;

namespace {

const std::string k_tmp = GPUTLM_TEST_TMP;

// A toy chip: `sms` SMXs, `banks` L2 banks on one DRAM channel.
const std::string k_toy = R"(platform:
  name: toy
vars:
  sms: 3
  banks: sms - 1
  hit: 2 * banks + 1
  map: "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"
clocks:
  core: { frequency: 1GHz }
gpu:
  type: gpu
  clock: core
  kmu: { type: kmu }
  kd: { type: kernel_distributor }
  tbs: { type: smx_scheduler }
  smx:
    type: smx
    count: sms
    l1: { type: l1_cache, size: 16KiB, sets: 32, ways: 4, hit_latency: "${hit}cycles" }
    bind:
      - ldst -> l1.core
  icnt: { type: crossbar, address_map: "${map}" }
  l2: { type: l2_cache, count: banks, size: 64KiB, sets: 64, ways: 8 }
  dram: { type: dram_channel }
  bind:
    - kmu.kd -> kd.kmu
    - tbs.kd -> kd.scheduler
    - kd.doorbell -> tbs.doorbell
    - tbs.smx[i] -> smx[*].tbcr
    - smx[*].launch -> kmu.smx[i]
    - smx[*].l1.icnt -> icnt.smx[i]
    - icnt.mem[i] -> l2[*].icnt
    - l2[*].dram -> dram.l2[i]
)";

std::string write(const std::string& name, const std::string& text) {
  const std::string path = k_tmp + "/" + name;
  write_text(path, text);
  return path;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The line of `text` holding the first `what` (1-based).
std::size_t line_of(const std::string& text, const std::string& what) {
  return 1 + std::count(text.begin(), text.begin() + text.find(what), '\n');
}

command_result elaborate(const std::string& path, const std::string& tag,
                         const std::string& extra = "") {
  return run_command(gputlm_bin() + " elaborate " + path + " " + extra, tag);
}

std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

}  // namespace

// sms = 3, banks = sms - 1 = 2 (defined after... before its use: order does not matter),
// hit = 2 * 2 + 1 = 5. Bindings: kmu->kd, tbs->kd, doorbell (3), 3 TBCR, 3 launch, 3 LDST
// (the SMXs' own list), 3 L1->icnt, 2 icnt->L2, 2 L2->DRAM: 19.
TEST(topology, vars_give_counts_bindings_and_values) {
  const std::string p = write("topo_vars.yaml", k_toy);
  auto r = elaborate(p, "topo_vars");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  smx: 3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  l2_cache: 2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("socket bindings: 19\n"), std::string::npos) << r.out;
  auto d = elaborate(p, "topo_vars_dump", "-q --dump-config");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("hit_latency: 5cycles"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("address_map: dramid@8;00000000."), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("vars:\n  banks: 2\n  hit: 5\n  sms: 3\n"), std::string::npos) << d.out;
  // The dump reloads to the same platform.
  const std::string again = write("topo_vars_again.yaml", d.out);
  auto a = elaborate(again, "topo_vars_again");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.out.find("socket bindings: 19\n"), std::string::npos) << a.out;
}

// --set vars.sms=5: 5 SMXs and 4 banks, so 3 + 5 x 4 + 4 x 2 = 31 bindings; the crossbar's
// and the scheduler's socket arrays follow.
TEST(topology, a_var_set_on_the_command_line_changes_the_topology) {
  const std::string p = write("topo_set.yaml", k_toy);
  auto r = elaborate(p, "topo_set", "--set vars.sms=5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  smx: 5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  l2_cache: 4\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("socket bindings: 31\n"), std::string::npos) << r.out;
  auto u = elaborate(p, "topo_set_unknown", "-q --set vars.smz=5");
  EXPECT_EQ(u.status, 2);
  EXPECT_EQ(u.err,
            "error: --set vars.smz=5: vars.smz: the platform has no variable 'smz'; did you mean "
            "'sms'?\n");
}

TEST(topology, bad_vars_are_one_line_at_their_key) {
  struct bad {
    std::string from, to, key, message, at;
  };
  const std::vector<bad> cases = {
      {"  hit: 2 * banks + 1", "  hit: 2 * bankz + 1", "vars.hit",
       "bad expression '2 * bankz + 1': 'bankz' is not one of the platform's vars", "  hit:"},
      {"  sms: 3", "  sms: banks + 1", "vars.sms", "refer to one another in a cycle", "  sms:"},
      {"    count: sms", "    count: sms - 3", "gpu.smx.count",
       "count must be at least 1 ('sms - 3' is 0)", "    count: sms"},
      {"    count: sms", "    count: sms * 1000", "gpu.smx.count",
       "count must be at most 1024 ('sms * 1000' is 3000)", "    count: sms"},
      {"\"${hit}cycles\"", "\"${hits}cycles\"", "gpu.smx[0].l1.hit_latency",
       "bad expression '${hits}': 'hits' is not one of the platform's vars", "hit_latency"},
      {"\"${hit}cycles\"", "\"${hit cycles\"", "gpu.smx[0].l1.hit_latency",
       "'${' is not closed by '}'", "hit_latency"},
      {"dram.l2[i]", "dram.l2[i / (banks - 2)]", "gpu.bind[7]", "divides by zero",
       "l2[*].dram ->"},
  };
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const std::string text = replaced(k_toy, cases[n].from, cases[n].to);
    const std::string p = write("topo_bad_" + std::to_string(n) + ".yaml", text);
    auto r = elaborate(p, "topo_bad_" + std::to_string(n), "-q");
    EXPECT_EQ(r.status, 2) << cases[n].to;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    const std::string where = p + ":" + std::to_string(line_of(text, cases[n].at)) + ":";
    EXPECT_EQ(r.err.find("error: " + where), 0u) << "expected at " << where << "\n" << r.err;
    EXPECT_NE(r.err.find(cases[n].key + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(cases[n].message), std::string::npos) << r.err;
  }
}

// A variant appends to its base's list with `bind+:`; the base's lines stay. Here the base
// leaves its L2 banks unbound from the DRAM, which only the variant's line binds.
TEST(topology, bind_plus_appends_to_the_base_list) {
  write("topo_base.yaml", replaced(k_toy, "    - l2[*].dram -> dram.l2[i]\n", ""));
  auto b = elaborate(k_tmp + "/topo_base.yaml", "topo_base", "-q");
  EXPECT_EQ(b.status, 2);  // the DRAM has no sub-partition bound: its sockets do not exist
  EXPECT_NE(b.err.find("gpu.dram.l2: no binding names l2[0]"), std::string::npos) << b.err;
  const std::string v = write("topo_variant.yaml",
                              "base: topo_base.yaml\n"
                              "gpu:\n"
                              "  bind+:\n"
                              "    - l2[*].dram -> dram.l2[i]\n");
  auto r = elaborate(v, "topo_variant");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("socket bindings: 19\n"), std::string::npos) << r.out;
  // A variant of the variant appends again (and a plain `bind:` would replace all).
  const std::string w = write("topo_variant2.yaml",
                              "base: topo_variant.yaml\n"
                              "gpu:\n"
                              "  smx:\n"
                              "    ni: { type: network_interface }\n"
                              "    bind+:\n"
                              "      - ni.out -> ni_sink.in\n");
  auto e = elaborate(w, "topo_variant2", "-q");
  EXPECT_EQ(e.status, 2);
  // The appended line is reported in the file that wrote it, with its place in the merged list.
  EXPECT_EQ(e.err.find("error: " + w + ":6:9: gpu.smx.bind[1]: no block 'gpu.smx[0].ni_sink'"), 0u)
      << e.err;
}

// An error in a value a base wrote is reported in the base, even through variants.
TEST(topology, errors_name_the_file_of_the_base_chain_that_wrote_the_value) {
  const std::string base_text = replaced(k_toy, "  banks: sms - 1", "  banks: sms - nope");
  write("topo_chain_base.yaml", base_text);
  const std::string v =
      write("topo_chain_top.yaml", "base: topo_chain_base.yaml\nvars:\n  sms: 4\n");
  auto r = elaborate(v, "topo_chain", "-q");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: " + k_tmp + "/topo_chain_base.yaml:" +
                       std::to_string(line_of(base_text, "  banks:")) +
                       ":3: vars.banks: bad expression 'sms - nope': 'nope' is not one of the "
                       "platform's vars\n");
  // The variant's value makes the base's count impossible: the count is the base's line.
  const std::string v2 =
      write("topo_chain_top2.yaml", "base: ../tmp/topo_base_ok.yaml\nvars:\n  sms: 0\n");
  write("topo_base_ok.yaml", k_toy);
  auto r2 = elaborate(v2, "topo_chain2", "-q");
  EXPECT_EQ(r2.status, 2);
  EXPECT_EQ(r2.err, "error: " + k_tmp + "/topo_base_ok.yaml:" +
                        std::to_string(line_of(k_toy, "    count: sms")) +
                        ":12: gpu.smx.count: count must be at least 1 ('sms' is 0)\n");
  // A bad expression the variant wrote: the variant's line.
  const std::string v3 =
      write("topo_chain_top3.yaml", "base: topo_base_ok.yaml\nvars:\n  sms: 2 +\n");
  auto r3 = elaborate(v3, "topo_chain3", "-q");
  EXPECT_EQ(r3.status, 2);
  EXPECT_EQ(r3.err.find("error: " + v3 + ":3:3: vars.sms: bad expression '2 +': ends early"), 0u)
      << r3.err;
}

// Socket arrays sized by their bindings: the [*] goes on the side whose count is known; over
// a derived array it matches nothing, and a gap in the indices leaves a socket unbound.
TEST(topology, derived_arrays_and_their_errors) {
  const std::string wild =
      replaced(k_toy, "    - tbs.smx[i] -> smx[*].tbcr", "    - tbs.smx[*] -> smx[i].tbcr");
  const std::string p = write("topo_wild.yaml", wild);
  auto r = elaborate(p, "topo_wild", "-q");
  EXPECT_EQ(r.status, 2);
  // Nothing else binds tbs.smx[i]: the scheduler has no TBCR socket and says so first.
  EXPECT_NE(r.err.find("gpu.tbs.smx: no binding names smx[0]"), std::string::npos) << r.err;
  const std::string gap =
      replaced(k_toy, "    - smx[*].launch -> kmu.smx[i]", "    - smx[*].launch -> kmu.smx[2 * i]");
  const std::string g = write("topo_gap.yaml", gap);
  auto e = elaborate(g, "topo_gap", "-q");
  EXPECT_EQ(e.status, 2);
  // kmu.smx[0], [2], [4] bound: the array has 5, and [1] is the first never bound.
  EXPECT_NE(e.err.find("gpu.kmu.smx[1]: target socket is never bound"), std::string::npos)
      << e.err;
  // A fixed array (the crossbar's mem ports are derived, a DRAM's l2 too): [*] over one
  // that the bindings size is refused with the reason.
  const std::string over =
      replaced(k_toy, "    - icnt.mem[i] -> l2[*].icnt", "    - icnt.mem[*] -> l2[i].icnt");
  const std::string o = write("topo_over.yaml", over);
  auto x = elaborate(o, "topo_over", "-q");
  EXPECT_EQ(x.status, 2);
  EXPECT_NE(x.err.find("gpu.icnt.mem: no binding names mem[0]"), std::string::npos) << x.err;
}

namespace {
// yaml/spu.yaml (typed ports: the SMs' neighbour paths, the runtime's units and barrier)
// with `from` replaced by `to`, written beside the tests' files.
std::string spu_with(const std::string& tag, const std::string& from, const std::string& to) {
  std::string text = slurp(std::string(GPUTLM_SOURCE_DIR) + "/yaml/spu.yaml");
  text = replaced(text, "base: fermi.yaml", "base: " + std::string(GPUTLM_SOURCE_DIR) +
                                                "/yaml/fermi.yaml");
  return write("ports_" + tag + ".yaml", replaced(text, from, to));
}

void expect_port_error(const std::string& tag, const std::string& from, const std::string& to,
                       const std::string& says) {
  const std::string p = spu_with(tag, from, to);
  auto r = elaborate(p, "ports_" + tag, "-q");
  EXPECT_EQ(r.status, 2) << tag;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.find("error: " + p + ":"), 0u) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << tag << ": " << r.err;
}
}  // namespace

// Typed ports are bound like sockets, with the same checks, each one line naming the
// binding (or the block) and exit status 2.
TEST(topology, port_binding_errors) {
  expect_port_error("unbound", "      - links.sm -> tb_release\n", "",
                    "gpu.smx[0].links.sm: port (gputlm::core::block_sync_release) is never bound "
                    "(add it to a 'bind:' list)");
  expect_port_error("twice", "      - links.sm -> tb_release\n",
                    "      - links.sm -> tb_release\n      - links.sm -> tb_release\n",
                    "port 'gpu.smx[0].links.sm' is already bound at ");
  expect_port_error("interface", "    - spu.sync -> spu_sync.control",
                    "    - spu.sync -> cb[0].swap",
                    "'gpu.spu.sync' calls gputlm::spu::barrier_control, but 'gpu.cb[0].swap' "
                    "provides gputlm::spu::link_swap");
  expect_port_error("unknown", "    - spu.sync -> spu_sync.control",
                    "    - spu.sync -> spu_sync.contrl", "no socket or port 'gpu.spu_sync.contrl'");
  expect_port_error("unknown_block", "    - spu.sync -> spu_sync.control",
                    "    - spu.sync -> spu_synk.control", "no block 'gpu.spu_synk'");
  expect_port_error("to_socket", "    - spu.sync -> spu_sync.control",
                    "    - spu.sync -> spu_sync.unit[0]",
                    "'gpu.spu.sync' is a port, 'gpu.spu_sync.unit[0]' a socket");
  expect_port_error("export_left", "    - spu.sync -> spu_sync.control",
                    "    - spu_sync.control -> spu.sync",
                    "'gpu.spu_sync.control' is an export; the left side must be a port");
  // An optional port may stay unbound: the runtime without its barrier elaborates (a kernel
  // with the global sync is refused when it comes).
  const std::string ok = spu_with("optional", "    - spu.sync -> spu_sync.control\n", "");
  auto r = elaborate(ok, "ports_optional", "-q");
  EXPECT_EQ(r.status, 0) << r.err;
}

}  // namespace test_topology
