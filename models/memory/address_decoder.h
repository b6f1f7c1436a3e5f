// Physical address -> DRAM channel, memory sub-partition, bank, row and column, following
// GPGPU-Sim's -gpgpu_mem_addr_mapping string and -gpgpu_memory_partition_indexing
// (docs/references.md, "Address mapping and partition indexing"): `dramid@<bit>;` then 64
// letters, MSB first, dots ignored: R row, B bank, C column, S byte in the burst, 0 unused.
// The channel is (addr >> bit) mod channels and the quotient is stitched back under the low
// bits, which for a power-of-two count is the same as removing log2(channels) bits at
// <bit>. The sub-partition is channel x subs + bank mod subs for linear indexing; xor folds
// the row into the channel; ipoly hashes the chunk number over the next power of two (16,
// 32, 64) of all sub-partitions and reduces it modulo the real count; random uses a
// fixed-seed hash.
// Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <string>

#include "models/memory/set_index.h"

namespace gputlm::memory {

enum class partition_indexing : std::uint8_t { linear, xor_fold, ipoly, random };
partition_indexing parse_partition_indexing(const std::string& s);

struct dram_address {
  std::uint32_t channel = 0;
  std::uint32_t sub_partition = 0;  // global index: channel x subs + local
  std::uint32_t bank = 0;
  std::uint32_t row = 0;
  std::uint32_t column = 0;
};

class address_decoder {
 public:
  // Throws std::invalid_argument on a malformed map.
  address_decoder(const std::string& map, std::uint32_t channels, std::uint32_t subs_per_channel,
                  partition_indexing indexing = partition_indexing::linear);
  // An error message for a malformed map, or "" when it is fine.
  static std::string check(const std::string& map);

  dram_address decode(std::uint64_t addr) const;
  // The sub-partition alone (what the interconnect routes by).
  std::uint32_t sub_partition(std::uint64_t addr) const;
  // The address within its sub-partition: the channel's share of the interleaving chunk
  // removed (as decode() does) and then the bank bits that pick the sub-partition (the
  // lowest log2(subs) of B), as GPGPU-Sim's addrdec partition_address() computes it for the
  // L2's set index (l2_cache_config::set_index).
  std::uint64_t partition_address(std::uint64_t addr) const {
    const std::uint64_t low = addr & ((std::uint64_t(1) << m_bit) - 1);
    std::uint64_t a = (((addr >> m_bit) / m_channels) << m_bit) | low;
    for (unsigned k = m_sub_bits; k-- > 0;) {  // from the highest removed bit down
      const unsigned b = m_sub_bit[k];
      a = ((a >> (b + 1)) << b) | (a & ((std::uint64_t(1) << b) - 1));
    }
    return a;
  }
  std::uint32_t channels() const { return m_channels; }
  std::uint32_t sub_partitions() const { return m_channels * m_subs; }
  std::uint32_t banks() const { return 1u << m_bank_bits; }
  unsigned interleave_bit() const { return m_bit; }

 private:
  // The bits of a field (R, B or C) as runs of contiguous address bits, low to high, so
  // that gathering a field costs one shift-and-mask per run rather than a loop over 64 bits.
  struct field {
    struct run {
      std::uint8_t from;   // lowest address bit of the run
      std::uint8_t to;     // where it lands in the field
      std::uint64_t mask;  // (1 << length) - 1
    };
    run runs[32];
    std::uint8_t count = 0;
    explicit field(std::uint64_t mask = 0);
    std::uint32_t gather(std::uint64_t v) const {
      std::uint64_t out = 0;
      for (std::uint8_t i = 0; i < count; ++i)
        out |= (v >> runs[i].from & runs[i].mask) << runs[i].to;
      return static_cast<std::uint32_t>(out);
    }
  };
  // The sub-partition of an interleaving chunk under ipoly or random indexing.
  std::uint32_t hashed_partition(std::uint64_t chunk) const;

  std::uint32_t m_channels;
  std::uint32_t m_subs;
  partition_indexing m_indexing;
  unsigned m_bit = 0;
  // Random indexing hashes finer units than the chunk: GPGPU-Sim's RANDOM keys its table by
  // addr >> (ADDR_CHIP_S - log2(sub-partitions per channel)) (addrdec.cc), i.e. 128 B with
  // 256 B chunks and two sub-partitions.
  unsigned m_random_bit = 0;
  field m_row, m_bank, m_col;
  unsigned m_bank_bits = 0;
  // The address bits (of the address with the channel removed) that pick the sub-partition,
  // ascending.
  unsigned m_sub_bit[6] = {};
  unsigned m_sub_bits = 0;
  std::uint32_t m_ipoly_size = 16;
  ipoly_hasher m_ipoly{16};  // over m_ipoly_size
};

}  // namespace gputlm::memory
