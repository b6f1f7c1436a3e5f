#include "models/memory/l1_cache.h"

#include <algorithm>
#include <sstream>

#include "models/common/block_factory.h"

#include "models/memory/sectors.h"
#include "models/power/power_component.h"
#include "models/rtl/mshr_table_rtl.h"

namespace gputlm::memory {

l1_cache::l1_cache(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("core", core);
  declare_socket("icnt", icnt);
  core.register_nb_transport_fw(this, &l1_cache::core_fw);
  core.register_b_transport(this, &component::at_only);
  icnt.register_nb_transport_bw(this, &l1_cache::icnt_bw);
  m_down.bind(icnt);
  m_up.bind(core);

  m_stats_v.register_with(*this, "miss queue");
  m_stats_v.by_access.register_with(
      *this, {access_type::global_read, access_type::local_read, access_type::constant_read,
              access_type::texture_read, access_type::global_write, access_type::local_write});
  add_stat("stores", m_stats_v.stores, "stores taken");
  add_stat("bypassed", m_stats_v.bypassed,
           "atomics and bypassing loads and stores passed to the interconnect");
  add_stat("flushes", m_stats_v.flushes,
           "kernel-end flush requests from the SMX (lines invalidated if flush_at_kernel_end)");
  add_stat("bank_conflicts", m_stats_v.bank_conflicts,
           "requests that waited for a busy data bank (END_REQ withheld)");
  add_stat("carveouts", m_stats_v.carveouts,
           "kernels' shared-memory carve-outs applied to the unified array (unified_size)");
  add_stat(
      "active_ways", [this] { return double(m_logic ? m_logic->tags().active_ways() : 0); },
      "ways that may hold lines at the end (unified_size: the last kernel's carve-out)");
  add_stat("lookup_bank_conflicts", m_stats_v.lookup_bank_conflicts,
           "requests that waited a cycle because an earlier lookup of the cycle used their "
           "bank (lookups_per_cycle > 1)");
  add_stat("bank_wait_cycles", m_stats_v.bank_wait_cycles,
           "cycles requests waited for a data bank");
  add_stat("data_port_cycles", m_stats_v.data_port_cycles,
           "bank-cycles the data array was busy with hits and fills");
  add_stat("mshr_slots", m_stats_v.mshr_slots, "cycles with n MSHR slots in use");

  m_wake.bind<l1_cache, &l1_cache::run>(this, clock());
  declare_port("events", events);
  array.bind(m_array);
  declare_export("array", array);
  mshr_state.bind(*this);
  declare_export("mshr_state", mshr_state);
  mshr_cancel_port.bind(*this);
  declare_export("mshr_cancel", mshr_cancel_port);
}

std::size_t l1_cache::cancel_warp(std::uint32_t warp, std::vector<tlm::tlm_generic_payload*>& out) {
  if (!mshr_inspectable()) return 0;
  mshr_table& t = m_logic->mshr();
  m_requesters.clear();
  std::size_t n = 0;
  for (int idx : t.order())
    n += t.cancel(
        idx,
        [warp](void* r) {
          return payload_pool::request(*static_cast<tlm::tlm_generic_payload*>(r)).warp == warp;
        },
        m_requesters);
  for (void* r : m_requesters) out.push_back(static_cast<tlm::tlm_generic_payload*>(r));
  return n;
}

bool l1_cache::mshr_newest(std::size_t k, std::size_t& slots,
                           std::vector<std::uint32_t>& warps) const {
  const int idx = mshr_inspectable() ? mshr().newest(k) : -1;
  if (idx < 0) return false;
  slots = mshr().slot_count(idx);
  m_requesters.clear();
  mshr().requesters(idx, m_requesters);
  // A requester is the SMX's payload (try_access); a fill of the L1's own has none.
  for (void* r : m_requesters)
    if (r) warps.push_back(payload_pool::request(*static_cast<tlm::tlm_generic_payload*>(r)).warp);
  return true;
}

std::uint32_t l1_cache::carveout_ways(std::uint64_t shared) const {
  // The smallest carve-out holding the kernel's shared memory (the largest if none does).
  std::uint64_t option = m_shared_option_bytes.back();
  for (std::uint64_t o : m_shared_option_bytes)
    if (shared <= o) {
      option = o;
      break;
    }
  const double ratio = 1.0 - double(option) / double(m_unified_size->value);
  return static_cast<std::uint32_t>(double(m_unified_ways) * ratio + 0.5);
}

void l1_cache::validate() {
  m_cache.validate();
  m_dirty_line_cap.require(*m_dirty_line_cap <= 100, "is a percentage (0-100)");
  // A set whose lines are all dirty holds 100 / sets % of the L1's lines: under a higher cap
  // none of them may be replaced, and a request to that set waits for good (nothing cleans a
  // line before the kernel-end flush). Only an L1 that writes back can hold dirty lines.
  if (m_cache.write_policy.is("write_back") || m_cache.write_policy.is("local_wb_global_evict"))
    m_dirty_line_cap.require(*m_dirty_line_cap * *m_cache.sets <= 100,
                             "must be at most 100 / sets = " + std::to_string(100 / *m_cache.sets) +
                                 " (a set of dirty lines would never be replaced)");
  cache_geometry geometry = m_cache.geometry();
  geometry.dirty_cap_percent = static_cast<std::uint32_t>(*m_dirty_line_cap);
  if (m_unified_size->value != 0) {  // the tag array spans the unified array
    const std::uint64_t per_way = *m_cache.sets * m_cache.line_size->value;
    m_unified_size.require(m_unified_size->value >= m_cache.size->value,
                           "must hold the L1's size (" + units::format_bytes(m_cache.size->value) +
                               ")");
    m_unified_size.require(m_unified_size->value % per_way == 0,
                           "must be a multiple of sets x line_size (" +
                               units::format_bytes(per_way) + ")");
    m_unified_size.require(m_unified_size->value / per_way <= 65534,
                           "holds more than 65534 ways of sets x line_size");
    m_shared_option_bytes.clear();
    std::istringstream in(*m_shared_options);
    for (std::string item; std::getline(in, item, ',');) {
      const auto kib = units::parse_uint(item);
      m_shared_options.require(kib && *kib * 1024 <= m_unified_size->value,
                               "expected KiB values up to unified_size, got '" + item + "'");
      m_shared_option_bytes.push_back(*kib * 1024);
    }
    m_shared_options.require(!m_shared_option_bytes.empty(), "names no carve-out");
    std::sort(m_shared_option_bytes.begin(), m_shared_option_bytes.end());
    m_unified_ways = static_cast<std::uint32_t>(m_unified_size->value / per_way);
    geometry.ways = m_unified_ways;
  }
  m_logic = std::make_unique<cache_logic>(geometry);
  if (m_unified_ways) m_logic->set_active_ways(static_cast<std::uint32_t>(*m_cache.ways));
  m_mshr_rtl.validate();
  if (m_mshr_rtl.is_rtl()) {
    m_cache.mshr_entries.require(*m_cache.mshr_entries <= rtl::mshr_table_rtl::rtl_entries,
                                 "must be at most " +
                                     std::to_string(rtl::mshr_table_rtl::rtl_entries) +
                                     " with mshr.implementation: rtl (the RTL's storage)");
    // A sectored L1's entry holds mshr_merge requests per sector: four times the slots.
    const std::uint64_t per_line = geometry.mshr_per_sector ? 4 : 1;
    const std::uint64_t slots = *m_cache.mshr_merge * per_line;
    const std::uint64_t most = rtl::mshr_table_rtl::rtl_merge / per_line;
    m_cache.mshr_merge.require(slots <= rtl::mshr_table_rtl::rtl_merge,
                               "must be at most " + std::to_string(most) +
                                   " with mshr.implementation: rtl (the RTL's storage)");
    auto backend = rtl::make_mshr_table_rtl(m_mshr_rtl,
                                            static_cast<std::size_t>(*m_cache.mshr_entries),
                                            static_cast<std::size_t>(slots));
    m_mshr_backend = backend.get();
    m_logic->use_mshr_backend(std::move(backend));
  }
  m_power = std::make_unique<cache_power>(*this, geometry, events);
  m_array.attach(*m_logic, *m_power, *this);
  m_origin_tags.resize(*m_cache.mshr_entries + 1);
  m_ready_slots.reserve(*m_cache.mshr_merge);
  m_stats_v.mshr_occupancy = histogram(1, *m_cache.mshr_entries + 1);
  m_stats_v.mshr_slots = histogram(1, *m_cache.mshr_entries * *m_cache.mshr_merge + 1);
  m_banks.require(*m_banks >= 1, "must be at least 1");
  m_banks.require(*m_banks <= 64, "must be at most 64");
  m_lookups_per_cycle.require(*m_lookups_per_cycle >= 1 && *m_lookups_per_cycle <= 64,
                              "must be 1 to 64");
  m_bank_busy_until.assign(*m_banks, 0);
  m_bank_bytes.assign(*m_banks, 0);
  m_bank_interleave.require(*m_bank_interleave >= 1, "must be at least 1 B");
  m_miss_queue_entries.require(*m_miss_queue_entries >= 1, "must be at least 1");
  m_data_port = std::max<std::uint64_t>(1, m_cache.data_port_width->value);
  {
    const std::uint64_t il = m_bank_interleave->value, nb = m_bank_bytes.size();
    m_pow2_banks = il && !(il & (il - 1)) && nb && !(nb & (nb - 1));
    m_interleave_log2 = il ? static_cast<unsigned>(__builtin_ctzll(il)) : 0;
  }
  build_bank_shares();
}

void l1_cache::build_bank_shares() {
  const std::uint64_t line = m_cache.line_size->value, il = m_bank_interleave->value;
  m_shares.clear();
  m_share_begin.clear();
  m_share_masks = 0;  // (for_each_bank_of counts per access until the table is made)
  const bool pow2_line = line && !(line & (line - 1));
  if (!pow2_line || !il || m_bank_bytes.empty() || (line % il != 0 && il % line != 0)) return;
  // A line at address 0 starts in bank 0: its banks are the relative ones.
  const std::uint32_t masks = 1u << std::min<std::uint64_t>(line / 32, 8);
  for (std::uint32_t mask = 0; mask < masks; ++mask) {
    m_share_begin.push_back(static_cast<std::uint32_t>(m_shares.size()));
    for_each_bank_of(0, static_cast<std::uint8_t>(mask), [&](std::size_t b, std::uint64_t c) {
      m_shares.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(c)});
    });
  }
  m_share_begin.push_back(static_cast<std::uint32_t>(m_shares.size()));
  m_share_masks = masks;
}

