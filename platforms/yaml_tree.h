// A YAML document whose every node remembers the file that wrote it. A platform may start
// from another (`base: volta.yaml`, then only the keys it changes): the files of the chain
// are deep-merged into one tree, and each value keeps the file, line and column it was
// written at, so that an error names the file that wrote the bad value.
//
// Merge rule (docs/platforms.md, "Variants"): a mapping merges into a mapping key by key,
// recursively; anything else (a scalar, a list, a mapping over a scalar) replaces what the
// base had. A key the variant adds comes after the base's keys, in the variant's order.
// A list under `key+` (`bind+:`) is appended to the base's list under `key` instead of
// replacing it; with no such list it is the list `key`. Each list item keeps the file it
// was written in.
#pragma once

#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>
#include <vector>

#include "models/base/input_error.h"

namespace gputlm::platforms {

struct ynode {
  struct entry;

  YAML::Node node;  // as parsed; for a mapping, read `entries` (they hold the merge)
  std::shared_ptr<const std::string> file;
  std::vector<entry> entries;  // a mapping's keys in order
  std::vector<ynode> items;    // a sequence's items in order (after merging, from any file)

  bool is_map() const { return node.IsMap(); }
  bool is_scalar() const { return node.IsScalar(); }
  bool is_sequence() const { return node.IsSequence(); }
  bool is_null() const { return node.IsNull(); }
  const std::string& scalar() const { return node.Scalar(); }
  // The entry of `key` in a mapping, or nullptr.
  const entry* find(const std::string& key) const;
  // Where the node is written.
  source_location where() const { return at(node.Mark()); }
  source_location at(const YAML::Mark& m) const;
};

struct ynode::entry {
  std::string key;
  YAML::Node key_node;
  std::shared_ptr<const std::string> key_file;
  ynode value;

  // Where the key is written.
  source_location where() const;
};

// Reads one YAML file (not following `base:`). Throws input_error for a file that cannot
// be read (`what` names it: "platform file"), malformed YAML and a key given twice in one
// mapping.
ynode load_yaml_file(const std::string& path, const std::string& what);

// Reads `path` and the chain of files its top-level `base:` names (each relative to the
// file naming it), merged; `base` itself is gone from the result. `chain` receives the
// files read, the given one first. A missing base or a cycle is an input_error at the
// `base:` that names it.
ynode load_yaml_with_bases(const std::string& path, std::vector<std::string>* chain = nullptr);

// Merges `over` onto `into` by the rule above (an overlay: a mechanism's blocks and
// bindings added to a platform).
void merge_yaml(ynode& into, const ynode& over);

}  // namespace gputlm::platforms
