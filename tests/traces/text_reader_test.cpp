// Accel-Sim text traces: hand-written snippets in every address mode and tracer version,
// compared with values worked out by hand.
#include "traces/text_reader.h"

#include <gtest/gtest.h>

#include "test_util.h"
#include "traces/trace_reader.h"

namespace gputlm::traces::text_reader_test {
namespace {

using test::header;
using test::one_kernel_trace;
using test::scratch_dir;
using test::write_file;

std::vector<std::uint64_t> lane_addresses(const warp_trace& w, const warp_instruction& in) {
  std::uint64_t a[32];
  return std::vector<std::uint64_t>(a, a + expand_addresses(w, in, a));
}

// Tracer version 3: no line numbers, no immediates; all three address modes.
const char* k_v3_body =
    "#BEGIN_TB\n"
    "\n"
    "thread block = 0,0,0\n"
    "\n"
    "warp = 0\n"
    "insts = 5\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0\n"
    "0010 0000000f 1 R2 LDG.E.SYS 1 R4 4 1 0x1000 4\n"
    "0020 00000005 0 STG.E.64.SYS 2 R4 R6 8 0 0x2000 0x2010\n"
    "0030 0000000b 1 R3 LDG.E.128.SYS 1 R8 16 2 0x3000 -16 48\n"
    "0040 ffffffff 0 EXIT 0 0\n"
    "warp = 1\n"
    "insts = 2\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0\n"
    "0040 ffffffff 0 EXIT 0 0\n"
    "\n"
    "#END_TB\n"
    "\n"
    "#BEGIN_TB\n"
    "\n"
    "thread block = 1,0,0\n"
    "\n"
    "warp = 1\n"
    "insts = 1\n"
    "0050 80000000 1 R9 LDS.U8 1 R2 1 0 0x00007f2c60000010\n"
    "warp = 0\n"
    "insts = 1\n"
    "0060 00000001 0 BAR.SYNC 0 0\n"
    "#END_TB\n";

TEST(TextReader, Version3AllAddressModes) {
  auto dir = one_kernel_trace(scratch_dir(), header(3, false, "(2,1,1)", "(64,1,1)") + k_v3_body);
  auto app = open_trace(dir.string(), {});
  ASSERT_EQ(app->commands().size(), 2u);
  EXPECT_EQ(app->commands()[0].what, command::kind::memcpy_h2d);
  EXPECT_EQ(app->commands()[0].addr, 0x00007f2c3e000000u);
  EXPECT_EQ(app->commands()[0].bytes, 4096u);
  EXPECT_EQ(app->commands()[1].what, command::kind::kernel_launch);
  EXPECT_EQ(app->commands()[1].kernel_file, "kernel-1.traceg");

  kernel_reader& k = app->kernel(1);
  const kernel_info& info = k.info();
  EXPECT_EQ(info.name, "_Z6vecAddPfS_S_i");
  EXPECT_EQ(info.id, 1u);
  EXPECT_EQ(info.grid, (dim3{2, 1, 1}));
  EXPECT_EQ(info.block, (dim3{64, 1, 1}));
  EXPECT_EQ(info.nregs, 16u);
  EXPECT_EQ(info.binary_version, 70u);
  EXPECT_EQ(info.shmem_base, 0x00007f2c60000000u);
  EXPECT_EQ(info.local_base, 0x00007f2c5e000000u);
  EXPECT_EQ(info.nvbit_version, "1.5.5");
  EXPECT_EQ(info.tracer_version, 3u);
  EXPECT_FALSE(info.lineinfo);
  EXPECT_EQ(k.tb_count(), 2u);

  auto tb = k.read_tb(0);
  ASSERT_EQ(tb->warps.size(), 2u);
  const warp_trace& w = tb->warps[0];
  ASSERT_EQ(w.insts.size(), 5u);
  const opcode_table& ops = k.opcodes();

  const warp_instruction& mov = w.insts[0];
  EXPECT_EQ(mov.pc, 0x0u);
  EXPECT_EQ(mov.active_mask, 0xffffffffu);
  EXPECT_EQ(ops[mov.opcode].mnemonic, "IMAD.MOV.U32");
  EXPECT_EQ(mov.unit, unit_class::int_alu);
  EXPECT_EQ(mov.num_dst, 1);
  EXPECT_EQ(mov.dst[0], 1);
  EXPECT_EQ(mov.num_src, 2);
  EXPECT_EQ(mov.src[0], 255);
  EXPECT_EQ(mov.src[1], 255);
  EXPECT_EQ(mov.addr_index, warp_instruction::none);
  EXPECT_EQ(mov.access_size, 0);

  const warp_instruction& ld = w.insts[1];  // base+stride 0x1000, 4, lanes 0-3
  EXPECT_EQ(ld.pc, 0x10u);
  EXPECT_EQ(ld.unit, unit_class::ldst);
  EXPECT_EQ(ld.space, mem_space::global);
  EXPECT_EQ(ld.access_size, 4);
  EXPECT_EQ(lane_addresses(w, ld), (std::vector<std::uint64_t>{0x1000, 0x1004, 0x1008, 0x100c}));

  const warp_instruction& st = w.insts[2];  // list, lanes 0 and 2
  EXPECT_EQ(st.num_dst, 0);
  EXPECT_EQ(st.num_src, 2);
  EXPECT_EQ(st.src[1], 6);
  EXPECT_EQ(st.access_size, 8);
  EXPECT_EQ(lane_addresses(w, st), (std::vector<std::uint64_t>{0x2000, 0x2010}));

  const warp_instruction& ld128 = w.insts[3];  // base+delta, lanes 0, 1, 3
  EXPECT_EQ(ld128.access_size, 16);
  EXPECT_EQ(lane_addresses(w, ld128), (std::vector<std::uint64_t>{0x3000, 0x2ff0, 0x3020}));

  EXPECT_EQ(w.insts[4].special, special_op::exit);
  EXPECT_EQ(w.insts[4].unit, unit_class::exit);
  EXPECT_EQ(tb->warps[1].insts.size(), 2u);

  auto tb1 = k.read_tb(1);
  EXPECT_EQ(tb1->index, (dim3{1, 0, 0}));
  ASSERT_EQ(tb1->warps[1].insts.size(), 1u);
  const warp_instruction& lds = tb1->warps[1].insts[0];
  EXPECT_EQ(lds.space, mem_space::shared);
  EXPECT_EQ(lds.access_size, 1);
  EXPECT_EQ(lane_addresses(tb1->warps[1], lds), (std::vector<std::uint64_t>{0x7f2c60000010}));
  EXPECT_EQ(tb1->warps[0].insts[0].special, special_op::bar_sync);
  EXPECT_TRUE(k.unknown_opcodes().empty());
}

// Tracer version 4 with lineinfo: a leading decimal line number on every instruction.
TEST(TextReader, Version4LineInfo) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 3\n"
      "12 0000 ffffffff 1 R1 S2R 0 0\n"
      "17 0010 0000ff00 1 R2 LDG.E.64 1 R4 8 1 0x7efe7b60c300 8\n"
      "4294967295 0020 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n";
  auto dir = one_kernel_trace(scratch_dir(), header(4, true) + body);
  auto app = open_trace(dir.string(), {});
  kernel_reader& k = app->kernel(1);
  EXPECT_TRUE(k.info().lineinfo);
  auto tb = k.read_tb(0);
  const warp_trace& w = tb->warps[0];
  ASSERT_EQ(w.insts.size(), 3u);
  EXPECT_EQ(w.insts[0].line, 12u);
  EXPECT_EQ(w.insts[0].pc, 0u);
  EXPECT_EQ(w.insts[1].line, 17u);
  EXPECT_EQ(w.insts[1].pc, 0x10u);
  EXPECT_EQ(w.insts[1].active_mask, 0xff00u);
  std::vector<std::uint64_t> want;
  for (int i = 0; i < 8; ++i) want.push_back(0x7efe7b60c300 + 8 * i);  // lanes 8..15
  EXPECT_EQ(lane_addresses(w, w.insts[1]), want);
  EXPECT_EQ(w.insts[2].line, 4294967295u);
}

// Tracer version 5: a trailing decimal immediate on every line.
TEST(TextReader, Version5Immediates) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 4\n"
      "0000 ffffffff 1 R1 IADD3 2 R2 R3 0 -5\n"
      "0010 00000003 1 R2 LDG.E 1 R4 4 0 0x1000 0x1100 24\n"
      "0020 00000003 1 R2 LDG.E 1 R4 4 2 0x1000 -8 2147483647\n"
      "0030 ffffffff 0 EXIT 0 0 0\n"
      "#END_TB\n";
  auto dir = one_kernel_trace(scratch_dir(), header(5, false) + body);
  auto app = open_trace(dir.string(), {});
  kernel_reader& k = app->kernel(1);
  auto tb = k.read_tb(0);
  const warp_trace& w = tb->warps[0];
  EXPECT_EQ(w.insts[0].immediate, -5);
  EXPECT_EQ(w.insts[1].immediate, 24);
  EXPECT_EQ(lane_addresses(w, w.insts[1]), (std::vector<std::uint64_t>{0x1000, 0x1100}));
  EXPECT_EQ(w.insts[2].immediate, 2147483647);
  EXPECT_EQ(lane_addresses(w, w.insts[2]), (std::vector<std::uint64_t>{0x1000, 0xff8}));
  EXPECT_EQ(w.insts[3].immediate, 0);
}

