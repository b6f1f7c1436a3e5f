// One DRAM channel (memory controller) with its banks, row buffers and request chooser,
// serving the L2 banks of its sub-partitions. Timing names and units follow GPGPU-Sim's
// -gpgpu_dram_timing_opt (DRAM command-clock cycles) and address-mapping string
// (docs/references.md, "DRAM timing options" and "Address mapping and partition indexing");
// the banks and timing are dram_engine, which request each command serves its chooser
// (dram_chooser.h, `scheduler: fr_fcfs | fcfs`).
//
// A request (a fill or a write-back from an L2 bank) is decoded into bank, row and column,
// needs ceil(length / atom) column accesses (atom = burst_length x bus_width x chips; with
// `sector_atoms`, a read takes one per 32-byte sector, at least an atom each, as GPGPU-Sim
// sends an L2 miss to DRAM one sector per request: Fermi's 64-byte GDDR5 atom then carries
// 32; a write-back is one request of its modified sectors, ceil(32 x sectors / atom)), and
// waits in the scheduler queue (queue_depth entries shared by all sub-partitions; END_REQ
// is withheld while it is full). Its BEGIN_RESP leaves when its last data beat has crossed
// the bus. The channel sleeps while its queue is empty. Reads and writes share the queue:
// GPGPU-Sim's separate write queue with watermark drain (-dram_seperate_write_queue_enable,
// -dram_write_queue_size) is not modelled. The DRAM technology is set by the timings and
// widths; it has no key of its own.
// Waveforms: `queue`, `busy`, `bank[k].open_row` (changes at each ACT and PRE; all ones =
// closed), `bytes` (cumulative, one atom at the end of each column access's data transfer)
// and `data_bus` (1 while data is on the bus); docs/waveforms.md.
// Sockets: `l2[i]` (target), one per sub-partition. Port: `events` (observers, dram_events.h).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

#include "models/common/component.h"
#include "models/common/wakeup.h"
#include "models/memory/address_decoder.h"
#include "models/memory/dram_chooser.h"
#include "models/memory/dram_engine.h"
#include "models/memory/dram_events.h"
#include "models/memory/fifo.h"
#include "models/memory/tlm_channels.h"
#include "models/power/power_component.h"

namespace gputlm::memory {

class dram_channel : public component {
 public:
  using socket_type = tlm_utils::simple_target_socket_tagged<dram_channel>;

  SC_HAS_PROCESS(dram_channel);
  dram_channel(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;
  // Closes the time-weighted occupancy histograms at the last activity.
  void end_of_simulation() override { sample_queue(clock().now_cycle()); }

  std::vector<std::unique_ptr<socket_type>> l2;
  // The observation point: each request queued and served (dram_events.h).
  observers<dram_events> events{"events"};

  // Peak bandwidth in bytes/s: chips x bus_width x data_rate x clock.
  double peak_bandwidth() const;
  // Bytes moved per column access.
  std::uint64_t atom() const { return m_atom; }
  const dram_engine& scheduler() const { return *m_sched; }
  const address_decoder& decoder() const { return *m_decoder; }
  bool busy() const { return !m_sched->empty() || !m_done.empty(); }

  struct statistics {
    counter reads, writes, row_hits, row_misses, bytes, requested_bytes;
    std::uint64_t latency_sum = 0;  // cycles from arrival to last data beat
    std::uint64_t queueing_sum = 0;  // cycles from arrival to the first command
    std::uint64_t first_cycle = ~std::uint64_t(0), last_cycle = 0;
    histogram queue_occupancy{1, 1};
  };
  const statistics& stats_view() const { return m_stats_v; }
  // Bytes per second between the first arrival and the last data beat.
  double achieved_bandwidth() const;

 private:
  tlm::tlm_sync_enum l2_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                           sc_core::sc_time& t);
  void accept(int id, tlm::tlm_generic_payload& gp, std::uint64_t now);
  void run();
  void wake_at(std::uint64_t cycle);
  void sample_queue(std::uint64_t now);
  // Waveforms only: records the row and column commands the scheduler just issued, and
  // (trace_bus, its own process) steps `bytes` and `data_bus` when each burst's data moves.
  void trace_commands();
  void trace_bus();

