// Level-synchronous breadth-first search on an undirected graph in CSR form (R-MAT, or the
// input `graph` names: graph_file.h), one kernel launch per level and one thread per vertex
// (Harish & Narayanan, HiPC'07; the Rodinia bfs pattern with a level array): a thread whose
// vertex is on the frontier (levels[v] == cur) walks its neighbours, and each unvisited
// neighbour gets level cur + 1 and sets the host's `changed` flag. The host resets the flag
// (MemcpyHtoD) before every level and stops after a level that changed nothing.
//
// bfs_cdp / bfs_dtbl (Wang's thesis, ch. 3-4): a frontier vertex with degree >= threshold
// does not walk its neighbours itself; it launches a child (a CDP kernel, or a DTBL
// aggregated group) of ceil(degree / child_block) TBs, one thread per neighbour. A DTBL group
// is code of the level kernel's own function (a branch on its parameters), with the level
// kernel's TB shape, and coalesces into it (the thesis' Fig. 12a pattern).
//
// Execution order on the CPU: TBs in linear order, warps in order, each warp instruction for
// all its lanes before the next (a load sees the stores of earlier warps and instructions);
// a level's children run after their parent grid, in launch order. Levels, and so the
// frontier of each launch, do not depend on this order; only which redundant stores happen.
#include "traces/generators/device_launch.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct bfs_memory {
  std::uint64_t row_ptr, col, levels, changed;
};

struct pending_child {
  std::uint32_t id, start, count;
  dim3 grid;
};

