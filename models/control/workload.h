// The workload being replayed: the trace's command list and kernel readers, and what the
// run records per kernel (launch, first dispatch and completion cycles; the TB log).
// Owned by the `gputlm run` command and handed to the blocks that need it (the KMU reads
// the host commands, SMXs fetch their TBs' instruction streams) through block_context.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/trace_reader.h"

namespace gputlm::control {

struct tb_log_entry {
  std::uint32_t tb = 0;
  std::uint32_t smx = 0;
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
};

struct kernel_run {
  std::size_t command_index = 0;
  std::string name;
  traces::kernel_reader* reader = nullptr;
  bool launched = false;
  bool started = false;
  bool finished = false;
  std::uint64_t launch_cycle = 0;     // reached the KMU
  std::uint64_t start_cycle = 0;      // first TB dispatched
  std::uint64_t end_cycle = 0;        // last TB completed
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::vector<tb_log_entry> tbs;
};

class workload {
 public:
  explicit workload(std::unique_ptr<traces::application_trace> trace);

  const std::vector<traces::command>& commands() const { return m_trace->commands(); }
  traces::application_trace& trace() { return *m_trace; }

  // Kernels launched by the host, in command order; index = kernel id used in the KDEs.
  std::vector<kernel_run>& kernels() { return m_kernels; }
  kernel_run& kernel(std::uint32_t k) { return m_kernels.at(k); }
  // Opens (on first use) and returns the reader of kernel k.
  traces::kernel_reader& reader(std::uint32_t k);

  // The first bad-input error met while the simulation ran (e.g. a truncated TB); the run
  // stops and reports it.
  std::optional<input_error> error;

 private:
  std::unique_ptr<traces::application_trace> m_trace;
  std::vector<kernel_run> m_kernels;
};

// What block_context carries: set by `gputlm run` before the simulation starts.
struct workload_ref {
  workload* ptr = nullptr;
};

}  // namespace gputlm::control
