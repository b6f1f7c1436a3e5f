// The Stencil Processing Unit's benchmark (Rajasree, "Extending and Validating the Stencil
// Processing Unit", MS thesis, Colorado State 2016, ch. 3-4; summary in docs/references.md,
// "SPU runtime and sync"): the 2-D stencil on a 3-D iteration space
//   H[i,j,k] = (H[i-1,j,k] + H[i,j-1,k] + H[i,j,k-1]) / 3,   0 <= i, j < N, 0 <= k < K,
// with boundaries H[-1,j,k] = C[j,k] (west), H[i,-1,k] = B[i,k] (north), H[i,j,-1] = A[i,j];
// outputs H[i,j,K-1], H[N-1,j,k] (east face) and H[i,N-1,k] (south face).
//
// Mapping (docs/traces.md, "Generators", spu_stencil):
//  - CTA (x, y) of the (N/b) x (N/b) grid owns the tile column (x, y, .) of b x b x b tiles,
//    K/b tiles along k. Its (b/s) x (b/s) threads each own an s x s patch of the (i, j) plane
//    (thesis "subtile"), kept in registers across k, so the k-face needs no memory traffic.
//  - Inside a tile, plane kk of thread (tx, ty) is computed at wavefront step tx + ty + kk
//    (2(b/s - 1) + b steps, BAR.SYNC after each); patch edges go to the east/south neighbour
//    thread through shared memory (STS/LDS.128, double-buffered by plane parity).
//  - Threads on the CTA's west/north edge read their inputs from the communication buffers
//    (CB.POP.WEST/NORTH, 16 bytes per lane); threads on the east/south edge write their edge
//    to CB.PUSH.EAST/SOUTH. One tile moves b*b*4 bytes through each CB direction.
//  - sync=pairwise (thesis Alg. 3): per tile BAR.BLOCKSYNC.NORTH, .WEST, compute,
//    BAR.BLOCKSYNC.SOUTH, .EAST. sync=global (Alg. 1): a loop of (N/b)*2 + K/b global
//    BAR.BLOCKSYNCs; unit (X, Y) of the ring grid below works on tile k at step X + Y + k - 1.
//  - The A tile is loaded at k = 0 and the H[.,.,K-1] tile stored at the last k (LDG/STG.128).
//  - iu=ring: the interface units' program is part of the kernel, as in SPU-Sim (IUs run the
//    kernel's %regiu branch). The grid is (N/b + 2) x (N/b + 2): TB (0, Y) is the west loader
//    of CTA row Y-1 (LDG of C, CB.PUSH.EAST, BAR.BLOCKSYNC.EAST per tile), (X, 0) the north
//    loader (B, PUSH.SOUTH), (N/b + 1, Y) the east storer (BAR.BLOCKSYNC.WEST, CB.POP.WEST,
//    STG to the east face), (X, N/b + 1) the south storer; corner TBs only EXIT and take no
//    part in block syncs; SM CTA (x, y) is TB (x + 1, y + 1). iu=none: the grid is only the
//    SM CTAs, and the platform's runtime supplies all border traffic.
//  VIU spill/restore between passes is runtime work (thesis §4.1) and is not in the trace.
//  target=gpu: the GPU baseline of the thesis (§3.2, §6.1.1; Ranasinghe 2014): the same
//  CTAs and tile computation on an ordinary GPU, the faces exchanged through global memory
//  and the dependences kept by a status array. Thread 0 takes the CTA's ticket with an
//  atomicAdd (CTAs start in ticket order: the TB's linear id) and, per tile, polls the
//  west and north producers' status words; all threads stage the west and north faces from
//  global memory into shared memory (coalesced 16-byte loads, stored transposed), the edge
//  threads read them there in place of CB.POP and write their east and south edges to
//  shared memory in place of CB.PUSH; after the tile the faces go out to global memory
//  (the consumer's exchange buffer, or the east and south outputs at the grid's edge), a
//  MEMBAR, and thread 0 stores the tile count to the CTA's status word. Per CTA 4Nb + 2b²
//  elements move (thesis Eq 3.2). A trace cannot spin: each wait is one poll carrying the
//  value it waits for (flag=k+1, the producer's tiles done) and the status store the value it
//  writes; the SMX polls again until the word holds it (docs/core.md, "Flags").
#include <fmt/format.h>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct geometry {
  std::uint32_t n, k, b, s;
  std::uint32_t t;       // threads per TB side (b / s)
  std::uint32_t nt;      // threads per TB
  std::uint32_t tiles;   // K / b
  std::uint32_t ctas;    // CTAs per side (N / b)
  std::uint32_t steps;   // wavefront steps per tile
  std::uint32_t gsteps;  // global-sync loop length
  bool ring, global, gpu;
};

enum class role : std::uint8_t { sm, idle, west, east, north, south };

// One interface unit's per-tile program: loaders LDG + CB.PUSH, storers CB.POP + STG.
struct iu_code {
  code init, g_cmp, g_skip, sync_before, sync_after, bs_all, inc, back, done;
  std::vector<code> addr, ldst, cb;
};

