// The SPU runtime's plan of passes (pass_plan.h).
#include "models/spu/pass_plan.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::spu {

const char* side_name(side s) {
  switch (s) {
    case side::north:
      return "north";
    case side::east:
      return "east";
    case side::west:
      return "west";
    case side::south:
      return "south";
  }
  return "?";
}

const char* role_name(iu_role r) {
  switch (r) {
    case iu_role::idle:
      return "idle";
    case iu_role::load:
      return "load";
    case iu_role::store:
      return "store";
    case iu_role::restore:
      return "restore";
    case iu_role::spill:
      return "spill";
  }
  return "?";
}

grid_counts counts_of(std::uint32_t p) {
  const std::uint32_t links = 2 * p * (p + 1);
  return {p * p, 4 * p, links, 2 * links};
}

pass_plan::pass_plan(std::uint32_t p, std::uint32_t bx, std::uint32_t by, std::uint32_t tiles)
    : m_p(p), m_bx(bx), m_by(by), m_tiles(tiles) {
  if (p < 2) throw std::invalid_argument("the SPU grid needs p >= 2, not " + std::to_string(p));
  if (bx == 0 || by == 0)
    throw std::invalid_argument("a CTA grid of " + std::to_string(bx) + " x " + std::to_string(by) +
                                " has no CTA to map");
  if (tiles == 0) throw std::invalid_argument("a CTA with no tile along k");
  m_px = (bx + p - 1) / p;
  m_py = (by + p - 1) / p;
  for (std::uint32_t y = 0; y < m_py; ++y)
    for (std::uint32_t x = 0; x < m_px; ++x)
      m_passes.push_back({x, y, std::min(p, bx - x * p), std::min(p, by - y * p)});
}

std::vector<pass_plan::cta> pass_plan::queue_of(std::uint32_t sm) const {
  const std::uint32_t sx = sm % m_p, sy = sm / m_p;
  std::vector<cta> q;
  for (const pass& ps : m_passes)
    if (sx < ps.cols && sy < ps.rows) q.push_back({ps.x * m_p + sx, ps.y * m_p + sy});
  return q;
}

std::vector<pass_plan::cta> pass_plan::ctas_of(std::size_t i) const {
  const pass& ps = m_passes.at(i);
  std::vector<cta> v;
  for (std::uint32_t y = 0; y < ps.rows; ++y)
    for (std::uint32_t x = 0; x < ps.cols; ++x) v.push_back({ps.x * m_p + x, ps.y * m_p + y});
  return v;
}

// Border lanes with a CTA behind them: rows on the west and east, columns on the north and
// south.
std::uint32_t pass_plan::lanes(std::size_t i, side s) const {
  const pass& ps = m_passes.at(i);
  return s == side::west || s == side::east ? ps.rows : ps.cols;
}

iu_role pass_plan::role(std::size_t i, side s, std::uint32_t lane) const {
  const pass& ps = m_passes.at(i);
  if (lane >= lanes(i, s)) return iu_role::idle;
  switch (s) {
    case side::west:
      return ps.x > 0 ? iu_role::restore : iu_role::load;
    case side::north:
      return ps.y > 0 ? iu_role::restore : iu_role::load;
    case side::east:
      return ps.x + 1 < m_px ? iu_role::spill : iu_role::store;
    case side::south:
      return ps.y + 1 < m_py ? iu_role::spill : iu_role::store;
  }
  return iu_role::idle;
}

pass_plan::unit pass_plan::unit_of(std::size_t i, side s, std::uint32_t lane) const {
  const pass& ps = m_passes.at(i);
  unit u;
  u.s = s;
  u.lane = lane;
  // A partial pass: the SM column (row) past its CTAs takes the east (south) border role.
  if (s == side::east && ps.cols < m_p) {
    u.is_sm = true;
    u.x = ps.cols;
    u.y = lane;
  } else if (s == side::south && ps.rows < m_p) {
    u.is_sm = true;
    u.x = lane;
    u.y = ps.rows;
  }
  return u;
}

std::uint64_t pass_plan::spills(std::size_t i, sync_mode m) const {
  const std::uint64_t per_lane = m == sync_mode::pairwise ? m_tiles : global_barriers();
  std::uint64_t n = 0;
  for (side s : {side::east, side::south})
    if (role(i, s, 0) == iu_role::spill) n += per_lane * lanes(i, s);
  return n;
}

std::uint64_t pass_plan::restores(std::size_t i, sync_mode m) const {
  const std::uint64_t per_lane = m == sync_mode::pairwise ? m_tiles : global_barriers();
  std::uint64_t n = 0;
  for (side s : {side::west, side::north})
    if (role(i, s, 0) == iu_role::restore) n += per_lane * lanes(i, s);
  return n;
}

std::uint64_t pass_plan::total_spills(sync_mode m) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < m_passes.size(); ++i) n += spills(i, m);
  return n;
}

std::uint64_t pass_plan::total_restores(sync_mode m) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < m_passes.size(); ++i) n += restores(i, m);
  return n;
}

std::uint64_t pass_plan::off_chip_faces(sync_mode m) const {
  std::uint64_t n = total_spills(m) + total_restores(m);
  for (std::size_t i = 0; i < m_passes.size(); ++i)
    for (side s : {side::west, side::north, side::east, side::south}) {
      const iu_role r = role(i, s, 0);
      if (r == iu_role::load || r == iu_role::store) n += std::uint64_t(m_tiles) * lanes(i, s);
    }
  return n + 2ull * m_bx * m_by;  // each CTA's A tile and output tile
}

}  // namespace gputlm::spu
