// The stream-to-SMX partition TB policy (see stream_partition.h).
#include "models/control/stream_partition.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::control {

stream_partition_policy::stream_partition_policy(std::vector<binding> sets)
    : lrr_policy(make_tb_selection("fcfs"), make_smx_selection("round_robin")),
      m_sets(std::move(sets)) {
  m_restricted = true;
}

bool stream_partition_policy::allowed(const kde_record& e, std::size_t s) const {
  for (const binding& b : m_sets)
    if (b.stream == e.stream) return s >= b.first && s <= b.last;
  return true;
}

std::string stream_partition_policy::hardware(std::size_t smxs) const {
  (void)smxs;
  return "stream partition: an SMX-range register pair per bound stream (" +
         std::to_string(m_sets.size()) + " streams)";
}

namespace {

class stream_partition_strategy final : public stream_partition_policy, public strategy {
 public:
  explicit stream_partition_strategy(const strategy_site& s) : strategy(s) {}
  void bound(tb_scheduler_view& v) override {
    m_sets.clear();
    for (const std::string& item : *m_smxs) {
      binding b;
      const std::size_t colon = item.find(':');
      bool ok = colon != std::string::npos && colon > 0;
      try {
        if (ok) {
          b.stream = std::stoull(item.substr(0, colon));
          const std::string range = item.substr(colon + 1);
          const std::size_t dash = range.find('-');
          b.first = std::stoul(range.substr(0, dash));
          b.last = dash == std::string::npos ? b.first : std::stoul(range.substr(dash + 1));
        }
      } catch (const std::exception&) {
        ok = false;
      }
      m_smxs.require(ok, "'" + item + "' is not stream:first-last (e.g. 0:0-7)");
      m_smxs.require(b.first <= b.last && b.last < v.smx_count(),
                     "'" + item + "': SMXs " + std::to_string(b.first) + "-" +
                         std::to_string(b.last) + " are not within the chip's " +
                         std::to_string(v.smx_count()));
      m_smxs.require(std::none_of(m_sets.begin(), m_sets.end(),
                                  [&](const binding& o) { return o.stream == b.stream; }),
                     "stream " + std::to_string(b.stream) + " is listed twice");
      m_sets.push_back(b);
    }
  }

 private:
  string_list_param m_smxs{owner(), key("smxs"), {}, "each stream's SMXs, stream:first-last"};
};

}  // namespace

GPUTLM_STRATEGY(tb_policy, "partition", stream_partition_strategy,
                "binds each stream to a set of SMXs (loose round robin within it)");

}  // namespace gputlm::control