void l1_cache::add_traces(vcd_writer& vcd) {
  // The RTL MSHR table's own signals, in a file beside the waveform (docs/rtl.md).
  if (m_mshr_backend && vcd.selected(name(), "mshr.rtl"))
    m_mshr_backend->trace(vcd, std::string(name()) + ".mshr");
  m_power->add_traces(vcd, name());
  m_trace_mshr.trace(vcd, name(), "mshr_entries", 16);
  m_trace_mshr_slots.trace(vcd, name(), "mshr_slots", 16);
  m_trace_miss_queue.trace(vcd, name(), "miss_queue", 16);
  m_trace_hit_queue.trace(vcd, name(), "hit_queue", 16);
  m_trace_reply_queue.trace(vcd, name(), "reply_queue", 16);
  m_trace_busy.trace(vcd, name(), "busy", 1);
  m_trace_stalled.trace(vcd, name(), "stalled", 1);
}

void l1_cache::bank_bytes(std::uint64_t line_addr, std::uint8_t sectors) {
  const std::uint64_t line = m_cache.line_size->value;
  const std::uint64_t il = m_bank_interleave->value;
  const std::uint64_t step = std::min<std::uint64_t>(il, 32);
  const std::uint64_t base = line_addr & ~(line - 1);
  std::fill(m_bank_bytes.begin(), m_bank_bytes.end(), 0);
  const std::uint64_t nb = m_bank_bytes.size();
  const bool pow2 = m_pow2_banks;
  const unsigned il_log2 = m_interleave_log2;
  for (std::uint64_t s = 0; s < line / 32 && s < 8; ++s) {
    if (!(sectors >> s & 1)) continue;
    for (std::uint64_t off = 32 * s; off < 32 * (s + 1); off += step) {
      const std::uint64_t a = base + off;
      m_bank_bytes[pow2 ? (a >> il_log2) & (nb - 1) : a / il % nb] += step;
    }
  }
}

