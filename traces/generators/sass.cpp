// SASS-like code expansion per binary version, and warp instruction recording (see sass.h).
#include "traces/generators/sass.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>

namespace gputlm::traces::generators {

isa_family family_of(std::uint32_t binary_version) {
  if (binary_version >= 70) return isa_family::volta;
  if (binary_version >= 50) return isa_family::pascal;
  return isa_family::kepler;
}

program::program(opcode_table& opcodes, reg scratch)
    : m_opcodes(opcodes),
      m_binary_version(opcodes.binary_version()),
      m_family(family_of(opcodes.binary_version())),
      m_scratch(scratch) {}

std::uint32_t program::pc_of(std::uint32_t i) const {
  switch (m_family) {
    case isa_family::volta:
      return i * 16;
    case isa_family::pascal:
      return (i / 3) * 32 + 8 + (i % 3) * 8;
    case isa_family::kepler:
      return (i / 7) * 64 + 8 + (i % 7) * 8;
  }
  return i * 16;
}

std::uint32_t program::nregs() const { return std::max<std::uint32_t>(8, m_max_reg + 1u); }

code program::raw(std::string_view mnemonic, std::initializer_list<reg> dst,
                  std::initializer_list<reg> src, std::uint8_t width) {
  if (dst.size() > 2 || src.size() > 4) throw std::logic_error("too many register operands");
  warp_instruction w;
  const auto index = here();
  w.pc = pc_of(index);
  w.opcode = m_opcodes.intern(mnemonic);
  const opcode_info& info = m_opcodes[w.opcode];
  w.unit = info.unit;
  w.space = info.space;
  w.special = info.special;
  w.dir = info.dir;
  w.access_size = width;
  for (reg r : dst) {
    w.dst[w.num_dst++] = r;
    if (r != rz && r > m_max_reg) m_max_reg = r;
  }
  for (reg r : src) {
    w.src[w.num_src++] = r;
    if (r != rz && r > m_max_reg) m_max_reg = r;
  }
  m_insts.push_back(w);
  return code{index, 1};
}

std::string program::width_suffix(unsigned bytes) {
  switch (bytes) {
    case 1:
      return ".U8";
    case 2:
      return ".U16";
    case 4:
      return "";
    case 8:
      return ".64";
    case 16:
      return ".128";
  }
  throw std::logic_error("unsupported access width");
}

void program::global_index_1d() {
  prologue();
  s2r(0, sreg::ctaid_x);
  s2r(2, sreg::tid_x);
  imad(3, 0, rz, 2);
}

void program::global_index_2d() {
  prologue();
  s2r(0, sreg::ctaid_x);
  s2r(2, sreg::tid_x);
  s2r(3, sreg::ctaid_y);
  s2r(4, sreg::tid_y);
  imad(0, 0, rz, 2);
  imad(3, 3, rz, 4);
}

code program::prologue() {
  switch (m_family) {
    case isa_family::volta:
      return raw("IMAD.MOV.U32", {1}, {rz, rz});
    default:
      return raw("MOV", {1}, {});
  }
}

code program::s2r(reg d, sreg) { return raw("S2R", {d}, {}); }

code program::mov(reg d) { return raw(m_family == isa_family::pascal ? "MOV32I" : "MOV", {d}, {}); }

code program::imad(reg d, reg a, reg b, reg c) {
  auto m = here();
  if (m_family == isa_family::pascal) {
    // 32-bit multiply on Maxwell/Pascal: three 16-bit XMADs through a temporary.
    if (b != rz && c != rz)
      raw("XMAD", {d}, {a, b, c});
    else if (b != rz)
      raw("XMAD", {d}, {a, b});
    else if (c != rz)
      raw("XMAD", {d}, {a, c});
    else
      raw("XMAD", {d}, {a});
    if (b != rz)
      raw("XMAD.MRG", {m_scratch}, {a, b});
    else
      raw("XMAD.MRG", {m_scratch}, {a});
    raw("XMAD.PSL.CBCC", {d}, {a, m_scratch, d});
    return since(m);
  }
  if (b != rz && c != rz) return raw("IMAD", {d}, {a, b, c});
  if (b != rz) return raw("IMAD", {d}, {a, b});
  if (c != rz) return raw("IMAD", {d}, {a, c});
  return raw("IMAD", {d}, {a});
}

code program::iadd(reg d, reg a, reg b) {
  const char* op = m_family == isa_family::volta ? "IADD3" : "IADD";
  return b == rz ? raw(op, {d}, {a}) : raw(op, {d}, {a, b});
}

code program::shl(reg d, reg a) {
  return raw(m_family == isa_family::volta ? "SHF.L.U32" : "SHL", {d}, {a});
}

code program::shr(reg d, reg a) {
  return raw(m_family == isa_family::volta ? "SHF.R.U32.HI" : "SHR.U32", {d}, {a});
}

code program::land(reg d, reg a) {
  return raw(m_family == isa_family::volta ? "LOP3.LUT" : "LOP32I.AND", {d}, {a});
}

code program::isetp(std::string_view cmp, reg a, reg b) {
  std::string op = "ISETP.";
  op += cmp;
  op += ".AND";
  return b == rz ? raw(op, {}, {a}) : raw(op, {}, {a, b});
}

code program::address(reg d, reg index, reg base) {
  auto m = here();
  switch (m_family) {
    case isa_family::volta:
      if (base == rz)
        raw("IMAD.WIDE", {d}, {index});
      else
        raw("IMAD.WIDE", {d}, {index, base});
      break;
    case isa_family::pascal:
      if (base == rz) {
        raw("LEA", {d}, {index});
        raw("LEA.HI.X", {reg(d + 1)}, {index});
      } else {
        raw("LEA", {d}, {index, base});
        raw("LEA.HI.X", {reg(d + 1)}, {index, reg(base + 1)});
      }
      break;
    case isa_family::kepler:
      if (base == rz) {
        raw("ISCADD", {d}, {index});
        raw("IMAD.HI.X", {reg(d + 1)}, {index});
      } else {
        raw("ISCADD", {d}, {index, base});
        raw("IMAD.HI.X", {reg(d + 1)}, {index, reg(base + 1)});
      }
      break;
  }
  return since(m);
}

code program::ptr_add(reg d, reg a, reg b) {
  auto m = here();
  if (m_family == isa_family::volta) {
    if (b == rz)
      raw("IADD3", {d}, {a});
    else
      raw("IADD3", {d}, {a, b});
    raw("IMAD.X", {reg(d + 1)}, {rz, rz, reg(a + 1)});
  } else {
    if (b == rz)
      raw("IADD", {d}, {a});
    else
      raw("IADD", {d}, {a, b});
    raw("IADD.X", {reg(d + 1)}, {reg(a + 1)});
  }
  return since(m);
}

code program::ld_global(reg d, reg addr, unsigned bytes) {
  const auto w = std::uint8_t(bytes);
  switch (m_family) {
    case isa_family::volta:
      return raw("LDG.E" + width_suffix(bytes) + ".SYS", {d}, {addr}, w);
    case isa_family::pascal:
      return raw("LDG.E" + width_suffix(bytes), {d}, {addr}, w);
    case isa_family::kepler:
      return raw("LD.E" + width_suffix(bytes), {d}, {addr}, w);
  }
  return {};
}

code program::st_global(reg addr, reg value, unsigned bytes) {
  const auto w = std::uint8_t(bytes);
  switch (m_family) {
    case isa_family::volta:
      return raw("STG.E" + width_suffix(bytes) + ".SYS", {}, {addr, value}, w);
    case isa_family::pascal:
      return raw("STG.E" + width_suffix(bytes), {}, {addr, value}, w);
    case isa_family::kepler:
      return raw("ST.E" + width_suffix(bytes), {}, {addr, value}, w);
  }
  return {};
}

code program::red_add(reg addr, reg value, bool f32) {
  std::string op = f32 ? "RED.E.ADD.F32.FTZ.RN" : "RED.E.ADD";
  if (m_family == isa_family::volta) op += ".STRONG.GPU";
  return raw(op, {}, {addr, value}, 4);
}

code program::atom(std::string_view op, reg d, reg addr, reg value) {
  std::string m = m_family == isa_family::volta ? "ATOMG.E." : "ATOM.E.";
  m += op;
  if (m_family == isa_family::volta) m += ".STRONG.GPU";
  return raw(m, {d}, {addr, value}, 4);
}

code program::ld_shared(reg d, reg addr, unsigned bytes) {
  return raw("LDS" + width_suffix(bytes), {d}, {addr}, std::uint8_t(bytes));
}

code program::st_shared(reg addr, reg value, unsigned bytes) {
  return raw("STS" + width_suffix(bytes), {}, {addr, value}, std::uint8_t(bytes));
}

code program::fadd(reg d, reg a, reg b) {
  return b == rz ? raw("FADD", {d}, {a}) : raw("FADD", {d}, {a, b});
}

code program::fmul(reg d, reg a, reg b) {
  return b == rz ? raw("FMUL", {d}, {a}) : raw("FMUL", {d}, {a, b});
}

code program::ffma(reg d, reg a, reg b, reg c) {
  if (b == rz) return raw("FFMA", {d}, {a, c});
  return raw("FFMA", {d}, {a, b, c});
}

code program::i2f(reg d, reg a) {
  return raw(m_family == isa_family::volta ? "I2F.U32" : "I2F.F32.U32", {d}, {a});
}

code program::bar_sync() { return raw("BAR.SYNC", {}, {}); }
code program::exit() { return raw("EXIT", {}, {}); }
code program::bra() { return raw("BRA", {}, {}); }

code program::reconverge_begin() {
  return raw(m_family == isa_family::volta ? "BSSY" : "SSY", {}, {});
}

code program::reconverge_end() {
  return raw(m_family == isa_family::volta ? "BSYNC" : "SYNC", {}, {});
}

namespace {
const char* dir_name(direction d) {
  switch (d) {
    case direction::north:
      return "NORTH";
    case direction::south:
      return "SOUTH";
    case direction::east:
      return "EAST";
    case direction::west:
      return "WEST";
    default:
      throw std::logic_error("CB operations need a neighbour direction");
  }
}
}  // namespace

code program::cb_push(direction dir, reg value) {
  auto c = raw(std::string("CB.PUSH.") + dir_name(dir), {}, {value});
  m_insts.back().special = special_op::cb_push;
  m_insts.back().dir = dir;
  return c;
}

code program::cb_pop(direction dir, reg d) {
  auto c = raw(std::string("CB.POP.") + dir_name(dir), {d}, {});
  m_insts.back().special = special_op::cb_pop;
  m_insts.back().dir = dir;
  return c;
}

code program::block_sync(direction dir) {
  auto c = dir == direction::global ? raw("BAR.BLOCKSYNC", {}, {})
                                    : raw(std::string("BAR.BLOCKSYNC.") + dir_name(dir), {}, {});
  m_insts.back().special = special_op::block_sync;
  m_insts.back().dir = dir;
  return c;
}

code program::cdp_launch() {
  auto c = raw("CDP.LAUNCH", {}, {});
  m_insts.back().special = special_op::launch_kernel;
  return c;
}

code program::cdp_sync() {
  auto c = raw("CDP.SYNC", {}, {});
  m_insts.back().special = special_op::device_sync;
  return c;
}

code program::dtbl_launch() {
  auto c = raw("DTBL.LAUNCH", {}, {});
  m_insts.back().special = special_op::launch_agg_group;
  return c;
}

warp_instruction& warp_emitter::push(std::uint32_t index, std::uint32_t mask) {
  m_out.insts.push_back(m_program.inst(index));
  warp_instruction& w = m_out.insts.back();
  w.active_mask = mask;
  return w;
}

void warp_emitter::run(code c, std::uint32_t mask) {
  if (mask == 0) return;
  for (std::uint32_t i = c.first; i < c.first + c.count; ++i) {
    const auto& s = m_program.inst(i);
    if (s.access_size != 0 || s.special == special_op::launch_kernel ||
        s.special == special_op::launch_agg_group || s.special == special_op::cb_push ||
        s.special == special_op::cb_pop)
      throw std::logic_error("warp_emitter::run on a memory or launch instruction");
    push(i, mask);
  }
}

void warp_emitter::mem(code c, std::uint32_t mask, const lane_addresses& addr) {
  if (c.count != 1 || m_program.inst(c.first).access_size == 0)
    throw std::logic_error("warp_emitter::mem needs exactly one memory instruction");
  if (mask == 0) return;
  warp_instruction& w = push(c.first, mask);
  std::uint64_t active[32];
  std::uint32_t n = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1u) active[n++] = addr[l];
  set_addresses(m_out, w, active, n);
}

