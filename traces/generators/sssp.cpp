// Single-source shortest paths by iterative Bellman-Ford relaxation on a weighted graph in
// CSR form (R-MAT, or the input `graph` names: graph_file.h; the frontier-based GPU SSSP of
// Harish & Narayanan, HiPC'07, with one atomicMin kernel; Wang's thesis, ch. 3, "SSSP"): one
// host launch per iteration, one thread per vertex.
// A thread whose vertex is on the frontier (mask[v] != 0, set when dist[v] dropped in the
// previous iteration) clears mask[v], reads d = dist[v], and for each out-edge (u, w) does
// old = atomicMin(&dist[u], d + w); if d + w < old, it marks next_mask[u] and sets the host's
// `changed` flag. The host resets `changed` (MemcpyHtoD) before every iteration, swaps mask and
// next_mask (pointers only: every marked entry of mask was cleared by its thread), and stops
// after an iteration that changed nothing. Edge weights are uniform in [1, max_weight].
//
// sssp_cdp / sssp_dtbl (thesis ch. 3-4): a frontier vertex with degree >= threshold launches a
// child (CDP kernel, or DTBL aggregated group in the iteration kernel's own function and TB
// shape) of one thread per out-edge, with parameters (start, degree, d); each child thread
// does the relaxation of its edge.
//
// Execution order on the CPU as in bfs.cpp: TBs in order, warps in order, a warp instruction
// for all its lanes (in lane order, atomics too) before the next; an iteration's children run
// after its kernel, in launch order. Final distances do not depend on this order.
#include "traces/generators/device_launch.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t infinity = 0x7fffffff;  // INT_MAX, dist[] is int

struct sssp_memory {
  std::uint64_t row_ptr, col, weight, dist, mask[2], changed;
};

struct pending_child {
  std::uint32_t id, start, count, d;
  dim3 grid;
};

// The relaxation state of one iteration: dist (device values in execution order), the next
// frontier and whether anything changed.
struct relax_state {
  std::vector<std::uint32_t>& dist;
  std::vector<std::uint8_t>& next;
  bool changed = false;

  // atomicMin of one warp instruction, lanes in order; returns the lanes that improved.
  std::uint32_t relax(std::uint32_t act, const std::array<std::uint32_t, 32>& u,
                      const std::array<std::uint32_t, 32>& alt) {
    std::uint32_t improved = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((act >> l & 1u) && alt[l] < dist[u[l]]) {
        dist[u[l]] = alt[l];
        improved |= 1u << l;
      }
    for (unsigned l = 0; l < 32; ++l)
      if (improved >> l & 1u) next[u[l]] = 1;
    changed = changed || improved != 0;
    return improved;
  }
};

