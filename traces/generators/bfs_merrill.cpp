// Data-driven breadth-first search after Merrill, Garland and Grimshaw, "Scalable GPU graph
// traversal" (PPoPP'12), the flat BFS of Wang's thesis (S001 §5.1: "the bfs implementation
// [47] ... TB and warp level vertex expansion"): per iteration one expand-contract kernel
// reads the vertex frontier from a queue, one thread per frontier vertex, and gathers the
// neighbours of its vertex by one of three strategies chosen by degree:
//  * CTA-based (degree >= block): the vertex's owner wins a shared-memory slot, and the whole
//    TB walks its neighbour list, one neighbour per thread, block threads at a time;
//  * warp-based (32 <= degree < block): likewise with the warp;
//  * scan-based (degree < 32): a TB-wide prefix sum of the degrees places every remaining
//    neighbour in a shared-memory gather array, which the TB reads block entries at a time.
// Each gathered neighbour u is looked up in the label array; an unvisited one (label -1) gets
// label iteration + 1 and is appended to the next frontier queue: the warp's first lane
// holding u enqueues it (Merrill's warp culling), the lanes' slots taken by one atomicAdd of
// the warp's leader on the queue counter. The host resets the counter before each launch and
// stops when a kernel enqueued nothing.
//
// bfs_merrill_cdp / _dtbl (the thesis's CDP and DTBL forms of this BFS): a frontier vertex of
// degree >= threshold launches a child kernel or an aggregated group of ceil(degree /
// child_block) TBs, one thread per neighbour, instead of the CTA- or warp-based gather; the
// parent gathers the others as above. A DTBL group runs the parent's function by default
// (group_function=launcher, with the parent's TB shape and shared memory) or an expansion
// function of its own (group_function=separate).
//
// Execution order on the CPU, which decides which of several lanes reaching one vertex in
// the same iteration enqueues it (not the labels): TBs in linear order; within a TB the
// phases in program order, each phase's warps in order; a parent's children after its grid.
#include "traces/generators/device_launch.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {

struct merrill_memory {
  std::uint64_t row_ptr, col, labels, queue[2], counter;
};

// The shared-memory layout of the expansion kernel (bytes): the CTA-based gather's owner,
// start and end; per warp its owner, start and end; the scan's degrees, its warp totals and
// the gather array.
struct merrill_shared {
  explicit merrill_shared(std::uint32_t block)
      : warps((block + 31) / 32),
        warp_slots(16),
        degrees(warp_slots + 12 * warps),
        totals(degrees + 4 * block),
        gather(totals + 4 * warps),
        bytes(gather + 4 * block) {}
  std::uint32_t warps;
  std::uint32_t cta = 0, warp_slots, degrees, totals, gather, bytes;
};

// The static code of one neighbour's visit (u = col[e], its label, the label store and the
// enqueue), emitted once per gather strategy as the compiler inlines it.
struct visit_code {
  code col, ld_col, label, ld_label, cmp, st_label, ballot, atom, slot, st_queue;
  visit_code() = default;
  explicit visit_code(program& p) {
    col = p.address(18, 17, rz);
    ld_col = p.ld_global(19, 18, 4);
    label = p.address(20, 19, rz);
    ld_label = p.ld_global(21, 20, 4);
    cmp = p.isetp("NE", 21, rz);
    st_label = p.st_global(20, 22, 4);  // @!P
    auto m = p.here();
    p.raw("VOTE.ANY", {24}, {});
    p.raw("POPC", {25}, {24});
    ballot = p.since(m);
    atom = p.atom("ADD", 23, 28, 25);  // the leader: base = atomicAdd(counter, count)
    m = p.here();
    p.raw("SHFL.IDX", {23}, {23});
    p.raw("POPC", {27}, {24});
    p.iadd(27, 23, 27);
    p.address(26, 27, rz);
    slot = p.since(m);
    st_queue = p.st_global(26, 19, 4);
  }
};

// The static code of a gather by an owner (CTA-based with `cta`, else warp-based): each
// round the contenders store their thread number in a shared owner slot, the owner writes
// its edge range beside it, and every thread reads the range and walks it, one edge per
// thread. The CTA's rounds are fenced by barriers and reset the slot first; a warp resets
// its slot after the walk.
struct owner_gather {
  code reset, bar1, claim, claim_st, bar2, read, test, mine, cmd_start, cmd_end, cmd_done, bar3,
      ld_start, ld_end, first, in, step, next;
  visit_code visit;

