#include "models/control/workload.h"

#include <algorithm>

namespace gputlm::control {

const char* to_string(launch_kind k) {
  switch (k) {
    case launch_kind::host:
      return "host";
    case launch_kind::cdp:
      return "cdp";
    case launch_kind::dtbl_group:
      return "dtbl_group";
    case launch_kind::dtbl_fallback:
      return "dtbl_fallback";
  }
  return "host";
}

workload::workload(std::unique_ptr<traces::application_trace> trace) : m_trace(std::move(trace)) {
  const auto& cmds = m_trace->commands();
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    const bool device = cmds[i].what == traces::command::kind::device_kernel;
    if (cmds[i].what != traces::command::kind::kernel_launch && !device) continue;
    kernel_run k;
    k.command_index = i;
    k.name = cmds[i].kernel_file;
    k.device = device;
    m_device_kernels += device;
    m_open += !device;
    m_kernels.push_back(std::move(k));
  }
}

traces::kernel_reader& workload::reader(std::uint32_t k) {
  kernel_run& run = m_kernels.at(k);
  if (!run.reader) run.reader = &m_trace->kernel(run.command_index);
  return *run.reader;
}

void workload::open_all() {
  for (std::uint32_t k = 0; k < m_kernels.size(); ++k) {
    const traces::kernel_info& info = reader(k).info();
    m_kernels[k].id = info.id;
    if (!m_by_id.emplace(info.id, k).second)
      throw input_error({reader(k).source(), 0, 0}, "kernel id",
                        "kernel id " + std::to_string(info.id) + " is also that of " +
                            m_kernels[m_by_id.at(info.id)].name);
  }
}

void workload::check_fits(const std::vector<core::smx_limits>& smxs) {
  if (smxs.empty()) return;
  auto grouped = [](std::uint64_t v) {  // 65536 -> "65,536"
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
    return s;
  };
  for (std::uint32_t k = 0; k < m_kernels.size(); ++k) {
    const traces::kernel_info& info = reader(k).info();
    const source_location at{reader(k).source(), 0, 0};
    const std::string kernel = "kernel " + std::to_string(info.id) + " (" + info.name + ")";
    const std::uint64_t tbs = info.grid.count();
    if (tbs > 0xffffffffull)
      throw input_error(at, "-grid dim",
                        kernel + " has " + grouped(tbs) + " TBs, more than the " +
                            grouped(0xffffffffull) + " a kernel may have (32-bit TB ids)");
    core::tb_demand d;
    d.threads = static_cast<std::uint32_t>(std::min<std::uint64_t>(info.block.count(), ~0u));
    d.regs_per_thread = info.nregs;
    d.shared_memory = info.shmem;
    bool fits_one = false;
    std::uint64_t most_threads = 0, most_regs = 0, most_shmem = 0, most_tbs = 0;
    for (const core::smx_limits& l : smxs) {
      const std::uint64_t threads = std::uint64_t(d.warps(l.warp_size)) * l.warp_size;
      const std::uint64_t regs = std::uint64_t(d.warps(l.warp_size)) * l.warp_size *
                                 ((std::uint64_t(d.regs_per_thread) + 3) & ~std::uint64_t(3));
      fits_one = fits_one || (l.max_tbs >= 1 && threads <= l.max_threads && regs <= l.registers &&
                              d.shared_memory <= l.shared_memory);
      most_threads = std::max<std::uint64_t>(most_threads, l.max_threads);
      most_regs = std::max<std::uint64_t>(most_regs, l.registers);
      most_shmem = std::max<std::uint64_t>(most_shmem, l.shared_memory);
      most_tbs = std::max<std::uint64_t>(most_tbs, l.max_tbs);
    }
    if (fits_one) continue;
    const core::smx_limits& l = smxs.front();
    const std::uint64_t threads = std::uint64_t(d.warps(l.warp_size)) * l.warp_size;
    const std::uint64_t regs =
        threads * ((std::uint64_t(d.regs_per_thread) + 3) & ~std::uint64_t(3));
    if (threads > most_threads)
      throw input_error(at, "-block dim",
                        "a TB of " + kernel + " has " + grouped(d.threads) +
                            " threads; an SMX holds at most " + grouped(most_threads));
    if (regs > most_regs)
      throw input_error(at, "-nregs",
                        "a TB of " + kernel + " needs " + grouped(regs) + " registers (" +
                            grouped(threads) + " threads x " + std::to_string(info.nregs) +
                            " per thread, allocated in fours); an SMX has at most " +
                            grouped(most_regs));
    if (d.shared_memory > most_shmem)
      throw input_error(at, "-shmem",
                        "a TB of " + kernel + " needs " + grouped(d.shared_memory) +
                            " B of shared memory; an SMX has at most " + grouped(most_shmem) +
                            " B");
    throw input_error(
        at, "-block dim",
        "a TB of " + kernel +
            " fits no single SMX of the platform (threads, "
            "registers and shared memory are each available on some SMX, not together)");
  }
}

std::uint32_t workload::device_child(std::uint32_t id, std::uint32_t parent,
                                     const std::string& where) {
  auto it = m_by_id.find(id);
  const std::string source = reader(parent).source();
  if (it == m_by_id.end())
    throw input_error({source, 0, 0}, where,
                      "launches kernel " + std::to_string(id) + ", which the trace does not have");
  kernel_run& child = m_kernels[it->second];
  if (!child.device)
    throw input_error({source, 0, 0}, where,
                      "launches kernel " + std::to_string(id) + " (" + child.name +
                          "), which the host launches: a device launch names a DeviceKernel entry");
  if (child.launched || child.parent != kernel_run::none)
    throw input_error({source, 0, 0}, where,
                      "launches kernel " + std::to_string(id) + " (" + child.name +
                          ") a second time: the launches form a cycle or repeat");
  ++m_open;
  return it->second;
}

void workload::finish(std::uint32_t k, std::uint64_t cycle) {
  kernel_run& run = m_kernels.at(k);
  if (run.finished) return;
  run.finished = true;
  run.end_cycle = cycle;
  --m_open;
}

}  // namespace gputlm::control
