#include "models/memory/cache_logic.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace gputlm::memory {

const char* to_string(fail_cause c) {
  switch (c) {
    case fail_cause::none:
      return "none";
    case fail_cause::mshr_full:
      return "mshr_full";
    case fail_cause::merge_limit:
      return "merge_limit";
    case fail_cause::no_line:
      return "no_line";
    case fail_cause::miss_queue_full:
      return "miss_queue_full";
  }
  return "?";
}

write_policy parse_write_policy(const std::string& s) {
  if (s == "read_only") return write_policy::read_only;
  if (s == "write_back") return write_policy::write_back;
  if (s == "write_through") return write_policy::write_through;
  if (s == "write_evict") return write_policy::write_evict;
  if (s == "local_wb_global_evict") return write_policy::local_wb_global_evict;
  throw std::invalid_argument("unknown write policy '" + s + "'");
}

alloc_policy parse_alloc_policy(const std::string& s) {
  if (s == "on_miss") return alloc_policy::on_miss;
  if (s == "on_fill") return alloc_policy::on_fill;
  if (s == "streaming") return alloc_policy::streaming;
  throw std::invalid_argument("unknown allocation policy '" + s + "'");
}

write_alloc parse_write_alloc(const std::string& s) {
  if (s == "none") return write_alloc::none;
  if (s == "naive") return write_alloc::naive;
  if (s == "fetch_on_write") return write_alloc::fetch_on_write;
  if (s == "lazy_fetch_on_read") return write_alloc::lazy_fetch_on_read;
  throw std::invalid_argument("unknown write-allocate policy '" + s + "'");
}

// ---- tag array ----------------------------------------------------------------------

tag_array::tag_array(const cache_geometry& g)
    : m_g(g),
      m_line_log2(log2_floor(g.line_size)),
      m_words((g.ways + 63) / 64),
      m_active(g.ways),
      m_lines(std::size_t(g.sets) * g.ways),
      m_fp(m_lines.size(), 0),
      m_link(m_lines.size()),
      m_order(g.sets),
      m_empty(std::size_t(g.sets) * m_words, 0),
      m_reserved(std::size_t(g.sets) * m_words, 0),
      m_ipoly(g.sets) {
  // (Built once cache_config::validate() has bounded the geometry: at most 65534 ways.)
  for (std::uint32_t s = 0; s < g.sets; ++s) {
    for (std::uint32_t w = 0; w < g.ways; ++w) {
      m_lines[std::size_t(s) * g.ways + w].set = s;
      set_way_bit(m_empty, s, w, true);
    }
  }
}

std::uint32_t tag_array::set_of(std::uint64_t addr) const {
  if (m_g.partition) addr = m_g.partition->partition_address(addr);
  if (m_g.index == index_function::ipoly) return m_ipoly(addr >> m_line_log2);
  return set_index(m_g.index, addr, m_g.sets, m_line_log2);
}

int tag_array::lookup(std::uint64_t line, std::uint32_t set) const {
  const std::size_t base = std::size_t(set) * m_g.ways;
  const std::uint16_t fp = fingerprint(line);
  const std::uint16_t* f = m_fp.data() + base;
  auto is = [&](std::size_t w) {
    const cache_line& l = m_lines[base + w];
    return l.allocated && l.line == line;
  };
  std::size_t w = 0;
#ifdef __SSE2__
  // Eight fingerprints per compare; a match is two bits of the byte mask.
  const __m128i want = _mm_set1_epi16(static_cast<short>(fp));
  for (; w + 8 <= m_g.ways; w += 8) {
    const __m128i got = _mm_loadu_si128(reinterpret_cast<const __m128i*>(f + w));
    for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi16(got, want))); m != 0;
         m &= m - 1) {
      const std::size_t k = w + unsigned(__builtin_ctz(m)) / 2;
      m &= m - 1;  // (the match's second bit)
      if (is(k)) return static_cast<int>(base + k);
    }
  }
#endif
  for (; w < m_g.ways; ++w)
    if (f[w] == fp && is(w)) return static_cast<int>(base + w);
  return -1;
}

