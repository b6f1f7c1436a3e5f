// The Accel-Sim NVBit text trace format, line by line: kernel header (`-key = value`),
// TB framing and instruction lines (tracer versions 3, 4 with lineinfo, 5 with immediates),
// plus the gputlm `key=value` extension tokens. Formatting and parsing of single lines;
// files and streaming live in text_reader / trace_writer. See docs/traces.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/base/input_error.h"
#include "traces/opcode_table.h"
#include "traces/trace_types.h"

namespace gputlm::traces::text {

inline constexpr std::string_view format_comment =
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
    "mem_width [adrrescompress?] [mem_addresses] immediate";

// Generic LD/ST/ATOM resolve to shared (local) when the first active address lies in
// [shmem_base, shmem_base + window) ([local_base, local_base + window)).
inline constexpr std::uint64_t generic_window_bytes = std::uint64_t(16) << 20;

// Largest TB accepted from a header: keeps a bad `-block dim` from allocating millions of
// warps. CUDA's own limit is 1024 threads.
inline constexpr std::uint64_t max_threads_per_tb = 65536;

// ---- writing ----
void format_header(std::string& out, const kernel_info& k);
void format_tb(std::string& out, const tb_trace& tb, const opcode_table& ops, const kernel_info& k);
void format_instruction(std::string& out, const warp_instruction& in, const warp_trace& w,
                        const opcode_table& ops, const kernel_info& k);

// ---- parsing ----
std::string_view trim(std::string_view s);

// Applies one `-key = value` header line to `k`. Unknown keys are ignored (newer tracers add
// keys). Throws input_error on a bad value.
void parse_header_line(std::string_view line, kernel_info& k, const source_location& where);
// Checks the header after its last line (dims present and sane, supported tracer version).
void check_header(const kernel_info& k, const source_location& where);

// `thread block = x,y,z` -> dims; `warp = n`, `insts = n` -> number. `where` names the line.
dim3 parse_tb_line(std::string_view line, const source_location& where);
bool parse_count_line(std::string_view line, std::string_view key, std::uint64_t& value,
                      const source_location& where);

// Receives every instruction whose opcode is not known (strict mode throws instead).
class unknown_opcode_sink {
 public:
  virtual ~unknown_opcode_sink() = default;
  virtual void unknown(std::uint16_t opcode, const source_location& where) = 0;
};

// Parses instruction lines of one kernel into warps.
class instruction_parser {
 public:
  instruction_parser(const kernel_info& k, opcode_table& ops, std::string file, bool strict,
                     unknown_opcode_sink* sink)
      : m_info(k), m_ops(ops), m_file(std::move(file)), m_strict(strict), m_sink(sink) {}

  // Appends the instruction on `line` (line number `line_no`) to `w`.
  void parse(std::string_view line, std::uint64_t line_no, warp_trace& w);

 private:
  const kernel_info& m_info;
  opcode_table& m_ops;
  std::string m_file;
  bool m_strict;
  unknown_opcode_sink* m_sink;
};

}  // namespace gputlm::traces::text
