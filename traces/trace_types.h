// The in-memory form of a GPU workload trace: what trace readers produce, what generators
// emit, and what the SMX replays. Follows the Accel-Sim NVBit trace format (see
// docs/traces.md and ../shared/reference/accelsim-trace-format.md): an application is an
// ordered command list (host-to-device copies and kernel launches); a kernel is a grid of
// thread blocks (TBs); a TB is a set of warps; a warp is a sequence of SASS instructions.
//
// This header is the contract between traces/ and models/: keep it free of I/O and of
// SystemC so both sides can include it cheaply.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputlm::traces {

struct dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
  bool operator==(const dim3& o) const { return x == o.x && y == o.y && z == o.z; }
  bool operator!=(const dim3& o) const { return !(*this == o); }
};

// Which SMX functional unit executes an instruction (Accel-Sim's unit classes).
enum class unit_class : std::uint8_t {
  sp,       // FP32 (and FP16 pairs, at half the initiation interval)
  sfu,      // MUFU and other special functions
  int_alu,  // integer
  dp,       // FP64
  tensor,   // HMMA and friends
  ldst,     // every memory instruction
  branch,   // BRA, CALL, RET, JMP, SYNC/BSSY/BSYNC, predicates' control
  barrier,  // BAR.*, WARPSYNC
  exit,     // EXIT
  texture,  // TEX/TLD (counted, routed to the texture path)
  other,    // NOP, S2R, CS2R, ... (issue slot only; executed on the INT path)
};

// Memory space touched by an LDST instruction.
enum class mem_space : std::uint8_t {
  none,
  global,
  local,
  shared,
  constant,
  global_atomic,  // ATOM/RED on global memory: executed at L2
  shared_atomic,  // ATOMS
  texture,
};

// Instructions that mean more than "occupy a unit": barriers, exits, and the gputlm
// extensions (device-side launches, SPU communication-buffer traffic).
enum class special_op : std::uint8_t {
  none,
  bar_sync,          // BAR.SYNC: TB-wide barrier
  exit,              // EXIT: warp done
  membar,            // MEMBAR
  launch_kernel,     // CDP: device-side kernel launch (see device_launch)
  launch_agg_group,  // DTBL: aggregated thread-block group launch (see device_launch)
  cb_push,           // SPU: store to the communication buffer towards a neighbour
  cb_pop,            // SPU: load from the communication buffer from a neighbour
  block_sync,        // SPU: bar.blocksync, global or towards one neighbour
};

// SPU neighbour direction for communication-buffer traffic and directional sync.
enum class direction : std::uint8_t { none, north, south, east, west, global };

// A device-side launch recorded in a parent warp (CDP or DTBL).
struct device_launch {
  std::uint32_t child_kernel = 0;  // kernel id of the child (its traces are in the kernel list)
  dim3 grid;                       // CDP: child grid; DTBL: aggregated group size in TBs
  dim3 block;                      // TB dims
  std::uint32_t shmem = 0;         // bytes of shared memory per TB
  std::uint64_t param_addr = 0;    // parameter buffer address
};

// One dynamic warp instruction. Fixed size; variable parts (addresses, launch records)
// live in the owning warp_trace and are found by index.
struct warp_instruction {
  static constexpr std::uint16_t no_reg = 0xffff;
  static constexpr std::uint32_t none = 0xffffffffu;

  std::uint32_t pc = 0;            // SASS offset
  std::uint32_t active_mask = 0;   // predicated-off lanes already removed
  std::uint32_t line = 0;          // source line (tracer >= 4 with lineinfo), else 0
  std::uint16_t opcode = 0;        // index into the opcode_table that decoded it
  unit_class unit = unit_class::other;
  mem_space space = mem_space::none;
  special_op special = special_op::none;
  direction dir = direction::none; // SPU ops only
  std::uint8_t access_size = 0;    // bytes per thread (0 = not a memory instruction)
  std::uint8_t num_dst = 0;
  std::uint8_t num_src = 0;
  std::uint16_t dst[2] = {no_reg, no_reg};
  std::uint16_t src[4] = {no_reg, no_reg, no_reg, no_reg};
  std::int32_t immediate = 0;      // tracer version 5; otherwise 0
  std::uint32_t addr_index = none; // first of popcount(active_mask) addresses in warp_trace::addresses
  std::uint32_t ext_index = none;  // launches: index into warp_trace::launches;
                                   // cb_push/cb_pop: byte count
};

struct warp_trace {
  std::vector<warp_instruction> insts;
  std::vector<std::uint64_t> addresses;  // per-lane addresses of memory instructions, lane order
  std::vector<device_launch> launches;
};

struct tb_trace {
  dim3 index;                    // blockIdx
  std::uint32_t linear_id = 0;   // x + y*gx + z*gx*gy
  std::vector<warp_trace> warps;
};

// Kernel header fields (the `-key = value` lines of a .traceg file).
struct kernel_info {
  std::string name;
  std::uint32_t id = 0;
  dim3 grid, block;
  std::uint32_t shmem = 0;            // bytes per TB, static + dynamic
  std::uint32_t nregs = 0;            // registers per thread
  std::uint32_t binary_version = 0;   // 35, 60, 61, 70, 75, 80, 86
  std::uint64_t stream_id = 0;
  std::uint64_t shmem_base = 0;
  std::uint64_t local_base = 0;
  std::string nvbit_version;
  std::uint32_t tracer_version = 0;   // 3, 4 or 5
  bool lineinfo = false;
  bool device_launched = false;       // a CDP/DTBL child: launched from a parent warp, not the host
};

// One entry of kernelslist.g, in file order. `MemcpyHtoD,addr,bytes` and `kernel-N.traceg`
// are plain Accel-Sim; `DeviceKernel,kernel-N.traceg` is the gputlm extension naming a kernel
// that is launched from a parent warp (CDP/DTBL), not from the host.
struct command {
  enum class kind : std::uint8_t { memcpy_h2d, kernel_launch, device_kernel } what =
      kind::kernel_launch;
  std::uint64_t addr = 0;    // memcpy: device address
  std::uint64_t bytes = 0;   // memcpy: size
  std::string kernel_file;   // kernel_launch/device_kernel: file name as in kernelslist.g
};

}  // namespace gputlm::traces
