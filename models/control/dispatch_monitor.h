// What the SMX scheduler offers a controller beside it (docs/architecture.md): its
// per-SMX occupancy and TB queue (the SMX monitoring logic's inputs) and the Diversion
// Control Register (one DVR bit per SMX: a diverted SMX is never a TB's destination, under
// every TB policy), as in Wang's thesis §6.2.4 and Fig. 37 (docs/dvfs.md); and what it
// publishes on its observation point `events`: TBs sent and completed, TBs arriving.
#pragma once

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace gputlm::control {

class dispatch_monitor : public virtual sc_core::sc_interface {
 public:
  virtual std::size_t smx_count() const = 0;
  // Warps resident on an SMX (its TBs' warps, from dispatch to completion), and its slots.
  virtual std::uint32_t resident_warps(std::size_t smx) const = 0;
  virtual std::uint32_t warp_slots(std::size_t smx) const = 0;
  // Some kernel entry has a TB (or a DTBL group's TB) ready to dispatch.
  virtual bool tbs_waiting() const = 0;
  // A TB ready to dispatch fits the SMX's free resources now (diversion aside).
  virtual bool next_tb_fits(std::size_t smx) const = 0;
  // TBs wait that the TB policy places on this SMX alone (LaPerm's queue bound to it).
  virtual bool tbs_bound_to(std::size_t smx) const = 0;
  // The DVR bit of an SMX; clearing it lets the scheduler dispatch to it again at once.
  virtual void divert(std::size_t smx, bool on) = 0;
  // Whether every TB placement goes through the diversion mask ("" if so; else why not,
  // e.g. the RTL dispatch unit keeps its own resource table).
  virtual const char* diversion_unsupported() const = 0;
  // Kernels of the workload still to finish (host kernels not finished, device kernels
  // launched and not finished); 0 once the workload is done.
  virtual std::uint32_t open_kernels() const = 0;
  // LATOA's warps moving between SMXs (models/core/warp_migration.h), held in the resource
  // table as TBs are, so that no TB is dispatched into what they use: `tbs` TB slots,
  // `threads` threads and `registers` registers on an SMX. claim: a foreign TB (an adopted
  // warp), only if the SMX's free resources hold it (else false, nothing claimed); take: a
  // host taking back what it released (whether it fits or not; its TB's completion then
  // releases it with the TB); release_claim: an adopted warp ended or moved on, or a host
  // released an exported warp's threads and registers.
  virtual bool claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                     std::uint32_t registers) = 0;
  virtual void take(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                    std::uint32_t registers) = 0;
  virtual void release_claim(std::size_t smx, std::uint32_t tbs, std::uint32_t threads,
                             std::uint32_t registers) = 0;
};

// Events of the scheduler's observation point; every method does nothing unless an
// observer overrides it. Cycles are the scheduler's clock's.
class dispatch_events : public virtual sc_core::sc_interface {
 public:
  // A TB was sent to, or completed on, an SMX (resident_warps has changed).
  virtual void tb_dispatched(std::size_t smx, std::uint64_t cycle) { (void)smx, (void)cycle; }
  virtual void tb_completed(std::size_t smx, std::uint64_t cycle) { (void)smx, (void)cycle; }
  // A kernel entry or a DTBL group arrived: TBs may be waiting.
  virtual void tbs_arrived(std::uint64_t cycle) { (void)cycle; }
};

}  // namespace gputlm::control
