#include "models/memory/dram_channel.h"

#include "models/common/mem_request.h"
#include "models/memory/sectors.h"

#include "models/common/block_factory.h"

#include <algorithm>

namespace gputlm::memory {

namespace {
// Bounds that keep a channel's tables a sane size (checked before anything is sized).
constexpr std::uint64_t max_sub_partitions = 16;
constexpr std::uint64_t max_queue = 4096;  // queue_depth, return_queue
constexpr std::uint64_t max_banks = 64;    // the scheduler keeps banks in 64-bit masks
constexpr std::uint64_t max_atom = 4096;   // burst_length x bus_width x chips, bytes
}  // namespace

dram_channel::dram_channel(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  // One socket per sub-partition, as many as the platform binds.
  m_sub_partitions = bound_array("l2", 1, max_sub_partitions);
  for (std::uint64_t i = 0; i < m_sub_partitions; ++i) {
    l2.push_back(std::make_unique<socket_type>(("l2_" + std::to_string(i)).c_str()));
    l2.back()->register_nb_transport_fw(this, &dram_channel::l2_fw, static_cast<int>(i));
    l2.back()->register_b_transport(this, &component::at_only_tagged, static_cast<int>(i));
    declare_socket("l2[" + std::to_string(i) + "]", *l2.back());
  }
  m_up.resize(l2.size());
  for (std::size_t i = 0; i < l2.size(); ++i) m_up[i].bind(*l2[i]);
  m_held.assign(l2.size(), nullptr);
  declare_port("events", events);

  const std::string map = address_decoder::check(*m_address_map).empty()
                              ? *m_address_map
                              : std::string("dramid@8;") + std::string(64, '0');
  m_decoder = std::make_unique<address_decoder>(
      map, static_cast<std::uint32_t>(std::max<std::uint64_t>(1, *m_channels)),
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, m_sub_partitions)));
  m_completions.reserve(4);

  add_stat("reads", m_stats_v.reads, "read requests");
  add_stat("writes", m_stats_v.writes, "write requests");
  add_stat("row_hits", m_stats_v.row_hits, "requests served from an open row");
  add_stat("row_misses", m_stats_v.row_misses, "requests that needed an activate");
  add_stat("bytes", m_stats_v.bytes, "bytes moved on the data bus (column accesses x atom)");
  add_stat("requested_bytes", m_stats_v.requested_bytes,
           "bytes the requests asked for (their lengths; below `bytes` when a request's "
           "sectors take whole atoms)");
  add_stat(
      "row_hit_rate",
      [this] {
        const double n = double(m_stats_v.row_hits.value() + m_stats_v.row_misses.value());
        return n ? double(m_stats_v.row_hits.value()) / n : 0.0;
      },
      "row hits / requests");
  add_stat(
      "achieved_bandwidth_gbps", [this] { return achieved_bandwidth() / 1e9; },
      "GB/s between the first arrival and the last data beat");
  add_stat(
      "avg_latency",
      [this] {
        const double n = double(m_stats_v.reads.value() + m_stats_v.writes.value());
        return n ? double(m_stats_v.latency_sum) / n : 0.0;
      },
      "DRAM cycles from arrival in the queue to the last data beat");
  add_stat(
      "avg_queueing_latency",
      [this] {
        const double n = double(m_stats_v.reads.value() + m_stats_v.writes.value());
        return n ? double(m_stats_v.queueing_sum) / n : 0.0;
      },
      "DRAM cycles from arrival in the queue to the first command issued for the request");
  add_stat("queue_occupancy", m_stats_v.queue_occupancy, "cycles with n requests queued");

  m_wake.bind<dram_channel, &dram_channel::run>(this, clock());
  // Never woken unless `bytes` or `data_bus` is traced.
  m_bus_wake.bind<dram_channel, &dram_channel::trace_bus>(this, clock());
}

double dram_channel::peak_bandwidth() const {
  return double(*m_chips) * double(m_bus_width->value) * double(*m_data_rate) * clock().frequency();
}

double dram_channel::achieved_bandwidth() const {
  if (m_stats_v.last_cycle <= m_stats_v.first_cycle || m_stats_v.first_cycle == ~std::uint64_t(0))
    return 0.0;
  return double(m_stats_v.bytes.value()) * clock().frequency() /
         double(m_stats_v.last_cycle - m_stats_v.first_cycle);
}

