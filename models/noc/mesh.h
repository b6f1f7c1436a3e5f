// 2-D mesh interconnect with dimension-order (XY) routing, virtual channels and per-hop
// router (routing) and channel (link) latencies, as the 56-core mesh of the LATOA paper
// (docs/references.md, "LATOA mesh platform": 8 x 8 nodes, 4 VCs, routing latency 4, channel
// latency 1; BookSim mesh k = 8, n = 2, dim_order). Each router has five input buffers
// (local, N, E, S, W) of vcs x vc_buffer flits holding at most `vcs` packets, and five
// output links; the local output is the ejection channel into the node's network interface.
// A packet crossing h routers (h - 1 links between them) takes, unloaded,
// h x (routing_latency + channel_latency) + flits - 1 cycles; contention adds waiting.
// Requests and replies use separate physical subnets.
// Sockets: `smx[i]` (target) from the L1s; `mem[j]` (initiator) to the L2 banks.
#pragma once

#include "models/noc/mesh_topology.h"
#include "models/noc/network.h"

namespace gputlm::noc {

class mesh : public network, public mesh_topology {
 public:
  mesh(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  std::uint32_t node_of_smx(std::uint32_t i) const { return m_smx_node[i]; }
  // mesh_topology (export `topology`)
  sc_core::sc_export<mesh_topology> topology{"topology"};
  std::uint32_t columns() const override { return static_cast<std::uint32_t>(*m_columns); }
  std::uint32_t rows() const override { return static_cast<std::uint32_t>(*m_rows); }
  std::uint32_t smx_count() const override { return static_cast<std::uint32_t>(m_smx_node.size()); }
  std::uint32_t smx_node(std::uint32_t smx) const override { return m_smx_node[smx]; }
  std::uint32_t node_of_mem(std::uint32_t j) const { return m_mem_node[j]; }
  // Routers a packet crosses between two nodes (Manhattan distance + 1).
  std::uint32_t routers_between(std::uint32_t a, std::uint32_t b) const;

 protected:
  std::string link_name(std::uint32_t l) const override;
  void route(packet& p, std::uint32_t source) const override;
  bool routes_peers() const override { return true; }

 private:
  enum port : std::uint32_t { local = 0, north = 1, east = 2, south = 3, west = 4 };
  std::uint32_t nodes() const { return static_cast<std::uint32_t>(*m_columns * *m_rows); }
  std::uint32_t in_buffer(std::uint32_t subnet, std::uint32_t node, std::uint32_t p) const {
    return (subnet * nodes() + node) * 5 + p;
  }
  std::uint32_t out_link(std::uint32_t subnet, std::uint32_t node, std::uint32_t p) const {
    return (subnet * nodes() + node) * 5 + p;
  }
  std::uint32_t eject_mem(std::uint32_t j) const { return 2 * nodes() * 5 + j; }
  std::uint32_t eject_smx(std::uint32_t i) const { return 2 * nodes() * 5 + mem_ports() + i; }

  param<std::uint64_t> m_columns{*this, "columns", 8, "routers in X"};
  param<std::uint64_t> m_rows{*this, "rows", 8, "routers in Y"};
  param<std::uint64_t> m_vcs{*this, "vcs", 4, "virtual channels per input port"};
  param<std::uint64_t> m_vc_buffer{*this, "vc_buffer", 8, "flits per VC buffer"};
  param<cycles> m_routing_latency{*this, "routing_latency", {4}, "router pipeline per hop"};
  param<cycles> m_channel_latency{*this, "channel_latency", {1}, "link traversal per hop"};
  param<std::uint64_t> m_mem_buffer{*this, "mem_ejection_buffer", 64,
                                    "flits per memory-side ejection buffer (network interface)"};
  list_param m_smx_nodes{*this,
                         "smx_nodes",
                         {},
                         "node of each SMX port (default: the nodes left by mem_nodes, in order)"};
  list_param m_mem_nodes{
      *this, "mem_nodes", {}, "node of each memory port (default: spread evenly, mid-row)"};

  std::vector<std::uint32_t> m_smx_node, m_mem_node;
};

}  // namespace gputlm::noc
