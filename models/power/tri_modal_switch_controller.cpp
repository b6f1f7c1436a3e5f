#include "models/power/tri_modal_switch_controller.h"

#include <algorithm>

#include "models/common/block_factory.h"
#include "models/common/clock_domain.h"
#include "models/common/component.h"

namespace gputlm::pm {

tri_modal_switch_controller::tri_modal_switch_controller(const sc_core::sc_module_name& name,
                                                         const block_context& ctx)
    : component(name, ctx) {
  declare_port("array", array);
  cache.bind(*this);
  declare_export("cache", cache);
  SC_METHOD(settle_due);
  sensitive << m_settle_event;
  dont_initialize();
  add_stat("wakes", m_stats.wakes, "switch groups woken from Sleep or OFF (Snooze)");
  add_stat("wake_wait_cycles", m_stats.wake_wait_cycles,
           "cycles accesses waited for a wake-up (Snooze)");
  add_stat("sleeps", m_stats.sleeps, "switch groups put to Sleep (Snooze)");
  add_stat("offs", m_stats.offs, "switch groups switched OFF (Snooze)");
  add_stat("off_signals", m_stats.off_signals,
           "switch-off signals: the SMX's TBs finished (L1), no kernel left (L2) (Snooze)");
  add_stat("dirty_kept", m_stats.dirty_kept,
           "groups left in Sleep at switch-off because they held dirty lines (Snooze)");
  add_stat("lines_lost", m_stats.lines_lost, "valid lines invalidated by switch-off (Snooze)");
  add_stat("resq_inserts", m_stats.resq_inserts, "sets entered in the reservation queue (Snooze)");
  add_stat("resq_full", m_stats.resq_full,
           "reservation fails not recorded, the reservation queue full (Snooze)");
}

void tri_modal_switch_controller::validate() {
  m_lookahead.require(m_lookahead->value <= 1000, "expected 0..1000 cycles (2cycles)");
  m_resq_entries.require(*m_resq_entries >= 1 && *m_resq_entries <= 4096,
                         "expected 1..4096 entries");
  m_wake_latency.require(m_wake_latency->value <= 1000, "expected 0..1000 cycles (2cycles)");
  m_off_name.require(*m_off_name != *m_sleep_name, "must differ from sleep_state");
  m_params.block = m_granularity.is("block");
  m_params.lookahead = m_lookahead->value;
  m_params.queued = m_sees.is("queued");
  m_params.wake = m_wake_latency->value;
  m_params.reservation_queue = static_cast<std::uint32_t>(*m_resq_entries);
}

void tri_modal_switch_controller::validate_bound() {
  power_component& data = array->data_power();
  const std::string entry = "power.components.";
  auto state = [&](const param<std::string>& which) {
    for (std::uint32_t s = 1; s < data.states().size(); ++s)
      if (data.states()[s].name == *which) return s;
    which.require(false, "the data array this controller switches (" + data.name() +
                             ") has no state '" + *which +
                             "' (not the first) in the platform's power table");
    return 0u;
  };
  const std::uint32_t sleep = state(m_sleep_name), off = state(m_off_name);
  m_granularity.require(!data.gated(), "the data array " + data.name() +
                                           " is gated already (by power.policy or another "
                                           "controller)");
  data.bind_policy(this, 0);
  control(data, sleep, off, *array.get(), array->period_fs());
}

void tri_modal_switch_controller::schedule_settle(std::uint64_t idle_since_fs) {
  if (!m_traced) return;
  const std::uint64_t due = idle_since_fs + (m_params.lookahead + 1) * m_period_fs;
  m_settle_event.notify(clock_domain::kernel_delay_to(std::max(due, component::now_fs())));
}

void tri_modal_switch_controller::settle_due() {
  const std::uint64_t now = component::now_fs();
  settle(now);
  // The next group whose idleness the lookahead will confirm (an earlier notification
  // replaces a later one, so only the earliest is pending).
  std::uint64_t next = ~std::uint64_t(0);
  for (std::uint32_t g = 0; g < groups(); ++g)
    if (state_of_group(g) == 0 && (m_params.block || !m_input_busy))
      next = std::min(next, m_idle_since[g]);
  if (next != ~std::uint64_t(0)) schedule_settle(next);
}

void tri_modal_switch_controller::control(power_component& data, std::uint32_t sleep,
                                          std::uint32_t off, memory::switched_array& array,
                                          std::uint64_t period_fs) {
  m_data = &data;
  m_array = &array;
  m_sleep = sleep;
  m_off = off;
  m_period_fs = period_fs ? period_fs : 1;
  const std::uint32_t elements = data.elements();
  const std::uint64_t capacity = std::uint64_t(array.frames()) * array.line_bytes();
  m_element_bytes = std::max<std::uint64_t>(1, capacity / elements);
  if (!m_params.block)
    m_group_elements = elements;
  else if (array.sectored() || m_element_bytes >= array.line_bytes())
    m_group_elements = 1;  // a sector, or an element holding whole blocks
  else
    m_group_elements = static_cast<std::uint32_t>(array.line_bytes() / m_element_bytes);
  m_group_elements = std::max<std::uint32_t>(1, std::min(m_group_elements, elements));
  const std::uint32_t groups = (elements + m_group_elements - 1) / m_group_elements;
  m_idle_since.assign(groups, 0);
  // (1): every switch starts OFF.
  data.start_in(m_off);
  m_in_state[2] = groups;
  trace_modes();
}

std::uint32_t tri_modal_switch_controller::mode_of_group(std::uint32_t g) const {
  const std::uint32_t s = state_of_group(g);
  return s == 0 ? 0 : s == m_sleep ? 1 : 2;
}

void tri_modal_switch_controller::set_group(std::uint32_t g, std::uint32_t state,
                                            std::uint64_t at_fs) {
  --m_in_state[mode_of_group(g)];
  const std::uint32_t first = g * m_group_elements;
  const std::uint32_t last = std::min(first + m_group_elements, m_data->elements());
  if (first == 0 && last == m_data->elements())
    m_data->set_all(state, at_fs);  // a bank: O(1)
  else
    for (std::uint32_t e = first; e < last; ++e) m_data->set_state(e, state, at_fs);
  ++m_in_state[mode_of_group(g)];
  if (!m_trace_mode.empty()) m_trace_mode[g].set(mode_of_group(g));
}

void tri_modal_switch_controller::settle_group(std::uint32_t g, std::uint64_t now_fs,
                                               std::uint64_t seen_fs) {
  if (state_of_group(g) != 0 || (!m_params.block && m_input_busy)) return;
  const std::uint64_t since = m_idle_since[g];
  // (3) with the lookahead: idle for longer than `lookahead` cycles, it slept from the
  // moment its use ended; seeing queued requests only, also when the access that ended the
  // idleness was not yet queued then.
  if (now_fs <= since) return;
  const bool unseen = m_params.queued && seen_fs > since;
  if (!unseen && (now_fs - since) / m_period_fs <= m_params.lookahead) return;
  set_group(g, m_sleep, since);
  ++m_stats.sleeps;
}

std::uint64_t tri_modal_switch_controller::wake(std::uint32_t g, std::uint64_t now_fs) {
  const std::uint32_t s = state_of_group(g);
  if (s == 0) return 0;
  set_group(g, 0, now_fs);
  ++m_stats.wakes;
  return wake_cycles(s);
}

void tri_modal_switch_controller::request_arrived(std::uint64_t now_fs) {
  if (!m_data) return;
  if (!m_params.block && !m_head_failed) {
    settle_group(0, now_fs);
    const std::uint64_t w = wake(0, now_fs);  // (2)/(6): the array wakes as the request comes
    if (w) m_ready_fs = now_fs + w * m_period_fs;
    m_input_busy = true;
    trace_modes();
  }
}

void tri_modal_switch_controller::request_ready(std::uint64_t at_fs, std::uint64_t seen_fs) {
  if (!m_data || m_params.block || m_head_failed) return;
  settle_group(0, at_fs, seen_fs);
  const std::uint32_t s = state_of_group(0);
  if (s != 0) {
    const std::uint64_t w = wake_cycles(s) * m_period_fs;
    // It entered Sleep or OFF then; seeing queued requests only, it wakes once it sees this.
    const std::uint64_t since = std::max(m_data->changed_at(0), m_params.queued ? seen_fs : 0);
    // Woken ahead (dated back, as far as its last change allows) so as to be ON at at_fs.
    const std::uint64_t start = at_fs >= since + w ? at_fs - w : since;
    set_group(0, 0, start);
    ++m_stats.wakes;
    m_ready_fs = start + w;
  }
  m_input_busy = true;
  trace_modes();
}

void tri_modal_switch_controller::input_taken(std::uint64_t now_fs, bool more) {
  if (!m_data) return;
  m_head_failed = false;
  if (m_params.block) return;
  m_input_busy = more;
  m_idle_since[0] = std::max(m_idle_since[0], now_fs + m_period_fs);  // (busy this cycle)
  if (!more) schedule_settle(m_idle_since[0]);
}

void tri_modal_switch_controller::reservation_failed(std::uint32_t set, std::uint64_t now_fs) {
  if (!m_data) return;
  if (std::find(m_resq.begin(), m_resq.end(), set) == m_resq.end()) {
    if (m_resq.size() >= m_params.reservation_queue) {
      ++m_stats.resq_full;  // not recorded: the head keeps the array awake
      return;
    }
    m_resq.push_back(set);
    ++m_stats.resq_inserts;
    m_trace_resq.set(m_resq.size());
  }
  m_head_failed = true;
  if (!m_params.block) {
    m_input_busy = false;
    m_idle_since[0] = std::max(m_idle_since[0], now_fs + m_period_fs);
    schedule_settle(m_idle_since[0]);
  }
}

void tri_modal_switch_controller::filled(std::uint32_t set) {
  if (!m_data) return;
  auto it = std::find(m_resq.begin(), m_resq.end(), set);
  if (it != m_resq.end()) {
    m_resq.erase(it);
    m_trace_resq.set(m_resq.size());
  }
}

std::uint64_t tri_modal_switch_controller::access(std::uint32_t e, std::uint64_t now_fs) {
  const std::uint32_t g = group_of(e);
  settle_group(g, now_fs);
  std::uint64_t wait = wake(g, now_fs);
  if (!m_params.block) {
    // The bank began waking when the request arrived: what is left of it.
    if (wait) m_ready_fs = now_fs + wait * m_period_fs;
    wait = m_ready_fs > now_fs ? (m_ready_fs - now_fs + m_period_fs - 1) / m_period_fs : 0;
  }
  // In use for this cycle: idle from the next one.
  m_idle_since[g] = std::max(m_idle_since[g], now_fs + m_period_fs);
  if (m_params.block || !m_input_busy) schedule_settle(m_idle_since[g]);
  if (wait || m_trace_on.traced()) trace_modes();
  return wait;
}

template <class F>
void tri_modal_switch_controller::for_each_group_of_frame(std::uint32_t f, F fn) const {
  const std::uint64_t line = m_array->line_bytes(), eb = m_element_bytes;
  const std::uint64_t base = std::uint64_t(f) * line;
  for (std::uint64_t e = base / eb; e * eb < base + line && e < m_data->elements(); ++e) {
    // The 32-byte sectors of the frame this element holds.
    const std::uint64_t from = std::max(base, e * eb) - base;
    const std::uint64_t to = std::min(base + line, (e + 1) * eb) - base;
    std::uint8_t sectors = 0;
    for (std::uint64_t s = from / 32; s * 32 < to && s < 8; ++s) sectors |= std::uint8_t(1u << s);
    fn(group_of(static_cast<std::uint32_t>(e)), sectors);
  }
}

void tri_modal_switch_controller::warmed(std::uint32_t frame, std::uint64_t now_fs) {
  if (!m_data) return;
  for_each_group_of_frame(frame, [&](std::uint32_t g, std::uint8_t) {
    if (state_of_group(g) == m_off) set_group(g, m_sleep, now_fs);
  });
  trace_modes();
}

void tri_modal_switch_controller::switch_off_all(std::uint64_t now_fs) {
  if (!m_data) return;
  ++m_stats.off_signals;
  // Groups holding a dirty line sleep (their data would be lost); the lines of the others
  // are lost.
  std::vector<bool> dirty(groups(), false);
  for (std::uint32_t f = 0; f < m_array->frames(); ++f)
    if (const std::uint8_t d = m_array->dirty_sectors(f))
      for_each_group_of_frame(f, [&](std::uint32_t g, std::uint8_t sectors) {
        if (d & sectors) dirty[g] = true;
      });
  for (std::uint32_t f = 0; f < m_array->frames(); ++f) {
    bool keep = false;  // (a line with a dirty part stays whole)
    for_each_group_of_frame(f, [&](std::uint32_t g, std::uint8_t) { keep = keep || dirty[g]; });
    if (!keep && m_array->switch_off_frame(f)) ++m_stats.lines_lost;
  }
  for (std::uint32_t g = 0; g < groups(); ++g) {
    settle_group(g, now_fs);
    const std::uint32_t to = dirty[g] ? m_sleep : m_off;
    if (dirty[g]) ++m_stats.dirty_kept;
    if (state_of_group(g) == to) continue;
    set_group(g, to, now_fs);
    ++(to == m_off ? m_stats.offs : m_stats.sleeps);
  }
  m_input_busy = false;
  m_head_failed = false;
  m_resq.clear();
  m_trace_resq.set(0);
  trace_modes();
}

void tri_modal_switch_controller::settle(std::uint64_t now_fs) {
  if (!m_data) return;
  for (std::uint32_t g = 0; g < groups(); ++g) settle_group(g, now_fs);
  trace_modes();
}

void tri_modal_switch_controller::trace_modes() {
  m_trace_on.set(m_in_state[0]);
  m_trace_sleep.set(m_in_state[1]);
  m_trace_off.set(m_in_state[2]);
}

void tri_modal_switch_controller::add_traces(vcd_writer& vcd) {
  const std::string s = name();
  m_trace_on.trace(vcd, s, "groups_on", 32);
  m_trace_sleep.trace(vcd, s, "groups_sleep", 32);
  m_trace_off.trace(vcd, s, "groups_off", 32);
  m_trace_resq.trace(vcd, s, "reservation_queue", 8);
  m_traced = m_trace_on.traced() || m_trace_sleep.traced() || m_trace_off.traced();
  // Per group: mode[g] (0 ON, 1 Sleep, 2 OFF), only when a pattern names it
  // (`--trace 'l2[0].switch.mode*'`): a 4.5 MB L2 has 147,456 lines.
  if (!m_data) return;
  bool any = false;
  for (std::uint32_t g = 0; g < groups() && !any; ++g)
    any = vcd.selected_explicitly(s, "mode[" + std::to_string(g) + "]");
  if (!any) return;
  m_trace_mode.resize(groups());
  m_traced = true;
  for (std::uint32_t g = 0; g < groups(); ++g) {
    m_trace_mode[g].set(mode_of_group(g));
    if (vcd.selected_explicitly(s, "mode[" + std::to_string(g) + "]"))
      m_trace_mode[g].trace(vcd, s, "mode[" + std::to_string(g) + "]", 2);
  }
}

GPUTLM_BLOCK("tri_modal_switch_controller", tri_modal_switch_controller,
             "Snooze: the tri-modal switches of a cache's data array and their control", {});

}  // namespace gputlm::pm