// Whitespace variations, blank lines, CRLF, comments, absent optional header keys.
TEST(TextReader, ToleratesWhitespaceAndMissingKeys) {
  std::string text =
      "-kernel name = k\r\n"
      "-kernel id = 7\r\n"
      "-grid dim = ( 1 , 1 , 1 )\r\n"
      "-block dim = (32,1,1)\r\n"
      "-future key = whatever\r\n"
      "\r\n"
      "#traces format = whatever\r\n"
      "\r\n"
      "#BEGIN_TB\r\n"
      "\r\n"
      "   thread block   =   0 , 0 , 0   \r\n"
      "# a comment inside the TB\r\n"
      "warp=0\r\n"
      "  insts   =  2\r\n"
      "\t0000   ffffffff\t1 R1   FFMA 3 R2 R3 R4   0   \r\n"
      "\r\n"
      "0010 0000000F 0 EXIT 0 0\r\n"
      "#END_TB\r\n";
  auto dir = scratch_dir();
  write_file(dir / "kernelslist.g", "\n  kernel-7.traceg  \r\n\n");
  write_file(dir / "kernel-7.traceg", text);
  auto app = open_trace((dir / "kernelslist.g").string(), {});
  kernel_reader& k = app->kernel("kernel-7.traceg");
  EXPECT_EQ(k.info().id, 7u);
  EXPECT_EQ(k.info().tracer_version, 3u);  // absent: the oldest supported
  EXPECT_EQ(k.info().binary_version, 0u);
  EXPECT_EQ(k.info().shmem_base, 0u);
  auto tb = k.read_tb(0);
  ASSERT_EQ(tb->warps[0].insts.size(), 2u);
  EXPECT_EQ(tb->warps[0].insts[0].num_src, 3);
  EXPECT_EQ(tb->warps[0].insts[0].unit, unit_class::sp);
  EXPECT_EQ(tb->warps[0].insts[1].active_mask, 0xfu);
}

