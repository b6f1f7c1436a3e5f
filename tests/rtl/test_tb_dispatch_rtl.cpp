// The SMX scheduler's TB dispatch unit in RTL (rtl/tb_dispatch/tb_dispatch.sv, Verilated)
// through its transactor (models/rtl/tb_dispatch_rtl.h), in a SystemC testbench: a thread
// on a 1 GHz clock writes capability registers and KDEs, dispatches and releases TBs, one
// operation per cycle, and checks every result against hand-worked cases (round-robin wrap,
// the resource check by TB slots, threads in whole warps, registers rounded to 4 and shared
// memory, FCFS across entries, one kernel per SMX) and a small reference model of the LRR
// dispatch written here; the off-by-one build fails the comparison. The RTL's waveform
// (--vcd) is checked for its time base: each operation's edges at its cycle's time.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/vcd_writer.h"
#include "models/control/register_layout.h"
#include "models/rtl/tb_dispatch_rtl.h"
#include "tests/rtl/rtl_testbench.h"

namespace test_tb_dispatch_rtl {

using namespace gputlm::control;
namespace core = gputlm::core;
using gputlm::rtl::tb_dispatch_rtl;
using gputlm::rtl::tb_dispatch_rtl_off_by_one;

namespace {

enum : std::uint8_t { op_caps, op_kde, op_dispatch, op_release };

using testbench = gputlm::testing::rtl_testbench;
using gputlm::testing::run_testbench;

core::smx_limits caps(std::uint32_t tbs, std::uint32_t threads, std::uint32_t regs,
                      std::uint64_t shmem) {
  core::smx_limits l;
  l.max_tbs = tbs;
  l.max_threads = threads;
  l.warp_size = 32;
  l.registers = regs;
  l.shared_memory = shmem;
  return l;
}

kde_record kde(std::uint32_t kernel, std::uint32_t tbs, std::uint32_t threads, std::uint32_t regs,
               std::uint32_t shmem, std::uint64_t fcfs) {
  kde_record r;
  r.valid = 1;
  r.kernel = kernel;
  r.tbs_total = tbs;
  r.block = {threads, 1, 1};
  r.nregs = regs;
  r.shmem = shmem;
  r.fcfs_order = fcfs;
  return r;
}

struct placed {
  bool found = false;
  std::uint32_t smx = 0;
  tb_descriptor tbcr;
};

template <class Unit>
placed dispatch(Unit& u) {
  placed p;
  reg_words<tbcr_layout::words> w{};
  p.found = u.dispatch(p.smx, w);
  if (p.found) p.tbcr = unpack_tbcr(w.data());
  return p;
}

// The LRR dispatch as the DTBL thesis (§2.2) describes it, written independently of the
// scheduler: the oldest entry (FCFS) whose next TB fits some SMX, to the first SMX in
// round-robin order after the last one chosen.
struct reference_lrr {
  struct smx_t {
    core::smx_limits caps;
    std::uint64_t tbs = 0, threads = 0, regs = 0, shmem = 0;
    std::uint32_t kernel = 0;
  };
  std::vector<smx_t> smxs;
  std::vector<kde_record> kdes;
  bool shared = true;
  std::size_t next = 0;