void dram_channel::validate() {
  auto power_of_two = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  m_channels.require(*m_channels >= 1, "must be at least 1");
  m_chips.require(*m_chips >= 1, "must be at least 1");
  m_chips.require(*m_chips <= max_atom, "must be at most " + std::to_string(max_atom));
  m_bus_width.require(m_bus_width->value >= 1, "must be at least 1B");
  m_bus_width.require(m_bus_width->value <= max_atom,
                      "must be at most " + units::format_bytes(max_atom));
  m_burst_length.require(*m_burst_length >= 1, "must be at least 1");
  m_burst_length.require(*m_burst_length <= max_atom,
                         "must be at most " + std::to_string(max_atom));
  // Each factor is at most 4096, so the product does not wrap.
  m_burst_length.require(*m_burst_length * m_bus_width->value * *m_chips <= max_atom,
                         "burst_length x bus_width x chips (bytes per column access) must be "
                         "at most " +
                             units::format_bytes(max_atom));
  m_data_rate.require(*m_data_rate >= 1, "must be at least 1");
  m_banks.require(*m_banks >= 1 && *m_banks % m_sub_partitions == 0,
                  "must be a positive multiple of the " + std::to_string(m_sub_partitions) +
                      " sub-partitions served (l2[i])");
  m_banks.require(*m_banks <= max_banks, "at most 64 banks per channel");
  m_bank_groups.require(power_of_two(*m_bank_groups) && *m_banks % *m_bank_groups == 0,
                        "must be a power of two dividing banks");
  m_queue_depth.require(*m_queue_depth >= 1, "must be at least 1");
  m_queue_depth.require(*m_queue_depth <= max_queue,
                        "must be at most " + std::to_string(max_queue));
  m_return_queue.require(*m_return_queue >= 1, "must be at least 1");
  m_return_queue.require(*m_return_queue <= max_queue,
                         "must be at most " + std::to_string(max_queue));
  const std::string err = address_decoder::check(*m_address_map);
  m_address_map.require(err.empty(), err);
  m_address_map.require(err.empty() && m_decoder->banks() >= *m_banks,
                        "has fewer B bits than log2(banks)");

  // The geometry is valid: build the scheduler and size the tables.
  dram_timing t;
  t.banks = static_cast<std::uint32_t>(*m_banks);
  m_bank_count = t.banks;
  m_xor_banks = m_bank_indexing.is("xor");
  t.bank_groups = static_cast<std::uint32_t>(*m_bank_groups);
  t.bank_group_low_bits = m_bank_group_indexing.is("low_bits");
  auto c = [](const param<cycles>& p) { return static_cast<std::uint32_t>(p->value); };
  t.tCCD = c(m_tCCD);
  t.tRRD = c(m_tRRD);
  t.tRCD = c(m_tRCD);
  t.tRAS = c(m_tRAS);
  t.tRP = c(m_tRP);
  t.tRC = c(m_tRC);
  t.CL = c(m_CL);
  t.WL = c(m_WL);
  t.tCDLR = c(m_tCDLR);
  t.tWR = c(m_tWR);
  t.tCCDL = c(m_tCCDL);
  t.tRTPL = c(m_tRTPL);
  t.burst_cycles =
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, *m_burst_length / *m_data_rate));
  t.dual_bus = *m_dual_bus;
  m_sched = std::make_unique<dram_engine>(t, *m_queue_depth);
  m_atom = *m_burst_length * m_bus_width->value * *m_chips;

  const std::size_t slots = *m_queue_depth + *m_return_queue;
  m_arrival.assign(slots, waiting{});
  m_port_of.assign(slots, 0);
  m_free_slots.clear();
  m_free_slots.reserve(slots);
  for (std::size_t s = slots; s-- > 0;) m_free_slots.push_back(static_cast<std::uint32_t>(s));
  m_stats_v.queue_occupancy = histogram(1, *m_queue_depth + 1);
  m_trace_open_row.assign(t.banks, traced_value(k_row_closed));
}

std::string dram_channel::pending_work() const {
  std::size_t held = 0;
  for (const tlm::tlm_generic_payload* h : m_held) held += h != nullptr;
  if (!busy() && held == 0) return {};
  return "queued " + std::to_string(m_sched->size()) +
         (m_sched->empty() ? "" : " (" + m_sched->describe_oldest() + ")") +
         "; held at the full queue " + std::to_string(held) + "; responses to return " +
         std::to_string(m_done.size());
}

