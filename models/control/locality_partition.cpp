// PAVER's TB grouping (see locality_partition.h).
#include "models/control/locality_partition.h"

#include <metis.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/prim_minimum_spanning_tree.hpp>
#include <deque>
#include <limits>
#include <stdexcept>

namespace gputlm::control::paver {

namespace {

// The graph induced on `vs` (local index i = vs[i]); edges to other vertices dropped.
graph induced(const graph& g, const group& vs) {
  std::vector<std::uint32_t> local(g.size(), std::numeric_limits<std::uint32_t>::max());
  for (std::size_t i = 0; i < vs.size(); ++i) local.at(vs[i]) = static_cast<std::uint32_t>(i);
  graph h(vs.size());
  for (std::size_t i = 0; i < vs.size(); ++i)
    for (const auto& [n, w] : g[vs[i]])
      if (local[n] != std::numeric_limits<std::uint32_t>::max() && w > 0)
        h[i].emplace_back(local[n], w);
  return h;
}

using bgraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                          boost::property<boost::edge_weight_t, std::uint64_t>>;

// Records the order in which Prim's algorithm takes vertices into the tree.
struct take_order : boost::default_dijkstra_visitor {
  std::vector<std::uint32_t>* taken;
  explicit take_order(std::vector<std::uint32_t>* t) : taken(t) {}
  template <class Vertex, class Graph>
  void examine_vertex(Vertex v, const Graph&) {
    taken->push_back(static_cast<std::uint32_t>(v));
  }
};

// Prim's order over the whole (local) graph h.
group prim_local(const graph& h) {
  const std::size_t n = h.size();
  std::uint64_t heaviest = 0;
  for (const auto& l : h)
    for (const auto& e : l) heaviest = std::max(heaviest, e.second);
  // A maximum spanning tree is a minimum one under weight' = (heaviest + 1) - weight.
  bgraph bg(n);
  for (std::size_t v = 0; v < n; ++v)
    for (const auto& [u, w] : h[v])
      if (u > v) boost::add_edge(v, u, heaviest + 1 - w, bg);
  std::vector<int> component(n);
  boost::connected_components(bg, component.data());
  std::vector<bool> done_component(n, false), taken(n, false);
  std::vector<std::size_t> pred(n);
  group order;
  order.reserve(n);
  for (std::size_t root = 0; root < n; ++root) {
    if (taken[root] || done_component[static_cast<std::size_t>(component[root])]) continue;
    done_component[static_cast<std::size_t>(component[root])] = true;
    if (boost::out_degree(root, bg) == 0) {
      order.push_back(static_cast<std::uint32_t>(root));
      taken[root] = true;
      continue;
    }
    std::vector<std::uint32_t> tree;
    boost::prim_minimum_spanning_tree(bg, pred.data(),
                                      boost::root_vertex(root).visitor(take_order(&tree)));
    for (std::uint32_t v : tree)
      if (!taken[v] && component[v] == component[root]) {
        taken[v] = true;
        order.push_back(v);
      }
  }
  return order;
}

// METIS's CSR form of h (edge weights scaled to fit idx_t, at least 1).
struct metis_graph {
  std::vector<idx_t> xadj{0}, adjncy, adjwgt;
  explicit metis_graph(const graph& h) {
    std::uint64_t heaviest = 1;
    for (const auto& l : h)
      for (const auto& e : l) heaviest = std::max(heaviest, e.second);
    const std::uint64_t cap = std::uint64_t(1) << 24;  // sums of weights stay within idx_t
    const std::uint64_t scale = heaviest > cap ? (heaviest + cap - 1) / cap : 1;
    for (const auto& l : h) {
      for (const auto& [u, w] : l) {
        adjncy.push_back(static_cast<idx_t>(u));
        adjwgt.push_back(static_cast<idx_t>(std::max<std::uint64_t>(1, w / scale)));
      }
      xadj.push_back(static_cast<idx_t>(adjncy.size()));
    }
    if (adjncy.empty()) {  // METIS reads these arrays even without edges
      adjncy.push_back(0);
      adjwgt.push_back(1);
    }
  }
};

// One call on h: its vertices and adjacency entries, added to *work.
void count_work(const graph& h, jit_work* work) {
  if (!work) return;
  ++work->calls;
  work->entries += h.size();
  for (const auto& l : h) work->entries += l.size();
}

// METIS's partition of h into `parts` (k-way or recursive bisection); part[v] per vertex.
std::vector<idx_t> metis_parts(const graph& h, std::uint32_t parts, bool recursive,
                               jit_work* work) {
  std::vector<idx_t> part(h.size(), 0);
  if (parts <= 1 || h.size() <= 1) return part;
  if (h.size() <= parts) {
    for (std::size_t v = 0; v < h.size(); ++v) part[v] = static_cast<idx_t>(v);
    return part;
  }
  count_work(h, work);
  metis_graph m(h);
  idx_t n = static_cast<idx_t>(h.size()), ncon = 1, k = static_cast<idx_t>(parts), cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // the same partition every run
  options[METIS_OPTION_NUMBERING] = 0;
  const int status =
      recursive
          ? METIS_PartGraphRecursive(&n, &ncon, m.xadj.data(), m.adjncy.data(), nullptr, nullptr,
                                     m.adjwgt.data(), &k, nullptr, nullptr, options, &cut,
                                     part.data())
          : METIS_PartGraphKway(&n, &ncon, m.xadj.data(), m.adjncy.data(), nullptr, nullptr,
                                m.adjwgt.data(), &k, nullptr, nullptr, options, &cut, part.data());
  if (status != METIS_OK) throw std::runtime_error("METIS failed to partition a locality graph");
  return part;
}

}  // namespace

group prim_order(const graph& g, const group& subset, jit_work* work) {
  if (subset.empty()) {
    count_work(g, work);
    return prim_local(g);
  }
  group sorted = subset;  // local ids follow TB ids: the smallest TB is the root
  std::sort(sorted.begin(), sorted.end());
  const graph h = induced(g, sorted);
  count_work(h, work);
  group order = prim_local(h);
  for (auto& v : order) v = sorted[v];
  return order;
}

std::vector<group> mst_groups(const graph& g, std::uint32_t smxs, std::uint32_t per_smx,
                              jit_work* work) {
  const group order = prim_order(g, {}, work);
  std::vector<group> groups;
  std::size_t i = 0;
  for (std::uint32_t s = 0; s < smxs && i < order.size(); ++s) {
    const std::size_t end = std::min(order.size(), i + std::max<std::uint32_t>(per_smx, 1));
    groups.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(i),
                        order.begin() + static_cast<std::ptrdiff_t>(end));
    i = end;
  }
  for (; i < order.size(); ++i) groups.push_back({order[i]});
  return groups;
}

