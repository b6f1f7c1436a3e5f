// The layering of docs/architecture.md, checked on the sources' #include lines: the base
// (models/base) is plain C++ below the trace front end and the models; the trace front end
// sees only the base; the component base and every block reach the power model only
// through power_registry; no block includes another family's block implementation
// (a mechanism is bound by port, never constructed or cast to).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace test_layering {

namespace fs = std::filesystem;

namespace {

const fs::path k_root = GPUTLM_SOURCE_DIR;

struct include_line {
  std::string file;  // project-relative
  int line;
  std::string header;  // as written
  bool quoted;
};

std::vector<include_line> includes_under(const std::string& dir) {
  static const std::regex k_include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  std::vector<include_line> out;
  for (const auto& e : fs::recursive_directory_iterator(k_root / dir)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    std::ifstream in(e.path());
    std::string text;
    int n = 0;
    while (std::getline(in, text)) {
      ++n;
      std::smatch m;
      if (std::regex_search(text, m, k_include))
        out.push_back({fs::relative(e.path(), k_root).string(), n, m[2], m[1] == "\""});
    }
  }
  return out;
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

bool systemc_header(const include_line& i) {
  return !i.quoted && (i.header == "systemc" || i.header == "systemc.h" || i.header == "tlm" ||
                       i.header == "tlm.h" || starts_with(i.header, "sysc/") ||
                       starts_with(i.header, "tlm_utils/") || starts_with(i.header, "tlm_core/"));
}

std::string where(const include_line& i) {
  return i.file + ":" + std::to_string(i.line) + ": " + i.header;
}

TEST(layering, the_base_is_plain_cpp_and_includes_only_itself) {
  const auto inc = includes_under("models/base");
  ASSERT_FALSE(inc.empty());
  for (const auto& i : inc) {
    EXPECT_FALSE(systemc_header(i)) << where(i);
    if (i.quoted) {
      EXPECT_TRUE(starts_with(i.header, "models/base/")) << where(i);
    }
  }
}

TEST(layering, the_trace_front_end_sees_only_the_base) {
  const auto inc = includes_under("traces");
  ASSERT_FALSE(inc.empty());
  for (const auto& i : inc) {
    EXPECT_FALSE(systemc_header(i)) << where(i);
    if (i.quoted) {
      EXPECT_TRUE(starts_with(i.header, "traces/") || starts_with(i.header, "models/base/"))
          << where(i);
    }
  }
}

TEST(layering, only_the_power_family_includes_the_power_model) {
  for (const auto& i : includes_under("models")) {
    if (starts_with(i.file, "models/power/")) continue;
    EXPECT_NE(i.header, "models/power/power_model.h") << where(i);
  }
}

TEST(layering, the_component_base_includes_no_block_family) {
  // models/common may use the power component (a data structure of energies and states),
  // not a block, a controller or the power model.
  for (const auto& i : includes_under("models/common")) {
    if (!i.quoted) continue;
    EXPECT_TRUE(starts_with(i.header, "models/common/") || starts_with(i.header, "models/base/") ||
                i.header == "models/power/power_component.h")
        << where(i);
  }
}

TEST(layering, the_gpu_blocks_include_no_mechanism) {
  // The SMX and the caches hold no mechanism code: they include no controller and no
  // gating policy beyond the power component's interface.
  const std::vector<std::string> blocks{"models/core/smx.h",         "models/core/smx.cpp",
                                        "models/memory/l1_cache.h",  "models/memory/l1_cache.cpp",
                                        "models/memory/l2_cache.h",  "models/memory/l2_cache.cpp"};
  const std::regex k_mechanism(
      "(snooze|slumber|switch_controller|control_unit|paver|laperm|wrf|dtbl)", std::regex::icase);
  int seen = 0;
  for (const std::string dir : {"models/core", "models/memory"})
    for (const auto& i : includes_under(dir)) {
      if (std::find(blocks.begin(), blocks.end(), i.file) == blocks.end()) continue;
      ++seen;
      EXPECT_FALSE(std::regex_search(i.header, k_mechanism)) << where(i);
    }
  EXPECT_GT(seen, 0);
}

}  // namespace

}  // namespace test_layering
