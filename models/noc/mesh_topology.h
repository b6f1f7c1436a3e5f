// Where a 2-D mesh puts its nodes (models/noc/mesh.h, export `topology`): the grid and the
// node of each SMX, for a block that acts on neighbouring cores (LATOA's neighbour status,
// models/core/latoa_neighbours.h). Node n is at column n mod columns, row n / columns;
// east is the next column, north the row above (node - columns), as the mesh routes.
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::noc {

class mesh_topology : public virtual sc_core::sc_interface {
 public:
  virtual std::uint32_t columns() const = 0;
  virtual std::uint32_t rows() const = 0;
  virtual std::uint32_t smx_count() const = 0;
  virtual std::uint32_t smx_node(std::uint32_t smx) const = 0;
};

}  // namespace gputlm::noc
