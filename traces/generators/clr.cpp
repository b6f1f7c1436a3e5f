// Jones-Plassmann graph colouring on an undirected graph in CSR form (R-MAT, or the input
// `graph` names: graph_file.h; Jones & Plassmann, SIAM J. Sci. Comput. 1993; the GPU form of
// Cohen & Castonguay, "Efficient graph matching and coloring on the GPU", GTC 2012; Wang's
// thesis, ch. 3, "CLR"): one host launch per round c = 0, 1, ..., one thread per vertex. Every
// vertex has a random value rand[v] (ties broken by vertex id). In round c a thread whose
// vertex is uncoloured (color[v] == -1) walks its neighbours; a neighbour competes if it is
// uncoloured or was coloured in this round (color[u] == -1 || color[u] == c, i.e. it was
// uncoloured when the round began), and the walk stops at the first competing neighbour that
// beats v (rand[u] > rand[v], or equal and u > v). If none does, v is the local maximum and
// takes colour c; otherwise the thread sets the host's `again` flag. The host resets `again`
// (MemcpyHtoD) before every round and stops after a round that left no vertex uncoloured.
//
// clr_cdp / clr_dtbl (thesis ch. 3-4): an uncoloured vertex with degree >= threshold clears
// beaten[v] and done[v] and launches a child (CDP kernel, or DTBL aggregated group in the
// round kernel's own function and TB shape) of one thread per neighbour. A child thread
// checks its neighbour and, if it competes and beats v, stores beaten[v] = 1; then
// __threadfence() and t = atomicAdd(&done[v], 1). The thread that sees t == degree - 1 is the
// last: it reads beaten[v] and writes color[v] = c if it is 0, else sets `again`. Children run
// within the round (before the next host launch), so every variant colours exactly the
// vertices the sequential Jones-Plassmann round c colours.
//
// Execution order on the CPU as in bfs.cpp; colours do not depend on it.
#include "traces/generators/device_launch.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t uncoloured = 0xffffffff;

struct clr_memory {
  std::uint64_t row_ptr, col, rand, color, again, beaten, done;
};

struct pending_child {
  std::uint32_t id, v, start, count;
  dim3 grid;
};

code membar(program& p) {
  return p.raw(p.family() == isa_family::volta ? "MEMBAR.SC.GPU" : "MEMBAR.GL", {}, {});
}

