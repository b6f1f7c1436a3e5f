// The DRAM channel's observation point (models/memory/dram_events.h): a request log beside
// every GTX480 channel, attached by a mechanism file alone, sees each request queued once
// and served once, and what it sees adds up to the channel's own statistics (requests, row
// hits, average latency and queueing latency, computed here from the events).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "models/common/block_factory.h"
#include "models/common/component.h"
#include "models/control/workload.h"
#include "models/memory/dram_events.h"
#include "platforms/platform.h"
#include "tests/common/run_command.h"
#include "traces/trace_reader.h"

namespace test_dram_events {

using namespace gputlm;

namespace {

class dram_request_log : public component, public memory::dram_events {
 public:
  dram_request_log(const sc_core::sc_module_name& name, const block_context& ctx)
      : component(name, ctx) {
    watch.bind(*this);
    declare_export("watch", watch);
  }
  sc_core::sc_export<memory::dram_events> watch{"watch"};

  void request_queued(const memory::dram_engine::request& r, std::size_t queued) override {
    EXPECT_GE(r.arrival, last_arrival);  // in arrival order
    last_arrival = r.arrival;
    EXPECT_GE(queued, 1u);
    max_queued = std::max(max_queued, queued);
    ++in_flight[r.tag];
    ++queued_n;
    if (!r.write && r.from.smx != memory::dram_requester::none) ++with_requester;
  }
  void request_served(const memory::dram_engine::request& r, bool row_hit,
                      std::uint64_t first_command, std::uint64_t done) override {
    EXPECT_EQ(in_flight[r.tag]--, 1) << "served without being queued";
    EXPECT_LE(r.arrival, done);
    EXPECT_LE(first_command, done);
    ++served_n;
    hits += row_hit;
    latency += done - r.arrival;
    queueing += first_command - std::min(first_command, r.arrival);
  }

  std::map<void*, int> in_flight;
  std::uint64_t last_arrival = 0, queued_n = 0, served_n = 0, hits = 0, latency = 0,
                queueing = 0, with_requester = 0;
  std::size_t max_queued = 0;
};
GPUTLM_BLOCK("dram_request_log", dram_request_log, "test: every DRAM request, as published", {});

}  // namespace

TEST(dram_events, a_request_log_beside_every_channel_adds_up_to_the_channels_statistics) {
  const std::string tmp = GPUTLM_TEST_TMP;
  gputlm::testing::write_text(tmp + "/dram_log.yaml",
                              "gpu:\n"
                              "  dram:\n"
                              "    log: { type: dram_request_log }\n"
                              "    bind+:\n"
                              "      - events -> log.watch\n");
  auto p = platforms::platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/fermi.yaml", {},
                                     {tmp + "/dram_log.yaml"});
  control::workload work(
      traces::open_trace(std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/spmv", {}));
  work.open_all();
  p->set_workload(&work);
  sc_core::sc_start();
  const auto stats = nlohmann::json::parse(p->stats().to_json());
  std::uint64_t all = 0;
  for (int c = 0; c < 6; ++c) {  // the GTX480's six channels
    const std::string ch = "gpu.dram[" + std::to_string(c) + "]";
    auto* log = dynamic_cast<dram_request_log*>(sc_core::sc_find_object((ch + ".log").c_str()));
    ASSERT_NE(log, nullptr) << ch;
    const auto& s = stats["blocks"][ch];
    const auto requests = s["reads"].get<std::uint64_t>() + s["writes"].get<std::uint64_t>();
    EXPECT_EQ(log->queued_n, requests) << ch;
    EXPECT_EQ(log->served_n, requests) << ch;
    for (const auto& [tag, n] : log->in_flight) EXPECT_EQ(n, 0) << ch;
    EXPECT_EQ(log->hits, s["row_hits"].get<std::uint64_t>()) << ch;
    EXPECT_LE(log->max_queued, 64u) << ch;  // queue_depth
    ASSERT_GT(requests, 0u) << ch;
    EXPECT_DOUBLE_EQ(double(log->latency) / double(requests), s["avg_latency"].get<double>());
    EXPECT_DOUBLE_EQ(double(log->queueing) / double(requests),
                     s["avg_queueing_latency"].get<double>());
    EXPECT_GT(log->with_requester, 0u) << ch << ": reads carry the SMX they are for";
    all += requests;
  }
  EXPECT_GT(all, 100u);
}

}  // namespace test_dram_events
