// LATOA's per-core unit (Bitalebi et al., "LATOA: Load-Aware Task Offloading and Adoption in
// GPUs", GPGPU 2023, §4.1; seed 003): beside an SMX, it classifies the core every time its
// L1's MSHR occupancy changes, by the filled entries: relaxed up to `relaxed` of them (a
// third: 21 of 64), neutral up to `neutral` (two thirds: 42 of 64), critical above (the
// paper's 2-bit state); and it counts how long the core spends in each state and how long
// the core is stalled (every resident warp waits for memory: a load's data, or an LDST
// unit the L1 pushes back on) or idle (no resident warp). This is what the paper's baseline
// residency and its share of stalled cores are measured with (docs/latoa.md).
//
// With `neighbours` (the chip's neighbour status, models/core/latoa_neighbours.h) and `l1`
// (the L1's MSHR, models/memory/mshr_view.h) bound, it also finds what LATOA would offload
// (§4.2-4.3) and counts it, moving nothing: each time the MSHR changes while the core is
// critical it examines the paper's "Entry 7", the second-newest filled entry (`entry`: 1;
// the older ones may already stall the pipeline, the newest may still merge); an entry with
// at most `irregular` of its slots filled (a quarter: 4 of 16) marks its requesters' warps
// irregular, candidates to offload, and the first relaxed neighbour in E, N, W, S order
// would adopt one. Counted: checks, irregular entries, opportunities (with an adopter) and
// those without one.
//
// With `offload` (§4.3-4.4) it moves the warp: one context in flight per core at a time;
// the candidates are the examined entry's requester warps in arrival order, the first the
// SMX lets leave (warp_migration.h: a warp of its own TB, of a kernel without barriers,
// shared memory or device-side operations, with only loads in flight) goes. The adopter
// must have room by the SMX scheduler's resource table (a TB slot, the warp's threads and
// registers: `scheduler` claims them, dispatch_monitor.h), else the offload is refused
// (counted). The warp's MSHR slots are cancelled (`cancel`, mshr_view.h), the SMX exports
// it (rewound to its oldest load in flight) and the context, its registers and 64 bytes of
// PC, mask and ids, travels the mesh to the adopter's unit (`peer`, peer_transport.h;
// `mailbox` holds the message's model-side contents), which has its SMX adopt it. When the
// adopted warp ends, the adopter's unit releases the claim and sends the host a 16-byte
// notice; the host's TB completes once all its warps have (warp_migration.h). An adopted
// warp is a warp of its guest like any other and may move on, up to `max_hops` moves (the
// paper is silent; our bound).
//
// Bound by path beside smx[i] (yaml/mechanisms/latoa.yaml): the SMX's `events` -> `watch`
// (smx_events.h), the L1's `events` -> `mshr` (cache_events.h); optionally `l1` -> the L1's
// `mshr_state` and `neighbours` -> the neighbour block's `status` (both or neither); with
// offload, also `migration` -> the SMX's `migration`, `cancel` -> the L1's `mshr_cancel`,
// `peer` -> the interconnect's `peer`, `scheduler` -> the SMX scheduler's `monitor` and
// `mailbox` -> the neighbour block's `mailbox`. The unit runs on the SMX's clock, which its
// L1 shares.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/component.h"
#include "models/common/ports.h"
#include "models/common/stats.h"
#include "models/common/vcd_writer.h"
#include "models/control/dispatch_monitor.h"
#include "models/core/latoa_mailbox.h"
#include "models/core/neighbour_status.h"
#include "models/core/smx_events.h"
#include "models/core/warp_migration.h"
#include "models/memory/cache_events.h"
#include "models/memory/mshr_view.h"
#include "models/noc/peer_transport.h"

