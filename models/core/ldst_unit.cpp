#include "models/core/ldst_unit.h"

namespace gputlm::core {

using traces::warp_instruction;

namespace {
// The LDST unit takes a memory instruction only once the previous one's requests have all
// left, so the queue holds one instruction's requests (32 lanes' worth, or a few more when
// accesses span sectors) and a kernel-end flush: a capacity hint, not a bound.
constexpr std::size_t fifo_reserve = 33;

std::uint32_t size_of(const warp_instruction& in) { return in.access_size ? in.access_size : 4; }

// A unit-stride access in the trace's strided form (every lane active, the stride equal to
// the access size: the usual global access), coalesced without expanding its lanes.
bool unit_stride(const warp_instruction& in) {
  return in.addr_index != warp_instruction::none && in.addr_form == traces::address_form::strided &&
         in.active_mask == 0xffffffffu && in.addr_stride == static_cast<std::int32_t>(size_of(in));
}
}  // namespace

void ldst_unit::configure(std::uint32_t coalescing_arch, std::uint32_t segment,
                          std::uint32_t shared_banks) {
  m_arch = coalescing_arch;
  m_segment = segment ? segment : default_segment(coalescing_arch);
  m_shared_banks = shared_banks;
  m_fifo.reserve(fifo_reserve);
}

std::uint32_t ldst_unit::shared_cycles(const warp_instruction& in,
                                       const std::uint64_t* warp_addresses) const {
  std::uint64_t lanes[32];
  const std::uint64_t* addrs = traces::lane_addresses(warp_addresses, in, lanes);
  const std::uint32_t c =
      addrs ? shared_memory_cycles(in.active_mask, addrs, in.access_size, m_shared_banks) : 1;
  return c == 0 ? 1 : c;
}

bool ldst_unit::coalesce(const warp_instruction& in, const std::uint64_t* warp_addresses) {
  if (in.addr_index == warp_instruction::none) return false;
  if (unit_stride(in) && in.space != traces::mem_space::global_atomic) {
    coalesce_contiguous(m_arch, warp_addresses[in.addr_index], size_of(in), m_coalesced,
                        m_segment);
    return true;
  }
  std::uint64_t lanes[32];
  const std::uint64_t* addrs = traces::lane_addresses(warp_addresses, in, lanes);
  if (in.space == traces::mem_space::global_atomic)
    coalesce_atomic(in.active_mask, addrs, in.access_size, m_coalesced);
  else
    core::coalesce(m_arch, in.active_mask, addrs, in.access_size, m_coalesced, m_segment);
  return true;
}

access_kind ldst_unit::kind_of(const warp_instruction& in) {
  const bool writes = in.num_dst == 0;
  if (in.space == traces::mem_space::global && in.ext_index != traces::warp_instruction::none)
    return writes ? access_kind::flag_store : access_kind::flag_load;  // a status word's flag
  switch (in.space) {
    case traces::mem_space::global_atomic:
      return access_kind::atomic;
    case traces::mem_space::local:
      return writes ? access_kind::local_store : access_kind::local_load;
    case traces::mem_space::texture:
      return access_kind::texture_load;
    default:
      return writes ? access_kind::global_store : access_kind::global_load;
  }
}

std::uint32_t ldst_unit::enqueue(std::uint32_t warp, const warp_instruction& in, access_kind kind,
                                 std::uint32_t inst, std::uint64_t issued,
                                 std::uint64_t flag_address) {
  const std::uint32_t p = acquire();
  pending_load& pl = m_pending[p];
  pl.warp = warp;
  pl.inst = inst;
  pl.issued = issued;
  pl.requests = static_cast<std::uint32_t>(m_coalesced.size());
  pl.atomic = kind == access_kind::atomic;
  for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k) pl.dst[k] = in.dst[k];
  start_instruction();
  for (const coalesced_request& r : m_coalesced) m_fifo.push_back({r, kind, warp, in.pc, p});
  if (kind == access_kind::flag_load || kind == access_kind::flag_store) {
    pl.flag = {flag_address, in.ext_index};
    if (!m_coalesced.empty()) pl.poll = m_coalesced.front();
  }
  return pl.requests;
}

void ldst_unit::enqueue_poll(std::uint32_t p) {
  pending_load& pl = m_pending[p];
  start_instruction();
  m_fifo.push_back({pl.poll, access_kind::flag_load, pl.warp, 0, p});
}

void ldst_unit::enqueue_lines(std::uint32_t warp, std::uint64_t base, std::uint32_t lines,
                              access_kind kind, std::uint32_t restores_tb) {
  const std::uint32_t p = acquire();
  pending_load& pl = m_pending[p];
  pl.warp = warp;
  pl.requests = lines;
  pl.restores_tb = restores_tb;
  start_instruction();
  for (std::uint32_t l = 0; l < lines; ++l) {
    coalesced_request r;
    r.line_address = base + std::uint64_t(l) * line_bytes;
    r.bytes = line_bytes;
    r.lane_mask = 0xffffffffu;
    r.sector_mask = 0xf;
    m_fifo.push_back({r, kind, warp, 0, p});
  }
}

void ldst_unit::enqueue_flush() {
  start_instruction();
  m_fifo.push_back({coalesced_request{}, access_kind::flush, 0, 0, 0});
}

void ldst_unit::enqueue_carveout(std::uint64_t shared_bytes) {
  start_instruction();
  coalesced_request r;
  r.line_address = shared_bytes;
  m_fifo.push_back({r, access_kind::carveout, 0, 0, 0});
}

void ldst_unit::enqueue_fetch(std::uint32_t warp, std::uint64_t addr, std::uint32_t bytes) {
  start_instruction();
  coalesced_request r;
  r.line_address = addr / line_bytes * line_bytes;
  const std::uint32_t first = static_cast<std::uint32_t>(addr % line_bytes / sector_bytes);
  const std::uint32_t count = static_cast<std::uint32_t>((bytes + sector_bytes - 1) / sector_bytes);
  r.sector_mask = static_cast<std::uint8_t>(((1u << count) - 1) << first);
  r.bytes = bytes;
  m_fifo.push_back({r, access_kind::instruction_fetch, warp, 0, 0});
}

// A free pending-load record (reused, or a new one), reset.
std::uint32_t ldst_unit::acquire() {
  std::uint32_t p;
  if (m_free.empty()) {
    p = static_cast<std::uint32_t>(m_pending.size());
    m_pending.emplace_back();
  } else {
    p = m_free.back();
    m_free.pop_back();
  }
  m_pending[p] = pending_load{};
  return p;
}

void ldst_unit::start_instruction() {
  if (m_head == m_fifo.size()) {
    m_fifo.clear();
    m_head = 0;
  }
}

}  // namespace gputlm::core
