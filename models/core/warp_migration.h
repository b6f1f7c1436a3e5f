// Moving a warp between SMXs (LATOA, Bitalebi et al., GPGPU 2023, §4.3-4.4; seed 003): what
// an SMX answers a controller beside it (export `migration`). The host SMX rewinds a warp to
// its oldest load in flight, drops that load and every later request of the warp (their
// MSHR slots are cancelled by the caller, mshr_view.h's mshr_cancel; answers still on their
// way are dropped on arrival), takes the instructions it had issued since back out of its
// counts (the guest issues them again) and retires the warp "like a finished warp", its TB
// kept resident until the guest reports the warp done. The guest adopts the context into a
// free warp slot as a one-warp "foreign" TB (a TB slot, counted by the SMX scheduler as the
// caller claims it) and runs it from the rewound instruction; when the warp ends, the SMX
// publishes smx_events::adopted_warp_done for the caller to tell the host. An adopted warp
// may move on: its foreign TB ends here without a notice, and the context keeps its first
// host and what it issued on the way.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/control/control_registers.h"
#include "traces/trace_types.h"

namespace gputlm::core {

// A warp's context on its way: where it came from, which trace and where in it.
struct warp_context {
  std::uint32_t host = 0;             // SMX it left
  std::uint32_t host_tb = 0;          // its TB's slot there
  std::uint64_t host_generation = 0;  // that TB's generation (tells it from the slot's later ones)
  std::uint32_t kernel = 0;           // workload kernel index
  std::uint32_t tb = 0;               // TB linear id within its kernel
  const traces::warp_trace* trace = nullptr;
  std::shared_ptr<const traces::tb_trace> tb_trace;  // keeps `trace` alive
  std::uint32_t next = 0;  // the instruction it resumes at (the rewound load)
  std::uint32_t regs_per_thread = 0;
  std::uint32_t squashed = 0;  // instructions the host took back (issued again by the guest)
  std::uint32_t hops = 0;      // moves so far, this one included
  control::tb_report carried;  // issued on earlier guests (a warp moved again)
};

class warp_migration : public virtual sc_core::sc_interface {
 public:
  // Why warp slot `warp` cannot leave now (none: it can). It must be resident in a TB of
  // this SMX's own (not adopted), of a kernel without barriers, shared memory, flags or
  // device-side operations, wait at no barrier, fence, fetch or atomic, and have only loads
  // in flight (at least one).
  enum class refusal : std::uint8_t {
    none,
    not_resident,
    hops,     // adopted, and moved as often as the caller allows
    kernel,   // barriers, shared memory, flags or device-side operations
    waiting,  // at a barrier, fence, instruction fetch or atomic
    store,    // a store or an atomic in flight
    no_load,  // no load in flight (or done issuing)
    count_
  };
  virtual refusal export_refusal(std::uint32_t warp) const = 0;
  // Moves warp slot `warp`'s warp has made (0: it is in its own TB).
  virtual std::uint32_t hops(std::uint32_t warp) const = 0;
  // Exports warp slot `warp` (export_refusal() must be none): `cancelled` are its
  // requests that the L1's MSHR gave back (their payloads are released here).
  virtual warp_context export_warp(std::uint32_t warp,
                                   const std::vector<tlm::tlm_generic_payload*>& cancelled) = 0;
  virtual std::uint32_t warp_size() const = 0;
  // Registers warp slot `warp`'s context holds (its TB's registers per thread, allocated in
  // fours, x the warp size): what its guest allocates and the context carries.
  virtual std::uint32_t context_registers(std::uint32_t warp) const = 0;
  // Adopts a context into a free warp slot and TB slot; false if there is none (the caller
  // claimed the room from the SMX scheduler first, so there is).
  virtual bool adopt(const warp_context& ctx) = 0;
  // An adopted warp of host TB `tb_slot` (of `generation`) ended on its guest, having
  // issued `warp_instructions` / `thread_instructions` there.
  virtual void remote_warp_done(std::uint32_t tb_slot, std::uint64_t generation,
                                const control::tb_report& issued_there) = 0;
};

inline const char* to_string(warp_migration::refusal r) {
  using R = warp_migration::refusal;
  switch (r) {
    case R::none:
      return "none";
    case R::not_resident:
      return "not_resident";
    case R::hops:
      return "hops";
    case R::kernel:
      return "kernel";
    case R::waiting:
      return "waiting";
    case R::store:
      return "store";
    case R::no_load:
      return "no_load";
    case R::count_:
      break;
  }
  return "?";
}

}  // namespace gputlm::core
