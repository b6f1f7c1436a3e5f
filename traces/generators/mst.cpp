// LonestarGPU 2.0 mst (minimum spanning tree by Boruvka's algorithm; Nasre & Pai), MST of the
// μC-States workloads (Kayiran et al., "μC-States: Fine-grained GPU Datapath Power
// Management", PACT'16, Table 1): the kernels of apps/mst (main.cu, mst.h's kernels,
// component.h's ComponentSpace `cs`, graph.h's Graph, gbar.cuh's GlobalBarrier) on a weighted
// undirected graph (R-MAT, or the input `graph` names: graph_file.h), as they index memory.
//
// Graph (graph.h, cudaCopy): edgessrcdst and edgessrcwt hold nedges + 1 entries, entry 0 the
// null edge, so vertex v's edges are 1 + row_ptr[v] ...; psrc[v] = 1 + row_ptr[v] (nnodes + 1
// entries), noutgoing[v] its degree, nincoming[v], srcsrc[v] = v. getOutDegree(v) loads
// noutgoing[v]; getWeight(v, i) and getDestination(v, i) load noutgoing[v], srcsrc[v] and
// psrc[srcsrc[v]] (getFirstEdge), then edgessrcwt / edgessrcdst[psrc + i]. ComponentSpace:
// ele2comp (the union-find parents), complen, ncomponents; cs.find(x) walks x = ele2comp[x]
// until ele2comp[x] == x (one load per step) and then, path compression, stores the root to
// ele2comp[x0]; cs.unify(a, b) loops { ra = find(a, false), rb = find(b, false); equal:
// false; boss = max(ra, rb), sub = min; old = atomicExch(&ele2comp[sub], boss); old != sub:
// a = old, b = boss, again; else atomicAdd(&complen[boss], complen[sub]),
// atomicSub(ncomponents, 1), true }.
//
// Host (main.cu): ComponentSpace's constructor runs dinitcs (complen[v] = 1, ele2comp[v] = v)
// and copies ncomponents; then, until an iteration leaves the component count unchanged:
// dinit (eleminwts, minwtcomponent = MYINFINITY, goaheadnodeofcomponent = n, phores = 0,
// partners[v] = v, processinnextiteration = false); dfindelemin (thread v: srcboss =
// find(v); over its edges, for wt < minwt, dst's find; a cross-component edge becomes minwt,
// dstboss; stores eleminwts[v], partners[v]; minwt < minwtcomponent[srcboss] && srcboss !=
// dstboss: atomicMin(&minwtcomponent[srcboss], minwt)); dfindelemin2 (a vertex whose minwt
// is its component's and whose partner is another component walks its edges again: wt ==
// eleminwts[v] (reloaded), find(dst) == partners[v] (reloaded): atomicCAS(&goahead[srcboss],
// n, v)); verify_min_elem (a boss with a goahead vertex and a finite minimum walks that
// vertex's edges for wt == minwt, find(dst) == partners[goahead] != boss: store
// processinnextiteration[goahead] = true, return); then, while `repeat` (the host copies
// false to it first), dfindcompmintwo <<<sms * res, 384>>>, a grid-stride loop over v: phase
// A (processinnextiteration[v]: srcboss = find(v), dstboss = find(partners[v])), global
// barrier, phase B (processinnextiteration[v] reloaded, srcboss != dstboss: unify;
// success: atomicAdd(mstwt, eleminwts[v]), atomicAdd(count, 1), clear
// processinnextiteration[v], eleminwts[v] = MYINFINITY; failure: *repeat = true), global
// barrier. dinit ... verify_min_elem launch ceil(n / block) TBs of `block` threads
// (KernelConfig: the device's maxThreadsDim[0], 1024), one thread per vertex.
//
// The algorithm runs for real: every device array is mirrored on the CPU and updated in
// execution order (TBs in order, warps in order, a warp instruction for all its lanes in lane
// order, atomics too), so iterations, active vertices and the edges each thread walks are the
// data's. Edge weights: w(u, v) = 1 + floor(hash_unit(seed + 1, min(u, v) << 32 | max(u, v))
// * max_weight), the same in both directions.
//
// Where we had to choose:
// - The software global barrier (gbar.cuh's GlobalBarrier::Sync: each TB's thread 0 stores
//   its flag d_sync[blockIdx.x] = 1 and spins until TB 0, which spins on every flag, clears
//   it) cannot be traced: its spin counts depend on the timing of other SMs. Each barrier is
//   a kernel boundary instead: dfindcompmintwo is traced as two launches of its grid per
//   grid-stride trip, phase A (ending in the first barrier) and phase B (ending in the
//   second), with the same function name and one program (phase B's PCs follow phase A's).
//   The data flow and every memory access of both phases are kept; srcboss and dstboss stay
//   in registers across the split, as they do across the barrier. The barrier's own work is
//   kept except the spinning: MEMBAR, BAR.SYNC, thread 0's flag store, the BAR.SYNCs, and in
//   TB 0 the release stores d_sync[tid] = 0 by threads tid < gridDim.x.
// - Registers: the 1024-thread kernels use at most 32 a thread (a 1024-thread TB must fit the
//   register file of a Fermi-class SM, 32768; uc-bigcore has 36864), dfindcompmintwo 23 (24 on
//   Pascal, with XMAD's scratch).
// - The grid of dfindcompmintwo is nSM * maximum_residency(dfindcompmintwo, 384): `sms`
//   (default 16, uc-bigcore's cores) times `res` (default 4 = uc-bigcore's 1536 threads per
//   SM / 384; at 24 registers a thread or fewer, registers allow 4 TBs of 384 in 36864).
// - Loads the source makes are traced as loads, except a repeat of the same element with no
//   store between (which nvcc merges): the graph accessor loads (noutgoing, srcsrc, psrc) are
//   reloaded on every edge-loop trip, as are eleminwts[v] and partners[v] in dfindelemin2,
//   since find's path-compression store may alias them (no __restrict__).
// - Results that are not used become RED (atomicMin in dfindelemin, the atomicAdds and the
//   atomicSub of unify and dfindcompmintwo); atomicCAS and atomicExch are ATOM.CAS, ATOM.EXCH.
// - A race resolves in execution order (above): the first CAS on goahead wins, a later
//   thread's unify sees earlier ones. Lanes of one warp whose atomicExch hit the same
//   ele2comp entry see each other's bosses and retry (unify's loop), so which unify of a
//   cycle fails follows lane order: the component count is exact, but, as in the original,
//   mstwt can count a mutual pair's edge twice and miss another. dinitcs's MAXBLOCKSIZE
//   (LonestarGPU's common.h) is taken to be `block`.
// - cudaMemcpy device-to-host (repeat, ncomponents, mstwt, count) is not in the trace
//   (Accel-Sim traces none); the host-to-device ones are, in main.cu's order: the graph, cs's
//   ncomponents (after dinitcs), mstwt, repeat, count, and repeat before every
//   dfindcompmintwo. gb.Setup's d_sync is allocated first (its cudaMemset is not traced).
#include <algorithm>
#include <array>

