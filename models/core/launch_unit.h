// The SMX's side of device-side launches (CDP and DTBL; Jin Wang's thesis §2.4, §4.4 and
// Table 5; docs/references.md, "CDP and DTBL"): what a warp's launch API calls
// cost, the launch commands in flight on the SMX's path to the KMU, and each thread
// block's launches still running (for cudaDeviceSynchronize, CDP.SYNC).
//
// A warp's launches are the run of CDP.LAUNCH (DTBL.LAUNCH) instructions at one PC, one
// per launching lane (docs/traces.md): one command, whose API calls cost, with x = the
// lanes (Table 5's per-warp model A*x + b):
//   CDP:  cudaStreamCreateWithFlags + cudaGetParameterBuffer (b + A x) + cudaLaunchDevice
//         (b + A x), in sequence;
//   DTBL: cudaGetParameterBuffer (b + A x), in parallel with the SMX scheduler's KDE and
//         AGT searches: the warp waits for the longer.
// The warp waits for them as for a long-latency result; other warps issue meanwhile, so
// the calls of several warps overlap as the thesis measured.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <tlm>
#include <vector>

#include "models/common/component.h"
#include "models/control/control_registers.h"

namespace gputlm::core {

class launch_unit {
 public:
  // A launch command in flight, with its payload (owned here: a command is larger than a
  // pooled payload's data).
  struct command_slot {
    control::launch_command cmd;
    tlm::tlm_generic_payload gp;
    std::uint32_t tb_slot = 0;
    std::uint64_t tb_generation = 0;  // the TB that launched it (a slot is reused)
    bool request_ended = false;       // END_REQ seen: the warp may resume
    bool busy = false;
  };

  explicit launch_unit(component& owner);
  void validate() const;
  void resize(std::size_t warps, std::size_t tbs);

  // Cycles of a warp's launch API calls for x launching lanes.
  std::uint64_t api_cycles(control::launch_command::kind k, std::uint32_t lanes) const;

  command_slot& acquire();
  void release(command_slot& s) { s.busy = false; }
  // The slot of a command's payload.
  command_slot& slot_of(const tlm::tlm_generic_payload& gp);

  // The launch instructions of the run a warp has sent and not yet passed (later lanes
  // issue as no-ops).
  std::uint32_t& run_left(std::uint32_t warp) { return m_run_left[warp]; }

  // Per TB slot: the generation of its current TB, and its CDP commands still running.
  std::uint64_t new_tb(std::uint32_t slot);
  std::uint64_t generation(std::uint32_t slot) const { return m_generation[slot]; }
  std::uint32_t& outstanding(std::uint32_t slot) { return m_outstanding[slot]; }

  // Warps to resume at a cycle (after their API calls).
  void resume_at(std::uint64_t cycle, std::uint32_t warp) { m_resumes.push({cycle, warp}); }
  std::uint64_t next_resume() const { return m_resumes.empty() ? ~0ull : m_resumes.top().first; }
  std::uint32_t pop_resume() {
    const std::uint32_t w = m_resumes.top().second;
    m_resumes.pop();
    return w;
  }

  // Where a TB slot's context is saved at CDP.SYNC (the device runtime's reserved memory).
  static constexpr std::uint64_t context_base = 0x7f6000000000ull;
  static constexpr std::uint64_t context_stride = std::uint64_t(1) << 24;

 private:
  param<cycles> m_stream_create;
  param<cycles> m_param_buffer;
  param<cycles> m_param_buffer_per_thread;
  param<cycles> m_launch_device;
  param<cycles> m_launch_device_per_thread;

  std::vector<std::unique_ptr<command_slot>> m_slots;
  std::vector<std::uint32_t> m_run_left;
  std::vector<std::uint64_t> m_generation;
  std::vector<std::uint32_t> m_outstanding;
  using resume = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<resume, std::vector<resume>, std::greater<>> m_resumes;
  std::uint64_t m_generations = 0;
};

}  // namespace gputlm::core
