// Device-side launches (CDP and DTBL, docs/dynamic-parallelism.md) end to end through
// `gputlm run` on traces written here, against cycle counts worked out from the thesis's
// latency model (Table 5) and the platform's parameters: a CDP launch's latency sum, DTBL's
// max of two paths, an AGT collision sending a group's record to global memory, groups
// scheduled in launch order behind their native kernel, the 32-entry KD stalling a kernel,
// CDP.SYNC waiting for the last child with its context saved and restored, and launches
// that the trace cannot honour being input errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/common/run_command.h"

namespace test_dynamic_parallelism {

using gputlm::testing::run_command;
using gputlm::testing::slurp;
using gputlm::testing::write_text;

namespace {

const std::string k_src = GPUTLM_SOURCE_DIR;
const std::string k_kepler = k_src + "/yaml/kepler.yaml";
const std::string k_dtbl = k_src + "/yaml/variants/kepler-dtbl.yaml";

// Table 5 (S001 §4.6.1), as yaml/kepler.yaml sets them.
constexpr std::uint64_t stream_create = 7165, param_b = 8023, param_a = 129, launch_b = 12187,
                        launch_a = 1592, kmu_to_kd = 283;

// One kernel file of the test trace.
struct kernel_file {
  std::uint32_t id = 1;
  std::string name = "_Zparent";
  std::uint32_t tbs = 1, threads = 32, nregs = 16, shmem = 0, stream = 0;
  // The instruction lines of warp w of TB t.
  std::function<std::vector<std::string>(std::uint32_t t, std::uint32_t w)> warp;
};

std::string header(const kernel_file& k) {
  std::ostringstream o;
  o << "-kernel name = " << k.name << "\n-kernel id = " << k.id << "\n-grid dim = (" << k.tbs
    << ",1,1)\n-block dim = (" << k.threads << ",1,1)\n-shmem = " << k.shmem
    << "\n-nregs = " << k.nregs << "\n-binary version = 35\n-cuda stream id = " << k.stream
    << "\n-shmem base_addr = 0x00007ff000000000\n-local mem base_addr = 0x00007ff800000000"
       "\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";
  return o.str();
}

// Writes the trace: kernelslist.g lists `order` ("kernel-N.traceg" or
// "DeviceKernel,kernel-N.traceg") and each kernel's file.
std::string write_trace(const std::string& name, const std::vector<kernel_file>& kernels,
                        const std::vector<std::string>& order) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/dp_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string list;
  for (const auto& o : order) list += o + "\n";
  write_text(dir + "/kernelslist.g", list);
  for (const auto& k : kernels) {
    std::ostringstream o;
    o << header(k);
    for (std::uint32_t t = 0; t < k.tbs; ++t) {
      o << "#BEGIN_TB\n\nthread block = " << t << ",0,0\n\n";
      for (std::uint32_t w = 0; w < (k.threads + 31) / 32; ++w) {
        const auto lines = k.warp(t, w);
        o << "warp = " << w << "\ninsts = " << lines.size() << "\n";
        for (const auto& l : lines) o << l << "\n";
        o << "\n";
      }
      o << "#END_TB\n\n";
    }
    write_text(dir + "/kernel-" + std::to_string(k.id) + ".traceg", o.str());
  }
  return dir;
}

// `n` launches at one PC, lane i launching child kernel first_child + i (1 TB of 32).
std::vector<std::string> launches(const char* op, std::uint32_t n, std::uint32_t first_child,
                                  std::uint32_t child_tbs = 1) {
  std::vector<std::string> v;
  char mask[16];
  for (std::uint32_t i = 0; i < n; ++i) {
    std::snprintf(mask, sizeof mask, "%08x", 1u << i);
    v.push_back(std::string("0100 ") + mask + " 0 " + op + " 0 0 kernel=" +
                std::to_string(first_child + i) + " grid=" + std::to_string(child_tbs) +
                ",1,1 block=32,1,1 shmem=0 param=0x7f4000000000");
  }
  return v;
}

std::vector<std::string> with_exit(std::vector<std::string> v) {
  v.push_back("0200 ffffffff 0 EXIT 0 0");
  return v;
}

// A chain of n dependent FFMAs (each waits for the previous one's result).
std::vector<std::string> chain(std::uint32_t n) {
  std::vector<std::string> v;
  for (std::uint32_t i = 0; i < n; ++i) v.push_back("0010 ffffffff 1 R1 FFMA 3 R1 R1 R1 0");
  return with_exit(v);
}

kernel_file child(std::uint32_t id, const std::string& name = "_Zchild", std::uint32_t tbs = 1,
                  std::vector<std::string> body = with_exit({})) {
  kernel_file k;
  k.id = id;
  k.name = name;
  k.tbs = tbs;
  k.warp = [body](std::uint32_t, std::uint32_t) { return body; };
  return k;
}

struct run_result {
  int status;
  std::string err;
  nlohmann::json stats;
};

run_result run(const std::string& platform, const std::string& trace, const std::string& tag,
               const std::string& sets = "") {
  const std::string out = std::string(GPUTLM_TEST_TMP) + "/dp_" + tag + ".json";
  std::filesystem::remove(out);
  auto r = run_command(std::string(GPUTLM_BIN) + " run " + platform + " " + trace + " " + sets +
                           " --no-wall-clock --stats-form=full --stats " + out,
                       "dp_" + tag);
  run_result res{r.status, r.err, nullptr};
  if (r.status == 0)
    res.stats = nlohmann::json::parse(slurp(out));
  else
    EXPECT_FALSE(std::filesystem::exists(out)) << tag << ": statistics written by a failed run";
  return res;
}

const nlohmann::json& kernel(const run_result& r, const std::string& file) {
  for (const auto& k : r.stats["kernels"])
    if (k["file"] == file) return k;
  ADD_FAILURE() << "no kernel " << file;
  static const nlohmann::json none;
  return none;
}

std::uint64_t u(const nlohmann::json& j) { return j.get<std::uint64_t>(); }

}  // namespace

