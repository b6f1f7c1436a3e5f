// What the SMX's register file asks of a register-level power controller bound beside it
// (its port `registers`): the Slumber control unit, or WRF's rule on the same registers
// (Tripathy's thesis §6.3, models/power/slumber_control_unit.h). The SMX reports every
// register access with the compiler hint of its operand (traces/register_hints.h) and
// waits what the controller answers: a read delays its instruction, a write its
// write-back. With nothing bound the register file is not managed and none of this runs.
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::pm {
class power_component;
}

namespace gputlm::core {

class register_gate : public virtual sc_core::sc_interface {
 public:
  // What the warp's next instruction says about how long its registers stay unused.
  struct outlook {
    std::uint64_t idle = 0;  // cycles until it can issue (0: next cycle)
    bool known = true;       // false: not ready for a reason with no predicted end
    // Neither in the warp's instruction buffer nor in L1I (the fetch-unit list misses): the
    // thesis's rules (c)/(d) (§6.3.3) apply.
    bool not_in_l1i = false;
  };

  // The SMX hands its register file over at the end of elaboration: the power component
  // (whose elements become the warp registers), and its shape.
  virtual void take_over(pm::power_component& rf, std::uint32_t warp_registers,
                         std::uint32_t warp_slots, std::uint32_t banks) = 0;
  // Whether an instruction's registers start waking when it is decoded (WRF) rather than
  // when the scheduler's lookahead sees it about to be ready (Slumber).
  virtual bool wakes_at_decode() const = 0;
  // Whether a register's idleness is predicted from its own next use (the instruction that
  // next accesses it, known from the compiler) rather than from the warp's next instruction.
  virtual bool idle_per_register() const = 0;
  // Whether the compiler's hints are static (one per static operand, R where its instances
  // disagree) rather than exact per dynamic instance.
  virtual bool static_hints() const = 0;
  // after_access's `next` for a register no later instruction of the warp accesses.
  static constexpr std::uint32_t no_next_use = ~0u;

  // TB allocation, warp exit, TB end. allocate() is false when no contiguous run of free
  // registers is left (the warp's registers are then not tracked).
  virtual bool allocate(std::uint32_t warp, std::uint32_t nregs, std::uint64_t cycle) = 0;
  virtual void warp_exited(std::uint32_t warp, std::uint64_t cycle) = 0;
  virtual void release(std::uint32_t warp, std::uint64_t cycle) = 0;

  // Register accesses (reg below 255, within the warp's allocation: tracked()).
  virtual bool tracked(std::uint32_t warp, std::uint16_t reg) const = 0;
  virtual void untracked_access() = 0;  // an access beyond the allocation (counted)
  virtual std::uint64_t ready_seen(std::uint32_t warp, std::uint16_t reg) const = 0;
  // The warp's instruction `index` issued at `cycle` from warp scheduler `scheduler`, seen
  // by the lookahead from `ready` on.
  virtual void issued(std::uint32_t warp, std::uint32_t index, std::uint64_t ready,
                      std::uint64_t cycle, std::uint32_t scheduler) = 0;
  virtual std::uint64_t read(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                             std::uint64_t cycle, std::uint32_t index) = 0;
  virtual void after_access(std::uint32_t warp, std::uint16_t reg, std::uint64_t cycle, bool dead,
                            const outlook& o, std::uint32_t next) = 0;
  virtual std::uint64_t fixed_destination(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                                          std::uint64_t cycle, std::uint32_t index,
                                          std::uint64_t latency, std::uint64_t result,
                                          bool next_reads, std::uint32_t next_use) = 0;
  virtual void load_destination(std::uint32_t warp, std::uint16_t reg, std::uint64_t cycle,
                                std::uint32_t index) = 0;
  virtual void load_answered(std::uint32_t warp, std::uint64_t issued, std::uint64_t cycle,
                             std::uint8_t served) = 0;
  virtual std::uint64_t load_written(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                                     std::uint64_t cycle, std::uint8_t served) = 0;
  // The predicted return of the warp's latest load that missed L1 (0: none pending).
  virtual std::uint64_t load_due(std::uint32_t warp) const = 0;
};

}  // namespace gputlm::core