// Generic LD/ST/ATOM resolve to shared or local by the header's base addresses.
TEST(TextReader, GenericAccessesResolvedAgainstWindows) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 4\n"
      "0000 00000001 1 R1 LD.E 1 R2 4 0 0x00007f2c60000100\n"
      "0010 00000001 1 R1 LD.E 1 R2 4 0 0x00007f2c5e000040\n"
      "0020 00000001 1 R1 LD.E 1 R2 4 0 0x00007f0000000000\n"
      "0030 00000001 1 R1 ATOM.E.ADD 1 R2 4 0 0x00007f2c60000004\n"
      "#END_TB\n";
  auto dir = one_kernel_trace(scratch_dir(), header(3, false) + body);
  auto app = open_trace(dir.string(), {});
  auto tb = app->kernel(1).read_tb(0);
  const auto& in = tb->warps[0].insts;
  EXPECT_EQ(in[0].space, mem_space::shared);
  EXPECT_EQ(in[1].space, mem_space::local);
  EXPECT_EQ(in[2].space, mem_space::global);
  EXPECT_EQ(in[3].space, mem_space::shared_atomic);
}

// gputlm extensions: device launches, communication buffers, directional sync; with v5 the
// key=value tokens may come before or after the immediate.
TEST(TextReader, ExtensionTokens) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 7\n"
      "0000 00000001 0 CDP.LAUNCH 0 0 0 kernel=2 grid=4,2,1 block=128,1,1 shmem=256 "
      "param=0x7f0000001000\n"
      "0010 00000001 0 DTBL.LAUNCH 0 0 kernel=3 grid=8,1,1 block=64,1,1 shmem=0 param=0x10 0\n"
      "0020 ffffffff 0 CB.PUSH.EAST 1 R4 0 0 bytes=128\n"
      "0030 ffffffff 1 R5 CB.POP.WEST 0 0 0 bytes=64\n"
      "0040 ffffffff 0 BAR.BLOCKSYNC 0 0 0\n"
      "0050 ffffffff 0 BAR.BLOCKSYNC.NORTH 0 0 0\n"
      "0060 ffffffff 0 EXIT 0 0 0\n"
      "#END_TB\n";
  auto dir = scratch_dir();
  write_file(dir / "kernelslist.g",
             "kernel-1.traceg\nDeviceKernel,kernel-2.traceg\nDeviceKernel,kernel-3.traceg\n");
  write_file(dir / "kernel-1.traceg", header(5, false) + body);
  std::string child = header(5, false, "(4,2,1)", "(128,1,1)");
  child.replace(child.find("-kernel id = 1"), 14, "-kernel id = 2");
  write_file(dir / "kernel-2.traceg", child);
  write_file(dir / "kernel-3.traceg", header(5, false, "(8,1,1)", "(64,1,1)"));
  auto app = open_trace(dir.string(), {});
  ASSERT_EQ(app->commands().size(), 3u);
  EXPECT_EQ(app->commands()[1].what, command::kind::device_kernel);
  EXPECT_EQ(app->commands()[1].kernel_file, "kernel-2.traceg");
  EXPECT_TRUE(app->kernel(1).info().device_launched);
  EXPECT_FALSE(app->kernel(0).info().device_launched);

  auto tb = app->kernel(0).read_tb(0);
  const warp_trace& w = tb->warps[0];
  ASSERT_EQ(w.insts.size(), 7u);
  ASSERT_EQ(w.launches.size(), 2u);
  EXPECT_EQ(w.insts[0].special, special_op::launch_kernel);
  EXPECT_EQ(w.insts[0].unit, unit_class::branch);
  EXPECT_EQ(w.insts[0].ext_index, 0u);
  EXPECT_EQ(w.launches[0].child_kernel, 2u);
  EXPECT_EQ(w.launches[0].grid, (dim3{4, 2, 1}));
  EXPECT_EQ(w.launches[0].block, (dim3{128, 1, 1}));
  EXPECT_EQ(w.launches[0].shmem, 256u);
  EXPECT_EQ(w.launches[0].param_addr, 0x7f0000001000u);
  EXPECT_EQ(w.insts[1].special, special_op::launch_agg_group);
  EXPECT_EQ(w.insts[1].ext_index, 1u);
  EXPECT_EQ(w.launches[1].child_kernel, 3u);
  EXPECT_EQ(w.launches[1].grid, (dim3{8, 1, 1}));
  EXPECT_EQ(w.launches[1].param_addr, 0x10u);
  EXPECT_EQ(w.insts[2].special, special_op::cb_push);
  EXPECT_EQ(w.insts[2].dir, direction::east);
  EXPECT_EQ(w.insts[2].unit, unit_class::ldst);
  EXPECT_EQ(w.insts[2].space, mem_space::none);
  EXPECT_EQ(w.insts[2].ext_index, 128u);
  EXPECT_EQ(w.insts[2].src[0], 4);
  EXPECT_EQ(w.insts[3].special, special_op::cb_pop);
  EXPECT_EQ(w.insts[3].dir, direction::west);
  EXPECT_EQ(w.insts[3].ext_index, 64u);
  EXPECT_EQ(w.insts[3].dst[0], 5);
  EXPECT_EQ(w.insts[4].special, special_op::block_sync);
  EXPECT_EQ(w.insts[4].dir, direction::global);
  EXPECT_EQ(w.insts[5].special, special_op::block_sync);
  EXPECT_EQ(w.insts[5].dir, direction::north);
  EXPECT_EQ(w.insts[6].special, special_op::exit);
  EXPECT_TRUE(app->kernel(0).unknown_opcodes().empty());
}

