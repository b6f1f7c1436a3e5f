// Register banks: a register's bank against the rule written out here, (register + warp)
// mod banks, within the scheduler's share of the banks under the sub-core model, for bank
// counts with and without a power of two; and read conflicts counted by hand.
#include <gtest/gtest.h>

#include "models/core/register_banks.h"

namespace test_register_banks {

using gputlm::core::register_banks;

TEST(register_banks, bank_follows_register_plus_warp_mod_banks) {
  for (std::uint32_t banks : {1u, 2u, 6u, 8u, 16u}) {
    register_banks rb(banks, 1, 4, false, 0);
    for (std::uint32_t warp = 0; warp < 64; ++warp)
      for (std::uint32_t reg = 0; reg < 255; ++reg)
        ASSERT_EQ(rb.bank_of(reg, warp, warp % 4), (reg + warp) % banks)
            << banks << " banks, r" << reg << " warp " << warp;
  }
}

TEST(register_banks, sub_core_keeps_each_scheduler_in_its_share) {
  // 16 banks over 4 schedulers: 4 each; 12 over 4: 3 each (not a power of two).
  for (std::uint32_t banks : {16u, 12u}) {
    register_banks rb(banks, 1, 4, true, 0);
    const std::uint32_t per = banks / 4;
    for (std::uint32_t s = 0; s < 4; ++s)
      for (std::uint32_t warp = 0; warp < 64; ++warp)
        for (std::uint32_t reg = 0; reg < 255; ++reg)
          ASSERT_EQ(rb.bank_of(reg, warp, s), s * per + (reg + warp) % per)
              << banks << " banks, scheduler " << s << " r" << reg << " warp " << warp;
  }
}

TEST(register_banks, colliding_reads_wait_one_cycle_each) {
  // 4 banks, one read per bank per cycle: R0, R4 and R8 of warp 0 share bank 0, so the
  // third read happens two cycles after the first; R1 (bank 1) does not collide.
  register_banks rb(4, 1, 1, false, 0);
  const std::uint16_t regs[] = {0, 4, 8, 1};
  EXPECT_EQ(rb.read(regs, 4, 0, 0, 100), 102u);
  EXPECT_EQ(rb.conflicts(), 2u);
  const std::uint16_t other[] = {2, 3};
  EXPECT_EQ(rb.read(other, 2, 0, 0, 100), 100u);
}

}  // namespace test_register_banks
