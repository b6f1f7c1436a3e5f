// μC-States' heterogeneous chip (S002 §7): two applications side by side as the streams of
// one trace (`gputlm trace merge`, traces/trace_merge.cpp), bound to sets of SMXs by the
// `partition` TB policy (models/control/stream_partition.h), each stream's IPC over its own
// run (`streams` in the statistics). By hand: application i is stream i and its device
// addresses move up by i x 2^40 (a vector add's first load, at A's base, reads A's base +
// 2^40 in the second application); with streams 0 -> SMXs 8-15 and 1 -> 0-7 every TB of a
// stream runs on its SMXs; the streams' instructions add up to the run's, and a stream's
// IPC is its instructions over its cycles. Bad input is one line and exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_stats.h"

namespace test_uc_hetero {

using namespace gputlm::testing;

namespace {
const std::string big = GPUTLM_SOURCE_DIR "/yaml/uc-bigcore.yaml";

// The first global load's first address in a text trace's kernel file.
std::string first_load(const std::string& file) {
  std::ifstream in(file);
  for (std::string l; std::getline(in, l);)
    if (l.find(" LD") != std::string::npos) {  // LD.E (sm_35) or LDG
      std::istringstream w(l);
      std::string t;
      std::vector<std::string> f;
      while (w >> t) f.push_back(t);
      for (std::size_t k = 0; k + 1 < f.size(); ++k)
        if (f[k].rfind("0x", 0) == 0) return f[k];
    }
  return "";
}

std::string merged(const std::string& tag) {
  const std::string a = generated_trace("vectoradd", " -p n=8192", tag + "_a");
  const std::string b = generated_trace("vectoradd", " -p n=8192", tag + "_b");
  const std::string out = fresh_dir(tag + "_mix");
  const auto r =
      run_command(gputlm_bin() + " trace merge " + a + " " + b + " -o " + out + " --force", tag);
  EXPECT_EQ(r.status, 0) << r.err;
  return out;
}
}  // namespace

TEST(uc_hetero, merge_puts_application_i_on_stream_i_with_its_addresses_moved) {
  const std::string a = generated_trace("vectoradd", " -p n=8192", "het_merge_a");
  const std::string out = merged("het_merge");
  std::ifstream list(out + "/kernelslist.g");
  std::stringstream text;
  text << list.rdbuf();
  EXPECT_NE(text.str().find("kernel-1.traceg"), std::string::npos);
  EXPECT_NE(text.str().find("kernel-2.traceg"), std::string::npos);
  std::ifstream k2(out + "/kernel-2.traceg");
  std::stringstream h;
  h << k2.rdbuf();
  EXPECT_NE(h.str().find("-cuda stream id = 1"), std::string::npos);
  const std::uint64_t original = std::stoull(first_load(a + "/kernel-1.traceg"), nullptr, 16);
  EXPECT_EQ(std::stoull(first_load(out + "/kernel-1.traceg"), nullptr, 16), original);
  EXPECT_EQ(std::stoull(first_load(out + "/kernel-2.traceg"), nullptr, 16),
            original + (std::uint64_t(1) << 40));
}

TEST(uc_hetero, partition_keeps_each_stream_on_its_smxs_and_streams_add_up) {
  const std::string mix = merged("het_part");
  const auto s = run_stats(big, mix,
                           " --set smx_scheduler.policy=partition"
                           " --set smx_scheduler.policy.smxs=[0:8-15,1:0-7]",
                           "het_part");
  ASSERT_EQ(s["kernels"].size(), 2u);
  for (std::size_t k = 0; k < 2; ++k)
    for (const auto& tb : s["kernels"][k]["tb_log"]) {
      const auto smx = tb[1].get<std::uint64_t>();
      if (k == 0)
        EXPECT_GE(smx, 8u);
      else
        EXPECT_LT(smx, 8u);
    }
  ASSERT_EQ(s["streams"].size(), 2u);
  std::uint64_t sum = 0;
  for (const auto& st : s["streams"]) {
    sum += st["thread_instructions"].get<std::uint64_t>();
    EXPECT_DOUBLE_EQ(st["ipc"].get<double>(), st["thread_instructions"].get<double>() /
                                                  st["cycles"].get<double>());
  }
  EXPECT_EQ(sum, s["thread_instructions"].get<std::uint64_t>());
}

TEST(uc_hetero, bad_merges_and_partitions_are_one_line_errors) {
  const std::string a = generated_trace("vectoradd", " -p n=4096", "het_bad_a");
  const std::string cdp = generated_trace("bfs_cdp", " -p scale=8", "het_bad_cdp");
  std::filesystem::remove_all(test_tmp("het_cdp"));  // (left by an earlier run)
  for (const std::string& cmd :
       {" trace merge " + a + " -o " + test_tmp("het_one"),
        " trace merge " + a + " " + cdp + " -o " + test_tmp("het_cdp"),
        " run " + big + " " + a +
            " --set smx_scheduler.policy=partition --set smx_scheduler.policy.smxs=[0:8-16]",
        " run " + big + " " + a +
            " --set smx_scheduler.policy=partition --set smx_scheduler.policy.smxs=[0:0-3,0:4-7]",
        " run " + big + " " + a +
            " --set smx_scheduler.policy=partition --set smx_scheduler.policy.smxs=[zero]"}) {
    const auto r = run_command(gputlm_bin() + cmd, "het_bad");
    EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << cmd << "\n" << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(test_tmp("het_cdp")));
}

}  // namespace test_uc_hetero
