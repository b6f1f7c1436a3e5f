// The memory-mapped control registers of the kernel-management path (DTBL thesis, Fig. 1
// and §2.2): what the KMU writes into a Kernel Distributor entry (KDE), what the SMX
// scheduler reads from it, and the Thread Block Control Register (TBCR) it writes into an
// SMX. The KDE, the TBCR and the SMX's capability register travel as their packed words
// (register_layout.h), which the RTL TB dispatch unit uses too; the other commands are
// records of this file.
//
// Protocols (all on the TLM-2.0 base protocol):
//   KMU -> KD `kmu`:        nb BEGIN_REQ write of a KDE (packed) = launch. END_REQ when an entry
//                           is allocated (withheld while all entries are busy); BEGIN_RESP
//                           when the kernel has completed.
//   KD -> scheduler `doorbell`: b_transport write of the KDE index that became valid.
//   scheduler -> KD `scheduler`: b_transport; see kd_register below.
//   scheduler -> SMX `tbcr`: b_transport read at tbcr_caps = the SMX's smx_limits (packed);
//                           nb BEGIN_REQ write of a TBCR (a packed tb_descriptor) = TB
//                           launch (END_REQ at once); BEGIN_RESP when the TB has completed,
//                           with a tb_report after the TBCR's words.
//                           b_transport write at tbcr_kernel_done (uint32 kernel id) = a
//                           kernel has completed: the SMX sends a `flush` request to its L1
//                           on `ldst` (GPGPU-Sim -gpgpu_flush_l1_cache).
//   SMX `launch` -> KMU `smx[i]`: a launch_command (device-side launches, DTBL thesis
//                           Fig. 1 and 14): BEGIN_REQ when the warp's API calls have taken
//                           their latency (annotated delay: from issue); END_REQ when the
//                           KMU has taken it (withheld while the device launch pool is
//                           full); BEGIN_RESP when every kernel it launched has completed.
//   KMU `agg` -> SMX scheduler `agg`: b_transport of a DTBL launch_command (the aggregation
//                           command): the scheduler coalesces each group into a native
//                           kernel's KDE or marks it for the fallback, and writes back the
//                           search cycles.
//   SMX scheduler `agt` -> AGT `scheduler`: agt_command by b_transport; a fetch of a
//                           group record kept in global memory by nb_transport (BEGIN_RESP
//                           when the memory has answered).
#pragma once

#include <cstdint>
#include <string>
#include <tlm>

#include "models/core/occupancy.h"
#include "traces/trace_types.h"

