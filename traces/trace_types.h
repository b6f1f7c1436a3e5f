// The in-memory form of a GPU workload trace: what trace readers produce, what generators
// emit, and what the SMX replays. Follows the Accel-Sim NVBit trace format (see
// docs/traces.md and docs/references.md, "Accel-Sim trace format"): an application is an
// ordered command list (host-to-device copies and kernel launches); a kernel is a grid of
// thread blocks (TBs); a TB is a set of warps; a warp is a sequence of SASS instructions.
//
// This header is the contract between traces/ and models/: keep it free of I/O and of
// SystemC so both sides can include it cheaply.
#pragma once

#include <cstdint>
#include <limits>
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
  device_sync,       // CDP: cudaDeviceSynchronize; the warp waits until every child kernel its
                     // thread block has launched so far has completed
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

// How a memory instruction's per-lane addresses are stored in warp_trace::addresses.
enum class address_form : std::uint8_t {
  list,     // popcount(active_mask) addresses, one per active lane, in lane order
  strided,  // one address (the first active lane's); active lane k is that + k * addr_stride
  // Two strided halves, as a warp of a TB 16 threads wide touches two rows of a tile: of n
  // active lanes (n even, at least 8), lane k < n/2 is a0 + k * s0 and lane n/2 + k is
  // a1 + k * s1. Three entries: a0, a1, then s0 and s1 as 32-bit signed numbers (s0 in the
  // low half).
  half_strided,
};

// One dynamic warp instruction. Fixed size; variable parts (addresses, launch records)
// live in the owning warp_trace and are found by index.
struct warp_instruction {
  static constexpr std::uint16_t no_reg = 0xffff;
  static constexpr std::uint32_t none = 0xffffffffu;

  std::uint32_t pc = 0;           // SASS offset
  std::uint32_t active_mask = 0;  // predicated-off lanes already removed
  std::uint32_t line = 0;         // source line (tracer >= 4 with lineinfo), else 0
  std::uint16_t opcode = 0;       // index into the opcode_table that decoded it
  unit_class unit = unit_class::other;
  mem_space space = mem_space::none;
  special_op special = special_op::none;
  direction dir = direction::none;  // SPU ops only
  std::uint8_t access_size = 0;     // bytes per thread (0 = not a memory instruction)
  std::uint8_t num_dst = 0;
  std::uint8_t num_src = 0;
  address_form addr_form = address_form::list;
  std::uint16_t dst[2] = {no_reg, no_reg};
  std::uint16_t src[4] = {no_reg, no_reg, no_reg, no_reg};
  std::int32_t immediate = 0;  // tracer version 5; otherwise 0
  // First of this instruction's entries in warp_trace::addresses; their layout depends on
  // addr_form. Read the per-lane addresses through expand_addresses(), never directly.
  std::uint32_t addr_index = none;
  std::uint32_t ext_index = none;  // launches: index into warp_trace::launches;
                                   // cb_push/cb_pop: byte count
  std::int32_t addr_stride = 0;    // address_form::strided: bytes between consecutive active lanes
};
static_assert(sizeof(warp_instruction) == 52, "warp_instruction grew: a resident TB holds many");

struct warp_trace {
  std::vector<warp_instruction> insts;
  std::vector<std::uint64_t> addresses;  // per-lane addresses, see warp_instruction::addr_form
  std::vector<device_launch> launches;
};

