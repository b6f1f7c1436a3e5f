// Miss Status Holding Registers of a cache: `entries` distinct outstanding lines, each
// merging up to `merge` requests (slots). The first request to a line is the primary miss
// and allocates an entry; later ones to the same line are secondary misses (merges). Entries
// are kept in allocation (FIFO) order, the oldest first, as the LATOA paper's MSHR
// (§3.1; docs/references.md, "LATOA MSHR states": entry 1 is the next to go out).
// Occupancy of entries and of the slots of each entry can be read at any time.
// Lines are found through a small open-addressing hash (linear probing, deletion by
// backward shift), so a lookup costs the same with 8 entries or 256. A cache that reserves
// a line for every miss finds its entries through the reserved lines instead and builds
// the table without the hash (find() then scans the entries).
// An entry is 32 bytes and holds its first slot, the usual case: a miss and its fill then
// touch one host cache line of the table; further slots of a merge sit in a side array.
// The allocation order is kept as a sequence number per entry, so that a release touches
// no other entry (order() sorts by it).
// Plain C++, no SystemC; no allocation after construction. At most max_entries entries
// and max_merge slots per entry (the caches validate their parameters against these).
// With a backend (an RTL implementation behind its transactor, docs/rtl.md), the table's
// operations are the backend's, and the table keeps a copy of what the backend reports
// after each one (occupancy, the entry's fields), which the accessors read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputlm {
class vcd_writer;
}

namespace gputlm::memory {

class mshr_backend;

class mshr_table {
 public:
  static constexpr std::size_t max_entries = 65535;
  static constexpr std::size_t max_merge = 65535;

  struct slot {
    void* requester = nullptr;
    std::uint8_t sectors = 0;
  };
  struct entry {
    std::uint64_t line = 0;
    void* first_requester = nullptr;  // slot 0
    // The cache line reserved for the fill, when the cache allocates on miss.
    std::int32_t frame = -1;
    std::uint32_t seq = 0;  // allocation order (wraps; compared as a difference)
    std::uint16_t outstanding_fills = 0;
    std::uint16_t slots = 0;           // requests merged so far, the first included (0: free)
    std::uint8_t pending_sectors = 0;  // sectors requested from the next level
    std::uint8_t first_sectors = 0;    // slot 0
    bool live() const { return slots != 0; }
  };
  static_assert(sizeof(entry) == 32, "two entries per host cache line");

  // `per_sector`: a sectored cache's table, whose entry (one per line) takes up to `merge`
  // requests for each 32-byte sector (GPGPU-Sim's sector caches keep an MSHR per sector,
  // each merging -gpgpu_cache's max merge), so up to 4 x merge in all.
  mshr_table(std::size_t entries, std::size_t merge, bool hashed = true, bool per_sector = false);
  ~mshr_table();  // (out of line: the backend's type is complete there)

  std::size_t capacity() const { return m_entries.size(); }
  std::size_t merge_limit() const { return m_merge; }
  std::size_t used() const { return m_used; }
  bool full() const { return used() == capacity(); }
  std::size_t slots_used() const { return m_slots_used; }

  // Index of the live entry for `line`, or -1.
  int find(std::uint64_t line) const;
  // Primary miss: a new entry (the table must not be full); `frame`: the line reserved for
  // it, if any (-1).
  int allocate(std::uint64_t line, std::uint8_t sectors, void* requester, int frame = -1);
  // Whether entry idx takes another request for `sectors` (the merge limit).
  bool can_merge(int idx, std::uint8_t sectors = 0xf) const {
    return m_sector_merge ? can_merge_per_sector(idx, sectors) : m_entries[idx].slots < m_merge;
  }
  std::size_t slot_count(int idx) const { return m_entries[idx].slots; }
  // Secondary miss; `extra_sectors` are fetched by an additional fill.
  void merge(int idx, void* requester, std::uint8_t sectors, std::uint8_t extra_sectors);
  const entry& at(int idx) const { return m_entries[idx]; }
  // One fill came back; true when it was the last one of the entry.
  bool fill_arrived(int idx);
  // Frees the entry, appending its requesters (in arrival order) to `out`.
  void release(int idx, std::vector<slot>& out);

