// The μC-States workload MST (Kayiran et al., PACT'16, Table 1): LonestarGPU's Boruvka MST.
// The expectations come from the kernels' own indexing (graph.h's 1-based edge arrays,
// main.cu's allocation order), a hand-worked star graph, and a plain Boruvka on the CPU
// that counts the rounds; never from the generator's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>

#include "gen_test_util.h"
#include "models/base/input_error.h"
#include "traces/generators/input_gen.h"

namespace gputlm::traces::generators::test::mst_test {
namespace {

const std::string dinitcs = "_Z7dinitcsjPjS_";
const std::string dinit = "_Z5dinitPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const std::string elemin = "_Z11dfindeleminPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const std::string elemin2 = "_Z12dfindelemin2Pj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const std::string verify = "_Z15verify_min_elemPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const std::string compmintwo =
    "_Z15dfindcompmintwoPj5Graph14ComponentSpaceS_S_S_S_PbS_j13GlobalBarrierS2_S_";

// The documented weight of the undirected edge {u, v}.
std::uint32_t weight(std::uint64_t seed, std::uint32_t max_weight, std::uint32_t u,
                     std::uint32_t v) {
  const std::uint64_t a = std::min(u, v), b = std::max(u, v);
  return 1 + std::uint32_t(hash_unit(seed + 1, a << 32 | b) * max_weight);
}

// main.cu's allocations, in order, 256-byte aligned from the heap's base.
struct layout {
  std::uint64_t sync, edst, ewt, psrc, nout, ninc, srcsrc, maxout, maxin, ncomp, complen, ele2comp,
      mstwt, eleminwts, minwtcomp, partners, phores, pinx, goahead, repeat, count;
  layout(std::uint64_t n, std::uint64_t m, std::uint64_t grid) {
    std::uint64_t at = heap;
    auto next = [&](std::uint64_t bytes) {
      const std::uint64_t a = at;
      at += align256(bytes);
      return a;
    };
    sync = next(4 * grid);
    edst = next(4 * (m + 1));
    ewt = next(4 * (m + 1));
    psrc = next(4 * (n + 1));
    nout = next(4 * n);
    ninc = next(4 * n);
    srcsrc = next(4 * n);
    maxout = next(4);
    maxin = next(4);
    ncomp = next(4);
    complen = next(4 * n);
    ele2comp = next(4 * n);
    mstwt = next(4);
    eleminwts = next(4 * n);
    minwtcomp = next(4 * n);
    partners = next(4 * n);
    phores = next(4 * n);
    pinx = next(n);
    goahead = next(4 * n);
    repeat = next(1);
    count = next(4);
  }
};

std::string write_file(const std::string& name, const std::string& text) {
  const auto p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

std::vector<std::string> kernel_names(const app_trace& app) {
  std::vector<std::string> r;
  for (const kernel_trace& k : app.kernels) r.push_back(k.info.name);
  return r;
}

// Lanes of the memory instructions of `prefix` in warp 0 of TB 0 whose first address is `a`.
std::vector<std::uint32_t> masks_at(const app_trace& app, const kernel_trace& k,
                                    const std::string& prefix, std::uint64_t a) {
  std::vector<std::uint32_t> r;
  const warp_trace& w = k.tbs.at(0).warps.at(0);
  for (const warp_instruction* in : find(app, w, prefix)) {
    const lanes l = lane_addresses(w, *in);
    if (!l.empty() && l[0].second == a) r.push_back(in->active_mask);
  }
  return r;
}

// A star: centre 0, leaves 1..4. Every leaf's only edge goes to 0, and 0's lightest edge to
// leaf k makes a mutual pair: one Boruvka round joins everything, and one unify of the
// round finds both ends already joined (repeat = true). Iteration 1: 4 kernels, dfindcompmintwo
// twice (2 phases each); iteration 2 changes nothing: 4 kernels and one dfindcompmintwo. With
// dinitcs, 15 launches.
TEST(Mst, StarGraphByHand) {
  const std::string path = write_file("star.el", "0 1\n0 2\n0 3\n0 4\n");
  const app_trace app = generate_in_memory("mst", {"graph=" + path, "block=32", "sms=2", "res=1"});
  const std::vector<std::string> want = {
      dinitcs,    dinit, elemin, elemin2, verify, compmintwo, compmintwo, compmintwo,
      compmintwo, dinit, elemin, elemin2, verify, compmintwo, compmintwo};
  EXPECT_EQ(kernel_names(app), want);
  for (const kernel_trace& k : app.kernels) {
    const bool cm = k.info.name == compmintwo;
    EXPECT_EQ(k.info.grid.x, cm ? 2u : 1u) << k.info.name;
    EXPECT_EQ(k.info.block.x, cm ? 384u : 32u) << k.info.name;
    EXPECT_EQ(k.tbs.size(), cm ? 2u : 1u);
  }

  const std::uint32_t n = 5, m = 8;
  const layout at(n, m, 2);
  // The copies: the graph (8 edges both ways, 1-based arrays), ncomponents after dinitcs,
  // mstwt, repeat, count, then repeat before each dfindcompmintwo (3 of them).
  const std::vector<std::uint64_t> copies = input_addresses(app);
  const std::vector<std::uint64_t> want_copies = {
      at.edst,  at.ewt,   at.psrc,   at.nout,  at.ninc,   at.srcsrc, at.maxout, at.maxin,
      at.ncomp, at.mstwt, at.repeat, at.count, at.repeat, at.repeat, at.repeat};
  EXPECT_EQ(copies, want_copies);
  EXPECT_EQ(app.commands.at(0).bytes, 4u * (m + 1));

  // dfindelemin, iteration 1: trip 0 loads edge 1 + row_ptr[v] of every vertex (centre:
  // row 0 = entries 0..3; leaf j: entry 3 + j), trips 1..3 the centre's edges 2..4 alone.
  const kernel_trace& fe = app.kernels.at(2);
  const warp_trace& w = fe.tbs.at(0).warps.at(0);
  std::vector<access> wt_loads;
  for (const warp_instruction* in : find(app, w, "LDG")) {
    const lanes l = lane_addresses(w, *in);
    if (!l.empty() && l[0].second >= at.ewt && l[0].second < at.ewt + 4 * (m + 1))
      wt_loads.push_back({in->active_mask, l});
  }
  ASSERT_EQ(wt_loads.size(), 4u);
  EXPECT_EQ(wt_loads[0], (access{0x1f,
                                 {{0, at.ewt + 4 * 1},
                                  {1, at.ewt + 4 * 5},
                                  {2, at.ewt + 4 * 6},
                                  {3, at.ewt + 4 * 7},
                                  {4, at.ewt + 4 * 8}}}));
  for (std::uint32_t t = 1; t < 4; ++t)
    EXPECT_EQ(wt_loads[t], (access{0x1, {{0, at.ewt + 4 * (1 + t)}}}));

  // The first dfindcompmintwo's phase B: the five unifies run in one warp. Lane 0's
  // atomicExch(&ele2comp[0], k), k the centre's lightest edge's leaf, comes first in the
  // warp and succeeds; the leaves' exchanges on ele2comp[0] then see each other's bosses and
  // retry (cs.unify's loop) on the roots 1..4, where one of them closes a cycle: four unifies
  // add their weight (n - 1 tree edges), one stores repeat.
  std::uint32_t k = 1;
  for (std::uint32_t j = 2; j <= 4; ++j)
    if (weight(1, 1000, 0, j) < weight(1, 1000, 0, k)) k = j;
  const kernel_trace& b1 = app.kernels.at(6);
  const auto adders = masks_at(app, b1, "RED", at.mstwt);
  ASSERT_EQ(adders.size(), 1u);
  EXPECT_EQ(popcount(adders[0]), 4u);
  EXPECT_TRUE(adders[0] & 1u);
  EXPECT_EQ(masks_at(app, b1, "RED", at.count), adders);
  EXPECT_EQ(masks_at(app, b1, "STG.E.U8", at.repeat),
            std::vector<std::uint32_t>{0x1fu & ~adders[0]});
  // Phase A: thread 0 finds its partner's root, k (partners[0] = k, set by dfindelemin).
  const kernel_trace& a1 = app.kernels.at(5);
  const warp_trace& aw = a1.tbs.at(0).warps.at(0);
  std::vector<std::uint64_t> part_loads, lane0_finds;
  for (const warp_instruction* in : find(app, aw, "LDG")) {
    const lanes l = lane_addresses(aw, *in);
    if (l.empty() || l[0].first != 0) continue;
    if (l[0].second >= at.partners && l[0].second < at.partners + 4 * n)
      part_loads.push_back(l[0].second);
    if (l[0].second >= at.ele2comp && l[0].second < at.ele2comp + 4 * n)
      lane0_finds.push_back(l[0].second);
  }
  EXPECT_EQ(part_loads, std::vector<std::uint64_t>{at.partners});
  EXPECT_EQ(lane0_finds, (std::vector<std::uint64_t>{at.ele2comp, at.ele2comp + 4 * k}));
  // The second launch and the last iteration unify nothing.
  for (std::size_t i : {8u, 14u}) {
    EXPECT_TRUE(masks_at(app, app.kernels.at(i), "RED", at.mstwt).empty()) << i;
    EXPECT_TRUE(masks_at(app, app.kernels.at(i), "STG.E.U8", at.repeat).empty()) << i;
  }
  // Thread 0's unify: atomicExch(&ele2comp[0], k), the subordinate being the smaller root.
  const auto exch = masks_at(app, b1, "ATOMG.E.EXCH", at.ele2comp);
  ASSERT_FALSE(exch.empty());
  EXPECT_TRUE(exch[0] & 1u);
  // verify_min_elem: boss 0 marks its goahead vertex 0; each leaf boss marks itself.
  const kernel_trace& vm = app.kernels.at(4);
  const warp_trace& vw = vm.tbs.at(0).warps.at(0);
  std::set<std::uint64_t> marked;
  for (const warp_instruction* in : find(app, vw, "STG.E.U8"))
    for (auto [l, a] : lane_addresses(vw, *in)) marked.insert(a);
  EXPECT_EQ(marked,
            (std::set<std::uint64_t>{at.pinx, at.pinx + 1, at.pinx + 2, at.pinx + 3, at.pinx + 4}));
  // The barriers: every TB's thread 0 stores its flag at each phase's end; TB 0 releases.
  for (std::uint32_t tb = 0; tb < 2; ++tb) {
    const warp_trace& w0 = a1.tbs.at(tb).warps.at(0);
    std::vector<lanes> st;
    for (const warp_instruction* in : find(app, w0, "STG.E.SYS")) {
      const lanes l = lane_addresses(w0, *in);
      if (!l.empty() && l[0].second >= at.sync && l[0].second < at.sync + 8) st.push_back(l);
    }
    if (tb == 0)
      EXPECT_EQ(st, (std::vector<lanes>{{{0, at.sync}}, {{0, at.sync}, {1, at.sync + 4}}}));
    else
      EXPECT_EQ(st, (std::vector<lanes>{{{0, at.sync + 4}}}));
  }
}

// A plain Boruvka with distinct weights: the number of rounds that join components.
std::uint32_t boruvka_rounds(const csr_graph& g, std::uint64_t seed, std::uint32_t max_weight,
                             std::uint32_t& tree_edges) {
  const std::uint32_t n = g.vertices;
  std::vector<std::uint32_t> comp(n);
  std::iota(comp.begin(), comp.end(), 0);
  std::uint32_t rounds = 0;
  tree_edges = 0;
  for (;;) {
    std::vector<std::uint64_t> best(n, ~0ull);  // (weight << 32 | other component)
    for (std::uint32_t u = 0; u < n; ++u)
      for (std::uint32_t i = g.row_ptr[u]; i < g.row_ptr[u + 1]; ++i) {
        const std::uint32_t v = g.col[i];
        if (comp[u] == comp[v]) continue;
        best[comp[u]] =
            std::min(best[comp[u]], std::uint64_t(weight(seed, max_weight, u, v)) << 32 | comp[v]);
      }
    std::set<std::pair<std::uint32_t, std::uint32_t>> joins;
    for (std::uint32_t c = 0; c < n; ++c)
      if (best[c] != ~0ull) {
        const std::uint32_t d = std::uint32_t(best[c]);
        joins.insert({std::min(c, d), std::max(c, d)});
      }
    if (joins.empty()) return rounds;
    ++rounds;
    tree_edges += std::uint32_t(joins.size());
    for (auto [a, b] : joins) {  // relabel b's component as a's, to a fixed point
      const std::uint32_t from = std::max(comp[a], comp[b]), to = std::min(comp[a], comp[b]);
      for (std::uint32_t& c : comp)
        if (c == from) c = to;
    }
  }
}

// An R-MAT graph with (checked) distinct weights: one Boruvka round per iteration, each with
// two dfindcompmintwo launches (the round's lightest edge is a mutual pair: one unify fails
// and sets repeat), then one iteration that changes nothing. Kernels: dinitcs + 4 per
// iteration + 2 phases per dfindcompmintwo = 8 R + 7; mstwt gets one add per tree edge.
TEST(Mst, IterationsFollowBoruvkaRounds) {
  const std::uint32_t max_weight = 100000000;
  const csr_graph g = make_rmat_graph(8, 4, 3);
  std::set<std::uint32_t> seen;
  std::uint32_t undirected = 0;
  for (std::uint32_t u = 0; u < g.vertices; ++u)
    for (std::uint32_t i = g.row_ptr[u]; i < g.row_ptr[u + 1]; ++i)
      if (u < g.col[i]) {
        seen.insert(weight(3, max_weight, u, g.col[i]));
        ++undirected;
      }
  ASSERT_EQ(seen.size(), undirected) << "the test needs distinct weights";
  std::uint32_t tree_edges = 0;
  const std::uint32_t rounds = boruvka_rounds(g, 3, max_weight, tree_edges);
  ASSERT_GE(rounds, 2u);

  const app_trace app = generate_in_memory(
      "mst", {"scale=8", "degree=4", "seed=3", "max_weight=" + std::to_string(max_weight)});
  EXPECT_EQ(app.kernels.size(), 8u * rounds + 7);
  const layout at(g.vertices, g.col.size(), 64);
  std::uint32_t adds = 0, cm = 0;
  for (const kernel_trace& k : app.kernels) {
    if (k.info.name != compmintwo) {
      EXPECT_EQ(k.info.grid.x, 1u) << "256 vertices, 1024 threads a TB";
      continue;
    }
    ++cm;
    EXPECT_EQ(k.info.grid.x, 64u) << "16 SMs x 4";
    EXPECT_EQ(k.info.block.x, 384u);
    for (const tb_trace& tb : k.tbs)
      for (const warp_trace& w : tb.warps)
        for (const warp_instruction* in : find(app, w, "RED")) {
          const lanes l = lane_addresses(w, *in);
          if (!l.empty() && l[0].second == at.mstwt) adds += popcount(in->active_mask);
        }
  }
  EXPECT_EQ(cm, 2u * (2 * rounds + 1));
  EXPECT_EQ(adds, tree_edges);
  const auto copies = input_addresses(app);
  EXPECT_EQ(std::count(copies.begin(), copies.end(), at.repeat), 2 * rounds + 2);
}

// Above 384 * sms * res vertices, the grid-stride loop of dfindcompmintwo takes more trips:
// two launches (phases A and B) per trip.
TEST(Mst, GridStrideTripsSplitAtEachBarrier) {
  const app_trace app = generate_in_memory("mst", {"scale=10", "degree=2", "sms=1", "res=1"});
  std::uint32_t cm = 0, other = 0;
  for (const kernel_trace& k : app.kernels) (k.info.name == compmintwo ? cm : other) += 1;
  const std::uint32_t iterations = (other - 1) / 4;
  EXPECT_EQ((other - 1) % 4, 0u);
  // ceil(1024 / 384) = 3 trips, 6 launches per dfindcompmintwo; at least one per iteration.
  EXPECT_EQ(cm % 6, 0u);
  EXPECT_GE(cm / 6, iterations);
}

// The default input (R-MAT 2^13, degree 6): 8 TBs of 1024 threads for the vertex kernels,
// 16 x 4 TBs of 384 for dfindcompmintwo; each iteration is dinit, dfindelemin, dfindelemin2,
// verify_min_elem and a positive even number of dfindcompmintwo launches, the last one
// exactly two (nothing to unify, repeat stays false).
TEST(Mst, DefaultSizeShapes) {
  sampling_writer out(last_tb);
  generate("mst", {}, 35, out);
  const auto& ks = out.app.kernels;
  ASSERT_GE(ks.size(), 1u + 2 * 6);
  EXPECT_EQ(ks[0].info.name, dinitcs);
  const std::vector<std::string> head = {dinit, elemin, elemin2, verify};
  std::size_t i = 1, iterations = 0, last_cm = 0;
  while (i < ks.size()) {
    for (std::size_t j = 0; j < head.size(); ++j, ++i) {
      ASSERT_LT(i, ks.size());
      EXPECT_EQ(ks[i].info.name, head[j]) << i;
      EXPECT_EQ(ks[i].info.grid.x, 8u);
      EXPECT_EQ(ks[i].info.block.x, 1024u);
      EXPECT_EQ(out.tbs[i], 8u);
    }
    last_cm = 0;
    for (; i < ks.size() && ks[i].info.name == compmintwo; ++i, ++last_cm) {
      EXPECT_EQ(ks[i].info.grid.x, 64u);
      EXPECT_EQ(ks[i].info.block.x, 384u);
      EXPECT_LE(ks[i].info.nregs, 24u) << "4 TBs of 384 in 36864 registers";
    }
    EXPECT_TRUE(last_cm >= 2 && last_cm % 2 == 0) << last_cm;
    ++iterations;
  }
  EXPECT_EQ(last_cm, 2u);
  EXPECT_GE(iterations, 2u);
  for (const kernel_trace& k : ks) {
    if (k.info.block.x == 1024) {
      EXPECT_LE(k.info.nregs, 32u) << k.info.name;
    }
  }
}

TEST(Mst, BadParametersRefused) {
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"block=16"}, {"sms=0"}, {"res=0"}, {"max_weight=0"}, {"scale=0"}, {"graph=grid"}}) {
    try {
      generate_in_memory("mst", bad);
      ADD_FAILURE() << bad[0] << " accepted";
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_FALSE(what.empty());
    }
  }
}

}  // namespace
}  // namespace gputlm::traces::generators::test::mst_test
