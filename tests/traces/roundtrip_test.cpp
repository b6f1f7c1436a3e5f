// Writers and the binary format: text -> binary -> text keeps every field; the writer API
// used directly (as the generators do); multi-block binary files read in random order.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "test_util.h"
#include "traces/binary_format.h"
#include "traces/trace_cli.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::roundtrip_test {
namespace {

namespace fs = std::filesystem;
using test::header;
using test::read_file;
using test::scratch_dir;
using test::write_file;

const char* k_modes_body =
    "#BEGIN_TB\n"
    "thread block = 0,0,0\n"
    "warp = 0\n"
    "insts = 6\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0\n"
    "0010 0000000f 1 R2 LDG.E.SYS 1 R4 4 1 0x1000 4\n"
    "0020 00000005 0 STG.E.64.SYS 2 R4 R6 8 0 0x2000 0x2010\n"
    "0030 0000000b 1 R3 LDG.E.128.SYS 1 R8 16 2 0x3000 -16 48\n"
    "0038 ffffffff 1 R3 FFMA 4 R8 R9 R10 R11 0\n"
    "0040 ffffffff 0 EXIT 0 0\n"
    "warp = 1\n"
    "insts = 2\n"
    "0000 80000001 1 R1 LD.E 1 R255 4 1 0x00007f2c60000000 -8\n"
    "0040 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n"
    "#BEGIN_TB\n"
    "thread block = 1,0,0\n"
    "warp = 1\n"
    "insts = 1\n"
    "0050 80000000 1 R9 LDS.U8 1 R2 1 0 0x00007f2c60000010\n"
    "#END_TB\n";

const char* k_lineinfo_body =
    "#BEGIN_TB\n"
    "thread block = 0,0,0\n"
    "warp = 0\n"
    "insts = 3\n"
    "12 0000 ffffffff 1 R1 S2R 0 0\n"
    "17 0010 0000ff00 1 R2 LDG.E.64 1 R4 8 1 0x7efe7b60c300 8\n"
    "4294967295 0020 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

const char* k_ext_body =
    "#BEGIN_TB\n"
    "thread block = 0,0,0\n"
    "warp = 0\n"
    "insts = 8\n"
    "0000 00000001 0 CDP.LAUNCH 0 0 0 kernel=2 grid=4,2,1 block=128,1,1 shmem=256 "
    "param=0x7f0000001000\n"
    "0010 00000001 0 DTBL.LAUNCH 0 0 0 kernel=2 grid=8,1,1 block=64,1,1 shmem=0 param=0x10\n"
    "0020 ffffffff 0 CB.PUSH.EAST 1 R4 0 0 bytes=128\n"
    "0030 ffffffff 1 R5 CB.POP.WEST 0 0 -3 bytes=64\n"
    "0040 ffffffff 0 BAR.BLOCKSYNC 0 0 0\n"
    "0050 ffffffff 0 BAR.BLOCKSYNC.NORTH 0 0 0\n"
    "0058 fffffffe 1 R7 ATOMG.E.ADD.STRONG.GPU 2 R2 R3 4 2 0x5004 4 4 -100 4 4 4 4 4 4 4 4 4 "
    "4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 -2147483648\n"
    "0060 ffffffff 0 EXIT 0 0 0\n"
    "#END_TB\n";

fs::path make_app(const fs::path& dir) {
  fs::create_directories(dir);
  write_file(dir / "kernelslist.g",
             "MemcpyHtoD,0x00007f2c3e000000,4096\n"
             "kernel-1.traceg\n"
             "MemcpyHtoD,0x00007f2c3e100000,65536\n"
             "kernel-3.traceg\n"
             "kernel-4.traceg\n"
             "DeviceKernel,kernel-2.traceg\n");
  auto with_id = [](std::string h, int id) {
    h.replace(h.find("-kernel id = 1"), 14, "-kernel id = " + std::to_string(id));
    return h;
  };
  write_file(dir / "kernel-1.traceg", header(3, false, "(2,1,1)", "(64,1,1)") + k_modes_body);
  write_file(dir / "kernel-3.traceg", with_id(header(4, true), 3) + k_lineinfo_body);
  write_file(dir / "kernel-4.traceg", with_id(header(5, false), 4) + k_ext_body);
  std::string child = with_id(header(5, false, "(1,1,1)", "(32,1,1)"), 2) +
                      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0000 ffffffff 0 EXIT 0 0 0\n#END_TB\n";
  write_file(dir / "kernel-2.traceg", child);
  return dir;
}

TEST(RoundTrip, TextBinaryText) {
  fs::path root = scratch_dir();
  fs::path src = make_app(root / "src");
  auto original = open_trace(src.string(), {});

  // text -> text (canonical form) -> binary -> text
  auto w1 = make_text_writer((root / "text1").string());
  copy_trace(*original, *w1);
  auto w2 = make_binary_writer((root / "app.gtb").string());
  auto text1 = open_trace((root / "text1").string(), {});
  copy_trace(*text1, *w2);
  auto bin = open_trace((root / "app.gtb").string(), {});
  EXPECT_EQ(bin->what(), application_trace::format::binary);
  auto w3 = make_text_writer((root / "text2").string());
  copy_trace(*bin, *w3);

  auto fresh = open_trace(src.string(), {});
  auto bin2 = open_trace((root / "app.gtb").string(), {});
  test::expect_same_application(*fresh, *bin2);
  auto t2 = open_trace((root / "text2").string(), {});
  auto fresh2 = open_trace(src.string(), {});
  test::expect_same_application(*fresh2, *t2);

  // The canonical text survives the binary round trip byte for byte.
  for (const char* f : {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg",
                        "kernel-4.traceg"})
    EXPECT_EQ(read_file(root / "text1" / f), read_file(root / "text2" / f)) << f;
  // No temporaries left behind.
  for (auto& e : fs::directory_iterator(root / "text2"))
    EXPECT_EQ(e.path().string().find(".partial"), std::string::npos) << e.path();
  EXPECT_FALSE(fs::exists(root / "app.gtb.partial"));
}

TEST(RoundTrip, ConvertCommand) {
  fs::path root = scratch_dir();
  fs::path src = make_app(root / "src");
  EXPECT_EQ(convert_main({src.string(), (root / "a.gtb").string()}), 0);
  EXPECT_TRUE(is_binary_trace((root / "a.gtb").string()));
  // binary in, no --to, no .gtb: text out
  EXPECT_EQ(convert_main({(root / "a.gtb").string(), (root / "back").string()}), 0);
  EXPECT_TRUE(fs::exists(root / "back" / "kernelslist.g"));
  EXPECT_EQ(convert_main({(root / "back").string(), (root / "b.bin").string(), "--to", "binary"}),
            0);
  EXPECT_TRUE(is_binary_trace((root / "b.bin").string()));
  auto a = open_trace(src.string(), {});
  auto b = open_trace((root / "b.bin").string(), {});
  test::expect_same_application(*a, *b);
  EXPECT_EQ(convert_main({"--help"}), 0);
  test::expect_input_error([&] { convert_main({src.string()}); }, {"OUT", "no output"});
  test::expect_input_error(
      [&] {
        convert_main({src.string(), (root / "x.gtb").string(), "--to", "yaml"});
      },
      {"--to", "yaml"});
  test::expect_input_error(
      [&] {
        convert_main({src.string(), "/nonexistent/dir/x.gtb"});
      },
      {"OUT", "does not exist"});
}

// The writer API as the generators use it: hand-built TBs, written and read back.
TEST(RoundTrip, WriterApiAndAddressModes) {
  fs::path root = scratch_dir();
  opcode_table ops(70);
  std::uint16_t ldg = ops.intern("LDG.E.64");
  std::uint16_t exit_op = ops.intern("EXIT");
  std::uint16_t cdp = ops.intern("CDP.LAUNCH");
  std::uint16_t push = ops.intern("CB.PUSH.SOUTH");

  kernel_info k;
  k.name = "gen";
  k.id = 5;
  k.grid = {2, 1, 1};
  k.block = {32, 1, 1};
  k.binary_version = 70;
  k.tracer_version = 5;

  auto inst = [&](std::uint16_t op, std::uint32_t pc, std::uint32_t mask) {
    warp_instruction in;
    in.opcode = op;
    in.pc = pc;
    in.active_mask = mask;
    in.unit = ops[op].unit;
    in.space = ops[op].space;
    in.special = ops[op].special;
    in.dir = ops[op].dir;
    return in;
  };
  std::vector<tb_trace> tbs(2);
  for (std::uint32_t t = 0; t < 2; ++t) {
    tb_trace& tb = tbs[t];
    tb.index = {t, 0, 0};
    tb.linear_id = t;
    tb.warps.resize(1);
    warp_trace& w = tb.warps[0];
    // contiguous, constant stride: base+stride
    warp_instruction a = inst(ldg, 0x10, 0x0000ff00);
    a.access_size = 8;
    a.addr_index = std::uint32_t(w.addresses.size());
    for (int i = 0; i < 8; ++i) w.addresses.push_back(0x8000 + 8 * i + 0x1000 * t);
    a.num_dst = 1;
    a.dst[0] = 2;
    a.immediate = -7;
    w.insts.push_back(a);
    // holes in the mask: base+delta, including a negative and a huge delta
    warp_instruction b = inst(ldg, 0x20, 0x80000005);
    b.access_size = 8;
    b.addr_index = std::uint32_t(w.addresses.size());
    w.addresses.push_back(0xffffffffffff0000ull);
    w.addresses.push_back(0x10);
    w.addresses.push_back(0x8);
    w.insts.push_back(b);
    warp_instruction c = inst(cdp, 0x30, 1);
    c.ext_index = 0;
    device_launch l;
    l.child_kernel = 9;
    l.grid = {3, 2, 1};
    l.block = {256, 1, 1};
    l.shmem = 1024;
    l.param_addr = 0xdead0000 + t;
    w.launches.push_back(l);
    w.insts.push_back(c);
    warp_instruction d = inst(push, 0x40, 0xffffffff);
    d.ext_index = 512;
    d.num_src = 1;
    d.src[0] = 12;
    w.insts.push_back(d);
    w.insts.push_back(inst(exit_op, 0x50, 0xffffffff));
  }
  for (bool binary : {false, true}) {
    std::string out = (root / (binary ? "g.gtb" : "g")).string();
    auto w = binary ? make_binary_writer(out) : make_text_writer(out);
    w->memcpy_h2d(0x1000, 64);
    w->begin_kernel(k);
    w->write_tb(tbs[1], ops);  // any order
    w->write_tb(tbs[0], ops);
    w->end_kernel();
    EXPECT_FALSE(fs::exists(binary ? out : out + "/kernelslist.g"));
    w->finish();
    auto app = open_trace(out, {});
    ASSERT_EQ(app->commands().size(), 2u);
    kernel_reader& r = app->kernel(1);
    EXPECT_EQ(r.info().name, "gen");
    for (std::uint32_t t = 0; t < 2; ++t) {
      SCOPED_TRACE(binary ? "binary" : "text");
      test::expect_same_tb(tbs[t], ops, *r.read_tb(t), r.opcodes());
    }
  }
  std::string text = read_file(root / "g" / "kernel-5.traceg");
  EXPECT_NE(text.find("0010 0000ff00 1 R2 LDG.E.64 0 8 1 0x8000 8 -7\n"), std::string::npos);
  EXPECT_NE(text.find("0020 80000005 0 LDG.E.64 0 8 2 0xffffffffffff0000 65552 -8 0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0030 00000001 0 CDP.LAUNCH 0 0 0 kernel=9 grid=3,2,1 block=256,1,1 "
                      "shmem=1024 param=0xdead0000\n"),
            std::string::npos);
  EXPECT_NE(text.find("0040 ffffffff 0 CB.PUSH.SOUTH 1 R12 0 0 bytes=512\n"), std::string::npos);
  EXPECT_EQ(read_file(root / "g" / "kernelslist.g"),
            "MemcpyHtoD,0x0000000000001000,64\nkernel-5.traceg\n");
}

// Several zstd blocks; TBs read in random order with and without read-ahead.
TEST(RoundTrip, BinaryManyBlocksRandomOrder) {
  fs::path root = scratch_dir();
  opcode_table ops(70);
  std::uint16_t ldg = ops.intern("LDG.E");
  std::uint16_t ffma = ops.intern("FFMA");
  kernel_info k;
  k.id = 1;
  k.grid = {16, 8, 1};
  k.block = {128, 1, 1};
  k.binary_version = 70;
  k.tracer_version = 4;
  k.lineinfo = true;
  std::mt19937_64 rng(42);
  std::vector<tb_trace> tbs(k.grid.count());
  for (std::uint32_t t = 0; t < tbs.size(); ++t) {
    tb_trace& tb = tbs[t];
    tb.linear_id = t;
    tb.index = {t % 16, t / 16, 0};
    tb.warps.resize(4);
    for (warp_trace& w : tb.warps) {
      for (int i = 0; i < 40; ++i) {
        warp_instruction in;
        bool mem = i % 2 == 0;
        in.opcode = mem ? ldg : ffma;
        in.pc = std::uint32_t(16 * i);
        in.line = std::uint32_t(rng() % 1000);
        in.active_mask = std::uint32_t(rng()) | 1u;
        in.unit = mem ? unit_class::ldst : unit_class::sp;
        in.space = mem ? mem_space::global : mem_space::none;
        in.num_src = 2;
        in.src[0] = std::uint16_t(rng() % 255);
        in.src[1] = std::uint16_t(rng() % 255);
        if (mem) {
          in.access_size = 4;
          in.addr_index = std::uint32_t(w.addresses.size());
          for (int l = 0; l < __builtin_popcount(in.active_mask); ++l)
            w.addresses.push_back(rng() % 2 ? 0x7f0000000000ull + 4 * l : rng());
        }
        w.insts.push_back(in);
      }
    }
  }
  std::string out = (root / "many.gtb").string();
  {
    auto w = make_binary_writer(out);
    w->begin_kernel(k);
    for (auto& tb : tbs) w->write_tb(tb, ops);
    w->end_kernel();
    w->finish();
  }
  std::vector<std::uint32_t> order(tbs.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t ahead : {0u, 3u}) {
    open_options o;
    o.read_ahead = ahead;
    auto app = open_trace(out, o);
    kernel_reader& r = app->kernel(0);
    r.prefetch(order);
    for (std::uint32_t id : order) test::expect_same_tb(tbs[id], ops, *r.read_tb(id), r.opcodes());
  }
  EXPECT_GT(fs::file_size(out), 3 * 64u);

  // A corrupted block in the middle, found by the block helper thread: its TBs report it,
  // the other blocks' TBs still decode.
  {
    std::fstream f(out, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(fs::file_size(out) / 2));
    f.put('\x5a');
  }
  for (std::size_t ahead : {0u, 3u}) {
    open_options o;
    o.read_ahead = ahead;
    auto app = open_trace(out, o);
    kernel_reader& r = app->kernel(0);
    int good = 0, bad = 0;
    for (std::uint32_t id = 0; id < tbs.size(); ++id) {
      try {
        test::expect_same_tb(tbs[id], ops, *r.read_tb(id), r.opcodes());
        ++good;
      } catch (const input_error& e) {
        EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
        ++bad;
      }
    }
    EXPECT_GT(good, 0);
    EXPECT_GT(bad, 0);
  }
}

}  // namespace
}  // namespace gputlm::traces::roundtrip_test

namespace gputlm::traces::roundtrip_test {
namespace {

// The block checksum is XXH64 (seed 0): published vectors, and zstd's frame checksum (the
// low 32 bits of XXH64 of the content) for longer inputs of every length mod 32.
TEST(RoundTrip, ChecksumIsXxh64) {
  EXPECT_EQ(binary::checksum("", 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(binary::checksum("abc", 3), 0x44BC2CF5AD770999ull);
  std::string data;
  for (int i = 0; i < 1100; ++i) data.push_back(char(i * 7 + (i >> 3)));
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  for (std::size_t n : {1u, 7u, 8u, 31u, 32u, 33u, 63u, 100u, 1000u, 1100u}) {
    std::string out(ZSTD_compressBound(n), '\0');
    std::size_t m = ZSTD_compress2(c, out.data(), out.size(), data.data(), n);
    ASSERT_FALSE(ZSTD_isError(m));
    std::uint32_t stored;
    std::memcpy(&stored, out.data() + m - 4, 4);
    EXPECT_EQ(stored, std::uint32_t(binary::checksum(data.data(), n))) << n;
  }
  ZSTD_freeCCtx(c);
}

}  // namespace
}  // namespace gputlm::traces::roundtrip_test
