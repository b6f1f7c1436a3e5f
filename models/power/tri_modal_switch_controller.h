// Snooze's gating logic for one cache data array (an L1, or one L2 bank), Tripathy's thesis
// ch. 5 (§5.2, Fig. 5.5, 5.6): the tri-modal switches of its 32-byte lines (ON, Sleep, OFF
// under a 2-bit control each) and the logic that drives them from what the cache's queues
// do. A controller beside the cache (a child block, `switch`), bound to it in the platform:
// its port `array` to the cache's data array (memory::switched_array), the cache's
// observation point `events` to its export `cache` (memory::cache_events); it gates the
// array's power component from then on. docs/power.md, "Snooze", states the decisions taken
// where the thesis is silent; yaml/mechanisms/snooze-l1.yaml and snooze-l2.yaml add it.
//
// The FSM, per switched group (the whole array at bank granularity, one cache block at
// block granularity: the 32-byte lines of a 128-byte block switched together, or one
// 32-byte sector of a sectored cache):
//   start OFF (kernel start)                                          (1)
//   a request reaches the array's input (bank) or is about to use the block (block), or a
//     fill arrives: -> ON, the access waiting the state's wake-up      (2), (6)
//   requests being served: stay ON                                    (4)
//   the input empty (no request, or only one that failed its reservation, whose set is
//     then held in the 32-entry reservation queue until a fill of that set) and no fill:
//     -> Sleep, unless an access comes within `lookahead` cycles       (3)
//     (`sees: all`, the default: any access to come; `sees: queued`: only a request already
//     in a queue the controller watches when the idleness begins, the hardware's view)
//   every TB of the SMX finished (the L1's flush) / the kernel exited (off_when_gpu_idle,
//     the L2's): -> OFF                                                (5), (7)
// Sleep keeps the data; OFF loses it: the lines of a group switched off are invalidated,
// and a group holding a dirty line sleeps instead (its data would be lost).
//
// Event-driven: a group's Sleep is decided when its next access or the end comes, dated
// back to when its idleness began (the lookahead makes that decision exact), so nothing
// ticks. Element states, residency and transition energy live in the power component.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/component.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"
#include "models/memory/cache_events.h"
#include "models/power/gating_policy.h"
#include "models/power/power_component.h"

