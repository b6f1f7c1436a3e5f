// A platform as written in YAML, before elaboration: clock domains, the block tree (each
// block with its type, count, clock, parameter values and socket bindings) and the
// per-instance overrides. Every value keeps its source location for error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/block_config.h"
#include "models/power/power_spec.h"

namespace gputlm::platforms {

struct binding_spec {
  std::string text;  // "smx[*].l1.icnt -> icnt.smx[*]"
  source_location where;
  std::string key;   // for messages: "gpu.bind[2]"
};

// A block array (`count:`) has at most this many instances, its enclosing arrays'
// instances included (smx[i].l1[j] counts i x j).
constexpr std::uint64_t max_block_count = 1024;

struct block_spec {
  std::string name;                 // key in the parent: "smx"
  std::string type;
  source_location where;            // the block's key in the YAML
  source_location type_where;
  std::optional<std::uint64_t> count;  // a number, or resolved at elaboration from count_text
  std::string count_text;              // an expression of `vars` (empty for a number)
  source_location count_where;
  std::map<std::string, config_value> values;  // parameters, and `clock`
  std::vector<block_spec> children;
  std::vector<binding_spec> bindings;
  std::string spec_path;            // "gpu.smx.l1", for messages
};

// A clock domain, or with `count:` one domain per instance (`core[0]` .. `core[n-1]`), each
// with its own operating point at run time; a block names one as `clock: core[i]` (i: its
// own instance index).
struct clock_spec {
  std::string name;
  config_value frequency;
  config_value voltage;             // text empty: 1V
  config_value count;               // text empty: one domain
  config_value pstates;             // `[706MHz@1V, 100MHz@0.55V]`; empty: none
  source_location where;
};

// A platform variable (`vars: {p: 4}`): an integer, or an expression of the variables
// before it, usable in counts (`count: p * p`), bindings (`cb[i / p]`) and parameter values
// (`mem_channels: ${channels}`). A variant or `--set vars.p=8` changes it.
struct var_spec {
  std::string name;
  config_value value;
};

struct override_spec {
  std::string key;                  // "smx[3].l1.size" (relative to gpu)
  config_value value;
  bool applied = false;
};

struct platform_spec {
  std::string file;
  std::vector<std::string> files;  // `file` and the chain of bases it starts from
  std::string name;
  std::string description;
  std::vector<var_spec> vars;
  std::vector<clock_spec> clocks;
  block_spec top;
  std::vector<override_spec> overrides;
  std::vector<std::string> waveform_signals;  // `waveforms: {signals: [...]}`: VCD globs
  pm::power_spec power;                    // `power:` (absent: no energy accounting)
};

// Reads a platform YAML file and the bases it starts from (`base:`, merged as yaml_tree.h
// says), then merges each mechanism file of `with` onto it in order (a mechanism: the blocks
// of a controller and their bindings, `bind+:` lists appending to the platform's; no
// `base:` of its own); throws input_error naming the file, line, column and key that wrote
// the bad value.
platform_spec load_platform_yaml(const std::string& file,
                                 const std::vector<std::string>& with = {});

// Parses a --set argument `key=value` (value is YAML: a scalar or a [list]).
override_spec parse_set_option(const std::string& text);


}  // namespace gputlm::platforms