class spu_generator {
 public:
  spu_generator(const param_set& ps, app_builder& app)
      : m_app(app), m_g(read_geometry(ps)), m_p(app.opcodes(), after_patch(7)) {
    const geometry& g = m_g;
    // Allocated in order (inputs A, B, C, then the outputs), the note written, then the
    // inputs copied: the note precedes the commands (binary traces keep notes first).
    m_a = app.output(4ull * g.n * g.n);
    m_bnorth = app.output(4ull * g.n * g.k);
    m_cwest = app.output(4ull * g.n * g.k);
    m_hk = app.output(4ull * g.n * g.n);
    m_heast = app.output(4ull * g.n * g.k);
    m_hsouth = app.output(4ull * g.n * g.k);
    if (g.gpu) {  // face exchange buffers (one face per CTA and tile each way), status, ticket
      const std::uint64_t faces = 4ull * g.b * g.b * g.ctas * g.ctas * g.tiles;
      m_xface = app.output(faces);
      m_yface = app.output(faces);
      m_status = app.output(4ull * g.ctas * g.ctas);
      m_ticket = app.output(4);
    }
    m_id = app.reserve_kernel_id();
    // What the SPU's runtime reads beyond the launch header (docs/spu.md, "Kernel note"):
    // the tiling, the sync, the global-sync loop's barriers, and the arrays its interface
    // units load from and store to.
    if (!g.gpu)
      app.note(fmt::format(
          "spu kernel={} n={} k={} b={} s={} sync={} iu={} barriers={} a=0x{:x} "
          "north=0x{:x} west=0x{:x} out=0x{:x} east=0x{:x} south=0x{:x}",
          m_id, g.n, g.k, g.b, g.s, g.global ? "global" : "pairwise", g.ring ? "ring" : "none",
          g.global ? g.gsteps : 0, m_a, m_bnorth, m_cwest, m_hk, m_heast, m_hsouth));
    app.memcpy_h2d(m_a, 4ull * g.n * g.n);
    if (g.gpu) app.memcpy_h2d(m_status, 4ull * g.ctas * g.ctas);  // zeroed status words
    app.memcpy_h2d(m_bnorth, 4ull * g.n * g.k);
    app.memcpy_h2d(m_cwest, 4ull * g.n * g.k);
  }

  void run();

 private:
  static geometry read_geometry(const param_set& ps) {
    geometry g{};
    g.n = ps.u32("n");
    g.k = ps.u32("k") == 0 ? g.n : ps.u32("k");
    g.b = ps.u32("b");
    g.s = ps.u32("s");
    if (g.s % 4 != 0) param_set::fail("s", "must be a multiple of 4 (float4 patch rows)");
    if (g.b % g.s != 0) param_set::fail("b", "must be a multiple of s");
    if (g.n % g.b != 0) param_set::fail("n", "must be a multiple of b");
    if (g.k % g.b != 0) param_set::fail("k", "must be a multiple of b");
    g.t = g.b / g.s;
    g.nt = g.t * g.t;
    if (g.nt > 1024) param_set::fail("s", "(b/s)^2 exceeds 1024 threads per TB");
    g.tiles = g.k / g.b;
    g.ctas = g.n / g.b;
    g.steps = 2 * (g.t - 1) + g.b;
    g.gsteps = 2 * g.ctas + g.tiles;
    g.ring = ps.str("iu") == "ring";
    g.global = ps.str("sync") == "global";
    g.gpu = ps.str("target") == "gpu";
    if (g.gpu && g.ring) param_set::fail("iu", "target=gpu has no interface units: use iu=none");
    if (g.gpu && g.global)
      param_set::fail("sync", "target=gpu syncs through its status array: use sync=pairwise");
    return g;
  }

  // Register map of the SM program (s = 4: patch R20-R35, nregs 48).
  reg west_in(std::uint32_t r) const { return reg(12 + r); }
  reg north_in(std::uint32_t c) const { return reg(12 + m_g.s + c); }
  reg patch(std::uint32_t r, std::uint32_t c) const { return reg(12 + 2 * m_g.s + r * m_g.s + c); }
  reg after_patch(std::uint32_t i) const { return reg(12 + 2 * m_g.s + m_g.s * m_g.s + i); }

  void build();
  void build_sm();
  void build_loader(iu_code& c, direction push_dir);
  void build_storer(iu_code& c, direction pop_dir);
  role role_of(const dim3& tb) const;
  void emit_sm(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x, std::uint32_t y) const;
  void emit_tile(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x, std::uint32_t y,
                 std::uint32_t k) const;
  void emit_iu(warp_emitter& e, const warp_lanes& lanes, const iu_code& c, bool loader,
               std::uint64_t base, std::uint32_t line, std::uint32_t first_step) const;

