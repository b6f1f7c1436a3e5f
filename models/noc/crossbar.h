// Crossbar interconnect between the SMX-side ports and the memory sub-partition ports, one
// request and one reply subnet, per-port input and output buffers, flit-based bandwidth of
// one flit per cycle per output times the internal speedup, as GPGPU-Sim's `fly` network
// (k = SMX ports + sub-partitions, one stage) and its local crossbar
// (docs/references.md, "Interconnect options": -network_mode). An unloaded packet of f flits
// takes latency + ceil(f / speedup) cycles. BookSim's input-queued router (the fly network
// of the TITAN X, GTX480 and K20c configs; docs/memory.md): `allocation_steps` switch steps
// per packet before its flits cross (it holds its output ceil((f + steps) / speedup)
// cycles), `serial_inputs` (an input sends one packet at a time) and `output_speedup` r (a
// port's channels carry r flits a cycle, whatever the internal speedup: a port takes a
// packet of f flits at most every ceil(f / r) cycles). Output arbitration (`arbiter`, network.h):
// iSLIP with one iteration (BookSim's islip allocators; an input starts at most one packet
// per cycle), round robin over the inputs at each output (an input may feed several outputs
// in a cycle: GPGPU-Sim's local crossbar with -icnt_arbiter_algo 1, whose "iSLIP" is
// output-driven), or oldest first.
// The two subnets are always apart (GPGPU-Sim -icnt_subnets 2), and the buffers are sized
// in flits per port (input_buffer, output_buffer), without virtual channels (BookSim's
// num_vcs and vc_buf_size have no key here; the mesh has them). An input buffer is one FIFO
// (`input_queueing: fifo`, GPGPU-Sim's local crossbar and BookSim's fly with num_vcs = 1:
// head-of-line blocking) or a queue per output (`voq`). `smx_per_port` SMXs share one port
// (GPGPU-Sim -gpgpu_n_cores_per_cluster: a cluster injects into one input buffer and takes
// one reply flit a cycle), port c serving SMXs c·k to c·k + k − 1.
// Sockets: `smx[i]` (target) from the L1s; `mem[j]` (initiator) to the L2 banks.
#pragma once

#include "models/noc/network.h"

namespace gputlm::noc {

class crossbar : public network {
 public:
  crossbar(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

 protected:
  std::string link_name(std::uint32_t l) const override;
  void route(packet& p, std::uint32_t source) const override;

 private:
  param<std::uint64_t> m_input_buffer{*this, "input_buffer", 64, "flits per input port"};
  param<std::uint64_t> m_output_buffer{*this, "output_buffer", 64, "flits per output port"};
  choice_param m_arbiter{*this,
                         "arbiter",
                         "islip",
                         "output arbitration (iSLIP: one iteration)",
                         {"islip", "round_robin", "oldest_first"}};
  param<double> m_internal_speedup{*this, "internal_speedup", 1.0, "switch speedup"};
  param<std::uint64_t> m_alloc_steps{
      *this, "allocation_steps", 0,
      "switch steps a packet spends in allocation before its flits cross"};
  param<bool> m_serial_inputs{*this, "serial_inputs", false,
                              "an input sends one packet at a time, a flit a step"};
  param<double> m_output_speedup{
      *this, "output_speedup", 0.0,
      "flits a cycle a port's injection and output channels carry (0: a packet a cycle)"};
  param<cycles> m_latency{*this, "latency", {1}, "traversal latency of an unloaded switch"};
  choice_param m_input_queueing{*this,
                                "input_queueing",
                                "voq",
                                "input buffer organisation (fifo: head-of-line blocking)",
                                {"voq", "fifo"}};
  param<std::uint64_t> m_smx_per_port{*this, "smx_per_port", 1,
                                      "SMXs sharing one crossbar port (a cluster)"};

  // Buffer and link numbering.
  std::uint32_t req_in(std::uint32_t i) const { return i; }
  std::uint32_t req_out(std::uint32_t j) const { return smx_ports() + j; }
  std::uint32_t rep_in(std::uint32_t j) const { return smx_ports() + mem_ports() + j; }
  std::uint32_t rep_out(std::uint32_t i) const { return smx_ports() + 2 * mem_ports() + i; }
};

}  // namespace gputlm::noc
