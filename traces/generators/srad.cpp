// Rodinia srad_v2 (cuda/srad/srad_v2/srad_kernel.cu: srad_cuda_1, srad_cuda_2; host loop in
// srad.cu): speckle-reducing anisotropic diffusion on a rows x cols image, B x B TBs (B = 16),
// one thread per pixel, index = cols*B*by + B*bx + cols*ty + tx. Per iteration the host
// copies J to the device and launches:
//  - srad_cuda_1: loads the row above and below the tile (north[ty][tx] = J[index_n],
//    south[ty][tx] = J[index_s], the same row for every ty), reloaded from the tile's own
//    first/last row in the top (by == 0) / bottom TB row; BAR; the columns left and right
//    (west/east, the same column for every tx), reloaded likewise in the first/last TB
//    column; BAR; the tile itself (temp); BAR; n, s, w, e from temp or, on the tile border,
//    from north/south/west/east (the original's if-chain over the nine border cases,
//    if-converted: one LDS each at a per-lane address); the diffusion coefficient (float and
//    double arithmetic, IEEE divisions), saturated to [0, 1] into temp_result; BAR; stores
//    C, E, W, S, N at index.
//  - srad_cuda_2: loads temp = J[index]; BAR; south_c = C[index_s] (reloaded in the bottom TB
//    row); BAR; east_c = C[index_e] (reloaded in the last TB column); BAR; c_cuda_temp =
//    C[index]; BAR; cs, ce from c_cuda_temp or south_c/east_c; loads N_C, S_C, W_C, E_C at
//    index; J[index] = temp + 0.25 * lambda * d_sum through c_cuda_result; BAR; store.
// The halo loads the original issues before its reloads are kept, including those that fall
// outside J (row -1 of the top TB row, the row after the last for the bottom TB row).
#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct srad_geom {
  std::uint32_t rows, cols, b;
};

// The kernels' index expressions for thread (tx, ty) of TB (bx, by).
struct srad_index {
  std::int64_t index, n, s, w, e;       // index, index_n, index_s, index_w, index_e
  std::int64_t n0, s_last, w0, e_last;  // the reloads of the border TBs
};

srad_index indices(const srad_geom& g, dim3 tb, dim3 grid, std::int64_t tx, std::int64_t ty) {
  const std::int64_t c = g.cols, b = g.b, bx = tb.x, by = tb.y;
  const std::int64_t base = c * b * by + b * bx;
  srad_index r;
  r.index = base + c * ty + tx;
  r.n = base + tx - c;
  r.s = base + c * b + tx;
  r.w = base + c * ty - 1;
  r.e = base + c * ty + b;
  r.n0 = b * bx + tx;
  r.s_last = c * b * (grid.y - 1) + b * bx + c * (b - 1) + tx;
  r.w0 = c * b * by + c * ty;
  r.e_last = c * b * by + b * (grid.x - 1) + c * ty + b - 1;
  return r;
}

std::uint64_t at(std::uint64_t base, std::int64_t i) { return base + 4 * std::uint64_t(i); }

// Shared word offset of [ty][tx] in the array `slot` (each array is B x B floats).
std::uint64_t sh(const srad_geom& g, unsigned slot, std::int64_t ty, std::int64_t tx) {
  return 4ull * (std::uint64_t(slot) * g.b * g.b + std::uint64_t(ty * g.b + tx));
}

// srad_cuda_1
struct srad1_code {
  code head, ld_n, ld_s, ld_n0, ld_s_last, sts_n, sts_s, bar0, addr_we, ld_w, ld_e, ld_w0;
  code ld_e_last, sts_w, sts_e, bar1, ld_j, sts_j, bar2, lds_jc, sel, lds_n, lds_s, lds_w;
  code lds_e, math, sts_res, bar3, lds_res, addr_out, st_c, st_e, st_w, st_s, st_n, done;
};

