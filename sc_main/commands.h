// The subcommands of the `gputlm` command. Each takes its arguments (after the
// subcommand word), returns an exit status, and throws input_error on bad input.
#pragma once

#include <string>
#include <vector>

#include "models/base/output_files.h"

namespace gputlm::cli {

int elaborate_main(const std::vector<std::string>& args);
int run_main(const std::vector<std::string>& args);

using ::gputlm::write_file_atomically;  // (models/base/output_files.h)

}  // namespace gputlm::cli
