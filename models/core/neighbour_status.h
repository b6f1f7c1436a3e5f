// LATOA's neighbour status (Bitalebi et al., GPGPU 2023, §4.4): a relaxed core signals its
// east, north, west and south neighbours (+ when it becomes relaxed, - when it stops), and
// each core keeps the four signals in a 4-bit register; a critical core offloads to the
// first relaxed neighbour in E, N, W, S order. What a core's LATOA unit calls (export
// `status` of models/core/latoa_neighbours.h, the wires and registers of the chip).
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::core {

class neighbour_status : public virtual sc_core::sc_interface {
 public:
  static constexpr std::uint32_t none = 0xffffffffu;
  // Core `smx` became relaxed (true) or stopped being relaxed (false).
  virtual void relaxed_changed(std::uint32_t smx, bool relaxed) = 0;
  // The first relaxed neighbour of core `smx` in E, N, W, S order (its register), or none.
  virtual std::uint32_t adopter_for(std::uint32_t smx) const = 0;
};

}  // namespace gputlm::core