srad1_code build_srad1(program& p) {
  srad1_code c;
  auto m = p.here();
  p.global_index_2d();  // R0 = bx * B + tx, R3 = by * B + ty; R2 = tx, R4 = ty
  p.imad(5, 3, rz, 0);  // index
  p.address(6, 5, rz);
  p.iadd(8, 5, rz);  // index_n
  p.address(8, 8, rz);
  p.iadd(10, 5, rz);  // index_s
  p.address(10, 10, rz);
  p.imad(12, 4, rz, 2);
  p.shl(12, 12);         // &x[ty][tx]
  p.isetp("NE", 3, rz);  // by == 0
  p.isetp("NE", 3, rz);  // by == gridDim.y - 1
  c.head = p.since(m);
  c.ld_n = p.ld_global(14, 8, 4);
  c.ld_s = p.ld_global(15, 10, 4);
  c.ld_n0 = p.ld_global(14, 8, 4);       // @!P0
  c.ld_s_last = p.ld_global(15, 10, 4);  // @!P1
  c.sts_n = p.st_shared(12, 14, 4);
  c.sts_s = p.st_shared(12, 15, 4);
  c.bar0 = p.bar_sync();
  m = p.here();
  p.iadd(8, 5, rz);  // index_w
  p.address(8, 8, rz);
  p.iadd(10, 5, rz);  // index_e
  p.address(10, 10, rz);
  p.isetp("NE", 0, rz);  // bx == 0
  p.isetp("NE", 0, rz);  // bx == gridDim.x - 1
  c.addr_we = p.since(m);
  c.ld_w = p.ld_global(16, 8, 4);
  c.ld_e = p.ld_global(17, 10, 4);
  c.ld_w0 = p.ld_global(16, 8, 4);       // @!P0
  c.ld_e_last = p.ld_global(17, 10, 4);  // @!P1
  c.sts_w = p.st_shared(12, 16, 4);
  c.sts_e = p.st_shared(12, 17, 4);
  c.bar1 = p.bar_sync();
  c.ld_j = p.ld_global(18, 6, 4);
  c.sts_j = p.st_shared(12, 18, 4);
  c.bar2 = p.bar_sync();
  c.lds_jc = p.ld_shared(20, 12, 4);
  m = p.here();
  for (reg r : {21, 22, 23, 24}) {  // the border cases: north/south/west/east or temp
    p.isetp("NE", r == 21 || r == 22 ? 4 : 2, rz);
    p.raw("SEL", {r}, {12});
  }
  c.sel = p.since(m);
  c.lds_n = p.ld_shared(25, 21, 4);
  c.lds_s = p.ld_shared(26, 22, 4);
  c.lds_w = p.ld_shared(27, 23, 4);
  c.lds_e = p.ld_shared(28, 24, 4);
  m = p.here();
  for (reg r : {25, 26, 27, 28}) p.fadd(r, r, 20);  // n, s, w, e = x - jc
  p.fmul(30, 25, 25);
  p.ffma(30, 26, 26, 30);
  p.ffma(30, 27, 27, 30);
  p.ffma(30, 28, 28, 30);
  p.fmul(31, 20, 20);
  fp_div(p, 32, 30, 31);  // g2
  p.fadd(35, 25, 26);
  p.fadd(35, 35, 27);
  p.fadd(35, 35, 28);
  fp_div(p, 36, 35, 20);  // l
  p.fmul(39, 36, 36);
  f2d(p, 40, 32);
  f2d(p, 42, 39);
  dmul(p, 42, 42, rz);
  p.raw("DFMA", {40}, {40, 42});  // num = 0.5 * g2 - l * l / 16
  f2d(p, 44, 36);
  p.raw("DFMA", {44}, {44});  // den = 1 + 0.25 * l
  dmul(p, 44, 44, 44);
  dp_div(p, 46, 40, 44);  // qsqr = num / (den * den)
  d2f(p, 52, 46);
  p.fadd(52, 52, rz);  // qsqr - q0sqr
  p.mov(53);           // q0sqr * (1 + q0sqr)
  fp_div(p, 54, 52, 53);
  f2d(p, 58, 54);
  p.raw("DADD", {58}, {58});  // 1.0 + den
  p.mov(60);
  dp_div(p, 40, 60, 58);  // c = 1.0 / (1.0 + den)
  d2f(p, 46, 40);
  p.raw("FMNMX", {46}, {46});  // c < 0: 0
  p.raw("FMNMX", {46}, {46});  // c > 1: 1
  c.math = p.since(m);
  c.sts_res = p.st_shared(12, 46, 4);
  c.bar3 = p.bar_sync();
  c.lds_res = p.ld_shared(47, 12, 4);
  m = p.here();
  for (reg r : {48, 50, 52, 54, 56}) p.address(r, 5, rz);  // &C, &E_C, &W_C, &S_C, &N_C
  c.addr_out = p.since(m);
  c.st_c = p.st_global(48, 47, 4);
  c.st_e = p.st_global(50, 28, 4);
  c.st_w = p.st_global(52, 27, 4);
  c.st_s = p.st_global(54, 26, 4);
  c.st_n = p.st_global(56, 25, 4);
  c.done = p.exit();
  p.bra();
  return c;
}

