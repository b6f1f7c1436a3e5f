// Flags (docs/core.md, "Flags"): a poll (a global load carrying flag=V) waits until its status
// word holds V, polling through the L1 and the network to the L2 every flag_poll_interval
// cycles after a short answer; a flagged store writes its value there. A GTX480 run of two
// TBs on two SMs: the producer runs a chain of 200 dependent FFMAs and then stores 1 to the
// word, the consumer polls it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_flag_wait {

using namespace gputlm::testing;

namespace {

constexpr std::uint64_t k_word = 0x7f0000000040ull;
constexpr int k_chain = 200;

std::string hex_pc(std::uint32_t pc) {
  char b[16];
  std::snprintf(b, sizeof b, "%04x", pc);
  return b;
}

// TB 0 the producer (its store flagged `sets`; chain FFMAs first), TB 1 the consumer (its
// poll waiting for `waits`); without `flags` the same accesses carry no flag.
std::string two_tbs(const std::string& name, int chain, std::uint32_t sets, std::uint32_t waits,
                    bool flags = true) {
  const std::string dir = fresh_dir(name);
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");
  std::ostringstream k;
  k << "-kernel name = _Zflags\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
       "-shmem = 0\n-nregs = 16\n-binary version = 61\n-cuda stream id = 0\n"
       "-shmem base_addr = 0x00007ff000000000\n-local mem base_addr = 0x00007ff800000000\n"
       "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";
  char word[32];
  std::snprintf(word, sizeof word, "0x%llx", static_cast<unsigned long long>(k_word));
  k << "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " << chain + 3 << "\n";
  std::uint32_t pc = 0;
  k << hex_pc(pc) << " ffffffff 1 R1 MOV 0 0\n";
  for (int i = 0; i < chain; ++i) {
    pc += 16;
    k << hex_pc(pc) << " ffffffff 1 R1 FFMA 3 R1 R1 R1 0\n";
  }
  const std::string set_token = flags ? " flag=" + std::to_string(sets) : "";
  const std::string wait_token = flags ? " flag=" + std::to_string(waits) : "";
  k << hex_pc(pc + 16) << " 00000001 0 STG.E.SYS 2 R2 R1 4 0 " << word << set_token << "\n";
  k << hex_pc(pc + 32) << " ffffffff 0 EXIT 0 0\n\n#END_TB\n\n";
  k << "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 2\n";
  k << "0000 00000001 1 R3 LDG.E.SYS 1 R2 4 0 " << word << wait_token << "\n";
  k << "0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n";
  write_text(dir + "/kernel-1.traceg", k.str());
  return dir;
}

nlohmann::json run(const std::string& trace, const std::string& sets, const std::string& tag) {
  const std::string stats = std::string(GPUTLM_TEST_TMP) + "/" + tag + ".json";
  // (The fetch always hits: each TB's time is then its own instructions and its memory.)
  const auto r = run_command(gputlm_bin() + " run " GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " + trace +
                                 " --no-wall-clock --set gpu.smx.icache_perfect=true " + sets +
                                 " --stats-form=full --stats " + stats,
                             tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? nlohmann::json::parse(slurp(stats)) : nlohmann::json{};
}

double sum(const nlohmann::json& j, const std::string& key) {
  double s = 0;
  for (const auto& [name, b] : j["blocks"].items())
    if (name.rfind("gpu.smx[", 0) == 0 && b.contains(key)) s += b[key].get<double>();
  return s;
}

// The consumer's (TB 1's) start and end cycles from the TB log.
std::pair<double, double> consumer(const nlohmann::json& j) {
  for (const auto& e : j["kernels"][0]["tb_log"])
    if (e[0].get<int>() == 1) return {e[2].get<double>(), e[3].get<double>()};
  ADD_FAILURE() << "no TB 1 in the log";
  return {0, 0};
}

}  // namespace

TEST(flag_wait, a_poll_waits_for_the_producers_store_and_costs_its_polls) {
  // Waiting for 0, the word's value before any store: one poll, answered at once; the
  // consumer's time `trip` is its TB's few instructions and that poll's round trip.
  const auto now = run(two_tbs("flag_now", k_chain, 1, 0), "", "flag_now");
  ASSERT_FALSE(now.empty());
  EXPECT_EQ(sum(now, "flag_polls"), 1);
  EXPECT_EQ(sum(now, "flag_repolls"), 0);
  const auto [s0, e0] = consumer(now);
  const double trip = e0 - s0;
  EXPECT_GT(trip, 0);

  // Waiting for the producer's 1: each poll that finds the word short goes again after the
  // interval (8) and costs its round trip P once more, so the consumer's time is
  // trip + repolls x (P + 8), by hand, with P the same for any interval (nothing else loads
  // the memory). It ends only after the producer's store reached the L2: no earlier than
  // the producer's end less a round trip (the store's acknowledgement), and within a poll
  // period and the last poll's return after it.
  const auto wait = run(two_tbs("flag_wait", k_chain, 1, 1), "", "flag_wait");
  ASSERT_FALSE(wait.empty());
  const auto [s1, e1] = consumer(wait);
  const double repolls = sum(wait, "flag_repolls");
  EXPECT_EQ(sum(wait, "flag_polls"), repolls + 1);
  ASSERT_GE(repolls, 2);
  const double period = (e1 - s1 - trip) / repolls;
  EXPECT_EQ(period, std::floor(period));  // whole periods
  const double p_wait = period - 8;
  EXPECT_GT(p_wait, 0);
  double producer_end = 0;
  for (const auto& e : wait["kernels"][0]["tb_log"])
    if (e[0].get<int>() == 0) producer_end = e[3].get<double>();
  EXPECT_GE(e1, producer_end - trip);
  EXPECT_LE(e1, producer_end + period + trip);

  // A longer spin loop (200 cycles) polls less often, with the same round trip.
  const auto slow =
      run(two_tbs("flag_slow", k_chain, 1, 1), "--set gpu.smx.flag_poll_interval=200", "flag_slow");
  ASSERT_FALSE(slow.empty());
  const auto [s2, e2] = consumer(slow);
  const double slow_repolls = sum(slow, "flag_repolls");
  ASSERT_GE(slow_repolls, 1);
  EXPECT_LT(slow_repolls, repolls);
  EXPECT_EQ((e2 - s2 - trip) / slow_repolls - 200, p_wait);

  // Without the flags (the same accesses, no tokens) the poll finds its data at once: the
  // consumer does not wait for the producer.
  const auto plain = run(two_tbs("flag_plain", k_chain, 1, 1, false), "", "flag_plain");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(sum(plain, "flag_polls"), 0);
  EXPECT_LT(consumer(plain).second, producer_end - trip);
}

TEST(flag_wait, the_flag_token_is_read_written_and_refused_where_it_means_nothing) {
  const std::string dir = two_tbs("flag_token", 2, 7, 7);
  // Text -> binary -> text keeps the tokens.
  const std::string bin = std::string(GPUTLM_TEST_TMP) + "/flag_token_bin";
  std::filesystem::remove_all(bin);
  auto c = run_command(gputlm_bin() + " trace convert " + dir + " " + bin + " --to binary",
                       "flag_convert");
  ASSERT_EQ(c.status, 0) << c.err;
  const std::string back = std::string(GPUTLM_TEST_TMP) + "/flag_token_back";
  std::filesystem::remove_all(back);
  c = run_command(gputlm_bin() + " trace convert " + bin + " " + back + " --to text", "flag_back");
  ASSERT_EQ(c.status, 0) << c.err;
  const std::string text = slurp(back + "/kernel-1.traceg");
  std::size_t flags = 0;
  for (std::size_t at = text.find(" flag=7\n"); at != std::string::npos;
       at = text.find(" flag=7\n", at + 1))
    ++flags;
  EXPECT_EQ(flags, 2u);

  // On an FFMA the token means nothing: one line naming file, line and key, exit 2.
  std::string bad = slurp(dir + "/kernel-1.traceg");
  const std::size_t at = bad.find("FFMA 3 R1 R1 R1 0\n");
  ASSERT_NE(at, std::string::npos);
  bad.insert(at + std::string("FFMA 3 R1 R1 R1 0").size(), " flag=1");
  write_text(dir + "/kernel-1.traceg", bad);
  const auto r =
      run_command(gputlm_bin() + " run " GPUTLM_SOURCE_DIR "/yaml/fermi.yaml " + dir, "flag_bad");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("kernel-1.traceg:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("flag"), std::string::npos) << r.err;
}

}  // namespace test_flag_wait
