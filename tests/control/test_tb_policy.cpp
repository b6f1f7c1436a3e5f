// TB-scheduling policies against hand-worked expectations (docs/tb-scheduling.md): PAVER's
// groupings from a locality graph (the thesis's MST example, Algorithm 1 where METIS's
// bisection is forced, k-way parts), task stealing's worked example, the runtime's
// steals, and BCS leaving a context idle under an odd TB limit. The policies run against a
// small scheduler view written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "models/control/locality_partition.h"
#include "models/control/tb_policy.h"
#include "tests/control/least_loaded_example.h"

using namespace gputlm::control;
using paver::graph;
using paver::group;

namespace {

void edge(graph& g, std::uint32_t a, std::uint32_t b, std::uint64_t w) {
  g[a].emplace_back(b, w);
  g[b].emplace_back(a, w);
}

// Two cliques {0..3} and {4..7} of weight 10, joined by one edge 3-4 of weight 1.
graph two_cliques() {
  graph g(8);
  for (std::uint32_t base : {0u, 4u})
    for (std::uint32_t i = 0; i < 4; ++i)
      for (std::uint32_t j = i + 1; j < 4; ++j) edge(g, base + i, base + j, 10);
  edge(g, 3, 4, 1);
  return g;
}

std::set<std::uint32_t> as_set(const group& g) { return {g.begin(), g.end()}; }

// A scheduler with `smxs` SMXs of `slots` TB contexts each and one kernel of `tbs` TBs.
struct fake_scheduler : tb_scheduler_view {
  std::vector<kde_record> es;
  std::vector<std::uint32_t> resident;
  std::vector<bool> open;  // SMXs the test lets take TBs
  std::uint32_t slots;
  graph g;
  std::uint64_t cycle = 1;

  fake_scheduler(std::size_t smxs, std::uint32_t slot_count, std::uint32_t tbs, graph lg = {})
      : resident(smxs, 0), open(smxs, true), slots(slot_count), g(std::move(lg)) {
    kde_record e;
    e.valid = 1;
    e.kernel = 0;
    e.tbs_total = tbs;
    es.push_back(e);
    if (g.empty()) g.resize(tbs);
  }
  std::size_t smx_count() const override { return resident.size(); }
  const std::vector<kde_record>& entries() const override { return es; }
  bool ready(std::size_t) override { return true; }
  bool fits(std::size_t s, std::size_t, std::uint32_t count) const override {
    return open[s] && resident[s] + count <= slots;
  }
  std::uint32_t capacity(std::size_t, std::size_t) const override { return slots; }
  const graph& locality_graph(std::size_t) override { return g; }
  std::uint64_t now() const override { return cycle; }

  // Asks the policy once and applies its choice as the scheduler would: (smx, tb) or
  // (-1, 0) when nothing goes.
  std::pair<int, std::uint32_t> step(tb_policy& p) {
    const tb_choice c = p.pick(*this);
    ++cycle;
    if (c.entry < 0) return {-1, 0};
    kde_record& e = es[static_cast<std::size_t>(c.entry)];
    const std::uint32_t tb = c.tb == tb_choice::none_tb ? e.next_tb : c.tb;
    ++e.next_tb;
    ++resident[static_cast<std::size_t>(c.smx)];
    return {c.smx, tb};
  }
};

}  // namespace

// Thesis §3.3.1: with N = 2 SMXs and x = 2, Prim's order 0,4,1,5,2,3,7,6 makes the groups
// (0,4), (1,5), (2), (3), (7), (6). The graph: a heavy path in that order, lighter edges
// across it (0-1: 2, 3-6: 3, 2-6: 1) that Prim must pass over.
TEST(paver, mst_groups_reproduce_the_thesis_example) {
  graph g(8);
  const std::uint32_t path[] = {0, 4, 1, 5, 2, 3, 7, 6};
  for (std::uint32_t i = 0; i + 1 < 8; ++i) edge(g, path[i], path[i + 1], 10 - i);
  edge(g, 0, 1, 2);
  edge(g, 3, 6, 3);
  edge(g, 2, 6, 1);
  EXPECT_EQ(paver::prim_order(g), (group{0, 4, 1, 5, 2, 3, 7, 6}));
  EXPECT_EQ(paver::mst_groups(g, 2, 2), (std::vector<group>{{0, 4}, {1, 5}, {2}, {3}, {7}, {6}}));
}

