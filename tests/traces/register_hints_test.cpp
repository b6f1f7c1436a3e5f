// Slumber's register hints from a trace (traces/register_hints.h) on a hand-made warp with
// a two-iteration loop, worked out backwards by hand, and `gputlm trace hints` end to end.
#include "traces/register_hints.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"
#include "tests/common/run_command.h"

namespace gputlm::traces::register_hints_test {
namespace fs = std::filesystem;

namespace {
// One warp:                                  next access of each register afterwards
//   0000 R0 = LDG [R4]                       R0: read (0010)   R4: read (0040)
//   0010 R1 = IADD R0, R1   (iteration 1)    R0: read (0010)   R1: read (0010)
//   0020 BRA
//   0010 R1 = IADD R0, R1   (iteration 2)    R0: none -> W     R1: write (0030) -> W
//   0020 BRA
//   0030 R1 = MOV R5                         R1: read (0040)   R5: none -> W
//   0040 STG [R4], R1                        R4: none -> W     R1: none -> W
//   00f0 EXIT
// Static hints: the loop's operands (0010, R0) and (0010, R1) are R in one iteration and W
// in the other: conflicted, hence R. W: (0030, R5), (0040, R4), (0040, R1).
std::string loop_warp() {
  return test::header(4, false, "(1,1,1)") +
         "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 8\n"
         "0000 00000001 1 R0 LDG.E 1 R4 4 0 0x100\n"
         "0010 00000001 1 R1 IADD 2 R0 R1 0\n"
         "0020 00000001 0 BRA 0 0\n"
         "0010 00000001 1 R1 IADD 2 R0 R1 0\n"
         "0020 00000001 0 BRA 0 0\n"
         "0030 00000001 1 R1 MOV 1 R5 0\n"
         "0040 00000001 0 STG.E 2 R4 R1 4 0 0x104\n"
         "00f0 00000001 0 EXIT 0 0\n"
         "#END_TB\n";
}
// The TB of loop_warp(), read back from a trace written with it.
std::shared_ptr<const tb_trace> loop_tb() {
  const fs::path dir = test::scratch_dir();
  test::one_kernel_trace(dir, loop_warp());
  auto app = open_trace(dir.string());
  std::size_t ci = 0;
  while (app->commands()[ci].what == command::kind::memcpy_h2d) ++ci;
  return app->kernel(ci).read_tb(0);
}
}  // namespace

TEST(RegisterHints, HandMadeLoopBackwards) {
  const fs::path dir = test::scratch_dir();
  test::one_kernel_trace(dir, loop_warp());
  auto app = open_trace(dir.string());
  const register_hints h = derive_register_hints(*app);
  EXPECT_EQ(h.dynamic, 10u);
  EXPECT_EQ(h.dynamic_write, 5u);
  EXPECT_EQ(h.operands.size(), 8u);
  EXPECT_EQ(h.conflicted, 2u);
  EXPECT_EQ(h.static_write_dynamic, 3u);
  auto at = [&](std::uint32_t pc, std::uint16_t reg) { return h.operands.at({1, pc, reg}); };
  EXPECT_FALSE(at(0x00, 0).static_write());
  EXPECT_FALSE(at(0x00, 4).static_write());
  EXPECT_EQ(at(0x10, 0).next_read, 1u);
  EXPECT_EQ(at(0x10, 0).next_write, 1u);
  EXPECT_FALSE(at(0x10, 1).static_write());
  EXPECT_FALSE(at(0x30, 1).static_write());
  EXPECT_TRUE(at(0x30, 5).static_write());
  EXPECT_TRUE(at(0x40, 4).static_write());
  EXPECT_TRUE(at(0x40, 1).static_write());
}

TEST(RegisterHints, StaticWithinTheWarpByHand) {
  // Exact bits per instruction (bit r: the r-th register's next access is a write or none):
  // 0 LDG [R4 R, R0 R] 0; 1 IADD [R0 R, R1 R] 0; 3 IADD [R0 W, R1 W] 3; 5 MOV [R5 W, R1 R] 1;
  // 6 STG [R4 W, R1 W] 3. Static: the operands of PC 0x10 (instructions 1 and 3) disagree,
  // so both are R at instruction 3 too: 0. The rest have one instance each.
  const auto tb = loop_tb();
  std::vector<std::uint8_t> bits, next(65536, 0);
  warp_register_hints(tb->warps[0], bits, next);
  EXPECT_EQ(bits, (std::vector<std::uint8_t>{0, 0, 0, 3, 0, 1, 3, 0}));
  static_within_warp(tb->warps[0], bits);
  EXPECT_EQ(bits, (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1, 3, 0}));
}

TEST(RegisterHints, NextUsesByHand) {
  // Per instruction, its registers in registers_of's order (sources, then destinations not
  // also sources) and how many instructions later each is accessed again (0: never):
  //   0 LDG:  R4 -> 6 (STG), R0 -> 1     1 IADD: R0 -> 2, R1 -> 2     2 BRA
  //   3 IADD: R0 -> 0, R1 -> 2 (MOV)     4 BRA                        5 MOV: R5 -> 0, R1 -> 1
  //   6 STG:  R4 -> 0, R1 -> 0           7 EXIT
  const auto tb = loop_tb();
  std::vector<std::uint8_t> next;
  std::vector<std::uint32_t> at(65536, ~0u);
  warp_next_uses(tb->warps[0], next, at);
  std::vector<std::uint8_t> expected(8 * 6, 0);
  auto set = [&](std::size_t i, std::size_t r, std::uint8_t d) { expected[i * 6 + r] = d; };
  set(0, 0, 6), set(0, 1, 1), set(1, 0, 2), set(1, 1, 2), set(3, 1, 2), set(5, 1, 1);
  EXPECT_EQ(next, expected);
  EXPECT_TRUE(std::all_of(at.begin(), at.end(), [](std::uint32_t v) { return v == ~0u; }))
      << "the scratch is left as it was given";
}

TEST(RegisterHints, CommandWritesTheTableAndRefusesBadInput) {
  const fs::path dir = test::scratch_dir();
  fs::create_directories(dir / "trace");
  test::one_kernel_trace(dir / "trace", loop_warp());
  const std::string bin = gputlm::testing::gputlm_bin() + " trace hints ";
  const std::string out = (dir / "hints.txt").string();
  auto r = gputlm::testing::run_command(bin + (dir / "trace").string() + " -o " + out, "hints");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"exact_write_share\": 0.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"static_write_share\": 0.3"), std::string::npos) << r.out;
  const std::string table = test::read_file(out);
  EXPECT_NE(table.find("1 0010 R0 R 1 1\n"), std::string::npos) << table;
  EXPECT_NE(table.find("1 0040 R4 W 1 0\n"), std::string::npos) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 9);  // a header line and 8
  // The output may not be the trace, nor in a missing directory; a missing trace is one line.
  for (const std::string& args :
       {(dir / "trace").string() + " -o " + (dir / "trace" / "kernelslist.g").string(),
        (dir / "trace").string() + " -o " + (dir / "nodir" / "x.txt").string(),
        (dir / "missing").string()}) {
    auto b = gputlm::testing::run_command(bin + args, "hints_bad");
    EXPECT_EQ(b.status, 2) << args << "\n" << b.err;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

}  // namespace gputlm::traces::register_hints_test
