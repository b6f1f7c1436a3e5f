// SMX-occupancy bubble DVFS (Wang thesis ch. 6, docs/dvfs.md) end to end through `gputlm
// run`: yaml/variants/kepler-dvfs.yaml with yaml/mechanisms/bubble-dvfs.yaml. Each check
// reads what the run wrote (the TB log, the manager's waveform) and compares it with what
// the thesis's rules imply:
// - a diverted SMX (DVR set, or the whole GPU low) is never a TB's destination, under LRR,
//   BCS, PAVER's RB-TS, TB-Pri and Adaptive-Bind, and the waveform's diversions and drains
//   are the counted ones;
// - with every SMX below the threshold at every instant, at least one SMX stays undiverted
//   (Fig. 36 diverts an SMX only while another undiverted SMX can take the next TB) and
//   every TB finishes;
// - without the mechanism, or with it only counting, the run is the K20c's; the count of
//   bubble samples equals one made from the TB log;
// - bad settings are one line naming where they came from, exit status 2, nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/run_command.h"
#include "tests/common/vcd_read.h"

namespace test_bubble_run {

using namespace gputlm::testing;

namespace {

constexpr int smxs = 13;               // K20c
constexpr double core_hz = 706e6;      // the SMX scheduler's clock (`core`): the TB log's cycles
constexpr std::uint64_t sample = 500;  // bubble-dvfs.yaml: sample: 500cycles
constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

const std::string yaml = GPUTLM_SOURCE_DIR "/yaml/";
const std::string dvfs = yaml + "variants/kepler-dvfs.yaml";
const std::string mechanism = yaml + "mechanisms/bubble-dvfs.yaml";
// The thesis's setup (§6.3.1 on top of the DTBL study's). The TB log's start_cycle is the
// dispatch cycle only without a TB launch latency (the K20c's is 0; pinned here).
const std::string thesis =
    " --set smx.l1.bypass_global_loads=false --set kmu.pending_launch_limit=65536"
    " --set smx_scheduler.tb_launch_latency=0cycles --no-wall-clock";

std::string tmp(const std::string& name) { return std::string(GPUTLM_TEST_TMP) + "/" + name; }

// `gputlm run` writing its statistics to tmp(tag).json (removed first).
command_result run(const std::string& platform, const std::string& trace, const std::string& opts,
                   const std::string& tag) {
  std::filesystem::remove(tmp(tag + ".json"));
  return run_command(gputlm_bin() + " run " + platform + " " + trace + opts +
                         " --stats-form=full --stats " + tmp(tag + ".json"),
                     tag);
}

nlohmann::json stats(const std::string& tag) {
  return nlohmann::json::parse(slurp(tmp(tag + ".json")));
}

// BFS with DTBL on a 2^13-vertex R-MAT graph, 64-thread TBs (2 warps). (The citation graph
// of the same scale never has TBs waiting while an SMX is in a bubble: no diversion.)
std::string bfs_trace(const std::string& name) {
  const std::string dir = fresh_dir(name);
  const auto r = run_command(gputlm_bin() +
                                 " trace gen bfs_dtbl -p scale=13 -p graph=rmat -p block=64 "
                                 "--arch 35 --force -o " +
                                 dir,
                             name + "_gen");
  EXPECT_EQ(r.status, 0) << r.err;
  return dir;
}

// Warps of a kernel's TB, from its trace's header line "-block dim = (x,y,z)".
std::uint32_t warps_per_tb(const std::string& trace_file) {
  const std::string text = slurp(trace_file).substr(0, 4096);
  const auto at = text.find("-block dim = (");
  EXPECT_NE(at, std::string::npos) << trace_file;
  if (at == std::string::npos) return 0;
  unsigned x = 0, y = 0, z = 0;
  std::sscanf(text.c_str() + at, "-block dim = (%u,%u,%u)", &x, &y, &z);
  return (x * y * z + 31) / 32;
}

struct tb_run {
  std::uint32_t smx;
  std::uint64_t start, end;  // TB log cycles: dispatch (no launch latency) and completion
  std::uint32_t warps;
};

std::vector<tb_run> tb_runs(const nlohmann::json& j, const std::string& trace_dir) {
  std::vector<tb_run> out;
  for (const auto& k : j["kernels"]) {
    const std::uint32_t w = warps_per_tb(trace_dir + "/" + k["file"].get<std::string>());
    for (const auto& e : k["tb_log"])
      out.push_back(
          {e[1].get<std::uint32_t>(), e[2].get<std::uint64_t>(), e[3].get<std::uint64_t>(), w});
  }
  return out;
}

const std::string bubble_scope = "gpu.smx_scheduler.bubble.";
std::string dvr(int s) { return bubble_scope + "smx(" + std::to_string(s) + ").dvr"; }
std::string drn(int s) { return bubble_scope + "smx(" + std::to_string(s) + ").drn"; }
const std::string gpu_dvfs = bubble_scope + "gpu_dvfs";

// A time of the waveform in cycles of the 706 MHz clock. Its period is a whole number of
// femtoseconds (the kernel's resolution), 1e15 / 706e6 rounded; every change is at one of
// its edges (the samples are, and the regulator's 500-cycle transitions).
std::uint64_t to_cycle(std::uint64_t fs) {
  const std::uint64_t period = std::uint64_t(std::llround(1e15 / core_hz));
  EXPECT_EQ(fs % period, 0u) << fs << " fs is not an edge of the 706 MHz clock";
  return fs / period;
}

struct interval {
  std::uint64_t from, to;  // cycles: the bit is 1 from `from` until `to` (never: to the end)
};

// The intervals a 1-bit signal is 1, in cycles (one cleared and set again in one instant:
// two intervals meeting there).
std::vector<interval> ones(const vcd_file& v, const std::string& name) {
  EXPECT_GT(v.unit_fs, 0u) << "no $timescale";
  std::vector<interval> out;
  auto it = v.of.find(name);
  EXPECT_NE(it, v.of.end()) << name << " not in the waveform";
  if (it == v.of.end()) return out;
  bool on = false;
  for (const auto& [fs, value] : it->second) {
    if (value && !on) out.push_back({to_cycle(fs), never});
    if (!value && on) out.back().to = to_cycle(fs);
    on = value != 0;
  }
  return out;
}

bool strictly_inside(std::uint64_t c, const std::vector<interval>& in) {
  for (const interval& i : in)
    if (i.from < c && c < i.to) return true;
  return false;
}

const nlohmann::json& manager(const nlohmann::json& j) {
  return j["blocks"]["gpu.smx_scheduler.bubble"];
}

// The waveform's diversions and drains (each a rise of DVR, of DRN) are the counted ones.
void expect_rises_counted(const vcd_file& v, const nlohmann::json& j, const std::string& what) {
  std::size_t dvr_rises = 0, drn_rises = 0;
  for (int s = 0; s < smxs; ++s) {
    dvr_rises += ones(v, dvr(s)).size();
    drn_rises += ones(v, drn(s)).size();
  }
  EXPECT_EQ(double(dvr_rises), manager(j)["diversions"].get<double>()) << what;
  EXPECT_EQ(double(drn_rises), manager(j)["drains"].get<double>()) << what;
}

}  // namespace

// Under every TB policy, no TB is dispatched to an SMX strictly inside an interval in which
// its DVR bit is set, nor while the whole GPU is low (gpu_dvfs: the manager sets every DVR
// bit then); a TB dispatched in the cycle the bit is set or cleared is allowed (the
// scheduler may dispatch before or after the manager's sample in that cycle).
TEST(bubble_run, diversion_is_honoured_by_every_policy) {
  const std::string trace = bfs_trace("bubble_bfs_policies");
  const std::map<std::string, std::string> policies{
      {"lrr", ""},
      {"bcs", ""},
      {"rb_ts", ""},
      {"tb_pri", " --set kmu.pool_order=priority"},
      {"adaptive_bind", " --set kmu.pool_order=smx_bound"}};
  for (const auto& [policy, extra] : policies) {
    const std::string tag = "bubble_policy_" + policy;
    const auto r =
        run(dvfs, trace,
            " --with " + mechanism + thesis + " --set smx_scheduler.policy=" + policy + extra +
                " --vcd " + tmp(tag + ".vcd") + " --trace 'smx_scheduler.bubble.*'",
            tag);
    ASSERT_EQ(r.status, 0) << policy << ": " << r.err;
    const auto j = stats(tag);
    ASSERT_GT(manager(j)["diversions"].get<double>(), 0) << policy << ": the check is vacuous";
    const vcd_file v(slurp(tmp(tag + ".vcd")));
    expect_rises_counted(v, j, policy);
    const std::vector<interval> gpu_low = ones(v, gpu_dvfs);
    std::vector<std::vector<interval>> diverted(smxs);
    for (int s = 0; s < smxs; ++s) diverted[s] = ones(v, dvr(s));

    std::size_t tbs = 0, elsewhere = 0;
    for (const tb_run& t : tb_runs(j, trace)) {
      ++tbs;
      ASSERT_LT(t.smx, std::uint32_t(smxs));
      EXPECT_FALSE(strictly_inside(t.start, diverted[t.smx]))
          << policy << ": a TB sent to diverted SMX " << t.smx << " at cycle " << t.start;
      EXPECT_FALSE(strictly_inside(t.start, gpu_low))
          << policy << ": a TB sent to SMX " << t.smx << " at cycle " << t.start
          << " while the GPU was low";
      // Work went on elsewhere while some SMX was diverted.
      for (int s = 0; s < smxs; ++s)
        if (s != int(t.smx) && strictly_inside(t.start, diverted[s])) {
          ++elsewhere;
          break;
        }
    }
    EXPECT_GT(tbs, 1000u) << policy;
    EXPECT_GT(elsewhere, 0u) << policy << ": no TB dispatched while an SMX was diverted";
  }
}

// One kernel of 600 one-warp TBs, each with 16 KiB of the SMX's 48 KiB shared memory: at
// most 3 TBs, 3 warps, on an SMX, below 0.0625 x 64 = 4 warps at every instant. The first
// 400 TBs are a lone EXIT (gone the cycle after dispatch: every SMX idle and able to take
// the next TB at the first sample), the last 200 chains of 0 to 160 dependent FFMAs. At
// the first sample Fig. 36 diverts each SMX in a bubble while another undiverted one can
// take the next TB: all but one, never all 13, which would leave the waiting TBs nowhere
// to go.
TEST(bubble_run, every_tb_finishes_with_all_smxs_below_threshold) {
  const std::string dir = fresh_dir("bubble_thin_trace");
  constexpr int tbs = 600, exits = 400;
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");
  std::ostringstream k;
  k << "-kernel name = _Zthin\n-kernel id = 1\n-grid dim = (" << tbs
    << ",1,1)\n-block dim = (32,1,1)\n-shmem = 16384\n-nregs = 16\n-binary version = 35\n"
       "-cuda stream id = 0\n-shmem base_addr = 0x00007ff000000000\n"
       "-local mem base_addr = 0x00007ff800000000\n-nvbit version = 1.5.5\n"
       "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";
  for (int t = 0; t < tbs; ++t) {
    const int chain = t < exits ? 0 : (t * 7) % 17 * 10;
    k << "#BEGIN_TB\n\nthread block = " << t << ",0,0\n\nwarp = 0\ninsts = " << chain + 1 << "\n";
    for (int i = 0; i < chain; ++i) k << "0010 ffffffff 1 R1 FFMA 3 R1 R1 R1 0\n";
    k << "0200 ffffffff 0 EXIT 0 0\n\n#END_TB\n\n";
  }
  write_text(dir + "/kernel-1.traceg", k.str());

  const std::string tag = "bubble_thin";
  // (An EXIT gone the cycle after dispatch needs a fetch that always hits: a cold L1I would
  // hold each SMX's first TBs for an L2 round trip.)
  const auto r = run(dvfs, dir,
                     " --set gpu.smx.icache_perfect=true --with " + mechanism + thesis + " --vcd " +
                         tmp(tag + ".vcd") + " --trace 'smx_scheduler.bubble.*'",
                     tag);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = stats(tag);
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& kernel = j["kernels"][0];
  EXPECT_TRUE(kernel["finished"].get<bool>());
  EXPECT_EQ(kernel["tbs"].get<int>(), tbs);
  const std::uint64_t end = kernel["end_cycle"].get<std::uint64_t>();
  EXPECT_GT(end, kernel["start_cycle"].get<std::uint64_t>());
  EXPECT_LE(end, j["total_cycles"].get<std::uint64_t>());

  // Every TB ran to its end; never 4 warps on an SMX (the trace's premise).
  std::set<std::uint32_t> seen;
  std::map<std::uint64_t, std::vector<int>> delta;  // cycle -> per SMX change in warps
  for (const auto& e : kernel["tb_log"]) {
    seen.insert(e[0].get<std::uint32_t>());
    const std::uint32_t s = e[1].get<std::uint32_t>();
    const std::uint64_t from = e[2].get<std::uint64_t>(), to = e[3].get<std::uint64_t>();
    ASSERT_LT(s, std::uint32_t(smxs));
    EXPECT_LE(from, to);
    EXPECT_LE(to, end);
    auto& d = delta[from];
    d.resize(smxs);
    ++d[s];
    auto& u = delta[to];
    u.resize(smxs);
    --u[s];
  }
  EXPECT_EQ(seen.size(), std::size_t(tbs));
  std::vector<int> warps(smxs, 0);
  int most = 0;
  for (const auto& [c, d] : delta)  // (a TB ending at c frees its slot before one starts)
    for (int s = 0; s < smxs; ++s) most = std::max(most, warps[s] += d[s]);
  EXPECT_LE(most, 3);

  const auto& m = manager(j);
  EXPECT_GT(m["diversions"].get<double>(), 0);
  EXPECT_GT(m["resumes"].get<double>(), 0);
  EXPECT_EQ(m["bubble_samples"].get<double>(), m["smx_samples"].get<double>());

  // The waveform, change by change in the order made: never every SMX diverted, even
  // for a moment, and the GPU level never entered (every SMX idle with work to come cannot
  // happen with one kernel whose TBs are all there from its start).
  const vcd_file v(slurp(tmp(tag + ".vcd")));
  expect_rises_counted(v, j, "thin");
  std::map<std::string, bool> on;
  for (int s = 0; s < smxs; ++s) on[dvr(s)] = false;
  int most_diverted = 0;
  bool gpu_low = false;
  for (const auto& c : v.in_order) {
    if (c.name == gpu_dvfs) gpu_low = gpu_low || c.value != 0;
    if (!on.count(c.name)) continue;
    on[c.name] = c.value != 0;
    int n = 0;
    for (const auto& [name, bit] : on) n += bit;
    EXPECT_LT(n, smxs) << "every SMX diverted at cycle " << to_cycle(c.fs);
    most_diverted = std::max(most_diverted, n);
  }
  EXPECT_FALSE(gpu_low);
  EXPECT_EQ(most_diverted, smxs - 1);
}

// The per-SMX domains change nothing by themselves; the manager with `enabled: false` only
// counts. Its count of bubble samples is the one the TB log gives: at each sample instant
// g = 500, 1000, ... <= total_cycles, an SMX is in a bubble when the warps of the TBs
// resident on it are fewer than 0.0625 x 64 = 4. The manager hears of occupancy changes
// as the scheduler makes them and credits the instants up to and including a change's
// cycle with the occupancy before it (count_samples over (since, now]): a TB counts at g
// when dispatched before g and completed at or after g (start < g <= end).
TEST(bubble_run, off_is_identical) {
  const std::string trace = bfs_trace("bubble_bfs_off");
  const auto r_dtbl = run(yaml + "variants/kepler-dtbl.yaml", trace, thesis, "bubble_off_dtbl");
  ASSERT_EQ(r_dtbl.status, 0) << r_dtbl.err;
  const auto r_dvfs = run(dvfs, trace, thesis, "bubble_off_dvfs");
  ASSERT_EQ(r_dvfs.status, 0) << r_dvfs.err;
  const auto r_count = run(
      dvfs, trace, " --with " + mechanism + thesis + " --set smx_scheduler.bubble.enabled=false",
      "bubble_off_count");
  ASSERT_EQ(r_count.status, 0) << r_count.err;
  const auto dtbl = stats("bubble_off_dtbl");
  const auto plain = stats("bubble_off_dvfs");
  const auto count = stats("bubble_off_count");
  for (const auto* j : {&plain, &count}) {
    const std::string which = j == &plain ? "kepler-dvfs" : "bubble counting";
    EXPECT_EQ((*j)["total_cycles"], dtbl["total_cycles"]) << which;
    EXPECT_EQ((*j)["energy_joules"], dtbl["energy_joules"]) << which;
    EXPECT_EQ((*j)["kernels"], dtbl["kernels"]) << which;  // with every TB's log
  }
  const auto& m = manager(count);
  EXPECT_EQ(m["samples"].get<double>(), 0);
  EXPECT_EQ(m["diversions"].get<double>(), 0);
  EXPECT_EQ(count["blocks"]["gpu.regulator"]["transitions"].get<double>(), 0);

  const std::uint64_t total = count["total_cycles"].get<std::uint64_t>();
  const std::vector<tb_run> log = tb_runs(count, trace);
  ASSERT_GT(log.size(), 1000u);
  std::uint64_t instants = 0, bubbles = 0;
  for (std::uint64_t g = sample; g <= total; g += sample) {
    ++instants;
    std::vector<std::uint32_t> warps(smxs, 0);
    for (const tb_run& t : log)
      if (t.start < g && g <= t.end) warps[t.smx] += t.warps;
    for (std::uint32_t w : warps) bubbles += w < 4;
  }
  EXPECT_EQ(m["smx_samples"].get<double>(), double(instants * smxs));
  EXPECT_GT(bubbles, 0u);
  EXPECT_EQ(m["bubble_samples"].get<double>(), double(bubbles));
}

// Each bad setting: exit status 2, one line "error: WHERE: KEY: why" (WHERE: the --set
// option, or FILE:LINE:COL of the YAML that gave it), nothing on stdout, no statistics.
TEST(bubble_run, bad_input_is_one_line) {
  const std::string dir = fresh_dir("bubble_bad_trace");
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");
  write_text(dir + "/kernel-1.traceg",
             "-kernel name = _Zone\n-kernel id = 1\n-grid dim = (1,1,1)\n"
             "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 35\n"
             "-cuda stream id = 0\n-shmem base_addr = 0x00007ff000000000\n"
             "-local mem base_addr = 0x00007ff800000000\n-nvbit version = 1.5.5\n"
             "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#BEGIN_TB\n\n"
             "thread block = 0,0,0\n\nwarp = 0\ninsts = 1\n0200 ffffffff 0 EXIT 0 0\n\n"
             "#END_TB\n");
  auto expect_one_line = [&](const std::string& platform, const std::string& opts,
                             const std::string& prefix, const std::string& mentions,
                             const std::string& tag) {
    const auto r = run(platform, dir, " --with " + mechanism + opts, tag);
    EXPECT_EQ(r.status, 2) << tag << ": " << r.err;
    EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << tag << ": " << r.err;
    EXPECT_GT(r.err.size(), prefix.size()) << tag;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << tag << ": not one line: " << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << tag << ": " << r.err;
    EXPECT_EQ(r.out, "") << tag;
    EXPECT_FALSE(std::filesystem::exists(tmp(tag + ".json"))) << tag;
  };
  struct bad_set {
    std::string set, key, mentions;
  };
  const std::vector<bad_set> bad{
      {"clocks.sm.pstates=[100MHz@0.55V, 706MHz@1V]", "clocks.sm.pstates", "706MHz@1V"},
      {"clocks.sm.pstates=[800MHz@1V, 100MHz@0.55V]", "clocks.sm.pstates", "706MHz"},
      {"clocks.sm.pstates=[706MHz, 100MHz@0.55V]", "clocks.sm.pstates", "'706MHz'"},
      {"regulator.transition=0cycles", "gpu.regulator.transition", "cycles"},
      {"smx_scheduler.bubble.threshold=0", "gpu.smx_scheduler.bubble.threshold", "(0, 1]"},
      {"smx_scheduler.bubble.drain_window=0", "gpu.smx_scheduler.bubble.drain_window", "samples"},
      {"regulator.gpu_domains=[dram]", "gpu.regulator.gpu_domains", "'dram'"}};
  int n = 0;
  for (const bad_set& b : bad)
    expect_one_line(dvfs, " --set '" + b.set + "'", "error: --set " + b.set + ": " + b.key + ": ",
                    b.mentions, "bubble_bad_" + std::to_string(n++));

  // The same in YAML: a variant whose P-states rise, a mechanism with threshold 0.
  const std::string variant = tmp("bubble_bad_variant.yaml");
  write_text(variant,
             "base: " + dvfs + "\nclocks:\n  sm:\n    pstates: [100MHz@0.55V, 706MHz@1V]\n");
  expect_one_line(variant, "", "error: " + variant + ":4:5: clocks.sm.pstates: ", "706MHz@1V",
                  "bubble_bad_variant");
  const std::string extra = tmp("bubble_bad_mechanism.yaml");
  write_text(extra, "gpu:\n  smx_scheduler:\n    bubble:\n      threshold: 0\n");
  expect_one_line(dvfs, " --with " + extra,
                  "error: " + extra + ":4:7: gpu.smx_scheduler.bubble.threshold: ", "(0, 1]",
                  "bubble_bad_mechanism");

  // The plain K20c has no per-SMX domains: the regulator's smx_domains, at its line in the
  // mechanism file.
  const std::string text = slurp(mechanism);
  const auto key_at = text.find("smx_domains:");
  ASSERT_NE(key_at, std::string::npos);
  const auto line_start = text.rfind('\n', key_at) + 1;
  const std::string where =
      mechanism + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + key_at, '\n')) +
      ":" + std::to_string(1 + key_at - line_start);
  expect_one_line(yaml + "kepler.yaml", "",
                  "error: " + where + ": gpu.regulator.smx_domains: ", "'sm'", "bubble_bad_plain");
}