// srad_cuda_2
struct srad2_code {
  code head, ld_j, sts_j, bar0, addr_s, ld_s, ld_s_last, sts_s, bar1, addr_e, ld_e, ld_e_last;
  code sts_e, bar2, ld_c, sts_c, bar3, lds_cc, sel, lds_cs, lds_ce, addr_dir, ld_nc, ld_sc;
  code ld_wc, ld_ec, sum, lds_temp, update, sts_res, bar4, lds_res, st_j, done;
};

srad2_code build_srad2(program& p) {
  srad2_code c;
  auto m = p.here();
  p.global_index_2d();
  p.imad(5, 3, rz, 0);  // index
  p.address(6, 5, rz);  // &J[index]
  p.imad(12, 4, rz, 2);
  p.shl(12, 12);  // &x[ty][tx]
  c.head = p.since(m);
  c.ld_j = p.ld_global(14, 6, 4);
  c.sts_j = p.st_shared(12, 14, 4);
  c.bar0 = p.bar_sync();
  m = p.here();
  p.iadd(8, 5, rz);  // index_s
  p.address(8, 8, rz);
  p.isetp("NE", 3, rz);  // by == gridDim.y - 1
  c.addr_s = p.since(m);
  c.ld_s = p.ld_global(15, 8, 4);
  c.ld_s_last = p.ld_global(15, 8, 4);  // @!P0
  c.sts_s = p.st_shared(12, 15, 4);
  c.bar1 = p.bar_sync();
  m = p.here();
  p.iadd(10, 5, rz);  // index_e
  p.address(10, 10, rz);
  p.isetp("NE", 0, rz);  // bx == gridDim.x - 1
  c.addr_e = p.since(m);
  c.ld_e = p.ld_global(16, 10, 4);
  c.ld_e_last = p.ld_global(16, 10, 4);  // @!P0
  c.sts_e = p.st_shared(12, 16, 4);
  c.bar2 = p.bar_sync();
  c.ld_c = p.ld_global(17, 6, 4);  // C[index]
  c.sts_c = p.st_shared(12, 17, 4);
  c.bar3 = p.bar_sync();
  c.lds_cc = p.ld_shared(18, 12, 4);
  m = p.here();
  p.isetp("NE", 4, rz);
  p.raw("SEL", {19}, {12});
  p.isetp("NE", 2, rz);
  p.raw("SEL", {20}, {12});
  c.sel = p.since(m);
  c.lds_cs = p.ld_shared(21, 19, 4);
  c.lds_ce = p.ld_shared(22, 20, 4);
  m = p.here();
  for (reg r : {24, 26, 28, 30}) p.address(r, 5, rz);  // &N_C, &S_C, &W_C, &E_C
  c.addr_dir = p.since(m);
  c.ld_nc = p.ld_global(32, 24, 4);
  c.ld_sc = p.ld_global(33, 26, 4);
  c.ld_wc = p.ld_global(34, 28, 4);
  c.ld_ec = p.ld_global(35, 30, 4);
  m = p.here();
  p.fmul(36, 32, 18);  // cn * N_C
  p.ffma(36, 21, 33, 36);
  p.ffma(36, 18, 34, 36);
  p.ffma(36, 22, 35, 36);
  c.sum = p.since(m);
  c.lds_temp = p.ld_shared(37, 12, 4);
  m = p.here();
  p.mov(38);  // lambda
  f2d(p, 40, 38);
  dmul(p, 40, 40, rz);  // 0.25 * lambda
  f2d(p, 42, 36);
  f2d(p, 44, 37);
  dfma(p, 44, 40, 42, 44);
  d2f(p, 46, 44);
  c.update = p.since(m);
  c.sts_res = p.st_shared(12, 46, 4);
  c.bar4 = p.bar_sync();
  c.lds_res = p.ld_shared(47, 12, 4);
  c.st_j = p.st_global(6, 47, 4);
  c.done = p.exit();
  p.bra();
  return c;
}