  app_builder& m_app;
  geometry m_g;
  program m_p;
  std::uint32_t m_id = 0;
  std::uint64_t m_xface = 0, m_yface = 0, m_status = 0, m_ticket = 0;
  // target=gpu: shared-memory staging of the four faces (after the edge buffers).
  std::uint64_t stage(int face) const {
    return 16ull * m_g.t * m_g.b + std::uint64_t(face) * 4 * m_g.b * m_g.b;
  }
  // Global address of chunk (row, 16-byte column col) of a face of CTA (x, y), tile k:
  // face 0 west (input), 1 north (input), 2 east (output), 3 south (output).
  std::uint64_t face_addr(int face, std::uint32_t x, std::uint32_t y, std::uint32_t k,
                          std::uint32_t row, std::uint32_t col) const;
  void emit_gpu_faces(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x, std::uint32_t y,
                      std::uint32_t k, bool in) const;
  std::uint64_t m_a = 0, m_bnorth = 0, m_cwest = 0, m_hk = 0, m_heast = 0, m_hsouth = 0;

  // SM program
  code m_head, m_sm_init, m_bs_n, m_bs_w, m_g_cmp, m_g_skip, m_a_cmp, m_a_skip, m_addr_a;
  std::vector<code> m_ld_a, m_st_h, m_pop_w, m_lds_w, m_pop_n, m_lds_n, m_sts_e, m_push_e, m_sts_s,
      m_push_s;
  code m_step_init, m_step_head, m_body_begin, m_body_skip, m_compute, m_body_end, m_bar,
      m_step_inc, m_step_back, m_h_cmp, m_h_skip, m_addr_h, m_bs_s, m_bs_e, m_bs_all, m_tile_inc,
      m_tile_back, m_sm_exit, m_idle_exit;
  std::vector<code> m_dispatch_cmp, m_dispatch_bra;  // idle, west, east, north, south
  iu_code m_west, m_east, m_north, m_south;
  // target=gpu
  code m_ticket_code, m_ticket_share, m_ticket_bar, m_ticket_read, m_t0_cmp, m_t0_skip, m_poll,
      m_poll_test, m_stage_bar, m_stage_addr, m_stage_ld, m_stage_sts, m_out_lds, m_out_addr,
      m_out_st, m_membar, m_flag_st, m_ticket_atom, m_poll_ld, m_flag_addr;
};

