// L2 bank of one memory sub-partition: the cache with its MSHRs, the ROP delay before the
// lookup, and three of the four sub-partition queues (icnt->L2, L2->DRAM, L2->icnt) that
// GPGPU-Sim sizes with -gpgpu_dram_partition_queues (docs/references.md, the platform
// sections and "Address mapping and partition indexing").
// The DRAM->L2 queue is not modelled: a fill is written into the L2 when the channel
// answers. The L2 cache's own miss queue (the cache string's <miss_queue>) is merged into
// the L2->DRAM queue.
//
// A request from the interconnect enters the ROP pipeline, a fixed rop_latency delay with
// no bound of its own, and then the icnt->L2 queue (one request a cycle, when the queue
// has room), whose head is looked up one per cycle. The interconnect delivers one request
// a cycle, and only while the icnt->L2 queue has room for a whole line's sectors (4
// entries; END_REQ withheld otherwise): GPGPU-Sim's memory_sub_partition (l2cache.cc:
// push into the unbounded m_rop, one move a cycle into m_icnt_L2_queue after the cycle's
// lookup; gpu-sim.cc admits one packet a cycle while full(SECTOR_CHUNCK_SIZE) is false). Hits and
// accepted writes go to the L2->icnt queue; misses allocate an MSHR entry and send a fill of the
// missing sectors through the L2->DRAM queue (dram_latency later to the channel); dirty victims are
// written back. A request that cannot reserve what it needs, or whose answer finds the L2->icnt
// queue full, stays at the head of the queue. Atomics are executed here: looked up as
// reads, they leave their line dirty. Every request gets one BEGIN_RESP. With `bypass` (the
// L2 switched off) the looked-up request itself goes through the L2->DRAM queue and the
// channel's answer is the reply, while the replies it may still owe fit the L2->icnt queue.
// Sockets: `icnt` (target) from the interconnect; `dram` (initiator) to the channel.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <unordered_map>

#include "models/common/mem_request.h"
#include "models/common/wakeup.h"
#include "models/memory/address_decoder.h"
#include "models/memory/cache_config.h"
#include "models/memory/cache_events.h"
#include "models/memory/cache_logic.h"
#include "models/memory/cache_power.h"
#include "models/memory/fifo.h"
#include "models/memory/tlm_channels.h"

