// Every bad input is one input_error line naming the file, the line (or block) and the
// field; never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"
#include "traces/trace_cli.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::bad_input_test {
namespace {

namespace fs = std::filesystem;
using test::expect_input_error;
using test::header;
using test::scratch_dir;
using test::write_file;

// The header of test::header() is 16 lines; a body starting "#BEGIN_TB / thread block /
// warp / insts" puts the first instruction on line 21.
std::string tb_with(const std::string& insts_line, const std::string& body) {
  return "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" + insts_line + "\n" + body;
}

// Opens a one-kernel trace whose kernel file is `text` and reads TB 0.
void read_kernel(const std::string& text, int tracer_version = 3) {
  fs::path dir = scratch_dir();
  test::one_kernel_trace(dir, header(tracer_version, false) + text);
  auto app = open_trace(dir.string(), {});
  app->kernel(1).read_tb(0);
}

TEST(BadInput, TruncatedInsideWarp) {
  expect_input_error([] { read_kernel(tb_with("insts = 3", "0000 ffffffff 0 NOP 0 0\n")); },
                     {"kernel-1.traceg:22", "insts", "file ends after 1 of the 3 instructions"});
}

TEST(BadInput, TruncatedInsideTb) {
  expect_input_error([] { read_kernel(tb_with("insts = 1", "0000 ffffffff 0 NOP 0 0\n")); },
                     {"kernel-1.traceg:22", "#END_TB", "file ends inside thread block (0,0,0)"});
  // Also when the TB is skimmed by the index scan rather than parsed.
  expect_input_error(
      [] {
        fs::path dir = scratch_dir();
        test::one_kernel_trace(dir, header(3, false, "(2,1,1)") +
                                        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n");
        open_trace(dir.string(), {})->kernel(1).read_tb(1);
      },
      {"kernel-1.traceg:21", "#END_TB", "file ends inside thread block (0,0,0)"});
}

TEST(BadInput, BadHexNumber) {
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "00g0 ffffffff 0 NOP 0 0\n#END_TB\n")); },
      {"kernel-1.traceg:21:1", "PC", "bad hex number '00g0'"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 0 LDG.E 0 4 0 0x12z4\n#END_TB\n")); },
      {"kernel-1.traceg:21:29", "addresses", "bad hex address '0x12z4'"});
}

TEST(BadInput, FewerInstructionsThanDeclared) {
  expect_input_error(
      [] {
        read_kernel(
            tb_with("insts = 3", "0000 ffffffff 0 NOP 0 0\nwarp = 1\ninsts = 0\n#END_TB\n"));
      },
      {"kernel-1.traceg:20", "insts", "declares 3 instructions but warp 0 has 1"});
}

