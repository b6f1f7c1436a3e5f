// Every `gputlm` command the README and the docs show runs as written. README.md: the lines
// of its ```sh blocks that start with build/sc_main/gputlm. docs/*.md: the lines of their
// code blocks (``` or ```sh) that start with build/sc_main/gputlm or gputlm, continuation
// lines joined; a synopsis (a token in capitals such as PLATFORM.yaml or FILE, or an
// optional part in [brackets]) is not a command, except that TRACE in an otherwise concrete
// command stands for a bundled sample; `experiment` commands are checked with --dry-run
// (their runs take minutes to hours; the dry run elaborates every platform and
// configuration and checks the metrics). Each runs, in order, from a scratch folder that
// looks like the source tree (yaml/ and traces/ linked, the binary at build/sc_main/gputlm,
// a GPGPU-Sim configuration as gpgpusim.config and trace.config, /tmp/ moved into it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_readme {

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

// `line` without a trailing comment (a '#' after a space, outside quotes) and spaces.
std::string strip_comment(std::string line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (quote) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
    } else if (line[i] == '#' && i > 0 && line[i - 1] == ' ') {
      line.resize(i);
      break;
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// The gputlm commands of a Markdown text's code blocks: `sh_only` reads ```sh blocks and
// lines starting with build/sc_main/gputlm (the README), else also untagged blocks and
// lines starting with gputlm, continuation lines joined.
std::vector<std::string> shown_commands(const std::string& text, bool sh_only) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool in_block = false, commands = false;  // in a code block; in one of commands
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      in_block = !in_block;
      commands = in_block && (line == "```sh" || (!sh_only && line == "```"));
      continue;
    }
    if (!commands) continue;
    const bool full = line.rfind("build/sc_main/gputlm ", 0) == 0;
    if (!full && (sh_only || line.rfind("gputlm ", 0) != 0)) continue;
    std::string cmd = full ? line : "build/sc_main/" + line;
    while (!cmd.empty() && cmd.back() == '\\' && std::getline(in, line)) {
      cmd.pop_back();
      std::size_t from = line.find_first_not_of(' ');
      cmd += from == std::string::npos ? "" : line.substr(from);
    }
    out.push_back(strip_comment(cmd));
  }
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// A synopsis rather than a command: an optional part or a placeholder in capitals.
bool is_synopsis(const std::string& cmd) {
  static const std::regex placeholder(R"((^| )\[|(^| )[A-Z][A-Z_]+(\.[a-z]+)?( |$))");
  return std::regex_search(cmd, placeholder);
}

// A scratch folder laid out like the source tree.
fs::path scratch_tree(const std::string& name) {
  const fs::path src = GPUTLM_SOURCE_DIR;
  const fs::path t = fs::path(GPUTLM_TEST_TMP) / name;
  fs::remove_all(t);
  fs::create_directories(t / "build" / "sc_main");
  fs::create_directories(t / "tmp");
  fs::create_directory_symlink(src / "yaml", t / "yaml");
  fs::create_directory_symlink(src / "traces", t / "traces");
  fs::create_symlink(fs::absolute(gputlm_bin()), t / "build" / "sc_main" / "gputlm");
  fs::copy_file(src / "tests/data/titanv.gpgpusim.config", t / "gpgpusim.config");
  fs::copy_file(src / "tests/data/titanv.trace.config", t / "trace.config");
  return t;
}

int run_all(const fs::path& t, const std::vector<std::string>& cmds, const std::string& tag) {
  int n = 0;
  for (const std::string& c : cmds) {
    const std::string cmd = replace_all(c, "/tmp/", (t / "tmp").string() + "/");
    auto r = run_command("cd '" + t.string() + "' && " + cmd, tag + std::to_string(n++));
    EXPECT_EQ(r.status, 0) << c << "\n" << r.err;
  }
  return n;
}

}  // namespace

TEST(readme, every_gputlm_command_runs_as_written) {
  const fs::path t = scratch_tree("readme");
  const std::vector<std::string> cmds =
      shown_commands(slurp(std::string(GPUTLM_SOURCE_DIR) + "/README.md"), true);
  ASSERT_GE(cmds.size(), 8u);
  run_all(t, cmds, "readme_");
}

TEST(docs, every_gputlm_command_runs_as_written) {
  const fs::path t = scratch_tree("docs");
  std::vector<fs::path> pages;
  for (const auto& e : fs::directory_iterator(fs::path(GPUTLM_SOURCE_DIR) / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  std::vector<std::string> cmds;
  std::size_t synopses = 0;
  for (const auto& page : pages)
    for (std::string c : shown_commands(slurp(page.string()), false)) {
      c = replace_all(c, " TRACE ", " traces/samples/vectoradd ");
      if (is_synopsis(c)) {
        ++synopses;
        continue;
      }
      if (c.rfind("build/sc_main/gputlm experiment ", 0) == 0) c += " --dry-run";
      cmds.push_back(c);
    }
  // Hand count of the pages' commands and synopses when this test was written: at least
  // that many are found (a page's command going missing from the scan fails here).
  EXPECT_GE(cmds.size(), 14u);
  EXPECT_GE(synopses, 5u);
  run_all(t, cmds, "docs_");
}

TEST(docs, commands_are_read_from_code_blocks_only) {
  const std::string md =
      "gputlm run not/in/a/block\n"
      "```sh\n"
      "build/sc_main/gputlm run a b --vcd x.vcd \\\n"
      "    --trace 'smx[0].*'   # a comment\n"
      "gputlm trace gen --list\n"
      "```\n"
      "```yaml\n"
      "gputlm: not a command\n"
      "```\n"
      "```\n"
      "gputlm elaborate PLATFORM.yaml [--set k=v]...\n"
      "```\n";
  const auto all = shown_commands(md, false);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], "build/sc_main/gputlm run a b --vcd x.vcd --trace 'smx[0].*'");
  EXPECT_EQ(all[1], "build/sc_main/gputlm trace gen --list");
  EXPECT_FALSE(is_synopsis(all[0]));
  EXPECT_FALSE(is_synopsis(all[1]));
  EXPECT_TRUE(is_synopsis(all[2]));
  const auto readme = shown_commands(md, true);
  ASSERT_EQ(readme.size(), 1u);
}

}  // namespace test_readme
