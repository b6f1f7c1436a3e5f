// The YAML reader on its own (no SystemC): schema errors carry file, line, column and key.
#include <gtest/gtest.h>

#include "models/common/input_error.h"
#include "platforms/platform_spec.h"
#include "tests/common/run_command.h"

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
  override_spec l = parse_set_option("smx.pipeline_widths=[1, 2, 3]");
  ASSERT_TRUE(l.value.is_sequence);
  EXPECT_EQ(l.value.items.size(), 3u);
  EXPECT_THROW(parse_set_option("smx.l1.size"), input_error);
}

TEST(platform_yaml, closest_match) {
  EXPECT_EQ(closest_match("szie", {"size", "sets", "ways"}), "size");
  EXPECT_EQ(closest_match("hit_latncy", {"hit_latency", "banks"}), "hit_latency");
  EXPECT_EQ(closest_match("zzzzzz", {"size", "sets"}), "");
}