TEST(BadInput, MoreAddressesThanActiveLanes) {
  expect_input_error(
      [] {
        read_kernel(tb_with("insts = 1", "0000 00000003 0 LDG.E 0 4 0 0x10 0x20 0x30\n#END_TB\n"));
      },
      {"kernel-1.traceg:21:39", "addresses", "more addresses than the 2 active lanes"});
  // tracer 5: the extra address is not mistaken for the immediate
  expect_input_error(
      [] {
        read_kernel(tb_with("insts = 1", "0000 00000003 0 LDG.E 0 4 0 0x10 0x20 0x30 7\n#END_TB\n"),
                    5);
      },
      {"kernel-1.traceg:21:39", "addresses", "more addresses than the 2 active lanes"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 00000003 0 LDG.E 0 4 2 0x10 4 4\n#END_TB\n")); },
      {"kernel-1.traceg:21:36", "address deltas", "more than 1 deltas"});
}

TEST(BadInput, FewerAddressesThanActiveLanes) {
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 00000007 0 LDG.E 0 4 0 0x10 0x20\n#END_TB\n")); },
      {"kernel-1.traceg:21", "addresses", "fewer addresses than the 3 active lanes"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 00000007 0 LDG.E 0 4 2 0x10 4\n#END_TB\n")); },
      {"kernel-1.traceg:21", "address deltas", "fewer addresses than the 3 active lanes"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 00000007 0 LDG.E 0 4 1 0x10\n#END_TB\n")); },
      {"kernel-1.traceg:21", "stride", "fewer addresses"});
}

TEST(BadInput, MaskWiderThan32Bits) {
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 1ffffffff 0 NOP 0 0\n#END_TB\n")); },
      {"kernel-1.traceg:21:6", "active mask", "wider than 32 bits"});
}

TEST(BadInput, MissingKernelFile) {
  fs::path dir = scratch_dir();
  write_file(dir / "kernelslist.g", "MemcpyHtoD,0x1000,16\nkernel-9.traceg\n");
  expect_input_error([&] { open_trace(dir.string(), {}); },
                     {"kernelslist.g:2", "kernel file", "kernel-9.traceg: no such file"});
  expect_input_error([&] { open_trace((dir / "nothing").string(), {}); },
                     {"nothing", "no such file"});
}

TEST(BadInput, BadKernelsList) {
  fs::path dir = scratch_dir();
  write_file(dir / "kernelslist.g", "MemcpyHtoD,0xZZ,16\n");
  expect_input_error([&] { open_trace(dir.string(), {}); },
                     {"kernelslist.g:1", "MemcpyHtoD address", "bad hex number"});
  write_file(dir / "kernelslist.g", "\nhello world\n");
  expect_input_error([&] { open_trace(dir.string(), {}); }, {"kernelslist.g:2", "command"});
}

TEST(BadInput, RegisterNotRn) {
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 1 R1 IADD3 2 R2 X5 0\n#END_TB\n")); },
      {"kernel-1.traceg:21:31", "source register", "expected a register R<n>, got 'X5'"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 1 UR1 IADD3 0 0\n#END_TB\n")); },
      {"kernel-1.traceg:21:17", "destination register", "'UR1'"});
}

TEST(BadInput, UnknownAddressMode) {
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 0 LDG.E 0 4 3 0x10\n#END_TB\n")); },
      {"kernel-1.traceg:21:27", "address mode", "unknown address mode '3'"});
}