struct srad_arrays {
  std::uint64_t j, c, e, w, s, n;
};

// Per-warp lane indices and the TB's border flags.
struct srad_warp {
  std::uint32_t live = 0;
  std::array<srad_index, 32> ix{};
  std::array<std::int64_t, 32> tx{}, ty{};
  bool top, bottom, left, right;
};

srad_warp warp_of(const srad_geom& g, const tb_trace& tb, dim3 grid, std::uint32_t w) {
  const warp_lanes lanes = lanes_of(dim3{g.b, g.b, 1}, w);
  srad_warp r;
  r.live = lanes.live;
  for (unsigned l = 0; l < 32; ++l) {
    r.tx[l] = lanes.tx[l];
    r.ty[l] = lanes.ty[l];
    r.ix[l] = indices(g, tb.index, grid, lanes.tx[l], lanes.ty[l]);
  }
  r.top = tb.index.y == 0;
  r.bottom = !r.top && tb.index.y == grid.y - 1;
  r.left = tb.index.x == 0;
  r.right = !r.left && tb.index.x == grid.x - 1;
  return r;
}

void launch_srad1(app_builder& app, const srad_geom& g, dim3 grid, const srad_arrays& a) {
  program p(app.opcodes(), 19);
  const srad1_code c = build_srad1(p);
  const kernel_info info = app.kernel("_Z11srad_cuda_1PfS_S_S_S_S_iif", app.reserve_kernel_id(),
                                      grid, dim3{g.b, g.b, 1}, std::uint32_t(6 * 4 * g.b * g.b), p);
  const std::int64_t last = g.b - 1;
  // shared arrays, in declaration order: 0 temp, 1 temp_result, 2 north, 3 south, 4 east,
  // 5 west
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const srad_warp s = warp_of(g, tb, grid, w);
      const std::uint32_t live = s.live;
      auto glob = [&](std::uint64_t base, std::int64_t srad_index::*f) {
        return [&, base, f](unsigned l) { return at(base, s.ix[l].*f); };
      };
      auto own = [&](unsigned slot) {
        return [&, slot](unsigned l) { return sh(g, slot, s.ty[l], s.tx[l]); };
      };
      e.run(c.head, live);
      e.mem_fn(c.ld_n, live, glob(a.j, &srad_index::n));
      e.mem_fn(c.ld_s, live, glob(a.j, &srad_index::s));
      e.mem_fn(c.ld_n0, s.top ? live : 0, glob(a.j, &srad_index::n0));
      e.mem_fn(c.ld_s_last, s.bottom ? live : 0, glob(a.j, &srad_index::s_last));
      e.mem_fn(c.sts_n, live, own(2));
      e.mem_fn(c.sts_s, live, own(3));
      e.run(c.bar0, live);
      e.run(c.addr_we, live);
      e.mem_fn(c.ld_w, live, glob(a.j, &srad_index::w));
      e.mem_fn(c.ld_e, live, glob(a.j, &srad_index::e));
      e.mem_fn(c.ld_w0, s.left ? live : 0, glob(a.j, &srad_index::w0));
      e.mem_fn(c.ld_e_last, s.right ? live : 0, glob(a.j, &srad_index::e_last));
      e.mem_fn(c.sts_w, live, own(5));
      e.mem_fn(c.sts_e, live, own(4));
      e.run(c.bar1, live);
      e.mem_fn(c.ld_j, live, glob(a.j, &srad_index::index));
      e.mem_fn(c.sts_j, live, own(0));
      e.run(c.bar2, live);
      e.mem_fn(c.lds_jc, live, own(0));
      e.run(c.sel, live);
      e.mem_fn(c.lds_n, live, [&](unsigned l) {
        return s.ty[l] == 0 ? sh(g, 2, s.ty[l], s.tx[l]) : sh(g, 0, s.ty[l] - 1, s.tx[l]);
      });
      e.mem_fn(c.lds_s, live, [&](unsigned l) {
        return s.ty[l] == last ? sh(g, 3, s.ty[l], s.tx[l]) : sh(g, 0, s.ty[l] + 1, s.tx[l]);
      });
      e.mem_fn(c.lds_w, live, [&](unsigned l) {
        return s.tx[l] == 0 ? sh(g, 5, s.ty[l], s.tx[l]) : sh(g, 0, s.ty[l], s.tx[l] - 1);
      });
      e.mem_fn(c.lds_e, live, [&](unsigned l) {
        return s.tx[l] == last ? sh(g, 4, s.ty[l], s.tx[l]) : sh(g, 0, s.ty[l], s.tx[l] + 1);
      });
      e.run(c.math, live);
      e.mem_fn(c.sts_res, live, own(1));
      e.run(c.bar3, live);
      e.mem_fn(c.lds_res, live, own(1));
      e.run(c.addr_out, live);
      e.mem_fn(c.st_c, live, glob(a.c, &srad_index::index));
      e.mem_fn(c.st_e, live, glob(a.e, &srad_index::index));
      e.mem_fn(c.st_w, live, glob(a.w, &srad_index::index));
      e.mem_fn(c.st_s, live, glob(a.s, &srad_index::index));
      e.mem_fn(c.st_n, live, glob(a.n, &srad_index::index));
      e.run(c.done, live);
    }
  });
}