void spu_generator::build_sm() {
  program& p = m_p;
  const geometry& g = m_g;
  const std::uint32_t vec = g.s / 4;
  auto m = p.here();
  p.imad(5, 2, rz, 3);    // -(tx + ty), the wavefront offset
  p.shl(7, 2);            // x-edge write base
  p.iadd(9, 7, rz);       // x-edge read base (tx - 1)
  p.shl(10, 3);           // y-edge write base
  p.iadd(11, 10, rz);     // y-edge read base (ty - 1)
  p.mov(after_patch(6));  // 1/3
  p.mov(after_patch(1));  // tile counter
  m_sm_init = p.since(m);
  if (g.gpu) {  // thread 0: the CTA's ticket (atomicAdd), shared with the CTA
    m = p.here();
    p.mov(after_patch(14));
    m_ticket_code = p.since(m);
    m_ticket_atom = p.atom("ADD", after_patch(17), after_patch(14), after_patch(6));
    m_ticket_share = p.st_shared(after_patch(12), after_patch(17), 4);
    m_ticket_bar = p.bar_sync();
    m_ticket_read = p.ld_shared(0, after_patch(12), 4);
  }
  if (g.global) {
    m = p.here();
    p.isetp("NE", after_patch(1), rz);
    m_g_cmp = p.since(m);
    m_g_skip = p.bra();
  } else if (!g.gpu) {
    m_bs_n = p.block_sync(direction::north);
    m_bs_w = p.block_sync(direction::west);
  } else {
    // Per tile: thread 0 polls the producers' status words, everyone stages the faces.
    m_t0_cmp = p.isetp("NE", 2, rz);
    m_t0_skip = p.bra();
    m = p.here();
    p.imad(8, 0, rz, 4);
    p.address(after_patch(14), 8, rz);
    m_poll = p.since(m);
    m_poll_ld = p.ld_global(after_patch(15), after_patch(14), 4);
    m = p.here();
    p.isetp("LT", after_patch(15), after_patch(1));  // the producer not done: poll again
    p.bra();
    m_poll_test = p.since(m);
    m_stage_bar = p.bar_sync();
    m = p.here();
    p.imad(8, 5, rz, rz);
    p.address(after_patch(14), 8, rz);
    m_stage_addr = p.since(m);
    m_stage_ld = p.ld_global(after_patch(16), after_patch(14), 16);
    m_stage_sts = p.st_shared(after_patch(12), after_patch(16), 4);
  }
  m_a_cmp = p.isetp("NE", after_patch(1), rz);
  m_a_skip = p.bra();
  m = p.here();
  p.imad(8, 4, rz, 0);
  p.address(after_patch(4), 8, rz);
  m_addr_a = p.since(m);
  for (std::uint32_t r = 0; r < g.s; ++r)
    for (std::uint32_t v = 0; v < vec; ++v)
      m_ld_a.push_back(p.ld_global(patch(r, 4 * v), after_patch(4), 16));
  m_step_init = p.mov(after_patch(2));
  m = p.here();
  p.iadd(after_patch(3), after_patch(2), 5);  // kk = step - tx - ty
  p.isetp("GE.U32", after_patch(3), rz);      // kk >= b: idle this step
  p.land(6, after_patch(3));                  // plane parity
  p.imad(6, 6, rz, rz);
  p.iadd(after_patch(8), 7, 6);
  p.iadd(after_patch(9), 9, 6);
  p.iadd(after_patch(10), 10, 6);
  p.iadd(after_patch(11), 11, 6);
  m_step_head = p.since(m);
  m_body_begin = p.reconverge_begin();
  m_body_skip = p.bra();
  for (std::uint32_t q = 0; q < vec; ++q) {
    m_pop_w.push_back(g.gpu ? p.ld_shared(west_in(4 * q), after_patch(12), 16)
                            : p.cb_pop(direction::west, west_in(4 * q)));
    m_lds_w.push_back(p.ld_shared(west_in(4 * q), after_patch(9), 16));
  }
  for (std::uint32_t q = 0; q < vec; ++q) {
    m_pop_n.push_back(g.gpu ? p.ld_shared(north_in(4 * q), after_patch(12), 16)
                            : p.cb_pop(direction::north, north_in(4 * q)));
    m_lds_n.push_back(p.ld_shared(north_in(4 * q), after_patch(11), 16));
  }
  m = p.here();
  const reg tmp = after_patch(0);
  for (std::uint32_t r = 0; r < g.s; ++r)
    for (std::uint32_t c = 0; c < g.s; ++c) {
      const reg west = c == 0 ? west_in(r) : patch(r, c - 1);
      const reg north = r == 0 ? north_in(c) : patch(r - 1, c);
      p.fadd(tmp, west, north);
      p.fadd(tmp, tmp, patch(r, c));
      p.fmul(patch(r, c), tmp, after_patch(6));
    }
  m_compute = p.since(m);
  for (std::uint32_t q = 0; q < vec; ++q) {
    m_sts_e.push_back(p.st_shared(after_patch(8), patch(4 * q, g.s - 1), 16));
    m_push_e.push_back(g.gpu ? p.st_shared(after_patch(13), patch(4 * q, g.s - 1), 16)
                             : p.cb_push(direction::east, patch(4 * q, g.s - 1)));
  }
  for (std::uint32_t q = 0; q < vec; ++q) {
    m_sts_s.push_back(p.st_shared(after_patch(10), patch(g.s - 1, 4 * q), 16));
    m_push_s.push_back(g.gpu ? p.st_shared(after_patch(13), patch(g.s - 1, 4 * q), 16)
                             : p.cb_push(direction::south, patch(g.s - 1, 4 * q)));
  }
  m_body_end = p.reconverge_end();
  m_bar = p.bar_sync();
  m = p.here();
  p.iadd(after_patch(2), after_patch(2), rz);
  p.isetp("LT", after_patch(2), rz);
  m_step_inc = p.since(m);
  m_step_back = p.bra();
  m_h_cmp = p.isetp("NE", after_patch(1), rz);
  m_h_skip = p.bra();
  m = p.here();
  p.imad(8, 4, rz, 0);
  p.address(after_patch(4), 8, rz);
  m_addr_h = p.since(m);
  for (std::uint32_t r = 0; r < g.s; ++r)
    for (std::uint32_t v = 0; v < vec; ++v)
      m_st_h.push_back(p.st_global(after_patch(4), patch(r, 4 * v), 16));
  if (g.global) {
    m_bs_all = p.block_sync(direction::global);
  } else if (!g.gpu) {
    m_bs_s = p.block_sync(direction::south);
    m_bs_e = p.block_sync(direction::east);
  } else {
    // After the tile: the faces out of shared memory to global memory, a fence, the flag.
    m_out_lds = p.ld_shared(after_patch(16), after_patch(12), 4);
    m = p.here();
    p.imad(8, 5, rz, rz);
    p.address(after_patch(14), 8, rz);
    m_out_addr = p.since(m);
    m_out_st = p.st_global(after_patch(14), after_patch(16), 16);
    m_membar = p.raw("MEMBAR.GL", {}, {});
    m = p.here();
    p.imad(8, 0, rz, 4);
    p.address(after_patch(14), 8, rz);
    m_flag_addr = p.since(m);
    m_flag_st = p.st_global(after_patch(14), after_patch(1), 4);
  }
  m = p.here();
  p.iadd(after_patch(1), after_patch(1), rz);
  p.isetp("LT", after_patch(1), rz);
  m_tile_inc = p.since(m);
  m_tile_back = p.bra();
  m_sm_exit = p.exit();
}

void spu_generator::build_loader(iu_code& c, direction push_dir) {
  program& p = m_p;
  const std::uint32_t chunks = m_g.s * m_g.s / 4;  // float4 chunks per thread per tile
  auto m = p.here();
  p.imad(5, 3, rz, 2);  // linear thread id
  p.mov(6);             // counter
  c.init = p.since(m);
  if (m_g.global) {
    c.g_cmp = p.isetp("NE", 6, rz);
    c.g_skip = p.bra();
  }
  for (std::uint32_t i = 0; i < chunks; ++i) {
    m = p.here();
    p.imad(7, 5, rz, rz);
    p.address(8, 7, rz);
    c.addr.push_back(p.since(m));
    c.ldst.push_back(p.ld_global(reg(12 + 4 * (i % 4)), 8, 16));
    c.cb.push_back(p.cb_push(push_dir, reg(12 + 4 * (i % 4))));
  }
  if (m_g.global)
    c.bs_all = p.block_sync(direction::global);
  else
    c.sync_after = p.block_sync(push_dir);
  m = p.here();
  p.iadd(6, 6, rz);
  p.isetp("LT", 6, rz);
  c.inc = p.since(m);
  c.back = p.bra();
  c.done = p.exit();
}