TEST(BadInput, HeaderAndFraming) {
  expect_input_error(
      [] {
        fs::path dir = scratch_dir();
        test::one_kernel_trace(dir, "-kernel name = k\n-grid dim = (0,1,1)\n");
        open_trace(dir.string(), {})->kernel(1);
      },
      {"kernel-1.traceg:2", "grid dim", "(x,y,z)"});
  expect_input_error(
      [] {
        fs::path dir = scratch_dir();
        test::one_kernel_trace(dir, header(2, false));
        open_trace(dir.string(), {})->kernel(1);
      },
      {"kernel-1.traceg", "accelsim tracer version", "not supported"});
  expect_input_error([] { read_kernel("#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n"); },
                     {"kernel-1.traceg:18", "thread block", "outside the grid"});
  expect_input_error([] { read_kernel("#BEGIN_TB\nthread block = 0,0,0\nwarp = 5\n"); },
                     {"kernel-1.traceg:19", "warp", "outside the 1 warps"});
  expect_input_error(
      [] {
        fs::path dir = scratch_dir();
        test::one_kernel_trace(dir, header(3, false, "(2,1,1)") +
                                        "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n"
                                        "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n");
        open_trace(dir.string(), {})->kernel(1).read_tb(1);
      },
      {"kernel-1.traceg:21", "thread block", "appears twice (first at line 17)"});
  expect_input_error(
      [] {
        fs::path dir = scratch_dir();
        test::one_kernel_trace(
            dir, header(3, false, "(2,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n");
        open_trace(dir.string(), {})->kernel(1).read_tb(1);
      },
      {"kernel-1.traceg", "thread block", "(1,0,0) (linear id 1) is not in the trace"});
  expect_input_error(
      [] {
        read_kernel(tb_with("insts = 1", "0000 ffffffff 0 CDP.LAUNCH 0 0 grid=1,1,1\n#END_TB\n"));
      },
      {"kernel-1.traceg:21", "kernel", "needs kernel=<id>"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 0 NOP 0 0 bytes=4\n#END_TB\n")); },
      {"kernel-1.traceg:21:25", "bytes", "extension token on 'NOP'"});
  expect_input_error(
      [] { read_kernel(tb_with("insts = 1", "0000 ffffffff 0 NOP 0 0\n#END_TB\n"), 5); },
      {"kernel-1.traceg:21", "immediate", "missing"});
}

TEST(BadInput, CorruptXz) {
  fs::path dir = scratch_dir();
  std::string text = header(3, false) + tb_with("insts = 0", "#END_TB\n");
  std::string xz = test::xz_compress(text);
  xz[xz.size() / 2] ^= 0x55;
  write_file(dir / "kernelslist.g", "kernel-1.traceg.xz\n");
  write_file(dir / "kernel-1.traceg.xz", xz);
  expect_input_error(
      [&] {
        auto app = open_trace(dir.string(), {});
        app->kernel(0).read_tb(0);
      },
      {"kernel-1.traceg.xz:1", "xz data"});
}

// --------------------------------------------------------------------- binary

fs::path small_binary(const fs::path& dir) {
  fs::path src = dir / "src";
  fs::create_directories(src);
  test::one_kernel_trace(src, header(3, false, "(2,1,1)") +
                                  "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                  "0000 ffffffff 0 EXIT 0 0\n#END_TB\n"
                                  "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n"
                                  "0000 ffffffff 0 EXIT 0 0\n#END_TB\n");
  fs::path out = dir / "t.gtb";
  convert_main({src.string(), out.string()});
  return out;
}

void flip_byte(const fs::path& p, std::size_t offset) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(std::streamoff(offset));
  char c;
  f.get(c);
  f.seekp(std::streamoff(offset));
  f.put(char(c ^ 0x5a));
}

TEST(BadInput, CorruptedBinaryBlock) {
  fs::path p = small_binary(scratch_dir());
  flip_byte(p, 64 + 12);  // inside block 0, which starts right after the header
  auto app = open_trace(p.string(), {});
  expect_input_error([&] { app->kernel(1).read_tb(0); },
                     {"t.gtb", "block 0: checksum", "XXH64", "corrupted"});
  // Without the checksum (fuzzing only) the decoder still never crashes: it either decodes
  // something or reports the block.
  open_options o;
  o.verify_checksums = false;
  auto unchecked = open_trace(p.string(), o);
  try {
    unchecked->kernel(1).read_tb(0);
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("block 0"), std::string::npos) << e.what();
  }
}

TEST(BadInput, BinaryWrongMagicOrVersion) {
  fs::path dir = scratch_dir();
  fs::path p = small_binary(dir);
  fs::copy_file(p, dir / "v.gtb");
  flip_byte(dir / "v.gtb", 8);  // format version
  expect_input_error([&] { open_trace((dir / "v.gtb").string(), {}); },
                     {"v.gtb", "format version", "not supported"});
  flip_byte(p, 2);  // magic
  expect_input_error([&] { open_trace(p.string(), {}); }, {"t.gtb", "magic", "not a gputlm"});
}

TEST(BadInput, TruncatedBinary) {
  fs::path p = small_binary(scratch_dir());
  fs::resize_file(p, fs::file_size(p) - 5);
  expect_input_error([&] { open_trace(p.string(), {}); }, {"t.gtb", "directory"});
  fs::resize_file(p, 20);
  expect_input_error([&] { open_trace(p.string(), {}); }, {"t.gtb", "header"});
}

}  // namespace
}  // namespace gputlm::traces::bad_input_test