  static std::uint64_t padded(std::uint64_t threads) { return (threads + 31) / 32 * 32; }
  bool fits(std::size_t s, const kde_record& k) const {
    const smx_t& x = smxs[s];
    if (!shared && x.tbs > 0 && x.kernel != k.kernel) return false;
    const std::uint64_t t = padded(k.block.x);
    return x.tbs + 1 <= x.caps.max_tbs && x.threads + t <= x.caps.max_threads &&
           x.regs + t * ((k.nregs + 3) / 4 * 4) <= x.caps.registers &&
           x.shmem + k.shmem <= x.caps.shared_memory;
  }
  placed dispatch() {
    placed p;
    int best = -1;
    for (std::size_t i = 0; i < kdes.size(); ++i) {
      const kde_record& k = kdes[i];
      if (!k.valid || k.next_tb >= k.tbs_total) continue;
      if (best >= 0 && kdes[std::size_t(best)].fcfs_order < k.fcfs_order) continue;
      bool any = false;
      for (std::size_t s = 0; s < smxs.size(); ++s) any = any || fits(s, k);
      if (any) best = int(i);
    }
    if (best < 0) return p;
    kde_record& k = kdes[std::size_t(best)];
    for (std::size_t j = 0; j < smxs.size(); ++j) {
      const std::size_t s = (next + j) % smxs.size();
      if (!fits(s, k)) continue;
      next = (s + 1) % smxs.size();
      smx_t& x = smxs[s];
      const std::uint64_t t = padded(k.block.x);
      x.tbs += 1;
      x.threads += t;
      x.regs += t * ((k.nregs + 3) / 4 * 4);
      x.shmem += k.shmem;
      x.kernel = k.kernel;
      p.found = true;
      p.smx = std::uint32_t(s);
      p.tbcr.tb = k.next_tb++;
      p.tbcr.kernel = k.kernel;
      p.tbcr.kde = std::uint32_t(best);
      p.tbcr.demand.threads = k.block.x;
      p.tbcr.demand.regs_per_thread = k.nregs;
      p.tbcr.demand.shared_memory = k.shmem;
      return p;
    }
    return p;
  }
  void release(std::uint32_t s, const tb_descriptor& d) {
    smx_t& x = smxs[s];
    const std::uint64_t t = padded(d.demand.threads);
    x.tbs -= 1;
    x.threads -= t;
    x.regs -= t * ((d.demand.regs_per_thread + 3) / 4 * 4);
    x.shmem -= d.demand.shared_memory;
  }
};

// Random KDEs, dispatches and releases on the RTL and the reference, compared result by
// result; returns the number of dispatch results that differ (`placed`: TBs dispatched).
template <class Unit>
int random_mismatches(testbench& tb, bool shared, unsigned seed, int* placed_tbs = nullptr) {
  std::mt19937 rng(seed);
  const std::size_t smxs = 5, entries = 8;
  Unit u(smxs, 32, shared);
  reference_lrr ref;
  ref.shared = shared;
  ref.smxs.resize(smxs);
  ref.kdes.resize(entries);
  for (std::uint32_t s = 0; s < smxs; ++s) {
    ref.smxs[s].caps = caps(4 + s % 3, 1024, 16384, 32768);
    u.write_caps(s, pack(ref.smxs[s].caps));
    tb.cycle();
  }
  struct live {
    std::uint32_t smx;
    tb_descriptor d;
    reg_words<tbcr_layout::words> words;
  };
  std::vector<live> running;
  std::uint64_t fcfs = 0;
  int mismatches = 0;
  for (int step = 0; step < 3000; ++step) {
    const unsigned what = rng() % 10;
    if (what == 0) {  // a kernel into a free entry (or an entry freed)
      const std::uint32_t e = rng() % entries;
      kde_record r;
      if (!ref.kdes[e].valid || ref.kdes[e].next_tb >= ref.kdes[e].tbs_total)
        r = kde(rng() % 4, 1 + rng() % 12, 32 + rng() % 300, rng() % 64, (rng() % 6) * 2048,
                fcfs++);
      ref.kdes[e] = r;
      u.write_kde(e, pack(r));
    } else if (what <= 6) {
      const placed want = ref.dispatch();
      reg_words<tbcr_layout::words> words{};
      placed got;
      got.found = u.dispatch(got.smx, words);
      got.tbcr = unpack_tbcr(words.data());
      const bool same =
          want.found == got.found &&
          (!want.found ||
           (want.smx == got.smx && want.tbcr.tb == got.tbcr.tb && want.tbcr.kde == got.tbcr.kde &&
            want.tbcr.kernel == got.tbcr.kernel && pack(want.tbcr) == words));
      if (!same) {
        ++mismatches;
        // (resynchronise on the reference, so that one divergence is counted once)
        if (got.found) u.release(got.smx, words);
        if (want.found) ref.release(want.smx, want.tbcr);
      } else if (want.found) {
        running.push_back({want.smx, want.tbcr, words});
        if (placed_tbs) ++*placed_tbs;
      }
    } else if (!running.empty()) {
      const std::size_t i = rng() % running.size();
      u.release(running[i].smx, running[i].words);
      ref.release(running[i].smx, running[i].d);
      running.erase(running.begin() + std::ptrdiff_t(i));
    }
    tb.cycle();
  }
  return mismatches;
}

}  // namespace

TEST(tb_dispatch_rtl, round_robin_wraps_and_tb_ids_follow_next_bl) {
  std::vector<placed> got;
  run_testbench([&](testbench& tb) {
    tb_dispatch_rtl u(3, 32, true);
    for (std::uint32_t s = 0; s < 3; ++s) u.write_caps(s, pack(caps(16, 2048, 65536, 49152)));
    u.write_kde(0, pack(kde(7, 7, 64, 16, 0, 0)));
    for (int i = 0; i < 8; ++i) {
      tb.cycle();
      got.push_back(dispatch(u));
    }
    EXPECT_EQ(u.resident_tbs(), 7u);
  });
  ASSERT_EQ(got.size(), 8u);
  const std::uint32_t smx_order[7] = {0, 1, 2, 0, 1, 2, 0};
  for (std::uint32_t i = 0; i < 7; ++i) {
    EXPECT_TRUE(got[i].found) << i;
    EXPECT_EQ(got[i].smx, smx_order[i]) << i;
    EXPECT_EQ(got[i].tbcr.tb, i);
    EXPECT_EQ(got[i].tbcr.kernel, 7u);
    EXPECT_EQ(got[i].tbcr.kde, 0u);
    EXPECT_EQ(got[i].tbcr.agei, group_ref::none);
    EXPECT_EQ(got[i].tbcr.demand.threads, 64u);
    EXPECT_EQ(got[i].tbcr.demand.regs_per_thread, 16u);
  }
  EXPECT_FALSE(got[7].found);  // all seven dispatched
}

TEST(tb_dispatch_rtl, resource_check_by_warps_registers_and_shared_memory) {
  // Per SMX: 8 TB slots, 256 threads, 8192 registers, 16,384 B. A TB of 80 threads (3 warps
  // = 96 threads), 21 registers per thread (rounded to 24: 2,304 registers), 5,000 B: by
  // threads 2 per SMX (3 would be 288), by registers 3, by shared memory 3. Two SMXs: 4 TBs.
  std::vector<placed> got;
  placed after_release;
  run_testbench([&](testbench& tb) {
    tb_dispatch_rtl u(2, 32, true);
    for (std::uint32_t s = 0; s < 2; ++s) u.write_caps(s, pack(caps(8, 256, 8192, 16384)));
    u.write_kde(3, pack(kde(1, 10, 80, 21, 5000, 0)));
    for (int i = 0; i < 5; ++i) {
      tb.cycle();
      got.push_back(dispatch(u));
    }
    tb.cycle();
    u.release(got[1].smx, pack(got[1].tbcr));  // a TB of SMX 1 completes
    tb.cycle();
    after_release = dispatch(u);
  });
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(got[i].found) << i;
    EXPECT_EQ(got[i].smx, std::uint32_t(i % 2)) << i;
  }
  EXPECT_FALSE(got[4].found);
  ASSERT_TRUE(after_release.found);
  EXPECT_EQ(after_release.smx, 1u);
  EXPECT_EQ(after_release.tbcr.tb, 4u);
  EXPECT_EQ(after_release.tbcr.kde, 3u);
}