void generate_sssp(const param_set& ps, app_builder& app, launch_mode mode) {
  const csr_graph g = kernel_graph(ps);
  const std::vector<std::uint32_t> weight =
      make_uniform_range(g.col.size(), ps.u32("max_weight"), ps.u64("seed") + 1);
  const std::uint32_t n = g.vertices;
  const std::uint32_t source = ps.u32("source");
  if (source >= n) param_set::fail("source", "must be below the vertex count " + std::to_string(n));
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);

  sssp_memory mem{};
  mem.row_ptr = app.input(4ull * (n + 1));
  mem.col = app.input(4ull * std::max<std::size_t>(g.col.size(), 1));
  mem.weight = app.input(4ull * std::max<std::size_t>(g.col.size(), 1));
  mem.dist = app.input(4ull * n);
  mem.mask[0] = app.input(4ull * n);
  mem.mask[1] = app.input(4ull * n);
  mem.changed = app.input(4);
  std::vector<std::uint32_t> dist(n, infinity);
  std::vector<std::uint8_t> mask(n, 0), next(n, 0);
  dist[source] = 0;
  mask[source] = 1;

  // ---- parent (per-iteration) kernel ----
  program p(app.opcodes(), 35);
  auto m = p.here();
  p.global_index_1d();  // R3 = v
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_mask = p.address(4, 3, rz);
  const code ld_mask = p.ld_global(6, 4, 4);
  m = p.here();
  p.isetp("EQ", 6, rz);
  p.mov(7);  // 0
  const code cmp_mask = p.since(m);
  const code exit_idle = p.exit();  // not on the frontier
  const code st_mask = p.st_global(4, 7, 4);
  const code addr_dist = p.address(8, 3, rz);
  const code ld_dist = p.ld_global(10, 8, 4);
  const code addr_row = p.address(14, 3, rz);
  const code ld_start = p.ld_global(16, 14, 4);
  const code ld_end = p.ld_global(17, 14, 4);  // [R14 + 0x4]
  const code cmp_empty = p.isetp("GE", 16, 17);
  const code exit_empty = p.exit();
  code cmp_thr{}, split{}, bra_small{}, bra_join{}, join{};
  std::unique_ptr<launch_site> site;
  if (mode != launch_mode::flat) {
    m = p.here();
    p.iadd(13, 17, 16);  // degree = end - start
    p.isetp("LT", 13, rz);
    cmp_thr = p.since(m);
    split = p.reconverge_begin();
    bra_small = p.bra();
    site = std::make_unique<launch_site>(p, mode, 24, 16, 10);  // (start, degree), d
    bra_join = p.bra();
  }
  m = p.here();
  p.mov(22);  // &changed
  p.mov(21);  // 1
  const code loop_init = p.since(m);
  const code addr_col = p.address(18, 16, rz);
  const code ld_col = p.ld_global(20, 18, 4);
  const code addr_w = p.address(26, 16, rz);
  const code ld_w = p.ld_global(28, 26, 4);
  m = p.here();
  p.iadd(29, 10, 28);  // alt = d + w
  p.address(18, 20, rz);
  const code alt = p.since(m);
  const code atom_min = p.atom("MIN.S32", 30, 18, 29);
  m = p.here();
  p.isetp("GE", 29, 30);
  p.address(32, 20, rz);  // @!P0
  const code cmp_improved = p.since(m);
  const code st_next = p.st_global(32, 21, 4);     // @!P0
  const code st_changed = p.st_global(22, 21, 4);  // @!P0
  m = p.here();
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, 17);
  const code step = p.since(m);
  const code back = p.bra();
  if (mode != launch_mode::flat) join = p.reconverge_end();
  const code done = p.exit();
  p.bra();

  // ---- child: one thread per out-edge of one vertex ----
  program cp(app.opcodes(), 27);
  const child_start entry = child_prologue(cp);
  const code c_head = entry.head, c_exit_oob = entry.exit_oob;
  const child_edge c_edge = child_edge_load(cp);
  const code c_addr_col = c_edge.addr_col, c_ld_col = c_edge.ld_col;
  const code c_addr_w = cp.address(10, 5, rz);
  const code c_ld_w = cp.ld_global(12, 10, 4);
  m = cp.here();
  cp.mov(13);  // d
  cp.iadd(14, 13, 12);
  cp.address(16, 8, rz);
  const code c_alt = cp.since(m);
  const code c_atom = cp.atom("MIN.S32", 18, 16, 14);
  m = cp.here();
  cp.isetp("GE", 14, 18);
  cp.address(20, 8, rz);
  cp.mov(22);  // 1
  cp.mov(24);  // &changed
  const code c_cmp = cp.since(m);
  const code c_st_next = cp.st_global(20, 22, 4);
  const code c_st_changed = cp.st_global(24, 22, 4);
  const code c_done = cp.exit();
  cp.bra();

  const char* parent_name = mode == launch_mode::flat  ? "_Z10sssp_relaxPKjS0_S0_PiS1_S1_S1_j"
                            : mode == launch_mode::cdp ? "_Z14sssp_cdp_relaxPKjS0_S0_PiS1_S1_S1_j"
                                                       : "_Z15sssp_dtbl_relaxPKjS0_S0_PiS1_S1_S1_j";
  const char* child_name =
      child_function(ps, mode, parent_name, "_Z14sssp_cdp_childPKjS0_PiS1_S1_jjj",
                     "_Z15sssp_dtbl_childPKjS0_PiS1_S1_jjj");
  const std::uint32_t grid = (n + block - 1) / block;

  for (unsigned iter = 0;; ++iter) {
    if (iter > 0) app.memcpy_h2d(mem.changed, 4);  // changed = 0
    const std::uint64_t mask_addr = mem.mask[iter % 2], next_addr = mem.mask[(iter + 1) % 2];
    relax_state st{dist, next};
    std::vector<pending_child> children;
    const kernel_info info =
        app.kernel(parent_name, app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);

    auto relax_edges = [&](warp_emitter& e, std::uint32_t act,
                           const std::array<std::uint32_t, 32>& edge,
                           const std::array<std::uint32_t, 32>& d) {
      std::array<std::uint32_t, 32> u{}, a{};
      for (unsigned l = 0; l < 32; ++l)
        if (act >> l & 1u) {
          u[l] = g.col[edge[l]];
          a[l] = d[l] + weight[edge[l]];
        }
      e.mem_fn(ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
      e.run(addr_w, act);
      e.mem_fn(ld_w, act, [&](unsigned l) { return mem.weight + 4ull * edge[l]; });
      e.run(alt, act);
      e.mem_fn(atom_min, act, [&](unsigned l) { return mem.dist + 4ull * u[l]; });
      const std::uint32_t imp = st.relax(act, u, a);
      e.run(cmp_improved, act);
      e.mem_fn(st_next, imp, [&](unsigned l) { return next_addr + 4ull * u[l]; });
      e.mem_fn(st_changed, imp, [&](unsigned) { return mem.changed; });
    };

    // The edge loop of the lanes in `lanes`, from e[l] to end[l].
    auto walk = [&](warp_emitter& e, std::uint32_t lanes, std::array<std::uint32_t, 32> edge,
                    const std::array<std::uint32_t, 32>& end,
                    const std::array<std::uint32_t, 32>& d) {
      e.run(loop_init, lanes);
      std::uint32_t act = lanes;
      while (act != 0) {
        e.run(addr_col, act);
        relax_edges(e, act, edge, d);
        e.run(step, act);
        std::uint32_t next_act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((act >> l & 1u) && ++edge[l] < end[l]) next_act |= 1u << l;
        e.run(back, next_act);
        act = next_act;
      }
    };

    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        std::array<std::uint32_t, 32> v{}, start{}, end{}, d{};
        std::uint32_t act = 0, front = 0, nbr = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t vv = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          if (vv >= n) continue;
          v[l] = std::uint32_t(vv);
          act |= 1u << l;
          if (mask[v[l]] == 0) continue;
          front |= 1u << l;
          mask[v[l]] = 0;
          start[l] = g.row_ptr[v[l]];
          end[l] = g.row_ptr[v[l] + 1];
          if (end[l] > start[l]) nbr |= 1u << l;
        }
        e.run(head, lanes.live);
        e.run(exit_oob, lanes.live & ~act);
        e.run(addr_mask, act);
        e.mem_fn(ld_mask, act, [&](unsigned l) { return mask_addr + 4ull * v[l]; });
        e.run(cmp_mask, act);
        e.run(exit_idle, act & ~front);
        e.mem_fn(st_mask, front, [&](unsigned l) { return mask_addr + 4ull * v[l]; });
        e.run(addr_dist, front);
        e.mem_fn(ld_dist, front, [&](unsigned l) { return mem.dist + 4ull * v[l]; });
        for (unsigned l = 0; l < 32; ++l)
          if (front >> l & 1u) d[l] = dist[v[l]];
        e.run(addr_row, front);
        e.mem_fn(ld_start, front, [&](unsigned l) { return mem.row_ptr + 4ull * v[l]; });
        e.mem_fn(ld_end, front, [&](unsigned l) { return mem.row_ptr + 4ull * v[l] + 4; });
        e.run(cmp_empty, front);
        e.run(exit_empty, front & ~nbr);
        if (mode == launch_mode::flat) {
          walk(e, nbr, start, end, d);
          e.run(done, nbr);
          continue;
        }
        std::uint32_t big = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((nbr >> l & 1u) && end[l] - start[l] >= threshold) big |= 1u << l;
        const std::uint32_t small = nbr & ~big;
        e.run(cmp_thr, nbr);
        e.run(split, nbr);
        e.run(bra_small, small);
        std::array<device_launch, 32> what{};
        for (unsigned l = 0; l < 32; ++l) {
          if (!(big >> l & 1u)) continue;
          const std::uint32_t count = end[l] - start[l];
          what[l] = child_grid(app, count, child_block);
          children.push_back({what[l].child_kernel, start[l], count, d[l], what[l].grid});
        }
        site->emit(e, big, what);
        e.run(bra_join, big);
        walk(e, small, start, end, d);
        e.run(join, nbr);
        e.run(done, nbr);
      }
    });

    for (const pending_child& c : children) {
      kernel_info ci = app.kernel(child_name, c.id, c.grid, dim3{child_block, 1, 1}, 0, cp);
      ci.device_launched = true;
      app.write_kernel(ci, [&](tb_trace& tb) {
        for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
          warp_emitter e(cp, tb.warps[w]);
          const warp_lanes lanes = lanes_of(ci.block, w);
          std::array<std::uint32_t, 32> edge{}, u{}, a{};
          std::uint32_t act = 0;
          for (unsigned l = 0; l < 32; ++l) {
            if (!(lanes.live >> l & 1u)) continue;
            const std::uint64_t i = std::uint64_t(tb.index.x) * child_block + lanes.flat[l];
            if (i >= c.count) continue;
            act |= 1u << l;
            edge[l] = c.start + std::uint32_t(i);
            u[l] = g.col[edge[l]];
            a[l] = c.d + weight[edge[l]];
          }
          e.run(c_head, lanes.live);
          e.run(c_exit_oob, lanes.live & ~act);
          e.run(c_addr_col, act);
          e.mem_fn(c_ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
          e.run(c_addr_w, act);
          e.mem_fn(c_ld_w, act, [&](unsigned l) { return mem.weight + 4ull * edge[l]; });
          e.run(c_alt, act);
          e.mem_fn(c_atom, act, [&](unsigned l) { return mem.dist + 4ull * u[l]; });
          const std::uint32_t imp = st.relax(act, u, a);
          e.run(c_cmp, act);
          e.mem_fn(c_st_next, imp, [&](unsigned l) { return next_addr + 4ull * u[l]; });
          e.mem_fn(c_st_changed, imp, [&](unsigned) { return mem.changed; });
          e.run(c_done, act);
        }
      });
    }
    if (!st.changed) break;
    std::swap(mask, next);  // next is all zero again: every frontier thread cleared its entry
  }
}

