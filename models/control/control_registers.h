// The memory-mapped control registers of the kernel-management path (DTBL thesis, Fig. 1
// and §2.2): what the KMU writes into a Kernel Distributor entry (KDE), what the SMX
// scheduler reads from it, and the Thread Block Control Register (TBCR) it writes into an
// SMX. Each record travels as the data of a TLM generic payload, so any of these blocks can
// later be replaced by RTL behind the same socket.
//
// Protocols (all on the TLM-2.0 base protocol):
//   KMU -> KD `kmu`:        nb BEGIN_REQ write of a kde_record = launch. END_REQ when an entry
//                           is allocated (withheld while all entries are busy); BEGIN_RESP
//                           when the kernel has completed.
//   KD -> scheduler `doorbell`: b_transport write of the KDE index that became valid.
//   scheduler -> KD `scheduler`: b_transport; see kd_register below.
//   scheduler -> SMX `tbcr`: b_transport read at tbcr_caps = the SMX's smx_limits;
//                           nb BEGIN_REQ write of a tb_descriptor = TB launch (END_REQ at
//                           once); BEGIN_RESP when the TB has completed, with a tb_report.
//                           b_transport write at tbcr_kernel_done (uint32 kernel id) = a
//                           kernel has completed: the SMX sends a `flush` request to its L1
//                           on `ldst` (GPGPU-Sim -gpgpu_flush_l1_cache).
#pragma once

#include <cstdint>

#include "models/core/occupancy.h"
#include "traces/trace_types.h"

namespace gputlm::control {

struct kde_record {
  std::uint32_t valid = 0;
  std::uint32_t kernel = 0;           // index of the kernel in the workload
  std::uint64_t stream = 0;
  traces::dim3 grid, block;
  std::uint32_t shmem = 0;
  std::uint32_t nregs = 0;
  std::uint64_t param_addr = 0;
  std::uint32_t entry_pc = 0;
  std::uint32_t tbs_total = 0;
  std::uint32_t next_tb = 0;          // TBs left to dispatch = tbs_total - next_tb
  std::uint32_t tbs_running = 0;
  std::uint64_t fcfs_order = 0;       // launch order: lower goes first
};

// Kernel Distributor register map (byte addresses on its `scheduler` socket).
namespace kd_register {
constexpr std::uint64_t entry_stride = 0x100;
constexpr std::uint64_t record = 0x00;   // read: kde_record of entry i (at i*entry_stride)
constexpr std::uint64_t next_tb = 0x80;  // read: pops the next TB id of entry i (uint32)
constexpr std::uint64_t tb_done = 0x88;  // write: one TB of entry i completed (uint32 count)
}  // namespace kd_register

// SMX TBCR register map.
constexpr std::uint64_t tbcr_caps = 0x0;    // read: core::smx_limits
constexpr std::uint64_t tbcr_launch = 0x100;
constexpr std::uint64_t tbcr_kernel_done = 0x200;  // write: uint32 kernel id

struct tb_descriptor {
  std::uint32_t kde = 0;
  std::uint32_t kernel = 0;
  std::uint32_t tb = 0;               // linear TB id
  core::tb_demand demand;
};

// Written back into the descriptor's payload with the completion (BEGIN_RESP).
struct tb_report {
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
};

}  // namespace gputlm::control
