// Memory requests on the TLM-2.0 base protocol (AT, nb_transport phases), shared by every
// block on the data path: SMX LDST unit -> L1 bank -> network interface -> interconnect ->
// L2 bank -> DRAM channel, and back.
//
// Payloads come from a payload_pool (tlm_mm_interface, gem5 sc_mm style): acquire() hands
// out a recycled payload with its mem_request extension attached; the last release()
// returns it. Nothing is allocated per access once the pool has warmed up. A pool counts
// the payloads it has out, so tests check for leaks at the end of a run.
//
// Back-pressure is the base protocol's: a target that cannot take a request returns
// TLM_ACCEPTED for BEGIN_REQ and sends END_REQ later (nb_transport_bw) when it can; the
// initiator sends nothing more on that socket until END_REQ arrives.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tlm>
#include <vector>

namespace gputlm {

enum class access_kind : std::uint8_t {
  global_load,
  global_store,
  local_load,
  local_store,
  constant_load,
  texture_load,
  atomic,  // executed at L2
  instruction_fetch,
  writeback,  // dirty line evicted from a cache
  fill,       // line fill request from a cache to the next level
  flush,      // kernel end: the SMX asks its L1 to invalidate (flush_at_kernel_end)
  carveout,   // a kernel's first TB on an SMX: its shared memory there (the address), so
              // that an L1 sharing one array with shared memory takes the rest (l1_cache.h)
  // A status word the trace marks with a flag value (flag=V, docs/traces.md), as volatile
  // accesses: both pass the L1; the L2 keeps the values stores write and answers a load
  // (a poll) with the word's value. The payload's data holds the word (flag_word).
  flag_load,
  flag_store,
};

// The word a flag_load or flag_store is about, in its payload's data: the byte address and
// the value (written by a store; answered to a load, 0 for a word never written).
struct flag_word {
  std::uint64_t address = 0;
  std::uint32_t value = 0;
};
inline flag_word read_flag(const tlm::tlm_generic_payload& gp) {
  flag_word f;
  std::memcpy(&f.address, gp.get_data_ptr(), 8);
  std::memcpy(&f.value, gp.get_data_ptr() + 8, 4);
  return f;
}
inline void write_flag(tlm::tlm_generic_payload& gp, const flag_word& f) {
  std::memcpy(gp.get_data_ptr(), &f.address, 8);
  std::memcpy(gp.get_data_ptr() + 8, &f.value, 4);
}

const char* to_string(access_kind k);
inline bool is_write(access_kind k) {
  return k == access_kind::global_store || k == access_kind::local_store ||
         k == access_kind::writeback;
}

// Who asked, for what. Copied along when a cache creates its own request for a miss.
// 56 bytes, so that a pool slot's payload and extension share three host cache lines.
struct mem_request : tlm::tlm_extension<mem_request> {
  std::uint32_t smx = 0;
  std::uint32_t warp = 0;  // warp slot in the SMX
  std::uint32_t tb = 0;    // TB linear id within its kernel
  std::uint32_t kernel = 0;
  std::uint32_t pc = 0;
  std::uint32_t lane_mask = 0;  // lanes served by this request
  // The interconnect port a request entered by, where its reply goes (set by the network
  // at injection; a cache copying this record into its own request copies it too, and the
  // network sets it again).
  std::uint32_t icnt_port = 0;
  std::uint8_t sector_mask = 0;  // 32 B sectors of the 128 B line touched (bit i = sector i)
  access_kind kind = access_kind::global_load;
  // Where a load's data came from, set by the level that answered it: what Slumber's MSHR
  // tracker records per warp (L1 hit / L1 miss / L2 miss). 0 while no cache has set it.
  enum served_by : std::uint8_t { unknown, by_l1, by_l2, by_dram };
  std::uint8_t served : 2;
  // For a fill or a write-back a cache makes, the kind of the request it was made for (a
  // fill for a store: the store's write-allocate fetch): the next level's statistics count
  // it under that access type (models/memory/access_breakdown.h).
  std::uint8_t cause : 6;
  // A criticality a mechanism gives the request on its way (0: none), which a DRAM request
  // chooser may rank by (models/memory/dram_chooser.h).
  std::uint8_t priority = 0;
  std::uint64_t issue_time_fs = 0;  // when the requester issued it (for latency statistics)
  void* origin = nullptr;           // requester-private context (e.g. the waiting warp)

  mem_request() : served(unknown), cause(0) {}
  access_kind cause_kind() const { return static_cast<access_kind>(cause); }
  void set_cause(access_kind k) { cause = static_cast<std::uint8_t>(k) & 63u; }