namespace gputlm::pm {

struct snooze_params {
  bool block = false;                    // block granularity (else bank)
  bool queued = false;                   // the lookahead sees queued requests only
  std::uint64_t lookahead = 2;           // cycles: no Sleep with an access this close
  std::uint64_t wake = 0;                // wake-up cycles (0: the power table's)
  std::uint32_t reservation_queue = 32;  // entries (set indices)
};

class tri_modal_switch_controller : public component,
                                    public gating_policy,
                                    public memory::cache_events {
 public:
  SC_HAS_PROCESS(tri_modal_switch_controller);
  tri_modal_switch_controller(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  // Takes the cache's data array over (its power component's gate from now on).
  void validate_bound() override;
  void add_traces(vcd_writer& vcd) override;

  required_port<memory::switched_array> array{"array"};
  sc_core::sc_export<memory::cache_events> cache{"cache"};

  // Takes over `data` (whose states include `sleep` and `off`) of `array`; the elements
  // start OFF at time 0. `period_fs`: the array's clock. (validate_bound() does this with
  // the bound cache's; a test may do it by hand.)
  void control(power_component& data, std::uint32_t sleep, std::uint32_t off,
               memory::switched_array& array, std::uint64_t period_fs);
  bool controlling() const { return m_data != nullptr; }
  void set_period(std::uint64_t period_fs) { m_period_fs = period_fs; }
  const snooze_params& params() const { return m_params; }

  // --- What the cache's queues and pipeline report (memory::cache_events)
  // A request entered the array's input queue (bank granularity: the array starts waking,
  // unless the queue's head waits in the reservation queue).
  void request_arrived(std::uint64_t now_fs) override;
  // A request reaches the array's input queue at at_fs (<= now) after a pipeline that let
  // the controller see it coming from seen_fs on (the L2's ROP delay): as request_arrived,
  // but the wake-up is hidden when the array was idle long enough (it started waking `wake`
  // cycles early, as the lookahead allows, not before seen_fs when it sees queued requests
  // only); otherwise what is left of it shows.
  void request_ready(std::uint64_t at_fs, std::uint64_t seen_fs) override;
  // The input queue's head was taken (looked up); `more`: requests wait behind it.
  void input_taken(std::uint64_t now_fs, bool more) override;
  // The input queue's head failed its reservation: its set enters the reservation queue and
  // the head no longer keeps the array awake.
  void reservation_failed(std::uint32_t set, std::uint64_t now_fs) override;
  // A fill for `set` arrived: it erases the set from the reservation queue (its data write
  // wakes what it writes, through access()).
  void filled(std::uint32_t set) override;
  // Line frame `frame` was filled outside the request path (an L2 warmed from MemcpyHtoD
  // before the run): its group holds data, so it sleeps rather than stays OFF.
  void warmed(std::uint32_t frame, std::uint64_t now_fs) override;
  // Every TB of the SMX finished (the L1's flush): every group OFF.
  void flushed(std::uint64_t now_fs) override { switch_off_all(now_fs); }
  // A request's answer waited `cycles` for a wake-up (counted per request).
  void request_waited(std::uint64_t cycles) override { m_stats.wake_wait_cycles += cycles; }
  void switch_off_all(std::uint64_t now_fs);

  // --- The data array's gate (pm::gating_policy)
  // Element `e` of the data array is used at now_fs: wakes its group; returns the cycles
  // the access still waits for the wake-up.
  std::uint64_t access(std::uint32_t e, std::uint64_t now_fs);
  std::uint64_t access(power_component&, std::uint32_t e, std::uint64_t now_fs) override {
    return access(e, now_fs);
  }
  // Applies the Sleep transitions due by now_fs (before totals are read).
  void settle(std::uint64_t now_fs);
  void settle(power_component&, std::uint64_t now_fs) override { settle(now_fs); }
  void set_period(power_component&, std::uint64_t period_fs) override { set_period(period_fs); }
  std::string gate_name() const override { return "snooze_" + *m_granularity; }
  // The kernel exited with no other left: OFF when off_when_gpu_idle (the L2's "kernel exit").
  void gpu_idle(std::uint64_t now_fs) override {
    if (*m_off_when_gpu_idle) switch_off_all(now_fs);
  }

  struct statistics {
    counter wakes;             // groups woken from Sleep or OFF
    counter wake_wait_cycles;  // cycles accesses waited for a wake-up
    counter sleeps;            // groups put to Sleep
    counter offs;              // groups switched OFF
    counter off_signals;       // switch-off signals (SMX finished / no kernel left)
    counter dirty_kept;        // groups left in Sleep at switch-off: they held dirty lines
    counter lines_lost;        // valid lines invalidated by switch-off
    counter resq_inserts;      // sets entered in the reservation queue
    counter resq_full;         // reservation fails not recorded: the queue was full
  };
  const statistics& stats() const { return m_stats; }
  std::uint32_t groups() const { return static_cast<std::uint32_t>(m_idle_since.size()); }
  std::uint32_t mode_of_group(std::uint32_t g) const;  // 0 ON, 1 Sleep, 2 OFF

 private:
  std::uint32_t group_of(std::uint32_t e) const {
    return m_params.block ? e / m_group_elements : 0;
  }
  std::uint32_t state_of_group(std::uint32_t g) const {
    return m_data->state_of(g * m_group_elements);
  }
  void set_group(std::uint32_t g, std::uint32_t state, std::uint64_t at_fs);
  // The group's Sleep, if its idleness began more than `lookahead` before now_fs, the time
  // of its next access, whose request the controller sees from seen_fs on (or when it sees
  // queued requests only, if that request was not yet seen when the idleness began).
  void settle_group(std::uint32_t g, std::uint64_t now_fs, std::uint64_t seen_fs);
  void settle_group(std::uint32_t g, std::uint64_t now_fs) { settle_group(g, now_fs, now_fs); }
  // A state's wake-up cycles (the `wake_latency` parameter's, when set).
  std::uint64_t wake_cycles(std::uint32_t state) const {
    return m_params.wake ? m_params.wake : m_data->states()[state].wake_cycles;
  }
  // ON at now_fs; returns the wake-up cycles of the state it left (0 if it was ON).
  std::uint64_t wake(std::uint32_t g, std::uint64_t now_fs);
  void trace_modes();
  // Waveforms only: a group's Sleep is written when the lookahead has confirmed it
  // (`lookahead` + 1 cycles into its idleness) rather than at its next access; without
  // tracing nothing is scheduled (the statistics date it back either way).
  void schedule_settle(std::uint64_t idle_since_fs);
  void settle_due();
  bool m_traced = false;
  sc_core::sc_event m_settle_event;
  // Calls fn(group, sectors of the frame in that element) for each element holding part of
  // line frame `frame`.
  template <class F>
  void for_each_group_of_frame(std::uint32_t frame, F fn) const;

  choice_param m_granularity{*this,
                             "granularity",
                             "bank",
                             "switched together: the whole array (bank) or a cache block (block)",
                             {"bank", "block"}};
  param<cycles> m_lookahead{
      *this, "lookahead", {2}, "no Sleep with an access this close (cycles, at most 1000)"};
  choice_param m_sees{*this,
                      "sees",
                      "all",
                      "what the lookahead sees: every access to come (all: an oracle) or the "
                      "requests already queued when the idleness begins (queued)",
                      {"all", "queued"}};
  param<cycles> m_wake_latency{*this,
                               "wake_latency",
                               {0},
                               "wake-up from Sleep or OFF (cycles, at most 1000; 0: the "
                               "power table's)"};
  param<std::uint64_t> m_resq_entries{*this, "reservation_queue", 32,
                                      "reservation-queue entries (set indices), 1..4096"};
  param<std::string> m_sleep_name{*this, "sleep_state", "sleep",
                                  "the data array's power state used as Sleep"};
  param<std::string> m_off_name{*this, "off_state", "off",
                                "the data array's power state used as OFF"};
  param<bool> m_off_when_gpu_idle{
      *this, "off_when_gpu_idle", false,
      "every group OFF when the GPU has no kernel left (the L2's kernel exit)"};

  snooze_params m_params;
  power_component* m_data = nullptr;
  memory::switched_array* m_array = nullptr;
  std::uint32_t m_sleep = 1, m_off = 2;
  std::uint64_t m_period_fs = 1;
  std::uint32_t m_group_elements = 1;       // elements switched together
  std::uint64_t m_element_bytes = 1;        // bytes of the array per element
  std::vector<std::uint64_t> m_idle_since;  // per group: when its last use ended (fs)
  bool m_input_busy = false;                // bank: a request waits at the input
  bool m_head_failed = false;               // the input's head is in the reservation queue
  std::uint64_t m_ready_fs = 0;             // bank: the array is awake from then on
  std::vector<std::uint32_t> m_resq;        // reservation queue: set indices
  std::uint32_t m_in_state[3] = {};         // groups per mode
  statistics m_stats;
  traced_value m_trace_on, m_trace_sleep, m_trace_off, m_trace_resq;
  std::vector<traced_value> m_trace_mode;  // per group, when a --trace pattern names it
};

}  // namespace gputlm::pm
