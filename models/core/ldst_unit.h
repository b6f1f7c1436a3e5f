// The SMX's load/store unit: a memory instruction's lane addresses go through the coalescer
// (coalescer.h) into requests, queued in order for the L1 port, which takes one per cycle
// and may withhold END_REQ (the unit then waits, `blocked`); a pending-load record per
// instruction releases its destination registers when its last request returns; shared-memory
// accesses keep the unit busy for their bank cycles. After GPGPU-Sim's ldst_unit
// (shader.cc): one instruction in the unit at a time, its requests leaving one per cycle.
//
// The unit's state and rules only: the SMX owns the `ldst` socket, builds the payloads from
// the queue's head and tells the unit what the L1 answered.
#pragma once

#include <cstdint>
#include <tlm>
#include <vector>

#include "models/common/mem_request.h"
#include "models/core/coalescer.h"
#include "traces/trace_types.h"

namespace gputlm::core {

class ldst_unit {
 public:
  static constexpr std::uint32_t no_tb = ~0u;

  // A request waiting for the L1 port.
  struct request {
    coalesced_request req;
    access_kind kind;
    std::uint32_t warp;
    std::uint32_t pc;
    std::uint32_t pending;  // its pending-load record
  };
  // An instruction's (or a context save's or restore's) requests in flight: the destination
  // registers to release when the last one returns.
  struct pending_load {
    std::uint32_t warp = 0;
    std::uint32_t requests = 0;
    std::uint16_t dst[2] = {traces::warp_instruction::no_reg, traces::warp_instruction::no_reg};
    std::uint32_t restores_tb = no_tb;  // a CDP.SYNC context restore: the TB slot it resumes
    // For the register file's power management (Slumber's MSHR tracker): the load's
    // instruction index in its warp, the deepest level that answered one of its requests
    // (mem_request::served_by), and its issue cycle.
    std::uint32_t inst = 0;
    std::uint8_t served = 0;
    bool atomic = false;  // a global atomic's requests
    // Its warp left the SMX (warp_migration.h): answers are dropped, queued requests not sent.
    bool dropped = false;
    std::uint64_t issued = 0;
    // A flag load or store (flag=V in the trace): its word and value, and the request a poll
    // sends again while the word holds less.
    flag_word flag;
    coalesced_request poll;
  };

  // `coalescing_arch`: coalescer.h's rules; `segment`: bytes per request (0: the arch's);
  // `shared_banks`: 4-byte shared-memory banks.
  void configure(std::uint32_t coalescing_arch, std::uint32_t segment, std::uint32_t shared_banks);

  // --- Issue
  // A shared-memory access's bank cycles (at least 1).
  std::uint32_t shared_cycles(const traces::warp_instruction& in,
                              const std::uint64_t* warp_addresses) const;
  // Coalesces a global, local, texture or atomic access into coalesced(); false if the
  // instruction has no addresses (then nothing is sent).
  bool coalesce(const traces::warp_instruction& in, const std::uint64_t* warp_addresses);
  const std::vector<coalesced_request>& coalesced() const { return m_coalesced; }
  // The access kind of a global, local, texture or atomic instruction.
  static access_kind kind_of(const traces::warp_instruction& in);
  // Queues coalesced() for warp slot `warp` under a new pending-load record with the
  // instruction's destinations; returns the number of requests. A flag access (flag_load,
  // flag_store) keeps its word's address and its value.
  std::uint32_t enqueue(std::uint32_t warp, const traces::warp_instruction& in, access_kind kind,
                        std::uint32_t inst = 0, std::uint64_t issued = 0,
                        std::uint64_t flag_address = 0);
  // Queues pending-load record p's poll again (a flag load finding its word short).
  void enqueue_poll(std::uint32_t p);
  // Queues `lines` 128 B requests from `base` (a TB context's save or restore) for warp
  // slot `warp`; a restore names the TB slot it resumes.
  void enqueue_lines(std::uint32_t warp, std::uint64_t base, std::uint32_t lines, access_kind kind,
                     std::uint32_t restores_tb);
  // Queues an L1 flush behind the requests already queued.
  void enqueue_flush();
  // Queues a kernel's shared memory on this SMX (bytes) for a unified L1 (access_kind::
  // carveout), ahead of the kernel's first requests.
  void enqueue_carveout(std::uint64_t shared_bytes);