template <class F>
void l1_cache::for_each_bank_of(std::uint64_t line_addr, std::uint8_t sectors, F f) {
  const std::uint64_t nb = m_bank_bytes.size();
  if (m_share_masks) {
    const std::uint64_t base = line_addr & ~(m_cache.line_size->value - 1);
    const std::uint32_t mask = sectors & (m_share_masks - 1);
    const bool pow2 = m_pow2_banks;
    const std::uint64_t first = pow2 ? base >> m_interleave_log2 : base / m_bank_interleave->value;
    for (std::uint32_t k = m_share_begin[mask]; k < m_share_begin[mask + 1]; ++k) {
      const std::uint64_t b = first + m_shares[k].bank;
      f(pow2 ? b & (nb - 1) : b % nb, m_shares[k].cycles);
    }
    return;
  }
  const std::uint64_t port = m_data_port;
  bank_bytes(line_addr, sectors);
  for (std::size_t b = 0; b < nb; ++b)
    if (m_bank_bytes[b]) f(b, (m_bank_bytes[b] + port - 1) / port);
}

void l1_cache::use_banks(std::uint64_t line_addr, std::uint8_t sectors, std::uint64_t now) {
  for_each_bank_of(line_addr, sectors, [&](std::size_t b, std::uint64_t c) {
    m_bank_busy_until[b] = std::max(m_bank_busy_until[b], now) + c;
    m_stats_v.data_port_cycles += c;
  });
}