// The CDP launch gap: a parent kernel ends before its child's launch reaches the SMX
// scheduler (the KMU's launch latency), every SMX idle with work to come. The whole GPU
// goes low in such a gap (every SMX domain, L2 and crossbar), only while no kernel runs,
// and comes back before the child's first TB; every TB starts at the nominal point.
TEST(bubble_run, the_gpu_level_spans_a_cdp_launch_gap) {
  const std::string dir = fresh_dir("bubble_cdp_trace");
  const auto g = run_command(gputlm_bin() +
                                 " trace gen bfs_cdp -p scale=9 -p block=64 -p child_block=64 "
                                 "--arch 35 --force -o " +
                                 dir,
                             "bubble_cdp_gen");
  ASSERT_EQ(g.status, 0) << g.err;
  const std::string vcd = tmp("bubble_cdp.vcd");
  const auto r = run(dvfs, dir, " --with " + mechanism + thesis + " --vcd " + vcd, "bubble_cdp");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = stats("bubble_cdp");
  const auto& m = j["blocks"]["gpu.smx_scheduler.bubble"];
  const auto& reg = j["blocks"]["gpu.regulator"];
  // Gaps with no kernel running, from the kernels' spans (start to end cycles).
  std::vector<interval> busy;
  for (const auto& k : j["kernels"]) {
    ASSERT_TRUE(k["finished"].get<bool>());
    busy.push_back({k["start_cycle"].get<std::uint64_t>(), k["end_cycle"].get<std::uint64_t>()});
  }
  std::sort(busy.begin(), busy.end(),
            [](const interval& a, const interval& b) { return a.from < b.from; });
  std::vector<interval> gaps;
  std::uint64_t reach = busy.front().to;
  for (const interval& b : busy) {
    if (b.from > reach) gaps.push_back({reach, b.from});
    reach = std::max(reach, b.to);
  }
  ASSERT_FALSE(gaps.empty()) << "no launch gap in this trace";
  const vcd_file v(slurp(vcd));
  const std::vector<interval> low = ones(v, gpu_dvfs);
  ASSERT_GE(low.size(), 1u);
  EXPECT_EQ(double(low.size()), m["gpu_lows"].get<double>());
  // Each GPU-level period (request to return) lies inside one gap: it starts at a sample
  // after the gap began and ends by the next kernel's first TB.
  for (const interval& l : low) {
    const bool inside = std::any_of(gaps.begin(), gaps.end(), [&](const interval& gap) {
      return gap.from < l.from && l.to <= gap.to;
    });
    EXPECT_TRUE(inside) << "GPU level from " << l.from << " to " << l.to;
    EXPECT_EQ(l.from % sample, 0u);
  }
  // Down and back each time (the workload ended at the nominal point: nothing cut).
  EXPECT_EQ(reg["gpu_transitions"].get<double>(), 2 * m["gpu_lows"].get<double>());
  EXPECT_EQ(reg["transitions_cut"].get<double>(), 0.0);
  EXPECT_GT(reg["l2.p1_seconds"].get<double>(), 0.0);
  EXPECT_GT(reg["sm[0].p1_seconds"].get<double>(), 0.0);
}