// A warp whose x = 3 lanes each launch a child pays, once, cudaStreamCreateWithFlags +
// cudaGetParameterBuffer (b + A x) + cudaLaunchDevice (b + A x), then the KMU -> KD
// dispatch: the first child's first TB starts exactly that long after the launch issued.
TEST(dynamic_parallelism, a_cdp_launch_costs_the_table_5_sum) {
  kernel_file parent;
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("CDP.LAUNCH", 3, 2));
  };
  const std::string trace =
      write_trace("cdp_latency", {parent, child(2), child(3), child(4)},
                  {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg",
                   "DeviceKernel,kernel-3.traceg", "DeviceKernel,kernel-4.traceg"});
  const run_result r = run(k_kepler, trace, "cdp_latency");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::uint64_t x = 3;
  const std::uint64_t expected =
      stream_create + (param_b + param_a * x) + (launch_b + launch_a * x) + kmu_to_kd;
  std::uint64_t first = ~0ull, last = 0;
  for (const char* f : {"kernel-2.traceg", "kernel-3.traceg", "kernel-4.traceg"}) {
    const auto& k = kernel(r, f);
    EXPECT_EQ(k["launch"], "cdp");
    EXPECT_EQ(u(k["parent"]), 0u);
    EXPECT_EQ(u(k["launch_cycle"]),
              u(kernel(r, "kernel-2.traceg")["launch_cycle"]));  // one command
    first = std::min(first, u(k["start_cycle"]) - u(k["launch_cycle"]));
    last = std::max(last, u(k["start_cycle"]) - u(k["launch_cycle"]));
  }
  EXPECT_EQ(first, expected);     // 7165 + 8410 + 16963 + 283 = 32821
  EXPECT_LE(last, expected + 2);  // the SMX scheduler: one TB per cycle
  EXPECT_EQ(u(r.stats["blocks"]["gpu.kmu"]["launch_commands"]), 1u);
  EXPECT_EQ(u(r.stats["blocks"]["gpu.kmu"]["device_kernels"]), 3u);
  EXPECT_EQ(u(r.stats["cdp_warp_instructions"]), 3u);  // each child: one EXIT
}