  owner_gather(program& p, bool cta) {
    if (cta) {
      reset = p.st_shared(rz, rz, 4);  // thread 0: owner = -1
      bar1 = p.bar_sync();
    }
    claim = p.isetp("GE", 12, rz);
    claim_st = p.st_shared(rz, 13, 4);  // the contenders: owner = thread
    if (cta) bar2 = p.bar_sync();
    read = p.ld_shared(14, rz, 4);
    auto m = p.here();
    p.isetp("LT", 14, rz);
    p.bra();  // no owner: the phase is done
    test = p.since(m);
    mine = p.isetp("EQ", 14, 13);
    // The owner: its start and end, its degree done.
    cmd_start = p.st_shared(rz, 10, 4);
    cmd_end = p.st_shared(rz, 11, 4);
    cmd_done = p.mov(12);
    if (cta) bar3 = p.bar_sync();
    ld_start = p.ld_shared(15, rz, 4);
    ld_end = p.ld_shared(16, rz, 4);
    first = p.iadd(17, 15, 13);  // e = start + thread
    in = p.isetp("LT", 17, 16);
    visit = visit_code(p);
    m = p.here();
    p.iadd(17, 17, rz);
    p.bra();
    step = p.since(m);
    if (!cta) reset = p.st_shared(rz, rz, 4);  // lane 0: owner = -1
    m = p.here();
    if (cta) p.bar_sync();
    p.bra();
    next = p.since(m);
  }
  // The owner's writing of its range to the slot at `slot` (owner, start, end).
  void write_command(warp_emitter& e, std::uint32_t owner, std::uint64_t slot) const {
    e.mem_fn(cmd_start, owner, [&](unsigned) { return slot + 4; });
    e.mem_fn(cmd_end, owner, [&](unsigned) { return slot + 8; });
    e.run(cmd_done, owner);
  }
  // Every lane's reading of it.
  void read_command(warp_emitter& e, std::uint32_t lanes, std::uint64_t slot) const {
    e.mem_fn(ld_start, lanes, [&](unsigned) { return slot + 4; });
    e.mem_fn(ld_end, lanes, [&](unsigned) { return slot + 8; });
    e.run(first, lanes);
  }
};

struct bfs_state {
  const csr_graph& g;
  const merrill_memory& mem;
  std::vector<std::int32_t> label;
  std::vector<std::uint32_t> next;  // the queue being written
  std::int32_t iteration = 0;
};

// The visits of lanes `mask` to edges e[l], recorded in `e` and applied to the state.
void visit(warp_emitter& em, const visit_code& c, std::uint32_t mask,
           const std::array<std::uint32_t, 32>& edge, bfs_state& s) {
  if (mask == 0) return;
  std::array<std::uint32_t, 32> u{};
  std::uint32_t unvisited = 0, enqueue = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    u[l] = s.g.col[edge[l]];
    if (s.label[u[l]] != -1) continue;
    unvisited |= 1u << l;
    bool first = true;
    for (unsigned k = 0; k < l && first; ++k)
      if ((unvisited >> k & 1u) && u[k] == u[l]) first = false;
    if (first) enqueue |= 1u << l;
  }
  em.run(c.col, mask);
  em.mem_fn(c.ld_col, mask, [&](unsigned l) { return s.mem.col + 4ull * edge[l]; });
  em.run(c.label, mask);
  em.mem_fn(c.ld_label, mask, [&](unsigned l) { return s.mem.labels + 4ull * u[l]; });
  em.run(c.cmp, mask);
  em.mem_fn(c.st_label, unvisited, [&](unsigned l) { return s.mem.labels + 4ull * u[l]; });
  em.run(c.ballot, mask);
  const std::uint64_t queue = s.mem.queue[(s.iteration + 1) % 2];
  std::array<std::uint64_t, 32> slot{};
  if (enqueue != 0) {
    const unsigned leader = unsigned(__builtin_ctz(enqueue));
    em.mem_fn(c.atom, 1u << leader, [&](unsigned) { return s.mem.counter; });
    for (unsigned l = 0; l < 32; ++l)
      if (enqueue >> l & 1u) {
        slot[l] = queue + 4ull * s.next.size();
        s.next.push_back(u[l]);
      }
  }
  em.run(c.slot, mask);
  em.mem_fn(c.st_queue, enqueue, [&](unsigned l) { return slot[l]; });
  for (unsigned l = 0; l < 32; ++l)
    if (unvisited >> l & 1u) s.label[u[l]] = s.iteration + 1;
}

