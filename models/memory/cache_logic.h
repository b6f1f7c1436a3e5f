// The policy core of a GPU cache bank, shared by the L1 and L2 modules: a set-associative
// tag array with per-32 B-sector valid and dirty bits, LRU or FIFO replacement, the write
// policies and allocation modes of GPGPU-Sim's cache string (docs/references.md,
// "Cache configuration string", fields 5-8) and the MSHR table. It decides; the
// SystemC module around it moves payloads and keeps time. Plain C++, no SystemC, no
// allocation per access.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/memory/address_decoder.h"
#include "models/memory/mshr_table.h"
#include "models/memory/set_index.h"

namespace gputlm::memory {

enum class write_policy : std::uint8_t {
  read_only,
  write_back,
  write_through,
  write_evict,
  local_wb_global_evict
};
enum class alloc_policy : std::uint8_t { on_miss, on_fill, streaming };
enum class write_alloc : std::uint8_t { none, naive, fetch_on_write, lazy_fetch_on_read };
enum class fail_cause : std::uint8_t { none, mshr_full, merge_limit, no_line, miss_queue_full };
const char* to_string(fail_cause c);

write_policy parse_write_policy(const std::string& s);
alloc_policy parse_alloc_policy(const std::string& s);
write_alloc parse_write_alloc(const std::string& s);

struct cache_geometry {
  std::uint32_t sets = 32;
  std::uint32_t ways = 4;
  std::uint32_t line_size = 128;
  bool sectored = false;
  bool fifo = false;  // replacement: FIFO instead of LRU
  index_function index = index_function::linear;
  write_policy write = write_policy::write_back;
  alloc_policy alloc = alloc_policy::on_miss;
  write_alloc wr_alloc = write_alloc::none;
  std::uint32_t mshr_entries = 32;
  std::uint32_t mshr_merge = 8;
  bool mshr_per_sector = false;  // sectored: mshr_merge requests per sector (mshr_table.h)
  // GPGPU-Sim's -gpgpu_l1_cache_write_ratio (tag_array::probe): a dirty line may be a victim
  // only once at least this % of the array's lines are dirty (0: any line; the L2 uses 0).
  std::uint32_t dirty_cap_percent = 0;
  // An L2 bank: the set index is taken from the address within the sub-partition
  // (address_decoder::partition_address), as GPGPU-Sim's L2 does; null: from the address.
  const address_decoder* partition = nullptr;
};

struct cache_line {
  std::uint64_t line = 0;  // line address
  std::uint32_t set = 0;   // the set it belongs to (fixed)
  // Allocating on miss: the MSHR entry of the fill this line is reserved for (valid while
  // `reserved`; a line has a live entry exactly while it is reserved).
  std::int32_t mshr = -1;
  bool allocated = false;
  bool reserved = false;  // waiting for a fill: not replaceable
  std::uint8_t valid = 0;
  std::uint8_t dirty = 0;
};

// The lines of a set are found by a 16-bit fingerprint of their address (one or two host
// cache lines to compare for 64 ways, instead of eight of full addresses); the replacement
// order is kept as a list per set, oldest stamp first (for LRU the use stamp, for FIFO the
// fill stamp; a stamp only ever becomes the newest of the array, so a line moves to the
// list's end), with bitmasks of the empty and the reserved ways. The victim is the first
// empty way, else the first unreserved line of the list: the line of least rank, as a scan
// of every way's stamp would find it. Under a dirty-line cap (cache_geometry::
// dirty_cap_percent) the array counts its dirty lines, and while fewer than the cap's share
// are dirty the search passes over dirty lines too.
class tag_array {
 public:
  tag_array(const cache_geometry& g);
  std::uint32_t set_of(std::uint64_t addr) const;
  int lookup(std::uint64_t line) const { return lookup(line, set_of(line)); }  // index or -1
  int lookup(std::uint64_t line, std::uint32_t set) const;  // `set`: set_of(line)
  // The line to replace in `set`: an empty one first, else the least recently used (or
  // first filled) that is not reserved and, while the dirty lines are below the cap, not
  // dirty; -1 when there is none.
  int victim(std::uint32_t set) const;
  // Ways 0..n-1 of every set may hold lines (all, unless the cache shares its array: the
  // unified L1's carve-out); the others' lines are invalidated (those waiting for a fill
  // stay until replaced) and their ways never chosen as victims.
  void set_active_ways(std::uint32_t n);
  std::uint32_t active_ways() const { return m_active; }
  // Read and change valid sectors through at(); a line's address, allocation, reservation,
  // dirty sectors and stamps change only through the calls below (the search state follows).
  cache_line& at(int idx) { return m_lines[idx]; }
  const cache_line& at(int idx) const { return m_lines[idx]; }
  void touch(int idx) {
    const cache_line& l = m_lines[idx];
    if (!m_g.fifo && l.allocated) {
      const std::uint16_t w = way_of(idx, l);
      if (m_order[l.set].tail != w) {
        unlink(l.set, w);
        append(l.set, w);
      }
    }
  }
  void install(int idx, std::uint64_t line);
  void set_reserved(int idx, bool r) {
    cache_line& l = m_lines[idx];
    l.reserved = r;
    set_way_bit(m_reserved, l.set, way_of(idx, l), r);
  }
  // Marks `sectors` of line idx dirty (counted once per line that becomes dirty).
  void mark_dirty(int idx, std::uint8_t sectors) {
    cache_line& l = m_lines[idx];
    if (l.dirty == 0 && sectors != 0) ++m_dirty_lines;
    l.dirty |= sectors;
  }
  std::size_t dirty_lines() const { return m_dirty_lines; }
  void clear(int idx);  // the line becomes empty
  void invalidate_all();
  std::size_t size() const { return m_lines.size(); }

