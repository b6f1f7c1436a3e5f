// The power components of an SMX, split as GPUWattch/AccelWattch split a core (fetch and
// decode, warp schedulers, register file, operand collectors, the execution-unit groups,
// the LDST unit, shared memory) so that the per-component gating of uC-States and the
// register-bank levels of Slumber have a place to live. The SMX reports each issued warp
// instruction once; this turns it into events.
//
// Components and events (power table keys `smx.<component>`):
//   fetch_decode       fetch      one warp instruction fetched and decoded
//   scheduler          issue      one warp instruction issued
//   register_file      read, write  one warp-wide (32 x 4 B) operand; elements = banks
//   operand_collector  collect    one source operand gathered
//   sp, sfu, dp, int, tensor, branch, ldst   op   one active lane's operation (ldst: one
//                      warp memory instruction, address generation and coalescing)
//   shared_memory      access     one bank-conflict-free wave of a shared-memory access
// Power states of these components are accounted like any other. The execution-unit groups
// (sp ... branch) ask the gating policy at issue, and an instruction waits the wake-up of a
// sleeping group (uC-States-style datapath gating); the others (fetch/decode, schedulers,
// register file, collectors, LDST, shared memory) do not ask yet.
#pragma once

#include <array>
#include <cstdint>

#include "models/common/component.h"
#include "models/power/power_component.h"

namespace gputlm::core {

class smx_power {
 public:
  // Execution pipes, in the SMX's pipe order (smx::pipe: sp, sfu, dp, int, tensor, branch, ldst).
  static constexpr std::size_t pipes = 7;

  smx_power(component& owner, std::uint64_t register_file_bytes, std::uint32_t register_banks);

  // One warp instruction issued to pipe `p` (pipes: none) with `lanes` active lanes, `reads`
  // register operands and `writes` destinations.
  void issue(std::size_t p, std::uint32_t lanes, std::uint32_t reads, std::uint32_t writes) {
    ++m_n.fetch;
    ++m_n.issue;
    m_n.register_file[0] += reads;
    m_n.register_file[1] += writes;
    m_n.collect += reads;
    if (p < pipes) m_n.pipe[p] += p == ldst_pipe ? 1 : lanes;
  }
  void shared_memory(std::uint32_t waves) { m_n.shared += waves; }
  // Execution-unit groups under a gating policy: the wake-up cycles an instruction issued
  // to pipe p at now_fs waits before its group can start it (0 when ON or not gated).
  // The idle time a policy sees is measured from the group's previous issue.
  bool gated(std::size_t p) const { return p < pipes && m_pipe_component[p]->gated(); }
  std::uint64_t wake(std::size_t p, std::uint64_t now_fs) {
    return m_pipe_component[p]->access(0, now_fs);
  }

 private:
  static constexpr std::size_t ldst_pipe = 6;
  // The event counters, kept here (hot, contiguous); the components read them.
  struct counters {
    std::uint64_t fetch = 0, issue = 0, register_file[2] = {0, 0}, collect = 0, shared = 0;
    std::uint64_t pipe[pipes] = {};
  } m_n;
  pm::power_component* m_pipe_component[pipes] = {};
};

}  // namespace gputlm::core
