// Accel-Sim text traces: the kernelslist.g command list and the per-kernel .traceg reader
// with its lazily built TB index (docs/traces.md, "Reading").
#pragma once

#include <memory>
#include <string>

#include "traces/trace_reader.h"

namespace gputlm::traces {

// `list` is the kernelslist.g file.
std::unique_ptr<application_trace> open_text_trace(const std::string& list,
                                                   const open_options& opts);
// One .traceg file (plain, .xz or .gz) on its own.
std::unique_ptr<kernel_reader> open_text_kernel(const std::string& file, const open_options& opts);

}  // namespace gputlm::traces
