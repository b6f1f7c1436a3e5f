// Every `gputlm` command README.md shows runs as written: the lines of its ```sh blocks
// that start with build/sc_main/gputlm are run, in order, from a scratch folder that looks
// like the source tree (yaml/ and traces/ linked, the binary at build/sc_main/gputlm, a
// GPGPU-Sim configuration as gpgpusim.config and trace.config, /tmp/ moved into it).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/common/run_command.h"

using namespace gputlm::testing;
namespace fs = std::filesystem;

namespace {

// The README's gputlm commands, trailing comments removed.
std::vector<std::string> readme_commands(const std::string& readme) {
  std::vector<std::string> out;
  std::istringstream in(readme);
  std::string line;
  bool in_sh = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      in_sh = !in_sh && line == "```sh";
      continue;
    }
    if (!in_sh || line.rfind("build/sc_main/gputlm ", 0) != 0) continue;
    // A comment starts at a '#' after a space, outside quotes.
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
    out.push_back(line);
  }
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

}  // namespace

TEST(readme, every_gputlm_command_runs_as_written) {
  const fs::path src = GPUTLM_SOURCE_DIR;
  const fs::path t = fs::path(GPUTLM_TEST_TMP) / "readme";
  fs::remove_all(t);
  fs::create_directories(t / "build" / "sc_main");
  fs::create_directories(t / "tmp");
  fs::create_directory_symlink(src / "yaml", t / "yaml");
  fs::create_directory_symlink(src / "traces", t / "traces");
  fs::create_symlink(fs::absolute(gputlm_bin()), t / "build" / "sc_main" / "gputlm");
  fs::copy_file(src / "tests/data/titanv.gpgpusim.config", t / "gpgpusim.config");
  fs::copy_file(src / "tests/data/titanv.trace.config", t / "trace.config");

  const std::vector<std::string> cmds = readme_commands(slurp((src / "README.md").string()));
  ASSERT_GE(cmds.size(), 8u);
  int n = 0;
  for (const std::string& c : cmds) {
    const std::string cmd = replace_all(c, "/tmp/", (t / "tmp").string() + "/");
    auto r = run_command("cd '" + t.string() + "' && " + cmd, "readme_" + std::to_string(n++));
    EXPECT_EQ(r.status, 0) << c << "\n" << r.err;
  }
}