int tag_array::victim(std::uint32_t set) const {
  // An empty line ranks below every allocated one, the first empty way first; else the
  // allocated lines in rank order, passing over the reserved ones.
  const std::size_t base = std::size_t(set) * m_g.ways;
  const std::uint64_t* empty = m_empty.data() + std::size_t(set) * m_words;
  for (std::uint32_t k = 0; k < m_words; ++k)
    if (empty[k] != 0) return static_cast<int>(base + k * 64 + unsigned(__builtin_ctzll(empty[k])));
  const std::uint64_t* reserved = m_reserved.data() + std::size_t(set) * m_words;
  // GPGPU-Sim's tag_array::probe: a modified line is a candidate only when
  // dirty lines / (sets x ways) x 100 >= the cap (always, for a cap of 0).
  const bool dirty_ok =
      std::uint64_t(m_dirty_lines) * 100 >= std::uint64_t(m_g.dirty_cap_percent) * m_lines.size();
  for (std::uint16_t w = m_order[set].head; w != none; w = m_link[base + w].next)
    if (((reserved[w / 64] >> (w % 64)) & 1) == 0 && (dirty_ok || m_lines[base + w].dirty == 0))
      return static_cast<int>(base + w);
  return -1;
}

void tag_array::install(int idx, std::uint64_t line) {
  cache_line& l = m_lines[idx];
  const std::uint16_t w = way_of(idx, l);
  if (l.allocated) {
    unlink(l.set, w);
  } else {
    set_way_bit(m_empty, l.set, w, false);
    ++m_allocated;
  }
  if (l.reserved) set_reserved(idx, false);
  if (l.dirty != 0) --m_dirty_lines;
  l.line = line;
  l.allocated = true;
  l.valid = 0;
  l.dirty = 0;
  m_fp[idx] = fingerprint(line);
  append(l.set, w);
}

void tag_array::clear(int idx) {
  cache_line& l = m_lines[idx];
  if (l.reserved) set_reserved(idx, false);
  if (l.allocated) {
    const std::uint16_t w = way_of(idx, l);
    unlink(l.set, w);
    set_way_bit(m_empty, l.set, w, w < m_active);
    --m_allocated;
  }
  if (l.dirty != 0) --m_dirty_lines;
  const std::uint32_t set = l.set;
  l = cache_line{};
  l.set = set;
}

void tag_array::set_active_ways(std::uint32_t n) {
  m_active = std::min(n, m_g.ways);
  for (std::uint32_t set = 0; set < m_g.sets; ++set) {
    const std::size_t base = std::size_t(set) * m_g.ways;
    for (std::uint32_t w = 0; w < m_g.ways; ++w) {
      const cache_line& l = m_lines[base + w];
      if (w >= m_active && l.allocated && !l.reserved) clear(static_cast<int>(base + w));
      if (!l.allocated) set_way_bit(m_empty, set, w, w < m_active);
    }
  }
}

void tag_array::invalidate_all() {
  // The allocated lines are those in the sets' orders; a reserved one stays (clear()
  // leaves every field but the set as a new line's). An L1 flushed at every kernel's end
  // is often empty already, or holds a few lines.
  for (std::uint32_t set = 0; m_allocated != 0 && set < m_g.sets; ++set) {
    const std::size_t base = std::size_t(set) * m_g.ways;
    for (std::uint16_t w = m_order[set].head; w != none;) {
      const std::uint16_t next = m_link[base + w].next;
      if (!m_lines[base + w].reserved) clear(static_cast<int>(base + w));
      w = next;
    }
  }
}

// ---- cache policy ---------------------------------------------------------------------

cache_logic::cache_logic(const cache_geometry& g)
    : m_g(g), m_tags(g), m_mshr(g.mshr_entries, g.mshr_merge, g.alloc != alloc_policy::on_miss, g.mshr_per_sector) {}

access_result cache_logic::access(const access_request& req) {
  return req.write ? write(req) : read(req);
}

