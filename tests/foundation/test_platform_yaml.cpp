// The YAML reader on its own (no SystemC): schema errors carry file, line, column and key.
#include <gtest/gtest.h>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"
#include "platforms/platform_spec.h"
#include "tests/common/run_command.h"

namespace test_platform_yaml {

using gputlm::closest_match;
using gputlm::input_error;
using namespace gputlm::platforms;

namespace {
std::string temp_yaml(const std::string& name, const std::string& text) {
  std::string path = std::string(GPUTLM_TEST_TMP) + "/" + name;
  gputlm::testing::write_text(path, text);
  return path;
}

// Runs the loader and returns the error message ("" when it loads).
std::string load_error(const std::string& path) {
  try {
    load_platform_yaml(path);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(platform_yaml, reads_blocks_counts_bindings_and_locations) {
  auto path = temp_yaml("small.yaml",
                        "clocks:\n"
                        "  core: {frequency: 1GHz}\n"
                        "gpu:\n"
                        "  type: gpu\n"
                        "  clock: core\n"
                        "  smx:\n"
                        "    type: smx\n"
                        "    count: 4\n"
                        "    max_tbs: 3\n"
                        "    l1:\n"
                        "      type: l1_cache\n"
                        "  bind:\n"
                        "    - smx[*].l1.icnt -> icnt.smx[i]\n");
  platform_spec p = load_platform_yaml(path);
  ASSERT_EQ(p.clocks.size(), 1u);
  EXPECT_EQ(p.clocks[0].frequency.text, "1GHz");
  ASSERT_EQ(p.top.children.size(), 1u);
  const block_spec& smx = p.top.children[0];
  EXPECT_EQ(smx.type, "smx");
  EXPECT_EQ(smx.count, 4u);
  EXPECT_EQ(smx.values.at("max_tbs").text, "3");
  EXPECT_EQ(smx.values.at("max_tbs").where.line, 9u);
  EXPECT_EQ(smx.values.at("max_tbs").where.column, 5u);
  ASSERT_EQ(smx.children.size(), 1u);
  EXPECT_EQ(smx.children[0].spec_path, "gpu.smx.l1");
  ASSERT_EQ(p.top.bindings.size(), 1u);
  EXPECT_EQ(p.top.bindings[0].where.line, 13u);
}

TEST(platform_yaml, malformed_yaml_names_line) {
  auto path = temp_yaml("malformed.yaml", "clocks:\n  core: {frequency: 1GHz\ngpu:\n  type: gpu\n");
  std::string e = load_error(path);
  EXPECT_NE(e.find("malformed.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("malformed YAML"), std::string::npos) << e;
}

TEST(platform_yaml, unknown_top_level_key_suggests) {
  auto path = temp_yaml("topkey.yaml", "clocks:\n  core: {frequency: 1GHz}\ngpus:\n  type: gpu\n");
  std::string e = load_error(path);
  EXPECT_NE(e.find("topkey.yaml:3:1: gpus: unknown key 'gpus'; did you mean 'gpu'?"),
            std::string::npos)
      << e;
}

TEST(platform_yaml, count_zero_is_impossible) {
  auto path = temp_yaml("count0.yaml",
                        "clocks:\n  core: {frequency: 1GHz}\ngpu:\n  type: gpu\n  clock: core\n"
                        "  l2:\n    type: l2_cache\n    count: 0\n");
  std::string e = load_error(path);
  EXPECT_NE(e.find("count0.yaml:8:12: gpu.l2.count: count must be at least 1"), std::string::npos)
      << e;
}

TEST(platform_yaml, block_without_type) {
  auto path = temp_yaml("notype.yaml",
                        "clocks:\n  core: {frequency: 1GHz}\ngpu:\n  type: gpu\n  clock: core\n"
                        "  l2:\n    sets: 4\n");
  std::string e = load_error(path);
  EXPECT_NE(e.find("notype.yaml:6:3: gpu.l2: block has no 'type'"), std::string::npos) << e;
}

TEST(platform_yaml, missing_file) {
  std::string e = load_error("/nonexistent/platform.yaml");
  EXPECT_EQ(e, "/nonexistent/platform.yaml: cannot open platform file");
}

TEST(platform_yaml, set_option) {
  override_spec s = parse_set_option("smx[3].l1.size=32KiB");
  EXPECT_EQ(s.key, "smx[3].l1.size");
  EXPECT_EQ(s.value.text, "32KiB");
  override_spec l = parse_set_option("icnt.smx_nodes=[1, 2, 3]");
  ASSERT_TRUE(l.value.is_sequence);
  EXPECT_EQ(l.value.items.size(), 3u);
  EXPECT_THROW(parse_set_option("smx.l1.size"), input_error);
}

TEST(platform_yaml, closest_match) {
  EXPECT_EQ(closest_match("szie", {"size", "sets", "ways"}), "size");
  EXPECT_EQ(closest_match("hit_latncy", {"hit_latency", "banks"}), "hit_latency");
  EXPECT_EQ(closest_match("zzzzzz", {"size", "sets"}), "");
}

// ---- Variants: `base:` and a deep merge (docs/platforms.md, "Variants") ----

namespace {
// A base platform written for the variant tests: an SMX array with an L1, an L2, binds.
const char* k_base =
    "platform: {name: base}\n"               // 1
    "clocks:\n"                              // 2
    "  core: {frequency: 1GHz}\n"            // 3
    "gpu:\n"                                 // 4
    "  type: gpu\n"                          // 5
    "  clock: core\n"                        // 6
    "  smx:\n"                               // 7
    "    type: smx\n"                        // 8
    "    count: 4\n"                         // 9
    "    max_tbs: 8\n"                       // 10
    "    l1:\n"                              // 11
    "      type: l1_cache\n"                 // 12
    "      sets: 32\n"                       // 13
    "      ways: 4\n"                        // 14
    "  l2:\n"                                // 15
    "    type: l2_cache\n"                   // 16
    "    shared_carveouts: [1, 2]\n"         // 17
    "  bind:\n"                              // 18
    "    - smx[*].l1.icnt -> icnt.smx[i]\n"  // 19
    "    - icnt.mem[*] -> l2[i].icnt\n";     // 20

const block_spec& child(const block_spec& b, const std::string& name) {
  for (const auto& c : b.children)
    if (c.name == name) return c;
  ADD_FAILURE() << "no child " << name;
  return b;
}
}  // namespace

TEST(platform_variants, deep_keys_merge_and_the_rest_is_kept) {
  temp_yaml("v_base.yaml", k_base);
  auto path = temp_yaml("v_deep.yaml",
                        "base: v_base.yaml\n"
                        "platform: {name: variant}\n"
                        "gpu:\n"
                        "  smx:\n"
                        "    l1:\n"
                        "      ways: 8\n"
                        "      hit_latency: 3cycles\n");
  platform_spec p = load_platform_yaml(path);
  EXPECT_EQ(p.name, "variant");
  ASSERT_EQ(p.files.size(), 2u);
  EXPECT_EQ(p.files[1], std::string(GPUTLM_TEST_TMP) + "/v_base.yaml");
  const block_spec& smx = child(p.top, "smx");
  EXPECT_EQ(smx.type, "smx");
  EXPECT_EQ(smx.count, 4u);                       // from the base
  EXPECT_EQ(smx.values.at("max_tbs").text, "8");  // from the base
  const block_spec& l1 = child(smx, "l1");
  EXPECT_EQ(l1.type, "l1_cache");
  EXPECT_EQ(l1.values.at("sets").text, "32");              // base
  EXPECT_EQ(l1.values.at("ways").text, "8");               // variant wins
  EXPECT_EQ(l1.values.at("hit_latency").text, "3cycles");  // variant adds
  // Each value is located in the file that wrote it.
  EXPECT_EQ(l1.values.at("sets").where.file, std::string(GPUTLM_TEST_TMP) + "/v_base.yaml");
  EXPECT_EQ(l1.values.at("sets").where.line, 13u);
  EXPECT_EQ(l1.values.at("ways").where.file, path);
  EXPECT_EQ(l1.values.at("ways").where.line, 6u);
  ASSERT_EQ(p.top.bindings.size(), 2u);  // the base's binds, untouched
}

TEST(platform_variants, a_list_replaces_a_list) {
  temp_yaml("v_base.yaml", k_base);
  auto path = temp_yaml("v_list.yaml",
                        "base: v_base.yaml\n"
                        "gpu:\n"
                        "  l2:\n"
                        "    shared_carveouts: [7]\n"
                        "  bind:\n"
                        "    - icnt.mem[*] -> l2[i].icnt\n");
  platform_spec p = load_platform_yaml(path);
  const auto& v = child(p.top, "l2").values.at("shared_carveouts");
  ASSERT_TRUE(v.is_sequence);
  EXPECT_EQ(v.items, std::vector<std::string>{"7"});
  ASSERT_EQ(p.top.bindings.size(), 1u);
  EXPECT_EQ(p.top.bindings[0].text, "icnt.mem[*] -> l2[i].icnt");
  EXPECT_EQ(p.top.bindings[0].where.file, path);
  EXPECT_EQ(p.top.bindings[0].where.line, 6u);
}

TEST(platform_variants, chains_apply_in_order) {
  temp_yaml("v_base.yaml", k_base);
  temp_yaml("v_mid.yaml", "base: v_base.yaml\ngpu:\n  smx:\n    max_tbs: 16\n    count: 2\n");
  auto path = temp_yaml("v_top.yaml", "base: v_mid.yaml\ngpu:\n  smx:\n    count: 1\n");
  platform_spec p = load_platform_yaml(path);
  ASSERT_EQ(p.files.size(), 3u);
  const block_spec& smx = child(p.top, "smx");
  EXPECT_EQ(smx.count, 1u);                                 // the last file wins
  EXPECT_EQ(smx.values.at("max_tbs").text, "16");           // the middle one's
  EXPECT_EQ(child(smx, "l1").values.at("ways").text, "4");  // the base's
}

TEST(platform_variants, a_cycle_is_an_error_naming_the_files) {
  temp_yaml("v_c1.yaml", "base: v_c2.yaml\n");
  temp_yaml("v_c2.yaml", "platform: {name: c2}\nbase: v_c3.yaml\n");
  temp_yaml("v_c3.yaml", "base: v_c1.yaml\n");
  const std::string dir = GPUTLM_TEST_TMP;
  std::string e = load_error(dir + "/v_c1.yaml");
  EXPECT_EQ(e, dir + "/v_c3.yaml:1:7: base: the chain of bases is a cycle: " + dir +
                   "/v_c1.yaml -> " + dir + "/v_c2.yaml -> " + dir + "/v_c3.yaml -> " + dir +
                   "/v_c1.yaml");
  // A file naming itself.
  temp_yaml("v_self.yaml", "base: ./v_self.yaml\n");
  e = load_error(dir + "/v_self.yaml");
  EXPECT_NE(e.find("v_self.yaml:1:7: base: the chain of bases is a cycle"), std::string::npos) << e;
}

TEST(platform_variants, errors_name_the_file_that_wrote_the_value) {
  temp_yaml("v_base.yaml", k_base);
  // A bad value in the variant: the variant's line.
  auto bad_variant = temp_yaml("v_bad.yaml", "base: v_base.yaml\ngpu:\n  smx:\n    count: 0\n");
  EXPECT_EQ(load_error(bad_variant),
            bad_variant + ":4:12: gpu.smx.count: count must be at least 1");
  // A bad value in the base, reached through a variant: the base's line.
  temp_yaml("v_badbase.yaml", std::string(k_base) + "  zz:\n    type: l2_cache\n    count: 0\n");
  auto via = temp_yaml("v_via.yaml", "base: v_badbase.yaml\n");
  EXPECT_EQ(load_error(via),
            std::string(GPUTLM_TEST_TMP) +
                "/v_badbase.yaml:23:12: gpu.zz.count: count must be at least 1");
  // A missing base, a base that is not a path, an unknown key in the variant.
  auto missing = temp_yaml("v_missing.yaml", "base: nothere.yaml\n");
  EXPECT_EQ(load_error(missing), missing + ":1:7: base: no such platform file '" +
                                     std::string(GPUTLM_TEST_TMP) + "/nothere.yaml'");
  auto listed = temp_yaml("v_listbase.yaml", "base: [a.yaml]\n");
  EXPECT_EQ(load_error(listed),
            listed + ":1:7: base: expected the path of the platform this one starts from");
  auto typo = temp_yaml("v_typo.yaml", "base: v_base.yaml\nplatfrom: {name: x}\n");
  EXPECT_EQ(load_error(typo),
            typo + ":2:1: platfrom: unknown key 'platfrom'; did you mean 'platform'?");
}

TEST(platform_variants, a_key_given_twice_in_one_mapping_is_an_error) {
  auto path =
      temp_yaml("v_twice.yaml", "clocks:\n  core: {frequency: 1GHz}\n  core: {frequency: 2GHz}\n");
  EXPECT_EQ(load_error(path), path + ":3:3: clocks.core: key given twice in one mapping");
}

TEST(platform_variants, the_shipped_variants_load) {
  for (const char* f : {"snooze-fermi.yaml", "snooze-pascal.yaml", "snooze-volta.yaml"}) {
    const std::string path = std::string(GPUTLM_SOURCE_DIR) + "/yaml/variants/" + f;
    EXPECT_EQ(load_error(path), "") << f;
  }
}

}  // namespace test_platform_yaml
