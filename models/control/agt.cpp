#include "models/control/agt.h"

#include <cstring>

#include "models/common/block_factory.h"
#include "models/common/edge_scheduler.h"

namespace gputlm::control {

agt::agt(const sc_core::sc_module_name& name, const block_context& ctx) : component(name, ctx) {
  declare_socket("scheduler", scheduler);
  declare_socket("mem", mem);
  scheduler.register_b_transport(this, &agt::command);
  scheduler.register_nb_transport_fw(this, &agt::fetch_fw);
  mem.register_nb_transport_bw(this, &agt::mem_bw);
  add_stat("allocations", m_allocations, "aggregated groups that asked for an entry");
  add_stat("hits", m_hits, "groups that found their hashed entry free");
  add_stat("misses", m_misses, "groups whose hashed entry was busy: record kept in global memory");
  add_stat("fetches", m_fetches, "group records fetched from global memory when scheduled");
  add_stat("fetch_cycles", m_fetch_cycles, "cycles of those fetches, in total");
  add_stat("record_writes", m_writes,
           "group records written to global memory at their launch (smx_scheduler.record_write)");
  add_stat("occupancy", m_occupancy, "entries used, weighted by cycles");
  add_stat(
      "max_used", [this] { return double(m_max_used); }, "most entries used at once");
  add_stat(
      "hit_rate",
      [this] {
        return m_allocations.value() ? double(m_hits.value()) / double(m_allocations.value()) : 0.0;
      },
      "hits / allocations");
}

void agt::validate() {
  const std::uint64_t n = *m_entries;
  m_entries.require(n >= 1 && (n & (n - 1)) == 0,
                    "must be a power of two (the hash masks the thread id)");
  m_entries.require(n <= (1u << 20), "must be at most 1048576");
  m_lookup_latency.require(m_lookup_latency->value <= 1024, "must be at most 1024cycles");
  m_table.assign(n, entry{});
}

void agt::add_traces(vcd_writer& vcd) { m_trace_used.trace(vcd, name(), "entries_used", 21); }

std::string agt::pending_work() const {
  if (m_used == 0 && m_to_send.empty()) return {};
  return std::to_string(m_used) + " entries used, " + std::to_string(m_to_send.size()) +
         " record fetches waiting";
}

void agt::sample_occupancy() {
  const std::uint64_t now = clock().now_cycle();
  if (now > m_sampled_at) m_occupancy.sample(m_used, now - m_sampled_at);
  m_sampled_at = now;
}

void agt::release(std::uint32_t i) {
  sample_occupancy();
  m_table[i] = entry{};
  --m_used;
  m_trace_used.set(m_used);
}

std::uint32_t agt::hash_index(bool with_smx, std::uint32_t hw_tid, std::uint32_t smx,
                              std::uint64_t entries) {
  const auto mask = static_cast<std::uint32_t>(entries - 1);
  if (!with_smx || entries < 2) return hw_tid & mask;
  std::uint32_t r = 0;  // smx, bit-reversed in 32 bits
  for (int b = 0; b < 32; ++b) r |= ((smx >> b) & 1u) << (31 - b);
  const int bits = __builtin_ctzll(entries);  // log2(entries)
  return (hw_tid ^ (r >> (32 - bits))) & mask;
}

void agt::command(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  agt_command c;
  if (gp.get_data_length() < sizeof c) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  std::memcpy(&c, gp.get_data_ptr(), sizeof c);
  switch (c.what) {
    case agt_command::op::allocate: {
      ++m_allocations;
      c.cycles = m_lookup_latency->value;
      const std::uint32_t i = hash_index(m_hash.is("smx_thread"), c.index, c.smx, m_table.size());
      if (m_table[i].busy) {
        ++m_misses;
        c.result = group_ref::none;
        break;
      }
      ++m_hits;
      sample_occupancy();
      m_table[i] = entry{true, c.group, c.blocks, c.param_addr, group_ref::none, 0, 0};
      m_max_used = std::max(m_max_used, ++m_used);
      m_trace_used.set(m_used);
      c.result = i;
      break;
    }
    case agt_command::op::set_next:
      if (c.index < m_table.size() && m_table[c.index].busy) m_table[c.index].next = c.next;
      break;
    case agt_command::op::dispatched:
      if (c.index < m_table.size() && m_table[c.index].busy) {
        ++m_table[c.index].exebl;
        ++m_table[c.index].dispatched;
        c.next = m_table[c.index].next;
      }
      break;
    case agt_command::op::completed:
      if (c.index < m_table.size() && m_table[c.index].busy) {
        entry& e = m_table[c.index];
        --e.exebl;
        if (e.exebl == 0 && e.dispatched == e.blocks) release(c.index);
      }
      break;
  }
  std::memcpy(gp.get_data_ptr(), &c, sizeof c);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum agt::fetch_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                 sc_core::sc_time&) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP
  m_to_send.push_back(&gp);
  send_fetches();
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void agt::send_fetches() {
  while (!m_mem_blocked && !m_to_send.empty()) {
    tlm::tlm_generic_payload* asked = m_to_send.front();
    m_to_send.pop_front();
    // One 32-byte sector holds the 20-byte record: a fetch loads it, a launch stores it.
    const bool write = asked->get_command() == tlm::TLM_WRITE_COMMAND;
    const std::uint64_t addr = asked->get_address() & ~std::uint64_t(31);
    tlm::tlm_generic_payload& gp = m_pool.acquire(
        addr & ~std::uint64_t(127), 32, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    mem_request& r = payload_pool::request(gp);
    r.kind = write ? access_kind::global_store : access_kind::global_load;
    r.sector_mask = static_cast<std::uint8_t>(1u << ((addr >> 5) & 3));
    r.issue_time_fs = clock_domain::now_fs();
    r.origin = asked;
    ++(write ? m_writes : m_fetches);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum s = mem->nb_transport_fw(gp, ph, d);
    if (s == tlm::TLM_ACCEPTED) m_mem_blocked = &gp;  // END_REQ withheld
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP)) {
      tlm::tlm_phase resp = tlm::BEGIN_RESP;
      mem_bw(gp, resp, d);
    }
  }
}

tlm::tlm_sync_enum agt::mem_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                               sc_core::sc_time&) {
  if (phase == tlm::END_REQ) {
    if (&gp == m_mem_blocked) m_mem_blocked = nullptr;
    send_fetches();
    return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  // A response implies the end of its own request phase (not of another fetch's).
  if (&gp == m_mem_blocked) m_mem_blocked = nullptr;
  const mem_request& r = payload_pool::request(gp);
  auto* asked = static_cast<tlm::tlm_generic_payload*>(r.origin);
  if (asked->get_command() == tlm::TLM_READ_COMMAND)
    m_fetch_cycles +=
        clock().cycle_at_fs(clock_domain::now_fs()) - clock().cycle_at_fs(r.issue_time_fs);
  m_pool.release(gp);
  edge_dispatcher::progress();
  asked->set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  scheduler->nb_transport_bw(*asked, ph, d);
  send_fetches();
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

GPUTLM_BLOCK("agt", agt, "DTBL Aggregated Group Table", {});

}  // namespace gputlm::control
