#include "models/core/scoreboard.h"

namespace gputlm::core {

void scoreboard::resize(std::size_t slots) {
  m_ready.assign(slots, reg_file{});
  m_used.assign(slots, 0);
}

void scoreboard::clear(std::uint32_t slot) {
  std::fill_n(m_ready[slot].begin(), m_used[slot], 0);
  m_used[slot] = 0;
}

}  // namespace gputlm::core
