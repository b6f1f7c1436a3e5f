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
// Bound by path beside smx[i] (yaml/mechanisms/latoa.yaml): the SMX's `events` -> `watch`
// (smx_events.h), the L1's `events` -> `mshr` (cache_events.h); optionally `l1` -> the L1's
// `mshr_state` and `neighbours` -> the neighbour block's `status` (both or neither). The
// unit runs on the SMX's clock, which its L1 shares.
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
#include "models/core/neighbour_status.h"
#include "models/core/smx_events.h"
#include "models/memory/cache_events.h"
#include "models/memory/mshr_view.h"

namespace gputlm::core {

class latoa_unit : public component, public smx_events, public memory::cache_events {
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

  // smx_events
  void warps_waiting(const warp_census& census, std::uint64_t cycle) override;
  // cache_events
  void mshr_changed(std::uint32_t used, std::uint32_t entries, std::uint64_t now_fs) override;

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
  std::uint32_t m_smx = 0;             // the SMX this unit is beside (its parent's index)
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
