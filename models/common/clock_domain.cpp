#include "models/common/clock_domain.h"

#include <cmath>
#include <stdexcept>

#include "models/common/edge_scheduler.h"

namespace gputlm {

using sc_core::sc_time;

void clock_domain::init_time_resolution() {
  static bool done = false;
  if (done) return;
  done = true;
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
}

std::uint64_t clock_domain::period_fs_of(double hz) {
  if (!(hz > 0)) throw std::invalid_argument("clock frequency must be positive");
  double fs = std::llround(1e15 / hz);
  return fs < 1 ? 1 : static_cast<std::uint64_t>(fs);
}

clock_domain::clock_domain(std::string name, double hz, double volts)
    : m_name(std::move(name)), m_hz(hz), m_volts(volts), m_period_fs(period_fs_of(hz)) {}

clock_domain::~clock_domain() = default;

edge_scheduler& clock_domain::scheduler() {
  if (!m_scheduler) m_scheduler = std::make_unique<edge_scheduler>(*this);
  return *m_scheduler;
}

sc_time clock_domain::delay_cycles(std::uint64_t n) const {
  const std::uint64_t now = now_fs();
  return fs(edge_fs(next_cycle_at_fs(now) + n) - now);
}

std::size_t clock_domain::own_pstate() const {
  for (std::size_t k = 0; k < m_pstates.size(); ++k)
    if (std::fabs(m_pstates[k].hz - m_hz) <= 1e-9 * m_hz &&
        std::fabs(m_pstates[k].volts - m_volts) <= 1e-9 * m_volts)
      return k;
  return m_pstates.size();
}

void clock_domain::set_operating_point(double hz, double volts) {
  std::uint64_t edge = next_cycle_at_fs(now_fs());
  m_epoch_fs = edge_time(edge).value();
  m_epoch_cycle = edge;
  m_hz = hz;
  m_volts = volts;
  m_period_fs = period_fs_of(hz);
  m_now_fs = ~std::uint64_t(0);
  if (m_scheduler) m_scheduler->period_changed();
  for (auto& l : m_listeners) l(*this);
}

}  // namespace gputlm