 private:
  static constexpr std::uint16_t none = 0xffff;  // no way (ways are at most 65535)
  struct link {
    std::uint16_t prev = none, next = none;  // ways of the same set, by rank
  };
  struct order {
    std::uint16_t head = none, tail = none;  // least and most recent (first and last filled)
  };
  std::uint16_t fingerprint(std::uint64_t line) const {
    const std::uint64_t x = line >> m_line_log2;
    return static_cast<std::uint16_t>(x ^ (x >> 16) ^ (x >> 32) ^ (x >> 48));
  }
  // Line `idx`'s way within its set `l.set`.
  std::uint16_t way_of(int idx, const cache_line& l) const {
    return static_cast<std::uint16_t>(std::size_t(idx) - std::size_t(l.set) * m_g.ways);
  }
  // Sets or clears way `w`'s bit in the bitmask (m_empty or m_reserved) of `set`.
  void set_way_bit(std::vector<std::uint64_t>& mask, std::uint32_t set, std::uint32_t w, bool on) {
    std::uint64_t& word = mask[std::size_t(set) * m_words + w / 64];
    const std::uint64_t bit = 1ull << (w % 64);
    word = on ? word | bit : word & ~bit;
  }
  void unlink(std::uint32_t set, std::uint16_t w) {
    const std::size_t base = std::size_t(set) * m_g.ways;
    link& k = m_link[base + w];
    order& o = m_order[set];
    (k.prev != none ? m_link[base + k.prev].next : o.head) = k.next;
    (k.next != none ? m_link[base + k.next].prev : o.tail) = k.prev;
  }
  void append(std::uint32_t set, std::uint16_t w) {
    const std::size_t base = std::size_t(set) * m_g.ways;
    link& k = m_link[base + w];
    order& o = m_order[set];
    k.prev = o.tail;
    k.next = none;
    (o.tail != none ? m_link[base + o.tail].next : o.head) = w;
    o.tail = w;
  }

