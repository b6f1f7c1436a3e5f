// `gputlm trace info`: counts and footprints of a small trace, worked out by hand.
#include <gtest/gtest.h>

#include <sstream>

#include "test_util.h"
#include "traces/trace_cli.h"

namespace gputlm::traces::cli_test {
namespace {

TEST(TraceInfo, SummaryOfSmallTrace) {
  auto dir = test::scratch_dir();
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 5\n"
      "0000 ffffffff 1 R1 FFMA 3 R2 R3 R4 0\n"
      // 0x1000..0x100c, 4 B each: line 0x20, sector 0x80
      "0010 0000000f 1 R2 LDG.E.SYS 1 R4 4 1 0x1000 4\n"
      // 0x2000 and 0x2010, 8 B: line 0x40, sector 0x100
      "0020 00000005 0 STG.E.64.SYS 2 R4 R6 8 0 0x2000 0x2010\n"
      // 0x3000, 0x2ff0, 0x3020, 16 B: lines 0x60 and 0x5f, sectors 0x180, 0x17f, 0x181
      "0030 0000000b 1 R3 LDG.E.128.SYS 1 R8 16 2 0x3000 -16 48\n"
      "0040 ffffffff 0 EXIT 0 0\n"
      "warp = 1\n"
      "insts = 0\n"
      "#END_TB\n"
      "#BEGIN_TB\n"
      "thread block = 1,0,0\n"
      "warp = 0\n"
      "insts = 3\n"
      // shared: not device memory
      "0050 ffffffff 1 R9 LDS.U8 1 R2 1 1 0x00007f2c60000000 1\n"
      // straddles sectors 0x80 and 0x81 (line 0x20), 2 lanes * 4 B at 0x101c, 0x1020
      "0060 00000003 1 R9 LDG.E 1 R2 4 1 0x101c 4\n"
      "0070 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n";
  test::one_kernel_trace(dir, test::header(3, false, "(2,1,1)", "(64,1,1)") + body);
  auto app = open_trace(dir.string(), {});
  trace_summary s = summarize(*app);
  ASSERT_EQ(s.kernels.size(), 1u);
  const kernel_summary& k = s.kernels[0];
  EXPECT_EQ(s.memcpy_count, 1u);
  EXPECT_EQ(s.memcpy_bytes, 4096u);
  EXPECT_EQ(k.tbs, 2u);
  EXPECT_EQ(k.warps, 2u);  // warp 1 of TB 0 and warp 1 of TB 1 are empty
  EXPECT_EQ(k.instructions, 8u);
  EXPECT_EQ(k.by_unit[std::size_t(unit_class::sp)], 1u);
  EXPECT_EQ(k.by_unit[std::size_t(unit_class::ldst)], 5u);
  EXPECT_EQ(k.by_unit[std::size_t(unit_class::exit)], 2u);
  EXPECT_EQ(k.thread_accesses, 4u + 2 + 3 + 32 + 2);
  EXPECT_EQ(k.lines_128, 4u);
  EXPECT_EQ(k.sectors_32, 6u);
  EXPECT_EQ(s.lines_128, 4u);
  EXPECT_EQ(s.sectors_32, 6u);

  std::ostringstream os;
  print_summary(os, *app, s);
  std::string out = os.str();
  EXPECT_NE(out.find("grid (2,1,1) block (64,1,1)  TBs 2  warps 2"), std::string::npos) << out;
  EXPECT_NE(out.find("footprint 512 B = 4 lines of 128 B, 6 sectors of 32 B"), std::string::npos)
      << out;
  EXPECT_NE(out.find("ldst 5 (62.5%)"), std::string::npos) << out;

  EXPECT_EQ(info_main({dir.string()}), 0);
  EXPECT_EQ(info_main({"--help"}), 0);
  test::expect_input_error([] { info_main({}); }, {"TRACE"});
  test::expect_input_error([] { info_main({"--bogus"}); }, {"bogus"});
}

}  // namespace
}  // namespace gputlm::traces::cli_test
