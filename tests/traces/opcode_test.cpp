// Opcode classification: spot checks per binary version, access sizes, the gputlm
// pseudo-opcodes, and opcode_table interning.
#include <gtest/gtest.h>

#include "traces/opcode_table.h"

namespace gputlm::traces::opcode_test {
namespace {

struct expect {
  const char* mnemonic;
  std::uint32_t version;
  bool known;
  unit_class unit;
  mem_space space;
  std::uint8_t size;
};

using u = unit_class;
using m = mem_space;

TEST(Opcodes, ClassificationTable) {
  const expect table[] = {
      // Volta
      {"FFMA", 70, true, u::sp, m::none, 0},
      {"FADD.FTZ", 70, true, u::sp, m::none, 0},
      {"HFMA2.MMA", 70, true, u::sp, m::none, 0},
      {"MUFU.RSQ", 70, true, u::sfu, m::none, 0},
      {"F2I.FTZ.U32.TRUNC", 70, true, u::sfu, m::none, 0},
      {"DFMA", 70, true, u::dp, m::none, 0},
      {"HMMA.884.F32.F32.STEP2", 70, true, u::tensor, m::none, 0},
      {"IMAD.MOV.U32", 70, true, u::int_alu, m::none, 0},
      {"IADD3", 70, true, u::int_alu, m::none, 0},
      {"LOP3.LUT", 70, true, u::int_alu, m::none, 0},
      {"ISETP.GE.AND", 70, true, u::int_alu, m::none, 0},
      {"SHFL.BFLY", 70, true, u::int_alu, m::none, 0},
      {"LDG.E.128.CONSTANT.SYS", 70, true, u::ldst, m::global, 16},
      {"LDG.E.64.SYS", 70, true, u::ldst, m::global, 8},
      {"LDG.E.U8", 70, true, u::ldst, m::global, 1},
      {"LDG.E.S16", 70, true, u::ldst, m::global, 2},
      {"STG.E.SYS", 70, true, u::ldst, m::global, 4},
      {"LDS.U.128", 70, true, u::ldst, m::shared, 16},
      {"STS.64", 70, true, u::ldst, m::shared, 8},
      {"LDL.LU", 70, true, u::ldst, m::local, 4},
      {"STL.S8", 70, true, u::ldst, m::local, 1},
      {"LDC.64", 70, true, u::ldst, m::constant, 8},
      {"LD.E.64", 70, true, u::ldst, m::global, 8},
      {"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", 70, true, u::ldst, m::global_atomic, 4},
      {"ATOM.E.ADD", 70, true, u::ldst, m::global_atomic, 4},
      {"RED.E.ADD.STRONG.GPU", 70, true, u::ldst, m::global_atomic, 4},
      {"ATOMS.ADD", 70, true, u::ldst, m::shared_atomic, 4},
      {"TEX.LL", 70, true, u::texture, m::texture, 4},
      {"TLD4", 70, true, u::texture, m::texture, 4},
      {"BRA", 70, true, u::branch, m::none, 0},
      {"BSSY", 70, true, u::branch, m::none, 0},
      {"BSYNC", 70, true, u::branch, m::none, 0},
      {"CALL.REL.NOINC", 70, true, u::branch, m::none, 0},
      {"WARPSYNC", 70, true, u::barrier, m::none, 0},
      {"BAR.SYNC", 70, true, u::barrier, m::none, 0},
      {"MEMBAR.GL", 70, true, u::barrier, m::none, 0},
      {"EXIT", 70, true, u::exit, m::none, 0},
      {"S2R", 70, true, u::other, m::none, 0},
      {"NOP", 70, true, u::other, m::none, 0},
      {"SSY", 70, false, u::other, m::none, 0},   // pre-Volta reconvergence
      {"XMAD", 70, false, u::other, m::none, 0},  // Maxwell/Pascal only
      // Turing/Ampere use the Volta rules, with their additions known
      {"IMMA.8816.S8.S8", 75, true, u::tensor, m::none, 0},
      {"LDSM.16.M88.4", 75, true, u::ldst, m::shared, 4},
      {"HMMA.16816.F32", 80, true, u::tensor, m::none, 0},
      {"LDGSTS.E.BYPASS.128", 80, true, u::ldst, m::global, 16},
      {"UIADD3", 86, true, u::int_alu, m::none, 0},
      {"FFMA", 86, true, u::sp, m::none, 0},
      // Pascal
      {"XMAD.MRG", 61, true, u::int_alu, m::none, 0},
      {"SSY", 61, true, u::branch, m::none, 0},
      {"PBK", 60, true, u::branch, m::none, 0},
      {"HADD2", 60, true, u::sp, m::none, 0},
      {"ATOM.E.ADD", 61, true, u::ldst, m::global_atomic, 4},
      {"LDG.E.CI.128", 61, true, u::ldst, m::global, 16},
      {"BSSY", 61, false, u::other, m::none, 0},
      {"HMMA.884.F32.F32", 61, false, u::other, m::none, 0},
      // Kepler
      {"FFMA", 35, true, u::sp, m::none, 0},
      {"IMAD", 35, true, u::int_alu, m::none, 0},
      {"SSY", 35, true, u::branch, m::none, 0},
      {"LDG.E.64", 35, true, u::ldst, m::global, 8},
      {"LD.E", 35, true, u::ldst, m::global, 4},
      {"TEXDEPBAR", 35, true, u::other, m::none, 0},
      {"IADD3", 35, false, u::other, m::none, 0},
      {"HADD2", 35, false, u::other, m::none, 0},
      {"LOP3.LUT", 35, false, u::other, m::none, 0},
      // never an opcode
      {"FOOBAR", 70, false, u::other, m::none, 0},
      {"", 70, false, u::other, m::none, 0},
  };
  for (const expect& e : table) {
    SCOPED_TRACE(std::string(e.mnemonic) + " sm_" + std::to_string(e.version));
    opcode_info i = classify_opcode(e.mnemonic, e.version);
    EXPECT_EQ(i.mnemonic, e.mnemonic);
    EXPECT_EQ(i.known, e.known);
    EXPECT_EQ(i.unit, e.unit);
    EXPECT_EQ(i.space, e.space);
    EXPECT_EQ(i.default_access_size, e.size);
  }
}

TEST(Opcodes, SpecialsAndGeneric) {
  EXPECT_EQ(classify_opcode("BAR.SYNC", 70).special, special_op::bar_sync);
  EXPECT_EQ(classify_opcode("BAR", 35).special, special_op::bar_sync);
  EXPECT_EQ(classify_opcode("BAR.RED.POPC", 70).special, special_op::bar_sync);
  EXPECT_EQ(classify_opcode("BAR.ARV", 70).special, special_op::none);
  EXPECT_EQ(classify_opcode("EXIT", 61).special, special_op::exit);
  EXPECT_EQ(classify_opcode("MEMBAR.SYS", 70).special, special_op::membar);
  EXPECT_TRUE(classify_opcode("LD.E", 70).generic);
  EXPECT_TRUE(classify_opcode("ST.E.64", 35).generic);
  EXPECT_TRUE(classify_opcode("ATOM.E.ADD", 70).generic);
  EXPECT_FALSE(classify_opcode("ATOM.E.ADD", 61).generic);  // global atomic before Volta
  EXPECT_FALSE(classify_opcode("LDG.E", 70).generic);
}

TEST(Opcodes, GputlmExtensions) {
  for (std::uint32_t v : {35u, 61u, 70u, 86u}) {
    opcode_info cdp = classify_opcode("CDP.LAUNCH", v);
    EXPECT_TRUE(cdp.known);
    EXPECT_EQ(cdp.unit, unit_class::branch);
    EXPECT_EQ(cdp.special, special_op::launch_kernel);
    opcode_info dtbl = classify_opcode("DTBL.LAUNCH", v);
    EXPECT_EQ(dtbl.unit, unit_class::branch);
    EXPECT_EQ(dtbl.special, special_op::launch_agg_group);
  }
  const std::pair<const char*, direction> dirs[] = {{"NORTH", direction::north},
                                                    {"SOUTH", direction::south},
                                                    {"EAST", direction::east},
                                                    {"WEST", direction::west}};
  for (auto [name, dir] : dirs) {
    opcode_info push = classify_opcode(std::string("CB.PUSH.") + name, 70);
    EXPECT_TRUE(push.known);
    EXPECT_EQ(push.unit, unit_class::ldst);
    EXPECT_EQ(push.space, mem_space::none);
    EXPECT_EQ(push.special, special_op::cb_push);
    EXPECT_EQ(push.dir, dir);
    opcode_info pop = classify_opcode(std::string("CB.POP.") + name, 70);
    EXPECT_EQ(pop.special, special_op::cb_pop);
    EXPECT_EQ(pop.dir, dir);
    opcode_info sync = classify_opcode(std::string("BAR.BLOCKSYNC.") + name, 70);
    EXPECT_EQ(sync.special, special_op::block_sync);
    EXPECT_EQ(sync.unit, unit_class::barrier);
    EXPECT_EQ(sync.dir, dir);
  }
  opcode_info global = classify_opcode("BAR.BLOCKSYNC", 70);
  EXPECT_TRUE(global.known);
  EXPECT_EQ(global.special, special_op::block_sync);
  EXPECT_EQ(global.dir, direction::global);
  for (const char* bad :
       {"CB.PUSH", "CB.POP.UP", "CB.SWAP.EAST", "CDP", "CDP.RUN", "BAR.BLOCKSYNC.SIDEWAYS"}) {
    opcode_info i = classify_opcode(bad, 70);
    EXPECT_FALSE(i.known) << bad;
    EXPECT_EQ(i.unit, unit_class::other) << bad;
    EXPECT_EQ(i.special, special_op::none) << bad;
  }
}

TEST(Opcodes, TableInternsOnce) {
  opcode_table t(61);
  EXPECT_EQ(t.binary_version(), 61u);
  std::uint16_t a = t.intern("XMAD");
  std::uint16_t b = t.intern("FFMA");
  EXPECT_EQ(t.intern("XMAD"), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_TRUE(t[a].known);
  EXPECT_EQ(t[a].unit, unit_class::int_alu);
  std::uint16_t id;
  EXPECT_TRUE(t.find("FFMA", id));
  EXPECT_EQ(id, b);
  EXPECT_FALSE(t.find("NOPE", id));
  for (int i = 0; i < 600; ++i) t.intern("OP" + std::to_string(i));  // several chunks
  const opcode_info& first = t[a];
  opcode_table copy = t;
  EXPECT_EQ(copy.size(), 602u);
  EXPECT_EQ(copy[599].mnemonic, "OP597");
  EXPECT_EQ(&t[a], &first);  // entries never move
  opcode_table assigned;
  assigned = copy;
  EXPECT_EQ(assigned.binary_version(), 61u);
  EXPECT_EQ(assigned.intern("OP0"), 2);
  EXPECT_STREQ(to_string(unit_class::int_alu), "int");
  EXPECT_STREQ(to_string(mem_space::global_atomic), "global_atomic");
  EXPECT_STREQ(to_string(special_op::cb_push), "cb_push");
  EXPECT_STREQ(to_string(direction::west), "west");
}

}  // namespace
}  // namespace gputlm::traces::opcode_test
