// `gputlm import-config`: a GPGPU-Sim / Accel-Sim configuration (gpgpusim.config and, for
// trace mode, trace.config) turned into a gputlm platform YAML with the block structure of
// yaml/volta.yaml. Every value written names the option it came from in a trailing comment;
// options with no gputlm equivalent are listed, not guessed. The option grammar follows
// GPGPU-Sim's own parser (src/option_parser.cc: `-name value` tokens, `#` comments, quoted
// values that may span lines; the last occurrence of an option wins) and the field grammars
// of docs/references.md: "Cache configuration string", "DRAM timing options" and
// "Address mapping and partition indexing".
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gputlm::cli {

struct imported_platform {
  std::string yaml;                   // a complete, standalone platform file
  std::vector<std::string> unmapped;  // options with no gputlm equivalent, in file order,
                                      // each once; "-name (detail)" when only a code or a
                                      // field of the value is unmappable
  // gputlm key path (as `gputlm elaborate --dump-config` names it, e.g. gpu.smx.l1.sets,
  // clocks.core.frequency) -> the option its value came from, for every key written from
  // (or derived from) an option present in the inputs.
  std::vector<std::pair<std::string, std::string>> mapped_keys;
  // Options present in the inputs that set a key or whose value gputlm always has
  // (distinct, in file order). An option may be here and in `unmapped` when only part of
  // its value maps.
  std::vector<std::string> mapped_options;
};

// Pure: parses both texts (the trace config may be empty) and builds the platform. The
// names are used in messages and comments only. Bad input (a malformed composite value, a
// non-numeric number, an option without a value) throws gputlm::input_error naming the
// file, line, column and option. Unknown options are not errors: they go to `unmapped`.
imported_platform import_gpgpusim_config(const std::string& config_text,
                                         const std::string& config_name,
                                         const std::string& trace_config_text,
                                         const std::string& trace_config_name);

// gputlm import-config CONFIG [TRACE_CONFIG] -o FILE
int import_config_main(const std::vector<std::string>& args);

}  // namespace gputlm::cli
