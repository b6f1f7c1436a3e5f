#include "models/common/mem_request.h"

#include <algorithm>
#include <new>

namespace gputlm {

const char* to_string(access_kind k) {
  switch (k) {
    case access_kind::global_load: return "global_load";
    case access_kind::global_store: return "global_store";
    case access_kind::local_load: return "local_load";
    case access_kind::local_store: return "local_store";
    case access_kind::constant_load: return "constant_load";
    case access_kind::texture_load: return "texture_load";
    case access_kind::atomic: return "atomic";
    case access_kind::instruction_fetch: return "instruction_fetch";
    case access_kind::writeback: return "writeback";
    case access_kind::fill: return "fill";
    case access_kind::flush: return "flush";
    case access_kind::carveout: return "carveout";
    case access_kind::flag_load:
      return "flag_load";
    case access_kind::flag_store:
      return "flag_store";
  }
  return "?";
}

payload_pool::~payload_pool() {
  // A run that ends in error (a deadlock, the livelock watchdog) may leave payloads in
  // flight that still carry other blocks' extensions, which may be gone by now: drop the
  // pointers instead of letting the payload free them. (A payload in the pool may still
  // count 1: see release().)
  std::sort(m_free.begin(), m_free.end());
  const unsigned n = tlm::max_num_extensions();
  for (std::size_t c = 0; c < m_chunks.size(); ++c) {
    const std::size_t made = c + 1 == m_chunks.size() ? m_chunk_used : chunk_slots(c);
    for (std::size_t k = 0; k < made; ++k) {
      slot* s = slot_at(c, k);
      if (!std::binary_search(m_free.begin(), m_free.end(), s))  // still in flight
        for (unsigned i = 0; i < n; ++i) s->set_extension(i, nullptr);
      s->~slot();
    }
    ::operator delete(m_chunks[c], std::align_val_t(alignof(slot)));
  }
}

payload_pool::slot* payload_pool::slot_at(std::size_t chunk, std::size_t k) const {
  return std::launder(
      reinterpret_cast<slot*>(static_cast<char*>(m_chunks[chunk]) + k * sizeof(slot)));
}

std::size_t payload_pool::allocated() const { return m_made; }

payload_pool::slot* payload_pool::new_slot() {
  if (m_chunks.empty() || m_chunk_used == chunk_slots(m_chunks.size() - 1)) {
    const std::size_t n = chunk_slots(m_chunks.size());
    m_chunks.push_back(::operator new(n * sizeof(slot), std::align_val_t(alignof(slot))));
    m_chunk_used = 0;
  }
  void* at = static_cast<char*>(m_chunks.back()) + m_chunk_used * sizeof(slot);
  slot* s = new (at) slot(this);  // (counted as made only once constructed)
  ++m_chunk_used;
  ++m_made;
  return s;
}

tlm::tlm_generic_payload& payload_pool::acquire(std::uint64_t address, unsigned length,
                                                tlm::tlm_command cmd) {
  slot* s;
  if (m_free.empty()) {
    s = new_slot();
  } else {
    s = m_free.back();
    m_free.pop_back();
  }
  ++m_in_use;
  tlm::tlm_generic_payload& gp = *s;
  gp.set_address(address);
  gp.set_command(cmd);
  gp.set_data_ptr(s->data);
  gp.set_data_length(length > max_bytes ? max_bytes : length);
  gp.set_streaming_width(gp.get_data_length());
  gp.set_byte_enable_ptr(nullptr);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  s->ext = mem_request{};
  if (gp.get_ref_count() == 0) gp.acquire();  // (a payload back through release() still counts 1)
  return gp;
}

void payload_pool::free(tlm::tlm_generic_payload* gp) {
  m_free.push_back(static_cast<slot*>(gp));
  --m_in_use;
}

}  // namespace gputlm
