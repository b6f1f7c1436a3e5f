// Where the files shipped with gputlm are (yaml/, traces/samples/, rtl/, scripts/, python/):
// beside an installed binary, <prefix>/bin/gputlm, in <prefix>/share/gputlm/ (CMake's
// install rules, `make install`); else in the source tree the binary was built from.
#pragma once

#include <filesystem>
#include <string>

namespace gputlm {

// The folder holding the shipped files.
std::filesystem::path shipped_root();

// `relative` (e.g. "scripts/plot-experiment.py") under shipped_root().
std::filesystem::path shipped_file(const std::string& relative);

}  // namespace gputlm