void generate_bfs(const param_set& ps, app_builder& app, launch_mode mode) {
  const csr_graph g = kernel_graph(ps);
  const std::uint32_t n = g.vertices;
  const std::uint32_t source = ps.u32("source");
  if (source >= n) param_set::fail("source", "must be below the vertex count " + std::to_string(n));
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);

  bfs_memory mem{};
  mem.row_ptr = app.input(4ull * (n + 1));
  mem.col = app.input(4ull * std::max<std::size_t>(g.col.size(), 1));
  mem.levels = app.input(4ull * n);
  mem.changed = app.input(4);
  std::vector<std::int32_t> level(n, -1);
  level[source] = 0;

  // ---- parent (per-level) kernel ----
  program p(app.opcodes(), 25);
  auto m = p.here();
  p.global_index_1d();  // R3 = v
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_level = p.address(4, 3, rz);
  const code ld_level = p.ld_global(6, 4, 4);
  const code cmp_cur = p.isetp("NE", 6, rz);
  const code exit_idle = p.exit();  // not on the frontier
  const code addr_row = p.address(8, 3, rz);
  const code ld_start = p.ld_global(10, 8, 4);
  const code ld_end = p.ld_global(11, 8, 4);  // [R8 + 0x4]
  const code cmp_empty = p.isetp("GE", 10, 11);
  const code exit_empty = p.exit();
  code cmp_thr{}, split{}, bra_small{}, bra_join{}, join{};
  std::unique_ptr<launch_site> site;
  if (mode != launch_mode::flat) {
    m = p.here();
    p.iadd(13, 11, 10);  // degree = end - start
    p.isetp("LT", 13, rz);
    cmp_thr = p.since(m);
    split = p.reconverge_begin();
    bra_small = p.bra();
    site = std::make_unique<launch_site>(p, mode, 24, 10, 13);
    bra_join = p.bra();
  }
  m = p.here();
  p.mov(12);  // cur + 1
  p.mov(22);  // &changed
  p.mov(21);  // 1
  const code loop_init = p.since(m);
  const code addr_col = p.address(14, 10, rz);
  const code ld_col = p.ld_global(16, 14, 4);
  const code addr_nbr = p.address(18, 16, rz);
  const code ld_nbr = p.ld_global(20, 18, 4);
  const code cmp_visited = p.isetp("NE", 20, rz);
  const code st_level = p.st_global(18, 12, 4);    // @!P1
  const code st_changed = p.st_global(22, 21, 4);  // @!P1
  m = p.here();
  p.iadd(10, 10, rz);
  p.isetp("LT", 10, 11);
  const code step = p.since(m);
  const code back = p.bra();
  if (mode != launch_mode::flat) join = p.reconverge_end();
  const code done = p.exit();
  p.bra();

  // ---- child: one thread per neighbour of one vertex ----
  program cp(app.opcodes(), 15);
  const child_start entry = child_prologue(cp);
  const code c_head = entry.head, c_exit_oob = entry.exit_oob;
  const child_edge c_edge = child_edge_load(cp);
  const code c_addr_col = c_edge.addr_col, c_ld_col = c_edge.ld_col;
  const code c_addr_nbr = cp.address(10, 8, rz);
  const code c_ld_nbr = cp.ld_global(12, 10, 4);
  m = cp.here();
  cp.isetp("NE", 12, rz);
  cp.mov(13);
  cp.mov(14);
  cp.mov(16);
  const code c_cmp = cp.since(m);
  const code c_st_level = cp.st_global(10, 13, 4);
  const code c_st_changed = cp.st_global(16, 14, 4);
  const code c_done = cp.exit();
  cp.bra();

  const char* parent_name = mode == launch_mode::flat  ? "_Z9bfs_levelPKjS0_Piij"
                            : mode == launch_mode::cdp ? "_Z13bfs_cdp_levelPKjS0_Piij"
                                                       : "_Z14bfs_dtbl_levelPKjS0_Piij";
  // A DTBL group runs the level kernel's own function (its group path), so it coalesces
  // into the running level kernel.
  const char* child_name = child_function(ps, mode, parent_name, "_Z13bfs_cdp_childPKjPijjPi",
                                          "_Z14bfs_dtbl_childPKjPijjPi");
  const std::uint32_t grid = (n + block - 1) / block;

  for (std::int32_t cur = 0;; ++cur) {
    if (cur > 0) app.memcpy_h2d(mem.changed, 4);  // changed = 0
    bool changed = false;
    std::vector<pending_child> children;
    const kernel_info info =
        app.kernel(parent_name, app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);

    // The neighbour loop of the lanes in `lanes`, from e[l] to end[l].
    auto walk = [&](warp_emitter& e, std::uint32_t lanes, std::array<std::uint32_t, 32> edge,
                    const std::array<std::uint32_t, 32>& end) {
      e.run(loop_init, lanes);
      std::uint32_t act = lanes;
      while (act != 0) {
        std::array<std::uint32_t, 32> u{};
        std::uint32_t unvisited = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (act >> l & 1u) {
            u[l] = g.col[edge[l]];
            if (level[u[l]] == -1) unvisited |= 1u << l;
          }
        e.run(addr_col, act);
        e.mem_fn(ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
        e.run(addr_nbr, act);
        e.mem_fn(ld_nbr, act, [&](unsigned l) { return mem.levels + 4ull * u[l]; });
        e.run(cmp_visited, act);
        e.mem_fn(st_level, unvisited, [&](unsigned l) { return mem.levels + 4ull * u[l]; });
        e.mem_fn(st_changed, unvisited, [&](unsigned) { return mem.changed; });
        for (unsigned l = 0; l < 32; ++l)
          if (unvisited >> l & 1u) level[u[l]] = cur + 1;
        changed = changed || unvisited != 0;
        e.run(step, act);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((act >> l & 1u) && ++edge[l] < end[l]) next |= 1u << l;
        e.run(back, next);
        act = next;
      }
    };

    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        std::array<std::uint32_t, 32> v{}, start{}, end{};
        std::uint32_t act = 0, front = 0, nbr = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t vv = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          if (vv >= n) continue;
          v[l] = std::uint32_t(vv);
          act |= 1u << l;
          if (level[v[l]] != cur) continue;
          front |= 1u << l;
          start[l] = g.row_ptr[v[l]];
          end[l] = g.row_ptr[v[l] + 1];
          if (end[l] > start[l]) nbr |= 1u << l;
        }
        e.run(head, lanes.live);
        e.run(exit_oob, lanes.live & ~act);
        e.run(addr_level, act);
        e.mem_fn(ld_level, act, [&](unsigned l) { return mem.levels + 4ull * v[l]; });
        e.run(cmp_cur, act);
        e.run(exit_idle, act & ~front);
        e.run(addr_row, front);
        e.mem_fn(ld_start, front, [&](unsigned l) { return mem.row_ptr + 4ull * v[l]; });
        e.mem_fn(ld_end, front, [&](unsigned l) { return mem.row_ptr + 4ull * v[l] + 4; });
        e.run(cmp_empty, front);
        e.run(exit_empty, front & ~nbr);
        if (mode == launch_mode::flat) {
          walk(e, nbr, start, end);
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
          children.push_back({what[l].child_kernel, start[l], count, what[l].grid});
        }
        site->emit(e, big, what);
        e.run(bra_join, big);
        walk(e, small, start, end);
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
          std::array<std::uint32_t, 32> edge{}, u{};
          std::uint32_t act = 0, unvisited = 0;
          for (unsigned l = 0; l < 32; ++l) {
            if (!(lanes.live >> l & 1u)) continue;
            const std::uint64_t i = std::uint64_t(tb.index.x) * child_block + lanes.flat[l];
            if (i >= c.count) continue;
            act |= 1u << l;
            edge[l] = c.start + std::uint32_t(i);
            u[l] = g.col[edge[l]];
            if (level[u[l]] == -1) unvisited |= 1u << l;
          }
          e.run(c_head, lanes.live);
          e.run(c_exit_oob, lanes.live & ~act);
          e.run(c_addr_col, act);
          e.mem_fn(c_ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
          e.run(c_addr_nbr, act);
          e.mem_fn(c_ld_nbr, act, [&](unsigned l) { return mem.levels + 4ull * u[l]; });
          e.run(c_cmp, act);
          e.mem_fn(c_st_level, unvisited, [&](unsigned l) { return mem.levels + 4ull * u[l]; });
          e.mem_fn(c_st_changed, unvisited, [&](unsigned) { return mem.changed; });
          for (unsigned l = 0; l < 32; ++l)
            if (unvisited >> l & 1u) level[u[l]] = cur + 1;
          changed = changed || unvisited != 0;
          e.run(c_done, act);
        }
      });
    }
    if (!changed) break;
  }
}

std::vector<param_desc> bfs_params() { return graph_search_params("level kernel"); }

}  // namespace

kernel_generator bfs_generator() {
  return launch_form(
      "bfs", "level-synchronous BFS on a graph (R-MAT), one launch per level, thread per vertex",
      bfs_params(), generate_bfs, launch_mode::flat);
}

kernel_generator bfs_cdp_generator() {
  return launch_form(
      "bfs_cdp", "BFS with CDP: a frontier vertex of degree >= threshold launches a child kernel",
      bfs_params(), generate_bfs, launch_mode::cdp);
}

kernel_generator bfs_dtbl_generator() {
  return launch_form(
      "bfs_dtbl",
      "BFS with DTBL: a frontier vertex of degree >= threshold launches an aggregated group",
      bfs_params(), generate_bfs, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