// DTBL: the parameter buffer (b + A x) and the KDE + AGT searches run in parallel; the
// group's TBs may start after the longer. The group joins its own launcher's kernel (same
// function, same TB shape): one KDE examined, one AGT lookup.
TEST(dynamic_parallelism, a_dtbl_launch_costs_the_longer_of_its_two_paths) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 1, 2));
  };
  const std::string trace = write_trace("dtbl_latency", {parent, child(2, "_Zagg")},
                                        {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"});
  // The parameter buffer is longer: 8023 + 129 = 8152 > 1 KDE x 1 cycle + 1 AGT cycle.
  run_result r = run(k_dtbl, trace, "dtbl_param");
  ASSERT_EQ(r.status, 0) << r.err;
  auto g = kernel(r, "kernel-2.traceg");
  EXPECT_EQ(g["launch"], "dtbl_group");
  EXPECT_EQ(u(g["coalesced_into"]), 0u);
  EXPECT_EQ(u(g["start_cycle"]) - u(g["launch_cycle"]), param_b + param_a);
  // The search is longer: one KDE at 20000 cycles + the AGT's cycle = 20001 > 8152.
  r = run(k_dtbl, trace, "dtbl_search", "--set smx_scheduler.kde_search_latency=20000cycles");
  ASSERT_EQ(r.status, 0) << r.err;
  g = kernel(r, "kernel-2.traceg");
  EXPECT_EQ(u(g["start_cycle"]) - u(g["launch_cycle"]), 20001u);
  EXPECT_EQ(u(r.stats["blocks"]["gpu.agt"]["hits"]), 1u);
  EXPECT_EQ(u(r.stats["blocks"]["gpu.kmu"]["device_kernels"]), 0u);
}

// A group with no eligible KDE (another function than every running kernel), or on a GPU
// without DTBL hardware, falls back: it runs as a device kernel, launched once its
// parameter buffer (and the search) are done, then the KMU -> KD latency.
TEST(dynamic_parallelism, a_group_without_an_eligible_kernel_falls_back_to_a_device_kernel) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 1, 2));
  };
  const std::string trace = write_trace("dtbl_fallback", {parent, child(2, "_Zother")},
                                        {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"});
  for (const std::string& platform : {k_dtbl, k_kepler}) {
    const run_result r = run(platform, trace, "dtbl_fallback");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto g = kernel(r, "kernel-2.traceg");
    EXPECT_EQ(g["launch"], "dtbl_fallback") << platform;
    // max(8023 + 129, 1 KDE examined) + 283
    EXPECT_EQ(u(g["start_cycle"]) - u(g["launch_cycle"]), param_b + param_a + kmu_to_kd)
        << platform;
    EXPECT_EQ(u(r.stats["blocks"]["gpu.kmu"]["dtbl_fallback_groups"]), 1u) << platform;
    EXPECT_EQ(u(r.stats["dtbl_fallback_warp_instructions"]), 1u) << platform;
  }
}

// Groups that run a function of their own (group_function=separate in the DTBL generators):
// the first finds no eligible KDE and falls back to a device kernel; a second, launched while
// that kernel still runs, finds its KDE and coalesces into it (thesis §4.3: misses occur
// before device kernels of the function fill the KD). KDE hit rate 1/2; the launch records in
// memory are the fallback kernel's KDE record (12 words of 8 bytes) alone, the coalesced
// group's record being on the AGT.
TEST(dynamic_parallelism, a_separate_function_group_misses_then_the_next_one_hits) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.threads = 64;
  parent.warp = [](std::uint32_t, std::uint32_t w) {
    if (w == 0) return with_exit(launches("DTBL.LAUNCH", 1, 2));
    std::vector<std::string> v = chain(3000);  // launches after 3000 dependent FFMAs
    v.pop_back();
    for (const auto& l : launches("DTBL.LAUNCH", 1, 3)) v.push_back(l);
    return with_exit(v);
  };
  const std::string trace = write_trace(
      "dtbl_separate", {parent, child(2, "_Zother", 1, chain(4000)), child(3, "_Zother")},
      {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg"});
  const run_result r = run(k_dtbl, trace, "dtbl_separate", "--stats-group=dynamic_parallelism");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto first = kernel(r, "kernel-2.traceg"), second = kernel(r, "kernel-3.traceg");
  EXPECT_EQ(first["launch"], "dtbl_fallback");
  EXPECT_EQ(u(first["start_cycle"]) - u(first["launch_cycle"]), param_b + param_a + kmu_to_kd);
  ASSERT_EQ(second["launch"], "dtbl_group");
  EXPECT_EQ(u(second["coalesced_into"]), 1u);  // the fallback kernel (workload index 1)
  // The second launch came while the fallback kernel ran (what the hit needs).
  EXPECT_GT(u(second["launch_cycle"]), u(first["start_cycle"]));
  EXPECT_LT(u(second["launch_cycle"]), u(first["end_cycle"]));
  const auto& s = r.stats["blocks"]["gpu.smx_scheduler"];
  EXPECT_EQ(u(s["kde_misses"]), 1u);
  EXPECT_EQ(u(s["groups_coalesced"]), 1u);
  EXPECT_DOUBLE_EQ(s["kde_hit_rate"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(s["launch_record_bytes_peak"].get<double>(), 96.0);
  std::uint64_t last = 0;
  for (const auto& k : r.stats["kernels"]) last = std::max(last, u(k["end_cycle"]));
  EXPECT_DOUBLE_EQ(s["launch_record_bytes_mean"].get<double>(),
                   96.0 * double(u(first["end_cycle"]) - u(first["launch_cycle"])) / double(last));
}

// With one AGT entry, the second of two groups finds it busy: its record stays in global
// memory, and scheduling it reads it through the memory hierarchy first.
TEST(dynamic_parallelism, an_agt_collision_keeps_the_group_in_memory_and_fetches_it) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 2, 2, 2));
  };
  const std::string trace = write_trace(
      "agt_collision", {parent, child(2, "_Zagg", 2), child(3, "_Zagg", 2)},
      {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg"});
  const run_result r = run(k_dtbl, trace, "agt_collision", "--set agt.entries=1");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& agt = r.stats["blocks"]["gpu.agt"];
  EXPECT_EQ(u(agt["allocations"]), 2u);
  EXPECT_EQ(u(agt["hits"]), 1u);
  EXPECT_EQ(u(agt["misses"]), 1u);
  EXPECT_EQ(u(agt["fetches"]), 1u);
  EXPECT_GT(u(agt["fetch_cycles"]), 0u);
  EXPECT_EQ(u(r.stats["blocks"]["gpu.smx_scheduler"]["group_record_fetches"]), 1u);
  // The fetched group starts after the first group's TBs, and no sooner than the fetch took.
  const auto& a = kernel(r, "kernel-2.traceg");
  const auto& b = kernel(r, "kernel-3.traceg");
  EXPECT_GE(u(b["start_cycle"]), u(a["start_cycle"]) + 1 + u(agt["fetch_cycles"]));
  // Both ran every TB.
  EXPECT_TRUE(a["finished"].get<bool>());
  EXPECT_TRUE(b["finished"].get<bool>());
}

// The launching SMX writes a group that misses the AGT to its record at launch (thesis step
// 2): the write allocates the record's sector in L2, so the fetch when the group is
// scheduled hits there instead of going to DRAM. Without the write (record_write: false)
// the same fetch misses L2: one more DRAM read, a longer fetch.
TEST(dynamic_parallelism, a_record_written_at_launch_is_fetched_from_l2) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 2, 2, 2));
  };
  const std::string trace = write_trace(
      "record_write", {parent, child(2, "_Zagg", 2), child(3, "_Zagg", 2)},
      {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg"});
  const run_result w = run(k_dtbl, trace, "record_write", "--set agt.entries=1");
  const run_result n = run(k_dtbl, trace, "record_no_write",
                           "--set agt.entries=1 --set smx_scheduler.record_write=false");
  ASSERT_EQ(w.status, 0) << w.err;
  ASSERT_EQ(n.status, 0) << n.err;
  EXPECT_EQ(u(w.stats["blocks"]["gpu.agt"]["record_writes"]), 1u);
  EXPECT_EQ(u(w.stats["blocks"]["gpu.smx_scheduler"]["group_record_writes"]), 1u);
  EXPECT_EQ(u(n.stats["blocks"]["gpu.agt"]["record_writes"]), 0u);
  auto sum = [](const run_result& r, const std::string& prefix, const std::string& stat) {
    std::uint64_t total = 0;
    for (const auto& [name, b] : r.stats["blocks"].items())
      if (name.rfind(prefix, 0) == 0 && name.find('.', prefix.size()) == std::string::npos &&
          b.contains(stat))
        total += b[stat].get<std::uint64_t>();
    return total;
  };
  // The write hits L2 at neither run's expense elsewhere: without it, the fetch is one more
  // L2 miss and one more DRAM read.
  EXPECT_EQ(sum(n, "gpu.l2[", "line_misses"), sum(w, "gpu.l2[", "line_misses") + 1);
  EXPECT_LT(u(w.stats["blocks"]["gpu.agt"]["fetch_cycles"]),
            u(n.stats["blocks"]["gpu.agt"]["fetch_cycles"]));
}

// record_prefetch: 1 fetches the record behind the chain's head while the head's TBs
// dispatch. Three groups, one AGT entry: the second and third groups' records are in memory;
// with the prefetch the third's fetch starts before the second group is scheduled, so it
// starts no later than without.
TEST(dynamic_parallelism, the_chain_prefetch_fetches_the_next_record_ahead) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 3, 2, 2));
  };
  const std::string trace = write_trace(
      "prefetch", {parent, child(2, "_Zagg", 2), child(3, "_Zagg", 2), child(4, "_Zagg", 2)},
      {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg",
       "DeviceKernel,kernel-4.traceg"});
  const run_result a = run(k_dtbl, trace, "prefetch_off", "--set agt.entries=1");
  const run_result b = run(k_dtbl, trace, "prefetch_on",
                           "--set agt.entries=1 --set smx_scheduler.record_prefetch=1");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(u(a.stats["blocks"]["gpu.agt"]["fetches"]), 2u);
  EXPECT_EQ(u(b.stats["blocks"]["gpu.agt"]["fetches"]), 2u);
  EXPECT_LE(u(kernel(b, "kernel-4.traceg")["start_cycle"]),
            u(kernel(a, "kernel-4.traceg")["start_cycle"]));
  EXPECT_TRUE(kernel(b, "kernel-4.traceg")["finished"].get<bool>());
}