void dram_channel::add_traces(vcd_writer& vcd) {
  m_trace_queue.trace(vcd, name(), "queue", 16);
  m_trace_busy.trace(vcd, name(), "busy", 1);
  m_trace_bytes.trace(vcd, name(), "bytes", 48, vcd_writer::display::analog);
  m_trace_data_bus.trace(vcd, name(), "data_bus", 1);
  for (std::size_t b = 0; b < m_trace_open_row.size(); ++b) {
    m_trace_open_row[b].trace(vcd, name(), "bank[" + std::to_string(b) + "].open_row", 32,
                              vcd_writer::display::hex);
    m_trace_rows = m_trace_rows || m_trace_open_row[b].traced();
  }
  m_trace_data = m_trace_bytes.traced() || m_trace_data_bus.traced();
}

void dram_channel::trace_commands() {
  if (m_trace_rows) {
    const std::uint64_t n = m_sched->activates() + m_sched->precharges();
    if (n != m_row_commands_seen) {  // one row command per step
      m_row_commands_seen = n;
      const std::uint32_t b = m_sched->last_row_bank();
      m_trace_open_row[b].set(m_sched->is_open(b) ? m_sched->open_row(b) : k_row_closed);
    }
  }
  if (m_trace_data && m_sched->bursts() != m_bursts_seen) {  // one column access per step
    m_bursts_seen = m_sched->bursts();
    m_bus_bursts.push({m_sched->last_data_start(), m_sched->last_data_end()});
    trace_bus();
  }
}

void dram_channel::trace_bus() {
  // Bursts cross the bus in issue order without overlapping (the scheduler's data-bus rule).
  // Called by its event and directly by run(); either way the next wake-up is recomputed.
  const std::uint64_t now = clock().now_cycle();
  m_bus_wake.fired();
  while (!m_bus_bursts.empty() && m_bus_bursts.front().end <= now) {
    m_trace_bytes.set(m_trace_bytes + atom());
    m_bus_bursts.pop();
  }
  const bool on = !m_bus_bursts.empty() && m_bus_bursts.front().start <= now;
  m_trace_data_bus.set(on);
  if (!m_bus_bursts.empty())
    m_bus_wake.at(on ? m_bus_bursts.front().end : m_bus_bursts.front().start);
}

void dram_channel::sample_queue(std::uint64_t now) {
  if (now > m_sampled_at) m_stats_v.queue_occupancy.sample(m_last_queue, now - m_sampled_at);
  m_sampled_at = now;
  m_last_queue = m_sched->size();
  m_trace_queue.set(static_cast<unsigned>(m_last_queue));
}

void dram_channel::accept(int id, tlm::tlm_generic_payload& gp, std::uint64_t now) {
  const std::uint32_t slot = m_free_slots.back();
  m_free_slots.pop_back();
  m_port_of[slot] = id;
  const dram_address a = m_decoder->decode(gp.get_address());
  dram_engine::request r;
  r.tag = reinterpret_cast<void*>(static_cast<std::uintptr_t>(slot));
  r.bank = a.bank % m_bank_count;
  if (m_xor_banks) r.bank = (r.bank ^ a.row) % m_bank_count;
  r.row = a.row;
  r.write = gp.is_write();
  const std::uint64_t len = gp.get_data_length() ? gp.get_data_length() : 1;
  const mem_request* m = payload_pool::find_request(gp);
  if (m) r.from = {m->smx, m->warp, m->pc, m->priority};
  if (*m_sector_atoms) {
    // A read: each 32-byte sector a column access of its own (at least one atom). A write
    // (an L2 write-back): one request of its modified sectors' bytes, on whole atoms.
    const std::uint64_t sectors = m && m->sector_mask ? popcount8(m->sector_mask) : (len + 31) / 32;
    r.bursts = static_cast<std::uint32_t>(r.write ? (sectors * 32 + atom() - 1) / atom()
                                                  : sectors * ((32 + atom() - 1) / atom()));
  } else {
    r.bursts = static_cast<std::uint32_t>((len + atom() - 1) / atom());
  }
  r.arrival = now;
  m_sched->push(r);
  m_arrival[slot] = {&gp, r};
  if (events.any()) {
    const std::size_t queued = m_sched->size();
    events.notify([&r, queued](dram_events& o) { o.request_queued(r, queued); });
  }
  if (r.write)
    ++m_stats_v.writes;
  else
    ++m_stats_v.reads;
  m_stats_v.first_cycle = std::min(m_stats_v.first_cycle, now);
  sample_queue(now);
}

