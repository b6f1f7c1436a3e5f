// The subcommands of the `gputlm` command. Each takes its arguments (after the
// subcommand word), returns an exit status, and throws input_error on bad input.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace gputlm::cli {

int elaborate_main(const std::vector<std::string>& args);
int run_main(const std::vector<std::string>& args);

// Writes `content` to `path` via a temporary file and a rename, so a failed run never
// leaves a half-written output behind.
void write_file_atomically(const std::string& path, const std::string& content);
// The same with the content written by `write` (large files are not built in memory).
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);

}  // namespace gputlm::cli
