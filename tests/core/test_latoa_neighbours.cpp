// LATOA's neighbour map and status registers (models/core/latoa_neighbours.h) on the
// 56-core mesh, worked by hand from its layout: memory nodes at column 4 of every row
// (node 8j + 4), the SMXs on the other nodes in order (row r: SMX 7r..7r+3 at columns
// 0-3, 7r+4..7r+6 at columns 5-7); east is the next column, north the row above. The
// MSHR's second-newest entry and its requesters on a hand-made table, and the irregular
// rule at 4 and 5 of 16 slots.
#include <gtest/gtest.h>

#include "models/core/latoa_neighbours.h"
#include "models/core/latoa_unit.h"
#include "models/memory/mshr_table.h"
#include "platforms/platform.h"

namespace test_latoa_neighbours {

using namespace gputlm;
using core::latoa_neighbours;
constexpr std::uint32_t none = core::neighbour_status::none;

TEST(latoa_neighbours, the_map_and_registers_on_the_8x8_mesh_by_hand) {
  auto p =
      platforms::platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/latoa.yaml", {},
                                {std::string(GPUTLM_SOURCE_DIR) + "/yaml/mechanisms/latoa.yaml"});
  auto* n = dynamic_cast<latoa_neighbours*>(sc_core::sc_find_object("gpu.latoa_neighbours"));
  ASSERT_NE(n, nullptr);
  const auto& m = n->map();
  ASSERT_EQ(m.size(), 56u);
  using nb = latoa_neighbours::neighbours;     // E, N, W, S
  EXPECT_EQ(m[0], (nb{1, none, none, 7}));     // node 0, the corner
  EXPECT_EQ(m[3], (nb{none, none, 2, 10}));    // node 3: east is memory node 4
  EXPECT_EQ(m[4], (nb{5, none, none, 11}));    // node 5: west is memory node 4
  EXPECT_EQ(m[11], (nb{12, 4, none, 18}));     // node 13 (5, 1)
  EXPECT_EQ(m[55], (nb{none, 48, 54, none}));  // node 63, the far corner
  // Every link is seen from both ends.
  for (std::uint32_t i = 0; i < 56; ++i)
    for (std::uint32_t d = 0; d < 4; ++d)
      if (m[i][d] != none) {
        EXPECT_EQ(m[m[i][d]][(d + 2) % 4], i) << i << " " << d;
      }
  // Everyone starts relaxed: SMX 11 offloads east; then, as neighbours stop being relaxed,
  // north, then (west has none) south, then nowhere.
  EXPECT_EQ(n->adopter_for(11), 12u);
  n->relaxed_changed(12, false);
  EXPECT_EQ(n->adopter_for(11), 4u);
  n->relaxed_changed(4, false);
  EXPECT_EQ(n->adopter_for(11), 18u);
  n->relaxed_changed(18, false);
  EXPECT_EQ(n->adopter_for(11), none);
  n->relaxed_changed(4, true);
  EXPECT_EQ(n->adopter_for(11), 4u);
  EXPECT_EQ(n->adopter_for(5), 6u);  // SMX 5's east neighbour, 6, is untouched
}

TEST(latoa_mshr, the_second_newest_entry_and_its_requesters) {
  memory::mshr_table t(8, 16);
  int r[6];
  const int a = t.allocate(0x100, 0xf, &r[0]);
  const int b = t.allocate(0x200, 0xf, &r[1]);
  t.merge(b, &r[2], 0xf, 0);
  t.merge(b, &r[3], 0xf, 0);
  const int c = t.allocate(0x300, 0xf, &r[4]);
  EXPECT_EQ(t.newest(0), c);
  EXPECT_EQ(t.newest(1), b);  // the paper's Entry 7 of a full table
  EXPECT_EQ(t.newest(2), a);
  EXPECT_EQ(t.newest(3), -1);
  std::vector<void*> who;
  t.requesters(b, who);
  EXPECT_EQ(who, (std::vector<void*>{&r[1], &r[2], &r[3]}));
  // Entry b goes; the second newest is then a, and a new entry becomes the newest.
  std::vector<memory::mshr_table::slot> out;
  t.release(b, out);
  EXPECT_EQ(t.newest(1), a);
  const int d = t.allocate(0x400, 0xf, &r[5]);
  EXPECT_EQ(t.newest(0), d);
  EXPECT_EQ(t.newest(1), c);
  // Irregular: at most a quarter of 16 slots.
  EXPECT_TRUE(core::latoa_unit::irregular(4, 16, 0.25));
  EXPECT_FALSE(core::latoa_unit::irregular(5, 16, 0.25));
  EXPECT_TRUE(core::latoa_unit::irregular(1, 16, 0.25));
}

}  // namespace test_latoa_neighbours
