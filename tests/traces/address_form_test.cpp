// Compact per-lane addresses (trace_types.h): the list, strided and half-strided forms, the
// helpers that choose and expand them, the readers' choice of form, and round trips of every
// form through the text and binary writers. Expected addresses are written out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "test_util.h"
#include "traces/binary_format.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::address_form_test {
namespace {

namespace fs = std::filesystem;
using test::header;
using test::one_kernel_trace;
using test::read_file;
using test::scratch_dir;

using addrs = std::vector<std::uint64_t>;

addrs expand(const warp_trace& w, const warp_instruction& in) {
  std::uint64_t a[32];
  std::uint32_t n = expand_addresses(w, in, a);
  return addrs(a, a + n);
}

warp_instruction mem_inst(std::uint32_t mask) {
  warp_instruction in;
  in.active_mask = mask;
  in.access_size = 4;
  return in;
}

// Appends an instruction with addresses `a` through set_addresses; returns a copy of it.
warp_instruction add(warp_trace& w, std::uint32_t mask, const addrs& a) {
  warp_instruction in = mem_inst(mask);
  set_addresses(w, in, a.data(), std::uint32_t(a.size()));
  w.insts.push_back(in);
  return w.insts.back();
}

TEST(AddressForm, ConstantStrideIsStoredAsOneAddress) {
  warp_trace w;
  const warp_instruction in =
      add(w, 0x0000ff00, {0x8000, 0x8008, 0x8010, 0x8018, 0x8020, 0x8028, 0x8030, 0x8038});
  EXPECT_EQ(in.addr_form, address_form::strided);
  EXPECT_EQ(in.addr_stride, 8);
  EXPECT_EQ(in.addr_index, 0u);
  EXPECT_EQ(address_slots(in), 1u);
  EXPECT_EQ(w.addresses, addrs{0x8000});
  EXPECT_EQ(expand(w, in), (addrs{0x8000, 0x8008, 0x8010, 0x8018, 0x8020, 0x8028, 0x8030, 0x8038}));
}

TEST(AddressForm, NegativeStride) {
  warp_trace w;
  const warp_instruction in = add(w, 0x000000f0, {0x1000, 0xff0, 0xfe0, 0xfd0});
  EXPECT_EQ(in.addr_form, address_form::strided);
  EXPECT_EQ(in.addr_stride, -16);
  EXPECT_EQ(expand(w, in), (addrs{0x1000, 0xff0, 0xfe0, 0xfd0}));
}

TEST(AddressForm, StrideWrapsLikeTheListWould) {
  warp_trace w;
  const warp_instruction in = add(w, 0x7, {0xfffffffffffffff8ull, 0x0, 0x8});
  EXPECT_EQ(in.addr_form, address_form::strided);
  EXPECT_EQ(in.addr_stride, 8);
  EXPECT_EQ(expand(w, in), (addrs{0xfffffffffffffff8ull, 0x0, 0x8}));
}

TEST(AddressForm, SingleActiveLaneIsAList) {
  warp_trace w;
  const warp_instruction in = add(w, 0x80000000, {0x7f2c60000010});
  EXPECT_EQ(in.addr_form, address_form::list);
  EXPECT_EQ(address_slots(in), 1u);
  EXPECT_EQ(expand(w, in), (addrs{0x7f2c60000010}));
}

// The stride counts active lanes, not lane numbers: lanes 0, 2 and 31 are 4 bytes apart.
TEST(AddressForm, MaskedLanesStrideOverActiveLanes) {
  warp_trace w;
  const warp_instruction in = add(w, 0x80000005, {0x2000, 0x2004, 0x2008});
  EXPECT_EQ(in.addr_form, address_form::strided);
  EXPECT_EQ(in.addr_stride, 4);
  EXPECT_EQ(expand(w, in), (addrs{0x2000, 0x2004, 0x2008}));
}

TEST(AddressForm, IrregularOrWideStridesStayLists) {
  warp_trace w;
  const warp_instruction a = add(w, 0xf, {0x100, 0x104, 0x10c, 0x110});
  EXPECT_EQ(a.addr_form, address_form::list);
  EXPECT_EQ(address_slots(a), 4u);
  // 2^32 apart: constant, but wider than the 32-bit stride field.
  const warp_instruction b = add(w, 0x3, {0x100000000ull, 0x200000000ull});
  EXPECT_EQ(b.addr_form, address_form::list);
  EXPECT_EQ(b.addr_index, 4u);
  EXPECT_EQ(w.addresses.size(), 6u);
  // The largest stride that fits, both signs.
  const warp_instruction c = add(w, 0x3, {0x100000000ull, 0x17fffffffull});
  EXPECT_EQ(c.addr_form, address_form::strided);
  EXPECT_EQ(c.addr_stride, 0x7fffffff);
  const warp_instruction d = add(w, 0x3, {0x100000000ull, 0x80000000ull});
  EXPECT_EQ(d.addr_form, address_form::strided);
  EXPECT_EQ(d.addr_stride, -0x7fffffff - 1);
  EXPECT_EQ(w.addresses.size(), 8u);
  EXPECT_EQ(expand(w, w.insts[0]), (addrs{0x100, 0x104, 0x10c, 0x110}));
  EXPECT_EQ(expand(w, w.insts[1]), (addrs{0x100000000ull, 0x200000000ull}));
  EXPECT_EQ(expand(w, w.insts[2]), (addrs{0x100000000ull, 0x17fffffffull}));
  EXPECT_EQ(expand(w, w.insts[3]), (addrs{0x100000000ull, 0x80000000ull}));
}

// A full warp of a TB 16 threads wide: two rows of a tile (1 KB apart), each strided.
TEST(AddressForm, TwoStridedHalvesAreStoredAsThreeEntries) {
  warp_trace w;
  addrs rows;
  for (std::uint64_t k = 0; k < 16; ++k) rows.push_back(0x7ff000000000ull + 4 * k);
  for (std::uint64_t k = 0; k < 16; ++k) rows.push_back(0x7ff000000400ull + 4 * k);
  const warp_instruction in = add(w, 0xffffffff, rows);
  EXPECT_EQ(in.addr_form, address_form::half_strided);
  EXPECT_EQ(address_slots(in), 3u);
  EXPECT_EQ(w.addresses, (addrs{0x7ff000000000ull, 0x7ff000000400ull, 0x0000000400000004ull}));
  EXPECT_EQ(expand(w, in), rows);
  // One address per half (a row's element broadcast to its 16 threads), and strides of
  // opposite signs over eight active lanes with holes.
  addrs broadcast(16, 0x7ff000000100ull);
  broadcast.insert(broadcast.end(), 16, 0x7ff000000140ull);
  const warp_instruction b = add(w, 0xffffffff, broadcast);
  EXPECT_EQ(b.addr_form, address_form::half_strided);
  EXPECT_EQ(b.addr_index, 3u);
  EXPECT_EQ(expand(w, b), broadcast);
  const addrs mixed = {0x100, 0x108, 0x110, 0x118, 0x900, 0x8f0, 0x8e0, 0x8d0};
  const warp_instruction m = add(w, 0x0f0f0000, mixed);
  EXPECT_EQ(m.addr_form, address_form::half_strided);
  EXPECT_EQ(w.addresses[8], std::uint64_t(8) | std::uint64_t(std::uint32_t(-16)) << 32);
  EXPECT_EQ(expand(w, m), mixed);
  EXPECT_EQ(w.addresses.size(), 9u);
}

TEST(AddressForm, HalvesNeedFourLanesEachAnEvenCountAnd32BitStrides) {
  warp_trace w;
  // Three lanes a half: kept as a list.
  const warp_instruction six = add(w, 0x3f, {0x0, 0x4, 0x8, 0x100, 0x104, 0x108});
  EXPECT_EQ(six.addr_form, address_form::list);
  // Nine lanes: no halves.
  const warp_instruction odd =
      add(w, 0x1ff, {0x0, 0x4, 0x8, 0xc, 0x100, 0x104, 0x108, 0x10c, 0x110});
  EXPECT_EQ(odd.addr_form, address_form::list);
  // A half whose stride does not fit 32 bits.
  const warp_instruction wide =
      add(w, 0xff, {0x0, 0x100000000ull, 0x200000000ull, 0x300000000ull, 0x10, 0x14, 0x18, 0x1c});
  EXPECT_EQ(wide.addr_form, address_form::list);
  // A half that is not one stride.
  const warp_instruction bent = add(w, 0xff, {0x0, 0x4, 0x8, 0x10, 0x20, 0x24, 0x28, 0x2c});
  EXPECT_EQ(bent.addr_form, address_form::list);
  EXPECT_EQ(w.addresses.size(), 6u + 9 + 8 + 8);
  EXPECT_EQ(expand(w, bent), (addrs{0x0, 0x4, 0x8, 0x10, 0x20, 0x24, 0x28, 0x2c}));
}

TEST(AddressForm, NoAddresses) {
  warp_trace w;
  warp_instruction none;
  none.active_mask = 0xffffffff;
  EXPECT_EQ(address_slots(none), 0u);
  std::uint64_t a[32];
  EXPECT_EQ(expand_addresses(w, none, a), 0u);
  const warp_instruction empty = add(w, 0, {});
  EXPECT_EQ(empty.addr_form, address_form::list);
  EXPECT_EQ(address_slots(empty), 0u);
  EXPECT_EQ(expand(w, empty), addrs{});
  // A strided instruction whose mask is later emptied reads nothing.
  warp_instruction s = mem_inst(0x3);
  set_strided_addresses(w, s, 0x40, 4);
  s.active_mask = 0;
  EXPECT_EQ(address_slots(s), 0u);
  EXPECT_EQ(expand_addresses(w, s, a), 0u);
}

TEST(AddressForm, FullWarpStrided) {
  warp_trace w;
  warp_instruction in = mem_inst(0xffffffff);
  set_strided_addresses(w, in, 0x7f0000000000ull, -4);
  addrs want;
  for (std::uint64_t l = 0; l < 32; ++l) want.push_back(0x7f0000000000ull - 4 * l);
  EXPECT_EQ(expand(w, in), want);
}

// What the text reader stores for each address mode.
TEST(AddressForm, TextReaderCompactsConstantStrides) {
  std::string body =
      "#BEGIN_TB\n"
      "thread block = 0,0,0\n"
      "warp = 0\n"
      "insts = 8\n"
      "0000 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4\n"              // mode 1
      "0010 00000003 1 R2 LDG.E 1 R4 4 1 0x1000 8589934592\n"     // mode 1, 2^33
      "0020 00000007 1 R2 LDG.E 1 R4 4 0 0x3000 0x2ff8 0x2ff0\n"  // mode 0, stride -8
      "0030 00000007 1 R2 LDG.E 1 R4 4 0 0x3000 0x3008 0x3018\n"  // mode 0, irregular
      "0040 0000000b 1 R2 LDG.E 1 R4 4 2 0x4000 16 16\n"          // mode 2, holes
      "0050 0000000b 1 R2 LDG.E 1 R4 4 2 0x4000 -16 48\n"         // mode 2, irregular
      "0060 00000100 1 R2 LDG.E 1 R4 4 1 0x5000 4\n"              // one lane
      "0070 000000ff 1 R2 LDG.E 1 R4 4 0 0x10 0x14 0x18 0x1c 0x80 0x84 0x88 0x8c\n"  // halves
      "#END_TB\n";
  auto dir = one_kernel_trace(scratch_dir(), header(3, false) + body);
  auto app = open_trace(dir.string(), {});
  auto tb = app->kernel(1).read_tb(0);
  const warp_trace& w = tb->warps[0];
  ASSERT_EQ(w.insts.size(), 8u);
  const address_form s = address_form::strided, l = address_form::list,
                     h = address_form::half_strided;
  const address_form want_form[] = {s, l, s, l, s, l, l, h};
  const std::int32_t want_stride[] = {4, 0, -8, 0, 16, 0, 0, 0};
  const addrs want[] = {{0x1000, 0x1004, 0x1008, 0x100c},
                        {0x1000, 0x200001000ull},
                        {0x3000, 0x2ff8, 0x2ff0},
                        {0x3000, 0x3008, 0x3018},
                        {0x4000, 0x4010, 0x4020},
                        {0x4000, 0x3ff0, 0x4020},
                        {0x5000},
                        {0x10, 0x14, 0x18, 0x1c, 0x80, 0x84, 0x88, 0x8c}};
  for (std::size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(w.insts[i].addr_form, want_form[i]);
    if (want_form[i] == s) {
      EXPECT_EQ(w.insts[i].addr_stride, want_stride[i]);
    }
    EXPECT_EQ(expand(w, w.insts[i]), want[i]);
  }
  // 1 + 2 + 1 + 3 + 1 + 3 + 1 + 3 entries instead of 27.
  EXPECT_EQ(w.addresses.size(), 15u);
}

// A TB holding every form, written as text and as binary and read back: same lane
// addresses, the canonical form (strided exactly for constant 32-bit strides over >= 2
// lanes, else half-strided for two such halves of >= 4 lanes), and the binary reader keeps
// the addresses compact (its file holds the half-strided ones as lists of deltas).
TEST(AddressForm, RoundTripBothForms) {
  fs::path root = scratch_dir();
  opcode_table ops(70);
  const std::uint16_t ldg = ops.intern("LDG.E.64");
  kernel_info k;
  k.name = "forms";
  k.id = 3;
  k.block = {64, 1, 1};
  k.binary_version = 70;
  k.tracer_version = 4;

  tb_trace tb;
  tb.index = {0, 0, 0};
  tb.warps.resize(2);
  struct want_inst {
    std::uint32_t mask;
    addrs lanes;
    address_form form;  // as a reader stores it
  };
  const address_form S = address_form::strided, L = address_form::list,
                     H = address_form::half_strided;
  addrs rows, broadcast(16, 0x7ff000000100ull);
  for (std::uint64_t k = 0; k < 16; ++k) rows.push_back(0x7ff000000000ull + 4 * k);
  for (std::uint64_t k = 0; k < 16; ++k) rows.push_back(0x7ff000000400ull + 4 * k);
  broadcast.insert(broadcast.end(), 16, 0x7ff000000140ull);
  const std::vector<want_inst> insts = {
      {0x0000ff00, {0x8000, 0x8008, 0x8010, 0x8018, 0x8020, 0x8028, 0x8030, 0x8038}, S},
      {0x80000005, {0x9000, 0x8ff0, 0x8fe0}, S},  // strided over holes: text mode 2
      {0x80000005, {0xffffffffffff0000ull, 0x10, 0x8}, L},
      {0x00000001, {0x7f00}, L},
      {0x00000003, {0x0, 0x100000000ull}, L},  // constant, too wide for 32 bits
      {0xffffffff, rows, H},
      {0xffffffff, broadcast, H},
  };
  for (std::size_t wi = 0; wi < 2; ++wi) {
    warp_trace& w = tb.warps[wi];
    for (std::size_t i = 0; i < insts.size(); ++i) {
      warp_instruction in = mem_inst(insts[i].mask);
      in.opcode = ldg;
      in.unit = ops[ldg].unit;
      in.space = ops[ldg].space;
      in.access_size = 8;
      in.pc = std::uint32_t(16 * i);
      const addrs& a = insts[i].lanes;
      if (wi == 0) {
        // Warp 0 by hand as lists, even where a stride would do.
        in.addr_index = std::uint32_t(w.addresses.size());
        w.addresses.insert(w.addresses.end(), a.begin(), a.end());
      } else if (insts[i].form == S) {
        set_strided_addresses(w, in, a[0], std::int32_t(a[1] - a[0]));
      } else {
        set_addresses(w, in, a.data(), std::uint32_t(a.size()));
      }
      w.insts.push_back(in);
    }
  }
  ASSERT_EQ(tb.warps[1].addresses.size(), 1u + 1 + 3 + 1 + 2 + 3 + 3);

  for (bool binary : {false, true}) {
    SCOPED_TRACE(binary ? "binary" : "text");
    std::string out = (root / (binary ? "f.gtb" : "f")).string();
    auto wr = binary ? make_binary_writer(out) : make_text_writer(out);
    wr->begin_kernel(k);
    wr->write_tb(tb, ops);
    wr->end_kernel();
    wr->finish();
    auto app = open_trace(out, {});
    kernel_reader& r = app->kernel(0);
    auto back = r.read_tb(0);
    test::expect_same_tb(tb, ops, *back, r.opcodes());
    for (std::size_t wi = 0; wi < 2; ++wi) {
      const warp_trace& w = back->warps[wi];
      ASSERT_EQ(w.insts.size(), insts.size());
      for (std::size_t i = 0; i < insts.size(); ++i) {
        EXPECT_EQ(w.insts[i].addr_form, insts[i].form) << i;
        EXPECT_EQ(expand(w, w.insts[i]), insts[i].lanes) << i;
      }
      EXPECT_EQ(w.addresses.size(), 14u);
    }
    EXPECT_EQ(back->warps[0].insts[1].addr_stride, -16);
  }
  const std::string text = read_file(root / "f" / "kernel-3.traceg");
  EXPECT_NE(text.find("0000 0000ff00 0 LDG.E.64 0 8 1 0x8000 8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("0010 80000005 0 LDG.E.64 0 8 2 0x9000 -16 -16\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("0040 00000003 0 LDG.E.64 0 8 2 0x0 4294967296\n"), std::string::npos)
      << text;
  // Both warps are written identically whatever form they were given in.
  const std::size_t w1 = text.find("warp = 1\n");
  ASSERT_NE(w1, std::string::npos);
  const std::size_t w0 = text.find("warp = 0\n");
  EXPECT_EQ(text.substr(w0 + 9, w1 - w0 - 9), text.substr(w1 + 9, text.find("#END_TB") - w1 - 9));
}

// Version 1 files (addresses always expanded) are refused with a hint.
TEST(AddressForm, OldBinaryVersionIsRefused) {
  fs::path root = scratch_dir();
  opcode_table ops(70);
  kernel_info k;
  k.block = {32, 1, 1};
  k.tracer_version = 4;
  const std::string p = (root / "old.gtb").string();
  {
    auto wr = make_binary_writer(p);
    wr->begin_kernel(k);
    wr->end_kernel();
    wr->finish();
  }
  std::string bytes = read_file(p);
  const std::uint32_t v1 = 1;
  std::memcpy(&bytes[sizeof binary::magic], &v1, 4);
  test::write_file(p, bytes);
  test::expect_input_error([&] { open_trace(p, {}); },
                           {"old.gtb", "format version", "version 1 is not supported",
                            "reads versions 2 to 3", "gputlm trace convert"});
}

}  // namespace
}  // namespace gputlm::traces::address_form_test
