#include "models/power/slumber_control_unit.h"

#include <algorithm>

#include "models/common/block_factory.h"
#include "models/common/mem_request.h"

namespace gputlm::pm {

slumber_control_unit::slumber_control_unit(const sc_core::sc_module_name& name,
                                           const block_context& ctx)
    : component(name, ctx) {
  registers_export.bind(*this);
  declare_export("registers", registers_export);
  // The unit's own hardware (counters, muxes, MSHR tracker, fetch-unit list, control
  // logic): always on, its leakage from the power table's slumber_control_unit.logic.
  declare_power("logic", {});
  add_statistics();
}

void slumber_control_unit::validate() {
  m_counter_bits.require(*m_counter_bits >= 1 && *m_counter_bits <= 20, "expected 1..20 bits");
  for (const param<cycles>* l : {&m_l1_latency, &m_l2_latency, &m_dram_latency})
    l->require(l->get().value <= 100000, "expected 0..100000 cycles (400cycles)");
  m_off_name.require(
      *m_ss_name != *m_ds_name && *m_ss_name != *m_off_name && *m_ds_name != *m_off_name,
      "ss_state, ds_state and off_state must differ");
  m_params.wrf = m_rule.is("wrf");
  m_params.counter_bits = static_cast<std::uint32_t>(*m_counter_bits);
  m_lookahead_warps.require(*m_lookahead_warps <= 32, "expected 0..32 warps");
  m_params.lookahead_warps = static_cast<std::uint32_t>(*m_lookahead_warps);
  m_params.per_register = m_idle_prediction.is("register");
  m_params.static_hints = m_hints.is("static");
  m_params.l1_latency = m_l1_latency->value;
  m_params.l2_latency = m_l2_latency->value;
  m_params.dram_latency = m_dram_latency->value;
  m_wrf_wake.require(m_wrf_wake->value <= 1000, "expected 0..1000 cycles");
  m_params.wrf_wake = m_wrf_wake->value;
  m_read_stage.require(m_read_stage->value <= 16, "expected 0..16 cycles");
  m_params.read_stage = m_read_stage->value;
}

void slumber_control_unit::take_over(power_component& rf, std::uint32_t warp_registers,
                                     std::uint32_t warp_slots, std::uint32_t banks) {
  auto state = [&](const param<std::string>& which) {
    for (std::uint32_t s = 1; s < rf.states().size(); ++s)
      if (rf.states()[s].name == *which) return s;
    which.require(false, "the register file this unit manages (" + rf.name() + ") has no state '" +
                             *which + "' (not the first) in the platform's power table");
    return 0u;
  };
  const std::uint32_t ss_state = state(m_ss_name), ds_state = state(m_ds_name),
                      off_state = state(m_off_name);
  m_rule.require(!rf.gated(), "the register file " + rf.name() +
                                  " is gated already (by power.policy or another controller)");
  rf.reshape(warp_registers);
  rf.bind_policy(this, 0);
  configure(warp_slots, banks);
  control(rf, ss_state, ds_state, off_state);
}

void slumber_control_unit::configure(std::uint32_t warp_slots, std::uint32_t banks) {
  m_base.assign(warp_slots, 0);
  m_nregs.assign(warp_slots, 0);
  m_tracker.assign(warp_slots, 0);
  m_load_due.assign(warp_slots, 0);
  m_issues.assign(std::size_t(warp_slots) * history, issue_record{});
  m_warp_seen.assign(warp_slots, seen_cycles{});
  m_bank_seen.assign(banks ? banks : 1, seen_cycles{});
}

void slumber_control_unit::control(power_component& rf, std::uint32_t ss_state,
                                   std::uint32_t ds_state, std::uint32_t off_state) {
  m_rf = &rf;
  m_state[on] = 0;
  m_state[ss] = ss_state;
  m_state[ds] = ds_state;
  m_state[off] = off_state;
  for (int m = ss; m <= off; ++m) m_wake[m] = rf.states()[m_state[m]].wake_cycles;
  if (m_params.wrf && m_params.wrf_wake) m_wake[ds] = m_params.wrf_wake;
  m_regs.assign(rf.elements(), reg_plan{});
  rf.start_in(off_state);
  m_in_mode[off] = rf.elements();
  m_trace_mode[off].set(rf.elements());
}

slumber_control_unit::mode slumber_control_unit::choose(std::uint64_t idle, bool dead) const {
  if (dead && idle >= m_wake[off]) return off;
  if (idle >= m_wake[ds]) return ds;
  if (idle >= m_wake[ss]) return ss;
  return on;
}

void slumber_control_unit::set_state(std::uint32_t e, mode m, std::uint64_t cycle) {
  m_rf->set_state(e, m_state[m], clock().edge_fs(cycle));
}

void slumber_control_unit::set_mode(std::uint32_t e, mode m) {
  reg_plan& p = m_regs[e];
  if (p.m == m) return;
  --m_in_mode[p.m];
  m_trace_mode[p.m].set(m_in_mode[p.m]);
  ++m_in_mode[m];
  m_trace_mode[m].set(m_in_mode[m]);
  p.m = m;
}

void slumber_control_unit::begin(std::uint32_t e, mode m, std::uint64_t t0, std::uint64_t fire,
                                 mode to) {
  reg_plan& p = m_regs[e];
  set_mode(e, m);
  p.t0 = t0;
  p.fire = fire;
  p.to = to;
  p.not_on_before = 0;
  p.write_at = never;
  p.lead_on = never;
}

void slumber_control_unit::close_pending_write(std::uint32_t e, std::uint64_t end) {
  reg_plan& p = m_regs[e];
  if (p.write_at == never || p.write_at > end) return;
  const std::uint64_t w = p.write_at;
  const mode after = mode(p.after);
  p.write_at = never;
  close(e, w, w);  // the plan had it ON by then (the write waited for it otherwise)
  begin(e, after, w, after == ss ? w : never, after == ss ? ss : on);
}

std::uint64_t slumber_control_unit::close(std::uint32_t e, std::uint64_t end,
                                          std::uint64_t trigger) {
  close_pending_write(e, end);
  reg_plan& p = m_regs[e];
  const std::uint64_t t0 = p.t0;
  if (p.lead_on != never) set_state(e, on, p.lead_on);
  // A plan that begins later (after an access's wait): ON (waking) until then.
  if (end < t0 || (end == t0 && p.lead_on != never))
    return p.lead_on != never ? std::max(end, p.not_on_before) : t0;
  set_state(e, mode(p.m), t0);
  if (p.m == on) return std::max(t0, p.not_on_before);
  const std::uint64_t w_m = wake(p.m), w_ss = wake(ss);
  const std::uint64_t tw = trigger == never ? never : std::max(trigger, t0);
  // The idle split counts allocated registers only: an unallocated one is OFF in the power
  // component but is not an idle period of any warp's register.
  const std::uint64_t counted = p.allocated ? 1 : 0;
  counter& idle_m = p.m == ss ? m_stats.idle_ss : p.m == ds ? m_stats.idle_ds : m_stats.idle_off;
  std::uint64_t ws = never, t_on = never;
  if (p.to == on || tw < p.fire) {  // straight to ON: by the counter or the trigger
    ws = std::min(p.fire, tw);
    if (ws != never) t_on = ws + w_m;
    idle_m += counted * (std::min(ws, end) - t0);
  } else {  // the counter brings it to SS (the transition counted as SS), the trigger to ON
    const std::uint64_t ss_from = std::min(p.fire, end);
    idle_m += counted * (ss_from - t0);
    if (p.fire < end) {
      set_state(e, ss, p.fire);
      m_stats.idle_ss += counted * (std::min(tw, end) - p.fire);
    }
    ws = tw;
    if (tw != never) t_on = std::max(tw, p.fire + w_m - w_ss) + w_ss;
  }
  if (ws <= end) {
    set_state(e, on, ws);
    ++m_stats.wakes;
  }
  return t_on == never ? never : std::max(t_on, p.not_on_before);
}

void slumber_control_unit::issued(std::uint32_t warp, std::uint32_t index, std::uint64_t ready,
                                  std::uint64_t cycle, std::uint32_t scheduler) {
  if (!m_params.wrf && m_params.lookahead_warps) {
    if (scheduler >= m_scheduler_issues.size()) m_scheduler_issues.resize(scheduler + 1);
    ready = std::min(cycle, std::max(ready, in_lookahead_from(scheduler, warp)));
    scheduler_history& h = m_scheduler_issues[scheduler];
    h.last[h.count++ % history] = {warp, cycle};
  }
  issue_record& r = m_issues[std::size_t(warp) * history + index % history];
  r.ready = ready;
  r.issued = cycle;
}

std::uint64_t slumber_control_unit::in_lookahead_from(std::uint32_t scheduler,
                                                      std::uint32_t warp) const {
  // Walking back through the scheduler's issues: once lookahead_warps + 1 other warps have
  // issued before this one, the warp was beyond the lookahead when the earliest of them
  // was the current warp, and inside it from the next cycle on.
  const scheduler_history& h = m_scheduler_issues[scheduler];
  std::uint32_t others[33];
  std::uint32_t n = 0;
  const std::uint64_t depth = std::min<std::uint64_t>(h.count, history);
  for (std::uint64_t k = 1; k <= depth; ++k) {
    const scheduler_issue& s = h.last[(h.count - k) % history];
    if (s.warp == warp || std::find(others, others + n, s.warp) != others + n) continue;
    others[n++] = s.warp;
    if (n > m_params.lookahead_warps) return s.cycle + 1;
  }
  return 0;
}

void slumber_control_unit::accessed(std::uint32_t warp, std::uint32_t e, std::uint32_t bank,
                                    std::uint64_t cycle) {
  m_stats.rf_access_cycles += m_rf_seen.mark(cycle);
  m_stats.bank_access_cycles += m_bank_seen[bank < m_bank_seen.size() ? bank : 0].mark(cycle);
  m_stats.warp_access_cycles += m_warp_seen[warp].mark(cycle);
  reg_plan& p = m_regs[e];
  if (p.accessed == cycle) return;
  ++m_stats.register_access_cycles;
  if (p.accessed != never && cycle > p.accessed) {
    const std::uint64_t gap = cycle - p.accessed;
    ++m_stats.idle_periods;
    m_stats.idle_cycles += gap;
    if (gap > 16) {
      ++m_stats.idle_periods_over_16;
      m_stats.idle_cycles_over_16 += gap;
    }
  }
  p.accessed = cycle;
}

bool slumber_control_unit::seen_cycles::mark(std::uint64_t cycle) {
  auto bit = [this](std::uint64_t c) -> std::uint64_t& { return bits[(c / 64) % 4]; };
  if (newest == never || cycle >= newest + 256) {
    bits[0] = bits[1] = bits[2] = bits[3] = 0;
    newest = cycle;
  } else if (cycle > newest) {  // clears the cycles newest+1 .. cycle (their slots' old bits)
    for (std::uint64_t c = newest + 1; c <= cycle;) {
      const std::uint64_t in_word = c % 64,
                          n = std::min<std::uint64_t>(64 - in_word, cycle - c + 1);
      const std::uint64_t mask = n == 64 ? ~0ull : ((1ull << n) - 1) << in_word;
      bit(c) &= ~mask;
      c += n;
    }
    newest = cycle;
  } else if (newest - cycle >= 256) {
    return true;  // older than the window: counted, not told apart
  }
  std::uint64_t& w = bit(cycle);
  const std::uint64_t m = 1ull << (cycle % 64);
  if (w & m) return false;
  w |= m;
  return true;
}

bool slumber_control_unit::allocate(std::uint32_t warp, std::uint32_t nregs, std::uint64_t cycle) {
  m_nregs[warp] = 0;
  if (nregs == 0) return true;
  // First fit: the lowest run of nregs unallocated registers.
  std::uint32_t run = 0;
  for (std::uint32_t e = 0; e < m_regs.size(); ++e) {
    run = m_regs[e].allocated ? 0 : run + 1;
    if (run < nregs) continue;
    const std::uint32_t base = e + 1 - nregs;
    m_base[warp] = base;
    m_nregs[warp] = nregs;
    m_tracker[warp] = 0;
    m_load_due[warp] = 0;
    for (std::uint32_t r = base; r <= e; ++r) {
      close(r, cycle, never);  // (unallocated: OFF)
      reg_plan& p = m_regs[r];
      p.allocated = true;
      p.accessed = never;
      p.written = 0;
      p.known = 0;
      p.wake_after = 0;
      begin(r, m_params.wrf ? ds : off, cycle, never, on);
    }
    return true;
  }
  ++m_stats.unplaced_warps;
  return false;
}

void slumber_control_unit::warp_exited(std::uint32_t warp, std::uint64_t cycle) {
  const std::uint32_t base = m_base[warp];
  for (std::uint32_t r = base; r < base + m_nregs[warp]; ++r) {
    close(r, cycle, never);
    begin(r, m_params.wrf ? ds : off, std::max(cycle, m_regs[r].t0), never, on);
  }
}

void slumber_control_unit::release(std::uint32_t warp, std::uint64_t cycle) {
  const std::uint32_t base = m_base[warp];
  for (std::uint32_t r = base; r < base + m_nregs[warp]; ++r) {
    close(r, cycle, never);
    begin(r, off, std::max(cycle, m_regs[r].t0), never, on);
    m_regs[r].allocated = false;
  }
  m_nregs[warp] = 0;
}

std::uint64_t slumber_control_unit::trigger(std::uint32_t e, std::uint32_t warp,
                                            std::uint32_t index) {
  close_pending_write(e, m_issues[std::size_t(warp) * history + index % history].issued);
  const reg_plan& p = m_regs[e];
  if (p.m == on || p.write_at != never) return never;
  const issue_record* h = &m_issues[std::size_t(warp) * history];
  if (m_params.wrf) return h[index % history].ready;
  // Slumber, a register OFF (unused since allocated, or its content dead): for the
  // instruction that uses it, once that instruction is about to be ready.
  if (p.m == off) {
    const issue_record& r = h[index % history];
    return r.issued >= p.t0 ? std::max(r.ready, p.t0) : never;
  }
  // SS or DS: the first time since its plan began that the warp was in the lookahead (from
  // its instruction's readiness to its issue); a counter bringing it to SS, when the warp
  // comes sooner than predicted, is overtaken.
  if (p.wake_after > index) return never;
  if (index - p.wake_after >= history) return p.t0;  // long ago: at once
  for (std::uint32_t j = p.wake_after; j <= index; ++j) {
    const issue_record& r = h[j % history];
    if (r.issued >= p.t0) return std::max(r.ready, p.t0);
  }
  return never;
}

std::uint64_t slumber_control_unit::read(std::uint32_t warp, std::uint16_t reg, std::uint32_t bank,
                                         std::uint64_t cycle, std::uint32_t index) {
  const std::uint32_t e = m_base[warp] + reg;
  ++m_stats.reads;
  accessed(warp, e, bank, cycle);
  const std::uint64_t t_on = close(e, cycle, std::min(trigger(e, warp, index), cycle));
  const std::uint64_t read_at = cycle + m_params.read_stage;  // in the operand collector
  const std::uint64_t wait = t_on > read_at ? t_on - read_at : 0;
  if (wait) {
    ++m_stats.read_waits;
    m_stats.wake_wait_cycles += wait;
  }
  begin(e, on, std::max(cycle, m_regs[e].t0), never, on);
  return wait;
}

void slumber_control_unit::after_access(std::uint32_t warp, std::uint16_t reg, std::uint64_t cycle,
                                        bool dead, const outlook& o, std::uint32_t next) {
  const std::uint32_t e = m_base[warp] + reg;
  cycle = std::max(cycle, m_regs[e].t0);
  m_regs[e].wake_after = next;
  if (m_params.wrf) return begin(e, ds, cycle, never, on);
  if (next == no_next_use && dead) return begin(e, off, cycle, never, on);  // dead for good
  if (o.not_in_l1i) {
    // Rules (c)/(d): the next use is not in L1I: DS before a read, OFF before a write, the
    // counter waking it for the instruction's fetch from L2 at the earliest (where it lies,
    // L2 or DRAM, the unit cannot know: the L2's round trip wakes it no later than needed).
    const mode m = dead ? off : ds;
    const std::uint64_t l2 = m_params.l2_latency ? m_params.l2_latency : m_min_latency[2];
    const std::uint64_t idle = std::max(o.idle, l2);
    const std::uint64_t delay = std::min(idle > wake(m) ? idle - wake(m) : 0, counter_max());
    ++m_stats.fetch_misses;
    return begin(e, m, cycle, cycle + delay, ss);
  }
  if (!o.known) return begin(e, ss, cycle, cycle, ss);
  const mode m = choose(o.idle, dead);
  if (m == on) return begin(e, on, cycle, never, on);
  if (m == ss) return begin(e, ss, cycle, cycle, ss);
  // The counter brings it to SS by SS's wake-up before the predicted end of the idleness,
  // so that the lookahead's SS -> ON can complete by then.
  const std::uint64_t delay = std::min(o.idle - wake(m), counter_max());
  begin(e, m, cycle, cycle + delay, ss);
}

std::uint64_t slumber_control_unit::fixed_destination(std::uint32_t warp, std::uint16_t reg,
                                                      std::uint32_t bank, std::uint64_t cycle,
                                                      std::uint32_t index, std::uint64_t latency,
                                                      std::uint64_t result, bool next_reads,
                                                      std::uint32_t next_use) {
  const std::uint32_t e = m_base[warp] + reg;
  ++m_stats.writes;
  accessed(warp, e, bank, result);
  reg_plan& p = m_regs[e];
  const std::uint64_t la = trigger(e, warp, index);
  const std::uint64_t woken = close(e, cycle, la <= cycle ? la : never);
  const mode now_in = mode_at(e, cycle, woken);
  const std::uint64_t t0 = std::max(cycle, p.t0);
  std::uint64_t t_on;
  if (m_params.wrf) {  // write-conservative: ON until written, woken from decode on
    begin(e, on, t0, never, on);
    t_on = woken != never ? woken : t0 + wake(now_in);
    m_regs[e].after = ds;
  } else {
    // The next access is this write: power gating is legal. A register still waking stays
    // ON for it.
    const mode m = woken != never && woken > t0 ? on : std::max(choose(latency, true), now_in);
    const std::uint64_t fire = t0 + (latency > wake(m) ? latency - wake(m) : 0);
    begin(e, m, t0, m == on ? never : fire, on);
    t_on = m == on ? t0 : fire + wake(m);
    if (woken != never) t_on = std::max(t_on, woken);
    m_regs[e].after = next_reads ? on : ss;
  }
  reg_plan& q = m_regs[e];
  q.not_on_before = woken != never ? woken : 0;
  const std::uint64_t wait = t_on > result ? t_on - result : 0;
  if (wait) {
    ++m_stats.write_waits;
    m_stats.write_wait_cycles += wait;
  }
  q.write_at = result + wait;
  q.written = result + wait;
  q.known = cycle;
  q.wake_after = next_use;
  if (next_use == no_next_use && !m_params.wrf) q.after = off;  // dead for good after the write
  return wait;
}

std::uint64_t slumber_control_unit::predicted_return(std::uint32_t warp) const {
  const std::uint64_t l2 = m_params.l2_latency ? m_params.l2_latency : m_min_latency[2];
  const std::uint64_t dram = m_params.dram_latency ? m_params.dram_latency : m_min_latency[3];
  return m_tracker[warp] == 2 ? std::max(dram, l2) : l2;
}

void slumber_control_unit::load_destination(std::uint32_t warp, std::uint16_t reg,
                                            std::uint64_t cycle, std::uint32_t index) {
  const std::uint32_t e = m_base[warp] + reg;
  reg_plan& p = m_regs[e];
  const std::uint64_t la = trigger(e, warp, index);
  const std::uint64_t woken = close(e, cycle, la <= cycle ? la : never);
  const mode now_in = mode_at(e, cycle, woken);
  const std::uint64_t t0 = std::max(cycle, p.t0);
  // ON (woken now if it was not) while the L1 looks the load up.
  const std::uint64_t on_at = woken != never ? woken : t0 + wake(now_in);
  if (m_params.wrf) {
    begin(e, on, t0, never, on);
    m_regs[e].not_on_before = on_at;
    return;
  }
  const std::uint64_t l1 = m_params.l1_latency ? m_params.l1_latency : m_min_latency[1];
  const std::uint64_t pred = predicted_return(warp);
  const std::uint64_t idle = pred > l1 ? pred - l1 : 0;
  const mode m = choose(idle, true);  // the next access is the load's write
  const std::uint64_t t_l1 = t0 + l1;
  begin(e, m, t_l1, m == on ? never : t_l1 + (idle > wake(m) ? idle - wake(m) : 0), on);
  reg_plan& q = m_regs[e];
  q.lead_on = t0;
  q.not_on_before = on_at;
  if (m != on) m_load_due[warp] = std::max(m_load_due[warp], t0 + pred);
}

void slumber_control_unit::load_answered(std::uint32_t warp, std::uint64_t issued,
                                         std::uint64_t cycle, std::uint8_t served) {
  const std::uint8_t level =
      served == mem_request::unknown ? std::uint8_t(mem_request::by_l2) : served;
  const std::uint64_t latency = cycle > issued ? cycle - issued : 0;
  std::uint64_t& best = m_min_latency[level];
  if (best == 0 || latency < best) best = latency;
  m_tracker[warp] = level == mem_request::by_l1 ? 0 : level == mem_request::by_dram ? 2 : 1;
  if (m_load_due[warp] <= cycle) m_load_due[warp] = 0;
}

std::uint64_t slumber_control_unit::load_written(std::uint32_t warp, std::uint16_t reg,
                                                 std::uint32_t bank, std::uint64_t cycle,
                                                 std::uint8_t served) {
  const std::uint32_t e = m_base[warp] + reg;
  ++m_stats.writes;
  accessed(warp, e, bank, cycle);
  reg_plan& p = m_regs[e];
  if (served == mem_request::by_l1 && p.lead_on != never) set_mode(e, on);  // an L1 hit
  const std::uint64_t t_on = close(e, cycle, cycle);
  const std::uint64_t wait = t_on > cycle ? t_on - cycle : 0;
  if (wait) {
    ++m_stats.write_waits;
    m_stats.write_wait_cycles += wait;
  }
  begin(e, on, std::max(cycle, m_regs[e].t0), never, on);
  m_regs[e].written = cycle + wait;
  m_regs[e].known = cycle;
  return wait;
}

void slumber_control_unit::settle(std::uint64_t now_fs) {
  if (!m_rf) return;
  const std::uint64_t end = clock().cycle_at_fs(now_fs);
  for (std::uint32_t e = 0; e < m_regs.size(); ++e) {
    reg_plan& p = m_regs[e];
    if (!p.allocated) continue;
    close(e, end, never);
    if (end <= p.t0) continue;
    // The plan again from `end`, as it stands then.
    if (p.lead_on != never) p.lead_on = end;
    if (p.m == on || p.fire > end) {
      p.t0 = end;
    } else if (p.to == ss) {
      begin(e, ss, end, end, ss);
    } else {  // woken by its counter: ON once the wake-up completes
      const std::uint64_t on_at = std::max(p.fire + wake(p.m), p.not_on_before);
      const std::uint64_t write_at = p.write_at;
      const std::uint8_t after = p.after;
      begin(e, on, end, never, on);
      p.not_on_before = on_at;
      p.write_at = write_at;
      p.after = after;
    }
  }
}

void slumber_control_unit::add_traces(vcd_writer& vcd) {
  const std::string s = name();
  m_trace_mode[on].trace(vcd, s, "registers_on", 16);
  m_trace_mode[ss].trace(vcd, s, "registers_ss", 16);
  m_trace_mode[ds].trace(vcd, s, "registers_ds", 16);
  m_trace_mode[off].trace(vcd, s, "registers_off", 16);
}

void slumber_control_unit::add_statistics() {
  const statistics& s = m_stats;
  add_stat("reads", s.reads, "register reads seen by the Slumber control unit");
  add_stat("writes", s.writes, "register writes seen by the Slumber control unit");
  add_stat("wakes", s.wakes, "registers woken from SS, DS or OFF");
  add_stat("read_waits", s.read_waits, "register reads that waited for a wake-up");
  add_stat("wake_wait_cycles", s.wake_wait_cycles,
           "cycles register reads waited for a wake-up (the instruction's execution waits)");
  add_stat("write_waits", s.write_waits, "write-backs that waited for a wake-up");
  add_stat("write_wait_cycles", s.write_wait_cycles, "cycles write-backs waited for a wake-up");
  add_stat("fetch_miss_sleeps", s.fetch_misses,
           "accesses after which the register's next use was not in L1I (the fetch-unit list "
           "missed): DS before a read, OFF before a write (rules (c)/(d))");
  add_stat("idle_ss_cycles", s.idle_ss,
           "register-cycles of allocated registers in SS (shallow sleep)");
  add_stat("idle_ds_cycles", s.idle_ds,
           "register-cycles of allocated registers in DS (deep sleep, drowsy)");
  add_stat("idle_off_cycles", s.idle_off, "register-cycles of allocated registers power gated");
  add_stat("idle_periods", s.idle_periods, "gaps between accesses to one register");
  add_stat("idle_periods_over_16", s.idle_periods_over_16, "of them, longer than 16 cycles");
  add_stat("idle_cycles", s.idle_cycles, "total length of the gaps, cycles");
  add_stat("idle_cycles_over_16", s.idle_cycles_over_16, "cycles in gaps longer than 16 cycles");
  // Utilisation: accessed cycles summed over the units / (cycles x units).
  const auto utilisation = [this](const counter& c, std::function<double()> units) {
    return [this, &c, units] {
      const double cycles = double(clock().now_cycle()) * units();
      return cycles > 0 ? double(c.value()) / cycles : 0.0;
    };
  };
  add_stat("utilisation_rf", utilisation(s.rf_access_cycles, [] { return 1.0; }),
           "cycles the register file was accessed / cycles");
  add_stat("utilisation_bank",
           utilisation(s.bank_access_cycles, [this] { return double(banks()); }),
           "cycles a bank was accessed / (cycles x banks)");
  add_stat("utilisation_warp",
           utilisation(s.warp_access_cycles, [this] { return double(warp_slots()); }),
           "cycles a warp slot's registers were accessed / (cycles x warp slots)");
  add_stat("utilisation_register",
           utilisation(s.register_access_cycles, [this] { return double(registers()); }),
           "cycles a 128-byte register was accessed / (cycles x registers)");
  add_stat("unplaced_warps", s.unplaced_warps,
           "warps whose registers found no contiguous room (not managed)");
  add_stat("untracked_accesses", s.untracked_accesses,
           "accesses to registers beyond a warp's allocation (not managed)");
}

GPUTLM_BLOCK("slumber_control_unit", slumber_control_unit,
             "Slumber (or WRF): the modes of an SMX's 128-byte warp registers", {});

}  // namespace gputlm::pm
