// The LDST unit's coalescer: turns a warp's per-lane addresses into memory requests, one
// per distinct segment (a 128 B line, or a 32 B sector of one), each with the mask of 32 B
// sectors and lanes it serves.
//
// Rules per coalescing architecture, after GPGPU-Sim's memory_coalescing_arch
// (abstract_hardware_model.cc) as configured by -gpgpu_coalesce_arch:
//   20, 35 (Fermi, Kepler): lanes are grouped in sub-warps by access size (32 lanes for
//          accesses up to 4 B, 16 for 8 B, 8 for 16 B); each sub-warp makes one request per
//          distinct 128 B line it touches (GPGPU-Sim's segment with the L1 caching loads).
//   60, 61, 70 (Pascal, Volta): the whole warp makes one request per distinct 32 B sector
//          (GPGPU-Sim: "L1 and L2 are sectors, all requests should be 32 bytes"), so a warp's
//          unit-stride 4-byte load is four requests, taking four cycles of the L1's port.
// The segment is a parameter (SMX `coalescing_segment`: 0 takes the rule above; 32 or 128
// forces it). Requests come out in order of the lowest lane that touches each segment.
// Global atomics follow GPGPU-Sim's own rule for them (coalesce_atomic below): 32 B
// requests, lanes updating the same bytes in separate ones.
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::core {

struct coalesced_request {
  std::uint64_t line_address = 0;  // 128 B aligned
  std::uint8_t sector_mask = 0;    // bit s: bytes [32s, 32s+32) of the line are touched
  std::uint32_t lane_mask = 0;
  std::uint32_t bytes = 0;         // bytes touched (sum over sectors of 32 B)
};

constexpr std::uint64_t line_bytes = 128;
constexpr std::uint64_t sector_bytes = 32;

// The coalescing architecture's request size: 32 (a sector) from 60 on, else 128 (a line).
std::uint32_t default_segment(std::uint32_t arch);

// `addresses` holds one address per active lane, in lane order (the trace's layout);
// `segment` is 32, 64 or 128. Appends to `out` (cleared first); no allocation once `out`
// has grown.
void coalesce(std::uint32_t arch, std::uint32_t active_mask, const std::uint64_t* addresses,
              std::uint32_t access_size, std::vector<coalesced_request>& out,
              std::uint32_t segment = line_bytes);
// The same for the usual unit-stride access, known as such (a trace's strided form with
// every lane active and the stride equal to the access size): lane i at first + i * size.
void coalesce_contiguous(std::uint32_t arch, std::uint64_t first, std::uint32_t access_size,
                         std::vector<coalesced_request>& out, std::uint32_t segment = line_bytes);

// Global atomics (ATOM, RED), after GPGPU-Sim's memory_coalescing_arch_atomic as the
// trace-driven simulator runs it: atomics carry the cache operator CACHE_GLOBAL (done at L2),
// which makes every architecture's segment 32 B, and the warp is one part
// (-gpgpu_shmem_warp_parts 1). One request per 32 B sector and per group of lanes whose bytes
// do not overlap: a lane joins the first request of its sector that none of its bytes
// touches, else opens another, so lanes updating the same word go as separate requests (the
// L2 performs them one by one). Each request has one sector (32 bytes); they come out by
// address, those of one sector in the order they were opened.
void coalesce_atomic(std::uint32_t active_mask, const std::uint64_t* addresses,
                     std::uint32_t access_size, std::vector<coalesced_request>& out);

// Shared memory: cycles a warp's access takes with `banks` 4-byte banks: the largest
// number of distinct 4-byte words any bank must serve (same word = broadcast). 0 lanes: 0.
std::uint32_t shared_memory_cycles(std::uint32_t active_mask, const std::uint64_t* addresses,
                                   std::uint32_t access_size, std::uint32_t banks);

}  // namespace gputlm::core