void spu_generator::build_storer(iu_code& c, direction pop_dir) {
  program& p = m_p;
  const std::uint32_t chunks = m_g.s * m_g.s / 4;
  auto m = p.here();
  p.imad(5, 3, rz, 2);
  p.mov(6);
  c.init = p.since(m);
  if (m_g.global) {
    c.g_cmp = p.isetp("NE", 6, rz);
    c.g_skip = p.bra();
  } else {
    c.sync_before = p.block_sync(pop_dir);
  }
  for (std::uint32_t i = 0; i < chunks; ++i) {
    c.cb.push_back(p.cb_pop(pop_dir, reg(12 + 4 * (i % 4))));
    m = p.here();
    p.imad(7, 5, rz, rz);
    p.address(8, 7, rz);
    c.addr.push_back(p.since(m));
    c.ldst.push_back(p.st_global(8, reg(12 + 4 * (i % 4)), 16));
  }
  if (m_g.global) c.bs_all = p.block_sync(direction::global);
  m = p.here();
  p.iadd(6, 6, rz);
  p.isetp("LT", 6, rz);
  c.inc = p.since(m);
  c.back = p.bra();
  c.done = p.exit();
}

void spu_generator::build() {
  program& p = m_p;
  auto m = p.here();
  p.prologue();
  p.s2r(2, sreg::tid_x);
  p.s2r(3, sreg::tid_y);
  p.s2r(0, sreg::ctaid_x);
  p.s2r(4, sreg::ctaid_y);
  m_head = p.since(m);
  if (m_g.ring) {
    for (int r = 0; r < 5; ++r) {
      m_dispatch_cmp.push_back(p.isetp("EQ", r < 3 ? 0 : 4, rz));
      m_dispatch_bra.push_back(p.bra());
    }
  }
  build_sm();
  if (m_g.ring) {
    m_idle_exit = p.exit();
    build_loader(m_west, direction::east);
    build_storer(m_east, direction::west);
    build_loader(m_north, direction::south);
    build_storer(m_south, direction::north);
  }
}

role spu_generator::role_of(const dim3& tb) const {
  if (!m_g.ring) return role::sm;
  const std::uint32_t last = m_g.ctas + 1;
  const bool xb = tb.x == 0 || tb.x == last, yb = tb.y == 0 || tb.y == last;
  if (xb && yb) return role::idle;
  if (tb.x == 0) return role::west;
  if (tb.x == last) return role::east;
  if (tb.y == 0) return role::north;
  if (tb.y == last) return role::south;
  return role::sm;
}