bool l1_cache::uses_data_array(const tlm::tlm_generic_payload& gp) const {
  const access_kind k = payload_pool::request(gp).kind;
  if (k == access_kind::global_load) return !*m_bypass_global_loads;
  if (k == access_kind::global_store) return !*m_bypass_global_stores;
  return k == access_kind::local_load || k == access_kind::constant_load ||
         k == access_kind::texture_load || k == access_kind::global_store ||
         k == access_kind::local_store;
}

std::string l1_cache::pending_work() const {
  if (!busy()) return {};
  const mshr_table& m = m_logic->mshr();
  return std::string("input ") +
         (m_input ? (m_input_failed ? "held after a failed lookup" : "in lookup") : "none") +
         "; to return: hits " + std::to_string(m_responses.size()) + ", replies " +
         std::to_string(m_replies.size()) + "; misses queued " +
         std::to_string(m_miss_queue.size()) + " (+" + std::to_string(m_miss_pipe.size()) +
         " in the pipeline)" + m_down.wait_note() + "; MSHRs " + std::to_string(m.used()) + "/" +
         std::to_string(m.capacity());
}

bool l1_cache::busy() const {
  return m_input || !m_miss_queue.empty() || !m_miss_pipe.empty() || !m_responses.empty() ||
         !m_replies.empty() || m_logic->mshr().used() > 0;
}

tlm::tlm_sync_enum l1_cache::core_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time& t) {
  // Taken now when not annotated into the future (it only records the request and asks
  // for a cycle), else at the annotated time.
  if (t == sc_core::SC_ZERO_TIME)
    peq_cb(gp, ph);
  else
    m_peq.notify(gp, ph, clock_domain::kernel_delay(t));
  return tlm::TLM_ACCEPTED;
}

