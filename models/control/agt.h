// Aggregated Group Table (AGT) of Dynamic Thread Block Launch (DTBL; Jin Wang's thesis
// §4.3-4.4 and Fig. 14, ISCA'15; docs/references.md, "CDP and DTBL"): an on-chip table,
// shared by all SMXs, of aggregated groups waiting to run or running. An entry (20 B) holds
// the group's size, its parameter address, Next (the next group coalesced to the same
// kernel) and ExeBL (its TBs in execution). A free entry is looked up in one cycle by
// hashing the launching thread, ind = hw_tid & (entries - 1) (`hash: thread`, the thesis's;
// the thread id is the SMX's own, so every SMX hashes onto the same entries); `hash:
// smx_thread` XORs the SMX number, bit-reversed, into the index's high bits (a designer's
// choice the thesis does not make: SMX 1 flips the top bit, SMX 2 the next, SMX 3 both, so
// SMXs spread over the table without the AGT knowing how many there are), to measure what
// the SMX-blind hash costs (docs/dynamic-parallelism.md). A group whose entry is busy
// keeps its record in global memory, and the SMX scheduler has the AGT fetch that record
// through the memory hierarchy (real requests, real latency) when it schedules the group.
// An entry frees when its last TB has been dispatched and has completed.
// Sockets: `scheduler` (target): agt_command by b_transport (control_registers.h); a fetch
// of a global group record by nb BEGIN_REQ (address in the payload, a read), answered
// BEGIN_RESP when the memory has returned it, or the record's write at launch (a write,
// answered when the memory has taken it). `mem` (initiator): the fetches as global loads,
// the writes as global stores, one 32-byte sector each.
// Waveform: `entries_used`.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/control/control_registers.h"

namespace gputlm::control {

class agt : public component {
 public:
  agt(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string added_hardware() const override {
    return "AGT: " + std::to_string(*m_entries) +
           " entries x 20 B = " + std::to_string(*m_entries * 20) + " B";
  }
  std::string pending_work() const override;

  tlm_utils::simple_target_socket<agt> scheduler{"scheduler"};
  tlm_utils::simple_initiator_socket<agt> mem{"mem"};

  std::uint64_t lookup_cycles() const { return m_lookup_latency->value; }
  // The entry a group launched by thread hw_tid of SMX `smx` hashes to, in a table of
  // `entries` (a power of two).
  static std::uint32_t hash_index(bool with_smx, std::uint32_t hw_tid, std::uint32_t smx,
                                  std::uint64_t entries);
  std::uint64_t size() const { return *m_entries; }
  std::uint32_t used() const { return m_used; }

 private:
  struct entry {
    bool busy = false;
    std::uint32_t group = 0;   // workload index of the group's trace
    std::uint32_t blocks = 0;  // aggDim: TBs in the group
    std::uint64_t param_addr = 0;
    std::uint32_t next = group_ref::none;
    std::uint32_t exebl = 0;       // TBs executing
    std::uint32_t dispatched = 0;  // TBs dispatched so far
  };

  void command(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum fetch_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  tlm::tlm_sync_enum mem_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  void send_fetches();
  void sample_occupancy();
  void release(std::uint32_t index);

  param<std::uint64_t> m_entries{*this, "entries", 1024,
                                 "aggregated group entries (power of two; 20 B each)"};
  param<cycles> m_lookup_latency{
      *this, "lookup_latency", {1}, "free-entry lookup per group (hash of the launching thread)"};
  choice_param m_hash{*this,
                      "hash",
                      "thread",
                      "entry index: thread (hw_tid & (entries - 1), the thesis's) or smx_thread "
                      "(with the SMX number bit-reversed into the high bits)",
                      {"thread", "smx_thread"}};

  std::vector<entry> m_table;
  std::uint32_t m_used = 0;
  payload_pool m_pool;
  // Fetches of global records: the scheduler's requests in order, and the memory request
  // of each one sent (index = position of the scheduler's payload).
  std::deque<tlm::tlm_generic_payload*> m_to_send;
  tlm::tlm_generic_payload* m_mem_blocked = nullptr;  // the fetch whose END_REQ is withheld
  std::uint64_t m_sampled_at = 0;
  traced_value m_trace_used;
  counter m_allocations, m_hits, m_misses, m_fetches, m_fetch_cycles, m_writes;
  // Entries used, weighted by the cycles they stay so: 64 buckets over the table.
  histogram m_occupancy{std::max<std::uint64_t>(1, *m_entries / 64), 65};
  std::uint32_t m_max_used = 0;
};

}  // namespace gputlm::control
