#include "models/memory/l2_cache.h"

namespace gputlm::memory {

l2_cache::l2_cache(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  declare_socket("icnt", icnt);
  declare_socket("dram", dram);
}

void l2_cache::validate() {
  m_cache.validate();
  for (const param<std::uint64_t>* q :
       {&m_icnt_to_l2_queue, &m_l2_to_dram_queue, &m_dram_to_l2_queue, &m_l2_to_icnt_queue})
    q->require(**q >= 1, "a queue needs at least one entry");
}

}  // namespace gputlm::memory
