// The statistics file's two forms (docs/statistics.md, "Two forms").
//
// The full form is the registry's document as it is (stats_registry::document): every
// block by its path, every histogram with all its buckets, one value per line. The compact
// form, which `gputlm run --stats` writes by default, holds the same values with less
// repetition: the instances of a block type (gpu.smx[0], gpu.smx[1], ...) as one table
// under "gpu.smx[*]" (an "instances" list of paths in numeric order, and per statistic one
// value when every instance has it, else an array with one value per instance), histograms
// as their non-zero buckets ({"bucket_width", "buckets", "nonzero": [[bucket, count], ...]}),
// one statistic per line. full_stats() turns either form back into the full one, value for
// value, so that one reader serves both.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gputlm {

enum class stats_form { compact, full };

// "compact" or "full"; nullopt otherwise.
std::optional<stats_form> parse_stats_form(const std::string& text);

// The file's text of a full-form document in `form` (ending with a newline).
std::string stats_text(const nlohmann::json& full, stats_form form);

// The full form of a document in either form (a full-form document is returned as it is).
// Throws std::invalid_argument naming the key at fault when a compact document is not in
// the compact form's shape.
nlohmann::json full_stats(const nlohmann::json& doc);

}  // namespace gputlm
