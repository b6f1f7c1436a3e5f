// The AGT's entry index (models/control/agt.h), by hand: `thread` is the thesis's
// hw_tid & (entries - 1), blind to the SMX; `smx_thread` XORs the SMX number, bit-reversed,
// into the index's high bits.
#include <gtest/gtest.h>

#include "models/control/agt.h"

namespace test_agt_hash {

using gputlm::control::agt;

TEST(agt_hash, the_thesis_hash_ignores_the_smx) {
  EXPECT_EQ(agt::hash_index(false, 64, 0, 1024), 64u);
  EXPECT_EQ(agt::hash_index(false, 64, 1, 1024), 64u);   // the same entry: they collide
  EXPECT_EQ(agt::hash_index(false, 1500, 7, 1024), 476u);  // 1500 - 1024
}

TEST(agt_hash, with_the_smx_two_smxs_take_different_entries) {
  // 1024 entries: 10 index bits. SMX 1 reversed is bit 31, shifted to bit 9 (512); SMX 2
  // bit 8 (256); SMX 3 both (768); SMX 0 changes nothing.
  EXPECT_EQ(agt::hash_index(true, 64, 0, 1024), 64u);
  EXPECT_EQ(agt::hash_index(true, 64, 1, 1024), 64u ^ 512u);   // 576
  EXPECT_EQ(agt::hash_index(true, 64, 2, 1024), 64u ^ 256u);   // 320
  EXPECT_EQ(agt::hash_index(true, 64, 3, 1024), 64u ^ 768u);   // 832
  EXPECT_EQ(agt::hash_index(true, 600, 1, 1024), 600u ^ 512u);  // 88
  // 2048 entries: SMX 1 flips bit 10.
  EXPECT_EQ(agt::hash_index(true, 64, 1, 2048), 64u + 1024u);
  // One entry: everything on it.
  EXPECT_EQ(agt::hash_index(true, 64, 5, 1), 0u);
}

}  // namespace test_agt_hash
