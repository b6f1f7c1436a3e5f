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
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t b = std::uint64_t(1) << (63 - i);
    switch (p.letters[i]) {
      case 'R':
        m_row_mask |= b;
        break;
      case 'B':
        m_bank_mask |= b;
        ++m_bank_bits;
        break;
      case 'C':
        m_col_mask |= b;
        break;
      default:
        break;
    }
  }
}

std::uint32_t address_decoder::gather(std::uint64_t v, std::uint64_t mask) {
  std::uint32_t out = 0;
  unsigned k = 0;
  for (unsigned i = 0; i < 64; ++i) {
    if (mask >> i & 1) {
      out |= static_cast<std::uint32_t>((v >> i & 1) << k);
      ++k;
    }
  }
  return out;
}

dram_address address_decoder::decode(std::uint64_t addr) const {
  dram_address d;
  const std::uint64_t low = addr & ((std::uint64_t(1) << m_bit) - 1);
  const std::uint64_t chunk = addr >> m_bit;
  d.channel = static_cast<std::uint32_t>(chunk % m_channels);
  const std::uint64_t local = ((chunk / m_channels) << m_bit) | low;
  d.bank = gather(local, m_bank_mask);
  d.row = gather(local, m_row_mask);
  d.column = gather(local, m_col_mask);
  const std::uint32_t total = m_channels * m_subs;
  switch (m_indexing) {
    case partition_indexing::linear:
      d.sub_partition = d.channel * m_subs + d.bank % m_subs;
      break;
    case partition_indexing::xor_fold:
      d.channel = static_cast<std::uint32_t>((d.channel ^ d.row) % m_channels);
      d.sub_partition = d.channel * m_subs + d.bank % m_subs;
      break;
    case partition_indexing::ipoly: {
      std::uint32_t size = 16;
      while (size < total && size < 64) size <<= 1;
      d.sub_partition = ipoly_hash(chunk, size) % total;
      d.channel = d.sub_partition / m_subs;
      break;
    }
    case partition_indexing::random:
      d.sub_partition = static_cast<std::uint32_t>(splitmix64(chunk ^ 0x5eedULL) % total);
      d.channel = d.sub_partition / m_subs;
      break;
  }
  return d;
}

}  // namespace gputlm::memory
