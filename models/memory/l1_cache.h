// L1 data cache of one SMX with its MSHR table and miss queue. Parameters follow
// GPGPU-Sim's -gpgpu_cache:dl1 string and the -gpgpu_l1_* options
// (docs/references.md, the platform sections, "Cache configuration string", "L1 options").
//
// Protocol (AT base protocol, docs/memory.md): the LDST unit sends one request per
// BEGIN_REQ on `core`; the L1 looks it up at the next edge, one request per cycle, and
// answers END_REQ when it took it. A request that cannot reserve what it needs (MSHR full,
// merge limit reached, no replaceable line in its set, miss queue full) is held: END_REQ
// is withheld until a fill, a freed MSHR entry or a drained miss queue lets it through.
// Every request gets exactly one BEGIN_RESP: loads when their data is there (hits after
// hit_latency), stores when the L1 has taken the write (after hit_latency). Misses,
// write-throughs and write-backs leave as the L1's own payloads on `icnt`, one per cycle,
// from the miss queue. Atomics and (with bypass_global_loads) global loads pass through to
// the interconnect unchanged and are answered when their reply comes back; so are global
// stores with bypass_global_stores.
//
// Lookups a cycle (lookups_per_cycle, GPGPU-Sim's -gpgpu_l1_banks with an L1 latency queue):
// cached loads and stores are looked up in order, several in one cycle while each uses banks
// no earlier lookup of the cycle used (a request in a used bank waits for the next cycle:
// lookup_bank_conflicts); a request that passes the L1 (bypassing load, atomic) or fails its
// lookup ends the cycle's lookups. Hits are answered up to lookups_per_cycle a cycle (the
// latency queue's banks release their registers in parallel), fills and replies one a cycle
// (the register file's one write-back port), at most lookups_per_cycle answers in all.
//
// Data banks (-gpgpu_l1_banks, _banks_byte_interleaving, the cache string's data port): byte
// b of a line lives in bank (b / bank_interleave) mod banks. A hit (read or write) and a
// fill use the data array: each bank holding touched sectors is busy for
// ceil(bytes in that bank / data_port_width) cycles. A cached load or store whose sectors
// lie in a busy bank waits (END_REQ withheld) until the bank is free; fills are never held
// and queue behind the bank's earlier use.
//
// Unified L1 (unified_size, Volta and later): the L1 and shared memory share one array. At a
// kernel's first TB on its SMX the SMX sends the kernel's shared memory there (a `carveout`
// request: bytes per TB x the TBs an SMX holds); the L1 takes the smallest of
// `shared_options` that holds it and keeps round(ways_max x (1 - option / unified_size)) of
// its ways (GPGPU-Sim's adaptive cache config, shader.cc max_cta), invalidating the lines of
// the others. Before any kernel it has the `ways` of its geometry.
//
// Dirty-line cap (-gpgpu_l1_cache_write_ratio): while fewer than dirty_line_cap % of the
// L1's lines are dirty, only clean lines are replaced; a set whose unreserved lines are all
// dirty then has no replaceable line (cache_logic.h, tag_array::victim).
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>

#include "models/common/mem_request.h"
#include "models/common/wakeup.h"
#include "models/memory/cache_config.h"
#include "models/memory/cache_events.h"
#include "models/memory/cache_logic.h"
#include "models/memory/cache_power.h"
#include "models/memory/fifo.h"
#include "models/memory/mshr_view.h"
#include "models/memory/tlm_channels.h"
#include "models/rtl/rtl_source.h"