TEST(tb_dispatch_rtl, oldest_entry_that_fits_goes_first) {
  // Entry 5 holds the older kernel (FCFS 10), entry 2 the younger (11): entry 5's TBs go
  // first. Once entry 5's big TB no longer fits, entry 2's small one goes.
  std::vector<placed> got;
  run_testbench([&](testbench& tb) {
    tb_dispatch_rtl u(1, 32, true);
    u.write_caps(0, pack(caps(8, 2048, 65536, 48 * 1024)));
    u.write_kde(5, pack(kde(1, 4, 32, 8, 20 * 1024, 10)));
    u.write_kde(2, pack(kde(2, 4, 32, 8, 1024, 11)));
    for (int i = 0; i < 4; ++i) {
      tb.cycle();
      got.push_back(dispatch(u));
    }
  });
  EXPECT_EQ(got[0].tbcr.kde, 5u);
  EXPECT_EQ(got[1].tbcr.kde, 5u);  // 40 KiB used: a third 20 KiB TB does not fit
  EXPECT_EQ(got[2].tbcr.kde, 2u);
  EXPECT_EQ(got[3].tbcr.kde, 2u);
  EXPECT_EQ(got[2].tbcr.tb, 0u);
}

TEST(tb_dispatch_rtl, one_kernel_per_smx_unless_shared) {
  std::vector<placed> exclusive, shared;
  run_testbench([&](testbench& tb) {
    for (bool share : {false, true}) {
      tb_dispatch_rtl u(2, 32, share);
      for (std::uint32_t s = 0; s < 2; ++s) u.write_caps(s, pack(caps(8, 2048, 65536, 49152)));
      u.write_kde(0, pack(kde(1, 2, 32, 8, 0, 0)));
      u.write_kde(1, pack(kde(2, 2, 32, 8, 0, 1)));
      for (int i = 0; i < 4; ++i) {
        tb.cycle();
        (share ? shared : exclusive).push_back(dispatch(u));
      }
    }
  });
  // Kernel 1's two TBs on SMXs 0 and 1; kernel 2 then finds no SMX free of kernel 1.
  EXPECT_EQ(exclusive[0].smx, 0u);
  EXPECT_EQ(exclusive[1].smx, 1u);
  EXPECT_FALSE(exclusive[2].found);
  // Shared: kernel 2's TBs follow on SMXs 0 and 1.
  ASSERT_TRUE(shared[2].found);
  EXPECT_EQ(shared[2].tbcr.kernel, 2u);
  EXPECT_EQ(shared[2].smx, 0u);
  EXPECT_EQ(shared[3].smx, 1u);
}

