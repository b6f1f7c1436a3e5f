#include "models/core/latoa_unit.h"

#include <cmath>

#include "models/common/block_factory.h"

namespace gputlm::core {

const char* to_string(latoa_unit::core_state s) {
  switch (s) {
    case latoa_unit::core_state::relaxed:
      return "relaxed";
    case latoa_unit::core_state::neutral:
      return "neutral";
    case latoa_unit::core_state::critical:
      return "critical";
  }
  return "?";
}

latoa_unit::latoa_unit(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  watch.bind(*this);
  declare_export("watch", watch);
  mshr.bind(*this);
  declare_export("mshr", mshr);
  declare_port("l1", l1);
  declare_port("neighbours", neighbours);
  if (const sc_core::sc_object* smx = get_parent_object()) m_smx = index_in_name(smx->name());
  add_stat("candidate_checks", m_checks,
           "MSHR changes while critical (the examined entry looked at)");
  add_stat("irregular_entries", m_irregular_entries,
           "of them, the examined entry was irregular (its requesters are candidates)");
  add_stat("offload_opportunities", m_opportunities,
           "of those, a relaxed neighbour could adopt (nothing is moved)");
  add_stat("no_adopter", m_no_adopter, "of those, no neighbour was relaxed");
  // Read after the run: the interval since the last change counts up to now, the run's end.
  for (core_state s : {core_state::relaxed, core_state::neutral, core_state::critical}) {
    const std::string n = to_string(s);
    add_stat(
        n + "_cycles", [this, s] { return double(state_cycles(s)); },
        "cycles the core was " + n + " (by its L1's filled MSHR entries)");
    add_stat(
        n + "_share", [this, s] { return share(state_cycles(s)); },
        "share of the run's cycles the core was " + n);
  }
  add_stat("state_changes", m_changes, "changes of the core state");
  add_stat(
      "stall_cycles", [this] { return double(stall_cycles()); },
      "cycles every resident warp waited for memory (a load, or L1 back-pressure)");
  add_stat(
      "resident_cycles", [this] { return double(resident_cycles()); },
      "cycles with a resident warp");
  add_stat(
      "idle_cycles", [this] { return double(clock().now_cycle() - resident_cycles()); },
      "cycles of the run without a resident warp");
  add_stat(
      "stall_share", [this] { return share(stall_cycles()); },
      "share of the run's cycles the core was stalled");
}

void latoa_unit::validate() {
  m_relaxed.require(*m_relaxed > 0 && *m_relaxed < 1, "expected (0, 1)");
  m_neutral.require(*m_neutral >= *m_relaxed && *m_neutral < 1,
                    "expected [relaxed, 1): neutral starts where relaxed ends");
  m_irregular.require(*m_irregular >= 0 && *m_irregular <= 1, "expected [0, 1]");
  m_entry.require(*m_entry <= 1024, "expected 0..1024");
}

void latoa_unit::validate_bound() {
  m_irregular.require(bool(l1) == bool(neighbours),
                      "the candidate search needs both `l1` (the L1's mshr_state) and "
                      "`neighbours` (the neighbour status) bound, or neither");
  if (l1)
    m_irregular.require(l1->mshr_inspectable(),
                        "the candidate search reads the L1's MSHR entries and requesters, "
                        "which an RTL MSHR (smx.l1.mshr.implementation: rtl) does not expose");
}

std::string latoa_unit::added_hardware() const {
  return "LATOA core state: a 2-bit state register and the MSHR occupancy comparator";
}

void latoa_unit::add_traces(vcd_writer& vcd) { m_trace_state.trace(vcd, name(), "state", 2); }

latoa_unit::core_state latoa_unit::classify(std::uint32_t used, std::uint32_t entries,
                                            double relaxed, double neutral) {
  // The largest counts that stay in each band (21 and 42 of 64 by thirds); 1e-9 keeps
  // an exact third of a multiple of three in its band.
  const double n = double(entries);
  if (used <= std::floor(relaxed * n + 1e-9)) return core_state::relaxed;
  if (used <= std::floor(neutral * n + 1e-9)) return core_state::neutral;
  return core_state::critical;
}

void latoa_unit::account(std::uint64_t cycle) {
  if (cycle <= m_since) return;
  const std::uint64_t dt = cycle - m_since;
  m_state_cycles[std::size_t(m_state)] += dt;
  if (m_census.live) m_resident_cycles += dt;
  if (m_census.stalled()) m_stall_cycles += dt;
  m_since = cycle;
}

void latoa_unit::warps_waiting(const warp_census& census, std::uint64_t cycle) {
  account(cycle);
  m_census = census;
}

void latoa_unit::mshr_changed(std::uint32_t used, std::uint32_t entries, std::uint64_t now_fs) {
  account(clock().cycle_at_fs(now_fs));
  const core_state s = classify(used, entries, *m_relaxed, *m_neutral);
  if (s != m_state) {
    if (neighbours && (s == core_state::relaxed) != (m_state == core_state::relaxed))
      neighbours->relaxed_changed(m_smx, s == core_state::relaxed);
    m_state = s;
    ++m_changes;
    m_trace_state.set(std::uint64_t(s));
  }
  if (m_state == core_state::critical && l1) look_for_candidates();
}

void latoa_unit::look_for_candidates() {
  ++m_checks;
  std::size_t slots = 0;
  m_warps.clear();
  if (!l1->mshr_newest(*m_entry, slots, m_warps)) return;
  if (!irregular(slots, l1->mshr_merge_limit(), *m_irregular)) return;
  ++m_irregular_entries;
  if (neighbours->adopter_for(m_smx) == neighbour_status::none)
    ++m_no_adopter;
  else
    ++m_opportunities;
}

std::uint64_t latoa_unit::open() const {
  const std::uint64_t now = clock().now_cycle();
  return now > m_since ? now - m_since : 0;
}

std::uint64_t latoa_unit::state_cycles(core_state s) const {
  return m_state_cycles[std::size_t(s)].value() + (m_state == s ? open() : 0);
}

std::uint64_t latoa_unit::stall_cycles() const {
  return m_stall_cycles.value() + (m_census.stalled() ? open() : 0);
}

std::uint64_t latoa_unit::resident_cycles() const {
  return m_resident_cycles.value() + (m_census.live ? open() : 0);
}

double latoa_unit::share(std::uint64_t cycles) const {
  const std::uint64_t run = clock().now_cycle();
  return run ? double(cycles) / double(run) : 0.0;
}

GPUTLM_BLOCK("latoa_unit", latoa_unit,
             "LATOA core state (relaxed, neutral, critical) from the L1's MSHR occupancy", {});

}  // namespace gputlm::core
