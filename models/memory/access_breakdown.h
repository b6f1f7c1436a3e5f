// A cache bank's accesses per access type and outcome: GPGPU-Sim's cache_stats
// (gpu-cache.h: a count per mem_access_type and cache_request_status), which it prints as
// Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] (the L1s) and
// L2_cache_stats_breakdown[...] (the L2 banks), and which Accel-Sim's scripts read.
// Registered as the bank's statistics by_access.<type>.<outcome> (docs/statistics.md lists
// the names and how `gputlm stats --accelsim` prints them).
//
// Outcomes as GPGPU-Sim counts them (cache_stats::select_stats_status): hit; hit_reserved
// (the line is already missing: the request joins its MSHR entry); miss (the tag is
// absent, or a write misses); sector_miss (the tag is present, a requested sector is not);
// mshr_hit (the request joined an MSHR entry: a hit_reserved or a sector miss merged; not
// part of an access's total); reservation_fail (the request is held: MSHR, merge limit, no
// replaceable line, miss queue). A held request is counted once, when it first fails
// (GPGPU-Sim counts every retry). Requests that pass the cache (bypassed loads and stores,
// atomics at the L1) are not counted, as in GPGPU-Sim.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

#include "models/common/component.h"
#include "models/common/mem_request.h"

namespace gputlm::memory {

// GPGPU-Sim's mem_access_type (abstract_hardware_model.h), those that reach a data cache.
enum class access_type : std::uint8_t {
  global_read,        // GLOBAL_ACC_R: global loads, atomics and polled flags at the L2
  local_read,         // LOCAL_ACC_R
  constant_read,      // CONST_ACC_R
  texture_read,       // TEXTURE_ACC_R
  global_write,       // GLOBAL_ACC_W
  local_write,        // LOCAL_ACC_W
  l1_writeback,       // L1_WRBK_ACC: a dirty L1 line written back to the L2
  instruction_read,   // INST_ACC_R: an instruction-cache miss at the L2
  l1_write_allocate,  // L1_WR_ALLOC_R: the L1's fetch for a store's write-allocate
  none,               // not counted (the caches' own orders: flush, carve-out)
};
constexpr std::size_t access_types = static_cast<std::size_t>(access_type::none);

enum class access_outcome : std::uint8_t {
  hit,
  hit_reserved,
  miss,
  sector_miss,
  mshr_hit,
  reservation_fail,
};
constexpr std::size_t access_outcomes = 6;

// GPGPU-Sim's mem_access_type and cache_request_status, all of them in its order (as it
// prints them), and where each of ours stands among them. Two of its types never reach our
// caches as such: L2_WRBK_ACC and L2_WR_ALLOC_R are the L2's own requests to DRAM.
inline constexpr std::array<const char*, 11> gpgpusim_types = {
    "GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R", "GLOBAL_ACC_W", "LOCAL_ACC_W",
    "L1_WRBK_ACC",  "L2_WRBK_ACC", "INST_ACC_R",  "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"};
inline constexpr std::array<const char*, 6> gpgpusim_statuses = {
    "HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT"};
constexpr std::size_t gpgpusim_index(access_type t) {
  constexpr std::size_t at[access_types] = {0, 1, 2, 3, 4, 5, 6, 8, 9};
  return at[static_cast<std::size_t>(t)];
}
constexpr std::size_t gpgpusim_index(access_outcome o) {
  constexpr std::size_t at[access_outcomes] = {0, 1, 2, 4, 5, 3};
  return at[static_cast<std::size_t>(o)];
}

// Our name of a type or outcome (global_read, hit_reserved, ...), and GPGPU-Sim's
// (GLOBAL_ACC_R, HIT_RESERVED, ...).
const char* to_string(access_type t);
const char* to_string(access_outcome o);
inline const char* gpgpusim_name(access_type t) {
  return t == access_type::none ? "none" : gpgpusim_types[gpgpusim_index(t)];
}
inline const char* gpgpusim_name(access_outcome o) { return gpgpusim_statuses[gpgpusim_index(o)]; }

// The type a request arriving at a cache is counted under: its kind, and for a fill or a
// write-back the kind of the request it was made for (mem_request::cause).
access_type type_of(const mem_request& r);

class access_breakdown {
 public:
  void count(access_type t, access_outcome o) {
    if (t != access_type::none)
      ++m_counts[static_cast<std::size_t>(t)][static_cast<std::size_t>(o)];
  }
  std::uint64_t value(access_type t, access_outcome o) const {
    return m_counts[static_cast<std::size_t>(t)][static_cast<std::size_t>(o)].value();
  }
  // Registers by_access.<type>.<outcome> with `c` for each type in `types` (the types that
  // reach that cache), every outcome.
  void register_with(component& c, std::initializer_list<access_type> types) const;

 private:
  std::array<std::array<counter, access_outcomes>, access_types> m_counts{};
};

}  // namespace gputlm::memory