#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
namespace mst_kernels {
constexpr std::uint32_t infinity = 1000000000;  // MYINFINITY
constexpr std::uint32_t compmintwo_block = 384;
constexpr std::uint32_t max_iterations = 1u << 20;  // a guard: Boruvka needs log2(n) + 1

using lane_u32 = std::array<std::uint32_t, 32>;

bool has(std::uint32_t mask, unsigned l) { return (mask >> l & 1u) != 0; }

struct device_arrays {
  std::uint64_t sync, edst, ewt, psrc, nout, ninc, srcsrc, maxout, maxin;
  std::uint64_t ncomp, complen, ele2comp;
  std::uint64_t mstwt, eleminwts, minwtcomp, partners, phores, pinx, goahead, repeat, count;
};

// The device arrays' values, as the kernels leave them.
struct device_state {
  std::vector<std::uint32_t> ele2comp, complen, eleminwts, minwtcomp, partners, goahead;
  std::vector<std::uint8_t> pinx;
  std::uint32_t ncomp = 0;
  bool repeat = false;
};

const char* const dinitcs_name = "_Z7dinitcsjPjS_";
const char* const dinit_name = "_Z5dinitPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const char* const elemin_name = "_Z11dfindeleminPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const char* const elemin2_name = "_Z12dfindelemin2Pj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const char* const verify_name = "_Z15verify_min_elemPj5Graph14ComponentSpaceS_S_S_S_PbS_j";
const char* const compmintwo_name =
    "_Z15dfindcompmintwoPj5Graph14ComponentSpaceS_S_S_S_PbS_j13GlobalBarrierS2_S_";

// cs.find(x): the walk up ele2comp, then (compress) the root stored at ele2comp[x].
struct find_code {
  code init, addr, ld, test, back, addr_c, st;
};

find_code make_find(program& p, reg x, reg el, reg a, reg v, bool compress) {
  find_code f;
  f.init = p.iadd(el, x, rz);  // element = lelement
  f.addr = p.address(a, el, rz);
  f.ld = p.ld_global(v, a, 4);
  auto m = p.here();
  p.isetp("NE", v, el);
  p.iadd(el, v, rz);  // @P0 element = ele2comp[element]
  f.test = p.since(m);
  f.back = p.bra();
  if (compress) {
    f.addr_c = p.address(a, x, rz);
    f.st = p.st_global(a, el, 4);
  }
  return f;
}

// One edge-loop trip's accessor loads: noutgoing[v], srcsrc[v], psrc[srcsrc[v]], then the
// weight edgessrcwt[psrc + i].
struct edge_code {
  code addr_nout, ld_nout, addr_ss, ld_ss, addr_psrc, ld_psrc, addr_wt, ld_wt;
};

edge_code make_edge(program& p, reg v, reg i, reg a, reg t, reg e, reg wt) {
  edge_code c;
  c.addr_nout = p.address(a, v, rz);
  c.ld_nout = p.ld_global(t, a, 4);
  c.addr_ss = p.address(a, v, rz);
  c.ld_ss = p.ld_global(t, a, 4);
  c.addr_psrc = p.address(a, t, rz);
  c.ld_psrc = p.ld_global(e, a, 4);
  auto m = p.here();
  p.isetp("GE", i, t);  // nthedge < getOutDegree(src)
  p.iadd(e, e, i);      // edge = getFirstEdge(src) + nthedge
  p.address(a, e, rz);
  c.addr_wt = p.since(m);
  c.ld_wt = p.ld_global(wt, a, 4);
  return c;
}

struct compmintwo_code;

struct mst_run {
  app_builder& app;
  const csr_graph& g;
  const std::vector<std::uint32_t>& weight;  // per CSR entry
  std::uint32_t n, block, cm_grid;
  device_arrays mem;
  device_state s;

  std::uint64_t edge_index(std::uint32_t v, std::uint32_t i) const {
    return 1ull + g.row_ptr[v] + i;
  }

  // find() of the lanes in `mask`, in lockstep: each step loads ele2comp[element] for the
  // lanes still walking; then, with compression, each lane stores its root at ele2comp[x].
  lane_u32 find(warp_emitter& e, const find_code& f, std::uint32_t mask, const lane_u32& x,
                bool compress) {
    lane_u32 el = x;
    e.run(f.init, mask);
    for (std::uint32_t act = mask; act != 0;) {
      e.run(f.addr, act);
      e.mem_fn(f.ld, act, [&](unsigned l) { return mem.ele2comp + 4ull * el[l]; });
      std::uint32_t next = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (has(act, l) && s.ele2comp[el[l]] != el[l]) {
          el[l] = s.ele2comp[el[l]];
          next |= 1u << l;
        }
      e.run(f.test, act);
      e.run(f.back, next);
      act = next;
    }
    if (compress) {
      e.run(f.addr_c, mask);
      e.mem_fn(f.st, mask, [&](unsigned l) { return mem.ele2comp + 4ull * x[l]; });
      for (unsigned l = 0; l < 32; ++l)
        if (has(mask, l)) s.ele2comp[x[l]] = el[l];
    }
    return el;
  }

  // The accessor loads and the weight load of edge i[l] of vertex v[l]; returns the weights.
  lane_u32 edge(warp_emitter& e, const edge_code& c, std::uint32_t act, const lane_u32& v,
                const lane_u32& i) {
    auto at = [&](std::uint64_t base) {
      return [&, base](unsigned l) { return base + 4ull * v[l]; };
    };
    e.run(c.addr_nout, act);
    e.mem_fn(c.ld_nout, act, at(mem.nout));
    e.run(c.addr_ss, act);
    e.mem_fn(c.ld_ss, act, at(mem.srcsrc));
    e.run(c.addr_psrc, act);
    e.mem_fn(c.ld_psrc, act, at(mem.psrc));
    e.run(c.addr_wt, act);
    e.mem_fn(c.ld_wt, act, [&](unsigned l) { return mem.ewt + 4 * edge_index(v[l], i[l]); });
    lane_u32 wt{};
    for (unsigned l = 0; l < 32; ++l)
      if (has(act, l)) wt[l] = weight[g.row_ptr[v[l]] + i[l]];
    return wt;
  }