void spu_generator::emit_tile(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x,
                              std::uint32_t y, std::uint32_t k) const {
  const geometry& g = m_g;
  const std::uint32_t live = lanes.live;
  const std::uint32_t vec = g.s / 4;
  const std::uint64_t xedge = 0, yedge = 2ull * g.t * g.b * 4, plane = 4ull * g.t * g.b;
  // Patch origin of lane l in the global (i, j) plane.
  auto i0 = [&](unsigned l) { return std::uint64_t(x) * g.b + lanes.tx[l] * g.s; };
  auto j0 = [&](unsigned l) { return std::uint64_t(y) * g.b + lanes.ty[l] * g.s; };

  e.run(m_a_cmp, live);
  if (k != 0) {
    e.run(m_a_skip, live);
  } else {
    e.run(m_addr_a, live);
    for (std::uint32_t r = 0; r < g.s; ++r)
      for (std::uint32_t v = 0; v < vec; ++v)
        e.mem_fn(m_ld_a[r * vec + v], live,
                 [&](unsigned l) { return m_a + 4 * ((j0(l) + r) * g.n + i0(l) + 4 * v); });
  }
  e.run(m_step_init, live);
  std::uint32_t txw = 0, tyn = 0, txe = 0, tys = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(live >> l & 1u)) continue;
    if (lanes.tx[l] == 0) txw |= 1u << l;
    if (lanes.ty[l] == 0) tyn |= 1u << l;
    if (lanes.tx[l] == g.t - 1) txe |= 1u << l;
    if (lanes.ty[l] == g.t - 1) tys |= 1u << l;
  }
  for (std::uint32_t st = 0; st < g.steps; ++st) {
    std::uint32_t act = 0;
    std::array<std::uint32_t, 32> kk{};
    for (unsigned l = 0; l < 32; ++l) {
      if (!(live >> l & 1u)) continue;
      const std::int64_t v = std::int64_t(st) - lanes.tx[l] - lanes.ty[l];
      if (v >= 0 && v < std::int64_t(g.b)) {
        act |= 1u << l;
        kk[l] = std::uint32_t(v);
      }
    }
    e.run(m_step_head, live);
    e.run(m_body_begin, live);
    e.run(m_body_skip, live & ~act);
    auto par = [&](unsigned l) { return (kk[l] & 1u) * plane; };
    // target=gpu: the staged faces, transposed: plane kk's b values, row after row.
    auto staged = [&](int face, std::uint32_t along, std::uint32_t q, unsigned l) {
      return stage(face) + 4ull * (std::uint64_t(kk[l]) * g.b + along * g.s + 4 * q);
    };
    auto edge = [&](code c, std::uint32_t mask, int face, bool by_ty, std::uint32_t q) {
      if (!g.gpu) return e.cb(c, mask, 16);
      e.mem_fn(c, mask,
               [&](unsigned l) { return staged(face, by_ty ? lanes.ty[l] : lanes.tx[l], q, l); });
    };
    for (std::uint32_t q = 0; q < vec; ++q) {
      edge(m_pop_w[q], act & txw, 0, true, q);
      e.mem_fn(m_lds_w[q], act & ~txw, [&](unsigned l) {
        return xedge + par(l) + 4ull * ((lanes.tx[l] - 1) * g.b + lanes.ty[l] * g.s + 4 * q);
      });
    }
    for (std::uint32_t q = 0; q < vec; ++q) {
      edge(m_pop_n[q], act & tyn, 1, false, q);
      e.mem_fn(m_lds_n[q], act & ~tyn, [&](unsigned l) {
        return yedge + par(l) + 4ull * ((lanes.ty[l] - 1) * g.b + lanes.tx[l] * g.s + 4 * q);
      });
    }
    e.run(m_compute, act);
    for (std::uint32_t q = 0; q < vec; ++q) {
      e.mem_fn(m_sts_e[q], act & ~txe, [&](unsigned l) {
        return xedge + par(l) + 4ull * (lanes.tx[l] * g.b + lanes.ty[l] * g.s + 4 * q);
      });
      edge(m_push_e[q], act & txe, 2, true, q);
    }
    for (std::uint32_t q = 0; q < vec; ++q) {
      e.mem_fn(m_sts_s[q], act & ~tys, [&](unsigned l) {
        return yedge + par(l) + 4ull * (lanes.ty[l] * g.b + lanes.tx[l] * g.s + 4 * q);
      });
      edge(m_push_s[q], act & tys, 3, false, q);
    }
    e.run(m_body_end, live);
    e.run(m_bar, live);
    e.run(m_step_inc, live);
    if (st + 1 < g.steps) e.run(m_step_back, live);
  }
  e.run(m_h_cmp, live);
  if (k + 1 != g.tiles) {
    e.run(m_h_skip, live);
  } else {
    e.run(m_addr_h, live);
    for (std::uint32_t r = 0; r < g.s; ++r)
      for (std::uint32_t v = 0; v < vec; ++v)
        e.mem_fn(m_st_h[r * vec + v], live,
                 [&](unsigned l) { return m_hk + 4 * ((j0(l) + r) * g.n + i0(l) + 4 * v); });
  }
}

std::uint64_t spu_generator::face_addr(int face, std::uint32_t x, std::uint32_t y, std::uint32_t k,
                                       std::uint32_t row, std::uint32_t col) const {
  // Faces are b rows of b elements, a row along k (the N x K boundary and output arrays:
  // row line * b + r, column k * b); the exchange buffers hold a face per CTA and tile.
  const geometry& g = m_g;
  const bool west_east = face == 0 || face == 2;
  const std::uint32_t line = west_east ? y : x;  // the CTA row (column) the face crosses
  const bool edge = face == 0   ? x == 0
                    : face == 1 ? y == 0
                    : face == 2 ? x + 1 == g.ctas
                                : y + 1 == g.ctas;
  if (edge) {
    const std::uint64_t array = face == 0   ? m_cwest
                                : face == 1 ? m_bnorth
                                : face == 2 ? m_heast
                                            : m_hsouth;
    return array + 4 * ((std::uint64_t(line) * g.b + row) * g.k + std::uint64_t(k) * g.b + 4 * col);
  }
  // The producer's buffer: CTA (x - 1, y) for a west input, (x, y - 1) for a north one.
  const std::uint32_t px = face == 0 ? x - 1 : x, py = face == 1 ? y - 1 : y;
  const std::uint64_t buffer = west_east ? m_xface : m_yface;
  return buffer +
         4 * (((std::uint64_t(py) * g.ctas + px) * g.tiles + k) * g.b * g.b + row * g.b + 4 * col);
}

