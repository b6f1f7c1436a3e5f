// The choice of a block's implementation (rtl_source.h).
#include "models/rtl/rtl_source.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/base/shipped_files.h"

namespace gputlm::rtl {

namespace {

std::string list_of(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + (x.empty() ? std::string("none") : x);
  return s;
}

// The first error Verilator's front end reports for `file` with `top`, or "" when it
// accepts it (or cannot be run).
std::string verilator_error(const std::string& file, const std::string& top) {
  auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string cmd =
      "verilator --lint-only -Wno-fatal --top-module " + quoted(top) + " " + quoted(file) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), int(buf.size()), p)) out += buf.data();
  const int status = pclose(p);
  if (status == 0) return {};
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("%Error", 0) == 0) return line;
  return {};  // (not run: verilator missing)
}

}  // namespace

namespace {
std::string first_build(const std::string& block, std::string rtl_build::*field) {
  for (const rtl_build& b : rtl_builds())
    if (b.block == block) return b.*field;
  return {};
}
}  // namespace

rtl_choice::rtl_choice(component& owner, const std::string& group, std::string block,
                       const std::string& what)
    : m_owner(owner),
      m_group(group),
      m_block(std::move(block)),
      m_implementation{owner, (group + ".implementation").c_str(), "cpp",
                       (what + ": cpp (the C++ model) or rtl (Verilated; docs/rtl.md)").c_str()},
      m_source{owner, (group + ".rtl").c_str(), first_build(m_block, &rtl_build::source),
               "with implementation: rtl, its Verilog source (one built: docs/rtl.md)"},
      m_top{owner, (group + ".top").c_str(), first_build(m_block, &rtl_build::top),
            "with implementation: rtl, the source's top module"},
      m_define{owner, (group + ".define").c_str(), "",
               "with implementation: rtl, the define of a built variant (the tests' broken "
               "one)"} {}

void rtl_choice::validate() {
  m_implementation.require(*m_implementation == "cpp" || *m_implementation == "rtl",
                           "must be cpp or rtl");
  if (!is_rtl()) return;
  namespace fs = std::filesystem;
  const std::string named = *m_source;
  fs::path path = named;
  if (path.is_relative() && !fs::exists(path)) path = shipped_file(named);
  std::error_code ec;
  m_source.require(!named.empty() && fs::is_regular_file(path, ec),
                   "RTL source '" + named + "' not found (relative to the working directory or " +
                       shipped_root().string() + ")");
  // The built sources are a few KiB; a large file is not this block's and is not read (or
  // handed to Verilator).
  constexpr std::uintmax_t max_source = 4u << 20;
  const std::uintmax_t size = fs::file_size(path, ec);
  m_source.require(!ec && size <= max_source,
                   "RTL source '" + named + "' is " + std::to_string(size) +
                       " bytes; at most 4 MiB (the RTL built into this binary is a few KiB)");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  m_source.require(static_cast<bool>(in), "cannot read RTL source '" + named + "'");

  // The builds of this block from this text.
  std::vector<const rtl_build*> same;
  std::string other_block;
  std::vector<std::string> sources;
  for (const rtl_build& b : rtl_builds()) {
    if (text.str() != b.text) {
      if (b.block == m_block) sources.push_back(b.source);
      continue;
    }
    if (b.block == m_block)
      same.push_back(&b);
    else
      other_block = b.block;
  }
  if (same.empty()) {
    m_source.require(other_block.empty(),
                     "'" + named + "' is the RTL of " + other_block + ", not of " + m_block);
    const std::string err = verilator_error(path.string(), *m_top);
    m_source.require(err.empty(), "'" + named + "' does not build: " + err);
    m_source.require(false, "'" + named + "' differs from the " + m_block +
                                " RTL built into this binary (" + sources.front() +
                                "): rebuild (make) to co-simulate it");
  }
  std::vector<std::string> tops, defines;
  for (const rtl_build* b : same) {
    if (b->top == *m_top) defines.push_back(b->define);
    tops.push_back(b->top);
  }
  m_top.require(!defines.empty(), "no top module '" + *m_top + "' built from '" + named +
                                      "' (built: " + list_of(tops) + ")");
  for (const rtl_build* b : same)
    if (b->top == *m_top && b->define == *m_define) m_build = b;
  m_define.require(m_build != nullptr, "no build of '" + named + "' with define '" + *m_define +
                                           "' (built: " + list_of(defines) + ")");
}

void rtl_choice::count_edges(std::function<std::uint64_t()> edges) {
  m_owner.add_stat(m_group + ".rtl_edges", [f = std::move(edges)] { return double(f()); },
                   "clock edges the RTL model ran (implementation: rtl)");
}

}  // namespace gputlm::rtl