TEST(TextReader, CompressedKernelsXzAndGz) {
  std::string text = header(3, false, "(2,1,1)", "(64,1,1)") + k_v3_body;
  auto dir = scratch_dir();
  write_file(dir / "kernelslist.g", "kernel-1.traceg.xz\nkernel-2.traceg.gz\nkernel-3.traceg\n");
  write_file(dir / "kernel-1.traceg.xz", test::xz_compress(text));
  write_file(dir / "kernel-2.traceg.gz", test::gzip_compress(text));
  // Listed uncompressed, present only as .xz: the reader finds the sibling.
  write_file(dir / "kernel-3.traceg.xz", test::xz_compress(text));
  write_file(dir / "plain.traceg", text);
  auto plain = open_text_kernel((dir / "plain.traceg").string(), {});
  // A kernel file given on its own is a one-kernel application.
  auto single = open_trace((dir / "kernel-2.traceg.gz").string(), {});
  ASSERT_EQ(single->commands().size(), 1u);
  EXPECT_EQ(single->kernel(0).tb_count(), 2u);
  auto app = open_trace(dir.string(), {});
  for (std::size_t c = 0; c < 3; ++c) {
    kernel_reader& k = app->kernel(c);
    // Backwards order forces a restart of the decompressor.
    for (std::uint32_t id : {1u, 0u, 1u}) {
      auto a = k.read_tb(id);
      auto b = plain->read_tb(id);
      test::expect_same_tb(*a, k.opcodes(), *b, plain->opcodes());
    }
  }
}

