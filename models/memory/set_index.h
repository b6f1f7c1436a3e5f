// Set-index and partition-index hash functions of GPU caches and memory partitions, as
// GPGPU-Sim names them (docs/references.md, "Cache configuration string", field 9, and
// "Address mapping and partition indexing"): linear, the Fermi hash of Nugteren et al.
// (HPCA 2014), IPOLY (Rau, ISCA 1991: the block address modulo an irreducible polynomial
// over GF(2)) and bitwise XOR with the higher bits. Pure functions, no SystemC.
#pragma once

#include <cstdint>
#include <string>

namespace gputlm::memory {

enum class index_function : std::uint8_t { linear, fermi_hash, ipoly, xor_fold };

index_function parse_index_function(
    const std::string& name);  // "linear", "fermi_hash", "ipoly", "xor"

// Set of `addr` in a cache of `sets` sets (power of two) and 2^line_log2-byte lines.
std::uint32_t set_index(index_function f, std::uint64_t addr, std::uint32_t sets,
                        unsigned line_log2);

// `value` modulo the fixed irreducible polynomial of degree log2(size) (size 16, 32 or 64):
// every bit of `value` contributes, so power-of-two strides spread over all sets.
std::uint32_t ipoly_hash(std::uint64_t value, std::uint32_t size);

// ipoly_hash(value, size) for one size, remembering the hash of the value's bits above the
// low 16 (for a stream of nearby addresses they rarely change): two table reads per call
// instead of one per nonzero byte.
class ipoly_hasher {
 public:
  explicit ipoly_hasher(std::uint32_t size);
  std::uint32_t operator()(std::uint64_t value) const {
    if (!m_table) return static_cast<std::uint32_t>(value & m_mask);
    const std::uint64_t high = value >> 16;
    if (high != m_high) {
      m_high = high;
      m_high_hash = 0;
      for (std::uint64_t h = high, k = 2; h != 0; ++k, h >>= 8) m_high_hash ^= m_table[k][h & 0xff];
    }
    return m_high_hash ^ m_table[0][value & 0xff] ^ m_table[1][(value >> 8) & 0xff];
  }

 private:
  const std::uint8_t (*m_table)[256] = nullptr;  // per byte position; null: not an IPOLY size
  std::uint64_t m_mask = 0;
  mutable std::uint64_t m_high = 0;
  mutable std::uint32_t m_high_hash = 0;  // of m_high (0 for 0)
};

inline bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
inline unsigned log2_floor(std::uint64_t v) {  // 0 for 0
  return v > 1 ? 63u - static_cast<unsigned>(__builtin_clzll(v)) : 0u;
}

}  // namespace gputlm::memory
