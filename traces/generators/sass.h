// SASS-like code for the kernel generators. A `program` is a kernel's static code: each
// macro expands to the instruction sequence the CUDA compiler emits for that binary version
// (Kepler sm_35, Pascal sm_61, Volta sm_70; e.g. a 32-bit multiply-add is one IMAD on Kepler
// and Volta but XMAD, XMAD.MRG, XMAD.PSL.CBCC on Pascal), with registers chosen by the
// kernel so that dependences are those of real code, and PCs laid out as in the binary
// (16-byte instructions on Volta; 8-byte ones with a control word per 3 on Pascal and per 7
// on Kepler). A `warp_emitter` then records the dynamic instruction stream of one warp:
// which static instructions ran, with which active lanes, touching which addresses.
//
// Predication follows the NVBit tracer: an instruction guarded by a predicate is recorded
// with only the lanes whose predicate is true, and not at all when no lane is.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "traces/opcode_table.h"
#include "traces/trace_types.h"

namespace gputlm::traces::generators {

enum class isa_family : std::uint8_t { kepler, pascal, volta };
isa_family family_of(std::uint32_t binary_version);

using reg = std::uint16_t;
constexpr reg rz = 255;  // the zero register (RZ, written R255 in traces)

enum class sreg : std::uint8_t { tid_x, tid_y, tid_z, ctaid_x, ctaid_y, ctaid_z };

// A contiguous run of static instructions.
struct code {
  std::uint32_t first = 0, count = 0;
};

class program {
 public:
  // Interns mnemonics into `opcodes` (one table per application). `scratch` is the register
  // the multi-instruction expansions (Pascal XMAD) use as a temporary.
  program(opcode_table& opcodes, reg scratch);

  isa_family family() const { return m_family; }
  std::uint32_t binary_version() const { return m_binary_version; }

  // Groups consecutive macros: `auto m = p.here(); ...; code c = p.since(m);`
  std::uint32_t here() const { return std::uint32_t(m_insts.size()); }
  code since(std::uint32_t mark) const { return code{mark, here() - mark}; }

  // One instruction, spelled as traced. Registers equal to rz are recorded as R255 sources
  // only where the tracer shows them (IMAD.MOV.U32); elsewhere pass only real registers.
  code raw(std::string_view mnemonic, std::initializer_list<reg> dst,
           std::initializer_list<reg> src, std::uint8_t width = 0);

  code prologue();  // stack pointer set-up (R1)
  // Prologue, then R3 = blockIdx.x * blockDim.x + threadIdx.x (R0, R2 hold the parts).
  void global_index_1d();
  // Prologue, then R0 = global x (column), R3 = global y (row); R2, R4 hold threadIdx.x/.y.
  void global_index_2d();
  code s2r(reg d, sreg s);
  code mov(reg d);                                      // d = constant or kernel parameter
  code imad(reg d, reg a, reg b, reg c);                // d = a * b + c; rz = constant operand
  code iadd(reg d, reg a, reg b);                       // d = a + b; rz = immediate
  code shl(reg d, reg a);                               // d = a << imm
  code shr(reg d, reg a);                               // d = a >> imm
  code land(reg d, reg a);                              // d = a & imm
  code isetp(std::string_view cmp, reg a, reg b);       // P = a <cmp> b, e.g. "GE", "NE.U32"
  code address(reg d, reg index, reg base);             // d:d+1 = base + index * scale (rz: param)
  code ptr_add(reg d, reg a, reg b);                    // d:d+1 = a:a+1 + b (64-bit)
  code ld_global(reg d, reg addr, unsigned bytes);      // LDG.E(.SYS) / LD.E on Kepler
  code st_global(reg addr, reg value, unsigned bytes);  // STG.E(.SYS) / ST.E on Kepler
  code red_add(reg addr, reg value, bool f32);          // RED.E.ADD(.F32.FTZ.RN)
  // d = atomic `op` on the 4-byte word at addr, returning the old value; op as in SASS, e.g.
  // "MIN.S32" (atomicMin on int), "ADD" (atomicAdd on unsigned): ATOMG.E.<op>.STRONG.GPU on
  // Volta, ATOM.E.<op> before.
  code atom(std::string_view op, reg d, reg addr, reg value);
  code ld_shared(reg d, reg addr, unsigned bytes);      // LDS
  code st_shared(reg addr, reg value, unsigned bytes);  // STS
  code fadd(reg d, reg a, reg b);
  code fmul(reg d, reg a, reg b);
  code ffma(reg d, reg a, reg b, reg c);
  code i2f(reg d, reg a);
  code bar_sync();
  code exit();
  code bra();
  code reconverge_begin();  // BSSY (Volta) / SSY
  code reconverge_end();    // BSYNC (Volta) / SYNC
  // gputlm extensions (docs/traces.md).
  code cb_push(direction dir, reg value);  // CB.PUSH.<DIR>
  code cb_pop(direction dir, reg d);       // CB.POP.<DIR>
  code block_sync(direction dir);          // BAR.BLOCKSYNC[.<DIR>]
  code cdp_launch();                       // CDP.LAUNCH
  code cdp_sync();                         // CDP.SYNC (cudaDeviceSynchronize)
  code dtbl_launch();                      // DTBL.LAUNCH

  const warp_instruction& inst(std::uint32_t i) const { return m_insts[i]; }
  std::uint32_t size() const { return here(); }
  // Registers per thread for the kernel header: highest register used + 1, at least 8.
  std::uint32_t nregs() const;
  const opcode_table& opcodes() const { return m_opcodes; }

 private:
  std::uint32_t pc_of(std::uint32_t index) const;
  static std::string width_suffix(unsigned bytes);

  opcode_table& m_opcodes;
  std::uint32_t m_binary_version;
  isa_family m_family;
  reg m_scratch;
  std::uint16_t m_max_reg = 0;
  std::vector<warp_instruction> m_insts;
};

using lane_addresses = std::array<std::uint64_t, 32>;

// Records the dynamic instructions of one warp into a warp_trace.
class warp_emitter {
 public:
  warp_emitter(const program& p, warp_trace& out) : m_program(p), m_out(out) {}

  // Non-memory instructions of `c`, all with `mask`. Nothing is recorded if mask == 0.
  void run(code c, std::uint32_t mask);
  // One memory instruction; addr[lane] for each active lane.
  void mem(code c, std::uint32_t mask, const lane_addresses& addr);
  template <class F>
  void mem_fn(code c, std::uint32_t mask, F&& addr_of_lane) {
    lane_addresses a{};
    for (unsigned l = 0; l < 32; ++l)
      if (mask >> l & 1u) a[l] = addr_of_lane(l);
    mem(c, mask, a);
  }
  // One global load or store of a status word at `addr` by the lanes in mask, carrying a flag
  // value (the trace token flag=V, docs/traces.md): a load is a poll that waits until the
  // word holds at least `value`, a store writes `value` there.
  void flag(code c, std::uint32_t mask, std::uint64_t addr, std::uint32_t value);
  // One CB.PUSH/CB.POP moving bytes_per_lane bytes for every active lane.
  void cb(code c, std::uint32_t mask, std::uint32_t bytes_per_lane);
  // One CDP.LAUNCH / DTBL.LAUNCH issued by the lanes in mask.
  void launch(code c, std::uint32_t mask, const device_launch& what);

  std::size_t count() const { return m_out.insts.size(); }

 private:
  warp_instruction& push(std::uint32_t index, std::uint32_t mask);

  const program& m_program;
  warp_trace& m_out;
};

}  // namespace gputlm::traces::generators
