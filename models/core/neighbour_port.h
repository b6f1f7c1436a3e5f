// The SPU's neighbour path of an SM (Rajasree thesis §2.2.1, §4.2): what the SMX asks of the
// block that joins it to its communication buffers and block syncs, and how that block
// answers. The SMX issues CB.PUSH / CB.POP through its LDST unit's shared-memory path and
// hands the access to its `neighbour` port, and hands a TB's BAR.BLOCKSYNC to it once all
// its warps have reached it; the block answers through the SMX's `tb_release` export. An
// SMX whose port is unbound (every platform but the SPU) reports these instructions as bad
// input.
#pragma once

#include <cstdint>
#include <systemc>

#include "traces/trace_types.h"

namespace gputlm::core {

class neighbour_port : public virtual sc_core::sc_interface {
 public:
  // A warp's CB.PUSH (towards `d`: east or south) or CB.POP (from `d`: west or north) of
  // `bytes`; returns the cycles until its data is written or read.
  virtual std::uint64_t cb_access(traces::direction d, bool push, std::uint32_t bytes) = 0;
  // TB slot `slot` reached BAR.BLOCKSYNC towards `d` (or global) with all its warps.
  virtual void block_sync(traces::direction d, std::uint32_t slot) = 0;
  // Whether the port joins direction `d` (false for a global sync without a barrier block).
  virtual bool serves(traces::direction d) const = 0;
};

// The SMX's side: TB slot `slot`'s BAR.BLOCKSYNC is released (at the current cycle).
class block_sync_release : public virtual sc_core::sc_interface {
 public:
  virtual void block_sync_released(std::uint32_t slot) = 0;
};

}  // namespace gputlm::core