// The thesis's hash uses the launching thread's id in its SMX: lane 0 of the first warp of
// two TBs on SMX 0 and SMX 1 hash to the same entry, and the second group, launched while
// the first holds it, keeps its record in memory. With the SMX in the hash
// (agt.hash=smx_thread) they take entries 0 and 512 and both hit.
TEST(dynamic_parallelism, the_agt_hash_with_the_smx_separates_two_smxs_launches) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.tbs = 2;
  parent.warp = [](std::uint32_t t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 1, 2 + t, 2));
  };
  const std::string trace = write_trace(
      "agt_hash", {parent, child(2, "_Zagg", 2), child(3, "_Zagg", 2)},
      {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg"});
  const run_result thesis = run(k_dtbl, trace, "agt_hash_thread");
  ASSERT_EQ(thesis.status, 0) << thesis.err;
  EXPECT_EQ(u(thesis.stats["blocks"]["gpu.agt"]["hits"]), 1u);
  EXPECT_EQ(u(thesis.stats["blocks"]["gpu.agt"]["misses"]), 1u);
  const run_result smx = run(k_dtbl, trace, "agt_hash_smx", "--set agt.hash=smx_thread");
  ASSERT_EQ(smx.status, 0) << smx.err;
  EXPECT_EQ(u(smx.stats["blocks"]["gpu.agt"]["hits"]), 2u);
  EXPECT_EQ(u(smx.stats["blocks"]["gpu.agt"]["misses"]), 0u);
}

// Groups are linked behind their kernel in launch order (Next of LAGEI) and scheduled
// along that chain from NAGEI: every TB of a group before any of the next one's.
TEST(dynamic_parallelism, groups_are_scheduled_in_launch_order_behind_their_kernel) {
  kernel_file parent;
  parent.name = "_Zagg";
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("DTBL.LAUNCH", 3, 2, 3));
  };
  std::vector<kernel_file> ks{parent};
  for (std::uint32_t c = 2; c <= 4; ++c) ks.push_back(child(c, "_Zagg", 3, chain(20)));
  const std::string trace =
      write_trace("agt_order", ks,
                  {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg",
                   "DeviceKernel,kernel-3.traceg", "DeviceKernel,kernel-4.traceg"});
  const std::string out = std::string(GPUTLM_TEST_TMP) + "/dp_agt_order_log.json";
  auto res = run_command(std::string(GPUTLM_BIN) + " run " + k_dtbl + " " + trace +
                             " --stats-form=full --stats " + out,
                         "dp_agt_order");
  ASSERT_EQ(res.status, 0) << res.err;
  const auto j = nlohmann::json::parse(slurp(out));
  std::uint64_t previous_last = 0;
  for (const char* f : {"kernel-2.traceg", "kernel-3.traceg", "kernel-4.traceg"}) {
    for (const auto& k : j["kernels"]) {
      if (k["file"] != f) continue;
      EXPECT_EQ(k["launch"], "dtbl_group");
      std::uint64_t first = ~0ull, last = 0;
      for (const auto& t : k["tb_log"]) {  // [tb, smx, start, end]
        first = std::min(first, t[2].get<std::uint64_t>());
        last = std::max(last, t[2].get<std::uint64_t>());
      }
      EXPECT_GT(first, previous_last) << f;
      previous_last = last;
    }
  }
  EXPECT_EQ(u(j["blocks"]["gpu.smx_scheduler"]["groups_coalesced"]), 3u);
  EXPECT_EQ(u(j["blocks"]["gpu.smx_scheduler"]["group_tbs"]), 9u);
}

