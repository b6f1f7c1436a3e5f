// TB-scheduling policies against hand-worked expectations (docs/tb-scheduling.md): PAVER's
// groupings from a locality graph (the thesis's MST example, Algorithm 1 where METIS's
// bisection is forced, k-way parts), task stealing's worked example, the runtime's
// steals, BCS leaving a context idle under an odd TB limit, and LaPerm's three policies on
// the DTBL thesis's Fig. 26 example, its priority clamp and Adaptive-Bind's steal rule. The
// policies run against a small scheduler view written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "models/control/launch_pool_order.h"
#include "models/control/locality_partition.h"
#include "models/control/tb_policy.h"
#include "tests/control/least_loaded_example.h"

namespace test_tb_policy {

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
  const graph& locality_graph(std::size_t, std::uint32_t) override { return g; }
  std::uint64_t now() const override { return cycle; }
  int entry_of(std::uint32_t kde) const override { return kde < es.size() ? int(kde) : -1; }
  bool group_ready(std::uint32_t) override { return true; }

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

// The JIT pass's work, counted by hand on the two cliques (8 vertices, 2 x 12 clique
// entries + 2 for the joining edge = 34 entries with the vertices; one clique: 4 + 12 = 16):
// MST-TS one Prim over the graph; k-way one METIS call on the graph and one Prim per
// clique; RB with maxTB 5 one bisection, with maxTB 3 one more per clique (RB leaves keep
// id order: no Prim).
TEST(paver, jit_work_counts_calls_and_graph_entries) {
  const graph g = two_cliques();
  paver::jit_work mst, kway, rb5, rb3;
  paver::mst_groups(g, 2, 2, &mst);
  paver::kway_groups(g, 2, &kway);
  paver::rb_groups(g, 5, &rb5);
  paver::rb_groups(g, 3, &rb3);
  EXPECT_EQ(mst.calls, 1u);
  EXPECT_EQ(mst.entries, 34u);
  EXPECT_EQ(kway.calls, 3u);
  EXPECT_EQ(kway.entries, 34u + 2 * 16u);
  EXPECT_EQ(rb5.calls, 1u);
  EXPECT_EQ(rb5.entries, 34u);
  EXPECT_EQ(rb3.calls, 3u);
  EXPECT_EQ(rb3.entries, 34u + 2 * 16u);
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

// LaPerm ------------------------------------------------------------------------------------

namespace {

// SMXs of one TB context each; kernels (KDE = index) named TB by TB, and aggregated groups.
struct laperm_scheduler : tb_scheduler_view {
  std::vector<kde_record> es;
  std::vector<std::vector<std::string>> names;  // per entry, its TBs' names
  std::vector<std::uint32_t> resident;
  std::uint32_t slots;
  std::vector<bool> ready_group;  // per group sequence number
  std::vector<std::uint32_t> group_next;
  std::vector<std::vector<std::string>> group_names;
  std::uint64_t cycle = 1;
  graph none;

  laperm_scheduler(std::size_t smxs, std::uint32_t slot_count)
      : resident(smxs, 0), slots(slot_count) {}
  std::size_t smx_count() const override { return resident.size(); }
  const std::vector<kde_record>& entries() const override { return es; }
  bool ready(std::size_t) override { return true; }
  bool fits(std::size_t s, std::size_t, std::uint32_t count) const override {
    return resident[s] + count <= slots;
  }
  std::uint32_t capacity(std::size_t, std::size_t) const override { return slots; }
  const graph& locality_graph(std::size_t, std::uint32_t) override { return none; }
  std::uint64_t now() const override { return cycle; }
  int entry_of(std::uint32_t kde) const override { return kde < es.size() ? int(kde) : -1; }
  bool group_ready(std::uint32_t g) override { return ready_group[g]; }

  // A kernel of TBs `tbs` launched at `depth` from SMX `smx`.
  void launch(tb_policy& p, std::vector<std::string> tbs, std::uint32_t depth, std::uint32_t smx) {
    kde_record e;
    e.valid = 1;
    e.kernel = static_cast<std::uint32_t>(es.size());
    e.tbs_total = static_cast<std::uint32_t>(tbs.size());
    es.push_back(e);
    names.push_back(std::move(tbs));
    tb_source src;
    src.kde = e.kernel;
    src.kernel = e.kernel;
    src.tbs = e.tbs_total;
    src.depth = depth;
    src.launch_smx = smx;
    p.source_added(*this, src);
  }
  // An aggregated group of TBs `tbs` coalesced into entry `kde`.
  std::uint64_t group(tb_policy& p, std::uint32_t kde, std::vector<std::string> tbs,
                      std::uint32_t depth, std::uint32_t smx, bool ready = true) {
    tb_source src;
    src.kde = kde;
    src.group = static_cast<std::uint32_t>(group_names.size());
    src.kernel = 100 + src.group;
    src.tbs = static_cast<std::uint32_t>(tbs.size());
    src.depth = depth;
    src.launch_smx = smx;
    group_names.push_back(std::move(tbs));
    group_next.push_back(0);
    ready_group.push_back(ready);
    return p.source_added(*this, src);
  }
  // Dispatches until nothing goes (one TB per cycle, waiting out the policy's retry times):
  // "name@smx" in dispatch order.
  std::vector<std::string> round(tb_policy& p) {
    std::vector<std::string> out;
    for (int guard = 0; guard < 1000; ++guard) {
      const tb_choice c = p.pick(*this);
      if (c.entry < 0) {
        if (c.retry_at > cycle) {
          cycle = c.retry_at;
          continue;
        }
        break;
      }
      std::string name;
      if (c.group != tb_source::none) {
        name = group_names[c.group][group_next[c.group]++];
      } else {
        kde_record& e = es[static_cast<std::size_t>(c.entry)];
        name = names[static_cast<std::size_t>(c.entry)][e.next_tb++];
      }
      ++resident[static_cast<std::size_t>(c.smx)];
      out.push_back(name + "@" + std::to_string(c.smx));
      ++cycle;
    }
    return out;
  }
  void complete_all() { std::fill(resident.begin(), resident.end(), 0u); }
};

using names = std::vector<std::string>;

// The DTBL thesis's Fig. 26: 8 parents on 4 SMXs of one TB each; P2 launches C0-C1 in
// round 1, P4 launches C2-C5 in round 2. Each round's TBs complete before the next.
std::vector<names> fig26(const std::string& policy) {
  laperm_scheduler v(4, 1);
  auto p = make_tb_policy(policy, "fcfs", "round_robin", false, 0);
  v.launch(*p, {"P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"}, 0, 0);
  std::vector<names> rounds;
  auto smx_of = [&](const std::string& tb) {
    for (const names& r : rounds)
      for (const std::string& d : r)
        if (d.rfind(tb + "@", 0) == 0) return std::uint32_t(std::stoul(d.substr(d.find('@') + 1)));
    return ~0u;
  };
  for (int r = 0; r < 8; ++r) {
    rounds.push_back(v.round(*p));
    if (rounds.back().empty()) {
      rounds.pop_back();
      break;
    }
    v.complete_all();
    if (r == 0) v.launch(*p, {"C0", "C1"}, 1, smx_of("P2"));
    if (r == 1) v.launch(*p, {"C2", "C3", "C4", "C5"}, 1, smx_of("P4"));
  }
  return rounds;
}

}  // namespace

TEST(laperm, tb_pri_runs_children_before_the_remaining_parents) {
  const std::vector<names> expect = {{"P0@0", "P1@1", "P2@2", "P3@3"},
                                     {"C0@0", "C1@1", "P4@2", "P5@3"},
                                     {"C2@0", "C3@1", "C4@2", "C5@3"},
                                     {"P6@0", "P7@1"}};
  EXPECT_EQ(fig26("tb_pri"), expect);
}

TEST(laperm, smx_bind_places_children_on_their_parents_smx) {
  // C0-C1 on P2's SMX2, C2-C5 on P4's SMX0; SMX3 idles after round 2, SMX1 and SMX2 after
  // round 3.
  const std::vector<names> expect = {{"P0@0", "P1@1", "P2@2", "P3@3"},
                                     {"P4@0", "P5@1", "C0@2", "P6@3"},
                                     {"C2@0", "P7@1", "C1@2"},
                                     {"C3@0"},
                                     {"C4@0"},
                                     {"C5@0"}};
  EXPECT_EQ(fig26("smx_bind"), expect);
}

TEST(laperm, adaptive_bind_takes_from_a_backup_smx_when_its_queues_are_empty) {
  // As SMX-Bind through round 2; then SMX3 takes C3 and SMX1 takes C5 from SMX0's queues.
  const std::vector<names> expect = {{"P0@0", "P1@1", "P2@2", "P3@3"},
                                     {"P4@0", "P5@1", "C0@2", "P6@3"},
                                     {"C2@0", "P7@1", "C1@2", "C3@3"},
                                     {"C4@0", "C5@1"}};
  EXPECT_EQ(fig26("adaptive_bind"), expect);
}

// Priorities are clamped at L: with L = 1 a grandchild ranks with the children (FCFS among
// them) and both above the parents; with L = 2 the grandchild goes first.
TEST(laperm, priority_is_the_parents_plus_one_clamped_at_l) {
  for (std::uint32_t levels : {1u, 2u}) {
    laperm_scheduler v(1, 1);
    laperm_policy::params lp;
    lp.levels = levels;
    laperm_policy p(laperm_policy::mode::tb_pri, lp);
    v.launch(p, {"P0", "P1"}, 0, 0);
    v.launch(p, {"C0"}, 1, 0);
    v.launch(p, {"G0"}, 2, 0);
    std::vector<std::string> order;
    for (int i = 0; i < 4; ++i) {
      const auto r = v.round(p);
      order.insert(order.end(), r.begin(), r.end());
      v.complete_all();
    }
    const names expect =
        levels == 1 ? names{"C0@0", "G0@0", "P0@0", "P1@0"} : names{"G0@0", "C0@0", "P0@0", "P1@0"};
    EXPECT_EQ(order, expect) << "L = " << levels;
    EXPECT_EQ(p.priority(7), levels);
  }
}

// Adaptive-Bind's SMX1 has no bound children. It takes PQ0's parents while there are any,
// waits while its own queue holds a group not yet ready, and only then, with its own
// queues and PQ0 empty, takes SMX0's bound children.
TEST(laperm, adaptive_bind_steals_only_when_own_and_global_queues_are_empty) {
  laperm_scheduler v(2, 4);
  laperm_policy p(laperm_policy::mode::adaptive_bind, {});
  v.launch(p, {"P0", "P1", "P2"}, 0, 0);
  v.resident[0] = 4;  // SMX0 full
  v.group(p, 0, {"A0", "A1"}, 1, 0);
  v.group(p, 0, {"B0"}, 1, 1, /*ready=*/false);            // bound to SMX1, not ready yet
  EXPECT_EQ(v.round(p), (names{"P0@1", "P1@1", "P2@1"}));  // PQ0 first: no steal
  v.resident[1] = 0;
  EXPECT_EQ(v.round(p), names{});  // own queue not empty (B0 waits): no steal
  v.ready_group[1] = true;
  EXPECT_EQ(v.round(p), (names{"B0@1", "A0@1", "A1@1"}));  // own first, then the backup
  EXPECT_EQ(p.backup_tbs, 2u);
  EXPECT_EQ(p.bound_tbs, 1u);
}

// SMX-Bind's queue insertion scans the entries of higher or equal priority in the bound
// SMX's array (DTBL: hidden behind the group's set-up); CDP kernels cost nothing here.
TEST(laperm, bound_queue_insertion_cycles_and_overflow) {
  laperm_scheduler v(2, 1);
  laperm_policy::params lp;
  lp.onchip_entries = 2;
  laperm_policy p(laperm_policy::mode::smx_bind, lp);
  v.launch(p, {"P0"}, 0, 0);
  EXPECT_EQ(v.group(p, 0, {"A0"}, 2, 1), 1u);  // empty array: its own slot
  EXPECT_EQ(v.group(p, 0, {"B0"}, 1, 1), 2u);  // behind A (priority 2)
  EXPECT_EQ(v.group(p, 0, {"C0"}, 2, 1), 2u);  // behind A only; the array is full
  EXPECT_EQ(p.overflowed, 1u);
  EXPECT_EQ(v.group(p, 0, {"D0"}, 1, 0), 1u);  // another SMX's array
  EXPECT_EQ(p.overflowed, 1u);
}

// The KMU's launch-pool order for CDP kernels (LaPerm's KMU extension).
TEST(launch_pool, priority_takes_the_deepest_eligible_kernel_fcfs_among_equals) {
  // kernel, eligible cycle, depth, launching SMX
  const std::deque<pending_launch> pool = {
      {10, 0, 1, 0}, {11, 0, 2, 0}, {12, 0, 2, 0}, {13, 100, 3, 0}};
  std::uint64_t scan = 1;
  launch_pool_order fifo("fifo", 4, 4);
  EXPECT_EQ(fifo.pick(pool, 0, &scan), 0u);
  EXPECT_EQ(scan, 0u);
  launch_pool_order prio("priority", 4, 4);
  EXPECT_EQ(prio.pick(pool, 0, &scan), 1u);    // depth 2 first; 13 (depth 3) not eligible
  EXPECT_EQ(prio.pick(pool, 100, &scan), 3u);  // now it is
  launch_pool_order clamped("priority", 1, 4);
  EXPECT_EQ(clamped.pick(pool, 100, &scan), 0u);  // every depth is priority 1: FCFS
  const std::deque<pending_launch> late = {{1, 50, 1, 0}, {2, 20, 1, 0}};
  EXPECT_EQ(fifo.earliest(late), 50u);  // the head's
  EXPECT_EQ(prio.earliest(late), 20u);  // any kernel's
  EXPECT_THROW(launch_pool_order("lifo", 4, 4), std::invalid_argument);
}

TEST(launch_pool, smx_bound_examines_one_smx_per_cycle) {
  launch_pool_order o("smx_bound", 4, 4);
  std::deque<pending_launch> pool = {{10, 0, 1, 2}, {11, 0, 1, 0}, {12, 0, 2, 2}};
  std::uint64_t scan = 0;
  EXPECT_EQ(o.pick(pool, 0, &scan), 1u);  // SMX0 is examined first and has kernel 11
  EXPECT_EQ(scan, 0u);
  pool.erase(pool.begin() + 1);
  EXPECT_EQ(o.pick(pool, 1, &scan), 1u);  // SMX1 has nothing: SMX2 a cycle later
  EXPECT_EQ(scan, 1u);
  EXPECT_EQ(o.pick(pool, 2, &scan), 1u);  // SMX2's deepest kernel, 12
  EXPECT_EQ(scan, 0u);
  pool.erase(pool.begin() + 1);
  EXPECT_EQ(o.pick(pool, 3, &scan), 0u);  // SMX3, 0, 1 have nothing: SMX2 three cycles on
  EXPECT_EQ(scan, 3u);
}

// With two SMXs per L1 (`smx_cluster` 2), a child of a TB on SMX1 is bound to the cluster
// {SMX0, SMX1}: the cluster's SMXs take it in turn; SMX2 and SMX3 never do.
TEST(laperm, smx_bind_binds_to_the_l1_cluster) {
  laperm_scheduler v(4, 1);
  laperm_policy::params lp;
  lp.cluster = 2;
  laperm_policy p(laperm_policy::mode::smx_bind, lp);
  v.launch(p, {"C0", "C1", "C2"}, 1, 1);
  EXPECT_EQ(v.round(p), (names{"C0@0", "C1@1"}));
  v.complete_all();
  EXPECT_EQ(v.round(p), (names{"C2@0"}));
  EXPECT_NE(p.hardware(4).find("queues bound to clusters of 2 SMXs"), std::string::npos);
}

}  // namespace test_tb_policy
