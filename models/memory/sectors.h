// 32-byte sectors of a cache line, as a bit mask (bit i: sector i), shared by the L1 and
// L2 banks: the sectors a payload touches, and how many a mask holds.
#pragma once

#include <cstdint>
#include <tlm>

namespace gputlm::memory {

// The sectors of its line that `gp` touches (address and length; at least one byte).
inline std::uint8_t sectors_of(const tlm::tlm_generic_payload& gp, std::uint32_t line_size) {
  const std::uint64_t off = gp.get_address() & (line_size - 1);
  const std::uint64_t len = gp.get_data_length() ? gp.get_data_length() : 1;
  std::uint8_t m = 0;
  for (std::uint64_t s = off / 32; s <= (off + len - 1) / 32 && s < 8; ++s)
    m |= std::uint8_t(1u << s);
  return m;
}

// Sectors in a mask. (Bit arithmetic: without -mpopcnt, __builtin_popcount is a call into
// libgcc, and this runs for every fill and write-back.)
inline unsigned popcount8(std::uint8_t v) {
  unsigned x = v;
  x = x - ((x >> 1) & 0x55u);
  x = (x & 0x33u) + ((x >> 2) & 0x33u);
  return (x + (x >> 4)) & 0x0fu;
}

}  // namespace gputlm::memory
