// The application a generator builds: device memory allocation at fixed, documented
// addresses, host-to-device copies, kernel ids and headers, and the walk over a kernel's
// thread blocks and warps. Output goes to any trace_writer (text, binary, or the in-memory
// collector below), one TB at a time, so large grids need not fit in memory.
//
// Device address map (docs/traces.md, "Generators"):
//   0x7f0000000000  device heap: arrays in allocation order, each 256-byte aligned
//   0x7f4000000000  device-runtime parameter buffers of CDP/DTBL launches, 256-byte aligned
//   0x7ff000000000  shared-memory window (header `-shmem base_addr`)
//   0x7ff800000000  local-memory window (header `-local mem base_addr`)
// LDS/STS addresses are byte offsets inside the TB's shared memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/generators/sass.h"
#include "traces/opcode_table.h"
#include "traces/trace_types.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::generators {

constexpr std::uint64_t device_heap_base = 0x7f0000000000ull;
constexpr std::uint64_t param_buffer_base = 0x7f4000000000ull;
constexpr std::uint64_t shared_window_base = 0x7ff000000000ull;
constexpr std::uint64_t local_window_base = 0x7ff800000000ull;
constexpr std::uint64_t allocation_alignment = 256;

// Threads of one warp of a TB: lane l holds thread (tx[l], ty[l], tz[l]) if live bit l is set.
struct warp_lanes {
  std::uint32_t live = 0;
  std::array<std::uint32_t, 32> tx{}, ty{}, tz{}, flat{};
};
warp_lanes lanes_of(const dim3& block, std::uint32_t warp);

// The 2-D element of each lane of a TB over a rows x cols matrix, as a 2-D CUDA kernel
// indexes it: i = blockIdx.y * blockDim.y + threadIdx.y (row), j = blockIdx.x *
// blockDim.x + threadIdx.x (column); `in` = the live lanes inside the matrix.
struct matrix_lanes {
  std::array<std::uint64_t, 32> i{}, j{};
  std::uint32_t in = 0;
};
matrix_lanes matrix_lanes_of(const dim3& tb_index, const dim3& block, const warp_lanes& lanes,
                             std::uint64_t rows, std::uint64_t cols);
std::uint32_t warps_per_tb(const dim3& block);
// One step of a grid-stride loop `for (i = ...; i < n; i += stride)`: advances the index of
// every lane in `active` and returns the lanes still inside the range.
std::uint32_t stride_step(std::array<std::uint64_t, 32>& i, std::uint32_t active,
                          std::uint64_t stride, std::uint64_t n);

class app_builder {
 public:
  app_builder(trace_writer& out, opcode_table& opcodes);

  opcode_table& opcodes() { return m_opcodes; }
  std::uint32_t binary_version() const { return m_opcodes.binary_version(); }
  isa_family family() const { return family_of(binary_version()); }

  // Allocates `bytes` on the device heap and records `MemcpyHtoD,addr,bytes`.
  std::uint64_t input(std::uint64_t bytes);
  // Allocates `bytes` on the device heap (outputs and scratch: no copy).
  std::uint64_t output(std::uint64_t bytes);
  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes);
  // A device-runtime parameter buffer for a CDP/DTBL launch.
  std::uint64_t param_buffer(std::uint64_t bytes);

  // A note on the application (trace_writer::note), e.g. what a platform's runtime reads
  // about a kernel beyond its launch header.
  void note(const std::string& text) { m_out.note(text); }

  // Kernel ids are given in kernelslist.g order, from 1.
  std::uint32_t reserve_kernel_id() { return m_next_kernel_id++; }

  kernel_info kernel(std::string name, std::uint32_t id, dim3 grid, dim3 block, std::uint32_t shmem,
                     const program& code) const;

  // begin_kernel; fill_tb(tb) for every TB in linear order (tb.index, tb.linear_id and
  // tb.warps sized); write_tb; end_kernel.
  template <class F>
  void write_kernel(const kernel_info& info, F&& fill_tb) {
    m_out.begin_kernel(info);
    const std::uint32_t warps = warps_per_tb(info.block);
    std::uint32_t linear = 0;
    for (std::uint32_t z = 0; z < info.grid.z; ++z)
      for (std::uint32_t y = 0; y < info.grid.y; ++y)
        for (std::uint32_t x = 0; x < info.grid.x; ++x) {
          tb_trace tb;
          tb.index = dim3{x, y, z};
          tb.linear_id = linear++;
          tb.warps.resize(warps);
          fill_tb(tb);
          m_out.write_tb(tb, m_opcodes);
        }
    m_out.end_kernel();
  }

 private:
  trace_writer& m_out;
  opcode_table& m_opcodes;
  std::uint64_t m_heap = device_heap_base;
  std::uint64_t m_params = param_buffer_base;
  std::uint32_t m_next_kernel_id = 1;
};

// A whole application in memory, as the generators wrote it.
struct kernel_trace {
  kernel_info info;
  std::vector<tb_trace> tbs;
};
struct app_trace {
  std::vector<command> commands;
  std::vector<kernel_trace> kernels;
  opcode_table opcodes;
};

// trace_writer that collects into an app_trace (the opcode table is copied at finish()).
class memory_writer : public trace_writer {
 public:
  explicit memory_writer(app_trace& app) : m_app(app) {}
  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) override;
  void begin_kernel(const kernel_info& info) override;
  void write_tb(const tb_trace& tb, const opcode_table& opcodes) override;
  void end_kernel() override;
  void finish() override;

 private:
  app_trace& m_app;
  const opcode_table* m_opcodes = nullptr;
};

}  // namespace gputlm::traces::generators
