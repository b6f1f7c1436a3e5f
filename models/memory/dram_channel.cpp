#include "models/memory/dram_channel.h"

namespace gputlm::memory {

dram_channel::dram_channel(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  for (std::uint64_t i = 0; i < *m_sub_partitions; ++i) {
    l2.push_back(std::make_unique<socket_type>(("l2_" + std::to_string(i)).c_str()));
    declare_socket("l2[" + std::to_string(i) + "]", *l2.back());
  }
}

double dram_channel::peak_bandwidth() const {
  return double(*m_chips) * double(m_bus_width->value) * double(*m_data_rate) *
         clock().frequency();
}

void dram_channel::validate() {
  auto power_of_two = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  m_sub_partitions.require(*m_sub_partitions >= 1, "must be at least 1");
  m_chips.require(*m_chips >= 1, "must be at least 1");
  m_burst_length.require(*m_burst_length >= 1, "must be at least 1");
  m_data_rate.require(*m_data_rate >= 1, "must be at least 1");
  m_banks.require(*m_banks >= 1 && *m_banks % *m_sub_partitions == 0,
                  "must be a positive multiple of sub_partitions");
  m_bank_groups.require(power_of_two(*m_bank_groups) && *m_banks % *m_bank_groups == 0,
                        "must be a power of two dividing banks");
  m_queue_depth.require(*m_queue_depth >= 1, "must be at least 1");
  m_return_queue.require(*m_return_queue >= 1, "must be at least 1");
  m_write_queue.require(m_write_queue->size() == 3 && (*m_write_queue)[1] <= (*m_write_queue)[0] &&
                            (*m_write_queue)[2] <= (*m_write_queue)[1],
                        "needs [size, high, low] with low <= high <= size");

  // Address map: optional "dramid@<bit>;" then 64 bit letters (dots ignored).
  std::string map = *m_address_map;
  if (map.rfind("dramid@", 0) == 0) {
    auto semi = map.find(';');
    m_address_map.require(semi != std::string::npos, "'dramid@<bit>' must end with ';'");
    map = map.substr(semi + 1);
  }
  std::string bits;
  for (char c : map) {
    if (c == '.') continue;
    m_address_map.require(c == 'R' || c == 'B' || c == 'C' || c == 'S' || c == '0' || c == 'D',
                          std::string("unknown bit letter '") + c + "' (use R B C S 0 D)");
    bits += c;
  }
  m_address_map.require(bits.size() == 64,
                        "needs 64 bit letters, has " + std::to_string(bits.size()));
}

}  // namespace gputlm::memory