  cache_geometry m_g;
  unsigned m_line_log2;
  std::uint32_t m_words;  // 64-bit words per set in the way bitmasks
  std::uint32_t m_active;  // ways that may hold lines (set_active_ways)
  std::vector<cache_line> m_lines;
  std::vector<std::uint16_t> m_fp;        // per line: fingerprint of its address
  std::vector<link> m_link;               // per line: its neighbours in the set's order
  std::vector<order> m_order;             // per set: allocated lines, by rank
  std::vector<std::uint64_t> m_empty;     // per set, m_words words: the empty ways
  std::vector<std::uint64_t> m_reserved;  // per set, m_words words: the reserved ways
  ipoly_hasher m_ipoly;                   // the set index, when it is IPOLY
  std::size_t m_allocated = 0;            // allocated lines (those in the sets' orders)
  std::size_t m_dirty_lines = 0;          // lines with a dirty sector
};

struct access_request {
  std::uint64_t addr = 0;
  std::uint8_t sectors = 0xf;  // sectors of the line touched
  bool write = false;
  bool local = false;  // local memory (write-back under local_wb_global_evict)
  void* requester = nullptr;
  std::size_t miss_queue_free = 0;    // free entries towards the next level
  std::size_t miss_queue_depth = 64;  // a fill + write-back pair may use a 1-entry queue
};

struct access_result {
  enum kind_t : std::uint8_t { hit, merged, miss, write_done, fail } kind = fail;
  fail_cause cause = fail_cause::none;
  std::uint64_t line = 0;
  bool line_miss = false;    // the tag was absent
  bool sector_miss = false;  // the tag was present, some sector was not
  std::uint8_t fetch = 0;    // miss: sectors to request from the next level (one fill)
  int mshr = -1;
  int frame = -1;              // the line frame (set x ways + way) the data array used
  bool forward_write = false;  // write: send it to the next level
  bool evicted = false;        // a valid line was replaced or invalidated
  bool writeback = false;      // ...and it was dirty: write back wb_line / wb_sectors
  std::uint64_t wb_line = 0;
  std::uint8_t wb_sectors = 0;
};

struct fill_result {
  bool complete = false;  // the MSHR entry is free; its requesters were appended
  int frame = -1;         // the line frame written (-1: no line allocated)
  bool writeback = false;
  std::uint64_t wb_line = 0;
  std::uint8_t wb_sectors = 0;
};

class cache_logic {
 public:
  explicit cache_logic(const cache_geometry& g);

  const cache_geometry& geometry() const { return m_g; }
  std::uint64_t line_of(std::uint64_t addr) const {
    return addr & ~std::uint64_t(m_g.line_size - 1);
  }

  // Miss queue entries `req` may need (fill + write-back of a dirty victim).
  access_result access(const access_request& req);
  // A fill for MSHR entry `mshr` brought `sectors`; ready requesters go to `ready`.
  fill_result fill(int mshr, std::uint8_t sectors, std::vector<mshr_table::slot>& ready);
  // Marks sectors dirty if the line is present (an atomic executed at this bank).
  void mark_dirty(std::uint64_t addr, std::uint8_t sectors);
  // Is the line present with all of `sectors` valid? (no side effects)
  bool probe(std::uint64_t addr, std::uint8_t sectors) const;
  // Fills a line without a request (L2 warm-up from MemcpyHtoD); returns false if no line.
  bool warm(std::uint64_t addr, std::uint8_t sectors);
  void invalidate_all() { m_tags.invalidate_all(); }
  // Power switch-off of line frame `idx` (Snooze): a line that is allocated, clean and not
  // waiting for a fill is lost. True if it held valid data.
  bool switch_off(int idx) {
    const cache_line& l = m_tags.at(idx);
    if (!l.allocated || l.reserved || l.dirty) return false;
    const bool had = l.valid != 0;
    m_tags.clear(idx);
    return had;
  }

  const mshr_table& mshr() const { return m_mshr; }
  mshr_table& mshr() { return m_mshr; }
  // The MSHR table's operations done by another implementation (docs/rtl.md).
  void use_mshr_backend(std::unique_ptr<mshr_backend> b) { m_mshr.use_backend(std::move(b)); }
  const tag_array& tags() const { return m_tags; }
  void set_active_ways(std::uint32_t n) { m_tags.set_active_ways(n); }

 private:
  access_result read(const access_request& req);
  access_result write(const access_request& req);
  // Replaces `idx` by `line`, reporting the old line in `r`.
  void replace(int idx, std::uint64_t line, access_result& r);
  std::uint8_t all_sectors() const {
    return m_g.line_size >= 128 ? 0xf
                                : static_cast<std::uint8_t>(
                                      (1u << (m_g.line_size < 32 ? 1 : m_g.line_size / 32)) - 1);
  }

  cache_geometry m_g;
  tag_array m_tags;
  mshr_table m_mshr;
  std::uint64_t m_fills = 0;
};

}  // namespace gputlm::memory