// A vertex Prim's tree cannot reach starts a new tree at the smallest unvisited id.
TEST(paver, prim_order_restarts_at_the_smallest_unvisited_tb) {
  graph g(5);
  edge(g, 3, 4, 5);
  edge(g, 0, 2, 1);
  EXPECT_EQ(paver::prim_order(g), (group{0, 2, 1, 3, 4}));
  EXPECT_EQ(paver::prim_order(g, {4, 3, 1}), (group{1, 3, 4}));
}

// Algorithm 1: the only balanced bisection of two cliques joined by one edge cuts that
// edge; with maxTB = 5 each clique (4 < 5) is a leaf; with maxTB = 3 each is bisected
// again into pairs (2 < 3).
TEST(paver, recursive_bisection_splits_along_the_weakest_cut) {
  const graph g = two_cliques();
  const auto leaves = paver::rb_groups(g, 5);
  ASSERT_EQ(leaves.size(), 2u);
  const std::set<std::set<std::uint32_t>> got{as_set(leaves[0]), as_set(leaves[1])};
  EXPECT_EQ(got, (std::set<std::set<std::uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  const auto pairs = paver::rb_groups(g, 3);
  ASSERT_EQ(pairs.size(), 4u);
  std::set<std::uint32_t> all;
  for (const auto& p : pairs) {
    EXPECT_EQ(p.size(), 2u);
    // A pair never spans the two cliques: they were separated first.
    EXPECT_EQ(p[0] < 4, p[1] < 4);
    all.insert(p.begin(), p.end());
  }
  EXPECT_EQ(all.size(), 8u);
  // maxTB = 1 ends with single TBs.
  EXPECT_EQ(paver::rb_groups(g, 1).size(), 8u);
}

// k-way: one part per SMX, each in Prim order from its smallest TB.
TEST(paver, kway_parts_are_the_cliques_in_prim_order) {
  const auto parts = paver::kway_groups(two_cliques(), 2);
  ASSERT_EQ(parts.size(), 2u);
  const std::set<std::set<std::uint32_t>> got{as_set(parts[0]), as_set(parts[1])};
  EXPECT_EQ(got, (std::set<std::set<std::uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  for (const auto& p : parts) EXPECT_EQ(p.front(), *std::min_element(p.begin(), p.end()));
}

// Algorithm 2's worked example: the donor holds TB0..TB3 (next = 0, tail = 4 one past the
// end), the recipient nothing: Max 4, Avg 2, so 2 TBs move.
TEST(paver, task_steal_takes_max_minus_average) {
  EXPECT_EQ(paver::task_steal({4, 0}), (std::pair<std::uint32_t, std::uint32_t>{0, 2}));
  EXPECT_EQ(paver::task_steal({1, 5, 2}), (std::pair<std::uint32_t, std::uint32_t>{1, 3}));
  EXPECT_EQ(paver::task_steal({0, 0}).second, 0u);
}

// The runtime: two k-way groups of 4 on two SMXs; only SMX 1 may take TBs. It issues its
// own group, then steals from SMX 0's tail: 2 TBs (Max 4 - Avg 2), then 1 (2 - 1). The TB
// in SMX 0's nextTB register is never taken: it issues there once SMX 0 has room.
TEST(paver, the_runtime_steals_from_the_donors_tail) {
  fake_scheduler v(2, 64, 8, two_cliques());
  v.open[0] = false;
  paver_policy p(paver_policy::grouping::kway, true, 0,
                 make_tb_policy("lrr", "fcfs", "round_robin", false, 0));
  std::vector<std::uint32_t> issued;
  for (int i = 0; i < 9; ++i) {
    const auto [smx, tb] = v.step(p);
    if (smx < 0) break;
    EXPECT_EQ(smx, 1);
    issued.push_back(tb);
  }
  ASSERT_EQ(issued.size(), 7u);
  // SMX 1's own group first (one clique), then the other clique in Prim order d0..d3 taken
  // as d2, d3 (2 stolen), then d1; d0 stays in SMX 0's nextTB.
  const std::set<std::uint32_t> own(issued.begin(), issued.begin() + 4);
  EXPECT_TRUE(own == (std::set<std::uint32_t>{0, 1, 2, 3}) ||
              own == (std::set<std::uint32_t>{4, 5, 6, 7}));
  group donor;
  for (std::uint32_t t = 0; t < 8; ++t)
    if (!own.count(t)) donor.push_back(t);
  const group order = paver::prim_order(two_cliques(), donor);
  EXPECT_EQ(group(issued.begin() + 4, issued.end()), (group{order[2], order[3], order[1]}));
  EXPECT_EQ(p.steals, 2u);
  EXPECT_EQ(p.stolen_tbs, 3u);
  v.open[0] = true;
  EXPECT_EQ(v.step(p), (std::pair<int, std::uint32_t>{0, order[0]}));
}

// Without task stealing SMX 1 stops after its own group; the other group waits for SMX 0.
TEST(paver, without_stealing_the_other_group_waits_for_its_smx) {
  fake_scheduler v(2, 64, 8, two_cliques());
  v.open[0] = false;
  paver_policy p(paver_policy::grouping::kway, false, 0,
                 make_tb_policy("lrr", "fcfs", "round_robin", false, 0));
  int issued = 0;
  while (v.step(p).first >= 0) ++issued;
  EXPECT_EQ(issued, 4);
  v.open[0] = true;
  while (v.step(p).first >= 0) ++issued;
  EXPECT_EQ(issued, 8);
}

// nextTB is loaded from global memory after every issue: an SMX issues again only
// next_tb_latency cycles later, and the policy asks to be woken then.
TEST(paver, next_tb_arrives_after_its_load) {
  fake_scheduler v(1, 64, 4);
  paver_policy p(paver_policy::grouping::mst, false, 200,
                 make_tb_policy("lrr", "fcfs", "round_robin", false, 0));
  tb_choice c = p.pick(v);  // the kernel starts: the group's first nextTB is being loaded
  EXPECT_LT(c.entry, 0);
  EXPECT_EQ(c.retry_at, v.cycle + 200);
  v.cycle += 200;
  c = p.pick(v);
  EXPECT_EQ(c.entry, 0);
  EXPECT_EQ(c.tb, 0u);
  c = p.pick(v);  // the next one is on its way
  EXPECT_LT(c.entry, 0);
  EXPECT_EQ(c.retry_at, v.cycle + 200);
}

// BCS with 3 contexts per SMX: pairs only, so one context stays idle; a kernel's odd last
// TB goes alone.
TEST(bcs, an_odd_tb_limit_leaves_a_context_idle) {
  fake_scheduler v(1, 3, 5);
  bcs_policy p;
  EXPECT_EQ(v.step(p), (std::pair<int, std::uint32_t>{0, 0}));
  EXPECT_EQ(v.step(p), (std::pair<int, std::uint32_t>{0, 1}));  // the pair's second
  EXPECT_EQ(v.step(p).first, -1);                               // 1 free context: waits
  EXPECT_EQ(v.resident[0], 2u);
  v.resident[0] = 0;  // the pair completes
  EXPECT_EQ(v.step(p).second, 2u);
  EXPECT_EQ(v.step(p).second, 3u);
  v.resident[0] = 1;
  EXPECT_EQ(v.step(p), (std::pair<int, std::uint32_t>{0, 4}));  // the last TB, alone
}

// LRR is the baseline's order: TB ids in order, SMXs round robin.
TEST(lrr, tbs_in_order_round_robin) {
  fake_scheduler v(3, 2, 4);
  auto p = make_tb_policy("lrr", "fcfs", "round_robin", false, 0);
  for (std::uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(v.step(*p), (std::pair<int, std::uint32_t>{int(i % 3), i}));
  EXPECT_THROW(make_tb_policy("paver", "fcfs", "round_robin", false, 0), std::invalid_argument);
}

// The example policy of docs/tb-scheduling.md compiles, runs, and is what the page shows.
TEST(tb_policy_example, least_loaded_runs_and_matches_the_docs) {
  fake_scheduler v(3, 4, 7);
  least_loaded_policy p;
  for (std::uint32_t i = 0; i < 6; ++i)
    EXPECT_EQ(v.step(p), (std::pair<int, std::uint32_t>{int(i % 3), i}));
  p.tb_completed(1, 0);
  p.tb_completed(1, 0);
  EXPECT_EQ(v.step(p).first, 1);  // now the least loaded
  auto slurp = [](const std::string& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string doc = slurp(std::string(GPUTLM_SOURCE_DIR) + "/docs/tb-scheduling.md");
  const std::string hdr =
      slurp(std::string(GPUTLM_SOURCE_DIR) + "/tests/control/least_loaded_example.h");
  const auto a = hdr.find("// --- example ---\n") + 19, b = hdr.find("// --- end ---");
  const auto c = doc.find("```cpp\n// Least-loaded") + 7;
  ASSERT_NE(c, std::string::npos + 7);
  EXPECT_EQ(doc.substr(c, doc.find("```", c) - c), hdr.substr(a, b - a));
}
