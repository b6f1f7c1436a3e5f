#include "models/memory/l1_cache.h"

namespace gputlm::memory {

l1_cache::l1_cache(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("core", core);
  declare_socket("icnt", icnt);
}

void l1_cache::validate() {
  m_cache.validate();
  m_banks.require(*m_banks >= 1, "must be at least 1");
  m_bank_interleave.require(*m_bank_interleave >= 1, "must be at least 1 B");
  m_dirty_line_cap.require(*m_dirty_line_cap <= 100, "is a percentage (0-100)");
  if (*m_unified_size != 0) {
    m_unified_size.require(*m_unified_size >= *m_cache.size, "is smaller than the L1 size");
    for (std::uint64_t kib : *m_shared_carveouts)
      m_shared_carveouts.require(kib * 1024 <= *m_unified_size,
                                 "carve-out " + std::to_string(kib) + "KiB exceeds unified_size");
  }
}

}  // namespace gputlm::memory