namespace gputlm::core {

class latoa_unit : public component,
                   public smx_events,
                   public memory::cache_events,
                   public noc::peer_receiver {
 public:
  enum class core_state : std::uint8_t { relaxed, neutral, critical };

  latoa_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  void add_traces(vcd_writer& vcd) override;
  std::string added_hardware() const override;

  sc_core::sc_export<smx_events> watch{"watch"};
  sc_core::sc_export<memory::cache_events> mshr{"mshr"};
  optional_port<memory::mshr_view> l1{"l1"};
  optional_port<neighbour_status> neighbours{"neighbours"};
  optional_port<warp_migration> migration{"migration"};
  optional_port<memory::mshr_cancel> cancel{"cancel"};
  optional_port<noc::peer_transport> peer{"peer"};
  optional_port<control::dispatch_monitor> scheduler{"scheduler"};
  optional_port<latoa_mailbox> mailbox{"mailbox"};

  // smx_events
  void warps_waiting(const warp_census& census, std::uint64_t cycle) override;
  void adopted_warp_done(std::uint32_t host, std::uint32_t host_tb, std::uint64_t generation,
                         std::uint64_t warp_instructions, std::uint64_t thread_instructions,
                         std::uint64_t cycle) override;
  // peer_receiver: a context or a notice arrived.
  void peer_arrived(std::uint32_t from, std::uint64_t tag) override;
  // cache_events
  void mshr_changed(std::uint32_t used, std::uint32_t entries, std::uint64_t now_fs) override;
  void fill_unanswered(std::uint32_t cancelled, bool orphan) override;

  // The state of a core with `used` of `entries` MSHR entries filled.
  static core_state classify(std::uint32_t used, std::uint32_t entries, double relaxed,
                             double neutral);
  core_state state() const { return m_state; }
  // Whether an entry with `slots` of `merge` slots filled is irregular (at most `share`).
  static bool irregular(std::size_t slots, std::size_t merge, double share) {
    return double(slots) <= share * double(merge) + 1e-9;
  }

 private:
  void account(std::uint64_t cycle);  // the time since the last change, to its states
  void look_for_candidates();         // a critical core's MSHR changed
  // Offloads one of the examined entry's requester warps (m_warps) to `adopter`.
  void offload(std::uint32_t adopter);
  // The claim of a warp adopted here from (host, TB slot, generation), released.
  void release_adopted(std::uint32_t host, std::uint32_t host_tb, std::uint64_t generation);
  // Since the last change, up to now; with it, the cycles in a state and with a resident
  // warp, stalled; a share of the run so far.
  std::uint64_t open() const;
  std::uint64_t state_cycles(core_state s) const;
  std::uint64_t resident_cycles() const;
  std::uint64_t stall_cycles() const;
  double share(std::uint64_t cycles) const;

  param<double> m_relaxed{*this, "relaxed", 1.0 / 3.0,
                          "relaxed while filled MSHR entries are at most this share of them"};
  param<double> m_neutral{*this, "neutral", 2.0 / 3.0,
                          "neutral while at most this share (critical above)"};
  param<double> m_irregular{*this, "irregular", 0.25,
                            "an entry with at most this share of its slots filled is irregular"};
  param<std::uint64_t> m_entry{*this, "entry", 1,
                               "the entry examined, counted from the newest (0: the newest; 1: "
                               "the paper's Entry 7 of 8, the second newest)"};
  param<bool> m_offload{*this, "offload", false,
                        "move warps to relaxed neighbours (false: count the opportunities only)"};
  choice_param m_host_resources{*this,
                                "host_resources",
                                "keep",
                                "an exported warp's threads and registers on its host: kept "
                                "until its TB ends (keep), or released for other TBs (release)",
                                {"keep", "release"}};
  param<std::uint64_t> m_max_hops{*this, "max_hops", 4,
                                  "moves a warp may make (an adopted warp may move on)"};
  param<bytes> m_control_bytes{*this,
                               "control_bytes",
                               {64},
                               "a context's bytes besides its registers (PC, active mask, "
                               "SIMT stack, ids)"};
  param<bytes> m_notice_bytes{
      *this, "notice_bytes", {16}, "a guest's \"warp done\" notice to the host"};
  std::uint32_t m_smx = 0;             // the SMX this unit is beside (its parent's index)
  // Adopted warps here, for their claims' release: host, TB slot, generation, registers.
  struct adopted {
    std::uint32_t host, host_tb;
    std::uint64_t generation;
    std::uint32_t registers;
  };
  std::vector<adopted> m_adopted;
  // With host_resources: release, this core's warps away (TB slot, generation, registers),
  // whose threads and registers it takes back when they end.
  std::vector<adopted> m_released;
  // The entry of (host, TB slot, generation) in `in`, or its end.
  static std::vector<adopted>::iterator find(std::vector<adopted>& in, std::uint32_t host,
                                             std::uint32_t host_tb, std::uint64_t generation);
  std::vector<tlm::tlm_generic_payload*> m_cancelled;  // scratch
  // Per refusal reason: requester warps of examined entries that could not leave.
  std::array<counter, std::size_t(warp_migration::refusal::count_)> m_refusals;
  counter m_offloads, m_refused_no_room, m_refused_warp, m_context_bytes, m_squashed, m_adoptions,
      m_remote_done, m_moved_on, m_cancelled_slots, m_orphan_fills, m_unanswered_slots;
  std::vector<std::uint32_t> m_warps;  // scratch: the examined entry's requesters
  counter m_checks, m_irregular_entries, m_opportunities, m_no_adopter;
  core_state m_state = core_state::relaxed;
  warp_census m_census;
  std::uint64_t m_since = 0;  // cycle of the last accounted change
  std::array<counter, 3> m_state_cycles;
  counter m_changes, m_stall_cycles, m_resident_cycles;
  traced_value m_trace_state;
};

const char* to_string(latoa_unit::core_state s);

}  // namespace gputlm::core
