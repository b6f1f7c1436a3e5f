// Shared footprint ratios of dynamic parallelism (Wang, PhD thesis, Georgia Tech 2016,
// §5.1.1, Fig. 24; docs/references.md, "LaPerm"): how much of
// the data child TBs touch their direct parent TB and their siblings touch too, in 128-byte
// blocks, from a trace with device launches. What LaPerm's policies exploit
// (docs/tb-scheduling.md, "LaPerm").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/trace_reader.h"

namespace gputlm::traces {

struct shared_footprint {
  std::uint32_t block_bytes = 128;
  std::uint64_t parent_tbs = 0;  // TBs that launched at least one child (direct parents)
  std::uint64_t child_tbs = 0;   // TBs of their children
  // Sums over direct parents P: c = blocks of all P's child TBs, pc = those P touches too.
  std::uint64_t pc = 0, c = 0;
  // Sums over child TBs X with siblings: cs = blocks of X's siblings (the other TBs launched
  // by X's direct parent), cos = those X touches too.
  std::uint64_t cos = 0, cs = 0;
  // The same among the TBs of the host kernels that launch children: each TB against the
  // other TBs of its kernel.
  std::uint64_t pos = 0, ps = 0;
  double parent_child() const { return c ? double(pc) / double(c) : 0.0; }
  double child_sibling() const { return cs ? double(cos) / double(cs) : 0.0; }
  double among_parents() const { return ps ? double(pos) / double(ps) : 0.0; }
};

// Streams every TB of `app` once, keeping each TB's set of global blocks (loads, stores and
// atomics). `block_bytes` must be a power of two. Throws input_error for a launch naming a
// kernel the trace does not have; whatever the reader throws passes through.
shared_footprint measure_shared_footprint(application_trace& app, std::uint32_t block_bytes = 128);

// gputlm trace footprint TRACE [--block 128B]: the ratios as one JSON object on stdout.
int footprint_main(const std::vector<std::string>& args);

}  // namespace gputlm::traces
