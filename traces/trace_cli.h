// `gputlm trace convert` and `gputlm trace info`, plus the library functions behind them.
// args exclude the program name and the subcommand words. Bad input throws input_error
// (the caller prints it and exits 2); success returns 0.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "traces/opcode_table.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces {

// gputlm trace convert IN OUT [--to text|binary] [--strict]
int convert_main(const std::vector<std::string>& args);
// gputlm trace info TRACE [--strict]
int info_main(const std::vector<std::string>& args);
// gputlm trace merge A B [C ...] -o OUT [--offset BYTES] [--force] (trace_merge.cpp)
int merge_main(const std::vector<std::string>& args);

// Writes every command of `in` to `out` (TBs in linear order) and finishes `out`.
void copy_trace(application_trace& in, trace_writer& out);

struct kernel_summary {
  std::size_t command_index = 0;
  kernel_info info;
  std::string file;
  std::uint64_t tbs = 0;
  std::uint64_t warps = 0;         // warps with at least one instruction
  std::uint64_t instructions = 0;  // dynamic warp instructions
  std::array<std::uint64_t, unit_class_count> by_unit{};
  std::uint64_t thread_accesses = 0;  // per-lane addresses
  std::uint64_t lines_128 = 0;        // distinct 128 B lines (device memory)
  std::uint64_t sectors_32 = 0;       // distinct 32 B sectors (device memory)
  std::uint64_t device_launches = 0;
  std::vector<unknown_opcode> unknown;
};

struct trace_summary {
  std::vector<kernel_summary> kernels;
  std::uint64_t memcpy_count = 0, memcpy_bytes = 0;
  std::uint64_t lines_128 = 0, sectors_32 = 0;  // over the whole application
};

// Decodes every TB of every kernel. Footprints count device-memory addresses (every space
// but shared), exactly, with one hash entry per distinct 128 B line.
trace_summary summarize(application_trace& app);
void print_summary(std::ostream& os, const application_trace& app, const trace_summary& s);

}  // namespace gputlm::traces