// All threads, 16 bytes a thread and chunk: the west and north faces of tile k from global
// memory into shared memory, stored transposed (plane after plane), or the east and south
// faces out of shared memory to global memory.
void spu_generator::emit_gpu_faces(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x,
                                   std::uint32_t y, std::uint32_t k, bool in) const {
  const geometry& g = m_g;
  const std::uint32_t per_row = g.b / 4, chunks = g.b * per_row;
  for (int face = in ? 0 : 2; face < (in ? 2 : 4); ++face)
    for (std::uint32_t c0 = 0; c0 < chunks; c0 += g.nt) {
      std::uint32_t mask = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((lanes.live >> l & 1u) && c0 + lanes.flat[l] < chunks) mask |= 1u << l;
      auto row = [&](unsigned l) { return (c0 + lanes.flat[l]) / per_row; };
      auto col = [&](unsigned l) { return (c0 + lanes.flat[l]) % per_row; };
      auto global = [&](unsigned l) { return face_addr(face, x, y, k, row(l), col(l)); };
      auto shared = [&](std::uint32_t m) {
        return
            [&, m](unsigned l) { return stage(face) + 4ull * ((4 * col(l) + m) * g.b + row(l)); };
      };
      if (in) {
        e.run(m_stage_addr, mask);
        e.mem_fn(m_stage_ld, mask, global);
        for (std::uint32_t m = 0; m < 4; ++m) e.mem_fn(m_stage_sts, mask, shared(m));
      } else {
        for (std::uint32_t m = 0; m < 4; ++m) e.mem_fn(m_out_lds, mask, shared(m));
        e.run(m_out_addr, mask);
        e.mem_fn(m_out_st, mask, global);
      }
    }
}

void spu_generator::emit_sm(warp_emitter& e, const warp_lanes& lanes, std::uint32_t x,
                            std::uint32_t y) const {
  const std::uint32_t live = lanes.live;
  e.run(m_sm_init, live);
  if (m_g.gpu) {
    // Thread 0 (lane 0 of warp 0) takes the ticket; the CTA reads it.
    const std::uint32_t t0 = lanes.flat[0] == 0 ? (live & 1u) : 0u;
    e.run(m_ticket_code, t0);
    e.mem_fn(m_ticket_atom, t0, [&](unsigned) { return m_ticket; });
    e.mem_fn(m_ticket_share, t0, [&](unsigned) { return stage(4); });
    e.run(m_ticket_bar, live);
    e.mem_fn(m_ticket_read, live, [&](unsigned) { return stage(4); });
    for (std::uint32_t k = 0; k < m_g.tiles; ++k) {
      e.run(m_t0_cmp, live);
      e.run(m_t0_skip, live & ~t0);
      if (x > 0 || y > 0) {  // one poll per producer, found done
        for (int d = 0; d < 2; ++d) {
          if (d == 0 ? x == 0 : y == 0) continue;
          const std::uint32_t px = d == 0 ? x - 1 : x, py = d == 0 ? y : y - 1;
          e.run(m_poll, t0);
          // The producer's status word holds its tiles done: wait for k + 1.
          e.flag(m_poll_ld, t0, m_status + 4ull * (py * m_g.ctas + px), k + 1);
          e.run(m_poll_test, t0);
        }
      }
      e.run(m_stage_bar, live);
      emit_gpu_faces(e, lanes, x, y, k, true);
      e.run(m_stage_bar, live);
      emit_tile(e, lanes, x, y, k);
      e.run(m_stage_bar, live);
      emit_gpu_faces(e, lanes, x, y, k, false);
      e.run(m_membar, live);
      e.run(m_stage_bar, live);
      e.run(m_flag_addr, t0);
      e.flag(m_flag_st, t0, m_status + 4ull * (y * m_g.ctas + x), k + 1);
      e.run(m_tile_inc, live);
      if (k + 1 < m_g.tiles) e.run(m_tile_back, live);
    }
  } else if (!m_g.global) {
    for (std::uint32_t k = 0; k < m_g.tiles; ++k) {
      e.run(m_bs_n, live);
      e.run(m_bs_w, live);
      emit_tile(e, lanes, x, y, k);
      e.run(m_bs_s, live);
      e.run(m_bs_e, live);
      e.run(m_tile_inc, live);
      if (k + 1 < m_g.tiles) e.run(m_tile_back, live);
    }
  } else {
    std::uint32_t k = 0;
    for (std::uint32_t st = 0; st < m_g.gsteps; ++st) {
      e.run(m_g_cmp, live);
      // Ring coordinates X = x + 1, Y = y + 1: tile k at step X + Y + k - 1.
      if (k < m_g.tiles && st == x + y + k + 1) {
        emit_tile(e, lanes, x, y, k);
        ++k;
      } else {
        e.run(m_g_skip, live);
      }
      e.run(m_bs_all, live);
      e.run(m_tile_inc, live);
      if (st + 1 < m_g.gsteps) e.run(m_tile_back, live);
    }
  }
  e.run(m_sm_exit, live);
}

