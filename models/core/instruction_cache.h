// The SMX's L1 instruction cache (L1I) with its MSHR, after GPGPU-Sim's read-only m_L1I
// (shader.cc fetch(), -gpgpu_cache:il1 sets:line:ways, MSHR entries:merges): the fetch unit
// looks up the line of a warp's next PC (PROGRAM_MEM_START + PC); a hit fills the warp's
// instruction buffer, a miss parks the warp until the line returns from L2. Lines are
// allocated when their fill arrives (the il1 string's `f`), LRU. A line already missing takes
// up to `mshr_merge` warps; with every MSHR entry busy the fetch fails and the warp waits for
// the next fill. The fetch-unit list of Slumber (Tripathy's thesis §6.3.3: the start PCs of
// the L1I's lines) is contains().
//
// The cache's state only: the SMX sends the miss and hands back the fill.
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/stats.h"

namespace gputlm::core {

class instruction_cache {
 public:
  enum class outcome : std::uint8_t {
    hit,
    merged,            // the line is already missing: the warp waits for its fill
    miss,              // a new miss: the caller sends it; the warp waits for its fill
    reservation_fail,  // every MSHR entry busy (or the line's merges full): wait for a fill
  };

  void configure(std::uint32_t sets, std::uint32_t ways, std::uint32_t line_bytes,
                 std::uint32_t mshr_entries, std::uint32_t mshr_merge);
  std::uint32_t line_bytes() const { return m_line_bytes; }
  std::uint64_t line_of(std::uint64_t addr) const { return addr / m_line_bytes * m_line_bytes; }

  // Warp slot `warp` fetches at code address `addr`.
  outcome access(std::uint64_t addr, std::uint32_t warp);
  // Whether the line holding `addr` is in the cache (the fetch-unit list).
  bool contains(std::uint64_t addr) const;
  // The line `line` arrives: it replaces its set's least recently used line, and `wake(warp)`
  // is called for every warp that waited for it, then for every warp that failed to reserve.
  template <class Wake>
  void fill(std::uint64_t line, Wake&& wake) {
    insert(line);
    for (std::size_t e = 0; e < m_mshr.size(); ++e) {
      if (!m_mshr[e].busy || m_mshr[e].line != line) continue;
      m_mshr[e].busy = false;
      for (std::uint32_t w : m_mshr[e].warps) wake(w);
      m_mshr[e].warps.clear();
    }
    for (std::uint32_t w : m_retry) wake(w);  // (wake must not fetch: nothing joins m_retry)
    m_retry.clear();
  }
  // Lines missing now.
  std::uint32_t outstanding() const;

  counter accesses, hits, misses, merged, reservation_fails;

 private:
  struct line_state {
    std::uint64_t tag = 0;   // line address
    std::uint64_t used = 0;  // LRU stamp
    bool valid = false;
  };
  struct mshr_entry {
    bool busy = false;
    std::uint64_t line = 0;
    std::vector<std::uint32_t> warps;
  };
  void insert(std::uint64_t line);
  std::uint32_t set_of(std::uint64_t line) const {
    return static_cast<std::uint32_t>((line / m_line_bytes) % m_sets);
  }

  std::uint32_t m_sets = 4, m_ways = 4, m_line_bytes = 128, m_merge = 32;
  std::uint64_t m_clock = 0;        // LRU stamps
  std::vector<line_state> m_lines;  // set-major
  std::vector<mshr_entry> m_mshr;
  std::vector<std::uint32_t> m_retry;  // warps that failed to reserve
};

}  // namespace gputlm::core