void launch_srad2(app_builder& app, const srad_geom& g, dim3 grid, const srad_arrays& a) {
  program p(app.opcodes(), 19);
  const srad2_code c = build_srad2(p);
  const kernel_info info = app.kernel("_Z11srad_cuda_2PfS_S_S_S_S_iiff", app.reserve_kernel_id(),
                                      grid, dim3{g.b, g.b, 1}, std::uint32_t(5 * 4 * g.b * g.b), p);
  const std::int64_t last = g.b - 1;
  // shared arrays: 0 south_c, 1 east_c, 2 c_cuda_temp, 3 c_cuda_result, 4 temp
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const srad_warp s = warp_of(g, tb, grid, w);
      const std::uint32_t live = s.live;
      const bool bottom = tb.index.y == grid.y - 1, right = tb.index.x == grid.x - 1;
      auto glob = [&](std::uint64_t base, std::int64_t srad_index::*f) {
        return [&, base, f](unsigned l) { return at(base, s.ix[l].*f); };
      };
      auto own = [&](unsigned slot) {
        return [&, slot](unsigned l) { return sh(g, slot, s.ty[l], s.tx[l]); };
      };
      e.run(c.head, live);
      e.mem_fn(c.ld_j, live, glob(a.j, &srad_index::index));
      e.mem_fn(c.sts_j, live, own(4));
      e.run(c.bar0, live);
      e.run(c.addr_s, live);
      e.mem_fn(c.ld_s, live, glob(a.c, &srad_index::s));
      e.mem_fn(c.ld_s_last, bottom ? live : 0, glob(a.c, &srad_index::s_last));
      e.mem_fn(c.sts_s, live, own(0));
      e.run(c.bar1, live);
      e.run(c.addr_e, live);
      e.mem_fn(c.ld_e, live, glob(a.c, &srad_index::e));
      e.mem_fn(c.ld_e_last, right ? live : 0, glob(a.c, &srad_index::e_last));
      e.mem_fn(c.sts_e, live, own(1));
      e.run(c.bar2, live);
      e.mem_fn(c.ld_c, live, glob(a.c, &srad_index::index));
      e.mem_fn(c.sts_c, live, own(2));
      e.run(c.bar3, live);
      e.mem_fn(c.lds_cc, live, own(2));
      e.run(c.sel, live);
      e.mem_fn(c.lds_cs, live, [&](unsigned l) {
        return s.ty[l] == last ? sh(g, 0, s.ty[l], s.tx[l]) : sh(g, 2, s.ty[l] + 1, s.tx[l]);
      });
      e.mem_fn(c.lds_ce, live, [&](unsigned l) {
        return s.tx[l] == last ? sh(g, 1, s.ty[l], s.tx[l]) : sh(g, 2, s.ty[l], s.tx[l] + 1);
      });
      e.run(c.addr_dir, live);
      e.mem_fn(c.ld_nc, live, glob(a.n, &srad_index::index));
      e.mem_fn(c.ld_sc, live, glob(a.s, &srad_index::index));
      e.mem_fn(c.ld_wc, live, glob(a.w, &srad_index::index));
      e.mem_fn(c.ld_ec, live, glob(a.e, &srad_index::index));
      e.run(c.sum, live);
      e.mem_fn(c.lds_temp, live, own(4));
      e.run(c.update, live);
      e.mem_fn(c.sts_res, live, own(3));
      e.run(c.bar4, live);
      e.mem_fn(c.lds_res, live, own(3));
      e.mem_fn(c.st_j, live, glob(a.j, &srad_index::index));
      e.run(c.done, live);
    }
  });
}