void l1_cache::peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& ph) {
  if (ph == tlm::BEGIN_REQ) {
    if (const access_kind k = payload_pool::request(gp).kind;
        k != access_kind::flush && k != access_kind::carveout) {
      const std::uint64_t t = now_fs();
      events.notify([t](cache_events& o) { o.request_arrived(t); });
    }
    m_input = &gp;
    m_input_failed = false;
    wake_at(std::max(clock().now_cycle(), m_next_input_cycle));
  } else if (ph == tlm::END_RESP) {
    m_up.end_resp(gp);
    wake_at(clock().now_cycle());
  }
}

tlm::tlm_sync_enum l1_cache::icnt_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time&) {
  const std::uint64_t now = clock().now_cycle();
  m_down.end_req(gp);
  if (ph == tlm::BEGIN_RESP) {
    mem_request& req = payload_pool::request(gp);
    const int* tag = static_cast<const int*>(req.origin);
    const bool own =
        tag >= m_origin_tags.data() && tag < m_origin_tags.data() + m_origin_tags.size();
    if (!own) {
      m_replies.push({now, &gp});  // a bypassing load or an atomic: answer the SMX
    } else {
      if (tag != &m_origin_tags.back()) {  // a fill
        const int idx = static_cast<int>(tag - m_origin_tags.data());
        if (events.any()) {
          const std::uint32_t set = m_logic->tags().set_of(gp.get_address());
          events.notify([set](cache_events& o) { o.filled(set); });
        }
        use_banks(gp.get_address(), req.sector_mask ? req.sector_mask : std::uint8_t(0xf), now);
        fill_result f = m_logic->fill(idx, req.sector_mask, m_ready_slots);
        m_power->fill(f.frame, req.sector_mask);
        if (f.writeback) {
          ++m_stats_v.writebacks;
          send_down(f.wb_line, popcount8(f.wb_sectors) * 32, tlm::TLM_WRITE_COMMAND, req,
                    access_kind::writeback, f.wb_sectors, -1, now);
        }
        std::uint32_t cancelled = 0;
        for (const mshr_table::slot& s : m_ready_slots) {
          auto* requester = static_cast<tlm::tlm_generic_payload*>(s.requester);
          if (!requester) {  // cancelled (mshr_cancel): nobody to answer
            ++cancelled;
            continue;
          }
          payload_pool::request(*requester).served = req.served;
          m_replies.push({now, requester});
        }
        if (cancelled != 0) {
          const bool orphan = cancelled == m_ready_slots.size();
          events.notify([&](cache_events& o) { o.fill_unanswered(cancelled, orphan); });
        }
        m_ready_slots.clear();
        sample_mshr(now);
      }
      m_pool.release(gp);
    }
    wake_at(now);
    return tlm::TLM_COMPLETED;
  }
  wake_at(now);
  return tlm::TLM_ACCEPTED;
}

void l1_cache::send_down(std::uint64_t addr, unsigned length, tlm::tlm_command cmd,
                         const mem_request& from, access_kind kind, std::uint8_t sectors, int mshr,
                         std::uint64_t leave_at) {
  tlm::tlm_generic_payload& gp = m_pool.acquire(addr, length, cmd);
  mem_request& r = payload_pool::request(gp);
  r = from;
  r.set_cause(from.kind);  // the L2 counts a fill or write-back under its cause's type
  r.kind = kind;
  r.sector_mask = sectors;
  r.origin = mshr >= 0 ? &m_origin_tags[mshr] : &m_origin_tags.back();
  if (leave_at <= clock().now_cycle())
    m_miss_queue.push(&gp);
  else
    m_miss_pipe.push({leave_at, &gp});
}

void l1_cache::sample_mshr(std::uint64_t now) {
  const std::uint64_t dt = now - m_sampled_at;
  if (dt) {
    m_stats_v.mshr_occupancy.sample(m_last_used, dt);
    m_stats_v.mshr_slots.sample(m_last_slots, dt);
  }
  m_sampled_at = now;
  if (events.any() && m_logic->mshr().used() != m_last_used) {
    const auto used = static_cast<std::uint32_t>(m_logic->mshr().used());
    const auto entries = static_cast<std::uint32_t>(m_logic->mshr().capacity());
    events.notify([&](cache_events& o) { o.mshr_changed(used, entries, clock_domain::now_fs()); });
  }
  m_last_used = m_logic->mshr().used();
  m_last_slots = m_logic->mshr().slots_used();
  m_trace_mshr.set(static_cast<unsigned>(m_last_used));
  m_trace_mshr_slots.set(static_cast<unsigned>(m_last_slots));
}

