// A request's priority byte (models/core/request_priority.h) travels unchanged from the SMX
// through the L1, the network and the L2 into the DRAM channel's request: a test tagger
// beside every SMX stamps each request with a byte computed from its SMX and warp, and a
// log beside every channel checks each read it queues against the same function. Then the
// CLAMS ranker (yaml/mechanisms/clams.yaml) on the LATOA mesh ranks every request the SMXs
// send, and the channels see only bytes of its eight levels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "models/common/block_factory.h"
#include "models/common/component.h"
#include "models/control/workload.h"
#include "models/core/request_priority.h"
#include "models/memory/dram_events.h"
#include "platforms/platform.h"
#include "tests/common/run_command.h"
#include "traces/trace_reader.h"

namespace test_request_priority {

using namespace gputlm;

namespace {

std::uint8_t stamp(std::uint32_t smx, std::uint32_t warp) {
  return static_cast<std::uint8_t>(1 + (smx * 37 + warp * 11) % 250);
}

// "gpu.smx[12].tag" -> 12
std::uint32_t smx_of(const std::string& path) {
  const auto at = path.find("smx[") + 4;
  return static_cast<std::uint32_t>(std::stoul(path.substr(at, path.find(']', at) - at)));
}

class test_tagger : public component, public core::request_priority {
 public:
  test_tagger(const sc_core::sc_module_name& name, const block_context& ctx)
      : component(name, ctx), m_smx(smx_of(this->name())) {
    priority.bind(*this);
    declare_export("priority", priority);
  }
  sc_core::sc_export<core::request_priority> priority{"priority"};
  std::uint8_t priority_of(const core::warp_census& c, std::uint32_t warp, std::uint64_t) override {
    EXPECT_GE(c.live, 1u);  // the sender is live
    EXPECT_LE(c.memory_wait, c.live);
    ++asked;
    return stamp(m_smx, warp);
  }
  std::uint32_t m_smx;
  std::uint64_t asked = 0;
};
GPUTLM_BLOCK("test_tagger", test_tagger, "test: a priority from the SMX and warp", {});

class priority_log : public component, public memory::dram_events {
 public:
  priority_log(const sc_core::sc_module_name& name, const block_context& ctx)
      : component(name, ctx) {
    watch.bind(*this);
    declare_export("watch", watch);
  }
  sc_core::sc_export<memory::dram_events> watch{"watch"};
  void request_queued(const memory::dram_engine::request& r, std::size_t) override {
    if (r.from.smx == memory::dram_requester::none) {
      ++without;
      return;
    }
    ++with;
    seen |= std::uint64_t(1) << (r.from.priority % 64);
    if (expect_stamp)
      EXPECT_EQ(int(r.from.priority), int(stamp(r.from.smx, r.from.warp)))
          << "SMX " << r.from.smx << " warp " << r.from.warp;
    else
      EXPECT_EQ((r.from.priority - 1) % 16, 0) << int(r.from.priority);  // 3-bit ranks
  }
  bool expect_stamp = true;
  std::uint64_t with = 0, without = 0, seen = 0;
};
GPUTLM_BLOCK("priority_log", priority_log, "test: the priority of every DRAM request", {});

// Loads `platform` with the mechanism files `with`, calls `before()`, runs the sample.
template <class F>
std::unique_ptr<platforms::platform> run(const std::string& platform,
                                         const std::vector<std::string>& with,
                                         const std::string& trace, F before) {
  auto p =
      platforms::platform::load(std::string(GPUTLM_SOURCE_DIR) + "/yaml/" + platform, {}, with);
  before();
  static std::unique_ptr<control::workload> work;
  work = std::make_unique<control::workload>(
      traces::open_trace(std::string(GPUTLM_SOURCE_DIR) + "/traces/samples/" + trace, {}));
  work->open_all();
  p->set_workload(work.get());
  sc_core::sc_start();
  return p;
}

}  // namespace

TEST(request_priority, a_stamp_reaches_the_dram_unchanged_through_l1_network_and_l2) {
  const std::string tmp = GPUTLM_TEST_TMP;
  gputlm::testing::write_text(tmp + "/priority_stamp.yaml",
                              "gpu:\n"
                              "  smx:\n"
                              "    tag: { type: test_tagger }\n"
                              "    bind+:\n"
                              "      - priority -> tag.priority\n"
                              "  dram:\n"
                              "    log: { type: priority_log }\n"
                              "    bind+:\n"
                              "      - events -> log.watch\n");
  auto p = run("fermi.yaml", {tmp + "/priority_stamp.yaml"}, "spmv", [] {});
  const auto stats = nlohmann::json::parse(p->stats().to_json());
  std::uint64_t asked = 0, requests = 0, with = 0, bytes = 0;
  for (int s = 0; s < 15; ++s) {
    const std::string smx = "gpu.smx[" + std::to_string(s) + "]";
    auto* t = dynamic_cast<test_tagger*>(sc_core::sc_find_object((smx + ".tag").c_str()));
    ASSERT_NE(t, nullptr) << smx;
    asked += t->asked;
    // Data requests and instruction lines (the L1I's misses) alike.
    requests += stats["blocks"][smx]["memory_requests"].get<std::uint64_t>() +
                stats["blocks"][smx]["icache_misses"].get<std::uint64_t>();
  }
  EXPECT_EQ(asked, requests);  // every request the SMXs sent was stamped
  for (int c = 0; c < 6; ++c) {
    auto* log = dynamic_cast<priority_log*>(
        sc_core::sc_find_object(("gpu.dram[" + std::to_string(c) + "].log").c_str()));
    ASSERT_NE(log, nullptr);
    with += log->with;
    bytes |= log->seen;
  }
  EXPECT_GT(with, 100u);                      // fills from the L2 carry the SMX's byte
  EXPECT_GE(__builtin_popcountll(bytes), 4);  // different SMXs' and warps' bytes arrived
}

TEST(request_priority, the_clams_ranker_ranks_every_request_on_the_latoa_mesh) {
  const std::string tmp = GPUTLM_TEST_TMP;
  gputlm::testing::write_text(tmp + "/priority_clams_log.yaml",
                              "gpu:\n"
                              "  dram:\n"
                              "    log: { type: priority_log }\n"
                              "    bind+:\n"
                              "      - events -> log.watch\n");
  auto p =
      run("latoa.yaml",
          {std::string(GPUTLM_SOURCE_DIR) + "/yaml/mechanisms/clams.yaml",
           tmp + "/priority_clams_log.yaml"},
          "spmv", [] {
            for (int c = 0; c < 8; ++c)
              dynamic_cast<priority_log&>(
                  *sc_core::sc_find_object(("gpu.dram[" + std::to_string(c) + "].log").c_str()))
                  .expect_stamp = false;
          });
  const auto stats = nlohmann::json::parse(p->stats().to_json());
  std::uint64_t ranked = 0, requests = 0, served_critical = 0, with = 0;
  for (int s = 0; s < 56; ++s) {
    const auto& b = stats["blocks"];
    const std::string smx = "gpu.smx[" + std::to_string(s) + "]";
    ranked += b[smx + ".clams"]["requests"].get<std::uint64_t>();
    requests += b[smx]["memory_requests"].get<std::uint64_t>() +
                b[smx]["icache_misses"].get<std::uint64_t>();
  }
  EXPECT_EQ(ranked, requests);
  for (int c = 0; c < 8; ++c) {
    const std::string ch = "gpu.dram[" + std::to_string(c) + "]";
    served_critical += stats["blocks"][ch]["clams_critical_served"].get<std::uint64_t>();
    with += dynamic_cast<priority_log&>(*sc_core::sc_find_object((ch + ".log").c_str())).with;
  }
  EXPECT_GT(with, 0u);
  EXPECT_LE(served_critical, with);
}

}  // namespace test_request_priority
