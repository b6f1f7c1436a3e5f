#include "models/core/coalescer.h"

#include <algorithm>
#include <array>

#include "models/memory/sectors.h"
#include "traces/trace_types.h"

namespace gputlm::core {

namespace {
// Lane i's address is the first lane's plus i access sizes (the usual unit-stride access).
bool contiguous(const std::uint64_t* a, std::uint32_t size) {
  bool unit = true;
  for (std::uint32_t i = 1; i < 32; ++i) unit &= a[i] == a[0] + std::uint64_t(i) * size;
  return unit;
}
// Bits lo..hi of a 32-bit mask (lo <= hi <= 31).
std::uint32_t bits_from_to(std::uint64_t lo, std::uint64_t hi) {
  return (hi == 31 ? ~0u : (2u << hi) - 1) & ~((1u << lo) - 1);
}
// The sectors holding bytes lo..hi (offsets within one line), as a mask.
std::uint8_t sector_range(std::uint64_t lo, std::uint64_t hi) {
  return static_cast<std::uint8_t>((2u << (hi / sector_bytes)) - (1u << (lo / sector_bytes)));
}
// Whether no bank (bank(word) < 64) sees two distinct words among the lanes' first words.
template <class Bank>
bool one_word_per_bank(const std::uint64_t* addresses, std::uint32_t lanes, Bank bank) {
  std::array<std::uint64_t, 64> word_of_bank;
  std::uint64_t seen = 0;
  for (std::uint32_t i = 0; i < lanes; ++i) {  // addresses: active lanes only
    const std::uint64_t w = addresses[i] / 4;
    const std::uint64_t b = bank(w);
    const std::uint64_t bit = std::uint64_t(1) << b;
    if (!(seen & bit)) {
      seen |= bit;
      word_of_bank[b] = w;
    } else if (word_of_bank[b] != w) {
      return false;
    }
  }
  return true;
}
std::uint32_t subwarp_of(std::uint32_t arch, std::uint32_t access_size) {
  if (arch >= 60) return 32;
  return access_size <= 4 ? 32 : access_size == 8 ? 16 : 8;
}
void set_bytes(std::vector<coalesced_request>& out) {
  for (auto& r : out) r.bytes = memory::popcount8(r.sector_mask) * sector_bytes;
}
// Lane i reads [a0 + i*size, a0 + (i+1)*size): each sub-warp covers one byte range, whose
// lines come out in address order (= order of their lowest lane).
void append_contiguous(std::uint32_t subwarp, std::uint64_t a0, std::uint32_t access_size,
                       std::uint32_t segment, std::vector<coalesced_request>& out) {
  for (std::uint32_t g = 0; g < 32 / subwarp; ++g) {
    const std::uint64_t lo = a0 + std::uint64_t(g) * subwarp * access_size;
    const std::uint64_t hi = lo + std::uint64_t(subwarp) * access_size - 1;
    for (std::uint64_t seg = lo & ~std::uint64_t(segment - 1); seg <= hi; seg += segment) {
      const std::uint64_t line = seg & ~(line_bytes - 1);
      const std::uint64_t b0 = std::max(lo, seg), b1 = std::min(hi, seg + segment - 1);
      const auto l0 = static_cast<std::uint32_t>((b0 - a0) / access_size);
      const auto l1 = static_cast<std::uint32_t>((b1 - a0) / access_size);
      const std::uint32_t lanes = bits_from_to(l0, l1);
      out.push_back({line, sector_range(b0 - line, b1 - line), lanes, 0});
    }
  }
}
}  // namespace

std::uint32_t default_segment(std::uint32_t arch) { return arch >= 60 ? sector_bytes : line_bytes; }

void coalesce_contiguous(std::uint32_t arch, std::uint64_t first, std::uint32_t access_size,
                         std::vector<coalesced_request>& out, std::uint32_t segment) {
  out.clear();
  if (access_size == 0) access_size = 4;
  append_contiguous(subwarp_of(arch, access_size), first, access_size, segment, out);
  set_bytes(out);
}

void coalesce(std::uint32_t arch, std::uint32_t active_mask, const std::uint64_t* addresses,
              std::uint32_t access_size, std::vector<coalesced_request>& out,
              std::uint32_t segment) {
  out.clear();
  if (access_size == 0) access_size = 4;
  const std::uint32_t subwarp = subwarp_of(arch, access_size);

  if (active_mask == 0xffffffffu && contiguous(addresses, access_size)) {
    append_contiguous(subwarp, addresses[0], access_size, segment, out);
  } else {
    const std::uint32_t subwarp_log2 = static_cast<std::uint32_t>(__builtin_ctz(subwarp));
    std::size_t group_begin = 0;
    std::uint32_t group = ~0u;
    // The request the previous lane went to: the next lane usually touches the same segment.
    coalesced_request* cur = nullptr;
    std::uint64_t cur_seg = 0;
    const std::uint64_t seg_mask = ~std::uint64_t(segment - 1);
    std::uint32_t index = 0;  // position in `addresses` (active lanes only)
    for (std::uint32_t bits = active_mask; bits; bits &= bits - 1) {
      const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(bits));
      if (lane >> subwarp_log2 != group) {
        group = lane >> subwarp_log2;
        group_begin = out.size();
        cur = nullptr;
      }
      const std::uint64_t first = addresses[index++];
      const std::uint64_t last = first + access_size - 1;
      // Each segment the access touches (one, unless it straddles a segment boundary).
      for (std::uint64_t seg = first & seg_mask; seg <= last; seg += segment) {
        const std::uint64_t line = seg & ~(line_bytes - 1);
        const std::uint64_t lo = std::max(first, seg) - line;
        const std::uint64_t hi = std::min(last, seg + segment - 1) - line;
        if (!cur || cur_seg != seg) {
          cur = nullptr;
          cur_seg = seg;
          // A segment's request: its line, and (below a line) the segment's own sectors.
          const std::uint8_t own = segment < line_bytes ? sector_range(seg - line, seg - line + segment - 1) : 0;
          for (std::size_t k = group_begin; k < out.size(); ++k)
            if (out[k].line_address == line && (own == 0 || (out[k].sector_mask & own) != 0))
              cur = &out[k];
          if (!cur) {
            out.push_back({line, 0, 0, 0});
            cur = &out.back();
          }
        }
        cur->sector_mask |= sector_range(lo, hi);
        cur->lane_mask |= 1u << lane;
      }
    }
  }
  set_bytes(out);
}