void warp_emitter::flag(code c, std::uint32_t mask, std::uint64_t addr, std::uint32_t value) {
  if (m_program.inst(c.first).space != mem_space::global)
    throw std::logic_error("warp_emitter::flag needs a global load or store");
  if (value == warp_instruction::none)
    throw std::logic_error("warp_emitter::flag: the value 2^32-1 is reserved");
  const std::size_t before = m_out.insts.size();
  mem_fn(c, mask, [&](unsigned) { return addr; });
  if (m_out.insts.size() > before) m_out.insts.back().ext_index = value;
}

void warp_emitter::cb(code c, std::uint32_t mask, std::uint32_t bytes_per_lane) {
  if (c.count != 1) throw std::logic_error("warp_emitter::cb needs exactly one instruction");
  const auto sp = m_program.inst(c.first).special;
  if (sp != special_op::cb_push && sp != special_op::cb_pop)
    throw std::logic_error("warp_emitter::cb on a non-CB instruction");
  if (mask == 0) return;
  warp_instruction& w = push(c.first, mask);
  w.ext_index = std::uint32_t(std::bitset<32>(mask).count()) * bytes_per_lane;
}

void warp_emitter::launch(code c, std::uint32_t mask, const device_launch& what) {
  if (c.count != 1) throw std::logic_error("warp_emitter::launch needs exactly one instruction");
  const auto sp = m_program.inst(c.first).special;
  if (sp != special_op::launch_kernel && sp != special_op::launch_agg_group)
    throw std::logic_error("warp_emitter::launch on a non-launch instruction");
  if (mask == 0) return;
  warp_instruction& w = push(c.first, mask);
  w.ext_index = std::uint32_t(m_out.launches.size());
  m_out.launches.push_back(what);
}

}  // namespace gputlm::traces::generators