// TBs requested in an order unrelated to the file's, repeatedly, with and without the
// read-ahead thread, with parsing started before the first request, and with a prefetch
// order that the consumer does not follow.
TEST(TextReader, RandomAccessAndReadAhead) {
  std::string body;
  const int tbs = 24;
  for (int t = tbs - 1; t >= 0; --t) {  // file order: reverse of linear order
    body +=
        "#BEGIN_TB\nthread block = " + std::to_string(t % 4) + "," + std::to_string(t / 4) + ",0\n";
    for (int w = 0; w < 2; ++w) {
      body += "warp = " + std::to_string(w) + "\ninsts = 2\n";
      char line[128];
      std::snprintf(line, sizeof line, "%04x ffffffff 1 R%d LDG.E 1 R2 4 1 0x%x 4\n", 16 * t, w,
                    0x10000 * t + 0x100 * w);
      body += line;
      body += "0100 ffffffff 0 EXIT 0 0\n";
    }
    body += "#END_TB\n";
  }
  auto dir = one_kernel_trace(scratch_dir(), header(3, false, "(4,6,1)", "(64,1,1)") + body);
  auto check = [&](const tb_trace& tb, std::uint32_t id) {
    EXPECT_EQ(tb.linear_id, id);
    EXPECT_EQ(tb.index, (dim3{id % 4, id / 4, 0}));
    for (int w = 0; w < 2; ++w) {
      const warp_trace& wt = tb.warps[w];
      ASSERT_EQ(wt.insts.size(), 2u);
      EXPECT_EQ(wt.insts[0].pc, 16 * id);
      EXPECT_EQ(wt.insts[0].dst[0], w);
      const auto a = lane_addresses(wt, wt.insts[0]);
      ASSERT_EQ(a.size(), 32u);
      EXPECT_EQ(a[0], 0x10000u * id + 0x100u * w);
      EXPECT_EQ(a[31], 0x10000u * id + 0x100u * w + 124);
    }
  };
  std::vector<std::uint32_t> order = {5,  17, 0, 23, 11, 12, 3,  3,  22, 1,  9,  14, 2,
                                      20, 19, 4, 6,  7,  8,  10, 13, 15, 16, 18, 21};
  for (std::size_t ahead : {0u, 1u, 2u, 64u}) {
    open_options opts;
    opts.read_ahead = ahead;
    auto app = open_trace(dir.string(), opts);
    kernel_reader& k = app->kernel(1);
    for (std::uint32_t id : order) check(*k.read_tb(id), id);
    // Parsing started before the first request (as `gputlm run` does before the
    // simulation starts), asked for twice, then requests in and out of the default order.
    {
      auto early = open_trace(dir.string(), opts);
      kernel_reader& e = early->kernel(1);
      e.read_ahead();
      e.read_ahead();
      for (std::uint32_t id : order) check(*e.read_tb(id), id);
    }
    // Announced order followed exactly.
    std::vector<std::uint32_t> rev(order.rbegin(), order.rend());
    k.prefetch(rev);
    for (std::uint32_t id : rev) check(*k.read_tb(id), id);
    // Announced order, consumer goes elsewhere.
    k.prefetch({1, 2, 3, 4, 5});
    for (std::uint32_t id : {20u, 3u, 21u, 1u}) check(*k.read_tb(id), id);
  }
}