// The KD's 32 entries bind host and device kernels together: with 31 long host kernels and
// the parent in the KD (the parent dispatched last: the KMU writes one host kernel every
// 283 cycles), the parent's two children each get an entry only as another kernel
// completes.
TEST(dynamic_parallelism, the_kd_limit_stalls_kernels_host_and_device_alike) {
  std::vector<kernel_file> ks;
  std::vector<std::string> order;
  for (std::uint32_t k = 1; k <= 31; ++k) {  // 31 long kernels (~16k cycles), own streams
    kernel_file h = child(k, "_Zlong", 1, chain(4000));
    h.stream = k;
    ks.push_back(h);
    order.push_back("kernel-" + std::to_string(k) + ".traceg");
  }
  kernel_file parent;
  parent.id = 32;
  parent.stream = 32;
  parent.warp = [](std::uint32_t, std::uint32_t) {
    return with_exit(launches("CDP.LAUNCH", 2, 33));
  };
  ks.push_back(parent);
  order.push_back("kernel-32.traceg");
  ks.push_back(child(33));
  ks.push_back(child(34));
  order.push_back("DeviceKernel,kernel-33.traceg");
  order.push_back("DeviceKernel,kernel-34.traceg");
  const std::string trace = write_trace("kd_limit", ks, order);
  // Short launch calls (100 cycles) so that the children arrive while the long kernels run.
  const run_result r = run(k_kepler, trace, "kd_limit",
                           "--set smx.launch_stream_create=0 --set smx.launch_param_buffer=0 "
                           "--set smx.launch_param_buffer_per_thread=0 --set smx.launch_device=100 "
                           "--set smx.launch_device_per_thread=0");
  ASSERT_EQ(r.status, 0) << r.err;
  std::uint64_t first_long_end = ~0ull;
  for (std::uint32_t k = 1; k <= 31; ++k)
    first_long_end = std::min(first_long_end,
                              u(kernel(r, "kernel-" + std::to_string(k) + ".traceg")["end_cycle"]));
  const auto& c1 = kernel(r, "kernel-33.traceg");
  const auto& c2 = kernel(r, "kernel-34.traceg");
  const std::uint64_t parent_end = u(kernel(r, "kernel-32.traceg")["end_cycle"]);
  EXPECT_LT(u(c1["launch_cycle"]) + 100 + 283, first_long_end);  // they arrive while the KD is full
  // The first child takes the parent's entry once the parent is done; the second, the
  // first child's once that one is done (the long kernels still hold the rest).
  EXPECT_GE(u(c1["start_cycle"]), parent_end);
  EXPECT_GE(u(c2["start_cycle"]), u(c1["end_cycle"]));
  EXPECT_LT(u(c2["end_cycle"]), first_long_end);
  EXPECT_GE(u(r.stats["blocks"]["gpu.kd"]["full_stalls"]), 1u);
}