void cache_logic::replace(int idx, std::uint64_t line, access_result& r) {
  cache_line& old = m_tags.at(idx);
  if (old.allocated && old.valid) {
    r.evicted = true;
    if (old.dirty) {
      r.writeback = true;
      r.wb_line = old.line;
      r.wb_sectors = old.dirty;
    }
  }
  m_tags.install(idx, line);
}

access_result cache_logic::read(const access_request& req) {
  access_result r;
  r.line = line_of(req.addr);
  const std::uint8_t want = m_g.sectored ? std::uint8_t(req.sectors & 0xf) : all_sectors();
  const std::uint32_t set = m_tags.set_of(r.line);  // (the index hash is worth computing once)
  const int idx = m_tags.lookup(r.line, set);
  const std::uint8_t valid = idx >= 0 ? m_tags.at(idx).valid : 0;
  if (idx >= 0 && (want & ~valid) == 0) {
    m_tags.touch(idx);
    r.frame = idx;
    r.kind = access_result::hit;
    return r;
  }
  const std::uint8_t missing = static_cast<std::uint8_t>(want & ~valid);
  r.line_miss = idx < 0;
  r.sector_miss = idx >= 0;

  // Allocating on miss, a line has a live MSHR entry exactly while its frame is reserved.
  const int pending = m_g.alloc != alloc_policy::on_miss    ? m_mshr.find(r.line)
                      : idx >= 0 && m_tags.at(idx).reserved ? m_tags.at(idx).mshr
                                                            : -1;
  assert(pending == m_mshr.find(r.line));
  if (int m = pending; m >= 0) {
    const std::uint8_t extra = static_cast<std::uint8_t>(missing & ~m_mshr.at(m).pending_sectors);
    if (!m_mshr.can_merge(m, want)) {
      r.cause = fail_cause::merge_limit;
      return r;
    }
    if (extra && req.miss_queue_free < 1) {
      r.cause = fail_cause::miss_queue_full;
      return r;
    }
    m_mshr.merge(m, req.requester, want, extra);
    if (idx >= 0) m_tags.touch(idx);
    r.mshr = m;
    r.fetch = extra;
    r.kind = extra ? access_result::miss : access_result::merged;
    return r;
  }

  if (m_mshr.full()) {
    r.cause = fail_cause::mshr_full;
    return r;
  }
  int target = idx;
  std::size_t needed = 1;
  if (m_g.alloc == alloc_policy::on_miss && idx < 0) {
    target = m_tags.victim(set);
    if (target < 0) {
      r.cause = fail_cause::no_line;
      return r;
    }
    if (m_tags.at(target).allocated && m_tags.at(target).dirty) needed = 2;
  }
  if (req.miss_queue_free < std::min(needed, req.miss_queue_depth)) {
    r.cause = fail_cause::miss_queue_full;
    return r;
  }
  if (m_g.alloc == alloc_policy::on_miss) {
    if (idx < 0) replace(target, r.line, r);
    m_tags.set_reserved(target, true);
    m_tags.touch(target);
    r.frame = target;
  }
  r.mshr = m_mshr.allocate(r.line, missing, req.requester, r.frame);
  if (r.frame >= 0) m_tags.at(r.frame).mshr = r.mshr;
  r.fetch = missing;
  r.kind = access_result::miss;
  return r;
}

