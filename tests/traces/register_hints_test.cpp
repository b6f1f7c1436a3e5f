// Slumber's register hints from a trace (traces/register_hints.h) on a hand-made warp with
// a two-iteration loop, worked out backwards by hand, and `gputlm trace hints` end to end.
#include "traces/register_hints.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"
#include "tests/common/run_command.h"

namespace gputlm::traces {
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

}  // namespace gputlm::traces
