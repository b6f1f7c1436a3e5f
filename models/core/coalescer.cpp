#include "models/core/coalescer.h"

#include <algorithm>
#include <array>

namespace gputlm::core {

void coalesce(std::uint32_t arch, std::uint32_t active_mask, const std::uint64_t* addresses,
              std::uint32_t access_size, std::vector<coalesced_request>& out) {
  out.clear();
  if (access_size == 0) access_size = 4;
  std::uint32_t subwarp = 32;
  if (arch < 60) subwarp = access_size <= 4 ? 32 : access_size == 8 ? 16 : 8;

  std::size_t group_begin = 0;
  std::uint32_t group = ~0u;
  std::size_t last_hit = 0;  // the request the previous lane went to (usually this one's)
  std::uint32_t index = 0;   // position in `addresses` (active lanes only)
  auto add = [&](std::uint64_t line, std::uint8_t sectors, std::uint32_t lane) {
    if (last_hit >= group_begin && last_hit < out.size() && out[last_hit].line_address == line) {
      out[last_hit].sector_mask |= sectors;
      out[last_hit].lane_mask |= 1u << lane;
      return;
    }
    auto it = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(group_begin), out.end(),
                           [&](const coalesced_request& r) { return r.line_address == line; });
    if (it == out.end()) {
      out.push_back({line, sectors, 1u << lane, 0});
      last_hit = out.size() - 1;
    } else {
      it->sector_mask |= sectors;
      it->lane_mask |= 1u << lane;
      last_hit = static_cast<std::size_t>(it - out.begin());
    }
  };
  // Sectors s in [lo, hi] of a line, as a mask.
  auto sector_range = [](std::uint64_t lo, std::uint64_t hi) {
    return static_cast<std::uint8_t>((2u << (hi / sector_bytes)) - (1u << (lo / sector_bytes)));
  };
  for (std::uint32_t bits = active_mask; bits; bits &= bits - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(bits));
    if (lane / subwarp != group) {
      group = lane / subwarp;
      group_begin = out.size();
    }
    const std::uint64_t first = addresses[index++];
    const std::uint64_t last = first + access_size - 1;
    const std::uint64_t line0 = first & ~(line_bytes - 1);
    if ((last & ~(line_bytes - 1)) == line0) {  // within one line (the usual case)
      add(line0, sector_range(first - line0, last - line0), lane);
      continue;
    }
    // An access may straddle a line boundary (unaligned or wide): touch each line.
    for (std::uint64_t line = line0; line <= last; line += line_bytes) {
      const std::uint64_t lo = std::max(first, line) - line;
      const std::uint64_t hi = std::min(last, line + line_bytes - 1) - line;
      add(line, sector_range(lo, hi), lane);
    }
  }
  for (auto& r : out)
    r.bytes = static_cast<std::uint32_t>(__builtin_popcount(r.sector_mask) * sector_bytes);
}

std::uint32_t shared_memory_cycles(std::uint32_t active_mask, const std::uint64_t* addresses,
                                   std::uint32_t access_size, std::uint32_t banks) {
  if (active_mask == 0) return 0;
  if (access_size == 0) access_size = 4;
  if (banks == 0) banks = 1;
  if (access_size <= 4) {
    // Fast path: one word per lane; conflict-free unless a bank sees two distinct words.
    std::array<std::uint64_t, 64> word_of_bank;
    std::uint64_t seen = 0;
    const bool pow2 = (banks & (banks - 1)) == 0;  // the usual 32 banks: a mask, not a divide
    std::uint32_t index = 0;
    bool conflict = false;
    for (std::uint32_t lane = 0; lane < 32 && !conflict; ++lane) {
      if (!(active_mask >> lane & 1)) continue;
      const std::uint64_t w = addresses[index++] / 4;
      const std::uint32_t b = static_cast<std::uint32_t>(pow2 ? w & (banks - 1) : w % banks) % 64;
      if (!(seen >> b & 1)) {
        seen |= 1ull << b;
        word_of_bank[b] = w;
      } else if (word_of_bank[b] != w) {
        conflict = true;
      }
    }
    if (!conflict) return 1;
  }
  // The distinct 4-byte words of the access (at most 32 lanes x 4 words), sorted.
  std::array<std::uint64_t, 128> words;
  std::size_t n = 0;
  std::uint32_t index = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    if (!(active_mask >> lane & 1)) continue;
    const std::uint64_t a = addresses[index++];
    for (std::uint64_t w = a / 4; w <= (a + access_size - 1) / 4 && n < words.size(); ++w)
      words[n++] = w;
  }
  std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n));
  // Count distinct words per bank; the busiest bank sets the cycles.
  std::array<std::uint8_t, 64> per_bank{};
  std::uint32_t worst = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && words[k] == words[k - 1]) continue;  // same word: broadcast
    const std::uint32_t b = static_cast<std::uint32_t>(words[k] % banks) % 64;
    worst = std::max<std::uint32_t>(worst, ++per_bank[b]);
  }
  return worst;
}

}  // namespace gputlm::core
