#include "platforms/yaml_tree.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace gputlm::platforms {
namespace {

namespace fs = std::filesystem;
using file_ref = std::shared_ptr<const std::string>;

source_location located(const file_ref& file, const YAML::Mark& m) {
  if (m.is_null()) return {*file, 0, 0};
  return {*file, std::uint64_t(m.line) + 1, std::uint64_t(m.column) + 1};
}

// Wraps a parsed node: mappings get their entries, each checked to be a plain key given once.
ynode wrap(const YAML::Node& n, const file_ref& file, const std::string& path) {
  ynode y;
  y.node = n;
  y.file = file;
  if (n.IsSequence()) {
    std::size_t i = 0;
    for (const auto& item : n) y.items.push_back(wrap(item, file, path + "[" + std::to_string(i++) + "]"));
    return y;
  }
  if (!n.IsMap()) return y;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const YAML::Node key = it->first;  // it-> yields a temporary: keep copies (ASan)
    const YAML::Node value = it->second;
    if (!key.IsScalar())
      throw input_error(located(file, key.Mark()), path, "a key must be a plain name");
    const std::string name = key.Scalar();
    const std::string key_path = path.empty() ? name : path + "." + name;
    if (y.find(name))
      throw input_error(located(file, key.Mark()), key_path, "key given twice in one mapping");
    y.entries.push_back({name, key, file, wrap(value, file, key_path)});
  }
  return y;
}

// A `key+` entry of a mapping whose base has no list `key`: the list `key` itself.
void settle_appends(ynode& n) {
  for (auto& e : n.entries) {
    if (e.key.size() > 1 && e.key.back() == '+') e.key.pop_back();
    if (e.value.is_map()) settle_appends(e.value);
  }
}

// `over` onto `into`: mappings key by key, `key+` lists appended, anything else replaces.
void merge(ynode& into, const ynode& over) {
  if (!into.is_map() || !over.is_map()) {
    into = over;
    settle_appends(into);
    return;
  }
  for (const auto& e : over.entries) {
    const bool append = e.key.size() > 1 && e.key.back() == '+';
    const std::string key = append ? e.key.substr(0, e.key.size() - 1) : e.key;
    auto same = std::find_if(into.entries.begin(), into.entries.end(),
                             [&](const ynode::entry& d) { return d.key == key; });
    if (append && same != into.entries.end() && same->value.is_sequence() &&
        e.value.is_sequence()) {
      // The merged list: a sequence node of the items' text, each item keeping its file.
      YAML::Node joined(YAML::NodeType::Sequence);
      for (const ynode& item : same->value.items) joined.push_back(item.node);
      for (const ynode& item : e.value.items) joined.push_back(item.node);
      same->value.node = joined;
      same->value.items.insert(same->value.items.end(), e.value.items.begin(),
                               e.value.items.end());
      continue;
    }
    if (same == into.entries.end()) {
      into.entries.push_back(e);
      into.entries.back().key = key;
      settle_appends(into.entries.back().value);
    } else if (same->value.is_map() && e.value.is_map()) {
      merge(same->value, e.value);
    } else {
      *same = e;
      same->key = key;
      settle_appends(same->value);
    }
  }
}

ynode load_chain(const std::string& path, std::vector<std::string>& chain) {
  chain.push_back(path);
  ynode root = load_yaml_file(path, "platform file");
  const ynode::entry* base = root.find("base");
  if (!base) return root;
  const ynode& b = base->value;
  if (!b.is_scalar() || b.scalar().empty())
    throw input_error(b.where(), "base", "expected the path of the platform this one starts from");
  const fs::path parent = fs::path(path).parent_path();
  const std::string base_path = (parent / b.scalar()).lexically_normal().string();
  std::error_code ec;
  for (const auto& seen : chain) {
    if (fs::equivalent(seen, base_path, ec)) {
      std::string cycle;
      for (const auto& c : chain) cycle += c + " -> ";
      throw input_error(b.where(), "base", "the chain of bases is a cycle: " + cycle + base_path);
    }
  }
  if (!fs::exists(base_path, ec))
    throw input_error(b.where(), "base", "no such platform file '" + base_path + "'");
  ynode merged = load_chain(base_path, chain);
  root.entries.erase(root.entries.begin() + (base - root.entries.data()));
  merge(merged, root);
  return merged;
}


}  // namespace

const ynode::entry* ynode::find(const std::string& key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

source_location ynode::at(const YAML::Mark& m) const { return located(file, m); }

source_location ynode::entry::where() const { return located(key_file, key_node.Mark()); }

ynode load_yaml_file(const std::string& path, const std::string& what) {
  const file_ref file = std::make_shared<const std::string>(path);
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw input_error({path, 0, 0}, "", "is a directory, not a " + what);
  std::ifstream in(path);
  if (!in) throw input_error({path, 0, 0}, "", "cannot open " + what);
  YAML::Node root;
  try {
    root = YAML::Load(in);
  } catch (const YAML::Exception& e) {
    throw input_error(located(file, e.mark), "", "malformed YAML: " + e.msg);
  }
  return wrap(root, file, "");
}

ynode load_yaml_with_bases(const std::string& path, std::vector<std::string>* chain) {
  std::vector<std::string> files;
  ynode root = load_chain(path, files);
  settle_appends(root);  // the first file's own `key+` lists
  if (chain) *chain = std::move(files);
  return root;
}

void merge_yaml(ynode& into, const ynode& over) { merge(into, over); }

}  // namespace gputlm::platforms
