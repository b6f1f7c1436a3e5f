#include "models/noc/mesh.h"

#include "models/common/block_factory.h"

#include <cstdlib>

namespace gputlm::noc {

mesh::mesh(const sc_core::sc_module_name& name, const block_context& ctx) : network(name, ctx) {
  topology.bind(*this);
  declare_export("topology", topology);
  // The routers, buffers and links are sized by these: checked first.
  m_columns.require(*m_columns >= 1 && *m_columns <= 16, "must be 1..16");
  m_rows.require(*m_rows >= 1 && *m_rows <= 16, "must be 1..16");
  const std::uint32_t n = nodes();
  const std::uint32_t m = mem_ports(), s = smx_ports();
  // Placement.
  std::vector<bool> taken(n, false);
  for (std::uint32_t j = 0; j < m; ++j) {
    std::uint32_t node = j < m_mem_nodes->size() ? static_cast<std::uint32_t>((*m_mem_nodes)[j])
                                                 : (j * n) / m + (n / m) / 2;
    node = n ? node % n : 0;
    m_mem_node.push_back(node);
    taken[node] = true;
  }
  std::uint32_t next = 0;
  for (std::uint32_t i = 0; i < s; ++i) {
    std::uint32_t node;
    if (i < m_smx_nodes->size()) {
      node = static_cast<std::uint32_t>((*m_smx_nodes)[i]) % (n ? n : 1);
    } else {
      while (next < n && taken[next]) ++next;
      node = next < n ? next++ : i % (n ? n : 1);
    }
    m_smx_node.push_back(node);
  }

  const std::uint32_t vc_flits = static_cast<std::uint32_t>(*m_vcs * *m_vc_buffer);
  const std::uint32_t max_flits =
      static_cast<std::uint32_t>((8 + 128 + m_flit_size->value - 1) / m_flit_size->value);
  m_buffers.resize(2 * n * 5 + m + s);
  for (std::uint32_t b = 0; b < 2 * n * 5; ++b)
    m_buffers[b] = {vc_flits, static_cast<std::uint32_t>(*m_vcs), 0, 0};
  for (std::uint32_t j = 0; j < m; ++j)
    m_buffers[eject_mem(j)] = {static_cast<std::uint32_t>(*m_mem_buffer), ~0u, 0, 0};
  for (std::uint32_t i = 0; i < s; ++i)
    m_buffers[eject_smx(i)] = {static_cast<std::uint32_t>(*m_ejection_buffer) * max_flits,
                               static_cast<std::uint32_t>(*m_ejection_buffer), 0, 0};
  m_links.resize(2 * n * 5);
  for (std::uint32_t l = 0; l < m_links.size(); ++l) {
    m_links[l].owner = (l / 5) % n;
    m_links[l].routing_latency = static_cast<std::uint32_t>(m_routing_latency->value);
    m_links[l].channel_latency = static_cast<std::uint32_t>(m_channel_latency->value);
  }
  finish_topology(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    auto sum = [this, r, n](bool stalls) {
      double v = 0;
      for (std::uint32_t sub = 0; sub < 2; ++sub)
        for (std::uint32_t p = 0; p < 5; ++p) {
          const link& l = m_links[(sub * n + r) * 5 + p];
          v += double(stalls ? l.stall_cycles : l.flits);
        }
      return v;
    };
    add_stat(
        "router[" + std::to_string(r) + "].flits", [sum] { return sum(false); },
        "flits sent on this router's output links (both subnets)");
    add_stat(
        "router[" + std::to_string(r) + "].stall_cycles", [sum] { return sum(true); },
        "cycles packets waited for an output link or downstream room after routing");
  }
}

void mesh::validate() {
  network::validate();
  m_vcs.require(*m_vcs >= 1, "must be at least 1");
  m_vcs.require(*m_vcs <= 64, "must be at most 64");
  m_vc_buffer.require(*m_vc_buffer <= max_buffer,
                      "must be at most " + std::to_string(max_buffer) + " flits");
  const std::uint64_t max_flits = (8 + 128 + m_flit_size->value - 1) / m_flit_size->value;
  m_vc_buffer.require(*m_vcs * *m_vc_buffer >= max_flits,
                      "vcs x vc_buffer must hold the largest packet");
  m_mem_buffer.require(*m_mem_buffer >= max_flits, "must hold the largest packet");
  m_mem_buffer.require(*m_mem_buffer <= max_buffer,
                       "must be at most " + std::to_string(max_buffer) + " flits");
  const std::uint64_t n = *m_columns * *m_rows;
  m_mem_nodes.require(m_mem_nodes->empty() || m_mem_nodes->size() == m_mem_ports,
                      "needs one node per memory port");
  m_smx_nodes.require(m_smx_nodes->empty() || m_smx_nodes->size() == m_smx_ports,
                      "needs one node per SMX port");
  for (std::uint64_t v : *m_mem_nodes) m_mem_nodes.require(v < n, "node out of range");
  for (std::uint64_t v : *m_smx_nodes) m_smx_nodes.require(v < n, "node out of range");
  m_columns.require(m_smx_ports + m_mem_ports <= n || !m_smx_nodes->empty(),
                    "gives fewer mesh nodes than the " + std::to_string(m_smx_ports + m_mem_ports) +
                        " ports bound (give smx_nodes to share nodes)");
}

std::uint32_t mesh::routers_between(std::uint32_t a, std::uint32_t b) const {
  const auto c = static_cast<int>(*m_columns);
  return static_cast<std::uint32_t>(std::abs(int(a) % c - int(b) % c) +
                                    std::abs(int(a) / c - int(b) / c) + 1);
}

void mesh::route(packet& p, std::uint32_t source) const {
  const std::uint32_t subnet = p.reply ? 1 : 0;
  const std::uint32_t cols = static_cast<std::uint32_t>(*m_columns);
  const bool from_mem = p.reply && p.message == ~0u;  // (a peer message leaves an SMX)
  std::uint32_t node = from_mem ? m_mem_node[source] : m_smx_node[source];
  const std::uint32_t dest = p.reply ? m_smx_node[p.endpoint] : m_mem_node[p.endpoint];
  std::uint32_t h = 0;
  p.buffer(0) = in_buffer(subnet, node, local);
  while (node != dest) {
    const std::uint32_t x = node % cols, y = node / cols, dx = dest % cols, dy = dest / cols;
    std::uint32_t out, in, nxt;
    if (x != dx) {
      out = dx > x ? east : west;
      in = dx > x ? west : east;
      nxt = dx > x ? node + 1 : node - 1;
    } else {
      out = dy > y ? south : north;
      in = dy > y ? north : south;
      nxt = dy > y ? node + cols : node - cols;
    }
    p.link(h) = out_link(subnet, node, out);
    p.buffer(h + 1) = in_buffer(subnet, nxt, in);
    ++h;
    node = nxt;
  }
  p.link(h) = out_link(subnet, node, local);
  p.buffer(h + 1) = p.reply ? eject_smx(p.endpoint) : eject_mem(p.endpoint);
  p.hops = static_cast<std::uint8_t>(h + 1);
}

std::string mesh::link_name(std::uint32_t l) const {
  static const char* const dirs[5] = {"local", "north", "east", "south", "west"};
  const std::uint32_t n = nodes();
  return "router[" + std::to_string((l / 5) % n) + "]." + (l / 5 < n ? "request." : "reply.") +
         dirs[l % 5];
}

GPUTLM_BLOCK("mesh", mesh, "2-D mesh with XY routing and virtual channels", {});

}  // namespace gputlm::noc
