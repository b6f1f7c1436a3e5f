#include "models/core/register_file.h"

#include <algorithm>

#include "traces/register_hints.h"

namespace gputlm::core {

using traces::warp_instruction;

void register_file::manage(register_gate& unit, std::uint32_t warp_slots,
                           std::uint32_t ibuffer_entries) {
  m_unit = &unit;
  m_ibuffer_entries = ibuffer_entries;
  m_hints.resize(warp_slots);
  m_scratch.assign(65536, 0);
  m_per_register = unit.idle_per_register();
  m_static_hints = unit.static_hints();
  if (m_per_register) {
    m_next_use.resize(warp_slots);
    m_scratch_at.assign(65536, ~0u);
  }
}

void register_file::allocate(std::uint32_t warp, const traces::warp_trace& trace,
                             std::uint32_t nregs, std::uint64_t cycle) {
  if (nregs == 0)  // the trace does not say: the registers its instructions name
    for (const warp_instruction& in : trace.insts) {
      for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k)
        if (in.src[k] < 255) nregs = std::max<std::uint32_t>(nregs, in.src[k] + 1u);
      for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
        if (in.dst[k] < 255) nregs = std::max<std::uint32_t>(nregs, in.dst[k] + 1u);
    }
  m_unit->allocate(warp, nregs, cycle);
  traces::warp_register_hints(trace, m_hints[warp], m_scratch);
  if (m_static_hints) traces::static_within_warp(trace, m_hints[warp]);
  if (m_per_register) traces::warp_next_uses(trace, m_next_use[warp], m_scratch_at);
}

bool register_file::managed(std::uint32_t warp, std::uint16_t reg) {
  if (tracked(warp, reg)) return true;
  if (reg < 255) m_unit->untracked_access();  // (RZ and "no register" are not)
  return false;
}

std::size_t register_file::operand_slot(const warp_instruction& in, std::uint16_t reg) {
  std::uint16_t regs[6];
  bool reads[6];
  const std::size_t n = traces::registers_of(in, regs, reads);
  for (std::size_t r = 0; r < n; ++r)
    if (regs[r] == reg) return r;
  return 6;
}

bool register_file::dead_after(std::uint32_t warp, std::uint32_t i, const warp_instruction& in,
                               std::uint16_t reg) const {
  const std::size_t r = operand_slot(in, reg);
  return r < 6 && ((m_hints[warp][i] >> r) & 1);
}

std::uint32_t register_file::next_use(std::uint32_t warp, std::uint32_t i,
                                      const warp_instruction& in, std::uint16_t reg) const {
  const std::size_t r = m_per_register ? operand_slot(in, reg) : 6;
  if (r == 6) return i + 1;
  const std::uint8_t d = m_next_use[warp][std::size_t(i) * 6 + r];
  return d ? i + d : register_gate::no_next_use;
}

std::uint64_t register_file::read_operands(std::uint32_t warp, std::uint32_t scheduler,
                                           std::uint32_t i, const warp_instruction& in,
                                           std::uint64_t landed, std::uint64_t cycle) {
  // When the scheduler's lookahead saw it: WRF at decode, Slumber once it was in the buffer
  // and about to be ready (ready_seen).
  std::uint64_t ready = landed;
  if (!m_unit->wakes_at_decode()) {
    for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k)
      if (tracked(warp, in.src[k])) ready = std::max(ready, m_unit->ready_seen(warp, in.src[k]));
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
      if (tracked(warp, in.dst[k])) ready = std::max(ready, m_unit->ready_seen(warp, in.dst[k]));
  }
  m_unit->issued(warp, i, std::min(ready, cycle), cycle, scheduler);
  std::uint64_t wait = 0;
  for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k) {
    const std::uint16_t r = in.src[k];
    if (!managed(warp, r)) continue;
    bool repeat = false;  // a register named twice is read once
    for (std::uint32_t j = 0; j < k; ++j) repeat = repeat || in.src[j] == r;
    if (repeat) continue;
    wait = std::max(wait, m_unit->read(warp, r, bank_of(r, warp, scheduler), cycle, i));
  }
  return wait;
}

std::uint64_t register_file::fixed_results(std::uint32_t warp, std::uint32_t scheduler,
                                           std::uint32_t i, const warp_instruction& in,
                                           std::uint64_t cycle, std::uint64_t latency,
                                           std::uint64_t result, const warp_instruction* next) {
  std::uint64_t wait = 0;
  for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k) {
    const std::uint16_t r = in.dst[k];
    if (!managed(warp, r)) continue;
    bool next_reads = false;
    if (next)
      for (std::uint32_t j = 0; j < next->num_src && j < 4; ++j)
        next_reads = next_reads || next->src[j] == r;
    // After the write-back, as the warp's next instruction says (ON when it reads the
    // register, else SS woken once the warp is in the lookahead); a result no later
    // instruction uses is dead for good.
    const std::uint32_t use =
        next_use(warp, i, in, r) == register_gate::no_next_use ? register_gate::no_next_use : i + 1;
    wait = std::max(wait, m_unit->fixed_destination(warp, r, bank_of(r, warp, scheduler), cycle, i,
                                                    latency, result, next_reads, use));
  }
  return wait;
}

void register_file::load_results(std::uint32_t warp, std::uint32_t i, const warp_instruction& in,
                                 std::uint64_t cycle) {
  for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k) {
    const std::uint16_t r = in.dst[k];
    if (!managed(warp, r)) continue;
    m_unit->load_destination(warp, r, cycle, i);
  }
}

}  // namespace gputlm::core
