#include "models/control/bubble_manager.h"

#include "models/base/units.h"
#include "models/common/block_factory.h"

namespace gputlm::control {

using pm::pstate_level;
using pm::voltage_regulator;

bubble_manager::bubble_manager(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  watch.bind(*this);
  status.bind(*this);
  declare_port("scheduler", scheduler);
  declare_port("regulator", regulator);
  declare_export("watch", watch);
  declare_export("status", status);
  SC_METHOD(sample);
  sensitive << m_sample_event;
  dont_initialize();
  add_stat("samples", m_samples, "samples the monitoring logic acted on");
  // (Every sample instant of the run, counted from the occupancy changes: up to each SMX's
  // last change, plus the instants since then.)
  auto tail = [this](bool bubbles) {
    std::uint64_t n = 0;
    const std::uint64_t now = clock().now_cycle();
    for (std::size_t i = 0; i < m_since.size(); ++i)
      if (!bubbles || below(i)) n += instants(i, now);
    return n;
  };
  add_stat(
      "smx_samples", [this, tail] { return double(m_smx_samples + tail(false)); },
      "SMX-samples over the run (sample instants x SMXs)");
  add_stat(
      "bubble_samples", [this, tail] { return double(m_bubble_samples + tail(true)); },
      "SMX-samples with the SMX's occupancy below the threshold");
  add_stat(
      "occurrence",
      [this, tail] {
        const double all = double(m_smx_samples + tail(false));
        return all > 0 ? double(m_bubble_samples + tail(true)) / all : 0.0;
      },
      "bubble occurrence: bubble_samples / smx_samples (thesis §6.1.2)");
  add_stat(
      "ideal_pg_joules",
      [this] {
        double j = m_ideal_joules;
        const std::uint64_t now = clock().now_cycle();
        for (std::size_t i = 0; i < m_since.size(); ++i)
          if (below(i)) j += idle_joules(i, instants(i, now));
        return j;
      },
      "energy ideal power gating would save: each bubble sample's SMX domain static and clock "
      "power over the sample period (thesis §6.1.2)");
  add_stat("diversions", m_diversions, "SMXs diverted (DVR set)");
  add_stat("drains", m_drains, "diversions that waited for the SMX to drain (DRN set)");
  add_stat("drained", m_drained, "drains that emptied the SMX within the window");
  add_stat("drain_aborts", m_drain_aborts, "drains aborted after the window (DVR cleared)");
  add_stat("lowered", m_lowered, "SMXs sent to the lowest P-state");
  add_stat("resumes", m_resumes, "low SMXs brought back to nominal for waiting TBs");
  add_stat("gpu_lows", m_gpu_lows, "times the whole GPU went to the lowest P-state");
}

void bubble_manager::validate() {
  m_sample.require(m_sample->value >= 1 && m_sample->value <= 1000000,
                   "must be 1 to 1000000 cycles");
  m_threshold.require(*m_threshold > 0 && *m_threshold <= 1, "must be in (0, 1]");
  m_window.require(*m_window >= 1 && *m_window <= 100000, "must be 1 to 100000 samples");
  m_sample_fs = m_sample->value * std::uint64_t(clock().period().value());
}

void bubble_manager::validate_bound() {
  const std::size_t n = scheduler->smx_count();
  if (*m_enabled) {
    const std::string why = scheduler->diversion_unsupported();
    m_enabled.require(why.empty(), "cannot divert TBs here: " + why);
  }
  m_enabled.require(regulator->smx_domains() == n,
                    "the regulator drives " + std::to_string(regulator->smx_domains()) +
                        " SMX domains, the scheduler has " + std::to_string(n) + " SMXs");
  m_mode.assign(n, smx_mode::active);
  m_drain_samples.assign(n, 0);
  m_warps.assign(n, 0);
  m_since.assign(n, 0);
  m_dvr_trace.resize(n);
  m_resumed_at.assign(n, ~std::uint64_t(0));
  m_drn_trace.resize(n);
}

std::string bubble_manager::added_hardware() const {
  const std::size_t n = m_mode.size();
  return "Diversion Control Registers: DVR " + std::to_string(n) + " b, DRN " + std::to_string(n) +
         " b, DVFS " + std::to_string(n + 1) + " b";
}

void bubble_manager::add_traces(vcd_writer& vcd) {
  for (std::size_t s = 0; s < m_mode.size(); ++s) {
    const std::string at = "smx[" + std::to_string(s) + "].";
    m_dvr_trace[s].trace(vcd, name(), at + "dvr", 1);
    m_drn_trace[s].trace(vcd, name(), at + "drn", 1);
  }
  m_gpu_trace.trace(vcd, name(), "gpu_dvfs", 1);
}

bool bubble_manager::in_bubble(std::uint32_t warps, std::size_t smx) const {
  return double(warps) < *m_threshold * double(scheduler->warp_slots(smx));
}

bool bubble_manager::all_idle() const {
  for (std::size_t s = 0; s < m_mode.size(); ++s)
    if (scheduler->resident_warps(s) != 0) return false;
  return true;
}

double bubble_manager::idle_joules(std::size_t smx, std::uint64_t samples) {
  return double(samples) * double(m_sample_fs) * 1e-15 * regulator->idle_watts(smx);
}

void bubble_manager::count_samples(std::size_t smx, std::uint64_t until) {
  const std::uint64_t n = instants(smx, until);
  if (n == 0) return;
  m_smx_samples += n;
  if (below(smx)) {
    m_bubble_samples += n;
    m_ideal_joules += idle_joules(smx, n);
  }
}

void bubble_manager::occupancy_changed(std::size_t smx, std::uint64_t now) {
  count_samples(smx, now);
  m_since[smx] = now;
  m_warps[smx] = scheduler->resident_warps(smx);
}

void bubble_manager::tb_dispatched(std::size_t smx, std::uint64_t cycle) {
  occupancy_changed(smx, cycle);
}

void bubble_manager::tb_completed(std::size_t smx, std::uint64_t cycle) {
  occupancy_changed(smx, cycle);
  if (!*m_enabled || m_done) return;
  if (scheduler->open_kernels() == 0) {  // the workload is done: nothing more to run
    m_done = true;
    m_sample_event.cancel();
    m_next_sample = ~std::uint64_t(0);
    regulator->abandon();
    return;
  }
  wake(cycle);
}

void bubble_manager::tbs_arrived(std::uint64_t cycle) {
  if (*m_enabled && !m_done) wake(cycle);
}

bool bubble_manager::sampling_needed() const {
  if (!*m_enabled || m_done || scheduler->open_kernels() == 0) return false;
  if (m_gpu == gpu_mode::going_low || m_gpu == gpu_mode::going_up) return false;
  const bool waiting = scheduler->tbs_waiting();
  if (m_gpu == gpu_mode::low || waiting) return waiting;
  // A draining SMX; with room any, an active SMX in a bubble; or every SMX idle.
  const bool any_room = m_room.is("any") && m_mode.size() > 1;
  for (std::size_t s = 0; s < m_mode.size(); ++s) {
    if (m_mode[s] == smx_mode::draining) return true;
    if (any_room && m_mode[s] == smx_mode::active && below_now(s)) return true;
  }
  return *m_gpu_level && all_idle();
}

// The next sample instant after `now`, when a sample can act and none is asked for.
void bubble_manager::wake(std::uint64_t now) {
  if (!sampling_needed()) return;
  const std::uint64_t next = (now / m_sample->value + 1) * m_sample->value;
  if (m_next_sample <= next && m_next_sample > now) return;
  m_next_sample = next;
  m_sample_event.notify(clock_domain::kernel_delay_to(clock().edge_fs(next)));
}

void bubble_manager::set_mode(std::size_t smx, smx_mode m) {
  m_mode[smx] = m;
  m_dvr_trace[smx].set(m != smx_mode::active);
  m_drn_trace[smx].set(m == smx_mode::draining);
}

bool bubble_manager::lower(std::size_t smx) {
  if (!regulator->request(smx, pstate_level::lowest)) return false;
  set_mode(smx, smx_mode::going_low);
  ++m_lowered;
  return true;
}

// Fig. 36, once per sample.
void bubble_manager::sample() {
  const std::uint64_t now = clock().now_cycle();
  m_next_sample = ~std::uint64_t(0);
  ++m_samples;
  const bool waiting = scheduler->tbs_waiting();
  const std::size_t n = m_mode.size();
  // An undiverted SMX with room for the next TB (room next_tb: none without a waiting TB,
  // Fig. 36; room any: a free warp slot will do while none waits).
  const bool any_room = m_room.is("any");
  auto accepts = [&](std::size_t d) {
    return m_mode[d] == smx_mode::active &&
           scheduler->resident_warps(d) < scheduler->warp_slots(d) &&
           (waiting ? scheduler->next_tb_fits(d) : any_room);
  };

  if (m_gpu == gpu_mode::going_low || m_gpu == gpu_mode::going_up) return;
  if (m_gpu == gpu_mode::low) {  // leave the GPU level when TBs arrive
    if (waiting && regulator->request(voltage_regulator::gpu_level, pstate_level::nominal)) {
      m_gpu = gpu_mode::going_up;
      m_gpu_trace.set(1);
    }
    return wake(now);
  }
  if (*m_gpu_level && !waiting && all_idle() && scheduler->open_kernels() > 0) {
    if (regulator->request(voltage_regulator::gpu_level, pstate_level::lowest)) {
      m_gpu = gpu_mode::going_low;
      m_gpu_trace.set(1);
      ++m_gpu_lows;
      for (std::size_t s = 0; s < n; ++s) scheduler->divert(s, true);
    }
    return wake(now);
  }

  bool resumed = false;
  for (std::size_t s = 0; s < n; ++s) {
    if (regulator->in_transition(s)) continue;
    const bool bubble = below_now(s);
    switch (m_mode[s]) {
      case smx_mode::active: {
        // (Not an SMX whose resume ended in this very instant: it has had no chance of a TB.)
        // Nor one the policy holds TBs for (they could go nowhere else).
        if (!bubble || m_resumed_at[s] == now || bound_here(s)) break;
        bool other = false;
        for (std::size_t d = 0; d < n && !other; ++d) other = d != s && accepts(d);
        if (!other) break;  // the diversion aborts: nothing changes
        scheduler->divert(s, true);
        ++m_diversions;
        if (scheduler->resident_warps(s) == 0 || !*m_draining) {
          lower(s);  // (the GPU level is not in a transition: the request is taken)
        } else {
          set_mode(s, smx_mode::draining);
          m_drain_samples[s] = 0;
          ++m_drains;
        }
        break;
      }
      case smx_mode::draining:
        if (bound_here(s)) {  // TBs wait for it alone: it takes them
          scheduler->divert(s, false);
          set_mode(s, smx_mode::active);
          ++m_drain_aborts;
        } else if (scheduler->resident_warps(s) == 0) {
          ++m_drained;
          lower(s);
        } else if (++m_drain_samples[s] >= *m_window) {  // W samples waited
          scheduler->divert(s, false);
          set_mode(s, smx_mode::active);
          ++m_drain_aborts;
        }
        break;
      case smx_mode::low: {
        if (resumed || !waiting) break;
        // Resumed when no undiverted SMX can take the next TB, or TBs wait for it alone
        // (whatever keep_bound says: they can go nowhere else).
        bool taken = false;
        for (std::size_t d = 0; d < n && !taken; ++d) taken = accepts(d);
        if (taken && !scheduler->tbs_bound_to(s)) break;
        if (regulator->request(s, pstate_level::nominal)) {
          set_mode(s, smx_mode::resuming);
          ++m_resumes;
          resumed = true;
        }
        break;
      }
      case smx_mode::going_low:
      case smx_mode::resuming:
        break;
    }
  }
  wake(now);
}

void bubble_manager::transition_done(std::size_t target, pstate_level level) {
  const std::uint64_t now = clock().now_cycle();
  if (target == voltage_regulator::gpu_level) {
    if (level == pstate_level::lowest) {
      m_gpu = gpu_mode::low;
    } else {  // back: every SMX at nominal and accepting TBs
      m_gpu = gpu_mode::nominal;
      m_gpu_trace.set(0);
      for (std::size_t s = 0; s < m_mode.size(); ++s) {
        set_mode(s, smx_mode::active);
        scheduler->divert(s, false);
      }
    }
  } else if (level == pstate_level::lowest) {
    set_mode(target, smx_mode::low);
  } else {  // resumed: TB dispatch to it restarts now
    set_mode(target, smx_mode::active);
    scheduler->divert(target, false);
    m_resumed_at[target] = now;
  }
  wake(now);
}

GPUTLM_BLOCK("bubble_manager", bubble_manager,
             "SMX-occupancy bubble manager: TB diversion, draining and DVFS (Wang thesis ch. 6)",
             {});

}  // namespace gputlm::control
