// Writers for whole applications: the Accel-Sim text form (a directory holding
// kernelslist.g and kernel-N.traceg files) and the gputlm binary form.
// Used by `gputlm trace convert` and by the kernel generators.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "traces/opcode_table.h"
#include "traces/trace_types.h"

namespace gputlm::traces {

class trace_writer {
 public:
  virtual ~trace_writer() = default;

  // A note on the application (one line, no '\n'): how it was made, e.g. a generator's
  // parameters. Text: a `# <text>` line of kernelslist.g, in call order among the commands
  // (readers return every note, in order, as application_trace::notes(); a writer copying an
  // application writes them first). Binary: the directory's notes (format version 3).
  // Writers that keep no notes ignore it.
  virtual void note(const std::string& text) { (void)text; }
  // Commands are written in call order.
  virtual void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) = 0;
  // Starts kernel `info.id`. info.device_launched = true lists it as `DeviceKernel,<file>`
  // (launched from a parent warp) instead of a host launch.
  virtual void begin_kernel(const kernel_info& info) = 0;
  // TBs of the current kernel, in any order; instruction opcodes index `opcodes`.
  virtual void write_tb(const tb_trace& tb, const opcode_table& opcodes) = 0;
  virtual void end_kernel() = 0;
  // Completes the output. Nothing is visible at the destination path before finish()
  // succeeds (written to a temporary and renamed).
  virtual void finish() = 0;
};

// Throws std::logic_error for a note trace_writer::note() does not take (one with a line break).
void check_note(const std::string& text);

// Accel-Sim text: `dir/kernelslist.g` + `dir/kernel-<id>.traceg`.
std::unique_ptr<trace_writer> make_text_writer(const std::string& dir);
// gputlm binary: one file.
std::unique_ptr<trace_writer> make_binary_writer(const std::string& file);

}  // namespace gputlm::traces
