// A TB scheduling policy that binds each CUDA stream to a set of SMXs: the multi-programmed
// GPU of μC-States' heterogeneous chip (Kayiran et al., PACT 2016, §7), where each
// application (a stream of a merged trace, `gputlm trace merge`) runs on the cores its
// bottleneck suits (memory-bound applications on the tuned-down cores, compute-bound ones
// on the big cores). Otherwise the baseline's loose round robin: kernel entries in FCFS
// order, TB ids in order, SMXs round robin (dispatch_policies.h), each entry only onto its
// stream's SMXs.
//
//   smx_scheduler.policy: {type: partition, smxs: ["0:0-7", "1:8-15"]}
//
// `smxs` lists "stream:first-last" (or "stream:smx"); a stream not listed may use every
// SMX. A range outside the chip, or a stream listed twice, is an input error.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/control/tb_policy.h"

namespace gputlm::control {

class stream_partition_policy : public lrr_policy {
 public:
  // `sets`: per stream, its SMXs [first, last].
  struct binding {
    std::uint64_t stream = 0;
    std::size_t first = 0, last = 0;
  };
  explicit stream_partition_policy(std::vector<binding> sets = {});
  std::string hardware(std::size_t smxs) const override;

 protected:
  // Whether SMX s may take entry e's TBs.
  bool allowed(const kde_record& e, std::size_t s) const override;
  std::vector<binding> m_sets;
};

}  // namespace gputlm::control
