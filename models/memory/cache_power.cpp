#include "models/memory/cache_power.h"

#include <algorithm>

#include "models/common/input_error.h"

namespace gputlm::memory {
namespace {
std::uint64_t capacity_of(const cache_geometry& g) {
  return std::uint64_t(g.sets) * g.ways * g.line_size;
}

// The tag array as a tri-modal switch controller sees the lines it switches off.
class tag_view final : public pm::switched_array {
 public:
  explicit tag_view(cache_logic& logic) : m_logic(logic) {}
  std::uint32_t frames() const override {
    return static_cast<std::uint32_t>(m_logic.tags().size());
  }
  std::uint32_t line_bytes() const override { return m_logic.geometry().line_size; }
  bool sectored() const override { return m_logic.geometry().sectored; }
  std::uint8_t dirty_sectors(std::uint32_t f) const override {
    return m_logic.tags().at(static_cast<int>(f)).dirty;
  }
  bool switch_off_frame(std::uint32_t f) override {
    return m_logic.switch_off(static_cast<int>(f));
  }

 private:
  cache_logic& m_logic;
};
}  // namespace

void cache_power::control_switches(component& owner, pm::snooze_policy& policy,
                                   pm::tri_modal_switch_controller& ctrl, cache_logic& logic,
                                   bool off_when_idle) {
  if (!policy.manages(m_data))
    throw input_error(policy.spec().where, policy.spec().key,
                      policy.name() + " switches the data array of a " + owner.type() +
                          ", which the power table does not give (power.components." +
                          owner.type() + ".data)");
  m_switched = std::make_unique<tag_view>(logic);
  m_ctrl = &ctrl;
  policy.adopt(m_data, ctrl, off_when_idle);
  ctrl.control(m_data, policy.sleep_state(m_data), policy.off_state(m_data), *m_switched,
               owner.clock().period().value());
  const auto& s = ctrl.stats();
  owner.add_stat("switch.wakes", s.wakes, "switch groups woken from Sleep or OFF (Snooze)");
  owner.add_stat("switch.wake_wait_cycles", s.wake_wait_cycles,
                 "cycles accesses waited for a wake-up (Snooze)");
  owner.add_stat("switch.sleeps", s.sleeps, "switch groups put to Sleep (Snooze)");
  owner.add_stat("switch.offs", s.offs, "switch groups switched OFF (Snooze)");
  owner.add_stat("switch.off_signals", s.off_signals,
                 "switch-off signals: the SMX's TBs finished (L1), no kernel left (L2) (Snooze)");
  owner.add_stat("switch.dirty_kept", s.dirty_kept,
                 "groups left in Sleep at switch-off because they held dirty lines (Snooze)");
  owner.add_stat("switch.lines_lost", s.lines_lost,
                 "valid lines invalidated by switch-off (Snooze)");
  owner.add_stat("switch.resq_inserts", s.resq_inserts,
                 "sets entered in the reservation queue (Snooze)");
  owner.add_stat("switch.resq_full", s.resq_full,
                 "reservation fails not recorded, the reservation queue full (Snooze)");
}

cache_power::cache_power(component& owner, const cache_geometry& g)
    : m_data(owner.declare_power("data", {"read", "write"}, capacity_of(g))),
      m_line(g.line_size),
      m_element_bytes(std::max<std::uint64_t>(1, capacity_of(g) / m_data.elements())) {
  m_data.bind_counters(&m_n[data_read]);
  owner.declare_power("tag", {"lookup"}).bind_counters(&m_n[tag_lookup]);
  owner.declare_power("mshr", {"allocate", "merge"}).bind_counters(&m_n[mshr_allocate]);
  m_trace_on.set(m_data.elements());
}

void cache_power::add_traces(vcd_writer& vcd, const std::string& scope) {
  m_trace_on.trace(vcd, scope, "data_elements_on", 32);
}

std::uint64_t cache_power::access(const access_result& r, std::uint8_t sectors, bool merged) {
  ++m_n[tag_lookup];
  switch (r.kind) {
    case access_result::hit:
    case access_result::write_done: {
      const std::uint64_t wake =
          data(r.frame, sectors, r.kind == access_result::hit ? data_read : data_write);
      if (m_ctrl) m_ctrl->waited(wake);
      return wake;
    }
    case access_result::merged:
    case access_result::miss:
      ++m_n[merged ? mshr_merge : mshr_allocate];
      return 0;
    case access_result::fail:
      break;
  }
  return 0;
}

std::uint64_t cache_power::data(int frame, std::uint8_t sectors, event e) {
  if (frame < 0) return 0;  // the data array was not used (write-evict, write-around, no line)
  ++m_n[e];
  if (!m_data.gated()) return 0;
  if (sectors == 0) sectors = 0xf;
  // The elements the sectors lie in (one, for a data array that is a single element).
  const std::uint64_t now = component::now_fs();
  const std::uint64_t base = std::uint64_t(frame) * m_line;
  std::uint64_t wake = 0;
  std::uint64_t last = ~std::uint64_t(0);
  for (std::uint32_t s = 0; s < 4; ++s) {
    if (!(sectors & (1u << s)) || s * 32 >= m_line) continue;
    const std::uint64_t el = (base + s * 32) / m_element_bytes;
    if (el == last) continue;
    last = el;
    wake = std::max(wake, m_data.access(static_cast<std::uint32_t>(el), now));
  }
  m_trace_on.set(m_data.in_state(0));
  return wake;
}

}  // namespace gputlm::memory
