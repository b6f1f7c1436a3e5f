// PAVER's just-in-time TB grouping (Tripathy, PhD thesis, UC Riverside 2021, §3.3-3.4;
// docs/references.md, "PAVER TB scheduling"; docs/tb-scheduling.md): from a kernel's locality
// graph (L[i][j] = data shared by TBs i and j), the ordered TB groups the per-SMX queues
// take, and the task stealer's choice of donor. Prim's maximum spanning tree comes from
// Boost.Graph, k-way partitioning and bisection from METIS.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gputlm::control::paver {

// A weighted undirected graph: adj[v] = (neighbour, weight), each edge in both lists.
using graph = std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>>;
using group = std::vector<std::uint32_t>;  // TB ids in issue order

// The JIT pass's work (docs/tb-scheduling.md, "Analysis time"): the calls of Prim and METIS
// and the size (vertices + adjacency entries) of the graphs handed to them. Each grouping
// function below adds its own to `work` when given.
struct jit_work {
  std::uint64_t calls = 0, entries = 0;
};

// The order in which Prim's algorithm adds the vertices of `subset` (all when empty) to a
// maximum spanning tree of the graph induced on them, starting at the smallest id; a
// vertex the tree cannot reach starts a new tree at the smallest id not yet visited.
group prim_order(const graph& g, const group& subset = {}, jit_work* work = nullptr);

// MST-TS (§3.3.1): the Prim order cut into `smxs` groups of `per_smx` TBs, then one group
// per remaining TB.
std::vector<group> mst_groups(const graph& g, std::uint32_t smxs, std::uint32_t per_smx,
                              jit_work* work = nullptr);

// k-way-TS (§3.3.2): METIS k-way partitioning into k = `smxs` balanced parts maximising
// the weight inside parts, each ordered by prim_order. Empty parts are dropped.
std::vector<group> kway_groups(const graph& g, std::uint32_t smxs, jit_work* work = nullptr);

// RB-TS, Algorithm 1 (§3.3.3): METIS bisection, breadth first, until a part has fewer than
// `max_tb` TBs; the leaves left to right. A part of one TB, or one METIS cannot split, is a
// leaf whatever its size (so that max_tb = 1 ends).
std::vector<group> rb_groups(const graph& g, std::uint32_t max_tb, jit_work* work = nullptr);

// Task stealing, Algorithm 2 (§3.4.2): `waiting[s]` = TBs left in SMX s's group
// (tail - next, tail one past the end). Returns (donor, count): the SMX with the most
// waiting TBs (the first one on a tie) and Max - Avg (integer average), the TBs the
// recipient takes from the donor's tail; count 0 when nothing is worth stealing. (The
// runtime leaves the donor the TB in its nextTB register: docs/tb-scheduling.md.)
std::pair<std::uint32_t, std::uint32_t> task_steal(const std::vector<std::uint32_t>& waiting);

}  // namespace gputlm::control::paver
