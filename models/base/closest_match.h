// "Did you mean": the candidate nearest a misspelled name (a YAML key, a block type, a
// strategy, a statistic), by case-insensitive edit distance (Levenshtein), or "" when none
// is within max(2, a third of the word's length) edits.
#pragma once

#include <string>
#include <vector>

namespace gputlm {

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace gputlm