  // getDestination(v[l], i[l]) of the lanes in `mask` (the edgessrcdst load), then
  // find() of each with compression; returns the destinations' components.
  lane_u32 destination_boss(warp_emitter& e, code a_dst, code ld_dst, const find_code& f,
                            std::uint32_t mask, const lane_u32& v, const lane_u32& i) {
    e.run(a_dst, mask);
    e.mem_fn(ld_dst, mask, [&](unsigned l) { return mem.edst + 4 * edge_index(v[l], i[l]); });
    lane_u32 dst{};
    for (unsigned l = 0; l < 32; ++l)
      if (has(mask, l)) dst[l] = g.col[g.row_ptr[v[l]] + i[l]];
    return find(e, f, mask, dst, true);
  }

  // A topology-driven kernel: ceil(n / block) TBs, thread id < n does body(e, mask, id).
  template <class F>
  void topology_kernel(const char* name, const program& p, code head, code exit_oob, F&& body) {
    const kernel_info info =
        app.kernel(name, app.reserve_kernel_id(), dim3{(n + block - 1) / block, 1, 1},
                   dim3{block, 1, 1}, 0, p);
    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        lane_u32 id{};
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!has(lanes.live, l)) continue;
          const std::uint64_t v = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          if (v >= n) continue;
          id[l] = std::uint32_t(v);
          act |= 1u << l;
        }
        e.run(head, lanes.live);
        e.run(exit_oob, lanes.live & ~act);
        body(e, act, id);
      }
    });
  }

  void dinitcs();
  void dinit();
  void dfindelemin();
  void dfindelemin2();
  void verify_min_elem();
  void dfindcompmintwo(const program& p, const compmintwo_code& c, std::uint32_t trips,
                       std::vector<std::uint32_t>& srcboss, std::vector<std::uint32_t>& dstboss);
};

// head: R3 = blockIdx.x * blockDim.x + threadIdx.x, P0 = R3 >= nnodes (and the inpid test).
code topology_head(program& p) {
  auto m = p.here();
  p.global_index_1d();
  p.mov(4);  // graph.nnodes
  p.isetp("GE", 3, 4);
  return p.since(m);
}

void mst_run::dinitcs() {
  program p(app.opcodes(), 20);
  auto m = p.here();
  p.global_index_1d();
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.address(6, 3, rz);
  p.mov(8);  // 1
  const code a_len = p.since(m);
  const code st_len = p.st_global(6, 8, 4);
  const code a_e2c = p.address(10, 3, rz);
  const code st_e2c = p.st_global(10, 3, 4);
  const code done = p.exit();
  p.bra();
  topology_kernel(dinitcs_name, p, head, exit_oob,
                  [&](warp_emitter& e, std::uint32_t act, const lane_u32& id) {
                    e.run(a_len, act);
                    e.mem_fn(st_len, act, [&](unsigned l) { return mem.complen + 4ull * id[l]; });
                    e.run(a_e2c, act);
                    e.mem_fn(st_e2c, act, [&](unsigned l) { return mem.ele2comp + 4ull * id[l]; });
                    e.run(done, act);
                  });
  for (std::uint32_t v = 0; v < n; ++v) {
    s.complen[v] = 1;
    s.ele2comp[v] = v;
  }
}

void mst_run::dinit() {
  program p(app.opcodes(), 24);
  const code head = topology_head(p);
  const code exit_oob = p.exit();
  const code consts = p.mov(6);  // MYINFINITY
  // eleminwts, minwtcomponent, goaheadnodeofcomponent (= n), phores (= 0), partners (= id),
  // processinnextiteration (= false, one byte).
  const std::array<std::uint64_t, 6> base{mem.eleminwts, mem.minwtcomp, mem.goahead,
                                          mem.phores,    mem.partners,  mem.pinx};
  const std::array<reg, 6> value{6, 6, 4, rz, 3, rz};
  std::array<code, 6> addr{}, st{};
  for (std::size_t k = 0; k < base.size(); ++k) {
    addr[k] = p.address(8, 3, rz);
    st[k] = p.st_global(8, value[k] == rz ? 10 : value[k], k == 5 ? 1 : 4);
  }
  const code done = p.exit();
  p.bra();
  topology_kernel(dinit_name, p, head, exit_oob,
                  [&](warp_emitter& e, std::uint32_t act, const lane_u32& id) {
                    e.run(consts, act);
                    for (std::size_t k = 0; k < base.size(); ++k) {
                      const std::uint64_t size = k == 5 ? 1 : 4;
                      e.run(addr[k], act);
                      e.mem_fn(st[k], act, [&](unsigned l) { return base[k] + size * id[l]; });
                    }
                    e.run(done, act);
                  });
  std::fill(s.eleminwts.begin(), s.eleminwts.end(), infinity);
  std::fill(s.minwtcomp.begin(), s.minwtcomp.end(), infinity);
  std::fill(s.goahead.begin(), s.goahead.end(), n);
  for (std::uint32_t v = 0; v < n; ++v) s.partners[v] = v;
  std::fill(s.pinx.begin(), s.pinx.end(), 0);
}

