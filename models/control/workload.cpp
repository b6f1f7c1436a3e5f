#include "models/control/workload.h"

namespace gputlm::control {

workload::workload(std::unique_ptr<traces::application_trace> trace) : m_trace(std::move(trace)) {
  const auto& cmds = m_trace->commands();
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    if (cmds[i].what != traces::command::kind::kernel_launch) continue;
    kernel_run k;
    k.command_index = i;
    k.name = cmds[i].kernel_file;
    m_kernels.push_back(std::move(k));
  }
}

traces::kernel_reader& workload::reader(std::uint32_t k) {
  kernel_run& run = m_kernels.at(k);
  if (!run.reader) run.reader = &m_trace->kernel(run.command_index);
  return *run.reader;
}

}  // namespace gputlm::control