// The RTL dispatch unit keeps its own resource table: it cannot skip a diverted SMX, so the
// manager that diverts is refused there (and the one that only counts is not).
TEST(bubble_run, the_rtl_dispatch_unit_cannot_divert) {
  const std::string platform = tmp("bubble_rtl.yaml");
  write_text(platform, "base: " + yaml +
                           "kepler.yaml\n"
                           "clocks:\n"
                           "  sm: { frequency: 706MHz, voltage: 1V, count: sms, pstates: "
                           "[706MHz@1V, 100MHz@0.55V] }\n"
                           "  icnt: { frequency: 706MHz, voltage: 1V, pstates: [706MHz@1V, "
                           "100MHz@0.55V] }\n"
                           "  l2: { frequency: 706MHz, voltage: 1V, pstates: [706MHz@1V, "
                           "100MHz@0.55V] }\n"
                           "gpu:\n  smx:\n    clock: sm[i]\n");
  const std::string rtl =
      " --with " + mechanism + " --set smx_scheduler.dispatch.implementation=rtl";
  const auto bad = run_command(gputlm_bin() + " elaborate " + platform + rtl, "bubble_rtl_bad");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("bubble-dvfs.yaml:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("cannot divert TBs here: the RTL dispatch unit"), std::string::npos)
      << bad.err;
  const auto counting = run_command(
      gputlm_bin() + " elaborate " + platform + rtl + " --set smx_scheduler.bubble.enabled=false",
      "bubble_rtl_counting");
  EXPECT_EQ(counting.status, 0) << counting.err;
}

}  // namespace test_bubble_run
