#include "models/memory/address_decoder.h"

#include <stdexcept>

#include "models/memory/set_index.h"

namespace gputlm::memory {

partition_indexing parse_partition_indexing(const std::string& s) {
  if (s == "linear") return partition_indexing::linear;
  if (s == "xor") return partition_indexing::xor_fold;
  if (s == "ipoly") return partition_indexing::ipoly;
  if (s == "random") return partition_indexing::random;
  throw std::invalid_argument("unknown partition indexing '" + s + "'");
}

namespace {
struct parsed_map {
  std::string error;
  unsigned bit = 0;
  std::string letters;  // 64, MSB first
};

parsed_map parse(const std::string& map) {
  parsed_map p;
  std::string rest = map;
  if (rest.rfind("dramid@", 0) == 0) {
    auto semi = rest.find(';');
    if (semi == std::string::npos) {
      p.error = "'dramid@<bit>' must end with ';'";
      return p;
    }
    try {
      p.bit = static_cast<unsigned>(std::stoul(rest.substr(7, semi - 7)));
    } catch (...) {
      p.error = "'dramid@<bit>' needs a bit number";
      return p;
    }
    if (p.bit > 40) {
      p.error = "'dramid@<bit>' bit is out of range";
      return p;
    }
    rest = rest.substr(semi + 1);
  }
  for (char c : rest) {
    if (c == '.') continue;
    if (c != 'R' && c != 'B' && c != 'C' && c != 'S' && c != '0') {
      p.error = std::string("unknown bit letter '") + c + "' (use R B C S 0)";
      return p;
    }
    p.letters += c;
  }
  if (p.letters.size() != 64)
    p.error = "needs 64 bit letters, has " + std::to_string(p.letters.size());
  return p;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::string address_decoder::check(const std::string& map) { return parse(map).error; }

address_decoder::address_decoder(const std::string& map, std::uint32_t channels,
                                 std::uint32_t subs_per_channel, partition_indexing indexing)
    : m_channels(channels ? channels : 1),
      m_subs(subs_per_channel ? subs_per_channel : 1),
      m_indexing(indexing) {
  parsed_map p = parse(map);
  if (!p.error.empty()) throw std::invalid_argument(p.error);
  m_bit = p.bit;
  unsigned log2_subs = 0;
  while ((2u << log2_subs) <= m_subs) ++log2_subs;
  m_random_bit = m_bit > log2_subs ? m_bit - log2_subs : 0;
  std::uint64_t row_mask = 0, bank_mask = 0, col_mask = 0;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t b = std::uint64_t(1) << (63 - i);
    switch (p.letters[i]) {
      case 'R':
        row_mask |= b;
        break;
      case 'B':
        bank_mask |= b;
        ++m_bank_bits;
        break;
      case 'C':
        col_mask |= b;
        break;
      default:
        break;
    }
  }
  m_row = field(row_mask);
  m_bank = field(bank_mask);
  for (unsigned b = 0; b < 64 && (1u << m_sub_bits) < m_subs && m_sub_bits < 6; ++b)
    if (bank_mask >> b & 1) m_sub_bit[m_sub_bits++] = b;
  m_col = field(col_mask);
  // ipoly hashes over the next power of two (16, 32 or 64) of all sub-partitions.
  while (m_ipoly_size < m_channels * m_subs && m_ipoly_size < 64) m_ipoly_size <<= 1;
  m_ipoly = ipoly_hasher(m_ipoly_size);
}

address_decoder::field::field(std::uint64_t mask) {
  unsigned to = 0;
  for (unsigned i = 0; i < 64;) {
    if (!(mask >> i & 1)) {
      ++i;
      continue;
    }
    unsigned len = 0;
    while (i + len < 64 && (mask >> (i + len) & 1)) ++len;
    runs[count++] = {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(to),
                     len == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << len) - 1};
    to += len;
    i += len;
  }
}

std::uint32_t address_decoder::hashed_partition(std::uint64_t chunk) const {
  const std::uint32_t total = m_channels * m_subs;
  if (m_indexing == partition_indexing::ipoly) return m_ipoly(chunk) % total;
  return static_cast<std::uint32_t>(splitmix64(chunk ^ 0x5eedULL) % total);
}

std::uint32_t address_decoder::sub_partition(std::uint64_t addr) const {
  // The hashed indexings need only the chunk number; the others the bank (and row).
  if (m_indexing == partition_indexing::random) return hashed_partition(addr >> m_random_bit);
  if (m_indexing == partition_indexing::ipoly) return hashed_partition(addr >> m_bit);
  return decode(addr).sub_partition;
}

dram_address address_decoder::decode(std::uint64_t addr) const {
  dram_address d;
  const std::uint64_t low = addr & ((std::uint64_t(1) << m_bit) - 1);
  const std::uint64_t chunk = addr >> m_bit;
  d.channel = static_cast<std::uint32_t>(chunk % m_channels);
  const std::uint64_t local = ((chunk / m_channels) << m_bit) | low;
  d.bank = m_bank.gather(local);
  d.row = m_row.gather(local);
  d.column = m_col.gather(local);
  switch (m_indexing) {
    case partition_indexing::linear:
      d.sub_partition = d.channel * m_subs + d.bank % m_subs;
      break;
    case partition_indexing::xor_fold:
      d.channel = static_cast<std::uint32_t>((d.channel ^ d.row) % m_channels);
      d.sub_partition = d.channel * m_subs + d.bank % m_subs;
      break;
    case partition_indexing::ipoly:
    case partition_indexing::random:
      d.sub_partition = sub_partition(addr);
      d.channel = d.sub_partition / m_subs;
      break;
  }
  return d;
}

}  // namespace gputlm::memory
