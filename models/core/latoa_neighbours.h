// LATOA's neighbour status wires and registers (Bitalebi et al., GPGPU 2023, §4.4), one
// block for the chip: each core's 4-bit register of which of its E, N, W, S neighbours are
// relaxed, set by the neighbours' signals (neighbour_status.h). The neighbours come from
// the mesh's geometry at elaboration (its export `topology`, models/noc/mesh_topology.h):
// the core on the adjacent node in each direction; a memory-controller node or the mesh's
// edge leaves that direction without a neighbour. A signal reaches the registers at once.
// It also holds the messages between the cores' units on their way (latoa_mailbox.h).
// Every core starts relaxed (its MSHR is empty). Bound by path: `mesh` -> the mesh's
// `topology` (a crossbar has none: a platform without a mesh refuses LATOA at that
// binding), each core's unit's `neighbours` -> `status` (yaml/mechanisms/latoa.yaml).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/ports.h"
#include "models/common/stats.h"
#include "models/core/latoa_mailbox.h"
#include "models/core/neighbour_status.h"
#include "models/noc/mesh_topology.h"

namespace gputlm::core {

class latoa_neighbours : public component, public neighbour_status, public latoa_mailbox {
 public:
  // Directions in the paper's scan order.
  enum direction : std::uint32_t { east, north, west, south };
  using neighbours = std::array<std::uint32_t, 4>;  // SMX per direction, or none

  latoa_neighbours(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate_bound() override;
  std::string added_hardware() const override;

  required_port<noc::mesh_topology> mesh{"mesh"};
  sc_core::sc_export<neighbour_status> status{"status"};
  // Messages between the cores' units on their way (latoa_mailbox.h).
  sc_core::sc_export<latoa_mailbox> mailbox{"mailbox"};
  std::uint64_t post(latoa_message m) override;
  latoa_message take(std::uint64_t tag) override;
  std::uint32_t contexts_from(std::uint32_t host) const override {
    return host < m_contexts_from.size() ? m_contexts_from[host] : 0;
  }

  void relaxed_changed(std::uint32_t smx, bool relaxed) override;
  std::uint32_t adopter_for(std::uint32_t smx) const override;

  // Every SMX's neighbours on a mesh.
  static std::vector<neighbours> map_of(const noc::mesh_topology& t);
  const std::vector<neighbours>& map() const { return m_map; }

 private:
  std::vector<neighbours> m_map;
  std::vector<std::uint8_t> m_register;  // per SMX: bit d, the neighbour in direction d is relaxed
  counter m_signals;
  std::vector<latoa_message> m_messages;       // by tag
  std::vector<std::uint64_t> m_free;           // tags free again
  std::vector<std::uint32_t> m_contexts_from;  // per SMX: its contexts posted, not taken
};

}  // namespace gputlm::core