void generate_merrill(const param_set& ps, app_builder& app, launch_mode mode) {
  const csr_graph g = kernel_graph(ps);
  const std::uint32_t n = g.vertices;
  const std::uint32_t source = ps.u32("source");
  if (source >= n) param_set::fail("source", "must be below the vertex count " + std::to_string(n));
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? ~0u : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);
  const merrill_shared sh(block);

  merrill_memory mem{};
  mem.row_ptr = app.input(4ull * (n + 1));
  mem.col = app.input(4ull * std::max<std::size_t>(g.col.size(), 1));
  mem.labels = app.input(4ull * n);
  mem.queue[0] = app.input(4ull * n);
  mem.queue[1] = app.output(4ull * n);
  mem.counter = app.output(4);
  bfs_state s{g, mem, std::vector<std::int32_t>(n, -1), {}, 0};
  s.label[source] = 0;

  // ---- the expansion kernel ----
  program p(app.opcodes(), 40);
  auto m = p.here();
  p.global_index_1d();  // R3 = the frontier slot
  p.s2r(13, sreg::tid_x);
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code ld_vertex_addr = p.address(4, 3, rz);
  const code ld_vertex = p.ld_global(6, 4, 4);  // v = queue[slot]
  const code addr_row = p.address(8, 6, rz);
  const code ld_start = p.ld_global(10, 8, 4);
  const code ld_end = p.ld_global(11, 8, 4);  // [R8 + 0x4]
  m = p.here();
  p.iadd(12, 11, 10);  // degree
  p.mov(22);           // iteration + 1
  p.mov(28);           // &counter
  const code degree = p.since(m);
  code cmp_launch{}, launch_join{};
  std::unique_ptr<launch_site> site;
  if (mode != launch_mode::flat) {
    m = p.here();
    p.isetp("GE", 12, rz);
    cmp_launch = p.since(m);
    site = std::make_unique<launch_site>(p, mode, 30, 10, 12);
    launch_join = p.mov(12);  // the launcher's degree is done: 0
  }
  const owner_gather cta(p, true), wg(p, false);  // the CTA-based and warp-based gathers
  // Scan-based gather.
  const code s_st = p.st_shared(rz, 12, 4);
  const code s_bar1 = p.bar_sync();
  m = p.here();
  for (int k = 0; k < 5; ++k) {
    p.raw("SHFL.UP", {32}, {12});
    p.iadd(12, 12, 32);
  }
  const code s_scan = p.since(m);
  const code s_total_st = p.st_shared(rz, 12, 4);  // lane 31: the warp's total
  const code s_bar2 = p.bar_sync();
  const code s_total_ld = p.ld_shared(33, rz, 4);
  m = p.here();
  for (int k = 0; k < 5; ++k) {
    p.raw("SHFL.UP", {32}, {33});
    p.iadd(33, 33, 32);
  }
  p.raw("SHFL.IDX", {34}, {33});  // the warp's base
  p.raw("SHFL.IDX", {35}, {33});  // the TB's total
  p.iadd(36, 34, 12);             // rank (exclusive)
  p.mov(37);                      // chunk base = 0
  const code s_ranks = p.since(m);
  const code s_k = p.isetp("LT", 38, 12);
  m = p.here();
  p.iadd(39, 36, 38);
  p.isetp("LT", 39, 35);
  const code s_in_chunk = p.since(m);
  const code s_scatter = p.st_shared(39, 17, 4);
  m = p.here();
  p.iadd(38, 38, rz);
  p.bra();
  const code s_k_step = p.since(m);
  const code s_bar3 = p.bar_sync();
  const code s_take = p.isetp("LT", 13, 35);
  const code s_ld = p.ld_shared(17, 13, 4);
  const visit_code s_visit(p);
  m = p.here();
  p.bar_sync();
  p.iadd(37, 37, rz);
  p.isetp("LT", 37, 35);
  p.bra();
  const code s_next = p.since(m);
  const code done = p.exit();

  // ---- child: one thread per neighbour of one vertex ----
  program cp(app.opcodes(), 40);
  const child_start entry = child_prologue(cp);
  m = cp.here();
  cp.mov(4);  // start
  cp.iadd(17, 4, 3);
  cp.mov(22);
  cp.mov(28);
  const code ch_edge = cp.since(m);
  const visit_code ch_visit(cp);
  const code ch_done = cp.exit();

  const char* parent_name = mode == launch_mode::flat ? "_Z17bfs_merrill_expandPKjS0_PiS0_PjS2_i"
                            : mode == launch_mode::cdp
                                ? "_Z21bfs_merrill_cdp_expandPKjS0_PiS0_PjS2_i"
                                : "_Z22bfs_merrill_dtbl_expandPKjS0_PiS0_PjS2_i";
  const char* child_name =
      child_function(ps, mode, parent_name, "_Z20bfs_merrill_cdp_childPKjPiPjS2_jji",
                     "_Z21bfs_merrill_dtbl_childPKjPiPjS2_jji");
  // A group in the parent's function declares the parent's shared memory (the KD matches a
  // group to a kernel by function, TB shape and shared memory).
  const std::uint32_t child_shmem = std::string(child_name) == parent_name ? sh.bytes : 0;

  std::vector<std::uint32_t> frontier{source};
  struct pending_child {
    std::uint32_t id, start, count;
    dim3 grid;
  };
  for (s.iteration = 0; !frontier.empty(); ++s.iteration) {
    app.memcpy_h2d(mem.counter, 4);  // counter = 0
    s.next.clear();
    std::vector<pending_child> children;
    const std::uint32_t f = std::uint32_t(frontier.size());
    const std::uint64_t in_queue = mem.queue[s.iteration % 2];
    const kernel_info info =
        app.kernel(parent_name, app.reserve_kernel_id(), dim3{(f + block - 1) / block, 1, 1},
                   dim3{block, 1, 1}, sh.bytes, p);
    app.write_kernel(info, [&](tb_trace& tb) {
      const std::uint32_t warps = std::uint32_t(tb.warps.size());
      std::vector<warp_emitter> em;
      std::vector<warp_lanes> lanes;
      for (std::uint32_t w = 0; w < warps; ++w) {
        em.emplace_back(p, tb.warps[w]);
        lanes.push_back(lanes_of(info.block, w));
      }
      // Per thread (t = warp * 32 + lane): its vertex's edge range and remaining degree.
      std::vector<std::uint32_t> start(warps * 32), end(warps * 32), deg(warps * 32);
      std::vector<std::uint32_t> valid(warps), live(warps);
      const auto bit = [](std::uint32_t t) { return 1u << (t % 32); };
      for (std::uint32_t w = 0; w < warps; ++w) {
        live[w] = lanes[w].live;
        std::array<std::uint32_t, 32> v{};
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint64_t slot = std::uint64_t(tb.index.x) * block + lanes[w].flat[l];
          if (!(live[w] >> l & 1u) || slot >= f) continue;
          valid[w] |= 1u << l;
          v[l] = frontier[slot];
          start[w * 32 + l] = g.row_ptr[v[l]];
          end[w * 32 + l] = g.row_ptr[v[l] + 1];
          deg[w * 32 + l] = end[w * 32 + l] - start[w * 32 + l];
        }
        warp_emitter& e = em[w];
        e.run(head, live[w]);
        e.run(ld_vertex_addr, valid[w]);
        e.mem_fn(ld_vertex, valid[w], [&](unsigned l) {
          return in_queue + 4ull * (std::uint64_t(tb.index.x) * block + lanes[w].flat[l]);
        });
        e.run(addr_row, valid[w]);
        e.mem_fn(ld_start, valid[w], [&](unsigned l) { return mem.row_ptr + 4ull * v[l]; });
        e.mem_fn(ld_end, valid[w], [&](unsigned l) { return mem.row_ptr + 4ull * v[l] + 4; });
        e.run(degree, valid[w]);
        if (mode == launch_mode::flat) continue;
        std::uint32_t big = 0;
        std::array<device_launch, 32> what{};
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint32_t t = w * 32 + l;
          if (!(valid[w] >> l & 1u) || deg[t] == 0 || deg[t] < threshold) continue;
          big |= 1u << l;
          what[l] = child_grid(app, deg[t], child_block);
          children.push_back({what[l].child_kernel, start[t], deg[t], what[l].grid});
          deg[t] = 0;
        }
        e.run(cmp_launch, valid[w]);
        site->emit(e, big, what);
        e.run(launch_join, big);
      }
      const std::uint32_t threads = warps * 32;
      const auto in_lanes = [&](std::uint32_t w, auto&& pred) {
        std::uint32_t mask = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live[w] >> l & 1u) && pred(w * 32 + l)) mask |= 1u << l;
        return mask;
      };
      // CTA-based: the highest-numbered contender wins each round (the last store).
      for (;;) {
        em[0].mem_fn(cta.reset, live[0] & 1u, [&](unsigned) { return sh.cta; });
        for (std::uint32_t w = 0; w < warps; ++w) em[w].run(cta.bar1, live[w]);
        std::uint32_t owner = ~0u;
        for (std::uint32_t w = 0; w < warps; ++w) {
          const std::uint32_t cont = in_lanes(w, [&](std::uint32_t t) { return deg[t] >= block; });
          em[w].run(cta.claim, live[w]);
          em[w].mem_fn(cta.claim_st, cont, [&](unsigned) { return sh.cta; });
          if (cont) owner = w * 32 + 31 - unsigned(__builtin_clz(cont));
        }
        for (std::uint32_t w = 0; w < warps; ++w) {
          em[w].run(cta.bar2, live[w]);
          em[w].mem_fn(cta.read, live[w], [&](unsigned) { return sh.cta; });
          em[w].run(cta.test, live[w]);
        }
        if (owner == ~0u) break;
        const std::uint32_t ow = owner / 32;
        for (std::uint32_t w = 0; w < warps; ++w) em[w].run(cta.mine, live[w]);
        cta.write_command(em[ow], bit(owner), sh.cta);
        const std::uint32_t from = start[owner], to = end[owner];
        deg[owner] = 0;
        for (std::uint32_t w = 0; w < warps; ++w) {
          em[w].run(cta.bar3, live[w]);
          cta.read_command(em[w], live[w], sh.cta);
        }
        for (std::uint32_t base = from;; base += block) {
          bool any = false;
          for (std::uint32_t w = 0; w < warps; ++w) {
            std::array<std::uint32_t, 32> e{};
            std::uint32_t in = 0;
            for (unsigned l = 0; l < 32; ++l) {
              e[l] = base + lanes[w].flat[l];
              if ((live[w] >> l & 1u) && e[l] < to) in |= 1u << l;
            }
            em[w].run(cta.in, live[w]);
            visit(em[w], cta.visit, in, e, s);
            em[w].run(cta.step, live[w]);
            any = any || in != 0;
          }
          if (!any || base + block >= to) break;
        }
        for (std::uint32_t w = 0; w < warps; ++w) em[w].run(cta.next, live[w]);
      }
      // Warp-based: per warp, the highest contender lane each round.
      for (std::uint32_t w = 0; w < warps; ++w) {
        const std::uint64_t slot = sh.warp_slots + 12ull * w;
        for (;;) {
          const std::uint32_t cont = in_lanes(w, [&](std::uint32_t t) { return deg[t] >= 32; });
          em[w].run(wg.claim, live[w]);
          em[w].mem_fn(wg.claim_st, cont, [&](unsigned) { return slot; });
          em[w].mem_fn(wg.read, live[w], [&](unsigned) { return slot; });
          em[w].run(wg.test, live[w]);
          if (cont == 0) break;
          const std::uint32_t owner = w * 32 + 31 - unsigned(__builtin_clz(cont));
          em[w].run(wg.mine, live[w]);
          wg.write_command(em[w], bit(owner), slot);
          wg.read_command(em[w], live[w], slot);
          const std::uint32_t from = start[owner], to = end[owner];
          deg[owner] = 0;
          for (std::uint32_t base = from; base < to; base += 32) {
            std::array<std::uint32_t, 32> e{};
            std::uint32_t in = 0;
            for (unsigned l = 0; l < 32; ++l) {
              e[l] = base + l;
              if ((live[w] >> l & 1u) && e[l] < to) in |= 1u << l;
            }
            em[w].run(wg.in, live[w]);
            visit(em[w], wg.visit, in, e, s);
            em[w].run(wg.step, live[w]);
          }
          em[w].mem_fn(wg.reset, live[w] & 1u, [&](unsigned) { return slot; });
          em[w].run(wg.next, live[w]);
        }
      }
      // Scan-based: ranks by a TB-wide exclusive prefix sum, then the gather array, block
      // entries at a time.
      std::vector<std::uint32_t> rank(threads);
      std::uint32_t total = 0;
      for (std::uint32_t t = 0; t < threads; ++t) {
        rank[t] = total;
        if (live[t / 32] >> (t % 32) & 1u) total += deg[t];
      }
      for (std::uint32_t w = 0; w < warps; ++w) {
        em[w].mem_fn(s_st, live[w], [&](unsigned l) { return sh.degrees + 4ull * (w * 32 + l); });
        em[w].run(s_bar1, live[w]);
        em[w].run(s_scan, live[w]);
        em[w].mem_fn(s_total_st, live[w] & 0x80000000u,
                     [&](unsigned) { return sh.totals + 4ull * w; });
      }
      for (std::uint32_t w = 0; w < warps; ++w) {
        em[w].run(s_bar2, live[w]);
        const std::uint32_t readers = live[w] & (warps >= 32 ? ~0u : (1u << warps) - 1);
        em[w].mem_fn(s_total_ld, readers, [&](unsigned l) { return sh.totals + 4ull * l; });
        em[w].run(s_ranks, live[w]);
      }
      for (std::uint32_t chunk = 0; chunk < total; chunk += block) {
        for (std::uint32_t w = 0; w < warps; ++w) {
          std::uint32_t most = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (live[w] >> l & 1u) most = std::max(most, deg[w * 32 + l]);
          for (std::uint32_t k = 0; k < most; ++k) {
            const std::uint32_t has = in_lanes(w, [&](std::uint32_t t) { return k < deg[t]; });
            const std::uint32_t here = in_lanes(w, [&](std::uint32_t t) {
              return k < deg[t] && rank[t] + k >= chunk && rank[t] + k < chunk + block;
            });
            em[w].run(s_k, live[w]);
            em[w].run(s_in_chunk, has);
            em[w].mem_fn(s_scatter, here, [&](unsigned l) {
              return sh.gather + 4ull * (rank[w * 32 + l] + k - chunk);
            });
            em[w].run(s_k_step, has);
          }
          em[w].run(s_k, live[w]);
        }
        for (std::uint32_t w = 0; w < warps; ++w) em[w].run(s_bar3, live[w]);
        for (std::uint32_t w = 0; w < warps; ++w) {
          std::array<std::uint32_t, 32> e{};
          std::uint32_t take = 0;
          for (unsigned l = 0; l < 32; ++l) {
            const std::uint32_t slot = chunk + lanes[w].flat[l];
            if (!(live[w] >> l & 1u) || slot >= total) continue;
            take |= 1u << l;
            // The owner of gather slot `slot`: the last thread whose rank is at most it.
            const std::uint32_t t =
                std::uint32_t(std::upper_bound(rank.begin(), rank.end(), slot) - rank.begin() - 1);
            std::uint32_t owner = t;
            while (deg[owner] == 0 || !(live[owner / 32] >> (owner % 32) & 1u)) --owner;
            e[l] = start[owner] + (slot - rank[owner]);
          }
          em[w].run(s_take, live[w]);
          em[w].mem_fn(s_ld, take, [&](unsigned l) { return sh.gather + 4ull * lanes[w].flat[l]; });
          visit(em[w], s_visit, take, e, s);
          em[w].run(s_next, live[w]);
        }
      }
      for (std::uint32_t w = 0; w < warps; ++w) em[w].run(done, live[w]);
    });

    for (const pending_child& c : children) {
      kernel_info ci =
          app.kernel(child_name, c.id, c.grid, dim3{child_block, 1, 1}, child_shmem, cp);
      ci.device_launched = true;
      app.write_kernel(ci, [&](tb_trace& tb) {
        for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
          warp_emitter e(cp, tb.warps[w]);
          const child_lanes lanes = child_items(ci, tb, w, c.start, c.count);
          e.run(entry.head, lanes.live);
          e.run(entry.exit_oob, lanes.live & ~lanes.active);
          e.run(ch_edge, lanes.active);
          visit(e, ch_visit, lanes.active, lanes.item, s);
          e.run(ch_done, lanes.active);
        }
      });
    }
    frontier = s.next;
  }
}

std::vector<param_desc> merrill_params() { return graph_search_params("expansion kernel"); }

}  // namespace

kernel_generator bfs_merrill_generator() {
  return launch_form("bfs_merrill",
                     "data-driven BFS (Merrill et al.): frontier queues, CTA/warp/scan gathers",
                     merrill_params(), generate_merrill, launch_mode::flat);
}

kernel_generator bfs_merrill_cdp_generator() {
  return launch_form(
      "bfs_merrill_cdp",
      "Merrill BFS with CDP: a frontier vertex of degree >= threshold launches a child kernel",
      merrill_params(), generate_merrill, launch_mode::cdp);
}

kernel_generator bfs_merrill_dtbl_generator() {
  return launch_form(
      "bfs_merrill_dtbl",
      "Merrill BFS with DTBL: a frontier vertex of degree >= threshold launches a group",
      merrill_params(), generate_merrill, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
