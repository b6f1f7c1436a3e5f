// The chip (gpu.h).
#include "models/top/gpu.h"

#include "models/common/block_factory.h"

namespace gputlm::top {

GPUTLM_BLOCK("gpu", gpu, "the chip: top of the block tree", {});

}  // namespace gputlm::top