  // Queues an instruction-cache miss of warp slot `warp` (instruction_cache.h): `bytes` from
  // code address `addr`, within one 128 B line.
  void enqueue_fetch(std::uint32_t warp, std::uint64_t addr, std::uint32_t bytes);

  // --- The L1 port
  std::size_t queued() const { return m_fifo.size() - m_head; }
  bool blocked() const { return m_blocked != nullptr; }
  // Whether the head request may be offered at `now`.
  bool can_send(std::uint64_t now) const {
    return !blocked() && m_head < m_fifo.size() && now >= m_send_from;
  }
  const request& pop() { return m_fifo[m_head++]; }
  // The L1 withheld END_REQ for `gp`.
  void block(const tlm::tlm_generic_payload& gp) { m_blocked = &gp; }
  // END_REQ for `gp` arrived: true if it was the one the unit waited for.
  bool unblock(const tlm::tlm_generic_payload& gp) {
    if (&gp != m_blocked) return false;
    m_blocked = nullptr;
    return true;
  }

  // --- Timing
  std::uint64_t busy_until() const { return m_busy_until; }
  void busy_until(std::uint64_t cycle) { m_busy_until = cycle; }
  std::uint64_t send_from() const { return m_send_from; }
  void send_from(std::uint64_t cycle) { m_send_from = cycle; }

  // --- Responses
  pending_load& pending(std::uint32_t p) { return m_pending[p]; }
  void release(std::uint32_t p) {
    if (m_pending[p].dropped) --m_dropped;
    m_free.push_back(p);
  }

  // --- A warp leaving the SMX (warp_migration.h)
  // Calls f(p, record) for every record in flight (with requests outstanding).
  template <class F>
  void for_each_in_flight(F&& f) const {
    for (std::uint32_t p = 0; p < m_pending.size(); ++p)
      if (m_pending[p].requests != 0) f(p, m_pending[p]);
  }
  // Whether the head request is a memory access of a dropped record.
  bool head_dropped() const {
    const request& q = m_fifo[m_head];
    return q.kind != access_kind::flush && q.kind != access_kind::carveout &&
           q.kind != access_kind::instruction_fetch && m_pending[q.pending].dropped;
  }
  void drop(std::uint32_t p) {
    if (!m_pending[p].dropped) ++m_dropped;
    m_pending[p].dropped = true;
  }
  // Some record in flight is dropped (the queue's requests may belong to one).
  bool any_dropped() const { return m_dropped != 0; }
  // One of record p's requests will not be answered (dropped before it was sent, or given
  // back by the L1): true when it was the last, and the record is released.
  bool drop_request(std::uint32_t p) {
    if (--m_pending[p].requests != 0) return false;
    release(p);
    return true;
  }

 private:
  std::uint32_t acquire();
  void start_instruction();  // an empty queue restarts at the front of its storage

  std::uint32_t m_arch = 20;
  std::uint32_t m_segment = 128;  // bytes per request (coalescer.h)
  std::uint32_t m_shared_banks = 32;
  std::vector<request> m_fifo;  // from m_head on
  std::size_t m_head = 0;
  const tlm::tlm_generic_payload* m_blocked = nullptr;  // END_REQ withheld by the L1
  std::uint64_t m_busy_until = 0;
  std::uint64_t m_send_from = 0;  // no request leaves before (a gated unit waking)
  std::vector<pending_load> m_pending;
  std::vector<std::uint32_t> m_free;
  std::uint32_t m_dropped = 0;  // dropped records in flight
  std::vector<coalesced_request> m_coalesced;
};

}  // namespace gputlm::core