bool l1_cache::try_access(tlm::tlm_generic_payload& gp, std::uint64_t now) {
  mem_request& req = payload_pool::request(gp);
  const std::uint32_t line = static_cast<std::uint32_t>(m_cache.line_size->value);
  const std::uint8_t sectors = req.sector_mask ? req.sector_mask : sectors_of(gp, line);
  const std::size_t depth = *m_miss_queue_entries;
  // The request waiting for the interconnect's END_REQ still holds its miss-queue entry.
  const std::size_t held = m_miss_queue.size() + m_miss_pipe.size() + (m_down.busy() ? 1 : 0);
  const std::size_t free = held < depth ? depth - held : 0;
  const bool first = !m_input_failed;
  auto fail = [&](fail_cause c) {
    if (first) {
      switch (c) {
        case fail_cause::mshr_full:
          ++m_stats_v.fail_mshr_full;
          break;
        case fail_cause::merge_limit:
          ++m_stats_v.fail_merge_limit;
          break;
        case fail_cause::no_line:
          ++m_stats_v.fail_no_line;
          break;
        case fail_cause::miss_queue_full:
          ++m_stats_v.fail_miss_queue_full;
          break;
        case fail_cause::none:
          break;
      }
    }
    return false;
  };
  const access_kind k = req.kind;
  if (k == access_kind::carveout) {  // a kernel's shared memory on this SMX: the L1 the rest
    if (m_unified_ways) {
      m_logic->set_active_ways(carveout_ways(gp.get_address()));
      if (first) ++m_stats_v.carveouts;
    }
    m_responses.push({now, &gp});
    return true;
  }
  if (k == access_kind::flush) {  // kernel end (flush_at_kernel_end): acknowledged like a hit
    if (first) ++m_stats_v.flushes;
    flush();
    // The SMX flushes when its last TB has finished at a kernel's end.
    const std::uint64_t t = now_fs();
    events.notify([t](cache_events& o) { o.flushed(t); });
    m_responses.push({now + m_hit_latency->value, &gp});
    return true;
  }
  if (first) ++m_stats_v.accesses;  // (not the L1's own orders above)
  const bool is_load = k == access_kind::global_load || k == access_kind::local_load ||
                       k == access_kind::constant_load || k == access_kind::texture_load;
  const bool is_store = k == access_kind::global_store || k == access_kind::local_store;
  if ((!is_load && !is_store) || (k == access_kind::global_load && *m_bypass_global_loads) ||
      (k == access_kind::global_store && *m_bypass_global_stores)) {
    if (free < 1) return fail(fail_cause::miss_queue_full);
    ++m_stats_v.bypassed;
    m_miss_queue.push(&gp);
    return true;
  }

  access_request ar;
  ar.addr = gp.get_address();
  ar.sectors = sectors;
  ar.write = is_store;
  ar.local = k == access_kind::local_load || k == access_kind::local_store;
  ar.requester = &gp;
  ar.miss_queue_free = free;
  ar.miss_queue_depth = depth;
  const access_result r = m_logic->access(ar);
  const access_type type = type_of(req);
  if (r.kind == access_result::fail) {
    if (first) m_stats_v.count_held(type);
    return fail(r.cause);
  }
  // A request that joined a pending miss (merged, or a sector miss added to its entry).
  const bool merged = r.kind == access_result::merged ||
                      (r.kind == access_result::miss && m_logic->mshr().slot_count(r.mshr) > 1);
  m_stats_v.count_lookup(type, r, merged, sectors, is_store);
  const std::uint64_t wake = m_power->access(r, sectors, merged);

  if (r.evicted) ++m_stats_v.evictions;
  if (r.writeback) {
    ++m_stats_v.writebacks;
    send_down(r.wb_line, popcount8(r.wb_sectors) * 32, tlm::TLM_WRITE_COMMAND, req,
              access_kind::writeback, r.wb_sectors, -1, now + m_miss_latency->value);
  }
  const std::uint64_t hit_at = now + m_hit_latency->value;
  switch (r.kind) {
    case access_result::hit:
      use_banks(ar.addr, sectors, now);
      req.served = mem_request::by_l1;
      m_responses.push({hit_at + wake, &gp});
      break;
    case access_result::merged:
      break;
    case access_result::miss: {
      const unsigned len = *m_cache.sectored ? popcount8(r.fetch) * 32 : line;
      send_down(r.line, len, tlm::TLM_READ_COMMAND, req, access_kind::fill, r.fetch, r.mshr,
                now + m_miss_latency->value);
      break;
    }
    case access_result::write_done:
      ++m_stats_v.stores;
      if (!r.line_miss) use_banks(ar.addr, sectors, now);
      if (r.forward_write)
        send_down(gp.get_address(), gp.get_data_length(), tlm::TLM_WRITE_COMMAND, req, k, sectors,
                  -1, now + m_miss_latency->value);
      m_responses.push({hit_at + wake, &gp});
      break;
    case access_result::fail:
      break;
  }
  sample_mshr(now);
  return true;
}

