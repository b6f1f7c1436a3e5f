// B+ tree search of Rodinia b+tree (cuda/b+tree: kernel/kernel_gpu_cuda.cu `findK`, the
// `k` command), the BTR benchmark of Tripathy's PAVER study. The host builds the tree as
// b+tree.c does: keys 0 .. records-1 inserted in ascending order (Rodinia's mil.txt holds
// 0 .. 999999; its tree has 7874 knodes), insert() with Rodinia's leaf split at cut(order - 1)
// and internal split at cut(order), then transform_to_cuda() lays the nodes out breadth-first
// as `knode` structs (int location; int indices[order + 1]; int keys[order + 1]; bool is_leaf;
// int num_keys: 8·order + 20 bytes) with keys[0] = INT_MIN, the node's keys, INT_MAX after
// them, and the records in leaf order. findK runs one TB of `order` threads per query key
// (rng(seed).below(records) here; Rodinia's rand() / RAND_MAX * size): per tree level every
// thread loads currKnodeD[bid], knodes[curr].keys[thid] and keysD[bid]; threads whose key is
// <= the query also load keys[thid + 1]; the one thread whose interval holds the query loads
// offsetD[bid] and knodes[offset].indices[thid] and stores offsetD[bid]; BAR.SYNC; thread 0
// copies offsetD[bid] to currKnodeD[bid]; BAR.SYNC. At the leaf every thread loads its key, and
// the thread holding the query key loads indices[thid] and the record and stores ansD[bid].
// Every query reads the root and the upper levels: the inter-TB sharing.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
// Rodinia's b+tree (b+tree.c), insertion only, with node ids instead of pointers.
class bplus_tree {
 public:
  struct node {
    bool leaf = false;
    std::int64_t parent = -1;
    std::vector<std::int32_t> keys;
    std::vector<std::uint32_t> ptrs;  // internal: children (keys + 1); leaf: record values
  };

  explicit bplus_tree(std::uint32_t order) : m_order(order) {}

  const std::vector<node>& nodes() const { return m_nodes; }
  std::uint32_t root() const { return m_root; }

  // insert(): duplicates ignored.
  void insert(std::int32_t key, std::uint32_t value) {
    if (m_nodes.empty()) {
      m_nodes.push_back(node{true, -1, {key}, {value}});
      m_root = 0;
      return;
    }
    const std::uint32_t leaf = find_leaf(key);
    node& n = m_nodes[leaf];
    const auto at = std::lower_bound(n.keys.begin(), n.keys.end(), key);
    if (at != n.keys.end() && *at == key) return;
    const auto i = std::size_t(at - n.keys.begin());
    if (n.keys.size() < m_order - 1) {  // insert_into_leaf
      n.keys.insert(n.keys.begin() + std::ptrdiff_t(i), key);
      n.ptrs.insert(n.ptrs.begin() + std::ptrdiff_t(i), value);
      return;
    }
    // insert_into_leaf_after_splitting: order keys, the first cut(order - 1) stay.
    std::vector<std::int32_t> keys = n.keys;
    std::vector<std::uint32_t> ptrs = n.ptrs;
    keys.insert(keys.begin() + std::ptrdiff_t(i), key);
    ptrs.insert(ptrs.begin() + std::ptrdiff_t(i), value);
    const std::size_t split = cut(m_order - 1);
    node right{true,
               n.parent,
               {keys.begin() + std::ptrdiff_t(split), keys.end()},
               {ptrs.begin() + std::ptrdiff_t(split), ptrs.end()}};
    keys.resize(split);
    ptrs.resize(split);
    m_nodes[leaf].keys = std::move(keys);
    m_nodes[leaf].ptrs = std::move(ptrs);
    const std::int32_t new_key = right.keys[0];
    m_nodes.push_back(std::move(right));
    insert_into_parent(leaf, new_key, std::uint32_t(m_nodes.size() - 1));
  }

  // find_leaf(): at each internal node the child after the keys <= key.
  std::uint32_t find_leaf(std::int32_t key) const {
    std::uint32_t c = m_root;
    while (!m_nodes[c].leaf) {
      const auto& k = m_nodes[c].keys;
      c = m_nodes[c].ptrs[std::size_t(std::upper_bound(k.begin(), k.end(), key) - k.begin())];
    }
    return c;
  }

