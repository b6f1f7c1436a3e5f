#include "models/memory/l2_cache.h"

#include "models/common/block_factory.h"
#include "models/memory/sectors.h"
#include "models/power/power_component.h"

namespace gputlm::memory {

l2_cache::l2_cache(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("icnt", icnt);
  declare_socket("dram", dram);
  icnt.register_nb_transport_fw(this, &l2_cache::icnt_fw);
  icnt.register_b_transport(this, &component::at_only);
  icnt.register_transport_dbg(this, &l2_cache::icnt_dbg);
  dram.register_nb_transport_bw(this, &l2_cache::dram_bw);
  m_down.bind(dram);
  m_up.bind(icnt);

  m_stats_v.register_with(*this, "L2->DRAM queue");
  m_stats_v.by_access.register_with(
      *this,
      {access_type::global_read, access_type::local_read, access_type::constant_read,
       access_type::texture_read, access_type::global_write, access_type::local_write,
       access_type::l1_writeback, access_type::instruction_read, access_type::l1_write_allocate});
  add_stat("writes", m_stats_v.writes, "writes taken");
  add_stat("atomics", m_stats_v.atomics, "atomics executed");
  add_stat("instruction_fill_bytes", m_stats_v.instruction_fill_bytes,
           "bytes asked of DRAM for instruction-cache misses (code, not data): their fills, or the "
           "requests themselves past a switched-off L2");
  add_stat("warmed_lines", m_stats_v.warmed_lines,
           "lines made valid by MemcpyHtoD before the run (warm_from_memcpy)");
  add_stat("reservation_fails.response_queue_full", m_stats_v.fail_response_queue,
           "lookups held: L2->icnt queue full");

  m_wake.bind<l2_cache, &l2_cache::run>(this, clock());
  declare_port("events", events);
  array.bind(m_array);
  declare_export("array", array);
}

void l2_cache::validate() {
  m_cache.validate();
  cache_geometry geometry = m_cache.geometry();
  if (!m_address_map->empty()) {
    const std::string err = address_decoder::check(*m_address_map);
    m_address_map.require(err.empty(), err);
    m_channels.require(*m_channels >= 1 && *m_channels <= 4096, "must be 1..4096");
    m_sub_partitions.require(*m_sub_partitions >= 1 && *m_sub_partitions <= 64, "must be 1..64");
    m_partition =
        std::make_unique<address_decoder>(*m_address_map, static_cast<std::uint32_t>(*m_channels),
                                          static_cast<std::uint32_t>(*m_sub_partitions));
    geometry.partition = m_partition.get();
  }
  m_logic = std::make_unique<cache_logic>(geometry);
  m_power = std::make_unique<cache_power>(*this, geometry, events);
  m_array.attach(*m_logic, *m_power, *this);
  m_origin_tags.resize(*m_cache.mshr_entries + 1);
  m_ready_slots.reserve(*m_cache.mshr_merge);
  m_stats_v.mshr_occupancy = histogram(1, *m_cache.mshr_entries + 1);
  for (const param<std::uint64_t>* q :
       {&m_icnt_to_l2_queue, &m_l2_to_dram_queue, &m_l2_to_icnt_queue})
    q->require(**q >= 1, "a queue needs at least one entry");
  m_data_port = m_cache.data_port_width->value ? m_cache.data_port_width->value : 1;
}

void l2_cache::add_traces(vcd_writer& vcd) {
  m_power->add_traces(vcd, name());
  m_trace_mshr.trace(vcd, name(), "mshr_entries", 16);
  m_trace_mshr_slots.trace(vcd, name(), "mshr_slots", 16);
  m_trace_in.trace(vcd, name(), "icnt_to_l2", 16);
  m_trace_to_dram.trace(vcd, name(), "l2_to_dram", 16);
  m_trace_out.trace(vcd, name(), "l2_to_icnt", 16);
  m_trace_busy.trace(vcd, name(), "busy", 1);
  m_trace_stalled.trace(vcd, name(), "stalled", 1);
}

std::string l2_cache::pending_work() const {
  if (!busy()) return {};
  const mshr_table& m = m_logic->mshr();
  return "ROP " + std::to_string(m_rop.size()) + ", in " + std::to_string(m_in.size()) +
         (m_head_failed ? " (head failed)" : "") + ", held " + std::to_string(m_held ? 1 : 0) +
         "; towards the DRAM " + std::to_string(m_to_dram.size()) + m_down.wait_note() + "; out " +
         std::to_string(m_out.size()) + m_up.wait_note() + "; MSHRs " + std::to_string(m.used()) +
         "/" + std::to_string(m.capacity());
}

bool l2_cache::busy() const {
  return m_held || !m_rop.empty() || !m_in.empty() || !m_to_dram.empty() || !m_out.empty() ||
         m_logic->mshr().used() > 0;
}

std::size_t l2_cache::warm(std::uint64_t addr, std::uint64_t size) {
  const std::uint64_t line = m_cache.line_size->value;
  std::size_t n = 0;
  for (std::uint64_t a = addr & ~(line - 1); a < addr + size; a += line) {
    if (!m_logic->warm(a, 0xf)) continue;
    ++n;
    if (events.any()) {  // a line that holds data before the run
      const auto frame = static_cast<std::uint32_t>(m_logic->tags().lookup(a));
      const std::uint64_t t = now_fs();
      events.notify([frame, t](cache_events& o) { o.warmed(frame, t); });
    }
  }
  return n;
}

unsigned l2_cache::icnt_dbg(tlm::tlm_generic_payload& gp) {
  if (!*m_warm_from_memcpy || !gp.is_write()) return 0;
  m_stats_v.warmed_lines += warm(gp.get_address(), gp.get_data_length());
  ++m_logic_changes;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return gp.get_data_length();
}

tlm::tlm_sync_enum l2_cache::icnt_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  if (ph == tlm::BEGIN_REQ) {
    if (!m_held && can_admit(now)) {
      admit(gp, now);
      wake_at(m_rop.front().at);
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    m_held = &gp;
    wake_at(now + 1);
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP) {
    m_up.end_resp(gp);
    wake_at(now);
  }
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum l2_cache::dram_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  m_down.end_req(gp);
  if (ph == tlm::BEGIN_RESP) {
    mem_request& req = payload_pool::request(gp);
    const int* tag = static_cast<const int*>(req.origin);
    const bool own = tag >= m_origin_tags.data() && tag <= &m_origin_tags.back();
    if (own && tag != &m_origin_tags.back()) {  // a fill
      const int idx = static_cast<int>(tag - m_origin_tags.data());
      if (events.any()) {
        const std::uint32_t set = m_logic->tags().set_of(gp.get_address());
        events.notify([set](cache_events& o) { o.filled(set); });
      }
      fill_result f = m_logic->fill(idx, req.sector_mask, m_ready_slots);
      ++m_logic_changes;
      m_power->fill(f.frame, req.sector_mask);
      if (f.writeback) {
        ++m_stats_v.writebacks;
        send_down(f.wb_line, popcount8(f.wb_sectors) * 32, tlm::TLM_WRITE_COMMAND, req,
                  access_kind::writeback, f.wb_sectors, -1, now);
      }
      for (const mshr_table::slot& s : m_ready_slots) {
        auto* requester = static_cast<tlm::tlm_generic_payload*>(s.requester);
        payload_pool::request(*requester).served = mem_request::by_dram;
        m_out.push({now, requester});
      }
      m_ready_slots.clear();
      sample_mshr(now);
    }
    if (own) {
      m_pool.release(gp);
    } else if (*m_bypass) {  // a request past the switched-off cache: the reply
      --m_bypassing;
      payload_pool::request(gp).served = mem_request::by_dram;
      m_out.push({now, &gp});
    } else {
      gp.release();
    }
    wake_at(now);
    return tlm::TLM_COMPLETED;
  }
  wake_at(now);
  return tlm::TLM_ACCEPTED;
}

void l2_cache::send_down(std::uint64_t addr, unsigned length, tlm::tlm_command cmd,
                         const mem_request& from, access_kind kind, std::uint8_t sectors, int mshr,
                         std::uint64_t now) {
  tlm::tlm_generic_payload& gp = m_pool.acquire(addr, length, cmd);
  mem_request& r = payload_pool::request(gp);
  r = from;
  r.kind = kind;
  r.sector_mask = sectors;
  r.origin = mshr >= 0 ? &m_origin_tags[mshr] : &m_origin_tags.back();
  m_to_dram.push({now + m_dram_latency->value, &gp});
}

void l2_cache::sample_mshr(std::uint64_t now) {
  if (now > m_sampled_at) m_stats_v.mshr_occupancy.sample(m_last_used, now - m_sampled_at);
  m_sampled_at = now;
  m_last_used = m_logic->mshr().used();
  m_trace_mshr.set(static_cast<unsigned>(m_last_used));
  m_trace_mshr_slots.set(static_cast<unsigned>(m_logic->mshr().slots_used()));
}

bool l2_cache::try_access(tlm::tlm_generic_payload& gp, std::uint64_t now) {
  mem_request& req = payload_pool::request(gp);
  const std::uint32_t line = static_cast<std::uint32_t>(m_cache.line_size->value);
  const std::uint8_t sectors = req.sector_mask ? req.sector_mask : sectors_of(gp, line);
  const bool first = !m_head_failed;
  if (first) ++m_stats_v.accesses;
  if (req.kind == access_kind::flag_store || req.kind == access_kind::flag_load) flag_access(gp);
  m_failure.logic_changes = m_logic_changes;
  m_failure.in_lookup = false;
  auto fail = [&](counter& c) {
    if (first) ++c;
    return false;
  };
  if (m_out.size() >= *m_l2_to_icnt_queue) return fail(m_stats_v.fail_response_queue);
  if (*m_bypass) return bypass(gp, now);
  m_failure.in_lookup = true;
  m_failure.dram_room = dram_room();
  const std::size_t depth = *m_l2_to_dram_queue;
  const bool write = gp.is_write() && req.kind != access_kind::atomic;

  access_request ar;
  ar.addr = gp.get_address();
  ar.sectors = sectors;
  ar.write = write;
  ar.requester = &gp;
  ar.miss_queue_free = m_failure.dram_room;
  ar.miss_queue_depth = depth;
  const access_result r = m_logic->access(ar);
  const access_type type = type_of(req);
  if (r.kind == access_result::fail) {
    if (first) m_stats_v.count_held(type);
    switch (r.cause) {
      case fail_cause::mshr_full:
        return fail(m_stats_v.fail_mshr_full);
      case fail_cause::merge_limit:
        return fail(m_stats_v.fail_merge_limit);
      case fail_cause::no_line:
        return fail(m_stats_v.fail_no_line);
      default:
        return fail(m_stats_v.fail_miss_queue_full);
    }
  }
  // A request that joined a pending miss (merged, or a sector miss added to its entry).
  const bool merged = r.kind == access_result::merged ||
                      (r.kind == access_result::miss && m_logic->mshr().slot_count(r.mshr) > 1);
  m_stats_v.count_lookup(type, r, merged, sectors, write);
  const std::uint64_t wake = m_power->access(r, sectors, merged);
  if (req.kind == access_kind::atomic) ++m_stats_v.atomics;
  if (r.evicted) ++m_stats_v.evictions;
  if (r.writeback) {
    ++m_stats_v.writebacks;
    send_down(r.wb_line, popcount8(r.wb_sectors) * 32, tlm::TLM_WRITE_COMMAND, req,
              access_kind::writeback, r.wb_sectors, -1, now);
  }
  switch (r.kind) {
    case access_result::hit:
      req.served = mem_request::by_l2;
      m_out.push({now + wake, &gp});
      break;
    case access_result::merged:
      break;
    case access_result::miss: {
      const unsigned len = *m_cache.sectored ? popcount8(r.fetch) * 32 : line;
      send_down(r.line, len, tlm::TLM_READ_COMMAND, req, access_kind::fill, r.fetch, r.mshr, now);
      if (req.kind == access_kind::instruction_fetch) m_stats_v.instruction_fill_bytes += len;
      break;
    }
    case access_result::write_done:
      ++m_stats_v.writes;
      if (r.forward_write)
        send_down(gp.get_address(), gp.get_data_length(), tlm::TLM_WRITE_COMMAND, req, req.kind,
                  sectors, -1, now);
      m_out.push({now + wake, &gp});
      break;
    case access_result::fail:
      break;
  }
  sample_mshr(now);
  return true;
}

void l2_cache::flag_access(tlm::tlm_generic_payload& gp) {
  // The point of coherence holds a status word's value: a store sets it, a poll reads it.
  flag_word f = read_flag(gp);
  if (payload_pool::request(gp).kind == access_kind::flag_store) {
    m_flag_values[f.address] = f.value;
    return;
  }
  const auto it = m_flag_values.find(f.address);
  f.value = it == m_flag_values.end() ? 0 : it->second;
  write_flag(gp, f);
}

bool l2_cache::bypass(tlm::tlm_generic_payload& gp, std::uint64_t now) {
  // The switched-off cache holds nothing: the request goes on as it came, while the reply it
  // owes has room in the L2->icnt queue.
  if (m_out.size() + m_bypassing >= *m_l2_to_icnt_queue) {
    if (!m_head_failed) ++m_stats_v.fail_response_queue;
    return false;
  }
  if (dram_room() == 0) {
    if (!m_head_failed) ++m_stats_v.fail_miss_queue_full;
    m_failure.in_lookup = true;
    m_failure.dram_room = 0;
    return false;
  }
  if (gp.is_write()) ++m_stats_v.writes;
  if (payload_pool::request(gp).kind == access_kind::instruction_fetch)
    m_stats_v.instruction_fill_bytes += gp.get_data_length();
  ++m_bypassing;
  m_to_dram.push({now + m_dram_latency->value, &gp});
  return true;
}

std::size_t l2_cache::dram_room() const {
  const std::size_t depth = *m_l2_to_dram_queue;
  const std::size_t held = m_to_dram.size() + (m_down.busy() ? 1 : 0);
  return held < depth ? depth - held : 0;
}

bool l2_cache::would_fail_again() const {
  // The lookup depends on the tags and MSHRs, and is monotone in the room towards the DRAM.
  if (m_logic_changes != m_failure.logic_changes) return false;
  if (m_out.size() >= *m_l2_to_icnt_queue) return true;
  return m_failure.in_lookup && dram_room() <= m_failure.dram_room;
}

void l2_cache::wake_at(std::uint64_t cycle) { m_wake.at(cycle); }

void l2_cache::run() {
  const std::uint64_t now = clock().now_cycle();
  m_wake.fired();
  std::uint64_t next = ~std::uint64_t(0);
  bool changed = false;

  // Lookup of the icnt->L2 queue's head, one per cycle.
  if (!m_in.empty()) {
    tlm::tlm_generic_payload* h = m_in.front();
    if (now < m_next_lookup) {
      next = std::min(next, m_next_lookup);
    } else if (m_head_failed && would_fail_again()) {
      // the same outcome as the last try, which has been counted
    } else if (try_access(*h, now)) {
      m_in.pop();
      m_head_failed = false;
      {
        const std::uint64_t t = now_fs();
        const bool more = !m_in.empty();
        events.notify([t, more](cache_events& o) { o.input_taken(t, more); });
      }
      m_next_lookup = now + 1;
      if (!m_in.empty()) next = std::min(next, now + 1);
    } else {
      if (!m_head_failed && events.any()) {  // the failed head waits for its set to fill
        const std::uint32_t set = m_logic->tags().set_of(h->get_address());
        const std::uint64_t t = now_fs();
        events.notify([set, t](cache_events& o) { o.reservation_failed(set, t); });
      }
      m_head_failed = true;
      m_next_lookup = now + 1;  // one lookup a cycle, also when a run repeats in the cycle
    }
  }

  // The ROP pipeline's head enters the icnt->L2 queue once its delay is over and the queue
  // has room, one a cycle (after the cycle's lookup).
  if (!m_rop.empty()) {
    const timed r = m_rop.front();
    if (r.at <= now && m_in.size() < *m_icnt_to_l2_queue && m_rop_moved_at != now) {
      m_rop.pop();
      m_rop_moved_at = now;
      m_in.push(r.gp);
      // The request leaves the ROP pipeline, ready since r.at, seen coming since it entered.
      if (events.any()) {
        const std::uint64_t period = clock().period().value();
        const std::uint64_t at = now_fs() - (now - r.at) * period;
        const std::uint64_t rop = m_rop_latency->value * period;
        const std::uint64_t seen = at > rop ? at - rop : 0;  // it entered the ROP pipeline
        events.notify([at, seen](cache_events& o) { o.request_ready(at, seen); });
      }
      next = std::min(next, now + 1);
      if (!m_rop.empty()) next = std::min(next, std::max(now + 1, m_rop.front().at));
    } else if (r.at > now || m_rop_moved_at == now) {
      next = std::min(next, std::max(r.at, now + 1));
    }  // (else the queue is full: a lookup that frees it runs again the next cycle)
  }

  // A request held at the entrance enters once it may be admitted.
  if (m_held) {
    if (can_admit(now)) {
      tlm::tlm_generic_payload* gp = m_held;
      m_held = nullptr;
      admit(*gp, now);
      next = std::min(next, std::max(m_rop.front().at, now + 1));
      tlm::tlm_phase ph = tlm::END_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      icnt->nb_transport_bw(*gp, ph, t);
    } else if (m_admitted_at == now) {
      next = std::min(next, now + 1);
    }  // (else the queue is full: a lookup that frees it runs again the next cycle)
  }

  // L2 -> DRAM, one per cycle after dram_latency.
  if (!m_to_dram.empty() && !m_down.busy()) {
    if (m_to_dram.front().at <= now && now >= m_next_send) {
      tlm::tlm_generic_payload* gp = m_to_dram.front().gp;
      m_to_dram.pop();
      m_next_send = now + 1;
      changed = true;
      m_down.send(*gp);
    }
    if (!m_to_dram.empty() && !m_down.busy())  // (else its END_REQ or response wakes it)
      next = std::min(next, std::max({now + 1, m_to_dram.front().at, m_next_send}));
  }

  // L2 -> interconnect, one per cycle at most.
  if (!m_out.empty() && !m_up.busy() && now >= m_next_response && now >= m_out.front().at) {
    tlm::tlm_generic_payload* gp = m_out.front().gp;
    m_out.pop();
    const mem_request& req = payload_pool::request(*gp);
    // The data port moves data_port_width bytes a cycle: a 128 B reply through a 32 B port
    // occupies it for four cycles.
    const std::uint64_t port = m_data_port;
    const std::uint64_t data =
        gp->is_read() || req.kind == access_kind::atomic ? gp->get_data_length() : 0;
    m_next_response = now + std::max<std::uint64_t>(1, (data + port - 1) / port);
    changed = true;
    if (req.kind == access_kind::atomic) {  // the read-modify-write leaves the line dirty
      ++m_logic_changes;
      m_logic->mark_dirty(
          gp->get_address(),
          req.sector_mask ? req.sector_mask
                          : sectors_of(*gp, static_cast<std::uint32_t>(m_cache.line_size->value)));
    }
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    m_up.send(*gp);
  }
  if (!m_out.empty() && !m_up.busy())  // (at: later than now only while a line wakes up)
    next = std::min(next, std::max({now + 1, m_next_response, m_out.front().at}));

  if (changed && m_head_failed) next = std::min(next, now + 1);
  m_trace_in.set(static_cast<unsigned>(m_in.size()));
  m_trace_out.set(static_cast<unsigned>(m_out.size()));
  m_trace_to_dram.set(static_cast<unsigned>(m_to_dram.size()));
  m_trace_busy.set(busy());
  m_trace_stalled.set(!m_in.empty() && m_head_failed);
  if (next != ~std::uint64_t(0)) wake_at(next);
}

GPUTLM_BLOCK("l2_cache", l2_cache, "L2 bank of a memory sub-partition", {});

}  // namespace gputlm::memory
