// What an SMX publishes on its observation point (port `events`; any number of observers
// bound, docs/architecture.md): its TBs' starts and ends, its warps' exits, each warp fetch
// and issue (with the pipeline it went to), the register operands read and written, and how
// many of its warps wait for memory. A
// controller beside the SMX (a gating control unit, a DVFS governor, an occupancy monitor)
// hears of them without the SMX knowing it is there. Cycles are the SMX's clock's; every
// method does nothing unless an observer overrides it.
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::core {

// The SMX's execution pipelines, as an instruction is issued to one (none: barriers, exits
// and the extension ops, which take an issue slot but no unit).
// An SMX's warps: resident (live) warps, and of them those waiting for memory: parked until
// a load's data (or a memory barrier, or a device-runtime call) returns, or, while the L1
// pushes back on the LDST unit, waiting to issue to it.
struct warp_census {
  std::uint32_t live = 0;
  std::uint32_t memory_wait = 0;
  bool operator==(const warp_census& o) const {
    return live == o.live && memory_wait == o.memory_wait;
  }
  bool operator!=(const warp_census& o) const { return !(*this == o); }
  // Every resident warp waits for memory (a stalled core, LATOA's sense).
  bool stalled() const { return live != 0 && memory_wait >= live; }
};

enum class unit_pipe : std::uint8_t { sp, sfu, dp, int_alu, tensor, branch, ldst, none, count_ };

class smx_events : public virtual sc_core::sc_interface {
 public:
  // TB slot `slot` started with `warps` warps, or ended (its last warp exited).
  virtual void tb_started(std::uint32_t slot, std::uint32_t warps, std::uint64_t cycle) {
    (void)slot, (void)warps, (void)cycle;
  }
  virtual void tb_finished(std::uint32_t slot, std::uint64_t cycle) { (void)slot, (void)cycle; }
  // Warp slot `warp` exited (its last result written back).
  virtual void warp_exited(std::uint32_t warp, std::uint64_t cycle) { (void)warp, (void)cycle; }
  // `instructions` of warp `warp` were fetched into its instruction buffer.
  virtual void fetched(std::uint32_t warp, std::uint32_t instructions, std::uint64_t cycle) {
    (void)warp, (void)instructions, (void)cycle;
  }
  // A warp instruction of `warp` issued to `pipe`, with `lanes` active lanes, reading `reads`
  // register operands and writing `writes`.
  virtual void issued(std::uint32_t warp, unit_pipe pipe, std::uint32_t lanes,
                      std::uint32_t reads, std::uint32_t writes, std::uint64_t cycle) {
    (void)warp, (void)pipe, (void)lanes, (void)reads, (void)writes, (void)cycle;
  }
  // With collector sets (smx.collector_sets: per_type): the instruction issued at `cycle`
  // holds a collector unit of its type for `cycles` cycles (its operand reads).
  virtual void operands_collected(std::uint32_t warp, unit_pipe pipe, std::uint64_t cycles,
                                  std::uint64_t cycle) {
    (void)warp, (void)pipe, (void)cycles, (void)cycle;
  }
  // The census changed, as seen at the end of the evaluated cycle `cycle` (it holds until
  // the next such call: between evaluated cycles the SMX's warps do not change).
  virtual void warps_waiting(const warp_census& census, std::uint64_t cycle) {
    (void)census, (void)cycle;
  }
  // A warp adopted from SMX `host` (TB slot `host_tb` of `generation` there) ended here,
  // having issued `warp_instructions` and `thread_instructions` (warp_migration.h).
  virtual void adopted_warp_done(std::uint32_t host, std::uint32_t host_tb,
                                 std::uint64_t generation, std::uint64_t warp_instructions,
                                 std::uint64_t thread_instructions, std::uint64_t cycle) {
    (void)host, (void)host_tb, (void)generation, (void)warp_instructions, (void)thread_instructions,
        (void)cycle;
  }
};

}  // namespace gputlm::core