TEST(TextReader, UnknownOpcodesCountedOnceReported) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 4\n"
      "0000 ffffffff 0 FOOBAR.X 0 0\n"
      "0010 ffffffff 0 FOOBAR.X 0 0\n"
      "0020 ffffffff 0 QUUX 0 0\n"
      "0030 ffffffff 0 EXIT 0 0\n"
      "#END_TB\n";
  auto dir = one_kernel_trace(scratch_dir(), header(3, false) + body);
  std::vector<unknown_opcode> reported;
  open_options opts;
  opts.on_unknown_opcode = [&](const unknown_opcode& u) { reported.push_back(u); };
  opts.read_ahead = 0;
  auto app = open_trace(dir.string(), opts);
  kernel_reader& k = app->kernel(1);
  auto tb = k.read_tb(0);
  EXPECT_EQ(tb->warps[0].insts[0].unit, unit_class::other);
  ASSERT_EQ(reported.size(), 2u);
  EXPECT_EQ(reported[0].mnemonic, "FOOBAR.X");
  EXPECT_EQ(reported[0].first_seen.line, 21u);  // 16 header lines, 4 framing lines
  EXPECT_NE(reported[0].first_seen.file.find("kernel-1.traceg"), std::string::npos);
  EXPECT_EQ(reported[1].mnemonic, "QUUX");
  auto all = k.unknown_opcodes();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].count + all[1].count, 3u);

  opts.strict = true;
  auto strict = open_trace(dir.string(), opts);
  test::expect_input_error([&] { strict->kernel(1).read_tb(0); },
                           {"kernel-1.traceg:21:", "opcode", "unknown opcode 'FOOBAR.X'"});
}

}  // namespace
}  // namespace gputlm::traces::text_reader_test

