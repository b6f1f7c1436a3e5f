// CLAMS's core ranking logic (Jog et al., "Exploiting Core Criticality for Enhanced GPU
// Performance", SIGMETRICS 2016; as LATOA describes it, seed 003 §5): beside an SMX, it
// gives each memory request the SMX sends the core's rank at that moment, ready warps /
// (ready + blocked) warps, where blocked warps wait for memory (parked until a load's data
// returns) and ready ones are the other live warps. A low rank is a critical core: most of
// its warps wait for DRAM. The rank is quantised to `rank_bits` bits (2^bits levels,
// rounding down) and carried in the request's priority byte as 1 + rank x 128 (1..128;
// 0 means no rank), copied by the caches into their misses, to the DRAM channel's CLAMS
// chooser (models/memory/clams_chooser.cpp). Bound by path: the SMX's `priority` ->
// `priority` (yaml/mechanisms/clams.yaml).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "models/common/clams_rank.h"
#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/core/request_priority.h"

namespace gputlm::core {

class clams_ranker : public component, public request_priority {
 public:
  clams_ranker(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  std::string added_hardware() const override;

  sc_core::sc_export<request_priority> priority{"priority"};
  std::uint8_t priority_of(const warp_census& census, std::uint32_t warp,
                           std::uint64_t cycle) override;

  // The priority byte of a rank: 1 + rank x 128, the rank quantised down to `bits` bits;
  // and back (the rank a byte carries; 1.0 for 0, no rank).
  static std::uint8_t encode(const warp_census& census, std::uint32_t bits);
  static double rank_of(std::uint8_t priority) { return clams_rank_128ths(priority) / 128.0; }

 private:
  param<std::uint64_t> m_bits{*this, "rank_bits", 3,
                              "bits of the rank a request carries (1..7; 3: eight levels)"};
  counter m_requests;
  counter m_rank_sum;          // of the priority bytes minus one (rank x 128)
  histogram m_eighths{16, 8};  // of rank x 128
};

}  // namespace gputlm::core