void generate_clr(const param_set& ps, app_builder& app, launch_mode mode) {
  const csr_graph g = kernel_graph(ps);
  const std::uint32_t n = g.vertices;
  const std::vector<std::uint32_t> rnd = make_uniform_u32(n, ps.u64("seed") + 1);
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);

  clr_memory mem{};
  mem.row_ptr = app.input(4ull * (n + 1));
  mem.col = app.input(4ull * std::max<std::size_t>(g.col.size(), 1));
  mem.rand = app.input(4ull * n);
  mem.color = app.input(4ull * n);
  mem.again = app.input(4);
  if (mode != launch_mode::flat) {
    mem.beaten = app.output(4ull * n);
    mem.done = app.output(4ull * n);
  }
  std::vector<std::uint32_t> color(n, uncoloured);
  auto beats = [&](std::uint32_t u, std::uint32_t v) {
    return rnd[u] > rnd[v] || (rnd[u] == rnd[v] && u > v);
  };

  // ---- parent (per-round) kernel ----
  program p(app.opcodes(), 35);
  auto m = p.here();
  p.global_index_1d();  // R3 = v
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_color = p.address(4, 3, rz);
  const code ld_color = p.ld_global(6, 4, 4);
  const code cmp_color = p.isetp("NE", 6, rz);
  const code exit_coloured = p.exit();
  const code addr_rand = p.address(8, 3, rz);
  const code ld_rand = p.ld_global(10, 8, 4);
  const code addr_row = p.address(14, 3, rz);
  const code ld_start = p.ld_global(16, 14, 4);
  const code ld_end = p.ld_global(17, 14, 4);  // [R14 + 0x4]
  code cmp_thr{}, split{}, bra_small{}, clear{}, st_beaten0{}, st_done0{}, bra_join{}, join{};
  std::unique_ptr<launch_site> site;
  if (mode != launch_mode::flat) {
    m = p.here();
    p.iadd(13, 17, 16);  // degree = end - start
    p.isetp("LT", 13, rz);
    cmp_thr = p.since(m);
    split = p.reconverge_begin();
    bra_small = p.bra();
    m = p.here();
    p.address(32, 3, rz);
    p.address(34, 3, rz);
    p.mov(7);  // 0
    clear = p.since(m);
    st_beaten0 = p.st_global(32, 7, 4);
    st_done0 = p.st_global(34, 7, 4);
    site = std::make_unique<launch_site>(p, mode, 24, 2, 16);  // (v, start), (count, rand)
    bra_join = p.bra();
  }
  m = p.here();
  p.mov(12);  // c
  p.mov(11);  // max = true
  p.isetp("GE", 16, 17);
  const code loop_init = p.since(m);
  const code skip = p.bra();
  const code addr_col = p.address(18, 16, rz);
  const code ld_col = p.ld_global(20, 18, 4);
  const code addr_ncolor = p.address(26, 20, rz);
  const code ld_ncolor = p.ld_global(28, 26, 4);
  m = p.here();
  p.isetp("EQ", 28, rz);
  p.isetp("EQ", 28, 12);
  p.address(30, 20, rz);  // @P0
  const code cmp_compete = p.since(m);
  const code ld_nrand = p.ld_global(29, 30, 4);  // @P0
  m = p.here();
  p.isetp("GT.U32", 29, 10);
  p.isetp("GT.U32", 20, 3);
  const code cmp_beats = p.since(m);
  const code brk = p.bra();  // @P1: max = false, break
  m = p.here();
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, 17);
  const code step = p.since(m);
  const code back = p.bra();
  const code cmp_max = p.isetp("NE", 11, rz);
  const code st_color = p.st_global(4, 12, 4);  // @P0
  m = p.here();
  p.mov(22);  // &again
  p.mov(21);  // 1
  const code again_init = p.since(m);
  const code st_again = p.st_global(22, 21, 4);  // @!P0
  if (mode != launch_mode::flat) join = p.reconverge_end();
  const code done = p.exit();
  p.bra();

  // ---- child: one thread per neighbour of one vertex ----
  program cp(app.opcodes(), 35);
  const child_start entry = child_prologue(cp);
  const code c_head = entry.head, c_exit_oob = entry.exit_oob;
  const child_edge c_edge = child_edge_load(cp);
  const code c_addr_col = c_edge.addr_col, c_ld_col = c_edge.ld_col;
  const code c_addr_ncolor = cp.address(10, 8, rz);
  const code c_ld_ncolor = cp.ld_global(12, 10, 4);
  m = cp.here();
  cp.mov(13);  // c
  cp.isetp("EQ", 12, rz);
  cp.isetp("EQ", 12, 13);
  cp.address(14, 8, rz);
  const code c_cmp_compete = cp.since(m);
  const code c_ld_nrand = cp.ld_global(16, 14, 4);
  m = cp.here();
  cp.mov(17);  // rand[v]
  cp.mov(19);  // v
  cp.isetp("GT.U32", 16, 17);
  cp.isetp("GT.U32", 8, 19);
  cp.address(20, 19, rz);  // &beaten[v]
  cp.mov(22);              // 1
  const code c_cmp_beats = cp.since(m);
  const code c_st_beaten = cp.st_global(20, 22, 4);  // @P1
  const code c_fence = membar(cp);
  const code c_addr_done = cp.address(24, 19, rz);
  const code c_atom = cp.atom("ADD", 26, 24, 22);
  m = cp.here();
  cp.mov(27);  // count - 1
  cp.isetp("NE", 26, 27);
  const code c_cmp_last = cp.since(m);
  const code c_exit_not_last = cp.exit();
  const code c_ld_beaten = cp.ld_global(28, 20, 4);
  m = cp.here();
  cp.isetp("NE", 28, rz);
  cp.address(30, 19, rz);  // &color[v]
  const code c_cmp_beaten = cp.since(m);
  const code c_st_color = cp.st_global(30, 13, 4);  // @!P0
  m = cp.here();
  cp.mov(32);  // &again
  const code c_again_init = cp.since(m);
  const code c_st_again = cp.st_global(32, 22, 4);  // @P0
  const code c_done = cp.exit();
  cp.bra();

  const char* parent_name = mode == launch_mode::flat  ? "_Z9clr_roundPKjS0_S0_PiS1_j"
                            : mode == launch_mode::cdp ? "_Z13clr_cdp_roundPKjS0_S0_PiS1_S1_S1_j"
                                                       : "_Z14clr_dtbl_roundPKjS0_S0_PiS1_S1_S1_j";
  const char* child_name =
      child_function(ps, mode, parent_name, "_Z13clr_cdp_childPKjS0_PiS1_S1_S1_jjjjj",
                     "_Z14clr_dtbl_childPKjS0_PiS1_S1_S1_jjjjj");
  const std::uint32_t grid = (n + block - 1) / block;

  for (std::uint32_t c = 0;; ++c) {
    if (c > 0) app.memcpy_h2d(mem.again, 4);  // again = 0
    bool again = false;
    std::vector<pending_child> children;
    const kernel_info info =
        app.kernel(parent_name, app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
    auto competes = [&](std::uint32_t u) { return color[u] == uncoloured || color[u] == c; };

    // The neighbour walk of the lanes in `lanes`, from e[l] to end[l]; colours the maxima.
    auto walk = [&](warp_emitter& e, std::uint32_t lanes, const std::array<std::uint32_t, 32>& v,
                    std::array<std::uint32_t, 32> edge, const std::array<std::uint32_t, 32>& end) {
      e.run(loop_init, lanes);
      std::uint32_t act = 0, beaten = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((lanes >> l & 1u) && edge[l] < end[l]) act |= 1u << l;
      e.run(skip, lanes & ~act);
      while (act != 0) {
        std::array<std::uint32_t, 32> u{};
        std::uint32_t comp = 0, beat = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (act >> l & 1u) {
            u[l] = g.col[edge[l]];
            if (competes(u[l])) comp |= 1u << l;
            if ((comp >> l & 1u) && beats(u[l], v[l])) beat |= 1u << l;
          }
        e.run(addr_col, act);
        e.mem_fn(ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
        e.run(addr_ncolor, act);
        e.mem_fn(ld_ncolor, act, [&](unsigned l) { return mem.color + 4ull * u[l]; });
        e.run(cmp_compete, act);
        e.mem_fn(ld_nrand, comp, [&](unsigned l) { return mem.rand + 4ull * u[l]; });
        e.run(cmp_beats, comp);
        e.run(brk, beat);
        beaten |= beat;
        act &= ~beat;
        e.run(step, act);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((act >> l & 1u) && ++edge[l] < end[l]) next |= 1u << l;
        e.run(back, next);
        act = next;
      }
      const std::uint32_t winners = lanes & ~beaten;
      e.run(cmp_max, lanes);
      e.mem_fn(st_color, winners, [&](unsigned l) { return mem.color + 4ull * v[l]; });
      for (unsigned l = 0; l < 32; ++l)
        if (winners >> l & 1u) color[v[l]] = c;
      e.run(again_init, beaten);
      e.mem_fn(st_again, beaten, [&](unsigned) { return mem.again; });
      again = again || beaten != 0;
    };

    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        std::array<std::uint32_t, 32> v{}, start{}, end{};
        std::uint32_t act = 0, open = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t vv = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          if (vv >= n) continue;
          v[l] = std::uint32_t(vv);
          act |= 1u << l;
          if (color[v[l]] != uncoloured) continue;
          open |= 1u << l;
          start[l] = g.row_ptr[v[l]];
          end[l] = g.row_ptr[v[l] + 1];
        }
        e.run(head, lanes.live);
        e.run(exit_oob, lanes.live & ~act);
        e.run(addr_color, act);
        e.mem_fn(ld_color, act, [&](unsigned l) { return mem.color + 4ull * v[l]; });
        e.run(cmp_color, act);
        e.run(exit_coloured, act & ~open);
        e.run(addr_rand, open);
        e.mem_fn(ld_rand, open, [&](unsigned l) { return mem.rand + 4ull * v[l]; });
        e.run(addr_row, open);
        e.mem_fn(ld_start, open, [&](unsigned l) { return mem.row_ptr + 4ull * v[l]; });
        e.mem_fn(ld_end, open, [&](unsigned l) { return mem.row_ptr + 4ull * v[l] + 4; });
        if (mode == launch_mode::flat) {
          walk(e, open, v, start, end);
          e.run(done, open);
          continue;
        }
        std::uint32_t big = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((open >> l & 1u) && end[l] - start[l] >= threshold) big |= 1u << l;
        const std::uint32_t small = open & ~big;
        e.run(cmp_thr, open);
        e.run(split, open);
        e.run(bra_small, small);
        e.run(clear, big);
        e.mem_fn(st_beaten0, big, [&](unsigned l) { return mem.beaten + 4ull * v[l]; });
        e.mem_fn(st_done0, big, [&](unsigned l) { return mem.done + 4ull * v[l]; });
        std::array<device_launch, 32> what{};
        for (unsigned l = 0; l < 32; ++l) {
          if (!(big >> l & 1u)) continue;
          const std::uint32_t count = end[l] - start[l];
          what[l] = child_grid(app, count, child_block);
          children.push_back({what[l].child_kernel, v[l], start[l], count, what[l].grid});
        }
        site->emit(e, big, what);
        e.run(bra_join, big);
        walk(e, small, v, start, end);
        e.run(join, open);
        e.run(done, open);
      }
    });

    for (const pending_child& ch : children) {
      kernel_info ci = app.kernel(child_name, ch.id, ch.grid, dim3{child_block, 1, 1}, 0, cp);
      ci.device_launched = true;
      std::uint32_t arrived = 0;
      bool beaten = false;
      app.write_kernel(ci, [&](tb_trace& tb) {
        for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
          warp_emitter e(cp, tb.warps[w]);
          const warp_lanes lanes = lanes_of(ci.block, w);
          std::array<std::uint32_t, 32> edge{}, u{};
          std::uint32_t act = 0, comp = 0, beat = 0, last = 0;
          for (unsigned l = 0; l < 32; ++l) {
            if (!(lanes.live >> l & 1u)) continue;
            const std::uint64_t i = std::uint64_t(tb.index.x) * child_block + lanes.flat[l];
            if (i >= ch.count) continue;
            act |= 1u << l;
            edge[l] = ch.start + std::uint32_t(i);
            u[l] = g.col[edge[l]];
            if (competes(u[l])) comp |= 1u << l;
            if ((comp >> l & 1u) && beats(u[l], ch.v)) beat |= 1u << l;
          }
          beaten = beaten || beat != 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((act >> l & 1u) && ++arrived == ch.count) last = 1u << l;
          e.run(c_head, lanes.live);
          e.run(c_exit_oob, lanes.live & ~act);
          e.run(c_addr_col, act);
          e.mem_fn(c_ld_col, act, [&](unsigned l) { return mem.col + 4ull * edge[l]; });
          e.run(c_addr_ncolor, act);
          e.mem_fn(c_ld_ncolor, act, [&](unsigned l) { return mem.color + 4ull * u[l]; });
          e.run(c_cmp_compete, act);
          e.mem_fn(c_ld_nrand, comp, [&](unsigned l) { return mem.rand + 4ull * u[l]; });
          e.run(c_cmp_beats, act);
          e.mem_fn(c_st_beaten, beat, [&](unsigned) { return mem.beaten + 4ull * ch.v; });
          e.run(c_fence, act);
          e.run(c_addr_done, act);
          e.mem_fn(c_atom, act, [&](unsigned) { return mem.done + 4ull * ch.v; });
          e.run(c_cmp_last, act);
          e.run(c_exit_not_last, act & ~last);
          e.mem_fn(c_ld_beaten, last, [&](unsigned) { return mem.beaten + 4ull * ch.v; });
          e.run(c_cmp_beaten, last);
          const std::uint32_t win = beaten ? 0 : last, lose = beaten ? last : 0;
          e.mem_fn(c_st_color, win, [&](unsigned) { return mem.color + 4ull * ch.v; });
          e.run(c_again_init, lose);
          e.mem_fn(c_st_again, lose, [&](unsigned) { return mem.again; });
          e.run(c_done, last);
        }
      });
      if (beaten)
        again = true;
      else
        color[ch.v] = c;
    }
    if (!again) break;
  }
}

std::vector<param_desc> clr_params() {
  std::vector<param_desc> p = {
      param_desc::integer("scale", 8, 1, 24, "2^scale vertices (generated graphs)"),
      param_desc::integer("degree", 8, 1, 64,
                          "edges generated per vertex (rmat, citation, banded)"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the graph and random values"),
      param_desc::integer("block", 256, 32, 1024, "threads per TB of the round kernel")};
  for (param_desc& d : graph_params("graph", "rmat", "R-MAT")) p.push_back(std::move(d));
  return p;
}

}  // namespace

kernel_generator clr_generator() {
  return launch_form("clr",
                     "Jones-Plassmann graph colouring on a graph (R-MAT), one launch per round",
                     clr_params(), generate_clr, launch_mode::flat);
}

kernel_generator clr_cdp_generator() {
  return launch_form(
      "clr_cdp",
      "colouring with CDP: an uncoloured vertex of degree >= threshold launches a child kernel",
      clr_params(), generate_clr, launch_mode::cdp);
}

kernel_generator clr_dtbl_generator() {
  return launch_form(
      "clr_dtbl",
      "colouring with DTBL: an uncoloured vertex of degree >= threshold launches a group",
      clr_params(), generate_clr, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