TEST(tb_dispatch_rtl, a_held_response_keeps_req_ready_low) {
  std::uint64_t edges_plain = 0, edges_held = 0;
  bool ready_while_held = true;
  run_testbench([&](testbench& tb) {
    tb_dispatch_rtl u(1, 32, true);
    u.write_caps(0, pack(caps(8, 2048, 65536, 49152)));
    u.write_kde(0, pack(kde(1, 4, 32, 8, 0, 0)));
    tb.cycle();
    std::uint64_t e0 = u.edges();
    u.request(op_dispatch, 0, nullptr, 0);
    edges_plain = u.edges() - e0;
    tb.cycle();
    e0 = u.edges();
    u.request(op_dispatch, 0, nullptr, 0, 5);  // the response held 5 edges
    edges_held = u.edges() - e0;
    ready_while_held = u.ready_while_held();
    EXPECT_TRUE(u.req_ready());  // taken: ready again
  });
  EXPECT_EQ(edges_plain, 2u);  // the request taken, the response taken
  EXPECT_EQ(edges_held, 7u);
  EXPECT_FALSE(ready_while_held);
}

TEST(tb_dispatch_rtl, random_operations_match_the_reference_lrr) {
  int exclusive = -1, shared = -1, placed_shared = 0, placed_exclusive = 0;
  run_testbench([&](testbench& tb) {
    shared = random_mismatches<tb_dispatch_rtl>(tb, true, 1, &placed_shared);
    exclusive = random_mismatches<tb_dispatch_rtl>(tb, false, 2, &placed_exclusive);
  });
  EXPECT_EQ(shared, 0);
  EXPECT_EQ(exclusive, 0);
  // (the sequences place many TBs, with SMXs full and entries waiting between releases)
  EXPECT_GT(placed_shared, 700);
  EXPECT_GT(placed_exclusive, 600);
}

