// Geometry and policies shared by the L1 and L2 caches, named after the fields of
// GPGPU-Sim's cache string `<type>:<sets>:<line>:<ways>,<repl>:<write>:<alloc>:<wr_alloc>:
// <index>,<mshr>:<entries>:<merge>,<miss_queue>` (docs/references.md,
// "Cache configuration string"), with the checks GPGPU-Sim's parser makes (power-of-two
// sets and line, sectored lines of four 32 B sectors, hash functions' set counts,
// write-back with on-fill allocation).
// Two fields have no key here: the MSHR type `<mshr>` (A or S: the L2 answers an L1 line
// request with one reply, so the L1's fill waits for the whole line either way, docs/memory.md)
// and `<miss_queue>`, which only the L1 has (l1_cache.h; the L2's queue towards the DRAM is
// its `l2_to_dram_queue`).
#pragma once

#include "models/common/component.h"
#include "models/memory/access_breakdown.h"
#include "models/memory/cache_logic.h"

namespace gputlm::memory {

// The counters every cache bank (L1 and L2) keeps.
struct cache_statistics {
  counter accesses, hits, sector_misses, line_misses, mshr_hits, evictions, writebacks;
  // Per 32-byte sector, as GPGPU-Sim counts a sectored cache's lookups (one per sector
  // request): the sectors read lookups asked for, and those they fetched from the next level.
  counter sector_reads, sector_read_misses;
  counter fail_mshr_full, fail_merge_limit, fail_no_line, fail_miss_queue_full;
  histogram mshr_occupancy{1, 1};  // cycles spent with n entries in use
  access_breakdown by_access;      // per access type and outcome (access_breakdown.h)

  // Registers them with `c`; `miss_queue` names the bank's queue to the next level.
  void register_with(component& c, const std::string& miss_queue);
  // Counts a lookup's outcome `r` of a request of type `type` (`merged`: it joined an MSHR
  // entry): hits, line and sector misses, MSHR hits and the breakdown. A failed lookup is
  // counted by the caller, once per held request (count_held).
  // A lookup of `sectors` (a read or a write: `write`) that completed with `r`.
  void count_lookup(access_type type, const access_result& r, bool merged, std::uint8_t sectors,
                    bool write);
  void count_held(access_type type) { by_access.count(type, access_outcome::reservation_fail); }
};

struct cache_config {
  explicit cache_config(component& c);
  void validate() const;
  cache_geometry geometry() const;

  param<bytes> size;
  param<std::uint64_t> sets;
  param<std::uint64_t> ways;
  param<bytes> line_size;
  param<bool> sectored;
  choice_param replacement;
  choice_param write_policy;
  choice_param allocate;
  choice_param write_allocate;
  choice_param set_index;
  param<std::uint64_t> mshr_entries;
  param<std::uint64_t> mshr_merge;
  param<bool> mshr_per_sector;
  param<bytes> data_port_width;

  static constexpr std::uint64_t sector_size = 32;
};

}  // namespace gputlm::memory