  // Edges from the root to the leaves (height()).
  std::uint32_t height() const {
    std::uint32_t h = 0;
    for (std::uint32_t c = m_root; !m_nodes[c].leaf; c = m_nodes[c].ptrs[0]) ++h;
    return h;
  }

 private:
  static std::size_t cut(std::size_t length) { return (length + 1) / 2; }

  void insert_into_parent(std::uint32_t left, std::int32_t key, std::uint32_t right) {
    const std::int64_t parent = m_nodes[left].parent;
    if (parent < 0) {  // insert_into_new_root
      m_nodes.push_back(node{false, -1, {key}, {left, right}});
      m_root = std::uint32_t(m_nodes.size() - 1);
      m_nodes[left].parent = m_nodes[right].parent = m_root;
      return;
    }
    const auto p = std::uint32_t(parent);
    auto& pp = m_nodes[p].ptrs;
    const auto left_index = std::size_t(std::find(pp.begin(), pp.end(), left) - pp.begin());
    if (m_nodes[p].keys.size() < m_order - 1) {  // insert_into_node
      m_nodes[p].keys.insert(m_nodes[p].keys.begin() + std::ptrdiff_t(left_index), key);
      pp.insert(pp.begin() + std::ptrdiff_t(left_index + 1), right);
      m_nodes[right].parent = p;
      return;
    }
    // insert_into_node_after_splitting: order keys, order + 1 pointers; the old node keeps
    // cut(order) - 1 keys, k_prime = keys[cut(order) - 1] goes up.
    std::vector<std::int32_t> keys = m_nodes[p].keys;
    std::vector<std::uint32_t> ptrs = pp;
    keys.insert(keys.begin() + std::ptrdiff_t(left_index), key);
    ptrs.insert(ptrs.begin() + std::ptrdiff_t(left_index + 1), right);
    m_nodes[right].parent = p;
    const std::size_t split = cut(m_order);
    const std::int32_t k_prime = keys[split - 1];
    node fresh{false,
               m_nodes[p].parent,
               {keys.begin() + std::ptrdiff_t(split), keys.end()},
               {ptrs.begin() + std::ptrdiff_t(split), ptrs.end()}};
    keys.resize(split - 1);
    ptrs.resize(split);
    m_nodes[p].keys = std::move(keys);
    m_nodes[p].ptrs = std::move(ptrs);
    const auto id = std::uint32_t(m_nodes.size());
    for (std::uint32_t child : fresh.ptrs) m_nodes[child].parent = id;
    m_nodes.push_back(std::move(fresh));
    insert_into_parent(p, k_prime, id);
  }

  std::uint32_t m_order;
  std::uint32_t m_root = 0;
  std::vector<node> m_nodes;
};