std::vector<group> kway_groups(const graph& g, std::uint32_t smxs, jit_work* work) {
  const std::vector<idx_t> part = metis_parts(g, smxs, false, work);
  std::vector<group> members(std::max<std::uint32_t>(smxs, 1));
  for (std::size_t v = 0; v < g.size(); ++v)
    members.at(static_cast<std::size_t>(part[v])).push_back(static_cast<std::uint32_t>(v));
  std::vector<group> groups;
  for (const group& m : members)
    if (!m.empty()) groups.push_back(prim_order(g, m, work));
  return groups;
}

std::vector<group> rb_groups(const graph& g, std::uint32_t max_tb, jit_work* work) {
  std::vector<group> leaves;
  std::deque<group> queue;
  group all(g.size());
  for (std::size_t v = 0; v < g.size(); ++v) all[v] = static_cast<std::uint32_t>(v);
  if (all.empty()) return leaves;
  queue.push_back(std::move(all));
  while (!queue.empty()) {
    group gi = std::move(queue.front());
    queue.pop_front();
    if (gi.size() <= 1) {
      leaves.push_back(std::move(gi));
      continue;
    }
    const std::vector<idx_t> part = metis_parts(induced(g, gi), 2, true, work);
    group halves[2];
    for (std::size_t i = 0; i < gi.size(); ++i) halves[part[i] ? 1 : 0].push_back(gi[i]);
    if (halves[0].empty() || halves[1].empty()) {  // METIS did not split it: a leaf
      leaves.push_back(std::move(gi));
      continue;
    }
    for (group& h : halves) {
      if (h.size() < max_tb)
        leaves.push_back(std::move(h));
      else
        queue.push_back(std::move(h));
    }
  }
  return leaves;
}

std::pair<std::uint32_t, std::uint32_t> task_steal(const std::vector<std::uint32_t>& waiting) {
  std::uint32_t max = 0, donor = 0;
  std::uint64_t sum = 0;
  for (std::size_t s = 0; s < waiting.size(); ++s) {
    if (waiting[s] > max) {
      max = waiting[s];
      donor = static_cast<std::uint32_t>(s);
    }
    sum += waiting[s];
  }
  if (waiting.empty()) return {0, 0};
  const auto avg = static_cast<std::uint32_t>(sum / waiting.size());
  return {donor, max - avg};
}

}  // namespace gputlm::control::paver
