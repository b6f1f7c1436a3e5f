#include "models/core/clams_ranker.h"

#include "models/common/block_factory.h"

namespace gputlm::core {

clams_ranker::clams_ranker(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  priority.bind(*this);
  declare_export("priority", priority);
  add_stat("requests", m_requests, "memory requests ranked");
  add_stat(
      "mean_rank",
      [this] {
        return m_requests.value() ? double(m_rank_sum.value()) / 128.0 / m_requests.value() : 0.0;
      },
      "the mean rank the requests carried (ready / live warps, quantised)");
  add_stat("rank_eighths", m_eighths, "requests by rank, in eighths (bucket k: [k/8, (k+1)/8))");
}

void clams_ranker::validate() {
  m_bits.require(*m_bits >= 1 && *m_bits <= 7, "expected 1..7 bits");
}

std::string clams_ranker::added_hardware() const {
  return "CLAMS rank: ready and live warp counters, a " + std::to_string(*m_bits) +
         "-bit divider, " + std::to_string(*m_bits) + " bits per request";
}

std::uint8_t clams_ranker::encode(const warp_census& census, std::uint32_t bits) {
  if (census.live == 0) return 1 + 128 - (128 >> bits);  // no warp waits: the top level
  const std::uint32_t ready = census.live - std::min(census.memory_wait, census.live);
  const std::uint32_t levels = 1u << bits;
  // floor(ready / live x levels), the top level for rank 1.
  const std::uint32_t level = std::min(levels - 1, ready * levels / census.live);
  return static_cast<std::uint8_t>(1 + level * (128 >> bits));
}

std::uint8_t clams_ranker::priority_of(const warp_census& census, std::uint32_t warp,
                                       std::uint64_t cycle) {
  (void)warp, (void)cycle;
  const std::uint8_t p = encode(census, static_cast<std::uint32_t>(*m_bits));
  ++m_requests;
  m_rank_sum += clams_rank_128ths(p);
  m_eighths.sample(clams_rank_128ths(p));
  return p;
}

GPUTLM_BLOCK("clams_ranker", clams_ranker,
             "CLAMS core rank (ready / live warps) carried by every memory request", {});

}  // namespace gputlm::core
