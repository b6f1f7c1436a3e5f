// The chip: the top of every platform's block tree. It holds no state of its own; its
// children (SMXs, interconnect, L2 banks, DRAM channels, kernel management) are declared
// in the platform YAML and bound there. Its one power component, `constant`, is the power
// no block accounts for (AccelWattch's constant power: fans, peripheral circuitry).
#pragma once

#include "models/common/component.h"

namespace gputlm::top {

class gpu : public component {
 public:
  gpu(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
    declare_power("constant", {});
  }
};

}  // namespace gputlm::top