void l1_cache::wake_at(std::uint64_t cycle) { m_wake.at(cycle); }

void l1_cache::run() {
  const std::uint64_t now = clock().now_cycle();
  m_wake.fired();
  std::uint64_t next = ~std::uint64_t(0);

  // Lookup, in order: one request a cycle, or (lookups_per_cycle) several cached ones in
  // banks no earlier lookup of the cycle used. A held request retries whenever this runs.
  const std::uint32_t lookups = static_cast<std::uint32_t>(*m_lookups_per_cycle);
  for (bool again = true; again && m_input;) {
    again = false;
    std::uint64_t bank_free = 0, banks = 0;
    const bool cached = uses_data_array(*m_input);
    if (now >= m_next_input_cycle && cached) {
      const mem_request& rq = payload_pool::request(*m_input);
      const std::uint32_t line = static_cast<std::uint32_t>(m_cache.line_size->value);
      const std::uint64_t addr = m_input->get_address();
      const std::uint8_t sectors = rq.sector_mask ? rq.sector_mask : sectors_of(*m_input, line);
      for_each_bank_of(addr, sectors, [&](std::size_t b, std::uint64_t) {
        bank_free = std::max(bank_free, m_bank_busy_until[b]);
        banks |= std::uint64_t(1) << (b % 64);
      });
    }
    const bool later_in_cycle = m_lookup_cycle == now && m_lookups > 0;
    if (m_bank_waiting && now >= m_next_input_cycle && bank_free <= now) {
      m_stats_v.bank_wait_cycles += now - m_bank_wait_since;
      m_bank_waiting = false;
    }
    if (now < m_next_input_cycle) {
      next = std::min(next, m_next_input_cycle);
    } else if (later_in_cycle && (!cached || (banks & m_lookup_banks) != 0)) {
      if (cached) ++m_stats_v.lookup_bank_conflicts;  // a bank this cycle used: the next one
      m_next_input_cycle = now + 1;
      next = std::min(next, now + 1);
    } else if (bank_free > now) {  // a data bank it needs is busy: END_REQ stays withheld
      if (!m_bank_waiting) {
        ++m_stats_v.bank_conflicts;
        m_bank_wait_since = now;
      }
      m_bank_waiting = true;
      next = std::min(next, bank_free);
    } else if (try_access(*m_input, now)) {
      tlm::tlm_generic_payload* gp = m_input;
      m_input = nullptr;
      m_input_failed = false;
      m_next_input_cycle = now + 1;
      if (lookups > 1 && cached) {
        if (m_lookup_cycle != now) {
          m_lookup_cycle = now;
          m_lookups = 0;
          m_lookup_banks = 0;
        }
        m_lookup_banks |= banks;
        if (++m_lookups < lookups) m_next_input_cycle = now;
      }
      {
        const std::uint64_t t = now_fs();
        events.notify([t](cache_events& o) { o.input_taken(t, false); });
      }
      tlm::tlm_phase ph = tlm::END_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      core->nb_transport_bw(*gp, ph, t);  // (the LDST unit may send its next request now)
      again = m_next_input_cycle == now;
    } else {
      if (!m_input_failed && events.any()) {  // the failed head waits for its set to fill
        const std::uint32_t set = m_logic->tags().set_of(m_input->get_address());
        const std::uint64_t t = now_fs();
        events.notify([set, t](cache_events& o) { o.reservation_failed(set, t); });
      }
      m_input_failed = true;
      m_next_input_cycle = now + 1;  // one lookup a cycle, also when a run repeats in it
    }
  }

  // The L1 pipeline -> miss queue, in order (one latency for all).
  while (!m_miss_pipe.empty() && m_miss_pipe.front().at <= now) {
    m_miss_queue.push(m_miss_pipe.front().gp);
    m_miss_pipe.pop();
  }
  if (!m_miss_pipe.empty()) next = std::min(next, m_miss_pipe.front().at);

  // Miss queue -> interconnect, one per cycle.
  if (!m_miss_queue.empty() && !m_down.busy()) {
    if (now >= m_next_send_cycle) {
      tlm::tlm_generic_payload* gp = m_miss_queue.front();
      m_miss_queue.pop();
      m_next_send_cycle = now + 1;
      m_down.send(*gp);
      if (m_input && m_input_failed) next = std::min(next, now + 1);  // room in the miss queue
    }
    // (While the interconnect withholds END_REQ, its END_REQ or response wakes this block.)
    if (!m_miss_queue.empty() && !m_down.busy())
      next = std::min(next, std::max(now + 1, m_next_send_cycle));
  }

  // Answers to the LDST unit: hits leave the hit pipeline (constant latency, so in order)
  // and filled or returned requests their own queue, the older first; up to
  // lookups_per_cycle a cycle, of which one reply.
  if (!m_up.busy()) {
    if (m_answer_cycle != now) {
      m_answer_cycle = now;
      m_answers = 0;
      m_replied = false;
    }
    while (!m_up.busy() && m_answers < lookups && now >= m_next_response_cycle) {
      const bool hit_ready = !m_responses.empty() && m_responses.front().at <= now;
      const bool reply_ready = !m_replied && !m_replies.empty() && m_replies.front().at <= now;
      if (!hit_ready && !reply_ready) break;
      const bool take_hit =
          hit_ready && (!reply_ready || m_responses.front().at <= m_replies.front().at);
      fifo<ready>& q = take_hit ? m_responses : m_replies;
      tlm::tlm_generic_payload* gp = q.front().gp;
      q.pop();
      if (++m_answers >= lookups) m_next_response_cycle = now + 1;
      if (!take_hit) m_replied = true;
      gp->set_response_status(tlm::TLM_OK_RESPONSE);
      m_up.send(*gp);
    }
    for (const fifo<ready>* q : {&m_responses, &m_replies})
      if (!q->empty() && !m_up.busy())  // (a withheld END_RESP wakes this block when it comes)
        next = std::min(next, std::max({now + 1, q->front().at, m_next_response_cycle}));
  }

  m_trace_miss_queue.set(static_cast<unsigned>(m_miss_queue.size()));
  m_trace_hit_queue.set(static_cast<unsigned>(m_responses.size()));
  m_trace_reply_queue.set(static_cast<unsigned>(m_replies.size()));
  m_trace_stalled.set(m_input && m_input_failed);
  m_trace_busy.set(busy());
  if (next != ~std::uint64_t(0)) wake_at(next);
}

GPUTLM_BLOCK("l1_cache", l1_cache, "per-SMX L1 data cache with MSHRs", {"mshr"});

}  // namespace gputlm::memory
