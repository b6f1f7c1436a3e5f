// Crossbar interconnect between SMX-side ports and memory sub-partition ports, with one
// request and one reply subnet, per-port buffers and flit-based bandwidth, as GPGPU-Sim's
// `fly` (k = SMX ports + sub-partitions) BookSim network and its local crossbar
// (../shared/reference/platforms.md §2). It also holds the address -> sub-partition map.
// Sockets: `smx[i]` (target) from SMX-side interface units; `mem[j]` (initiator) to L2.
#pragma once

#include <memory>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "models/common/component.h"

namespace gputlm::noc {

class crossbar : public component {
 public:
  using target_type = tlm_utils::simple_target_socket_tagged<crossbar>;
  using initiator_type = tlm_utils::simple_initiator_socket_tagged<crossbar>;

  crossbar(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  std::vector<std::unique_ptr<target_type>> smx;
  std::vector<std::unique_ptr<initiator_type>> mem;

 private:
  param<std::uint64_t> m_smx_ports{*this, "smx_ports", 1, "SMX-side ports"};
  param<std::uint64_t> m_mem_ports{*this, "mem_ports", 1, "memory sub-partition ports"};
  param<bytes> m_flit_size{*this, "flit_size", {32}, "flit size"};
  param<std::uint64_t> m_subnets{*this, "subnets", 2, "1: shared; 2: request and reply apart"};
  param<std::uint64_t> m_vcs{*this, "vcs", 1, "virtual channels"};
  param<std::uint64_t> m_vc_buffer{*this, "vc_buffer", 8, "flits per VC buffer"};
  param<std::uint64_t> m_input_buffer{*this, "input_buffer", 64, "flits per input port"};
  param<std::uint64_t> m_output_buffer{*this, "output_buffer", 64, "flits per output port"};
  param<std::uint64_t> m_ejection_buffer{*this, "ejection_buffer", 32,
                                         "packets per SMX-side ejection buffer"};
  choice_param m_arbiter{*this, "arbiter", "islip", "switch allocation",
                         {"islip", "round_robin"}};
  param<double> m_internal_speedup{*this, "internal_speedup", 1.0, "switch speedup"};
  param<cycles> m_latency{*this, "latency", {1}, "traversal latency of an unloaded switch"};
  choice_param m_partition_indexing{*this, "partition_indexing", "linear",
                                    "address -> sub-partition hash",
                                    {"linear", "xor", "ipoly", "random"}};
  param<bytes> m_partition_interleave{*this, "partition_interleave", {256},
                                      "bytes mapped to one channel before the next"};
};

}  // namespace gputlm::noc
