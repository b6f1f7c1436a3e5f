// The request chooser of a DRAM channel: which queued request the next column command
// (a row hit) and the next row command (PRE or ACT) serve, over the bank and timing engine's
// state (dram_engine.h). A strategy (models/common/strategy.h) chosen by the channel's
// `scheduler` key, as GPGPU-Sim's -gpgpu_dram_scheduler:
//   fr_fcfs  first-ready FCFS (Rixner et al., ISCA 2000): the oldest row hit that may issue
//            now, else the row command of the oldest request that needs one, unless the
//            bank still has row hits queued (the row is kept open for them);
//   fcfs     the oldest request only: its column command once its row is open, else its
//            row command (younger hits to an open row wait their turn).
// A new chooser (a criticality-aware one, reading each request's dram_requester) is one
// file with a GPUTLM_STRATEGY(memory::dram_chooser, ...) registration.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/common/strategy.h"
#include "models/memory/dram_engine.h"

namespace gputlm::memory {

class dram_chooser : public strategy {
 public:
  using strategy::strategy;
  static constexpr std::size_t none = ~std::size_t(0);
  // The queue position of the request that takes a column command at `now`, or none. `c`:
  // the constraints every column command shares now (the bank's add to them).
  virtual std::size_t column(dram_engine& e, const dram_engine::column_common& c,
                             std::uint64_t now) = 0;
  // The queue position of the request whose row command (PRE or ACT) issues at `now`, or
  // none (called after column(), which may have issued).
  virtual std::size_t row(dram_engine& e, std::uint64_t now) = 0;
  // The earliest cycle after `now` at which a command could issue (not before now + 1).
  virtual std::uint64_t next_ready(const dram_engine& e, const dram_engine::column_common& c,
                                   std::uint64_t now) = 0;
};

}  // namespace gputlm::memory
