// TBs per SMX against the CUDA occupancy arithmetic worked by hand (registers per thread
// rounded up to 4, threads padded to whole warps, as GPGPU-Sim allocates them).
#include <gtest/gtest.h>

#include "models/core/occupancy.h"

using namespace gputlm::core;

namespace {
smx_limits fermi() {  // GTX480: 8 TBs, 1536 threads, 32768 registers, 48 KiB shared
  smx_limits l;
  l.max_tbs = 8;
  l.max_threads = 1536;
  l.registers = 32768;
  l.max_registers_per_tb = 32768;
  l.shared_memory = 48 * 1024;
  l.max_shared_memory_per_tb = 48 * 1024;
  return l;
}
}  // namespace

TEST(occupancy, limited_by_tb_slots) {
  // 64 threads, 8 regs, no shared memory: 8 slots < 1536/64 = 24 and 32768/512 = 64.
  auto o = compute_occupancy(fermi(), {64, 8, 0});
  EXPECT_EQ(o.tbs_per_smx, 8u);
  EXPECT_EQ(o.limited_by, occupancy_limit::tbs);
}

TEST(occupancy, limited_by_threads) {
  // 512 threads: 1536/512 = 3.
  auto o = compute_occupancy(fermi(), {512, 8, 0});
  EXPECT_EQ(o.tbs_per_smx, 3u);
  EXPECT_EQ(o.limited_by, occupancy_limit::warps);
}

TEST(occupancy, limited_by_registers_with_rounding) {
  // 256 threads x 20 regs = 5120 per TB: 32768/5120 = 6 (threads allow 6 too; tbs first).
  EXPECT_EQ(compute_occupancy(fermi(), {256, 20, 0}).tbs_per_smx, 6u);
  // 21 regs round up to 24: 256 x 24 = 6144 per TB: 32768/6144 = 5.
  auto o = compute_occupancy(fermi(), {256, 21, 0});
  EXPECT_EQ(o.tbs_per_smx, 5u);
  EXPECT_EQ(o.limited_by, occupancy_limit::registers);
  // 100 threads pad to 4 warps = 128 threads: 128 x 64 = 8192 per TB -> 4.
  EXPECT_EQ(compute_occupancy(fermi(), {100, 64, 0}).tbs_per_smx, 4u);
}

TEST(occupancy, limited_by_shared_memory) {
  // 12 KiB per TB: 48/12 = 4.
  auto o = compute_occupancy(fermi(), {128, 8, 12 * 1024});
  EXPECT_EQ(o.tbs_per_smx, 4u);
  EXPECT_EQ(o.limited_by, occupancy_limit::shared_memory);
}

TEST(occupancy, too_big_to_fit) {
  EXPECT_EQ(compute_occupancy(fermi(), {2048, 8, 0}).limited_by, occupancy_limit::none_fit);
  EXPECT_EQ(compute_occupancy(fermi(), {32, 8, 64 * 1024}).tbs_per_smx, 0u);
}