namespace gputlm::control {

struct kde_record {
  std::uint32_t valid = 0;
  std::uint32_t kernel = 0;  // index of the kernel in the workload
  std::uint64_t stream = 0;
  traces::dim3 grid, block;
  std::uint32_t shmem = 0;
  std::uint32_t nregs = 0;
  std::uint64_t param_addr = 0;
  std::uint32_t entry_pc = 0;
  std::uint32_t tbs_total = 0;
  std::uint32_t next_tb = 0;      // TBs left to dispatch = tbs_total - next_tb
  std::uint32_t tbs_running = 0;  // native and aggregated TBs executing (ExeBL)
  std::uint64_t fcfs_order = 0;   // launch order: lower goes first
  // DTBL (thesis §4.3, Fig. 15): the next aggregated group to schedule and the last one
  // coalesced (an AGT index, or a group kept in global memory: group_ref), and the FCFS
  // controller's bits.
  std::uint32_t nagei = 0xffffffffu;
  std::uint32_t lagei = 0xffffffffu;
  std::uint32_t marked = 0;      // queued for scheduling
  std::uint32_t first_time = 1;  // its native TBs are not all scheduled yet
  bool tbs_left() const { return next_tb < tbs_total || nagei != 0xffffffffu; }
};

// A reference to an aggregated group as NAGEI, LAGEI and Next hold it: an AGT entry index,
// or (bit 31) a group whose record stayed in global memory (its sequence number).
namespace group_ref {
constexpr std::uint32_t none = 0xffffffffu;
constexpr std::uint32_t global_bit = 0x80000000u;
inline bool is_global(std::uint32_t r) { return r != none && (r & global_bit) != 0; }
}  // namespace group_ref

// A device-side launch: the launches of one run of CDP.LAUNCH or DTBL.LAUNCH instructions
// at one PC of one warp (one aggregation command per warp for DTBL; per-warp API costs
// A*x + b with x = count).
struct launch_command {
  enum class kind : std::uint32_t { cdp, dtbl } what = kind::cdp;
  std::uint32_t smx = 0;
  std::uint32_t warp = 0;         // the launching warp's slot in its SMX
  std::uint32_t parent = 0;       // launching kernel (workload index)
  std::uint32_t count = 0;        // launches: children or groups
  std::uint64_t issue_cycle = 0;  // core cycle the API calls began
  std::uint64_t api_cycles = 0;   // the warp's API latency (Table 5 model)
  std::uint32_t child[32] = {};   // workload index of each child kernel or group
  std::uint32_t hw_tid[32] = {};  // the launching thread's hardware thread id in its SMX
  // Written back by the SMX scheduler for DTBL: cycles of the eligible-KDE and AGT searches
  // and, per group, the KDE it joined (or none: it falls back to a device kernel).
  std::uint64_t search_cycles = 0;
  std::uint32_t joined[32] = {};
};

// Kernel Distributor register map (byte addresses on its `scheduler` socket).
namespace kd_register {
constexpr std::uint64_t entry_stride = 0x100;
constexpr std::uint64_t record = 0x00;   // read: entry i's KDE, packed (at i*entry_stride)
constexpr std::uint64_t next_tb = 0x80;  // read: pops the next TB id of entry i (uint32)
constexpr std::uint64_t tb_done = 0x88;  // write: one TB of entry i completed (uint32 count)
constexpr std::uint64_t groups = 0x90;   // write: kd_groups of entry i (DTBL)
constexpr std::uint64_t group_tb =
    0x98;  // write: a TB of an aggregated group of entry i dispatched
constexpr std::uint64_t entry_count = 0xffffff00;  // read: the KD's entries (uint32)
}  // namespace kd_register

// The DTBL fields of a KDE as the SMX scheduler writes them (kd_register::groups).
struct kd_groups {
  std::uint32_t nagei = 0xffffffffu;
  std::uint32_t lagei = 0xffffffffu;
  std::uint32_t marked = 0;
  std::uint32_t first_time = 1;
};

// SMX TBCR register map.
constexpr std::uint64_t tbcr_caps = 0x0;  // read: core::smx_limits
constexpr std::uint64_t tbcr_launch = 0x100;
constexpr std::uint64_t tbcr_kernel_done = 0x200;  // write: uint32 kernel id

struct tb_descriptor {
  std::uint32_t kde = 0;
  std::uint32_t kernel = 0;  // the kernel (or aggregated group) whose trace runs
  std::uint32_t tb = 0;      // linear TB id (BLKID within a group)
  core::tb_demand demand;
  std::uint32_t agei = group_ref::none;  // the aggregated group, for its TBs (thesis TBCR.AGEI)
};

// The AGT's command register (agt.h): what the SMX scheduler asks of it.
struct agt_command {
  enum class op : std::uint32_t { allocate, set_next, dispatched, completed } what = op::allocate;
  std::uint32_t index = 0;               // allocate: the hardware thread id to hash; else the entry
  std::uint32_t smx = 0;                 // allocate: the launching SMX (hash: smx_thread)
  std::uint32_t group = 0;               // allocate: workload index of the group
  std::uint32_t blocks = 0;              // allocate: TBs of the group (aggDim)
  std::uint64_t param_addr = 0;          // allocate
  std::uint32_t next = group_ref::none;  // set_next
  std::uint32_t result = group_ref::none;  // allocate: the entry, or none when it is busy
  std::uint64_t cycles = 0;                // allocate: cycles the lookup took
};

// Where the record of a group kept in global memory lies (the device runtime's region;
// docs/traces.md lists the regions the generators use).
constexpr std::uint64_t group_record_base = 0x7f5000000000ull;

// A kernel's function as its KDE's entry PC holds it: the FNV-1a hash of its name (traces
// carry no code addresses); DTBL coalesces a group into a kernel of the same function.
inline std::uint32_t function_id(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return h;
}

// Written back into the descriptor's payload with the completion (BEGIN_RESP).
struct tb_report {
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
};

// A register access by b_transport on a control socket (no delay): `len` bytes of `data`
// read from or written to `addr`. The blocking accesses of the protocols above.
template <class Socket>
void register_access(Socket& socket, tlm::tlm_command cmd, std::uint64_t addr, void* data,
                     unsigned len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, d);
}

}  // namespace gputlm::control
