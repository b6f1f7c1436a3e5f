// Slumber's compiler hints (Tripathy's thesis §6.3.1, with §6.1.2 and §6.3.4;
// docs/references.md, "Slumber register leakage"), derived from a trace: for every
// register an instruction accesses, whether that register's next access in the warp is a
// write (hint W: the value is dead until then, so the register may be power gated) or a
// read (hint R: it must keep its value). A register with no further access is W.
//
// The compiler's hint is one bit per static register operand. A trace knows the answer for
// every dynamic instance exactly; where the instances of one static operand disagree (its
// next access depends on a loop's trip count or a branch), the static hint is the
// conservative R, as the thesis fixes the flag at 1 where its analysis cannot resolve a
// loop. Both are reported: `exact` (per dynamic instance) and `static` (per (kernel, PC,
// register)). docs/power.md, "Slumber's hints", compares the two with the compiler's view.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "traces/trace_reader.h"

namespace gputlm::traces {

struct register_hint_counts {
  std::uint64_t next_write = 0;  // dynamic instances whose next access is a write (or none)
  std::uint64_t next_read = 0;   // ... a read
  bool static_write() const { return next_read == 0; }  // W for every instance
};

struct register_hints {
  // (kernel id, PC, register) -> counts over every warp's dynamic instances.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint16_t>, register_hint_counts> operands;
  std::uint64_t dynamic = 0;        // register accesses (an instruction's distinct registers)
  std::uint64_t dynamic_write = 0;  // of them, next access a write (the exact hint W)
  std::uint64_t static_write_dynamic = 0;  // of them, W under the static hint
  std::uint64_t conflicted = 0;            // static operands whose instances disagree
};

// The distinct registers `in` accesses (its sources, then destinations not also sources),
// at most 6, and whether it reads each; returns how many.
std::size_t registers_of(const warp_instruction& in, std::uint16_t* regs, bool* reads);

// The exact hints of one warp: bits[i] bit r is set when the r-th register of instruction i
// (registers_of's order) is next accessed by a write, or never again (W). `next` is
// scratch space of 65536 entries, all 0, left so.
void warp_register_hints(const warp_trace& w, std::vector<std::uint8_t>& bits,
                         std::vector<std::uint8_t>& next);

// The hints of warp_register_hints made static within the warp: one bit per static operand
// (PC, register), R (0) wherever the warp's instances of that operand disagree, as a compiler
// that cannot resolve a loop marks its operands (the thesis's conservative rule).
void static_within_warp(const warp_trace& w, std::vector<std::uint8_t>& bits);

// Where each register of one warp's instructions is accessed next: next[i * 6 + r] is how
// many instructions after instruction i its r-th register (registers_of's order) is
// accessed again, at most 255 (0: never again). `at` is scratch space of 65536 entries, all
// ~0u, left so.
void warp_next_uses(const warp_trace& w, std::vector<std::uint8_t>& next,
                    std::vector<std::uint32_t>& at);

// Streams every TB of every kernel of `app` once.
register_hints derive_register_hints(application_trace& app);

// gputlm trace hints TRACE [-o FILE]: a JSON summary on stdout; with -o, the static hints,
// one line per (kernel, PC, register): "kernel pc reg W|R next_write next_read".
int hints_main(const std::vector<std::string>& args);

}  // namespace gputlm::traces