// Active lanes of a warp mask (population count in a few shifts and adds: the baseline
// x86-64 target has no popcount instruction, and __builtin_popcount calls the library).
inline std::uint32_t lane_count(std::uint32_t mask) {
  mask = mask - ((mask >> 1) & 0x55555555u);
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  return (((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// Entries of warp_trace::addresses that `in` uses (0 for an instruction without addresses).
inline std::uint32_t address_slots(const warp_instruction& in) {
  if (in.addr_index == warp_instruction::none) return 0;
  const std::uint32_t n = lane_count(in.active_mask);
  if (n == 0) return 0;
  return in.addr_form == address_form::strided        ? 1
         : in.addr_form == address_form::half_strided ? 3
                                                      : n;
}

// The per-lane addresses of `in` (one per active lane, in lane order), read from the
// warp's address array `addresses`: the list form in place, the strided and half-strided
// forms expanded into `scratch`. nullptr for an instruction without addresses; `scratch`
// (nothing to read) when no lane is active.
inline const std::uint64_t* lane_addresses(const std::uint64_t* addresses,
                                           const warp_instruction& in, std::uint64_t scratch[32]) {
  if (in.addr_index == warp_instruction::none) return nullptr;
  const std::uint32_t n = lane_count(in.active_mask);
  const std::uint64_t* a = addresses + in.addr_index;
  if (n == 0) return scratch;
  if (in.addr_form == address_form::list) return a;
  // Unsigned arithmetic: wraps exactly as the list form's stored addresses would.
  auto run = [&](std::uint32_t from, std::uint32_t to, std::uint64_t v, std::int32_t stride) {
    const auto step = std::uint64_t(std::int64_t(stride));
    for (std::uint32_t k = from; k < to; ++k, v += step) scratch[k] = v;
  };
  if (in.addr_form == address_form::strided) {
    run(0, n, a[0], in.addr_stride);
  } else {
    run(0, n / 2, a[0], std::int32_t(std::uint32_t(a[2])));
    run(n / 2, n, a[1], std::int32_t(std::uint32_t(a[2] >> 32)));
  }
  return scratch;
}

// Writes the per-lane addresses of `in` (one per active lane, in lane order) to `out` and
// returns how many: popcount(active_mask), or 0 for an instruction without addresses.
// `in` must belong to `w` (its addr_index entries lie inside w.addresses).
inline std::uint32_t expand_addresses(const warp_trace& w, const warp_instruction& in,
                                      std::uint64_t out[32]) {
  const std::uint64_t* a = lane_addresses(w.addresses.data(), in, out);
  if (!a) return 0;
  const std::uint32_t n = lane_count(in.active_mask);
  if (a != out)
    for (std::uint32_t k = 0; k < n; ++k) out[k] = a[k];
  return n;
}

// Appends the strided form: the first active lane at `base`, then `stride` bytes apart.
inline void set_strided_addresses(warp_trace& w, warp_instruction& in, std::uint64_t base,
                                  std::int32_t stride) {
  in.addr_index = std::uint32_t(w.addresses.size());
  in.addr_form = address_form::strided;
  in.addr_stride = stride;
  w.addresses.push_back(base);
}

// Whether addrs[0..n) (n >= 2) step by one constant stride that fits 32 bits, and which.
inline bool constant_stride(const std::uint64_t* addrs, std::uint32_t n, std::int32_t& stride) {
  const std::uint64_t step = addrs[1] - addrs[0];
  const auto s = std::int64_t(step);
  if (s < std::numeric_limits<std::int32_t>::min() || s > std::numeric_limits<std::int32_t>::max())
    return false;
  for (std::uint32_t k = 2; k < n; ++k)
    if (addrs[k] - addrs[k - 1] != step) return false;
  stride = std::int32_t(s);
  return true;
}

// The form set_addresses() stores `n` per-lane addresses in, and its entries in `out`
// (at most 3; a list's are the addresses themselves and are not written).
inline address_form compact_addresses(const std::uint64_t* addrs, std::uint32_t n,
                                      std::uint64_t out[3], std::int32_t& stride) {
  stride = 0;
  if (n >= 2 && constant_stride(addrs, n, stride)) {
    out[0] = addrs[0];
    return address_form::strided;
  }
  std::int32_t s0 = 0, s1 = 0;
  if (n >= 8 && n % 2 == 0 && constant_stride(addrs, n / 2, s0) &&
      constant_stride(addrs + n / 2, n / 2, s1)) {
    out[0] = addrs[0];
    out[1] = addrs[n / 2];
    out[2] = std::uint64_t(std::uint32_t(s0)) | std::uint64_t(std::uint32_t(s1)) << 32;
    return address_form::half_strided;
  }
  return address_form::list;
}

// Appends the `n` per-lane addresses of `in` (n = popcount(in.active_mask), lane order) to
// `w` and points `in` at them: strided when there are at least two and they are one constant
// stride that fits 32 bits, else half-strided when both halves are, a list otherwise. Every
// reader and generator stores addresses this way, so equal addresses always get the same
// form.
inline void set_addresses(warp_trace& w, warp_instruction& in, const std::uint64_t* addrs,
                          std::uint32_t n) {
  std::uint64_t packed[3];
  std::int32_t stride;
  const address_form form = compact_addresses(addrs, n, packed, stride);
  if (form == address_form::strided) {
    set_strided_addresses(w, in, addrs[0], stride);
    return;
  }
  in.addr_index = std::uint32_t(w.addresses.size());
  in.addr_form = form;
  in.addr_stride = 0;
  if (form == address_form::half_strided)
    w.addresses.insert(w.addresses.end(), packed, packed + 3);
  else
    w.addresses.insert(w.addresses.end(), addrs, addrs + n);
}

struct tb_trace {
  dim3 index;                   // blockIdx
  std::uint32_t linear_id = 0;  // x + y*gx + z*gx*gy
  std::vector<warp_trace> warps;
};

// Kernel header fields (the `-key = value` lines of a .traceg file).
struct kernel_info {
  std::string name;
  std::uint32_t id = 0;
  dim3 grid, block;
  std::uint32_t shmem = 0;           // bytes per TB, static + dynamic
  std::uint32_t nregs = 0;           // registers per thread
  std::uint32_t binary_version = 0;  // 35, 60, 61, 70, 75, 80, 86
  std::uint64_t stream_id = 0;
  std::uint64_t shmem_base = 0;
  std::uint64_t local_base = 0;
  std::string nvbit_version;
  std::uint32_t tracer_version = 0;  // 3, 4 or 5
  bool lineinfo = false;
  bool device_launched = false;  // a CDP/DTBL child: launched from a parent warp, not the host
};

// One entry of kernelslist.g, in file order. `MemcpyHtoD,addr,bytes` and `kernel-N.traceg`
// are plain Accel-Sim; `DeviceKernel,kernel-N.traceg` is the gputlm extension naming a kernel
// that is launched from a parent warp (CDP/DTBL), not from the host.
struct command {
  enum class kind : std::uint8_t {
    memcpy_h2d,
    kernel_launch,
    device_kernel
  } what = kind::kernel_launch;
  std::uint64_t addr = 0;   // memcpy: device address
  std::uint64_t bytes = 0;  // memcpy: size
  std::string kernel_file;  // kernel_launch/device_kernel: file name as in kernelslist.g
};

}  // namespace gputlm::traces
