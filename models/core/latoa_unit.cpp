#include "models/core/latoa_unit.h"

#include <algorithm>
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
  declare_port("migration", migration);
  declare_port("cancel", cancel);
  declare_port("peer", peer);
  declare_port("scheduler", scheduler);
  declare_port("mailbox", mailbox);
  if (const sc_core::sc_object* smx = get_parent_object()) m_smx = index_in_name(smx->name());
  add_stat("candidate_checks", m_checks,
           "MSHR changes while critical (the examined entry looked at)");
  add_stat("irregular_entries", m_irregular_entries,
           "of them, the examined entry was irregular (its requesters are candidates)");
  add_stat("offload_opportunities", m_opportunities,
           "of those, a relaxed neighbour could adopt (nothing is moved)");
  add_stat("no_adopter", m_no_adopter, "of those, no neighbour was relaxed");
  add_stat("offloads", m_offloads, "warps sent to a neighbour (offload)");
  add_stat("refused_no_room", m_refused_no_room,
           "offloads refused: the adopter had no free TB slot, warp slot or registers");
  add_stat("refused_warp", m_refused_warp,
           "offloads refused: no requester of the examined entry could leave (see "
           "warp_migration.h)");
  for (std::size_t r = 1; r < m_refusals.size(); ++r)
    add_stat(std::string("refused.") + to_string(warp_migration::refusal(r)), m_refusals[r],
             "candidate warps that could not leave, by reason (warp_migration.h)");
  add_stat("context_bytes", m_context_bytes, "bytes of the contexts sent");
  add_stat("squashed_instructions", m_squashed,
           "instructions issued here and taken back by a rewind (issued again by the guest)");
  add_stat("cancelled_slots", m_cancelled_slots, "L1 MSHR slots cancelled by offloads");
  add_stat("unanswered_slots", m_unanswered_slots,
           "cancelled slots whose fill arrived (the line installed, nobody answered)");
  add_stat("orphan_fills", m_orphan_fills,
           "of those fills, the ones that answered nobody at all (every slot cancelled)");
  add_stat("adoptions", m_adoptions, "warps adopted from a neighbour");
  add_stat("adopted_done", m_remote_done, "of those, ended here (notice sent to the host)");
  add_stat("moved_on", m_moved_on, "of those, offloaded again");
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
  m_max_hops.require(*m_max_hops >= 1 && *m_max_hops <= 255, "expected 1..255");
  m_control_bytes.require(m_control_bytes->value <= 65536, "expected at most 64KiB");
  m_notice_bytes.require(m_notice_bytes->value >= 1 && m_notice_bytes->value <= 65536,
                         "expected 1B..64KiB");
}

void latoa_unit::validate_bound() {
  if (*m_offload) {
    const bool all = l1 && neighbours && migration && cancel && peer && scheduler && mailbox;
    m_offload.require(all,
                      "needs `l1`, `neighbours`, `migration`, `cancel`, `peer`, `scheduler` and "
                      "`mailbox` bound (yaml/mechanisms/latoa.yaml)");
    if (all) {
      const char* no_peer = peer->peer_unsupported();
      m_offload.require(!no_peer, no_peer ? no_peer : "");
      const char* no_claim = scheduler->diversion_unsupported();
      m_offload.require(!*no_claim, *no_claim ? no_claim : "");
      if (!no_peer) peer->attach_peer(m_smx, *this);
    }
  }
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
  const std::uint32_t adopter = neighbours->adopter_for(m_smx);
  if (adopter == neighbour_status::none) {
    ++m_no_adopter;
    return;
  }
  ++m_opportunities;
  if (*m_offload && mailbox->contexts_from(m_smx) == 0) offload(adopter);
}