namespace gputlm::traces::text_reader_test {
namespace {

// Lines longer than the reader's initial buffer (mangled names can be long).
TEST(TextReader, LongLinesGrowTheBuffer) {
  std::string name(700000, 'x');
  std::string text = test::header(3, false);
  text.replace(text.find("_Z6vecAddPfS_S_i"), 16, name);
  text +=
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
  auto dir = test::one_kernel_trace(test::scratch_dir(), text);
  auto app = open_trace(dir.string(), {});
  EXPECT_EQ(app->kernel(1).info().name, name);
  EXPECT_EQ(app->kernel(1).read_tb(0)->warps[0].insts.size(), 1u);
}

}  // namespace
}  // namespace gputlm::traces::text_reader_test

namespace gputlm::traces::text_reader_test {
namespace {
std::size_t open_descriptors() {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) n += !e.path().empty();
  return n;
}
// The process's address space (VmSize, KiB).
std::uint64_t address_space_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7));
  return 0;
}
}  // namespace

// A run may list thousands of kernels (device launches): a reader holds its file only while
// TBs are read from it, so descriptors do not grow with the kernel count (1,500 kernels,
// more than the usual limit of 1,024 open files; a tenth of them gzip-compressed), and
// each reader's thread, once out of work, is joined, so its stack (8 MiB of address space)
// does not stay mapped: 1,500 such stacks would be 12 GiB; the address space may grow by
// 1 GiB at most. Each kernel's TB 1, then TB 0 (a re-read after the kernel's last TB
// reopens the file), is the one written for it.
TEST(TextReader, ThousandsOfKernelsHoldFewFileDescriptors) {
  const int kernels = 1500;
  auto dir = scratch_dir();
  std::string list;
  for (int k = 1; k <= kernels; ++k) {
    std::string body;
    for (int t = 0; t < 2; ++t) {
      char line[128];
      std::snprintf(line, sizeof line, "%04x ffffffff 1 R1 LDG.E 1 R2 4 1 0x%x 4\n", 16 * t,
                    0x1000 * k + 0x100 * t);
      body += "#BEGIN_TB\nthread block = " + std::to_string(t) + ",0,0\nwarp = 0\ninsts = 2\n" +
              line + "0100 ffffffff 0 EXIT 0 0\n#END_TB\n";
    }
    const std::string text = header(3, false, "(2,1,1)", "(32,1,1)") + body;
    const std::string name = "kernel-" + std::to_string(k) + ".traceg";
    if (k % 10 == 0) {
      write_file(dir / (name + ".gz"), test::gzip_compress(text));
    } else {
      write_file(dir / name, text);
    }
    list += name + "\n";
  }
  write_file(dir / "kernelslist.g", list);
  const std::size_t before = open_descriptors();
  const std::uint64_t space_before = address_space_kib();
  auto app = open_trace(dir.string(), {});
  for (int k = 0; k < kernels; ++k) EXPECT_EQ(app->kernel(std::size_t(k)).tb_count(), 2u);
  EXPECT_LE(open_descriptors(), before + 4);
  for (int k = 0; k < kernels; ++k) {
    kernel_reader& r = app->kernel(std::size_t(k));
    for (std::uint32_t id : {1u, 0u}) {
      auto tb = r.read_tb(id);
      ASSERT_EQ(tb->warps.size(), 1u);
      const warp_trace& w = tb->warps[0];
      ASSERT_EQ(w.insts.size(), 2u);
      EXPECT_EQ(lane_addresses(w, w.insts[0])[0], 0x1000u * (k + 1) + 0x100u * id) << k;
    }
  }
  EXPECT_LE(open_descriptors(), before + 4);
  EXPECT_LT(address_space_kib(), space_before + (1u << 20));
}

}  // namespace gputlm::traces::text_reader_test
