#include "platforms/block_factory.h"

#include "models/control/agt.h"
#include "models/control/kernel_distributor.h"
#include "models/control/kmu.h"
#include "models/control/smx_scheduler.h"
#include "models/core/smx.h"
#include "models/memory/dram_channel.h"
#include "models/memory/fixed_latency_memory.h"
#include "models/memory/l1_cache.h"
#include "models/memory/l2_cache.h"
#include "models/noc/crossbar.h"
#include "models/noc/mesh.h"
#include "models/noc/network_interface.h"
#include "models/spu/communication_buffer.h"
#include "models/spu/global_sync.h"
#include "models/spu/interface_unit.h"
#include "models/spu/link_port.h"
#include "models/spu/spu_runtime.h"
#include "models/top/gpu.h"

namespace gputlm::platforms {

const block_factory& block_factory::builtin() {
  static const block_factory f = [] {
    block_factory f;
    f.add<top::gpu>("gpu", "the chip: top of the block tree");
    f.add<control::kmu>("kmu", "Kernel Management Unit with hardware work queues");
    f.add<control::kernel_distributor>("kernel_distributor", "Kernel Distributor entries");
    f.add<control::smx_scheduler>("smx_scheduler", "TB dispatch to SMXs", {"dispatch"});
    f.add<control::agt>("agt", "DTBL Aggregated Group Table");
    f.add<core::smx>("smx", "streaming multiprocessor");
    f.add<memory::l1_cache>("l1_cache", "per-SMX L1 data cache with MSHRs", {"mshr"});
    f.add<memory::l2_cache>("l2_cache", "L2 bank of a memory sub-partition");
    f.add<memory::dram_channel>("dram_channel", "DRAM channel with FR-FCFS scheduler");
    f.add<noc::crossbar>("crossbar", "SMX <-> memory crossbar");
    f.add<noc::mesh>("mesh", "2-D mesh with XY routing and virtual channels");
    f.add<noc::network_interface>("network_interface",
                                  "injection/ejection buffers between a node and the interconnect");
    f.add<spu::communication_buffer>("communication_buffer",
                                     "SPU: a neighbour link's ping-pong buffer pair and its sync");
    f.add<spu::global_sync>("global_sync", "SPU: the global block sync (BAR.BLOCKSYNC)");
    f.add<spu::interface_unit>("interface_unit",
                               "SPU: a border unit between global memory and a link");
    f.add<spu::link_port>("spu_link_port", "SPU: an SM's path to its links and block syncs");
    f.add<spu::spu_runtime>("spu_runtime", "SPU: the runtime placing CTAs in passes");
    f.add<memory::fixed_latency_memory>("fixed_latency_memory",
                                        "ideal memory answering after a fixed latency");
    return f;
  }();
  return f;
}

std::vector<std::string> block_factory::types() const {
  std::vector<std::string> v;
  for (const auto& [k, e] : m_types) v.push_back(k);
  return v;
}

}  // namespace gputlm::platforms
