// Set-index and partition-index hash functions of GPU caches and memory partitions, as
// GPGPU-Sim names them (../shared/reference/platforms.md §3.1 field 9, §3.5
// -gpgpu_memory_partition_indexing): linear, the Fermi hash of Nugteren et al. (HPCA 2014),
// IPOLY (Rau, ISCA 1991: the block address modulo an irreducible polynomial over GF(2)) and
// bitwise XOR with the higher bits. Pure functions, no SystemC.
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

inline bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
inline unsigned log2_floor(std::uint64_t v) {  // 0 for 0
  return v > 1 ? 63u - static_cast<unsigned>(__builtin_clzll(v)) : 0u;
}

}  // namespace gputlm::memory
