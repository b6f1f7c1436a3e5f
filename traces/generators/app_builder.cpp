// Device memory, kernel headers and the in-memory trace collector of the generators.
#include "traces/generators/app_builder.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::traces::generators {

namespace {
std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

std::uint32_t warps_per_tb(const dim3& block) { return std::uint32_t((block.count() + 31) / 32); }

std::uint32_t stride_step(std::array<std::uint64_t, 32>& i, std::uint32_t active,
                          std::uint64_t stride, std::uint64_t n) {
  std::uint32_t next = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (active >> l & 1u) {
      i[l] += stride;
      if (i[l] < n) next |= 1u << l;
    }
  return next;
}

warp_lanes lanes_of(const dim3& block, std::uint32_t warp) {
  warp_lanes w;
  const std::uint64_t threads = block.count();
  for (std::uint32_t l = 0; l < 32; ++l) {
    const std::uint64_t t = std::uint64_t(warp) * 32 + l;
    if (t >= threads) break;
    w.live |= 1u << l;
    w.flat[l] = std::uint32_t(t);
    w.tx[l] = std::uint32_t(t % block.x);
    w.ty[l] = std::uint32_t(t / block.x % block.y);
    w.tz[l] = std::uint32_t(t / (std::uint64_t(block.x) * block.y));
  }
  return w;
}

matrix_lanes matrix_lanes_of(const dim3& tb_index, const dim3& block, const warp_lanes& lanes,
                             std::uint64_t rows, std::uint64_t cols) {
  matrix_lanes m;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(lanes.live >> l & 1u)) continue;
    m.i[l] = std::uint64_t(tb_index.y) * block.y + lanes.ty[l];
    m.j[l] = std::uint64_t(tb_index.x) * block.x + lanes.tx[l];
    if (m.i[l] < rows && m.j[l] < cols) m.in |= 1u << l;
  }
  return m;
}

app_builder::app_builder(trace_writer& out, opcode_table& opcodes)
    : m_out(out), m_opcodes(opcodes) {}

std::uint64_t app_builder::output(std::uint64_t bytes) {
  const std::uint64_t addr = m_heap;
  m_heap = align_up(m_heap + std::max<std::uint64_t>(bytes, 1), allocation_alignment);
  if (m_heap > param_buffer_base) throw std::length_error("generated data exceed the device heap");
  return addr;
}

std::uint64_t app_builder::input(std::uint64_t bytes) {
  const std::uint64_t addr = output(bytes);
  memcpy_h2d(addr, bytes);
  return addr;
}

void app_builder::memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) {
  m_out.memcpy_h2d(addr, bytes);
}

std::uint64_t app_builder::param_buffer(std::uint64_t bytes) {
  const std::uint64_t addr = m_params;
  m_params = align_up(m_params + std::max<std::uint64_t>(bytes, 1), allocation_alignment);
  if (m_params > shared_window_base) throw std::length_error("too many device launches");
  return addr;
}

kernel_info app_builder::kernel(std::string name, std::uint32_t id, dim3 grid, dim3 block,
                                std::uint32_t shmem, const program& code) const {
  kernel_info k;
  k.name = std::move(name);
  k.id = id;
  k.grid = grid;
  k.block = block;
  k.shmem = shmem;
  k.nregs = code.nregs();
  k.binary_version = binary_version();
  k.stream_id = 0;
  k.shmem_base = shared_window_base;
  k.local_base = local_window_base;
  k.nvbit_version = "1.5.5";
  k.tracer_version = 4;
  k.lineinfo = false;
  k.device_launched = false;
  return k;
}

void memory_writer::memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) {
  command c;
  c.what = command::kind::memcpy_h2d;
  c.addr = addr;
  c.bytes = bytes;
  m_app.commands.push_back(c);
}

void memory_writer::begin_kernel(const kernel_info& info) {
  command c;
  c.what = info.device_launched ? command::kind::device_kernel : command::kind::kernel_launch;
  c.kernel_file = "kernel-" + std::to_string(info.id) + ".traceg";
  m_app.commands.push_back(c);
  m_app.kernels.push_back(kernel_trace{info, {}});
}

void memory_writer::write_tb(const tb_trace& tb, const opcode_table& opcodes) {
  m_opcodes = &opcodes;
  m_app.kernels.back().tbs.push_back(tb);
}

void memory_writer::end_kernel() {}

void memory_writer::finish() {
  if (m_opcodes != nullptr) m_app.opcodes = *m_opcodes;
}

}  // namespace gputlm::traces::generators