void mst_run::dfindelemin() {
  program p(app.opcodes(), 30);
  const code head = topology_head(p);
  const code exit_oob = p.exit();
  const find_code f_src = make_find(p, 3, 5, 6, 8, true);  // R5 = srcboss
  auto m = p.here();
  p.address(10, 3, rz);
  const code a_deg = p.since(m);
  const code ld_deg = p.ld_global(12, 10, 4);  // degree
  m = p.here();
  p.mov(13);          // minwt = MYINFINITY
  p.iadd(14, 4, rz);  // dstboss = nnodes
  p.mov(15);          // ii = 0
  p.isetp("EQ", 12, rz);
  const code loop_init = p.since(m);
  const code skip_loop = p.bra();
  const edge_code ec = make_edge(p, 3, 15, 16, 18, 19, 20);
  const code cmp_wt = p.isetp("GE", 20, 13);  // wt < minwt
  const code skip_edge = p.bra();
  m = p.here();
  p.address(16, 19, rz);
  const code a_dst = p.since(m);
  const code ld_dst = p.ld_global(21, 16, 4);
  const find_code f_dst = make_find(p, 21, 22, 6, 8, true);  // R22 = tempdstboss
  m = p.here();
  p.isetp("NE", 5, 22);
  p.iadd(13, 20, rz);  // @P minwt = wt
  p.iadd(14, 22, rz);  // @P dstboss = tempdstboss
  const code take = p.since(m);
  m = p.here();
  p.iadd(15, 15, rz);
  p.isetp("LT", 15, 12);
  const code step = p.since(m);
  const code back = p.bra();
  const code a_elem = p.address(24, 3, rz);
  const code st_elem = p.st_global(24, 13, 4);
  const code a_part = p.address(24, 3, rz);
  const code st_part = p.st_global(24, 14, 4);
  const code a_cmin = p.address(26, 5, rz);
  const code ld_cmin = p.ld_global(28, 26, 4);
  m = p.here();
  p.isetp("GE", 13, 28);
  p.isetp("EQ", 5, 14);
  const code cmp_min = p.since(m);
  const code skip_red = p.bra();
  const code red_min = p.raw(p.family() == isa_family::volta ? "RED.E.MIN.STRONG.GPU" : "RED.E.MIN",
                             {}, {26, 13}, 4);
  const code done = p.exit();
  p.bra();

  topology_kernel(
      elemin_name, p, head, exit_oob, [&](warp_emitter& e, std::uint32_t act, const lane_u32& id) {
        const lane_u32 srcboss = find(e, f_src, act, id, true);
        e.run(a_deg, act);
        e.mem_fn(ld_deg, act, [&](unsigned l) { return mem.nout + 4ull * id[l]; });
        lane_u32 minwt{}, dstboss{}, ii{};
        std::uint32_t loop = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!has(act, l)) continue;
          minwt[l] = infinity;
          dstboss[l] = n;
          if (g.degree(id[l]) > 0) loop |= 1u << l;
        }
        e.run(loop_init, act);
        e.run(skip_loop, act & ~loop);
        while (loop != 0) {
          const lane_u32 wt = edge(e, ec, loop, id, ii);
          e.run(cmp_wt, loop);
          std::uint32_t smaller = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(loop, l) && wt[l] < minwt[l]) smaller |= 1u << l;
          e.run(skip_edge, loop & ~smaller);
          const lane_u32 tempdstboss = destination_boss(e, a_dst, ld_dst, f_dst, smaller, id, ii);
          e.run(take, smaller);
          for (unsigned l = 0; l < 32; ++l)
            if (has(smaller, l) && srcboss[l] != tempdstboss[l]) {
              minwt[l] = wt[l];
              dstboss[l] = tempdstboss[l];
            }
          e.run(step, loop);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(loop, l) && ++ii[l] < g.degree(id[l])) next |= 1u << l;
          e.run(back, next);
          loop = next;
        }
        e.run(a_elem, act);
        e.mem_fn(st_elem, act, [&](unsigned l) { return mem.eleminwts + 4ull * id[l]; });
        e.run(a_part, act);
        e.mem_fn(st_part, act, [&](unsigned l) { return mem.partners + 4ull * id[l]; });
        for (unsigned l = 0; l < 32; ++l)
          if (has(act, l)) {
            s.eleminwts[id[l]] = minwt[l];
            s.partners[id[l]] = dstboss[l];
          }
        e.run(a_cmin, act);
        e.mem_fn(ld_cmin, act, [&](unsigned l) { return mem.minwtcomp + 4ull * srcboss[l]; });
        std::uint32_t inform = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (has(act, l) && minwt[l] < s.minwtcomp[srcboss[l]] && srcboss[l] != dstboss[l])
            inform |= 1u << l;
        e.run(cmp_min, act);
        e.run(skip_red, act & ~inform);
        e.mem_fn(red_min, inform, [&](unsigned l) { return mem.minwtcomp + 4ull * srcboss[l]; });
        for (unsigned l = 0; l < 32; ++l)
          if (has(inform, l)) s.minwtcomp[srcboss[l]] = std::min(s.minwtcomp[srcboss[l]], minwt[l]);
        e.run(done, act);
      });
}

void mst_run::dfindelemin2() {
  program p(app.opcodes(), 31);
  const code head = topology_head(p);
  const code exit_oob = p.exit();
  const find_code f_src = make_find(p, 3, 5, 6, 8, true);  // R5 = srcboss
  const code a_elem = p.address(10, 3, rz);
  const code ld_elem = p.ld_global(12, 10, 4);
  const code a_cmin = p.address(14, 5, rz);
  const code ld_cmin = p.ld_global(16, 14, 4);
  const code cmp_min = p.isetp("NE", 12, 16);
  const code exit_min = p.exit();
  const code a_part = p.address(18, 3, rz);
  const code ld_part = p.ld_global(20, 18, 4);
  auto m = p.here();
  p.isetp("EQ", 5, 20);
  p.isetp("EQ", 20, 4);
  const code cmp_part = p.since(m);
  const code exit_part = p.exit();
  const code a_deg = p.address(18, 3, rz);
  const code ld_deg = p.ld_global(22, 18, 4);
  m = p.here();
  p.mov(23);  // ii = 0
  p.isetp("EQ", 22, rz);
  const code loop_init = p.since(m);
  const code skip_loop = p.exit();
  const edge_code ec = make_edge(p, 3, 23, 24, 26, 27, 28);
  const code a_elem2 = p.address(10, 3, rz);
  const code ld_elem2 = p.ld_global(12, 10, 4);  // eleminwts[id], reloaded
  const code cmp_wt = p.isetp("NE", 28, 12);
  const code skip_edge = p.bra();
  const code a_dst = p.address(24, 27, rz);
  const code ld_dst = p.ld_global(29, 24, 4);
  const find_code f_dst = make_find(p, 29, 30, 6, 8, true);  // R30 = tempdstboss
  const code a_part2 = p.address(18, 3, rz);
  const code ld_part2 = p.ld_global(20, 18, 4);  // partners[id], reloaded
  const code cmp_dst = p.isetp("NE", 30, 20);
  const code skip_cas = p.bra();
  const code a_goa = p.address(24, 5, rz);
  const code cas = p.raw(p.family() == isa_family::volta ? "ATOMG.E.CAS.STRONG.GPU" : "ATOM.E.CAS",
                         {26}, {24, 4, 3}, 4);
  m = p.here();
  p.iadd(23, 23, rz);
  p.isetp("LT", 23, 22);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  topology_kernel(
      elemin2_name, p, head, exit_oob, [&](warp_emitter& e, std::uint32_t act, const lane_u32& id) {
        const lane_u32 srcboss = find(e, f_src, act, id, true);
        auto at_id = [&](std::uint64_t base) {
          return [&, base](unsigned l) { return base + 4ull * id[l]; };
        };
        e.run(a_elem, act);
        e.mem_fn(ld_elem, act, at_id(mem.eleminwts));
        e.run(a_cmin, act);
        e.mem_fn(ld_cmin, act, [&](unsigned l) { return mem.minwtcomp + 4ull * srcboss[l]; });
        e.run(cmp_min, act);
        std::uint32_t same = 0, go = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (has(act, l) && s.eleminwts[id[l]] == s.minwtcomp[srcboss[l]]) same |= 1u << l;
        e.run(exit_min, act & ~same);
        e.run(a_part, same);
        e.mem_fn(ld_part, same, at_id(mem.partners));
        for (unsigned l = 0; l < 32; ++l)
          if (has(same, l) && srcboss[l] != s.partners[id[l]] && s.partners[id[l]] != n)
            go |= 1u << l;
        e.run(cmp_part, same);
        e.run(exit_part, same & ~go);
        e.run(a_deg, go);
        e.mem_fn(ld_deg, go, at_id(mem.nout));
        std::uint32_t loop = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (has(go, l) && g.degree(id[l]) > 0) loop |= 1u << l;
        e.run(loop_init, go);
        e.run(skip_loop, go & ~loop);
        lane_u32 ii{};
        while (loop != 0) {
          const lane_u32 wt = edge(e, ec, loop, id, ii);
          e.run(a_elem2, loop);
          e.mem_fn(ld_elem2, loop, at_id(mem.eleminwts));
          e.run(cmp_wt, loop);
          std::uint32_t equal = 0, hit = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(loop, l) && wt[l] == s.eleminwts[id[l]]) equal |= 1u << l;
          e.run(skip_edge, loop & ~equal);
          const lane_u32 tempdstboss = destination_boss(e, a_dst, ld_dst, f_dst, equal, id, ii);
          e.run(a_part2, equal);
          e.mem_fn(ld_part2, equal, at_id(mem.partners));
          e.run(cmp_dst, equal);
          for (unsigned l = 0; l < 32; ++l)
            if (has(equal, l) && tempdstboss[l] == s.partners[id[l]]) hit |= 1u << l;
          e.run(skip_cas, equal & ~hit);
          e.run(a_goa, hit);
          e.mem_fn(cas, hit, [&](unsigned l) { return mem.goahead + 4ull * srcboss[l]; });
          for (unsigned l = 0; l < 32; ++l)
            if (has(hit, l) && s.goahead[srcboss[l]] == n) s.goahead[srcboss[l]] = id[l];
          e.run(step, loop);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(loop, l) && ++ii[l] < g.degree(id[l])) next |= 1u << l;
          e.run(back, next);
          loop = next;
        }
        e.run(done, go);
      });
}