namespace gputlm::memory {

class l2_cache : public component {
 public:
  SC_HAS_PROCESS(l2_cache);
  l2_cache(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;
  // Closes the time-weighted occupancy histograms at the last activity.
  void end_of_simulation() override { sample_mshr(clock().now_cycle()); }

  tlm_utils::simple_target_socket<l2_cache> icnt{"icnt"};
  tlm_utils::simple_initiator_socket<l2_cache> dram{"dram"};
  // What a controller beside it sees (cache_events.h): its events and its data array.
  observers<cache_events> events{"events"};
  sc_core::sc_export<switched_array> array{"array"};

  // MemcpyHtoD warm-up (when warm_from_memcpy is on): the copied bytes become valid lines.
  // The caller sends each bank the addresses it owns. Returns the lines warmed. Reached
  // through `icnt` as a debug write (transport_dbg), which answers the bytes taken (0 when
  // warm_from_memcpy is off); the network sends them at the start (network.h).
  std::size_t warm(std::uint64_t addr, std::uint64_t size);
  bool warm_from_memcpy() const { return *m_warm_from_memcpy; }

  const mshr_table& mshr() const { return m_logic->mshr(); }
  const cache_logic& logic() const { return *m_logic; }
  bool busy() const;
  const payload_pool& pool() const { return m_pool; }

  struct statistics : cache_statistics {
    counter writes, atomics, warmed_lines;
    counter instruction_fill_bytes;  // of the fills, those asked for instruction lines
    counter fail_response_queue;
  };
  const statistics& stats_view() const { return m_stats_v; }

 private:
  tlm::tlm_sync_enum icnt_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  unsigned icnt_dbg(tlm::tlm_generic_payload& gp);
  tlm::tlm_sync_enum dram_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void run();
  void wake_at(std::uint64_t cycle);
  bool try_access(tlm::tlm_generic_payload& gp, std::uint64_t now);
  bool bypass(tlm::tlm_generic_payload& gp, std::uint64_t now);
  // A flag_store's value kept, or a flag_load answered (mem_request.h, flag_word).
  void flag_access(tlm::tlm_generic_payload& gp);
  std::unordered_map<std::uint64_t, std::uint32_t> m_flag_values;
  void send_down(std::uint64_t addr, unsigned length, tlm::tlm_command cmd, const mem_request& from,
                 access_kind kind, std::uint8_t sectors, int mshr, std::uint64_t now);
  void sample_mshr(std::uint64_t now);

  cache_config m_cache{*this};
  param<cycles> m_rop_latency{*this, "rop_latency", {120}, "delay before the L2 lookup"};
  param<cycles> m_dram_latency{
      *this, "dram_latency", {100}, "fixed delay from the L2->DRAM queue to the DRAM scheduler"};
  param<std::uint64_t> m_icnt_to_l2_queue{*this, "icnt_to_l2_queue", 8, "entries"};
  param<std::uint64_t> m_l2_to_dram_queue{*this, "l2_to_dram_queue", 8, "entries"};
  param<std::uint64_t> m_l2_to_icnt_queue{*this, "l2_to_icnt_queue", 8, "entries"};
  // The set index from the address within the sub-partition (GPGPU-Sim's L2 does so:
  // l2_cache_config::set_index on addrdec's partition_address): the DRAM's mapping.
  param<std::string> m_address_map{
      *this, "address_map", "",
      "the DRAM's GPGPU-Sim address mapping (as dram.address_map): the set index is taken "
      "from the address within the sub-partition; empty: from the address itself"};
  param<std::uint64_t> m_channels{*this, "channels", 1, "DRAM channels (with address_map)"};
  param<std::uint64_t> m_sub_partitions{*this, "sub_partitions", 1,
                                        "sub-partitions per channel (with address_map)"};
  std::unique_ptr<address_decoder> m_partition;
  param<bool> m_warm_from_memcpy{*this, "warm_from_memcpy", false,
                                 "MemcpyHtoD commands fill the copied lines (Accel-Sim: off)"};
  param<bool> m_bypass{*this, "bypass", false,
                       "the L2 switched off: every request goes to the DRAM as it came "
                       "(GPGPU-Sim -gpgpu_cache:dl2 none; the SPU runs so)"};

  struct timed {
    std::uint64_t at;
    tlm::tlm_generic_payload* gp;
  };
  std::unique_ptr<cache_logic> m_logic;
  std::unique_ptr<cache_power> m_power;
  // The data array as a controller beside the cache switches it (export `array`).
  switched_tags m_array;
  payload_pool m_pool;
  request_channel m_down;
  response_channel m_up;
  wakeup m_wake;

  std::uint64_t m_data_port = 1;  // bytes per cycle (data_port_width, 0: 1), by validate()
  std::size_t m_bypassing = 0;  // requests sent to the DRAM past the switched-off cache
  fifo<timed> m_rop{16};        // the ROP pipeline (ready at `at`)
  fifo<tlm::tlm_generic_payload*> m_in{16};          // icnt -> L2
  std::uint64_t m_admitted_at = ~std::uint64_t(0);   // the cycle of the last admission
  std::uint64_t m_rop_moved_at = ~std::uint64_t(0);  // the cycle of the last ROP exit
  fifo<timed> m_to_dram{16};                         // L2 -> DRAM (dram_latency)
  fifo<timed> m_out{16};                             // L2 -> icnt
  tlm::tlm_generic_payload* m_held = nullptr;        // BEGIN_REQ waiting to be admitted
  // Takes a request from the interconnect into the ROP pipeline at `now`.
  void admit(tlm::tlm_generic_payload& gp, std::uint64_t now) {
    m_admitted_at = now;
    m_rop.push({now + m_rop_latency->value, &gp});
  }
  // Whether the interconnect may deliver a request at `now` (see the top).
  bool can_admit(std::uint64_t now) const {
    const std::size_t room = *m_icnt_to_l2_queue < 4 ? *m_icnt_to_l2_queue : 4;
    return m_admitted_at != now && m_in.size() + room <= *m_icnt_to_l2_queue;
  }
  bool m_head_failed = false;
  // A failed head is looked up again only when that could succeed: the tags or MSHRs
  // changed since (a fill, warming, an atomic's dirty line), the queue towards the DRAM
  // has more room than at the failure, or the response queue, full then, has room.
  std::uint64_t m_logic_changes = 0;
  struct head_failure {
    std::uint64_t logic_changes = 0;
    bool in_lookup = false;     // it failed in the cache logic (else: response queue full)
    std::size_t dram_room = 0;  // free entries towards the DRAM at the lookup
  } m_failure;
  std::size_t dram_room() const;
  bool would_fail_again() const;
  std::uint64_t m_next_lookup = 0, m_next_send = 0, m_next_response = 0;
  std::vector<mshr_table::slot> m_ready_slots;
  std::vector<int> m_origin_tags;

  statistics m_stats_v;
  std::uint64_t m_sampled_at = 0;
  std::size_t m_last_used = 0;
  traced_value m_trace_mshr, m_trace_mshr_slots, m_trace_in, m_trace_out, m_trace_to_dram;
  traced_value m_trace_busy, m_trace_stalled;
};

}  // namespace gputlm::memory