void coalesce_atomic(std::uint32_t active_mask, const std::uint64_t* addresses,
                     std::uint32_t access_size, std::vector<coalesced_request>& out) {
  out.clear();
  if (access_size == 0) access_size = 4;
  // One key per lane and sector it touches (one, unless the access is misaligned or wider
  // than a sector): the sector's address with the lane in its five zero bits. Sorted, they
  // run by address and, within a sector, by lane: the order in which lanes join requests.
  constexpr std::size_t max_sectors_per_lane = 255 / sector_bytes + 2;  // (8-bit sizes)
  std::array<std::uint64_t, 32> first_of;                               // by lane
  std::array<std::uint64_t, 32 * max_sectors_per_lane> keys;
  std::size_t n = 0;
  std::uint32_t index = 0;  // position in `addresses` (active lanes only)
  for (std::uint32_t bits = active_mask; bits; bits &= bits - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(bits));
    const std::uint64_t first = addresses[index++];
    first_of[lane] = first;
    const std::uint64_t last = first + access_size - 1;
    for (std::uint64_t sector = first & ~(sector_bytes - 1); sector <= last && n < keys.size();
         sector += sector_bytes)
      keys[n++] = sector | lane;
  }
  std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n));
  // While a sector's lanes are placed, its requests are out[opened..]; `bytes` holds the
  // mask of the sector's bytes their lanes update (bit b: byte b of the 32).
  std::size_t opened = 0;
  std::uint64_t current = ~std::uint64_t(0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t sector = keys[i] & ~(sector_bytes - 1);
    const auto lane = static_cast<std::uint32_t>(keys[i] & (sector_bytes - 1));
    if (sector != current) {
      current = sector;
      opened = out.size();
    }
    const std::uint64_t first = first_of[lane];
    const std::uint64_t lo = std::max(first, sector) - sector;
    const std::uint64_t hi = std::min(first + access_size - 1, sector + sector_bytes - 1) - sector;
    const std::uint32_t bytes = bits_from_to(lo, hi);
    std::size_t r = opened;
    while (r < out.size() && (out[r].bytes & bytes) != 0) ++r;
    if (r == out.size()) {
      const std::uint64_t line = sector & ~(line_bytes - 1);
      out.push_back(
          {line, static_cast<std::uint8_t>(1u << ((sector - line) / sector_bytes)), 0, 0});
    }
    out[r].lane_mask |= 1u << lane;
    out[r].bytes |= bytes;
  }
  set_bytes(out);
}

std::uint32_t shared_memory_cycles(std::uint32_t active_mask, const std::uint64_t* addresses,
                                   std::uint32_t access_size, std::uint32_t banks) {
  if (active_mask == 0) return 0;
  if (access_size == 0) access_size = 4;
  if (banks == 0) banks = 1;
  if (access_size <= 4) {
    // Fast path: one word per lane; conflict-free unless a bank sees two distinct words.
    const std::uint32_t lanes = traces::lane_count(active_mask);
    // The usual 32 banks: a mask, not a divide.
    const bool conflict =
        (banks & (banks - 1)) == 0 && banks <= 64
            ? !one_word_per_bank(addresses, lanes, [m = banks - 1](std::uint64_t w) { return w & m; })
            : !one_word_per_bank(addresses, lanes,
                                 [banks](std::uint64_t w) { return w % banks % 64; });
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