// `line` is the CTA row (west/east) or column (north/south) the unit serves; its face rows
// are line * b .. line * b + b - 1 of an N x K array. Tile k is due at global step
// first_step + k.
void spu_generator::emit_iu(warp_emitter& e, const warp_lanes& lanes, const iu_code& c, bool loader,
                            std::uint64_t base, std::uint32_t line,
                            std::uint32_t first_step) const {
  const geometry& g = m_g;
  const std::uint32_t live = lanes.live;
  const std::uint32_t chunks = g.s * g.s / 4, per_row = g.b / 4;
  auto chunk_addr = [&](std::uint32_t k, std::uint32_t i, unsigned l) {
    const std::uint64_t ch = lanes.flat[l] + std::uint64_t(i) * g.nt;
    const std::uint64_t row = ch / per_row, col4 = ch % per_row;
    return base + 4 * ((std::uint64_t(line) * g.b + row) * g.k + std::uint64_t(k) * g.b + 4 * col4);
  };
  auto tile = [&](std::uint32_t k) {
    for (std::uint32_t i = 0; i < chunks; ++i) {
      if (loader) {
        e.run(c.addr[i], live);
        e.mem_fn(c.ldst[i], live, [&](unsigned l) { return chunk_addr(k, i, l); });
        e.cb(c.cb[i], live, 16);
      } else {
        e.cb(c.cb[i], live, 16);
        e.run(c.addr[i], live);
        e.mem_fn(c.ldst[i], live, [&](unsigned l) { return chunk_addr(k, i, l); });
      }
    }
  };
  e.run(c.init, live);
  if (!g.global) {
    for (std::uint32_t k = 0; k < g.tiles; ++k) {
      if (!loader) e.run(c.sync_before, live);
      tile(k);
      if (loader) e.run(c.sync_after, live);
      e.run(c.inc, live);
      if (k + 1 < g.tiles) e.run(c.back, live);
    }
  } else {
    std::uint32_t k = 0;
    for (std::uint32_t st = 0; st < g.gsteps; ++st) {
      e.run(c.g_cmp, live);
      if (k < g.tiles && st == first_step + k) {
        tile(k);
        ++k;
      } else {
        e.run(c.g_skip, live);
      }
      e.run(c.bs_all, live);
      e.run(c.inc, live);
      if (st + 1 < g.gsteps) e.run(c.back, live);
    }
  }
  e.run(c.done, live);
}

void spu_generator::run() {
  build();
  const geometry& g = m_g;
  const std::uint32_t side = g.ring ? g.ctas + 2 : g.ctas;
  // x- and y-edge buffers, two planes each; target=gpu: the four staged faces and the ticket.
  const std::uint32_t shmem = 16 * g.t * g.b + (g.gpu ? 16 * g.b * g.b + 16 : 0);
  const kernel_info info = m_app.kernel("_Z11spu_stencilPKfS0_S0_PfS1_S1_iii", m_id,
                                        dim3{side, side, 1}, dim3{g.t, g.t, 1}, shmem, m_p);
  const std::uint32_t off = g.ring ? 1 : 0;
  m_app.write_kernel(info, [&](tb_trace& tb) {
    const role r = role_of(tb.index);
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(m_p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      e.run(m_head, lanes.live);
      if (g.ring) {
        // The role checks in order idle, west, east, north, south; the SM role falls through.
        const int taken = r == role::idle    ? 0
                          : r == role::west  ? 1
                          : r == role::east  ? 2
                          : r == role::north ? 3
                          : r == role::south ? 4
                                             : 5;
        for (int i = 0; i < 5 && i <= taken; ++i) {
          e.run(m_dispatch_cmp[i], lanes.live);
          if (i == taken) e.run(m_dispatch_bra[i], lanes.live);
        }
      }
      switch (r) {
        case role::sm:
          emit_sm(e, lanes, tb.index.x - off, tb.index.y - off);
          break;
        case role::idle:
          e.run(m_idle_exit, lanes.live);
          break;
        case role::west:
          emit_iu(e, lanes, m_west, true, m_cwest, tb.index.y - 1, tb.index.y - 1);
          break;
        case role::north:
          emit_iu(e, lanes, m_north, true, m_bnorth, tb.index.x - 1, tb.index.x - 1);
          break;
        case role::east:
          emit_iu(e, lanes, m_east, false, m_heast, tb.index.y - 1, g.ctas + tb.index.y);
          break;
        case role::south:
          emit_iu(e, lanes, m_south, false, m_hsouth, tb.index.x - 1, tb.index.x + g.ctas);
          break;
      }
    }
  });
}
}  // namespace

kernel_generator spu_stencil_generator() {
  return {"spu_stencil",
          "SPU 3-D-iteration 2-D stencil: b x b x b tiles, CB halo exchange, BAR.BLOCKSYNC",
          {param_desc::integer("n", 64, 4, 1u << 14, "problem size N (i and j extent)"),
           param_desc::integer("k", 0, 0, 1u << 14, "k extent K (0: same as n)"),
           param_desc::integer("b", 16, 4, 256, "tile size (a CB holds one b x b fp32 face)"),
           param_desc::integer("s", 4, 4, 64, "subtile: each thread owns an s x s patch"),
           param_desc::choice("sync", {"pairwise", "global"},
                              "bar.blocksync per neighbour (thesis Alg. 3) or global (Alg. 1)"),
           param_desc::choice("target", {"spu", "gpu"},
                              "the SPU's kernel, or the GPU baseline (Ranasinghe 2014: faces "
                              "through global memory, a status array)"),
           param_desc::choice("iu", {"ring", "none"},
                              "include the interface units' TBs around the CTA grid")},
          [](const param_set& ps, app_builder& app) { spu_generator(ps, app).run(); }};
}

}  // namespace gputlm::traces::generators