tlm::tlm_sync_enum dram_channel::l2_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                       sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  if (ph == tlm::BEGIN_REQ) {
    wake_at(now);
    if (!m_sched->full() && !m_free_slots.empty()) {
      accept(id, gp, now);
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    m_held[id] = &gp;
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP) {
    m_up[id].end_resp(gp);
    wake_at(now);
  }
  return tlm::TLM_ACCEPTED;
}

void dram_channel::wake_at(std::uint64_t cycle) {
  m_wake.at(cycle);
}

void dram_channel::run() {
  const std::uint64_t now = clock().now_cycle();
  m_wake.fired();
  std::uint64_t next = ~std::uint64_t(0);

  auto step = [&] {
    const std::size_t before = m_sched->size();
    const std::uint64_t n = m_sched->step(now, m_completions, *m_chooser);
    if (m_sched->activates() != m_power_acts || m_sched->precharges() != m_power_pres) {
      m_power.record(activate_event, m_sched->activates() - m_power_acts);
      m_power.record(precharge_event, m_sched->precharges() - m_power_pres);
      m_power_acts = m_sched->activates();
      m_power_pres = m_sched->precharges();
    }
    if (m_trace_rows || m_trace_data) trace_commands();
    for (const dram_engine::completion& c : m_completions) {
      const auto slot = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(c.tag));
      const tlm::tlm_generic_payload& gp = *m_arrival[slot].gp;
      m_done.push({c.done, m_arrival[slot].gp, static_cast<int>(slot)});
      if (c.row_hit)
        ++m_stats_v.row_hits;
      else
        ++m_stats_v.row_misses;
      const std::uint64_t atoms = m_arrival[slot].req.bursts;
      m_stats_v.bytes += atoms * atom();
      m_stats_v.requested_bytes += gp.get_data_length();
      m_power.record(gp.is_write() ? write_event : read_event, atoms);
      const std::uint64_t arrival = m_arrival[slot].req.arrival;
      m_stats_v.latency_sum += c.done - arrival;
      m_stats_v.queueing_sum += c.first_command - std::min(c.first_command, arrival);
      if (events.any()) {
        const dram_engine::request& r = m_arrival[slot].req;
        events.notify([&r, &c](dram_events& o) {
          o.request_served(r, c.row_hit, c.first_command, c.done);
        });
      }
      m_stats_v.last_cycle = std::max(m_stats_v.last_cycle, c.done);
    }
    m_completions.clear();
    if (m_sched->size() != before) sample_queue(now);
    return n;
  };
  std::uint64_t sched_next = step();

  // Requests held at a full queue enter, oldest socket first in round robin.
  bool took = false;
  for (std::size_t k = 0; k < m_held.size() && !m_sched->full() && !m_free_slots.empty(); ++k) {
    const std::size_t i = (m_held_rr + k) % m_held.size();
    if (!m_held[i]) continue;
    tlm::tlm_generic_payload* gp = m_held[i];
    m_held[i] = nullptr;
    accept(static_cast<int>(i), *gp, now);
    m_held_rr = static_cast<std::uint32_t>(i + 1);
    took = true;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    (*l2[i])->nb_transport_bw(*gp, ph, t);
  }
  if (took) sched_next = step();
  next = std::min(next, sched_next);

  // Return path: each request's BEGIN_RESP when its last beat has left the bus.
  while (!m_done.empty() && m_done.front().at <= now) {
    const done d = m_done.front();
    const int port = m_port_of[static_cast<std::size_t>(d.port)];
    if (m_up[port].busy()) break;
    m_done.pop();
    m_free_slots.push_back(static_cast<std::uint32_t>(d.port));
    d.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    m_up[port].send(*d.gp);
  }
  if (!m_done.empty()) next = std::min(next, std::max(now + 1, m_done.front().at));
  for (tlm::tlm_generic_payload* h : m_held)
    if (h && !m_sched->full()) next = std::min(next, now + 1);  // a return slot was freed
  m_trace_busy.set(busy());
  if (next != dram_engine::never) wake_at(next);
}

GPUTLM_BLOCK("dram_channel", dram_channel, "DRAM channel: banks, timing and a request chooser", {"scheduler"});

}  // namespace gputlm::memory
