// The busy-slot bitmap of a calendar wheel: N slots in a ring (N a multiple of 64), a bit
// per slot, and the search for the first busy slot from a starting slot, going up and
// wrapping around. Used by the edge scheduler's calendar and by timed_queue.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gputlm {

template <std::size_t N>
class ring_bitmap {
  static_assert(N % 64 == 0, "whole 64-bit words");

 public:
  void set(std::size_t slot) { m_words[slot / 64] |= std::uint64_t(1) << (slot % 64); }
  void clear(std::size_t slot) { m_words[slot / 64] &= ~(std::uint64_t(1) << (slot % 64)); }
  bool test(std::size_t slot) const { return (m_words[slot / 64] >> (slot % 64)) & 1; }
  // How many slots after `start` the first busy one lies (0: start itself), or N if none.
  std::uint64_t first_from(std::uint64_t start) const {
    for (std::uint64_t k = 0; k < N;) {
      const std::uint64_t s = (start + k) % N;
      const std::uint64_t bits = m_words[s / 64] >> (s % 64);
      if (bits) return k + static_cast<std::uint64_t>(__builtin_ctzll(bits));
      k += 64 - s % 64;  // on to the next word (the wrapped word's lower bits come last)
    }
    return N;
  }

 private:
  std::uint64_t m_words[N / 64] = {};
};

}  // namespace gputlm