TEST(tb_dispatch_rtl, the_off_by_one_build_fails_the_comparison) {
  int mismatches = 0;
  run_testbench([&](testbench& tb) {
    mismatches = random_mismatches<tb_dispatch_rtl_off_by_one>(tb, true, 1);
  });
  EXPECT_GT(mismatches, 0);
}

TEST(tb_dispatch_rtl, refuses_what_its_storage_cannot_hold) {
  EXPECT_THROW(tb_dispatch_rtl(129, 32, true), std::invalid_argument);
  EXPECT_THROW(tb_dispatch_rtl(4, 48, true), std::invalid_argument);
  tb_dispatch_rtl u(4, 32, true);
  EXPECT_THROW(u.write_kde(128, pack(kde_record{})), std::invalid_argument);
}

TEST(tb_dispatch_rtl, its_waveform_keeps_the_main_time_base) {
  const std::string vcd_path = std::string(GPUTLM_TEST_TMP) + "/tb_dispatch_rtl.vcd";
  std::vector<std::uint64_t> op_fs;
  run_testbench([&](testbench& tb) {
    gputlm::vcd_writer vcd(vcd_path);
    tb_dispatch_rtl u(2, 32, true);
    tb.cycle();
    u.trace(vcd, "gpu.smx_scheduler.dispatch");
    u.write_caps(0, pack(caps(8, 2048, 65536, 49152)));
    u.write_caps(1, pack(caps(8, 2048, 65536, 49152)));
    u.write_kde(0, pack(kde(1, 3, 32, 8, 0, 0)));
    for (int i = 0; i < 3; ++i) {
      tb.cycle();
      op_fs.push_back(sc_core::sc_time_stamp().value());
      dispatch(u);
    }
    vcd.finish();
  });
  std::ifstream in(std::string(GPUTLM_TEST_TMP) + "/tb_dispatch_rtl.gpu.smx_scheduler.dispatch.vcd");
  ASSERT_TRUE(in.good());
  std::vector<std::uint64_t> times;
  std::string timescale;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("$timescale", 0) == 0) timescale = line;
    if (!line.empty() && line[0] == '#') times.push_back(std::stoull(line.substr(1)));
  }
  EXPECT_NE(timescale.find("1fs"), std::string::npos) << timescale;
  ASSERT_TRUE(std::is_sorted(times.begin(), times.end()));
  // Each dispatch: 2 edges (4 dumps: falling and rising), at its cycle's time + 0..3 fs.
  for (std::uint64_t t : op_fs) {
    for (std::uint64_t k = 0; k < 4; ++k)
      EXPECT_NE(std::find(times.begin(), times.end(), t + k), times.end()) << t << "+" << k;
    EXPECT_EQ(std::find(times.begin(), times.end(), t + 4), times.end()) << t;
  }
  std::ifstream gtkw(std::string(GPUTLM_TEST_TMP) +
                     "/tb_dispatch_rtl.gpu.smx_scheduler.dispatch.gtkw");
  std::string layout((std::istreambuf_iterator<char>(gtkw)), std::istreambuf_iterator<char>());
  EXPECT_NE(layout.find("-gpu.smx_scheduler.dispatch (RTL)"), std::string::npos) << layout;
  EXPECT_NE(layout.find("tb_dispatch.tb_dispatch.rsp_tbcr[255:0]"), std::string::npos) << layout;
}

}  // namespace test_tb_dispatch_rtl
