// The TB dispatch unit of the SMX scheduler as a block behind registers (DTBL thesis §2.2):
// SMX capability registers and KDEs written in, one TB per dispatch read out as its TBCR,
// the TBCR taken back at the TB's completion (register_layout.h). The C++ scheduler's LRR
// policy decides in C++; with `dispatch.implementation: rtl` this interface is the
// Verilated rtl/tb_dispatch (models/rtl/tb_dispatch_rtl.h) and decides instead.
#pragma once

#include <cstdint>
#include <string>

#include "models/control/register_layout.h"

namespace gputlm {
class vcd_writer;
}

namespace gputlm::control {

class tb_dispatch_backend {
 public:
  virtual ~tb_dispatch_backend() = default;
  virtual void write_caps(std::uint32_t smx, const reg_words<caps_layout::words>& caps) = 0;
  // KDE `kde`'s words (valid = 0: the entry is free).
  virtual void write_kde(std::uint32_t kde, const reg_words<kde_layout::words>& words) = 0;
  // The next TB: true with its SMX and TBCR (counted in the SMX's resources), false when no
  // entry's next TB fits any SMX.
  virtual bool dispatch(std::uint32_t& smx, reg_words<tbcr_layout::words>& tbcr) = 0;
  // A TB completed on SMX `smx`: its resources are free.
  virtual void release(std::uint32_t smx, const reg_words<tbcr_layout::words>& tbcr) = 0;
  // Records the block's signals beside the main waveform (verilated_block::trace).
  virtual void trace(vcd_writer& vcd, const std::string& group) = 0;
};

}  // namespace gputlm::control
