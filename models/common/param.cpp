#include "models/common/param.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>


namespace gputlm {

param_base::param_base(param_owner& owner, std::string name, std::string description)
    : m_meta(new meta{owner, std::move(name), std::move(description), owner.config().where()}) {
  owner.m_params.push_back(this);
}

param_base::~param_base() = default;

std::string param_base::path() const {
  return m_meta->owner.config().path() + "." + m_meta->name;
}

config_value* param_base::lookup() { return m_meta->owner.config().take(m_meta->name); }

void param_base::read_from(const config_value& v) { set_at(v.where); }

void param_base::set_at(const source_location& at) {
  m_meta->where = at;
  m_meta->is_default = false;
}

void param_base::bad_value(const config_value& v) const {
  std::string got = v.is_sequence ? "a list" : "'" + v.text + "'";
  throw input_error(v.where, path(), "expected " + expected() + ", got " + got);
}

void param_base::require(bool ok, const std::string& message) const {
  if (!ok) throw input_error(m_meta->where, path(), message);
}

std::string quote_yaml_scalar(const std::string& s) {
  YAML::Emitter e;
  e << s;
  return e.c_str();
}

choice_param::choice_param(param_owner& owner, std::string name, std::string def,
                           std::string description, std::vector<std::string> choices)
    : param_base(owner, std::move(name), std::move(description)),
      m_value(std::move(def)),
      m_choices(std::move(choices)) {
  if (config_value* v = lookup()) {
    if (v->is_sequence ||
        std::find(m_choices.begin(), m_choices.end(), v->text) == m_choices.end())
      bad_value(*v);
    m_value = v->text;
    read_from(*v);
  }
}

std::string choice_param::expected() const {
  std::string s = "one of ";
  for (std::size_t i = 0; i < m_choices.size(); ++i) s += (i ? ", " : "") + m_choices[i];
  return s;
}

list_param::list_param(param_owner& owner, std::string name, std::vector<std::uint64_t> def,
                       std::string description)
    : param_base(owner, std::move(name), std::move(description)), m_value(std::move(def)) {
  if (config_value* v = lookup()) {
    if (!v->is_sequence) bad_value(*v);
    m_value.clear();
    for (const auto& item : v->items) {
      auto n = units::parse_uint(item);
      if (!n) bad_value(*v);
      m_value.push_back(*n);
    }
    read_from(*v);
  }
}

string_list_param::string_list_param(param_owner& owner, std::string name,
                                     std::vector<std::string> def, std::string description)
    : param_base(owner, std::move(name), std::move(description)), m_value(std::move(def)) {
  if (config_value* v = lookup()) {
    m_value = v->is_sequence ? v->items : std::vector<std::string>{v->text};
    read_from(*v);
  }
}

std::string string_list_param::to_yaml() const {
  std::string s = "[";
  for (std::size_t i = 0; i < m_value.size(); ++i)
    s += (i ? ", " : "") + quote_yaml_scalar(m_value[i]);
  return s + "]";
}

std::string list_param::to_yaml() const {
  std::string s = "[";
  for (std::size_t i = 0; i < m_value.size(); ++i) s += (i ? ", " : "") + std::to_string(m_value[i]);
  return s + "]";
}

}  // namespace gputlm