void mst_run::verify_min_elem() {
  program p(app.opcodes(), 31);
  const code head = topology_head(p);
  const code exit_oob = p.exit();
  const code a_boss = p.address(6, 3, rz);
  const code ld_boss = p.ld_global(8, 6, 4);  // isBoss(id): ele2comp[id] == id
  const code cmp_boss = p.isetp("NE", 8, 3);
  const code exit_boss = p.exit();
  const code a_goa = p.address(10, 3, rz);
  const code ld_goa = p.ld_global(12, 10, 4);  // minwt_node
  const code cmp_goa = p.isetp("EQ", 12, 4);
  const code exit_goa = p.exit();
  const code a_deg = p.address(14, 12, rz);
  const code ld_deg = p.ld_global(16, 14, 4);
  const code a_cmin = p.address(10, 3, rz);
  const code ld_cmin = p.ld_global(18, 10, 4);  // minwt
  auto m = p.here();
  p.isetp("EQ", 18, rz);  // minwt == MYINFINITY
  const code cmp_inf = p.since(m);
  const code exit_inf = p.exit();
  m = p.here();
  p.mov(19);  // ii = 0
  p.isetp("EQ", 16, rz);
  const code loop_init = p.since(m);
  const code skip_loop = p.bra();
  const edge_code ec = make_edge(p, 12, 19, 20, 22, 23, 24);
  const code cmp_wt = p.isetp("NE", 24, 18);
  const code skip_edge = p.bra();
  const code a_dst = p.address(20, 23, rz);
  const code ld_dst = p.ld_global(26, 20, 4);
  const find_code f_dst = make_find(p, 26, 27, 6, 8, true);
  const code a_part = p.address(28, 12, rz);
  const code ld_part = p.ld_global(30, 28, 4);
  m = p.here();
  p.isetp("NE", 27, 30);
  p.isetp("EQ", 27, 3);
  const code cmp_dst = p.since(m);
  const code skip_mark = p.bra();
  m = p.here();
  p.address(28, 12, rz);
  p.mov(25);  // true
  const code a_pinx = p.since(m);
  const code st_pinx = p.st_global(28, 25, 1);
  const code exit_found = p.exit();
  m = p.here();
  p.iadd(19, 19, rz);
  p.isetp("LT", 19, 16);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();  // (the "component is wrong" printf, never reached)
  p.bra();

  topology_kernel(
      verify_name, p, head, exit_oob, [&](warp_emitter& e, std::uint32_t act, const lane_u32& id) {
        e.run(a_boss, act);
        e.mem_fn(ld_boss, act, [&](unsigned l) { return mem.ele2comp + 4ull * id[l]; });
        e.run(cmp_boss, act);
        std::uint32_t boss = 0, goa = 0, fin = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (has(act, l) && s.ele2comp[id[l]] == id[l]) boss |= 1u << l;
        e.run(exit_boss, act & ~boss);
        e.run(a_goa, boss);
        e.mem_fn(ld_goa, boss, [&](unsigned l) { return mem.goahead + 4ull * id[l]; });
        e.run(cmp_goa, boss);
        lane_u32 node{};
        for (unsigned l = 0; l < 32; ++l)
          if (has(boss, l) && s.goahead[id[l]] != n) {
            goa |= 1u << l;
            node[l] = s.goahead[id[l]];
          }
        e.run(exit_goa, boss & ~goa);
        e.run(a_deg, goa);
        e.mem_fn(ld_deg, goa, [&](unsigned l) { return mem.nout + 4ull * node[l]; });
        e.run(a_cmin, goa);
        e.mem_fn(ld_cmin, goa, [&](unsigned l) { return mem.minwtcomp + 4ull * id[l]; });
        e.run(cmp_inf, goa);
        for (unsigned l = 0; l < 32; ++l)
          if (has(goa, l) && s.minwtcomp[id[l]] != infinity) fin |= 1u << l;
        e.run(exit_inf, goa & ~fin);
        std::uint32_t loop = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (has(fin, l) && g.degree(node[l]) > 0) loop |= 1u << l;
        e.run(loop_init, fin);
        e.run(skip_loop, fin & ~loop);
        std::uint32_t fell_out = fin & ~loop;
        lane_u32 ii{};
        while (loop != 0) {
          const lane_u32 wt = edge(e, ec, loop, node, ii);
          e.run(cmp_wt, loop);
          std::uint32_t equal = 0, found = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(loop, l) && wt[l] == s.minwtcomp[id[l]]) equal |= 1u << l;
          e.run(skip_edge, loop & ~equal);
          const lane_u32 tdb = destination_boss(e, a_dst, ld_dst, f_dst, equal, node, ii);
          e.run(a_part, equal);
          e.mem_fn(ld_part, equal, [&](unsigned l) { return mem.partners + 4ull * node[l]; });
          e.run(cmp_dst, equal);
          for (unsigned l = 0; l < 32; ++l)
            if (has(equal, l) && tdb[l] == s.partners[node[l]] && tdb[l] != id[l]) found |= 1u << l;
          e.run(skip_mark, equal & ~found);
          e.run(a_pinx, found);
          e.mem_fn(st_pinx, found, [&](unsigned l) { return mem.pinx + node[l]; });
          for (unsigned l = 0; l < 32; ++l)
            if (has(found, l)) s.pinx[node[l]] = 1;
          e.run(exit_found, found);
          const std::uint32_t rest = loop & ~found;
          e.run(step, rest);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(rest, l)) {
              if (++ii[l] < g.degree(node[l]))
                next |= 1u << l;
              else
                fell_out |= 1u << l;
            }
          e.run(back, next);
          loop = next;
        }
        e.run(done, fell_out);
      });
}