std::vector<param_desc> sssp_params() {
  std::vector<param_desc> p = {
      param_desc::integer("scale", 10, 1, 24, "2^scale vertices (generated graphs)"),
      param_desc::integer("degree", 8, 1, 64,
                          "edges generated per vertex (rmat, citation, banded)"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the graph and weights"),
      param_desc::integer("source", 0, 0, (1u << 24) - 1, "SSSP source vertex"),
      param_desc::integer("max_weight", 16, 1, 1u << 16, "edge weights uniform in [1, max_weight]"),
      param_desc::integer("block", 256, 32, 1024, "threads per TB of the iteration kernel")};
  for (param_desc& d : graph_params("graph", "rmat", "R-MAT")) p.push_back(std::move(d));
  return p;
}

}  // namespace

kernel_generator sssp_generator() {
  return launch_form(
      "sssp", "Bellman-Ford SSSP on a weighted graph (R-MAT), one launch per iteration, atomicMin",
      sssp_params(), generate_sssp, launch_mode::flat);
}

kernel_generator sssp_cdp_generator() {
  return launch_form(
      "sssp_cdp", "SSSP with CDP: a frontier vertex of degree >= threshold launches a child kernel",
      sssp_params(), generate_sssp, launch_mode::cdp);
}

kernel_generator sssp_dtbl_generator() {
  return launch_form(
      "sssp_dtbl",
      "SSSP with DTBL: a frontier vertex of degree >= threshold launches an aggregated group",
      sssp_params(), generate_sssp, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