// CDP.SYNC: the parent TB (two warps) waits until its child's last TB completes; waiting,
// it saves its context (64 threads x 16 registers x 4 B + 1 KiB of shared memory) and
// restores it before it goes on.
TEST(dynamic_parallelism, cdp_sync_resumes_after_the_last_child_tb) {
  kernel_file parent;
  parent.threads = 64;
  parent.shmem = 1024;
  parent.warp = [](std::uint32_t, std::uint32_t w) {
    std::vector<std::string> v;
    if (w == 0) v = launches("CDP.LAUNCH", 1, 2);
    v.push_back("0110 ffffffff 0 BAR.SYNC 0 0");
    v.push_back("0120 ffffffff 0 CDP.SYNC 0 0");
    v.push_back("0130 ffffffff 1 R2 FFMA 3 R1 R1 R1 0");
    return with_exit(v);
  };
  const std::string trace = write_trace("cdp_sync", {parent, child(2, "_Zchild", 2, chain(300))},
                                        {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"});
  const run_result r = run(k_kepler, trace, "cdp_sync");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto& p = kernel(r, "kernel-1.traceg");
  const auto& c = kernel(r, "kernel-2.traceg");
  EXPECT_GT(u(p["end_cycle"]), u(c["end_cycle"]));  // resumed after the child's last TB
  std::uint64_t syncs = 0, waited = 0, bytes = 0;
  for (auto it = r.stats["blocks"].begin(); it != r.stats["blocks"].end(); ++it) {
    if (!it.value().contains("device_syncs")) continue;
    syncs += u(it.value()["device_syncs"]);
    waited += u(it.value()["device_syncs_waited"]);
    bytes += u(it.value()["context_bytes"]);
  }
  EXPECT_EQ(syncs, 1u);
  EXPECT_EQ(waited, 1u);
  EXPECT_EQ(bytes, 2u * (64 * 16 * 4 + 1024));  // saved, then restored
}

// Launches a trace cannot honour are input errors: one line, exit status 2, no statistics.
TEST(dynamic_parallelism, launches_the_trace_cannot_honour_are_input_errors) {
  struct bad {
    std::string tag;
    std::vector<kernel_file> kernels;
    std::vector<std::string> order;
    std::string message;
  };
  auto parent_launching = [](std::vector<std::uint32_t> ids) {
    kernel_file p;
    p.warp = [ids](std::uint32_t, std::uint32_t) {
      std::vector<std::string> v;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto one = launches("CDP.LAUNCH", 1, ids[i]);
        v.push_back(one[0].substr(0, 1) + std::to_string(2 + i) + one[0].substr(2));  // its own PC
      }
      return with_exit(v);
    };
    return p;
  };
  // A cycle: 1 launches 2, 2 launches 3, 3 launches 2 again.
  auto device_launching = [&](std::uint32_t id, std::uint32_t child_id) {
    kernel_file k = parent_launching({child_id});
    k.id = id;
    k.name = "_Zchild";
    return k;
  };
  const std::vector<bad> cases{
      {"cycle",
       {parent_launching({2}), device_launching(2, 3), device_launching(3, 2)},
       {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg", "DeviceKernel,kernel-3.traceg"},
       "the launches form a cycle or repeat"},
      {"unknown",
       {parent_launching({9}), child(2)},
       {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"},
       "launches kernel 9, which the trace does not have"},
      {"host", {parent_launching({1})}, {"kernel-1.traceg"}, "which the host launches"},
      {"twice",
       {parent_launching({2, 2}), child(2)},
       {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"},
       "a second time"},
      {"unlaunched",
       {parent_launching({}), child(2)},
       {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"},
       "that no CDP.LAUNCH or DTBL.LAUNCH of the trace names"},
  };
  for (const auto& c : cases) {
    const std::string trace = write_trace("bad_" + c.tag, c.kernels, c.order);
    const run_result r = run(k_kepler, trace, "bad_" + c.tag);
    EXPECT_EQ(r.status, 2) << c.tag << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.tag << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.tag << ": " << r.err;
  }
  // A DeviceKernel entry whose file is missing: reported before the run.
  const std::string trace = write_trace("bad_missing", {parent_launching({2})},
                                        {"kernel-1.traceg", "DeviceKernel,kernel-2.traceg"});
  const run_result r = run(k_kepler, trace, "bad_missing");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("kernel-2.traceg"), std::string::npos) << r.err;
}

// --stats-group writes the dynamic-parallelism statistics of a flat run (zeros where
// nothing launched from the device), without changing its timing; an unknown group is an
// input error.
TEST(dynamic_parallelism, a_flat_run_writes_the_group_when_asked) {
  const std::string trace = k_src + "/traces/samples/vectoradd";
  const run_result plain = run(k_kepler, trace, "flat_plain");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(plain.stats.contains("cdp_warp_instructions"));
  EXPECT_FALSE(plain.stats["blocks"]["gpu.kmu"].contains("device_kernels"));
  const run_result grouped =
      run(k_kepler, trace, "flat_grouped", "--stats-group dynamic_parallelism");
  ASSERT_EQ(grouped.status, 0) << grouped.err;
  EXPECT_EQ(u(grouped.stats["total_cycles"]), u(plain.stats["total_cycles"]));
  EXPECT_EQ(u(grouped.stats["cdp_warp_instructions"]), 0u);
  EXPECT_EQ(u(grouped.stats["host_warp_instructions"]), u(plain.stats["warp_instructions"]));
  EXPECT_EQ(u(grouped.stats["blocks"]["gpu.kmu"]["device_kernels"]), 0u);
  const run_result bad = run(k_kepler, trace, "flat_badgroup", "--stats-group dynamic");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--stats-group: unknown group 'dynamic'"), std::string::npos) << bad.err;
}

// A launch pool too small for the workload: a Kernel Distributor of one entry, which the
// parent holds until it ends, and a pool of one. The parent's four TBs each launch two
// children; the first child fills the pool and cannot leave it for the KD, the next launch
// waits for room, and the parent, whose warp waits with it, never ends: no progress is
// possible. That is the setting's doing, not the model's: one line naming
// kmu.pending_launch_limit, exit 2, no statistics. With a pool of 8 the same trace runs.
TEST(dynamic_parallelism, a_launch_pool_too_small_for_the_workload_names_its_limit) {
  kernel_file parent;
  parent.tbs = 4;
  parent.warp = [](std::uint32_t t, std::uint32_t) {
    return with_exit(launches("CDP.LAUNCH", 2, 2 + 2 * t));
  };
  std::vector<kernel_file> ks{parent};
  std::vector<std::string> order{"kernel-1.traceg"};
  for (std::uint32_t c = 2; c < 10; ++c) {
    ks.push_back(child(c));
    order.push_back("DeviceKernel,kernel-" + std::to_string(c) + ".traceg");
  }
  const std::string trace = write_trace("pool_limit", ks, order);
  const std::string small = "--set kd.entries=1 --set kmu.pending_launch_limit=";
  const run_result r = run(k_kepler, trace, "pool_limit", small + "1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("kmu.pending_launch_limit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("launch pool is full"), std::string::npos) << r.err;
  const run_result ok = run(k_kepler, trace, "pool_limit_ok", small + "8");
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.stats["kernels"].size(), 9u);
}

}  // namespace test_dynamic_parallelism