void latoa_unit::offload(std::uint32_t adopter) {
  std::uint32_t warp = neighbour_status::none;
  for (std::uint32_t w : m_warps) {
    warp_migration::refusal r = migration->export_refusal(w);
    if (r == warp_migration::refusal::none && migration->hops(w) >= *m_max_hops)
      r = warp_migration::refusal::hops;
    if (r == warp_migration::refusal::none) {
      warp = w;
      break;
    }
    ++m_refusals[std::size_t(r)];
  }
  if (warp == neighbour_status::none) {
    ++m_refused_warp;
    return;
  }
  const std::uint32_t registers = migration->context_registers(warp);
  if (!scheduler->claim(adopter, 1, migration->warp_size(), registers)) {
    ++m_refused_no_room;
    return;
  }
  m_cancelled.clear();
  m_cancelled_slots += cancel->cancel_warp(warp, m_cancelled);
  latoa_message m;
  m.context = migration->export_warp(warp, m_cancelled);
  if (m.context.hops > 1) {  // it had been adopted here: moving on
    release_adopted(m.context.host, m.context.host_tb, m.context.host_generation);
    ++m_moved_on;
  } else if (m_host_resources.is("release")) {  // a warp of our own: free what it held
    scheduler->release_claim(m_smx, 0, migration->warp_size(), registers);
    m_released.push_back({m_smx, m.context.host_tb, m.context.host_generation, registers});
  }
  m_squashed += m.context.squashed;
  const std::uint64_t bytes = std::uint64_t(registers) * 4 + m_control_bytes->value;
  m_context_bytes += bytes;
  ++m_offloads;
  peer->send_peer(m_smx, adopter, static_cast<std::uint32_t>(bytes), mailbox->post(std::move(m)));
}

void latoa_unit::peer_arrived(std::uint32_t, std::uint64_t tag) {
  latoa_message m = mailbox->take(tag);
  if (m.done) {  // our warp ended on its guest: its TB may complete
    auto it = find(m_released, m_smx, m.context.host_tb, m.context.host_generation);
    if (it != m_released.end()) {  // (the TB's completion releases it with the TB)
      scheduler->take(m_smx, 0, migration->warp_size(), it->registers);
      m_released.erase(it);
    }
    migration->remote_warp_done(m.context.host_tb, m.context.host_generation, m.issued);
    return;
  }
  // A context: adopt it (the claim made room; taking it let the host send another).
  const warp_context& c = m.context;
  m_adopted.push_back(
      {c.host, c.host_tb, c.host_generation,
       tb_demand{migration->warp_size(), c.regs_per_thread, 0}.registers(migration->warp_size())});
  ++m_adoptions;
  if (!migration->adopt(c))
    SC_REPORT_ERROR(name(), "an adopted warp found no free warp or TB slot despite its claim");
}

std::vector<latoa_unit::adopted>::iterator latoa_unit::find(std::vector<adopted>& in,
                                                            std::uint32_t host,
                                                            std::uint32_t host_tb,
                                                            std::uint64_t generation) {
  return std::find_if(in.begin(), in.end(), [&](const adopted& a) {
    return a.host == host && a.host_tb == host_tb && a.generation == generation;
  });
}

void latoa_unit::release_adopted(std::uint32_t host, std::uint32_t host_tb,
                                 std::uint64_t generation) {
  auto it = find(m_adopted, host, host_tb, generation);
  if (it == m_adopted.end()) return;
  scheduler->release_claim(m_smx, 1, migration->warp_size(), it->registers);
  m_adopted.erase(it);
}

void latoa_unit::adopted_warp_done(std::uint32_t host, std::uint32_t host_tb,
                                   std::uint64_t generation, std::uint64_t warp_instructions,
                                   std::uint64_t thread_instructions, std::uint64_t) {
  release_adopted(host, host_tb, generation);
  ++m_remote_done;
  latoa_message m;
  m.done = true;
  m.context.host = host;
  m.context.host_tb = host_tb;
  m.context.host_generation = generation;
  m.issued.warp_instructions = warp_instructions;
  m.issued.thread_instructions = thread_instructions;
  peer->send_peer(m_smx, host, static_cast<std::uint32_t>(m_notice_bytes->value),
                  mailbox->post(std::move(m)));
}

void latoa_unit::fill_unanswered(std::uint32_t cancelled, bool orphan) {
  m_unanswered_slots += cancelled;
  if (orphan) ++m_orphan_fills;
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