void generate_srad(const param_set& ps, app_builder& app) {
  const srad_geom g{ps.u32("rows"), ps.u32("cols"), ps.u32("block")};
  if (g.rows % g.b != 0) param_set::fail("rows", "must be a multiple of block");
  if (g.cols % g.b != 0) param_set::fail("cols", "must be a multiple of block");
  const std::uint32_t iterations = ps.u32("iterations");
  const std::uint64_t bytes = 4ull * g.rows * g.cols;
  // srad.cu: cudaMalloc J_cuda, C_cuda, E_C, W_C, S_C, N_C; every iteration copies J in and
  // launches srad_cuda_1 and srad_cuda_2 on a (cols / B) x (rows / B) grid.
  srad_arrays a{};
  for (std::uint64_t* x : {&a.j, &a.c, &a.e, &a.w, &a.s, &a.n}) *x = app.output(bytes);
  const dim3 grid{g.cols / g.b, g.rows / g.b, 1};
  for (std::uint32_t it = 0; it < iterations; ++it) {
    app.memcpy_h2d(a.j, bytes);
    launch_srad1(app, g, grid, a);
    launch_srad2(app, g, grid, a);
  }
}
}  // namespace

kernel_generator srad_generator() {
  return {"srad",
          "Rodinia srad_v2: srad_cuda_1 + srad_cuda_2 per iteration, shared-memory halo loads",
          {param_desc::integer("rows", 128, 1, 1u << 15, "image rows (multiple of block)"),
           param_desc::integer("cols", 128, 1, 1u << 15, "image columns (multiple of block)"),
           param_desc::integer("iterations", 2, 1, 1u << 12, "SRAD iterations (niter)"),
           param_desc::integer("block", 16, 2, 32, "TB is block x block threads (BLOCK_SIZE)")},
          generate_srad};
}

}  // namespace gputlm::traces::generators