// dfindcompmintwo's program: phase A (to the first barrier) and phase B (to the second).
// Registers stay at 24 or fewer so that 4 TBs of 384 threads fit uc-bigcore's 36864 registers.
struct compmintwo_code {
  // phase A
  code head, a_pinx, ld_pinx, cmp_pinx, skip_find;
  find_code f_src;
  code a_part, ld_part;
  find_code f_dst;
  // the barrier (both phases end in one)
  struct barrier {
    code membar, bar1, arrive_addr, arrive, bar2, bar3, release_addr, release, bar_other, done;
  } sync_a, sync_b;
  // phase B
  code b_head, b_a_pinx, b_ld_pinx, b_cmp, b_skip;
  find_code u_one, u_two;
  code u_cmp, u_same, u_pick, u_exch, u_cmp_old, u_retry, u_a_len, u_ld_len, u_red_len, u_dec,
      u_red_ncomp;
  code ok_test, ok_skip, ok_a_elem, ok_ld_elem, ok_red_wt, ok_red_count, ok_a_pinx, ok_st_pinx,
      ok_st_elem, fail_addr, fail_st;
};

compmintwo_code::barrier make_barrier(program& p) {
  compmintwo_code::barrier b;
  b.membar = p.raw(p.family() == isa_family::volta ? "MEMBAR.SC.GPU" : "MEMBAR.GL", {}, {});
  b.bar1 = p.bar_sync();
  auto m = p.here();
  p.address(20, 0, rz);  // &d_sync[blockIdx.x]
  p.mov(22);             // 1
  b.arrive_addr = p.since(m);
  b.arrive = p.st_global(20, 22, 4);
  b.bar2 = p.bar_sync();  // TB 0, after the peers' flags (spin not traced)
  b.bar3 = p.bar_sync();
  b.release_addr = p.address(20, 2, rz);  // &d_sync[threadIdx.x]
  b.release = p.st_global(20, rz, 4);
  b.bar_other = p.bar_sync();  // the other TBs, after their acknowledgement (spin not traced)
  b.done = p.exit();
  return b;
}

compmintwo_code make_compmintwo(program& p) {
  compmintwo_code c;
  auto m = p.here();
  p.global_index_1d();  // R3 = tid; R0 = blockIdx.x, R2 = threadIdx.x
  p.mov(4);             // nnodes
  p.mov(5);             // nthreads
  p.isetp("GE", 3, 4);
  c.head = p.since(m);
  c.a_pinx = p.address(6, 3, rz);
  c.ld_pinx = p.ld_global(8, 6, 1);
  c.cmp_pinx = p.isetp("EQ", 8, rz);
  c.skip_find = p.bra();
  c.f_src = make_find(p, 3, 9, 6, 8, true);  // R9 = srcboss
  c.a_part = p.address(6, 3, rz);
  c.ld_part = p.ld_global(10, 6, 4);
  c.f_dst = make_find(p, 10, 11, 6, 8, true);  // R11 = dstboss
  c.sync_a = make_barrier(p);
  // phase B: the same thread, after the barrier.
  c.b_head = p.isetp("GE", 3, 4);
  c.b_a_pinx = p.address(6, 3, rz);
  c.b_ld_pinx = p.ld_global(8, 6, 1);
  m = p.here();
  p.isetp("EQ", 8, rz);
  p.isetp("EQ", 9, 11);
  c.b_cmp = p.since(m);
  c.b_skip = p.bra();
  c.u_one = make_find(p, 9, 12, 6, 8, false);
  c.u_two = make_find(p, 11, 13, 6, 8, false);
  c.u_cmp = p.isetp("EQ", 12, 13);
  c.u_same = p.bra();
  m = p.here();
  p.isetp("LT", 13, 12);
  p.iadd(14, 13, rz);  // boss = max
  p.iadd(15, 12, rz);  // subordinate = min
  p.address(16, 15, rz);
  c.u_pick = p.since(m);
  c.u_exch = p.atom("EXCH", 18, 16, 14);
  m = p.here();
  p.isetp("NE", 18, 15);
  p.iadd(9, 18, rz);   // @P one = oldboss
  p.iadd(11, 14, rz);  // @P two = boss
  c.u_cmp_old = p.since(m);
  c.u_retry = p.bra();
  c.u_a_len = p.address(16, 15, rz);
  c.u_ld_len = p.ld_global(19, 16, 4);
  c.u_red_len = p.red_add(16, 19, false);  // &complen[boss] (address reg reused)
  c.u_dec = p.mov(19);                     // -1, &ncomponents
  c.u_red_ncomp = p.red_add(16, 19, false);
  m = p.here();
  p.isetp("EQ", 12, 13);
  p.mov(21);  // MYINFINITY, true
  c.ok_test = p.since(m);
  c.ok_skip = p.bra();
  c.ok_a_elem = p.address(6, 3, rz);
  c.ok_ld_elem = p.ld_global(8, 6, 4);
  c.ok_red_wt = p.red_add(16, 8, false);      // mstwt
  c.ok_red_count = p.red_add(16, 19, false);  // count
  c.ok_a_pinx = p.address(6, 3, rz);
  c.ok_st_pinx = p.st_global(6, rz, 1);
  c.ok_st_elem = p.st_global(6, 21, 4);  // eleminwts[id] = MYINFINITY
  c.fail_addr = p.mov(16);               // repeat
  c.fail_st = p.st_global(16, 21, 1);
  c.sync_b = make_barrier(p);
  p.bra();
  return c;
}

