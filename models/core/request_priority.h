// The priority a mechanism beside an SMX gives the SMX's memory requests: what the SMX asks
// through its port `priority` (optional) for every global, local, texture or constant
// request it sends, and writes into the request's mem_request::priority, which the caches
// copy into their misses and the DRAM channel hands its request chooser
// (models/memory/dram_chooser.h). With nothing bound the byte stays 0 (none). The SMX gives
// its warps' state at that moment: CLAMS's core rank (Jog et al., SIGMETRICS 2016; seed 003
// §5) is the share of its warps not waiting for memory (models/core/clams_ranker.h).
#pragma once

#include <cstdint>
#include <systemc>

#include "models/core/smx_events.h"

namespace gputlm::core {

class request_priority : public virtual sc_core::sc_interface {
 public:
  // The priority byte of a request warp `warp` sends at SMX cycle `cycle` (0: none), from
  // the SMX's warps at that moment (smx_events.h).
  virtual std::uint8_t priority_of(const warp_census& census, std::uint32_t warp,
                                   std::uint64_t cycle) = 0;
};

}  // namespace gputlm::core
