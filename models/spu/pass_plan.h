// The Stencil Processing Unit's runtime plan (Rajasree thesis §2.2.2, §4.1-4.3; summary in
// docs/references.md, "SPU runtime and sync"): a virtual grid of Bx x By CTAs (each
// owning a column of `tiles` tiles along k) cut into passes of at most p x p CTAs, run in
// row-wise order, CTA (X, Y) on SM (X mod p, Y mod p), one CTA per SM. Per pass, the
// interface units on the border either move the kernel's own inputs and outputs (west and
// north load, east and south store) or, where the pass has a neighbour pass on that side,
// act as virtual IUs: east and south spill the pass's border outputs to global memory,
// west and north restore a producer pass's spills. A pass narrower than the grid (a
// partial pass) has its east (south) border role taken by the SM column (row) just past
// its CTAs, as in SPU-Sim. Also the grid's counts for any p: p^2 SMs, 4p IUs, 2p(p+1)
// neighbour links, a pair of communication buffers on each.
//
// Counts are in tile faces (b x b elements) moved between global memory and the grid:
// with the thesis's directional sync a spilling VIU moves one face per sync of its
// producer SM (one per tile), so a pass spills and restores tiles x (its border lanes);
// with the global sync every active unit meets every barrier of the wavefront loop,
// (Bx - 1) + (By - 1) + tiles per pass (Algorithm 1), and a VIU spills at each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::spu {

// The side of the grid an interface unit sits on (SPU-Sim's %regiudir: 0 N, 1 E, 2 W, 3 S).
enum class side : std::uint8_t { north = 0, east = 1, west = 2, south = 3 };
const char* side_name(side s);

// What a border unit does in a pass.
enum class iu_role : std::uint8_t {
  idle,     // no CTA of the pass on its row or column
  load,     // west / north: the kernel's input faces from global memory
  store,    // east / south: the kernel's output faces to global memory
  restore,  // west / north VIU: a producer pass's spilled faces back into the buffers
  spill,    // east / south VIU: the pass's border faces out to global memory
};
const char* role_name(iu_role r);

// The counts of a p x p grid (Eq 5.1: 4 buffers per SM and 1 per IU).
struct grid_counts {
  std::uint32_t sms, ius, links, buffers;
};
grid_counts counts_of(std::uint32_t p);

class pass_plan {
 public:
  enum class sync_mode { pairwise, global };

  struct cta {
    std::uint32_t x, y;
    bool operator==(const cta& o) const { return x == o.x && y == o.y; }
  };
  struct pass {
    std::uint32_t x, y;        // the pass's coordinates (cpassx, cpassy)
    std::uint32_t cols, rows;  // CTAs of the pass along x and y (p, or fewer: partial)
  };
  // Who plays a border role: an interface unit (side, lane), or an SM (x, y) of a partial
  // pass acting as one.
  struct unit {
    bool is_sm = false;
    side s = side::north;
    std::uint32_t lane = 0;      // IU: along its side
    std::uint32_t x = 0, y = 0;  // SM
  };

  // Throws std::invalid_argument naming what cannot be mapped (p < 2, an empty grid, no
  // tiles).
  pass_plan(std::uint32_t p, std::uint32_t bx, std::uint32_t by, std::uint32_t tiles);

  std::uint32_t p() const { return m_p; }
  std::uint32_t passes_x() const { return m_px; }  // regpassx
  std::uint32_t passes_y() const { return m_py; }
  // Row-wise: (0,0), (1,0), ..., (0,1), ...
  const std::vector<pass>& passes() const { return m_passes; }
  std::size_t pass_index(const cta& c) const { return (c.y / m_p) * m_px + c.x / m_p; }
  // SM (X mod p, Y mod p), as the index y * p + x.
  std::uint32_t sm_of(const cta& c) const { return (c.y % m_p) * m_p + c.x % m_p; }
  // The CTAs SM `sm` runs, in pass order (its queue with overlapped passes).
  std::vector<cta> queue_of(std::uint32_t sm) const;
  // The CTAs of pass `i`, row by row.
  std::vector<cta> ctas_of(std::size_t i) const;

  iu_role role(std::size_t pass_index, side s, std::uint32_t lane) const;
  unit unit_of(std::size_t pass_index, side s, std::uint32_t lane) const;

  // Global barriers a CTA meets with the global sync: the kernel's loop, by default
  // Algorithm 1's (Bx - 1) + (By - 1) + tiles; set_global_barriers() takes a kernel's own
  // count (spu_stencil's loop also has the interface units' steps: 2 Bx + tiles).
  std::uint32_t global_barriers() const {
    return m_barriers ? m_barriers : (m_bx - 1) + (m_by - 1) + m_tiles;
  }
  void set_global_barriers(std::uint32_t n) { m_barriers = n; }
  // Faces spilled (= restored later) in pass i, and over the kernel.
  std::uint64_t spills(std::size_t pass_index, sync_mode m) const;
  std::uint64_t restores(std::size_t pass_index, sync_mode m) const;
  std::uint64_t total_spills(sync_mode m) const;
  std::uint64_t total_restores(sync_mode m) const;
  // Faces the border units move between global memory and the grid over the kernel
  // (loads, stores, spills, restores), and the CTAs' own A-tile loads and output-tile
  // stores (one face each per CTA): the off-chip traffic of the SPU in faces.
  std::uint64_t off_chip_faces(sync_mode m) const;

 private:
  std::uint32_t lanes(std::size_t pass_index, side s) const;

  std::uint32_t m_p, m_bx, m_by, m_tiles, m_px, m_py;
  std::uint32_t m_barriers = 0;
  std::vector<pass> m_passes;
};

}  // namespace gputlm::spu
