// The SMX's scoreboard: per warp slot, the cycle at which each architectural register's
// pending write lands, checked for the sources (RAW) and destinations (WAW) of the warp's
// next instruction. A load's destinations read `never` until its last request returns (the
// LDST unit's pending-load record, ldst_unit.h). After GPGPU-Sim's scoreboard (one
// reservation per destination register, released at write-back), with ready times in place
// of reservation bits so that a known ready time is not re-examined every cycle.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "traces/trace_types.h"

namespace gputlm::core {

class scoreboard {
 public:
  static constexpr unsigned num_regs = 256;  // registers a trace instruction may name
  static constexpr std::uint64_t never = ~0ull;

  // One register file of ready times per warp slot, all ready.
  void resize(std::size_t slots);
  // A warp slot taking a new warp: every register ready. Clears only the registers written
  // since the slot was last cleared (kernels use few of the 256).
  void clear(std::uint32_t slot);
  // Register `reg` of warp slot `slot` is written at `cycle` (`never`: when a load returns).
  void set(std::uint32_t slot, std::uint16_t reg, std::uint64_t cycle) {
    m_ready[slot][reg] = cycle;
    if (reg >= m_used[slot]) m_used[slot] = static_cast<std::uint16_t>(reg + 1);
  }
  // The cycle by which every source and destination register of `in` is ready, `never`
  // while one waits for a load. (Inline: the issue step asks on every examination.)
  [[gnu::always_inline]] std::uint64_t ready_by(std::uint32_t slot,
                                                const traces::warp_instruction& in) const {
    const reg_file& regs = m_ready[slot];
    std::uint64_t ready = 0;
    for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k)
      if (in.src[k] < num_regs) ready = std::max(ready, regs[in.src[k]]);
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
      if (in.dst[k] < num_regs) ready = std::max(ready, regs[in.dst[k]]);
    return ready;
  }

 private:
  using reg_file = std::array<std::uint64_t, num_regs>;
  std::vector<reg_file> m_ready;      // by warp slot
  std::vector<std::uint16_t> m_used;  // by warp slot: 1 + the highest register set since cleared
};

}  // namespace gputlm::core
