// Packing of the control registers (register_layout.h).
#include "models/control/register_layout.h"

#include <algorithm>

namespace gputlm::control {

const std::vector<reg_field>& kde_fields() {
  using namespace kde_layout;
  static const std::vector<reg_field> f{
      kernel,  tbs_total,  next_tb,    tbs_running, threads, regs_per_thread, shmem,  valid,
      marked,  first_time, fcfs_order, nagei,       lagei,   grid_x,          grid_y, grid_z,
      block_x, block_y,    block_z,    entry_pc,    stream,  param_addr};
  return f;
}

const std::vector<reg_field>& tbcr_fields() {
  using namespace tbcr_layout;
  static const std::vector<reg_field> f{tb,      kernel,          kde,          agei,
                                        threads, regs_per_thread, shared_memory};
  return f;
}

const std::vector<reg_field>& caps_fields() {
  using namespace caps_layout;
  static const std::vector<reg_field> f{max_tbs, max_threads, warp_size, registers, shared_memory};
  return f;
}

reg_words<kde_layout::words> pack(const kde_record& r) {
  using namespace kde_layout;
  reg_words<words> w{};
  set_field(w.data(), kernel, r.kernel);
  set_field(w.data(), tbs_total, r.tbs_total);
  set_field(w.data(), next_tb, r.next_tb);
  set_field(w.data(), tbs_running, r.tbs_running);
  // TB threads as the dispatch unit compares them (a kernel's TBs fit an SMX: workload.cpp).
  set_field(w.data(), threads, std::min<std::uint64_t>(r.block.count(), 0xffffffffu));
  set_field(w.data(), regs_per_thread, r.nregs);
  set_field(w.data(), shmem, r.shmem);
  set_field(w.data(), valid, r.valid != 0);
  set_field(w.data(), marked, r.marked != 0);
  set_field(w.data(), first_time, r.first_time != 0);
  set_field(w.data(), fcfs_order, r.fcfs_order);
  set_field(w.data(), nagei, r.nagei);
  set_field(w.data(), lagei, r.lagei);
  set_field(w.data(), grid_x, r.grid.x);
  set_field(w.data(), grid_y, r.grid.y);
  set_field(w.data(), grid_z, r.grid.z);
  set_field(w.data(), block_x, r.block.x);
  set_field(w.data(), block_y, r.block.y);
  set_field(w.data(), block_z, r.block.z);
  set_field(w.data(), entry_pc, r.entry_pc);
  set_field(w.data(), stream, r.stream);
  set_field(w.data(), param_addr, r.param_addr);
  return w;
}

kde_record unpack_kde(const std::uint64_t* w) {
  using namespace kde_layout;
  auto u32 = [w](const reg_field& f) { return static_cast<std::uint32_t>(get_field(w, f)); };
  kde_record r;
  r.kernel = u32(kernel);
  r.tbs_total = u32(tbs_total);
  r.next_tb = u32(next_tb);
  r.tbs_running = u32(tbs_running);
  r.nregs = u32(regs_per_thread);
  r.shmem = u32(shmem);
  r.valid = u32(valid);
  r.marked = u32(marked);
  r.first_time = u32(first_time);
  r.fcfs_order = get_field(w, fcfs_order);
  r.nagei = u32(nagei);
  r.lagei = u32(lagei);
  r.grid = {u32(grid_x), u32(grid_y), u32(grid_z)};
  r.block = {u32(block_x), u32(block_y), u32(block_z)};
  r.entry_pc = u32(entry_pc);
  r.stream = get_field(w, stream);
  r.param_addr = get_field(w, param_addr);
  return r;
}

reg_words<tbcr_layout::words> pack(const tb_descriptor& d) {
  using namespace tbcr_layout;
  reg_words<words> w{};
  set_field(w.data(), tb, d.tb);
  set_field(w.data(), kernel, d.kernel);
  set_field(w.data(), kde, d.kde);
  set_field(w.data(), agei, d.agei);
  set_field(w.data(), threads, d.demand.threads);
  set_field(w.data(), regs_per_thread, d.demand.regs_per_thread);
  set_field(w.data(), shared_memory, d.demand.shared_memory);
  return w;
}

tb_descriptor unpack_tbcr(const std::uint64_t* w) {
  using namespace tbcr_layout;
  auto u32 = [w](const reg_field& f) { return static_cast<std::uint32_t>(get_field(w, f)); };
  tb_descriptor d;
  d.tb = u32(tb);
  d.kernel = u32(kernel);
  d.kde = u32(kde);
  d.agei = u32(agei);
  d.demand.threads = u32(threads);
  d.demand.regs_per_thread = u32(regs_per_thread);
  d.demand.shared_memory = get_field(w, shared_memory);
  return d;
}

reg_words<caps_layout::words> pack(const core::smx_limits& l) {
  using namespace caps_layout;
  reg_words<words> w{};
  set_field(w.data(), max_tbs, l.max_tbs);
  set_field(w.data(), max_threads, l.max_threads);
  set_field(w.data(), warp_size, l.warp_size);
  set_field(w.data(), registers, l.registers);
  set_field(w.data(), shared_memory, l.shared_memory);
  return w;
}

core::smx_limits unpack_caps(const std::uint64_t* w) {
  using namespace caps_layout;
  core::smx_limits l;
  l.max_tbs = static_cast<std::uint32_t>(get_field(w, max_tbs));
  l.max_threads = static_cast<std::uint32_t>(get_field(w, max_threads));
  l.warp_size = static_cast<std::uint32_t>(get_field(w, warp_size));
  l.registers = static_cast<std::uint32_t>(get_field(w, registers));
  l.shared_memory = get_field(w, shared_memory);
  return l;
}

}  // namespace gputlm::control
