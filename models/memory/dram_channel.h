// One DRAM channel (memory controller) with its banks, row buffers and FR-FCFS scheduler,
// serving the L2 banks of its sub-partitions. Timing names and units follow GPGPU-Sim's
// -gpgpu_dram_timing_opt (DRAM command-clock cycles) and address-mapping string
// (../shared/reference/platforms.md §3.5). Sockets: `l2[i]` (target), one per sub-partition.
#pragma once

#include <memory>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "models/common/component.h"

namespace gputlm::memory {

class dram_channel : public component {
 public:
  using socket_type = tlm_utils::simple_target_socket_tagged<dram_channel>;

  dram_channel(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  std::vector<std::unique_ptr<socket_type>> l2;

  // Peak bandwidth in bytes/s: chips x bus_width x data_rate x clock.
  double peak_bandwidth() const;

 private:
  param<std::uint64_t> m_sub_partitions{*this, "sub_partitions", 2,
                                        "L2 sub-partitions served (one socket each)"};
  choice_param m_kind{*this, "kind", "gddr5", "DRAM technology",
                      {"gddr5", "gddr5x", "hbm2", "ddr3"}};
  param<std::uint64_t> m_chips{*this, "chips", 2, "chips per channel"};
  param<bytes> m_bus_width{*this, "bus_width", {4}, "data bus width per chip"};
  param<std::uint64_t> m_burst_length{*this, "burst_length", 8, "transfers per column access"};
  param<std::uint64_t> m_data_rate{*this, "data_rate", 4,
                                   "transfers per command clock (2 DDR, 4 QDR)"};
  param<std::uint64_t> m_banks{*this, "banks", 16, "banks per channel"};
  param<std::uint64_t> m_bank_groups{*this, "bank_groups", 1, "bank groups (power of two)"};
  param<cycles> m_tCCD{*this, "tCCD", {2}, "column to column"};
  param<cycles> m_tRRD{*this, "tRRD", {6}, "activate to activate, different banks"};
  param<cycles> m_tRCD{*this, "tRCD", {12}, "activate to column"};
  param<cycles> m_tRAS{*this, "tRAS", {28}, "activate to precharge"};
  param<cycles> m_tRP{*this, "tRP", {12}, "precharge"};
  param<cycles> m_tRC{*this, "tRC", {40}, "row cycle"};
  param<cycles> m_CL{*this, "CL", {12}, "read (CAS) latency"};
  param<cycles> m_WL{*this, "WL", {4}, "write latency"};
  param<cycles> m_tCDLR{*this, "tCDLR", {5}, "last write data to read"};
  param<cycles> m_tWR{*this, "tWR", {12}, "last write data to precharge"};
  param<cycles> m_tCCDL{*this, "tCCDL", {0}, "column to column in one bank group"};
  param<cycles> m_tRTPL{*this, "tRTPL", {0}, "read to precharge with bank groups"};
  choice_param m_scheduler{*this, "scheduler", "fr_fcfs", "request scheduling",
                           {"fr_fcfs", "fifo"}};
  param<std::uint64_t> m_queue_depth{*this, "queue_depth", 16, "scheduler queue entries"};
  param<std::uint64_t> m_return_queue{*this, "return_queue", 116, "return queue entries"};
  param<bool> m_dual_bus{*this, "dual_bus", false,
                         "separate row and column command buses (HBM)"};
  param<bool> m_separate_write_queue{*this, "separate_write_queue", false,
                                     "writes queued apart and drained by watermarks"};
  list_param m_write_queue{*this, "write_queue", {32, 28, 16},
                           "size, high watermark, low watermark"};
  choice_param m_bank_indexing{*this, "bank_indexing", "plain", "bank bits",
                               {"plain", "xor"}};
  choice_param m_bank_group_indexing{*this, "bank_group_indexing", "high_bits",
                                     "bank-group bits", {"high_bits", "low_bits"}};
  param<std::string> m_address_map{
      *this, "address_map",
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
      "GPGPU-Sim address mapping: R row, B bank, C column, S burst, 0 unused"};
};

}  // namespace gputlm::memory
