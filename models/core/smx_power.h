// The power components of an SMX, split as GPUWattch/AccelWattch split a core (fetch and
// decode, warp schedulers, register file, operand collectors, the execution-unit groups,
// the LDST unit, shared memory) so that the per-component gating of uC-States has a place
// to live (Slumber's registers are switched by the Slumber control unit instead). The SMX reports
// each issued warp instruction once; this turns it into events.
//
// Components and events (power table keys `smx.<component>`):
//   fetch_decode       fetch      one warp instruction fetched and decoded
//   scheduler          issue      one warp instruction issued
//   register_file      read, write  one warp-wide (32 x 4 B) operand; elements = banks
//   operand_collector  collect    one source operand gathered
//   pipeline_registers write      one warp instruction latched into a pipeline register:
//                      issue-to-collector (IDOC) and collector-to-execution (OCEX), two per
//                      instruction issued to a pipeline (μC-States, S002 §2.1; GPUWattch's
//                      PIPE). Reported only where the power table lists it.
//   sp, sfu, dp, int, tensor, branch, ldst   op   one active lane's operation (ldst: one
//                      warp memory instruction, address generation and coalescing)
//   shared_memory      access     one bank-conflict-free wave of a shared-memory access
//   core               (none)     the core as a whole, GPUWattch's IDLE_COREP: its first
//                      state while the SMX holds a TB, a state named `idle` (if the table
//                      gives one) while it holds none, whose clock power is the idle core's
//                      dynamic power (docs/power.md, "Idle cores")
// Power states of these components are accounted like any other. Under a gating policy
// every component reports its use where its events are counted (at issue: fetch/decode,
// the scheduler, the register banks of the instruction's source and destination registers,
// the collector when it has source operands, its execution-unit group or the LDST unit;
// shared memory when the LDST unit accesses it), so an element sleeps only when it is idle.
// The wake-ups are requested together at issue: the instruction's work (its execution, or
// its LDST operation) starts after the longest of them (docs/power.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "models/common/component.h"
#include "models/power/power_component.h"

namespace gputlm::core {

class smx_power {
 public:
  // Execution pipes, in the SMX's pipe order (smx::pipe: sp, sfu, dp, int, tensor, branch, ldst).
  static constexpr std::size_t pipes = 7;

  // The register file's power elements are its banks (unless the power table splits it
  // otherwise).
  smx_power(component& owner, std::uint64_t register_file_bytes, std::uint32_t register_banks);
  pm::power_component& register_file() { return *m_register_file; }
  pm::power_component& fetch_decode() { return *m_fetch_decode; }
  pm::power_component& scheduler() { return *m_scheduler; }
  pm::power_component& collector() { return *m_collector; }
  pm::power_component& pipeline_registers() { return *m_pipeline_registers; }
  pm::power_component& pipe_component(std::size_t p) { return *m_pipe_component[p]; }
  // A register-level power controller took the register file over (register_gate.h): its
  // accesses are reported to the controller instead, and the gates are looked at again.
  void register_file_managed() {
    m_rf_managed = true;
    m_any_gated = gated_components();
  }

  // One warp instruction issued to pipe `p` (pipes: none) with `lanes` active lanes, `reads`
  // register operands and `writes` destinations.
  void issue(std::size_t p, std::uint32_t lanes, std::uint32_t reads, std::uint32_t writes) {
    ++m_n.fetch;
    ++m_n.issue;
    m_n.register_file[0] += reads;
    m_n.register_file[1] += writes;
    m_n.collect += reads;
    if (p < pipes) {
      m_n.pipe[p] += p == ldst_pipe ? 1 : lanes;
      m_n.pipeline_registers += 2;
    }
  }
  void shared_memory(std::uint32_t waves) { m_n.shared += waves; }
  // The SMX got its first TB / gave up its last one at now_fs (the core component's state).
  void core_busy(std::uint64_t now_fs) {
    if (m_idle_state) m_core->set_all(0, now_fs);
  }
  void core_idle(std::uint64_t now_fs) {
    if (m_idle_state) m_core->set_all(m_idle_state, now_fs);
  }

  // A gate switches some component of the SMX: the SMX then reports each use (the calls
  // below; without a gate they return 0 and may be skipped).
  bool any_gated() const { return m_any_gated; }
  // The uses of one instruction at now_fs, each returning the wake-up cycles it waits
  // (0 when the element is ON or not gated).
  std::uint64_t wake_front_end(std::uint64_t now_fs) {
    return std::max(m_fetch_decode->access(0, now_fs), m_scheduler->access(0, now_fs));
  }
  std::uint64_t wake_register_bank(std::uint32_t bank, std::uint64_t now_fs);
  std::uint64_t wake_collector(std::uint64_t now_fs) { return m_collector->access(0, now_fs); }
  std::uint64_t wake_pipe(std::size_t p, std::uint64_t now_fs) {
    return p < pipes ? m_pipe_component[p]->access(0, now_fs) : 0;
  }
  std::uint64_t wake_shared_memory(std::uint64_t now_fs) { return m_shared->access(0, now_fs); }

 private:
  static constexpr std::size_t ldst_pipe = 6;
  // The event counters, kept here (hot, contiguous); the components read them.
  struct counters {
    std::uint64_t fetch = 0, issue = 0, register_file[2] = {0, 0}, collect = 0, shared = 0;
    std::uint64_t pipeline_registers = 0;
    std::uint64_t pipe[pipes] = {};
  } m_n;
  pm::power_component* m_pipe_component[pipes] = {};
  pm::power_component *m_fetch_decode, *m_scheduler, *m_register_file, *m_collector, *m_shared;
  pm::power_component* m_pipeline_registers;
  pm::power_component* m_core;
  std::uint32_t m_idle_state = 0;  // the core's `idle` state (0: the table gives none)
  std::uint32_t m_register_banks;
  bool m_rf_managed = false;
  bool m_any_gated = false;
  bool gated_components() const;
};

}  // namespace gputlm::core