namespace gputlm::memory {

class l1_cache : public component, public mshr_view, public mshr_cancel {
 public:
  SC_HAS_PROCESS(l1_cache);
  l1_cache(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;
  // Closes the time-weighted occupancy histograms at the last activity.
  void end_of_simulation() override { sample_mshr(clock().now_cycle()); }

  tlm_utils::simple_target_socket<l1_cache> core{"core"};
  tlm_utils::simple_initiator_socket<l1_cache> icnt{"icnt"};
  // What a controller beside it sees (cache_events.h): its events and its data array.
  observers<cache_events> events{"events"};
  sc_core::sc_export<switched_array> array{"array"};
  // Its MSHR, read-only (mshr_view.h).
  sc_core::sc_export<mshr_view> mshr_state{"mshr_state"};
  std::size_t mshr_capacity() const override { return mshr().capacity(); }
  std::size_t mshr_merge_limit() const override { return mshr().merge_limit(); }
  std::size_t mshr_used() const override { return mshr().used(); }
  bool mshr_inspectable() const override { return m_mshr_backend == nullptr; }
  bool mshr_newest(std::size_t k, std::size_t& slots,
                   std::vector<std::uint32_t>& warps) const override;
  // Its MSHR's requests, cancelled by warp (mshr_view.h; not with an RTL MSHR).
  sc_core::sc_export<mshr_cancel> mshr_cancel_port{"mshr_cancel"};
  std::size_t cancel_warp(std::uint32_t warp, std::vector<tlm::tlm_generic_payload*>& out) override;

  const mshr_table& mshr() const { return m_logic->mshr(); }
  const cache_logic& logic() const { return *m_logic; }
  std::size_t miss_queue_occupancy() const { return m_miss_queue.size(); }
  bool stalled() const { return m_input != nullptr && m_input_failed; }
  bool busy() const;
  const payload_pool& pool() const { return m_pool; }
  // Kernel end (flush_at_kernel_end): invalidates every line not waiting for a fill. The SMX
  // asks for it with a `flush` request on `core` when the SMX scheduler reports a kernel's
  // completion (control_registers.h tbcr_kernel_done).
  void flush() {
    if (*m_flush_at_kernel_end) m_logic->invalidate_all();
  }

  struct statistics : cache_statistics {
    counter stores, bypassed;
    counter bank_conflicts, bank_wait_cycles, data_port_cycles, flushes, lookup_bank_conflicts;
    counter carveouts;  // kernels' carve-outs applied (unified_size)
    histogram mshr_slots{1, 1};  // slots in use, sampled like mshr_occupancy
  };
  const statistics& stats_view() const { return m_stats_v; }

 private:
  tlm::tlm_sync_enum core_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum icnt_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& ph);
  void run();
  void wake_at(std::uint64_t cycle);
  bool try_access(tlm::tlm_generic_payload& gp, std::uint64_t now);
  // Queues one of the L1's own requests (fill, write-through, write-back) for the
  // interconnect; it enters the miss queue at cycle `leave_at` (the lookup's cycle +
  // miss_latency; a write-back evicted by a fill at once).
  void send_down(std::uint64_t line_or_addr, unsigned length, tlm::tlm_command cmd,
                 const mem_request& from, access_kind kind, std::uint8_t sectors, int mshr,
                 std::uint64_t leave_at);
  void sample_mshr(std::uint64_t now);
  // Bytes of the touched sectors in each bank (into m_bank_bytes).
  void bank_bytes(std::uint64_t line_addr, std::uint8_t sectors);
  // Calls f(bank, data-port cycles) for each bank holding some of `sectors`.
  template <class F>
  void for_each_bank_of(std::uint64_t line_addr, std::uint8_t sectors, F f);
  // The per-mask bank table (m_shares), from the geometry.
  void build_bank_shares();
  // Occupies the banks holding `sectors` from max(now, free) for their data-port cycles.
  void use_banks(std::uint64_t line_addr, std::uint8_t sectors, std::uint64_t now);
  bool uses_data_array(const tlm::tlm_generic_payload& gp) const;

  cache_config m_cache{*this};
  param<std::uint64_t> m_miss_queue_entries{*this, "miss_queue", 8,
                                            "miss queue entries towards the next level"};
  param<std::uint64_t> m_banks{*this, "banks", 1, "data banks"};
  param<bytes> m_bank_interleave{*this, "bank_interleave", {32}, "bytes per bank before the next"};
  param<std::uint64_t> m_lookups_per_cycle{
      *this, "lookups_per_cycle", 1,
      "cached requests looked up in one cycle, each in banks no earlier one of the cycle used, "
      "in order (GPGPU-Sim's L1 latency queue takes -gpgpu_l1_banks a cycle); as many hits "
      "answered a cycle"};
  param<cycles> m_hit_latency{*this, "hit_latency", {1}, "hit latency"};
  param<cycles> m_miss_latency{
      *this,
      "miss_latency",
      {0},
      "cycles from the lookup until a miss, write-through or write-back may leave (the L1 "
      "pipeline: GPGPU-Sim's -gpgpu_l1_latency queue looks the tags up at its end)"};
  rtl::rtl_choice m_mshr_rtl{*this, "mshr", "mshr_table", "the MSHR table"};
  mshr_backend* m_mshr_backend = nullptr;  // the RTL table, with mshr.implementation: rtl
  param<bool> m_bypass_global_loads{*this, "bypass_global_loads", false,
                                    "global loads skip L1 (-gpgpu_gmem_skip_L1D)"};
  param<bytes> m_unified_size{
      *this, "unified_size", {0},
      "one array shared with shared memory (Volta's unified L1; 0: none): the tag array has "
      "unified_size / (sets x line_size) ways, of which each kernel gets what its shared "
      "memory leaves (-gpgpu_unified_l1d_size, -gpgpu_adaptive_cache_config)"};
  param<std::string> m_shared_options{
      *this, "shared_options", "0,8,16,32,64,96",
      "shared-memory carve-outs in KiB: a kernel takes the smallest holding its TBs' shared "
      "memory (-gpgpu_shmem_option)"};
  param<bool> m_bypass_global_stores{
      *this, "bypass_global_stores", false,
      "global stores skip L1 to the interconnect, answered by the L2's acknowledgement "
      "(-gpgpu_gmem_skip_L1D applies to every global access)"};
  param<bool> m_flush_at_kernel_end{*this, "flush_at_kernel_end", true,
                                    "invalidate at each kernel's end"};
  param<std::uint64_t> m_dirty_line_cap{
      *this, "dirty_line_cap", 0,
      "% of lines that must be dirty before a dirty line may be a victim (0: any line)"};

