#include "models/memory/set_index.h"

#include <stdexcept>

namespace gputlm::memory {

index_function parse_index_function(const std::string& name) {
  if (name == "linear") return index_function::linear;
  if (name == "fermi_hash") return index_function::fermi_hash;
  if (name == "ipoly") return index_function::ipoly;
  if (name == "xor") return index_function::xor_fold;
  throw std::invalid_argument("unknown index function '" + name + "'");
}

namespace {
// Irreducible polynomials (bit i = coefficient of x^i): x^4+x+1, x^5+x^2+1, x^6+x+1.
constexpr std::uint64_t k_polys[3] = {0x13, 0x25, 0x43};

// value mod poly over GF(2), one bit at a time.
std::uint32_t reduce_bitwise(std::uint64_t value, std::uint64_t poly, unsigned degree) {
  for (int bit = 63; bit >= static_cast<int>(degree); --bit)
    if (value >> bit & 1) value ^= poly << (bit - degree);
  return static_cast<std::uint32_t>(value);
}

// The reduction is linear over GF(2): value mod P is the XOR of (byte_k << 8k) mod P over
// the eight bytes of value, read from a table per polynomial.
struct ipoly_tables {
  std::uint8_t t[3][8][256];
  ipoly_tables() {
    for (unsigned p = 0; p < 3; ++p)
      for (unsigned k = 0; k < 8; ++k)
        for (unsigned v = 0; v < 256; ++v)
          t[p][k][v] = static_cast<std::uint8_t>(
              reduce_bitwise(std::uint64_t(v) << (8 * k), k_polys[p], 4 + p));
  }
};

const ipoly_tables& tables() {
  static const ipoly_tables t;
  return t;
}
}  // namespace

ipoly_hasher::ipoly_hasher(std::uint32_t size) : m_mask(size - 1) {
  const unsigned degree = log2_floor(size);
  if (degree >= 4 && degree <= 6) m_table = tables().t[degree - 4];
}

std::uint32_t ipoly_hash(std::uint64_t value, std::uint32_t size) {
  const unsigned degree = log2_floor(size);
  if (degree < 4 || degree > 6) return static_cast<std::uint32_t>(value & (size - 1));
  const auto& t = tables().t[degree - 4];
  std::uint32_t h = 0;
  for (unsigned k = 0; value != 0; ++k, value >>= 8) h ^= t[k][value & 0xff];  // zero bytes add 0
  return h;
}

std::uint32_t set_index(index_function f, std::uint64_t addr, std::uint32_t sets,
                        unsigned line_log2) {
  const std::uint64_t block = addr >> line_log2;
  const std::uint32_t mask = sets - 1;
  switch (f) {
    case index_function::linear:
      return static_cast<std::uint32_t>(block & mask);
    case index_function::fermi_hash: {
      // Nugteren et al.: address bits 7..11 XOR bits 13, 14, 15, 17, 19; 64 sets prepend bit 12.
      std::uint32_t lower = static_cast<std::uint32_t>(addr >> 7) & 0x1f;
      std::uint32_t upper = static_cast<std::uint32_t>((addr >> 13) & 0x7) |
                            static_cast<std::uint32_t>(((addr >> 17) & 1) << 3) |
                            static_cast<std::uint32_t>(((addr >> 19) & 1) << 4);
      std::uint32_t s = lower ^ upper;
      if (sets == 64) s |= static_cast<std::uint32_t>((addr >> 12) & 1) << 5;
      return s & mask;
    }
    case index_function::ipoly:
      return ipoly_hash(block, sets);
    case index_function::xor_fold: {
      unsigned bits = log2_floor(sets);
      return static_cast<std::uint32_t>((block ^ (block >> bits)) & mask);
    }
  }
  return 0;
}

}  // namespace gputlm::memory
