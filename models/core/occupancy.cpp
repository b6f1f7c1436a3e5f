#include "models/core/occupancy.h"

#include <algorithm>

namespace gputlm::core {

occupancy compute_occupancy(const smx_limits& smx, const tb_demand& tb) {
  occupancy o;
  const std::uint32_t warps = tb.warps(smx.warp_size);
  const std::uint32_t regs = tb.registers(smx.warp_size);
  if (warps == 0 || warps * smx.warp_size > smx.max_threads || regs > smx.max_registers_per_tb ||
      regs > smx.registers || tb.shared_memory > smx.max_shared_memory_per_tb ||
      tb.shared_memory > smx.shared_memory) {
    o.limited_by = occupancy_limit::none_fit;
    return o;
  }
  o.tbs_per_smx = smx.max_tbs;
  o.limited_by = occupancy_limit::tbs;
  auto limit = [&](std::uint64_t n, occupancy_limit why) {
    if (n < o.tbs_per_smx) {
      o.tbs_per_smx = static_cast<std::uint32_t>(n);
      o.limited_by = why;
    }
  };
  limit(smx.max_threads / (warps * smx.warp_size), occupancy_limit::warps);
  if (regs) limit(smx.registers / regs, occupancy_limit::registers);
  if (tb.shared_memory) limit(smx.shared_memory / tb.shared_memory, occupancy_limit::shared_memory);
  return o;
}

const char* to_string(occupancy_limit l) {
  switch (l) {
    case occupancy_limit::tbs: return "tbs";
    case occupancy_limit::warps: return "warps";
    case occupancy_limit::registers: return "registers";
    case occupancy_limit::shared_memory: return "shared_memory";
    case occupancy_limit::none_fit: return "none_fit";
  }
  return "?";
}

}  // namespace gputlm::core