  std::unique_ptr<cache_logic> m_logic;
  std::unique_ptr<cache_power> m_power;
  switched_tags m_array;
  payload_pool m_pool;
  tlm_utils::peq_with_cb_and_phase<l1_cache> m_peq{this, &l1_cache::peq_cb};
  request_channel m_down;
  response_channel m_up;
  wakeup m_wake;

  // Derived by validate() from the parameters: the data port in bytes per cycle (at least
  // 1); a byte's bank as shift and mask when the interleave and bank count are powers of
  // two (the usual case), else as division and modulo.
  std::uint64_t m_data_port = 1;
  bool m_pow2_banks = false;
  unsigned m_interleave_log2 = 0;
  tlm::tlm_generic_payload* m_input = nullptr;  // request being looked up or held
  bool m_input_failed = false;
  bool m_bank_waiting = false;  // m_input has waited for a data bank since m_bank_wait_since
  std::uint64_t m_bank_wait_since = 0;
  std::uint64_t m_next_input_cycle = 0;
  // This cycle's lookups (lookups_per_cycle > 1): how many, and the banks they used.
  std::uint64_t m_lookup_cycle = ~std::uint64_t(0);
  std::uint32_t m_lookups = 0;
  std::uint64_t m_lookup_banks = 0;  // bit b: bank b (mod 64)
  // This cycle's answers to the LDST unit: hits (up to lookups_per_cycle in all) and a reply.
  std::uint64_t m_answer_cycle = ~std::uint64_t(0);
  std::uint32_t m_answers = 0;
  bool m_replied = false;
  struct ready {
    std::uint64_t at;
    tlm::tlm_generic_payload* gp;
  };
  fifo<ready> m_responses{16};  // hits, after hit_latency
  fifo<ready> m_replies{16};    // filled misses, returned bypasses/atomics
  std::uint64_t m_next_response_cycle = 0;
  fifo<tlm::tlm_generic_payload*> m_miss_queue{16};
  // The L1's own requests still in its pipeline (miss_latency); they hold miss-queue entries.
  fifo<ready> m_miss_pipe{16};
  std::uint64_t m_next_send_cycle = 0;
  std::vector<mshr_table::slot> m_ready_slots;
  std::vector<std::uint64_t> m_shared_option_bytes;  // shared_options, ascending, in bytes
  std::uint32_t m_unified_ways = 0;                  // ways of the unified array (0: none)
  // The ways a kernel with `shared` bytes of shared memory per SMX leaves the L1.
  std::uint32_t carveout_ways(std::uint64_t shared) const;
  std::vector<int> m_origin_tags;  // origin of own payloads: fill i -> &[i], others -> &back()
  std::vector<std::uint64_t> m_bank_busy_until;  // first free cycle of each data bank
  std::vector<std::uint64_t> m_bank_bytes;
  // For every sector mask, the banks its sectors occupy, numbered from the bank of the
  // line's first byte, with their data-port cycles: a line holds whole interleave chunks or
  // a chunk whole lines, so the pattern only turns with the line's first bank. Empty (and
  // bank_bytes() used per access) for other geometries.
  struct bank_share {
    std::uint32_t bank, cycles;
  };
  std::vector<bank_share> m_shares;
  std::vector<std::uint32_t> m_share_begin;  // per mask: its first entry; mask + 1: its end
  std::uint32_t m_share_masks = 0;           // sector masks in the table (0: no table)

  statistics m_stats_v;
  std::uint64_t m_sampled_at = 0;
  std::size_t m_last_used = 0, m_last_slots = 0;
  traced_value m_trace_mshr, m_trace_mshr_slots, m_trace_miss_queue;
  traced_value m_trace_hit_queue, m_trace_reply_queue;
  traced_value m_trace_busy, m_trace_stalled;
  mutable std::vector<void*> m_requesters;  // mshr_newest's scratch
};

}  // namespace gputlm::memory
