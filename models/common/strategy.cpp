#include "models/common/strategy.h"

namespace gputlm {

void strategy::add_stat(const std::string& name, std::function<double()> f,
                        std::string description) {
  if (m_block) m_block->add_stat(name, std::move(f), std::move(description));
}

void strategy::add_stat(const std::string& name, const counter& c, std::string description) {
  if (m_block) m_block->add_stat(name, c, std::move(description));
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
