#include "models/common/strategy.h"

#include <algorithm>
#include <cctype>

namespace gputlm {

void strategy::add_stat(const std::string& name, std::function<double()> f,
                        std::string description) {
  if (m_block) m_block->add_stat(name, std::move(f), std::move(description));
}

void strategy::add_stat(const std::string& name, const counter& c, std::string description) {
  if (m_block) m_block->add_stat(name, c, std::move(description));
}

std::string closest_strategy(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : names) {  // Levenshtein distance, case-insensitive
    std::vector<std::size_t> prev(c.size() + 1), cur(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= word.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j) {
        const bool same = std::tolower(static_cast<unsigned char>(word[i - 1])) ==
                          std::tolower(static_cast<unsigned char>(c[j - 1]));
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      }
      std::swap(prev, cur);
    }
    if (prev[c.size()] < best_d) {
      best_d = prev[c.size()];
      best = c;
    }
  }
  return best_d <= std::max<std::size_t>(2, word.size() / 3) ? best : std::string();
}

namespace detail {

bool chosen_type(param_owner& owner, const std::string& key, std::string& type,
                 source_location& where) {
  block_config& c = owner.config();
  config_value* v = c.take(key + ".type");
  if (!v) v = c.take(key);
  if (!v) return false;
  if (v->is_sequence || v->text.empty())
    throw input_error(v->where, c.path() + "." + key, "expected the name of a " + key);
  type = v->text;
  where = v->where;
  return true;
}

std::string list_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace detail
}  // namespace gputlm
