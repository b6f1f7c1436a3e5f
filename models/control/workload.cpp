#include "models/control/workload.h"

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
  return it->second;
}

}  // namespace gputlm::control