  std::uint64_t m_sub_partitions = 0;  // L2 sub-partitions served: as many as bound (l2[i])
  param<std::uint64_t> m_channels{*this, "channels", 1,
                                  "channels in the chip (to strip the channel bits of an address)"};
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
  strategy_choice<dram_chooser> m_chooser{
      *this, "scheduler", "fr_fcfs", "DRAM request chooser",
      "which queued request each command serves "
      "(dram_chooser.h: fr_fcfs, fcfs; clams_chooser.h: clams, clams_dynamic)"};
  param<std::uint64_t> m_queue_depth{*this, "queue_depth", 16, "scheduler queue entries"};
  param<bool> m_sector_atoms{*this, "sector_atoms", false,
                             "each 32-byte sector of a read is a column access of its own "
                             "(GPGPU-Sim's one DRAM request per L2 sector; a 64-byte atom then "
                             "moves 32 useful bytes); a write-back one request of its sectors"};
  param<std::uint64_t> m_return_queue{*this, "return_queue", 116, "return queue entries"};
  param<bool> m_dual_bus{*this, "dual_bus", false, "separate row and column command buses (HBM)"};
  choice_param m_bank_indexing{*this, "bank_indexing", "plain", "bank bits", {"plain", "xor"}};
  choice_param m_bank_group_indexing{
      *this, "bank_group_indexing", "high_bits", "bank-group bits", {"high_bits", "low_bits"}};
  param<std::string> m_address_map{
      *this, "address_map",
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
      "GPGPU-Sim address mapping: R row, B bank, C column, S burst, 0 unused"};

  std::unique_ptr<dram_engine> m_sched;
  std::unique_ptr<address_decoder> m_decoder;
  std::uint64_t m_atom = 0;  // burst_length x bus_width x chips (from the parameters, once)
  std::uint32_t m_bank_count = 1;  // banks, and bank_indexing == xor (read per request)
  bool m_xor_banks = false;
  struct waiting {
    tlm::tlm_generic_payload* gp;
    dram_engine::request req;  // as queued (arrival, bank, row, requester)
  };
  std::vector<waiting> m_arrival;                 // by scheduler tag
  std::vector<tlm::tlm_generic_payload*> m_held;  // per socket: BEGIN_REQ waiting for room
  std::uint32_t m_held_rr = 0;
  struct done {
    std::uint64_t at;
    tlm::tlm_generic_payload* gp;
    int port;
  };
  fifo<done> m_done{16};
  std::vector<response_channel> m_up;
  std::vector<dram_engine::completion> m_completions;
  std::vector<int> m_port_of;  // socket of each in-flight request, by slot
  std::vector<std::uint32_t> m_free_slots;
  wakeup m_wake;
  std::uint64_t m_next_response = 0;

  statistics m_stats_v;
  std::uint64_t m_sampled_at = 0;
  std::size_t m_last_queue = 0;
  traced_value m_trace_queue;
  traced_value m_trace_busy;

  // Power (docs/power.md): the DRAM devices of the channel; static power is the background
  // power, events are row commands and data bursts (one per atom).
  enum power_event : std::uint32_t { activate_event, precharge_event, read_event, write_event };
  pm::power_component& m_power =
      declare_power("device", {"activate", "precharge", "read", "write"});
  std::uint64_t m_power_acts = 0, m_power_pres = 0;
  static constexpr std::uint64_t k_row_closed = 0xffffffffu;  // bank[k].open_row of a closed bank
  std::vector<traced_value> m_trace_open_row;                 // per bank
  traced_value m_trace_bytes, m_trace_data_bus;
  bool m_trace_rows = false, m_trace_data = false;  // set by add_traces when selected
  std::uint64_t m_row_commands_seen = 0, m_bursts_seen = 0;
  struct burst {
    std::uint64_t start, end;  // data-bus cycles [start, end)
  };
  fifo<burst> m_bus_bursts{16};  // issued bursts whose data has not finished crossing the bus
  wakeup m_bus_wake;
};

}  // namespace gputlm::memory
