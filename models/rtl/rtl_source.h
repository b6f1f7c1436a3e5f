// The choice between a block's C++ model and its RTL (docs/rtl.md): the parameter group
// `<group>.implementation` (cpp | rtl), `<group>.rtl` (the Verilog source, project-relative
// or a path), `<group>.top` (its top module) and `<group>.define` (a variant's define),
// checked against the RTL builds of this binary (models/CMakeLists.txt, gputlm_rtl_block):
// a source that does not exist, that Verilator rejects, that differs from the one built,
// a top module or a define that was not built, is an input_error naming the block, the
// key and the file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/param.h"

namespace gputlm::rtl {

// One Verilated build: the block's name, its source (project-relative), top module,
// define ("" for none), the Verilated class, and the source's text as built.
struct rtl_build {
  std::string block, source, top, define, prefix;
  const char* text;
};
const std::vector<rtl_build>& rtl_builds();

class rtl_choice {
 public:
  // `block`: the RTL block's name in rtl_builds() (mshr_table, tb_dispatch).
  rtl_choice(component& owner, const std::string& group, std::string block,
             const std::string& what);

  // Resolves the parameters (at the owner's validate()); throws input_error.
  void validate();
  bool is_rtl() const { return *m_implementation == "rtl"; }
  // The build chosen (with is_rtl()).
  const rtl_build& build() const { return *m_build; }
  const param<std::string>& implementation() const { return m_implementation; }
  // Adds the owner's statistic `<group>.rtl_edges`: the clock edges the RTL model has run
  // (non-zero shows the RTL was exercised). Called by the transactor's factory.
  void count_edges(std::function<std::uint64_t()> edges);

 private:
  component& m_owner;
  std::string m_group;
  std::string m_block;
  param<std::string> m_implementation;
  param<std::string> m_source, m_top, m_define;
  const rtl_build* m_build = nullptr;
};

}  // namespace gputlm::rtl
