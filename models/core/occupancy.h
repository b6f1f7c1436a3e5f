// What an SMX offers and what a thread block needs, for the SMX scheduler's occupancy
// check (smx_scheduler::fits, the CUDA occupancy arithmetic as GPGPU-Sim applies it in
// shader.cc, max_cta: the TB-slot, thread, register and shared-memory limits of the SMX).
// Registers are allocated per thread rounded up to a multiple of 4, for the TB's threads
// padded to whole warps. The SMX sends its smx_limits as the data of its capability
// register (control_registers.h, tbcr_caps).
#pragma once

#include <algorithm>
#include <cstdint>

namespace gputlm::core {

struct smx_limits {
  std::uint32_t max_tbs = 8;
  std::uint32_t max_threads = 1536;
  std::uint32_t warp_size = 32;
  std::uint32_t registers = 32768;
  std::uint64_t shared_memory = 48 * 1024;
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

// How many TBs of `d` an empty SMX of `l` holds at once (the TB-slot, thread, register and
// shared-memory limits; GPGPU-Sim's max_cta).
inline std::uint32_t tbs_per_smx(const smx_limits& l, const tb_demand& d) {
  std::uint64_t x = l.max_tbs;
  if (const std::uint64_t t = std::uint64_t(d.warps(l.warp_size)) * l.warp_size)
    x = std::min(x, l.max_threads / t);
  if (const std::uint64_t r = d.registers(l.warp_size)) x = std::min<std::uint64_t>(x, l.registers / r);
  if (d.shared_memory) x = std::min(x, l.shared_memory / d.shared_memory);
  return static_cast<std::uint32_t>(x);
}

}  // namespace gputlm::core