void emit_barrier(warp_emitter& e, const compmintwo_code::barrier& b, std::uint32_t live,
                  std::uint32_t tb, std::uint32_t warp, std::uint32_t grid, std::uint64_t sync) {
  e.run(b.membar, live);
  e.run(b.bar1, live);
  const std::uint32_t t0 = warp == 0 ? 1u : 0u;
  e.run(b.arrive_addr, t0);
  e.mem_fn(b.arrive, t0, [&](unsigned) { return sync + 4ull * tb; });
  if (tb == 0) {
    e.run(b.bar2, live);
    e.run(b.bar3, live);
    std::uint32_t peers = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (has(live, l) && 32 * warp + l < grid) peers |= 1u << l;
    e.run(b.release_addr, peers);
    e.mem_fn(b.release, peers, [&](unsigned l) { return sync + 4ull * (32 * warp + l); });
  } else {
    e.run(b.bar_other, live);
  }
  e.run(b.done, live);
}

void mst_run::dfindcompmintwo(const program& p, const compmintwo_code& c, std::uint32_t trips,
                              std::vector<std::uint32_t>& srcboss,
                              std::vector<std::uint32_t>& dstboss) {
  const std::uint64_t nthreads = std::uint64_t(cm_grid) * compmintwo_block;
  const dim3 grid{cm_grid, 1, 1}, blk{compmintwo_block, 1, 1};
  for (std::uint32_t trip = 0; trip < trips; ++trip) {
    // Phase A: srcboss, dstboss of the vertices to process; then the first barrier.
    const kernel_info ia = app.kernel(compmintwo_name, app.reserve_kernel_id(), grid, blk, 0, p);
    app.write_kernel(ia, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(blk, w);
        lane_u32 id{}, part{};
        std::uint32_t in = 0, go = 0;
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint64_t t = std::uint64_t(tb.index.x) * compmintwo_block + lanes.flat[l];
          const std::uint64_t v = t + trip * nthreads;
          if (!has(lanes.live, l) || v >= n) continue;
          id[l] = std::uint32_t(v);
          in |= 1u << l;
          if (s.pinx[v]) go |= 1u << l;
        }
        e.run(c.head, lanes.live);
        e.run(c.a_pinx, in);
        e.mem_fn(c.ld_pinx, in, [&](unsigned l) { return mem.pinx + id[l]; });
        e.run(c.cmp_pinx, in);
        e.run(c.skip_find, lanes.live & ~go);
        const lane_u32 sb = find(e, c.f_src, go, id, true);
        e.run(c.a_part, go);
        e.mem_fn(c.ld_part, go, [&](unsigned l) { return mem.partners + 4ull * id[l]; });
        for (unsigned l = 0; l < 32; ++l)
          if (has(go, l)) part[l] = s.partners[id[l]];
        const lane_u32 db = find(e, c.f_dst, go, part, true);
        for (unsigned l = 0; l < 32; ++l)
          if (has(go, l)) {
            srcboss[id[l]] = sb[l];
            dstboss[id[l]] = db[l];
          }
        emit_barrier(e, c.sync_a, lanes.live, tb.index.x, w, cm_grid, mem.sync);
      }
    });

    // Phase B: unify; then the second barrier.
    const kernel_info ib = app.kernel(compmintwo_name, app.reserve_kernel_id(), grid, blk, 0, p);
    app.write_kernel(ib, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(blk, w);
        lane_u32 id{}, one{}, two{};
        std::uint32_t in = 0, go = 0;
        for (unsigned l = 0; l < 32; ++l) {
          const std::uint64_t t = std::uint64_t(tb.index.x) * compmintwo_block + lanes.flat[l];
          const std::uint64_t v = t + trip * nthreads;
          if (!has(lanes.live, l) || v >= n) continue;
          id[l] = std::uint32_t(v);
          in |= 1u << l;
          if (s.pinx[v] && srcboss[v] != dstboss[v]) {
            go |= 1u << l;
            one[l] = srcboss[v];
            two[l] = dstboss[v];
          }
        }
        e.run(c.b_head, lanes.live);
        e.run(c.b_a_pinx, in);
        e.mem_fn(c.b_ld_pinx, in, [&](unsigned l) { return mem.pinx + id[l]; });
        e.run(c.b_cmp, in);
        e.run(c.b_skip, lanes.live & ~go);
        // cs.unify(srcboss, dstboss), its do-while in lockstep.
        std::uint32_t ok = 0, failed = 0;
        for (std::uint32_t act = go; act != 0;) {
          const lane_u32 oc = find(e, c.u_one, act, one, false);
          const lane_u32 tc = find(e, c.u_two, act, two, false);
          e.run(c.u_cmp, act);
          std::uint32_t differ = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(act, l) && oc[l] != tc[l]) differ |= 1u << l;
          failed |= act & ~differ;
          e.run(c.u_same, act & ~differ);
          lane_u32 boss{}, sub{}, old{};
          for (unsigned l = 0; l < 32; ++l)
            if (has(differ, l)) {
              boss[l] = std::max(oc[l], tc[l]);
              sub[l] = std::min(oc[l], tc[l]);
            }
          e.run(c.u_pick, differ);
          e.mem_fn(c.u_exch, differ, [&](unsigned l) { return mem.ele2comp + 4ull * sub[l]; });
          for (unsigned l = 0; l < 32; ++l)
            if (has(differ, l)) {
              old[l] = s.ele2comp[sub[l]];
              s.ele2comp[sub[l]] = boss[l];
            }
          e.run(c.u_cmp_old, differ);
          std::uint32_t retry = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (has(differ, l) && old[l] != sub[l]) {
              retry |= 1u << l;
              one[l] = old[l];
              two[l] = boss[l];
            }
          e.run(c.u_retry, retry);
          const std::uint32_t merged = differ & ~retry;
          e.run(c.u_a_len, merged);
          e.mem_fn(c.u_ld_len, merged, [&](unsigned l) { return mem.complen + 4ull * sub[l]; });
          e.mem_fn(c.u_red_len, merged, [&](unsigned l) { return mem.complen + 4ull * boss[l]; });
          e.run(c.u_dec, merged);
          e.mem_fn(c.u_red_ncomp, merged, [&](unsigned) { return mem.ncomp; });
          for (unsigned l = 0; l < 32; ++l)
            if (has(merged, l)) {
              s.complen[boss[l]] += s.complen[sub[l]];
              --s.ncomp;
            }
          ok |= merged;
          act = retry;
        }
        e.run(c.ok_test, go);
        e.run(c.ok_skip, failed);
        e.run(c.ok_a_elem, ok);
        e.mem_fn(c.ok_ld_elem, ok, [&](unsigned l) { return mem.eleminwts + 4ull * id[l]; });
        e.mem_fn(c.ok_red_wt, ok, [&](unsigned) { return mem.mstwt; });
        e.mem_fn(c.ok_red_count, ok, [&](unsigned) { return mem.count; });
        e.run(c.ok_a_pinx, ok);
        e.mem_fn(c.ok_st_pinx, ok, [&](unsigned l) { return mem.pinx + id[l]; });
        e.mem_fn(c.ok_st_elem, ok, [&](unsigned l) { return mem.eleminwts + 4ull * id[l]; });
        for (unsigned l = 0; l < 32; ++l)
          if (has(ok, l)) {
            s.pinx[id[l]] = 0;
            s.eleminwts[id[l]] = infinity;
          }
        e.run(c.fail_addr, failed);
        e.mem_fn(c.fail_st, failed, [&](unsigned) { return mem.repeat; });
        if (failed != 0) s.repeat = true;
        emit_barrier(e, c.sync_b, lanes.live, tb.index.x, w, cm_grid, mem.sync);
      }
    });
  }
}

