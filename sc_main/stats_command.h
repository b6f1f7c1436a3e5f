// `gputlm stats FILE [--accelsim]`: a statistics file (`run --stats`) as a short summary, or
// under GPGPU-Sim's names and layout so that Accel-Sim users' scripts read our runs
// (docs/statistics.md has the table of names).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gputlm::cli {

int stats_main(const std::vector<std::string>& args);

// The two forms, written to `out` from a parsed statistics file (`where` names it in errors).
void print_stats_summary(const nlohmann::json& stats, const std::string& where, std::ostream& out);
void print_stats_accelsim(const nlohmann::json& stats, const std::string& where, std::ostream& out);

}  // namespace gputlm::cli