void generate_btree(const param_set& ps, app_builder& app) {
  const std::uint32_t records = ps.u32("records"), queries = ps.u32("queries");
  const std::uint32_t order = ps.u32("order");
  const std::uint32_t threads = std::min<std::uint32_t>(order, 1024);

  bplus_tree tree(order);
  for (std::uint32_t k = 0; k < records; ++k) tree.insert(std::int32_t(k), k);
  const auto& nodes = tree.nodes();
  const std::uint32_t height = tree.height();
  // transform_to_cuda(): knode ids breadth-first from the root, records in leaf order.
  std::vector<std::uint32_t> bfs{tree.root()}, knode_of(nodes.size()), first_record(nodes.size());
  std::uint32_t next_record = 0;
  for (std::size_t q = 0; q < bfs.size(); ++q) {
    const auto& n = nodes[bfs[q]];
    knode_of[bfs[q]] = std::uint32_t(q);
    if (n.leaf) {
      first_record[bfs[q]] = next_record;
      next_record += std::uint32_t(n.keys.size());
    } else {
      bfs.insert(bfs.end(), n.ptrs.begin(), n.ptrs.end());
    }
  }
  const std::uint64_t knodes_elem = bfs.size();
  const std::uint64_t knode_bytes = 4 + 8ull * (order + 1) + 4 + 4;
  const std::uint64_t indices_off = 4, keys_off = 4 + 4ull * (order + 1);

  rng r(ps.u64("seed"));
  std::vector<std::int32_t> query(queries);
  for (auto& q : query) q = std::int32_t(r.below(records));

  // kernel_gpu_cuda_wrapper's cudaMallocs and copies.
  const std::uint64_t records_d = app.input(4ull * records);
  const std::uint64_t knodes_d = app.input(knodes_elem * knode_bytes);
  const std::uint64_t curr_d = app.input(8ull * queries);
  const std::uint64_t offset_d = app.input(8ull * queries);
  const std::uint64_t keys_d = app.input(4ull * queries);
  const std::uint64_t ans_d = app.input(4ull * queries);

  program p(app.opcodes(), 32);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.mov(3);              // height
  p.address(4, 2, rz);   // &currKnodeD[bid]
  p.address(6, 2, rz);   // &offsetD[bid]
  p.address(8, 2, rz);   // &keysD[bid]
  p.mov(10);             // i = 0
  p.isetp("LT", 3, rz);  // height < 1
  const code head = p.since(m);
  const code skip_loop = p.bra();
  const code ld_curr = p.ld_global(12, 4, 8);
  m = p.here();
  p.address(14, 12, rz);  // &knodesD[curr]
  p.address(16, 0, 14);   // + thid * 4
  const code node_addr = p.since(m);
  const code ld_key = p.ld_global(18, 16, 4);   // keys[thid]
  const code ld_query = p.ld_global(19, 8, 4);  // keysD[bid]
  const code split = p.reconverge_begin();
  const code cmp_low = p.isetp("GT", 18, 19);
  const code bra_low = p.bra();                     // keys[thid] > key
  const code ld_key_next = p.ld_global(20, 16, 4);  // keys[thid + 1]
  const code cmp_high = p.isetp("LE", 20, 19);
  const code bra_high = p.bra();  // keys[thid + 1] <= key
  const code ld_offset = p.ld_global(22, 6, 8);
  m = p.here();
  p.address(24, 22, rz);  // &knodesD[offsetD[bid]]
  p.address(26, 0, 24);
  const code index_addr = p.since(m);
  const code ld_index = p.ld_global(28, 26, 4);  // indices[thid]
  m = p.here();
  p.isetp("GE", 28, rz);  // < knodes_elem
  p.raw(p.family() == isa_family::volta ? "SHF.R.S32.HI" : "SHR", {29}, {28});
  const code check = p.since(m);
  const code st_offset = p.st_global(6, 28, 8);
  const code join = p.reconverge_end();
  const code bar_level = p.bar_sync();
  const code cmp_t0 = p.isetp("NE", 0, rz);
  const code bra_t0 = p.bra();
  const code ld_offset_t0 = p.ld_global(30, 6, 8);
  const code st_curr = p.st_global(4, 30, 8);
  const code bar_next = p.bar_sync();
  m = p.here();
  p.iadd(10, 10, rz);
  p.isetp("LT", 10, 3);
  const code step = p.since(m);
  const code back = p.bra();
  const code ld_curr_leaf = p.ld_global(12, 4, 8);
  m = p.here();
  p.address(14, 12, rz);
  p.address(16, 0, 14);
  const code leaf_addr = p.since(m);
  const code ld_key_leaf = p.ld_global(18, 16, 4);
  const code ld_query_leaf = p.ld_global(19, 8, 4);
  const code cmp_leaf = p.isetp("NE", 18, 19);
  const code exit_miss = p.exit();
  const code ld_record_index = p.ld_global(20, 16, 4);  // indices[thid]
  const code record_addr = p.address(22, 20, rz);
  const code ld_record = p.ld_global(24, 22, 4);
  const code ans_addr = p.address(26, 2, rz);
  const code st_ans = p.st_global(26, 24, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z5findKlP5knodelP6recordPlS3_PiS2_", app.reserve_kernel_id(),
                 dim3{queries, 1, 1}, dim3{threads, 1, 1}, 0, p);
  // Per level: (knode, the thread whose interval holds the key).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path;
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint32_t bid = tb.index.x;
    const std::int32_t key = query[bid];
    path.clear();
    std::uint32_t c = tree.root();
    while (!nodes[c].leaf) {
      const auto& k = nodes[c].keys;
      const auto slot = std::uint32_t(std::upper_bound(k.begin(), k.end(), key) - k.begin());
      path.emplace_back(knode_of[c], slot);
      c = nodes[c].ptrs[slot];
    }
    const auto& leaf = nodes[c];
    const auto at = std::lower_bound(leaf.keys.begin(), leaf.keys.end(), key);
    const bool found = at != leaf.keys.end() && *at == key;
    const auto slot = std::uint32_t(at - leaf.keys.begin()) + 1;  // keys[0] is INT_MIN
    const std::uint64_t record = first_record[c] + slot - 1;
    const std::uint64_t leaf_base = knodes_d + knode_of[c] * knode_bytes;

    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      // Lanes of threads tid <= t (tid == t): masks for a thread index.
      auto up_to = [&](std::uint64_t t) {
        std::uint32_t mask = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && lanes.flat[l] <= t) mask |= 1u << l;
        return mask;
      };
      auto only = [&](std::uint64_t t) { return up_to(t) & ~(t == 0 ? 0u : up_to(t - 1)); };
      auto word = [](std::uint64_t a) { return [a](unsigned) { return a; }; };
      auto field = [&](std::uint64_t node_base, std::uint64_t off) {
        return [&, node_base, off](unsigned l) { return node_base + off + 4ull * lanes.flat[l]; };
      };
      e.run(head, live);
      e.run(skip_loop, height == 0 ? live : 0u);
      for (std::size_t level = 0; level < path.size(); ++level) {
        const std::uint64_t base = knodes_d + path[level].first * knode_bytes;
        const std::uint32_t t = path[level].second;
        const std::uint32_t low = up_to(t), match = only(t), t0 = only(0);
        e.mem_fn(ld_curr, live, word(curr_d + 8ull * bid));
        e.run(node_addr, live);
        e.mem_fn(ld_key, live, field(base, keys_off));
        e.mem_fn(ld_query, live, word(keys_d + 4ull * bid));
        e.run(split, live);
        e.run(cmp_low, live);
        e.run(bra_low, live & ~low);
        e.mem_fn(ld_key_next, low, field(base, keys_off + 4));
        e.run(cmp_high, low);
        e.run(bra_high, low & ~match);
        e.mem_fn(ld_offset, match, word(offset_d + 8ull * bid));
        e.run(index_addr, match);
        e.mem_fn(ld_index, match, field(base, indices_off));
        e.run(check, match);
        e.mem_fn(st_offset, match, word(offset_d + 8ull * bid));
        e.run(join, live);
        e.run(bar_level, live);
        e.run(cmp_t0, live);
        e.run(bra_t0, live & ~t0);
        e.mem_fn(ld_offset_t0, t0, word(offset_d + 8ull * bid));
        e.mem_fn(st_curr, t0, word(curr_d + 8ull * bid));
        e.run(bar_next, live);
        e.run(step, live);
        e.run(back, level + 1 < path.size() ? live : 0u);
      }
      const std::uint32_t hit = found ? only(slot) : 0u;
      e.mem_fn(ld_curr_leaf, live, word(curr_d + 8ull * bid));
      e.run(leaf_addr, live);
      e.mem_fn(ld_key_leaf, live, field(leaf_base, keys_off));
      e.mem_fn(ld_query_leaf, live, word(keys_d + 4ull * bid));
      e.run(cmp_leaf, live);
      e.run(exit_miss, live & ~hit);
      e.mem_fn(ld_record_index, hit, word(leaf_base + indices_off + 4ull * slot));
      e.run(record_addr, hit);
      e.mem_fn(ld_record, hit, word(records_d + 4 * record));
      e.run(ans_addr, hit);
      e.mem_fn(st_ans, hit, word(ans_d + 4ull * bid));
      e.run(done, hit);
    }
  });
}
}  // namespace

kernel_generator btree_generator() {
  return {"btree",
          "Rodinia b+tree findK: a TB of `order` threads per query walks the B+ tree level by "
          "level (every query reads the root and upper levels; PAVER BTR)",
          {param_desc::integer(
               "records", 1000000, 1, 1u << 24,
               "keys 0 .. records-1 inserted in order (Rodinia's mil.txt and the thesis: 1000000)"),
           param_desc::integer("queries", 10000, 1, 65535,
                               "query keys = TBs (Rodinia's command.txt and the thesis: 10000)"),
           param_desc::integer("order", 256, 3, 1024,
                               "tree order (DEFAULT_ORDER); threads per TB = order"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the query keys")},
          generate_btree};
}

}  // namespace gputlm::traces::generators
