// The workload being replayed: the trace's command list and kernel readers, and what the
// run records per kernel (launch, first dispatch and completion cycles; the TB log).
// Owned by the `gputlm run` command and handed to the blocks that need it (the KMU reads
// the host commands, SMXs fetch their TBs' instruction streams) through block_context.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/core/occupancy.h"
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

// How a kernel came to run (dynamic parallelism: docs/dynamic-parallelism.md).
enum class launch_kind : std::uint8_t {
  host,           // a kernel command of the trace
  cdp,            // a CDP child kernel launched by a parent warp (CDP.LAUNCH)
  dtbl_group,     // a DTBL aggregated group coalesced into a native kernel (DTBL.LAUNCH)
  dtbl_fallback,  // a DTBL group that found no native kernel: run as a device kernel
};
const char* to_string(launch_kind k);

// The statistics group of dynamic parallelism: written only by runs of traces with device
// launches, so that other runs' statistics do not change (stats_registry::add).
inline constexpr const char* dynamic_parallelism_stats = "dynamic_parallelism";

struct kernel_run {
  std::size_t command_index = 0;
  std::string name;
  traces::kernel_reader* reader = nullptr;
  std::uint32_t id = 0;                 // the trace's kernel id (launches name children by it)
  bool device = false;                  // a DeviceKernel entry: launched by a parent warp
  launch_kind how = launch_kind::host;  // set when it is launched
  static constexpr std::uint32_t none = ~0u;
  std::uint32_t parent = none;          // the launching kernel (workload index)
  std::uint32_t root = none;            // its host-launched ancestor
  std::uint32_t depth = 0;              // launch nesting: 0 for a host kernel
  std::uint32_t launch_smx = 0;         // a device kernel: the SMX of the launching TB
  std::uint32_t coalesced_into = none;  // a DTBL group: the native kernel it joined
  bool launched = false;
  bool started = false;
  bool finished = false;
  std::uint64_t launch_cycle = 0;  // host: reached the KMU; device: its launch instruction
                                   // issued
  std::uint64_t start_cycle = 0;   // first TB dispatched
  std::uint64_t end_cycle = 0;     // last TB completed
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::vector<tb_log_entry> tbs;  // by TB id, grown as TBs are dispatched
  // The log entry of TB `tb` (grown to hold it: never sized from a header's claim).
  tb_log_entry& tb_log(std::uint32_t tb) {
    if (tb >= tbs.size()) tbs.resize(std::size_t(tb) + 1);
    return tbs[tb];
  }
};

class workload {
 public:
  explicit workload(std::unique_ptr<traces::application_trace> trace);

  const std::vector<traces::command>& commands() const { return m_trace->commands(); }
  traces::application_trace& trace() { return *m_trace; }

  // Every kernel of the trace, in command order: host-launched ones (kernel commands) and
  // device-launched ones (DeviceKernel entries); index = the kernel number the KDEs, TB
  // descriptors and memory requests carry.
  std::vector<kernel_run>& kernels() { return m_kernels; }
  const std::vector<kernel_run>& kernels() const { return m_kernels; }
  kernel_run& kernel(std::uint32_t k) { return m_kernels.at(k); }
  // Opens (on first use) and returns the reader of kernel k.
  traces::kernel_reader& reader(std::uint32_t k);
  // Opens every kernel's reader and indexes the kernels by their trace id; a missing or
  // malformed kernel file, or two kernels with one id, is an input_error. Call before the
  // run.
  void open_all();
  // Every kernel's TB fits on at least one SMX with these limits (threads, registers,
  // shared memory), and its grid's TB count fits the model's 32-bit TB ids; else an
  // input_error naming the kernel's file, the header key and the limit. After open_all().
  void check_fits(const std::vector<core::smx_limits>& smxs);
  bool has_device_kernels() const { return m_device_kernels > 0; }
  // The device kernel a launch names (`kernel=<id>`), checked: it exists, it is a
  // DeviceKernel entry, and it was not launched before (a trace launching a kernel twice
  // has a cycle of launches). Throws input_error naming the launch otherwise.
  std::uint32_t device_child(std::uint32_t id, std::uint32_t parent, const std::string& where);
  // Kernel k's last TB completed at `cycle`.
  void finish(std::uint32_t k, std::uint64_t cycle);
  // Kernels still to finish: host kernels not finished and device kernels launched (by
  // their launch instruction) and not finished. 0: the workload is done.
  std::uint32_t open_kernels() const { return m_open; }

  // The first bad-input error met while the simulation ran (e.g. a truncated TB); the run
  // stops and reports it.
  std::optional<input_error> error;
  // Host time spent on locality analysis for the TB scheduler (PAVER's JIT step): building
  // the graphs, 0 when taken from their cache. Wall clock, reported beside wall_seconds.
  double analysis_seconds = 0;

 private:
  std::unique_ptr<traces::application_trace> m_trace;
  std::vector<kernel_run> m_kernels;
  std::unordered_map<std::uint32_t, std::uint32_t> m_by_id;  // trace id -> index
  std::uint32_t m_device_kernels = 0;
  std::uint32_t m_open = 0;
};

// What block_context carries: set by `gputlm run` before the simulation starts.
struct workload_ref {
  workload* ptr = nullptr;
};

}  // namespace gputlm::control
