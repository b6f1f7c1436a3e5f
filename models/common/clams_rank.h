// The CLAMS core rank as a memory request carries it (Jog et al., SIGMETRICS 2016; docs/latoa.md):
// its priority byte (mem_request::priority, dram_requester::priority) is 1 + rank x 128,
// the rank (ready / live warps) in 128ths; 0 means no rank and reads as rank 1, the least
// critical. Written by the SMX's ranker (models/core/clams_ranker.h), read by the DRAM's
// chooser (models/memory/clams_chooser.h).
#pragma once

#include <cstdint>

namespace gputlm {

// The rank in 128ths (0..128) a priority byte carries.
constexpr std::uint32_t clams_rank_128ths(std::uint8_t priority) {
  return priority == 0 ? 128u : priority - 1u;
}

}  // namespace gputlm