  tlm::tlm_extension_base* clone() const override { return new mem_request(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const mem_request&>(other);
  }
};
static_assert(static_cast<unsigned>(access_kind::flag_store) < 64,
              "a kind fits mem_request::cause");
static_assert(sizeof(mem_request) <= 56, "a pool slot's payload and extension fit three lines");

class payload_pool : public tlm::tlm_mm_interface {
 public:
  static constexpr unsigned max_bytes = 128;  // one line; data contents are not modelled

  payload_pool() = default;
  payload_pool(const payload_pool&) = delete;
  payload_pool& operator=(const payload_pool&) = delete;
  ~payload_pool() override;

  // A payload with reference count 1, its extension reset, command read, `length` bytes.
  tlm::tlm_generic_payload& acquire(std::uint64_t address, unsigned length, tlm::tlm_command cmd);
  // The payload's mem_request. For a payload of a pool (recognised by its data pointer,
  // which points into the slot) no extension lookup is needed.
  static mem_request& request(tlm::tlm_generic_payload& gp);
  static const mem_request& request(const tlm::tlm_generic_payload& gp) {
    return request(const_cast<tlm::tlm_generic_payload&>(gp));
  }
  // The same, or null for a payload that carries no mem_request.
  static const mem_request* find_request(const tlm::tlm_generic_payload& gp);
  static mem_request* find_request(tlm::tlm_generic_payload& gp) {
    return const_cast<mem_request*>(find_request(static_cast<const tlm::tlm_generic_payload&>(gp)));
  }

  void free(tlm::tlm_generic_payload* gp) override;
  // What gp.release() does for the holder of a payload of this pool, without reading the
  // payload's memory-manager pointer (its own host cache line): the payload of a finished
  // request goes back to the pool. A payload whose count is 1 keeps it in the pool, and
  // acquire() does not count it again.
  void release(tlm::tlm_generic_payload& gp);

  std::size_t in_use() const { return m_in_use; }
  std::size_t allocated() const;

 private:
  struct slot;
  // Slots are made a chunk at a time in one allocation (a pool grows by thousands while a
  // run warms up), and live until the pool goes: every chunk but the last is full. Chunks
  // double from k_first_chunk to k_chunk slots: most of a platform's pools (one per SMX,
  // one per L1) never hold more than a few payloads at once, and a run's first touch of
  // memory it reserved costs the host a page fault (a huge page's, 2 MiB cleared).
  static constexpr std::size_t k_first_chunk = 4;
  static constexpr std::size_t k_chunk = 64;
  static constexpr std::size_t k_doublings = 4;
  static_assert((k_first_chunk << k_doublings) == k_chunk);
  static constexpr std::size_t chunk_slots(std::size_t chunk) {
    return chunk >= k_doublings ? k_chunk : k_first_chunk << chunk;
  }
  slot* new_slot();
  slot* slot_at(std::size_t chunk, std::size_t k) const;  // the k-th slot made in a chunk
  std::vector<slot*> m_free;
  std::vector<void*> m_chunks;
  std::size_t m_chunk_used = 0;  // slots made in m_chunks.back()
  std::size_t m_made = 0;        // slots made in all chunks
  std::size_t m_in_use = 0;
};

// A payload with its extension and data buffer in one allocation, aligned to a host cache
// line: the payload's fields and the extension fill three lines (the data buffer, never
// touched, follows them).
struct alignas(64) payload_pool::slot : tlm::tlm_generic_payload {
  mem_request ext;
  unsigned char data[max_bytes] = {};
#ifndef NDEBUG
  const payload_pool* owner;  // release() checks that a payload is its pool's
#endif
  explicit slot(payload_pool* pool) : tlm::tlm_generic_payload(pool) {
#ifndef NDEBUG
    owner = pool;
#endif
    set_extension(&ext);
    data_offset =
        data - reinterpret_cast<unsigned char*>(static_cast<tlm::tlm_generic_payload*>(this));
  }
  ~slot() override { clear_extension(&ext); }
  // Where `data` lies from the payload's start (the same for every slot; 0 until one exists).
  static inline std::ptrdiff_t data_offset = 0;
};

inline const mem_request* payload_pool::find_request(const tlm::tlm_generic_payload& gp) {
  // A slot's data pointer points into the slot; only then is gp known to be a slot.
  if (slot::data_offset &&
      gp.get_data_ptr() == reinterpret_cast<const unsigned char*>(&gp) + slot::data_offset)
    return &static_cast<const slot&>(gp).ext;
  return gp.get_extension<mem_request>();
}

inline void payload_pool::release(tlm::tlm_generic_payload& gp) {
  assert(find_request(gp) == &static_cast<slot&>(gp).ext && static_cast<slot&>(gp).owner == this);
  if (gp.get_ref_count() != 1) {
    gp.release();
    return;
  }
  m_free.push_back(static_cast<slot*>(&gp));
  --m_in_use;
}

inline mem_request& payload_pool::request(tlm::tlm_generic_payload& gp) {
  return *find_request(gp);
}

}  // namespace gputlm
