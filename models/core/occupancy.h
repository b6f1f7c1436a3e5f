// How many thread blocks of a kernel fit on one SMX: the CUDA occupancy arithmetic as
// GPGPU-Sim applies it (shader.cc, max_cta): the minimum over the TB-slot, warp, register
// and shared-memory limits. Registers are allocated per thread rounded up to a multiple of
// 4, for the TB's threads padded to whole warps.
#pragma once

#include <cstdint>

namespace gputlm::core {

struct smx_limits {
  std::uint32_t max_tbs = 8;
  std::uint32_t max_threads = 1536;
  std::uint32_t warp_size = 32;
  std::uint32_t registers = 32768;
  std::uint32_t max_registers_per_tb = 65536;
  std::uint64_t shared_memory = 48 * 1024;
  std::uint64_t max_shared_memory_per_tb = 48 * 1024;
};

struct tb_demand {
  std::uint32_t threads = 0;         // blockDim.x * y * z
  std::uint32_t regs_per_thread = 0;
  std::uint64_t shared_memory = 0;   // bytes per TB

  std::uint32_t warps(std::uint32_t warp_size) const {
    return (threads + warp_size - 1) / warp_size;
  }
  // Registers the TB occupies.
  std::uint32_t registers(std::uint32_t warp_size) const {
    return warps(warp_size) * warp_size * ((regs_per_thread + 3) & ~3u);
  }
};

enum class occupancy_limit { tbs, warps, registers, shared_memory, none_fit };

struct occupancy {
  std::uint32_t tbs_per_smx = 0;
  occupancy_limit limited_by = occupancy_limit::tbs;
};

occupancy compute_occupancy(const smx_limits& smx, const tb_demand& tb);
const char* to_string(occupancy_limit l);

}  // namespace gputlm::core
