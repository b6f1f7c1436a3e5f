// A clock domain: the period every block in it counts cycles with, and the supply voltage.
// No sc_clock ticks: blocks ask the domain when their next activation is due and sleep
// until then. The period can change at run time (DVFS): the new period takes effect at
// the next edge of the old one, and cycle numbering continues across the change.
// Time resolution is 1 fs so that periods like 1/700MHz stay exact to 1e-6.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

namespace gputlm {

class edge_scheduler;

// One operating point a domain's regulator can set (a P-state): frequency and supply.
struct pstate {
  double hz = 0;
  double volts = 1;
};

class clock_domain {
 public:
  clock_domain(std::string name, double hz, double volts);
  ~clock_domain();
  clock_domain(const clock_domain&) = delete;
  clock_domain& operator=(const clock_domain&) = delete;

  const std::string& name() const { return m_name; }
  double frequency() const { return m_hz; }
  double voltage() const { return m_volts; }
  sc_core::sc_time period() const { return fs(m_period_fs); }
  // Whole cycles of the current period in a delay (a target's annotated delay, say).
  std::uint64_t cycles_in(const sc_core::sc_time& d) const { return d.value() / m_period_fs; }

  // Cycle counting. A cycle n starts at edge n; edge 0 is at time 0.
  std::uint64_t cycle_at(const sc_core::sc_time& t) const { return cycle_at_fs(t.value()); }
  std::uint64_t next_cycle_at(const sc_core::sc_time& t) const {
    return next_cycle_at_fs(t.value());
  }
  sc_core::sc_time edge_time(std::uint64_t cycle) const { return fs(edge_fs(cycle)); }
  // The same in femtoseconds (the kernel's resolution), without building sc_time values.
  std::uint64_t cycle_at_fs(std::uint64_t v) const {  // last edge at or before v
    if (v < m_epoch_fs) return m_epoch_cycle;  // before the last change: not asked in practice
    return m_epoch_cycle + (v - m_epoch_fs) / m_period_fs;
  }
  std::uint64_t next_cycle_at_fs(std::uint64_t v) const {  // first edge at or after v
    if (v <= m_epoch_fs) return m_epoch_cycle;
    return m_epoch_cycle + (v - m_epoch_fs + m_period_fs - 1) / m_period_fs;
  }
  std::uint64_t edge_fs(std::uint64_t cycle) const {
    if (cycle < m_epoch_cycle) cycle = m_epoch_cycle;
    return m_epoch_fs + (cycle - m_epoch_cycle) * m_period_fs;
  }
  // The current simulation time in fs. While the edge dispatcher runs (every block
  // activation) it is the dispatcher's instant, read without asking the kernel. The
  // dispatcher may run instants ahead of the kernel's time while no SystemC process is due
  // before them (edge_scheduler.h): the kernel's time then lags, and outside the dispatcher
  // now is the later of the two (a SystemC process never runs before an instant already
  // run; after the last one, the simulation's end is that instant).
  static std::uint64_t now_fs() {
    if (s_dispatch_fs != ~std::uint64_t(0)) return s_dispatch_fs;
    const std::uint64_t kernel = sc_core::sc_time_stamp().value();
    return kernel > s_horizon_fs ? kernel : s_horizon_fs;
  }
  // A notification of a SystemC event or PEQ for the absolute time `fs` (not before now):
  // the delay from the kernel's own time, which lags now while the dispatcher runs ahead.
  // Zero (a delta notification) for now when the kernel is not behind.
  static sc_core::sc_time kernel_delay_to(std::uint64_t fs) {
    s_kernel_notified = true;  // (the dispatcher asks the kernel again before running ahead)
    return sc_core::sc_time::from_value(fs - sc_core::sc_time_stamp().value());
  }
  // The same for a delay annotated from now (TLM's local time).
  static sc_core::sc_time kernel_delay(const sc_core::sc_time& from_now) {
    return kernel_delay_to(now_fs() + from_now.value());
  }
  // The current cycle; remembered for the current time, which many blocks ask for.
  std::uint64_t now_cycle() const {
    const std::uint64_t v = now_fs();
    if (v != m_now_fs) {
      m_now_fs = v;
      m_now_cycle = cycle_at_fs(v);
      m_now_on_edge = edge_fs(m_now_cycle) == v;
    }
    return m_now_cycle;
  }
  // Whether now is an edge of this domain (now_cycle()'s edge, not a time after it).
  bool now_on_edge() const {
    now_cycle();
    return m_now_on_edge;
  }
  // The first edge at or after now (now_cycle() when now is an edge).
  std::uint64_t next_cycle() const { return next_cycle_at_fs(now_fs()); }
  // Time from now until `n` cycles after the next edge (n = 0: the next edge itself,
  // or now when now is an edge). (A SystemC event is notified with kernel_delay() of it.)
  sc_core::sc_time delay_cycles(std::uint64_t n) const;

  // DVFS: change frequency and voltage at the current simulation time.
  void set_operating_point(double hz, double volts);
  // The P-states a regulator may set (`clocks.<d>.pstates`, highest frequency first; the
  // elaborated point is one of them), empty when the platform lists none.
  const std::vector<pstate>& pstates() const { return m_pstates; }
  // The index of the domain's current point among its P-states (equal to 1e-9 relative),
  // pstates().size() when it is none of them.
  std::size_t own_pstate() const;
  void set_pstates(std::vector<pstate> p) { m_pstates = std::move(p); }
  // Called after every change, with the domain (for energy accounting, tracing...).
  void on_change(std::function<void(const clock_domain&)> listener) {
    m_listeners.push_back(std::move(listener));
  }

  // The domain's activation calendar (edge_scheduler.h), made on first use.
  edge_scheduler& scheduler();

  // Sets the kernel's time resolution to 1 fs; idempotent, call before any sc_time.
  static void init_time_resolution();

 private:
  friend class edge_dispatcher;
  static inline std::uint64_t s_dispatch_fs = ~std::uint64_t(0);  // see now_fs()
  static inline std::uint64_t s_horizon_fs = 0;  // the last instant the dispatcher ran
  static inline bool s_kernel_notified = false;  // kernel_delay_to() was asked
  static sc_core::sc_time fs(std::uint64_t v) {
    return sc_core::sc_time::from_value(v);  // resolution is 1 fs
  }
  static std::uint64_t period_fs_of(double hz);

  std::string m_name;
  double m_hz;
  double m_volts;
  std::uint64_t m_period_fs;
  std::uint64_t m_epoch_fs = 0;     // time of edge m_epoch_cycle
  std::uint64_t m_epoch_cycle = 0;  // cycles before the current period began
  mutable std::uint64_t m_now_fs = ~std::uint64_t(0);  // now_cycle()'s last answer
  mutable std::uint64_t m_now_cycle = 0;
  mutable bool m_now_on_edge = false;
  std::vector<std::function<void(const clock_domain&)>> m_listeners;
  std::vector<pstate> m_pstates;
  std::unique_ptr<edge_scheduler> m_scheduler;
};

}  // namespace gputlm