access_result cache_logic::write(const access_request& req) {
  access_result r;
  r.line = line_of(req.addr);
  r.kind = access_result::write_done;
  const std::uint8_t sectors = static_cast<std::uint8_t>(req.sectors & 0xf);
  write_policy wp = m_g.write;
  if (wp == write_policy::local_wb_global_evict)
    wp = req.local ? write_policy::write_back : write_policy::write_evict;
  const std::uint32_t set = m_tags.set_of(r.line);
  const int idx = m_tags.lookup(r.line, set);
  r.line_miss = idx < 0;

  switch (wp) {
    case write_policy::read_only:
      if (req.miss_queue_free < 1) break;
      r.forward_write = true;
      return r;
    case write_policy::write_evict:
      if (req.miss_queue_free < 1) break;
      if (idx >= 0 && !m_tags.at(idx).reserved) {
        r.evicted = true;
        m_tags.clear(idx);
      }
      r.forward_write = true;
      return r;
    case write_policy::write_through:
    case write_policy::write_back: {
      const bool through = wp == write_policy::write_through;
      if (idx >= 0) {  // write hit (also on a line waiting for its fill)
        if (through && req.miss_queue_free < 1) break;
        m_tags.at(idx).valid |= sectors;
        if (!through) m_tags.mark_dirty(idx, sectors);
        m_tags.touch(idx);
        r.frame = idx;
        r.forward_write = through;
        return r;
      }
      if (m_g.wr_alloc == write_alloc::none) {  // write around
        if (req.miss_queue_free < 1) break;
        r.forward_write = true;
        return r;
      }
      // Write-allocate: the written sectors become valid without a fetch (the lazy fetch of
      // the other sectors happens on a later read miss).
      int target = m_tags.victim(set);
      if (target < 0) {
        r.cause = fail_cause::no_line;
        r.kind = access_result::fail;
        return r;
      }
      std::size_t needed =
          (through ? 1 : 0) + (m_tags.at(target).allocated && m_tags.at(target).dirty ? 1 : 0);
      if (req.miss_queue_free < std::min(needed, req.miss_queue_depth)) break;
      replace(target, r.line, r);
      m_tags.at(target).valid = sectors;
      if (!through) m_tags.mark_dirty(target, sectors);
      r.frame = target;
      r.forward_write = through;
      return r;
    }
    case write_policy::local_wb_global_evict:
      break;
  }
  r.kind = access_result::fail;
  r.cause = fail_cause::miss_queue_full;
  r.evicted = false;
  return r;
}

fill_result cache_logic::fill(int mshr, std::uint8_t sectors,
                              std::vector<mshr_table::slot>& ready) {
  fill_result f;
  const std::uint64_t line = m_mshr.at(mshr).line;
  const bool last = m_mshr.fill_arrived(mshr);
  // A line reserved at the miss stays where it is until this fill (a reserved line is
  // neither replaced nor invalidated); otherwise the line is looked up, or allocated now.
  const int reserved = m_mshr.at(mshr).frame;
  assert(reserved < 0 || m_tags.lookup(line) == reserved);
  const std::uint32_t set = reserved >= 0 ? 0 : m_tags.set_of(line);
  int idx = reserved >= 0 ? reserved : m_tags.lookup(line, set);
  if (idx < 0 && m_g.alloc != alloc_policy::on_miss) {
    idx = m_tags.victim(set);
    if (idx >= 0) {
      access_result r;
      replace(idx, line, r);
      f.writeback = r.writeback;
      f.wb_line = r.wb_line;
      f.wb_sectors = r.wb_sectors;
    }
  }
  if (idx >= 0) {
    cache_line& l = m_tags.at(idx);
    l.valid |= sectors;
    if (last) m_tags.set_reserved(idx, false);
    f.frame = idx;
  }
  if (last) {
    m_mshr.release(mshr, ready);
    f.complete = true;
  }
  return f;
}

void cache_logic::mark_dirty(std::uint64_t addr, std::uint8_t sectors) {
  int idx = m_tags.lookup(line_of(addr));
  if (idx >= 0) {
    m_tags.mark_dirty(idx, sectors);
    m_tags.at(idx).valid |= sectors;
  }
}

bool cache_logic::probe(std::uint64_t addr, std::uint8_t sectors) const {
  int idx = m_tags.lookup(line_of(addr));
  const std::uint8_t want = m_g.sectored ? sectors : all_sectors();
  return idx >= 0 && (m_tags.at(idx).valid & want) == want;
}

bool cache_logic::warm(std::uint64_t addr, std::uint8_t sectors) {
  const std::uint64_t line = line_of(addr);
  const std::uint32_t set = m_tags.set_of(line);
  int idx = m_tags.lookup(line, set);
  if (idx < 0) {
    idx = m_tags.victim(set);
    if (idx < 0 || (m_tags.at(idx).allocated && m_tags.at(idx).dirty)) return false;
    m_tags.install(idx, line);
  }
  m_tags.at(idx).valid |= m_g.sectored ? sectors : all_sectors();
  return true;
}

}  // namespace gputlm::memory