void generate_mst(const param_set& ps, app_builder& app) {
  const csr_graph g = kernel_graph(ps);
  const std::uint32_t n = g.vertices;
  const std::uint32_t max_weight = ps.u32("max_weight");
  const std::uint64_t wseed = ps.u64("seed") + 1;
  std::vector<std::uint32_t> weight(g.col.size());
  for (std::uint32_t u = 0; u < n; ++u)
    for (std::uint32_t k = g.row_ptr[u]; k < g.row_ptr[u + 1]; ++k) {
      const std::uint64_t a = std::min(u, g.col[k]), b = std::max(u, g.col[k]);
      weight[k] = 1 + std::uint32_t(hash_unit(wseed, a << 32 | b) * max_weight);
    }
  const std::uint32_t sms = ps.u32("sms"), res = ps.u32("res");
  const std::uint64_t m = g.col.size();

  mst_run r{app, g, weight, n, ps.u32("block"), sms * res, {}, {}};
  device_arrays& mem = r.mem;
  // main.cu: gb.Setup(nSM * compmintwo_res), hgraph.cudaCopy(graph) (allocOnDevice, then the
  // copies in that order), ComponentSpace cs(nnodes), then mstwt, the per-node arrays,
  // grepeat and gedgecount.
  mem.sync = app.output(4ull * r.cm_grid);
  mem.edst = app.input(4 * (m + 1));
  mem.ewt = app.input(4 * (m + 1));
  mem.psrc = app.input(4ull * (n + 1));
  mem.nout = app.input(4ull * n);
  mem.ninc = app.input(4ull * n);
  mem.srcsrc = app.input(4ull * n);
  mem.maxout = app.input(4);
  mem.maxin = app.input(4);
  mem.ncomp = app.output(4);
  mem.complen = app.output(4ull * n);
  mem.ele2comp = app.output(4ull * n);
  device_state& s = r.s;
  s.ele2comp.assign(n, 0);
  s.complen.assign(n, 0);
  s.eleminwts.assign(n, 0);
  s.minwtcomp.assign(n, 0);
  s.partners.assign(n, 0);
  s.goahead.assign(n, 0);
  s.pinx.assign(n, 0);
  r.dinitcs();
  app.memcpy_h2d(mem.ncomp, 4);
  s.ncomp = n;
  mem.mstwt = app.input(4);
  mem.eleminwts = app.output(4ull * n);
  mem.minwtcomp = app.output(4ull * n);
  mem.partners = app.output(4ull * n);
  mem.phores = app.output(4ull * n);
  mem.pinx = app.output(n);
  mem.goahead = app.output(4ull * n);
  mem.repeat = app.input(1);
  mem.count = app.input(4);

  program cp(app.opcodes(), 23);
  const compmintwo_code cc = make_compmintwo(cp);
  const std::uint64_t nthreads = std::uint64_t(r.cm_grid) * compmintwo_block;
  const auto trips = std::uint32_t((n + nthreads - 1) / nthreads);
  std::vector<std::uint32_t> srcboss(n, 0), dstboss(n, 0);

  std::uint32_t current = n;
  for (std::uint32_t iteration = 0; iteration < max_iterations; ++iteration) {
    const std::uint32_t previous = current;
    r.dinit();
    r.dfindelemin();
    r.dfindelemin2();
    r.verify_min_elem();
    do {
      s.repeat = false;
      app.memcpy_h2d(mem.repeat, 1);
      r.dfindcompmintwo(cp, cc, trips, srcboss, dstboss);
    } while (s.repeat);
    current = s.ncomp;
    if (current == previous) break;
  }
}
}  // namespace mst_kernels
}  // namespace

kernel_generator mst_generator() {
  std::vector<param_desc> p = {
      param_desc::integer("scale", 13, 1, 24, "2^scale vertices (generated graphs)"),
      param_desc::integer("degree", 6, 1, 64,
                          "edges generated per vertex (rmat, citation, banded)"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the graph and the weights"),
      param_desc::integer("max_weight", 1000, 1, 100000000,
                          "edge weights in [1, max_weight], hashed from the edge, symmetric"),
      param_desc::integer("block", 1024, 32, 1024,
                          "threads per TB of dinit ... verify_min_elem (maxThreadsDim[0])"),
      param_desc::integer("sms", 16, 1, 1024, "nSM of dfindcompmintwo's grid (nSM * res TBs)"),
      param_desc::integer("res", 4, 1, 32,
                          "maximum_residency of dfindcompmintwo (TBs of 384 threads per SM)")};
  for (param_desc& d : graph_params("graph", "rmat", "R-MAT")) p.push_back(std::move(d));
  return {"mst",
          "LonestarGPU mst: Boruvka MST (dinit, dfindelemin, dfindelemin2, verify_min_elem, "
          "dfindcompmintwo while repeat; its global barriers traced as kernel boundaries)",
          std::move(p), mst_kernels::generate_mst};
}

}  // namespace gputlm::traces::generators