  // Live entries, oldest first.
  std::vector<int> order() const;
  // The k-th newest live entry (0: the newest), or -1 when fewer than k + 1 are live.
  int newest(std::size_t k) const;
  // Appends entry idx's requesters, in arrival order, to `out` (a cancelled slot's is null).
  void requesters(int idx, std::vector<void*>& out) const;
  // Cancels entry idx's slots whose requester `drop` says to (LATOA's export, seed 003
  // §4.3): each such slot keeps its place but loses its requester, so the fill installs the
  // line and answers nobody; the entry stays until its fill arrives, which it must receive.
  // Appends the cancelled requesters to `out`; returns how many there were.
  template <class Drop>
  std::size_t cancel(int idx, Drop&& drop, std::vector<void*>& out) {
    entry& e = m_entries[idx];
    std::size_t n = 0;
    if (!e.live()) return 0;
    if (e.first_requester && drop(e.first_requester)) {
      out.push_back(e.first_requester);
      e.first_requester = nullptr;
      ++n;
    }
    for (std::size_t k = 1; k < e.slots; ++k) {
      slot& s = more(idx, k);
      if (s.requester && drop(s.requester)) {
        out.push_back(s.requester);
        s.requester = nullptr;
        ++n;
      }
    }
    return n;
  }

  // Hands the table's operations to `backend` (a fresh, empty table of the same size).
  void use_backend(std::unique_ptr<mshr_backend> backend);

 private:
  std::size_t home(std::uint64_t line) const {
    return static_cast<std::size_t>((line * 0x9E3779B97F4A7C15ull) >> m_hash_shift);
  }
  void unhash(std::uint64_t line, int idx);
  bool can_merge_per_sector(int idx, std::uint8_t sectors) const;
  // per_sector: adds `sectors` to entry idx's requests per sector (reset: starts them anew).
  void count_sectors(int idx, std::uint8_t sectors, bool reset);
  // Slot k >= 1 of entry idx.
  slot& more(int idx, std::size_t k) { return m_more[std::size_t(idx) * (m_merge - 1) + k - 1]; }
  const slot& more(int idx, std::size_t k) const {
    return m_more[std::size_t(idx) * (m_merge - 1) + k - 1];
  }

  std::vector<entry> m_entries;
  std::vector<slot> m_more;  // per entry, slots 1 .. merge - 1
  // line -> entry index; -1 marks an empty bucket. Size: a power of two >= 2 x entries.
  struct bucket {
    std::uint64_t line = 0;
    int idx = -1;
  };
  std::vector<bucket> m_hash;
  unsigned m_hash_shift = 63;
  std::vector<int> m_free;
  std::uint32_t m_seq = 0;  // of the next allocation
  std::size_t m_used = 0;
  std::size_t m_merge;
  std::size_t m_sector_merge = 0;  // per_sector: requests per sector (0: per line)
  std::vector<std::uint16_t> m_sector_count;  // per_sector: per entry, requests on each sector
  std::size_t m_slots_used = 0;
  std::unique_ptr<mshr_backend> m_backend;
  // After a backend operation on entry idx: the copies the accessors read.
  void sync(int idx);
};

// Another implementation of the table's operations (the same semantics and numbering).
class mshr_backend {
 public:
  virtual ~mshr_backend() = default;
  virtual int find(std::uint64_t line) = 0;
  virtual int allocate(std::uint64_t line, std::uint8_t sectors, void* requester, int frame) = 0;
  virtual void merge(int idx, void* requester, std::uint8_t sectors,
                     std::uint8_t extra_sectors) = 0;
  virtual bool fill_arrived(int idx) = 0;
  virtual void release(int idx, std::vector<mshr_table::slot>& out) = 0;
  virtual std::size_t used() const = 0;
  virtual std::size_t slots_used() const = 0;
  // Entry idx's line, slots, pending sectors, frame, outstanding fills and sequence.
  virtual mshr_table::entry at(int idx) const = 0;
  // Records the block's signals beside the main waveform (RTL backends).
  virtual void trace(vcd_writer& vcd, const std::string& group) {
    (void)vcd;
    (void)group;
  }
};

}  // namespace gputlm::memory
