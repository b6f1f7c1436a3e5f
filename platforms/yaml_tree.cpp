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

// `over` onto `into`: mappings key by key, anything else replaces.
void merge(ynode& into, const ynode& over) {
  if (!into.is_map() || !over.is_map()) {
    into = over;
    return;
  }
  for (const auto& e : over.entries) {
    auto same = std::find_if(into.entries.begin(), into.entries.end(),
                             [&](const ynode::entry& d) { return d.key == e.key; });
    if (same == into.entries.end()) {
      into.entries.push_back(e);
    } else if (same->value.is_map() && e.value.is_map()) {
      merge(same->value, e.value);
    } else {
      *same = e;
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
  if (chain) *chain = std::move(files);
  return root;
}

}  // namespace gputlm::platforms
