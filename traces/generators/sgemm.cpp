// SGEMM, C = alpha * A * B + beta * C with row-major A (M x K), B (K x N), C (M x N):
//  - sgemm_naive: one thread per C element, K-loop of two global loads and an FFMA
//    (Kirk & Hwu, "Programming Massively Parallel Processors", ch. 4);
//  - sgemm_tiled: the shared-memory tiled version (ibid. ch. 5; CUDA Programming Guide
//    "Shared Memory" example): per tile, each thread loads one element of A and of B into
//    shared memory (LDG, STS), BAR.SYNC, an unrolled loop of LDS/LDS/FFMA over the tile,
//    BAR.SYNC. Loads past the matrix edges are predicated off and store zeros.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct gemm_dims {
  std::uint32_t m, n, k;
};

gemm_dims read_dims(const param_set& ps) { return {ps.u32("M"), ps.u32("N"), ps.u32("K")}; }

// alpha * sum + beta * C[row][col] and the store, shared by both kernels.
struct epilogue {
  code exit_oob, addr, ld_c, scale, st_c, done;
  explicit epilogue(program& p) {
    exit_oob = p.exit();
    auto m = p.here();
    p.imad(30, 3, rz, 0);  // row * N + col
    p.address(32, 30, rz);
    addr = p.since(m);
    ld_c = p.ld_global(34, 32, 4);
    m = p.here();
    p.fmul(8, 8, rz);
    p.ffma(8, 34, rz, 8);
    scale = p.since(m);
    st_c = p.st_global(32, 8, 4);
    done = p.exit();
    p.bra();
  }
  void emit(warp_emitter& e, std::uint32_t live, std::uint32_t in, std::uint64_t c,
            const std::array<std::uint64_t, 32>& cidx) const {
    e.run(exit_oob, live & ~in);
    e.run(addr, in);
    e.mem_fn(ld_c, in, [&](unsigned l) { return c + 4 * cidx[l]; });
    e.run(scale, in);
    e.mem_fn(st_c, in, [&](unsigned l) { return c + 4 * cidx[l]; });
    e.run(done, in);
  }
};

void generate_naive(const param_set& ps, app_builder& app) {
  const gemm_dims d = read_dims(ps);
  const std::uint32_t bs = ps.u32("block");
  if (bs * bs > 1024) param_set::fail("block", "block * block exceeds 1024 threads");
  const std::uint64_t a = app.input(4ull * d.m * d.k);
  const std::uint64_t b = app.input(4ull * d.k * d.n);
  const std::uint64_t c = app.input(4ull * d.m * d.n);

  program p(app.opcodes(), 19);
  auto m = p.here();
  p.global_index_2d();  // R0 = col, R3 = row
  p.isetp("GE", 3, rz);
  p.isetp("GE", 0, rz);
  const code head = p.since(m);
  const code exit_head = p.exit();  // @P0 EXIT: row >= M || col >= N
  m = p.here();
  p.mov(8);              // sum = 0
  p.imad(5, 3, rz, rz);  // row * K
  p.address(10, 5, rz);  // &A[row][0]
  p.address(12, 0, rz);  // &B[0][col]
  p.mov(6);              // k = 0
  const code setup = p.since(m);
  const code ld_a = p.ld_global(14, 10, 4);
  const code ld_b = p.ld_global(15, 12, 4);
  m = p.here();
  p.ptr_add(10, 10, rz);  // += 4
  p.ptr_add(12, 12, rz);  // += 4 * N
  p.iadd(6, 6, rz);
  p.isetp("LT", 6, rz);
  p.ffma(8, 14, 15, 8);
  const code step = p.since(m);
  const code back = p.bra();  // @P0 BRA loop
  const epilogue tail(p);

  const dim3 grid{(d.n + bs - 1) / bs, (d.m + bs - 1) / bs, 1};
  const kernel_info info = app.kernel("_Z11sgemm_naiveiiifPKfS0_fPf", app.reserve_kernel_id(), grid,
                                      dim3{bs, bs, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> row{}, col{}, cidx{};
      std::uint32_t in = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        row[l] = std::uint64_t(tb.index.y) * bs + lanes.ty[l];
        col[l] = std::uint64_t(tb.index.x) * bs + lanes.tx[l];
        cidx[l] = row[l] * d.n + col[l];
        if (row[l] < d.m && col[l] < d.n) in |= 1u << l;
      }
      e.run(head, lanes.live);
      e.run(exit_head, lanes.live & ~in);
      e.run(setup, in);
      for (std::uint64_t k = 0; k < d.k; ++k) {
        e.mem_fn(ld_a, in, [&](unsigned l) { return a + 4 * (row[l] * d.k + k); });
        e.mem_fn(ld_b, in, [&](unsigned l) { return b + 4 * (k * d.n + col[l]); });
        e.run(step, in);
        if (k + 1 < d.k) e.run(back, in);
      }
      tail.emit(e, in, in, c, cidx);
    }
  });
}

void generate_tiled(const param_set& ps, app_builder& app) {
  const gemm_dims d = read_dims(ps);
  const std::uint32_t t = ps.u32("tile");
  const std::uint64_t a = app.input(4ull * d.m * d.k);
  const std::uint64_t b = app.input(4ull * d.k * d.n);
  const std::uint64_t c = app.input(4ull * d.m * d.n);
  const std::uint32_t bs_off = 4 * t * t;  // Bs follows As in shared memory

  program p(app.opcodes(), 19);
  auto m = p.here();
  p.global_index_2d();  // R0 = col, R3 = row
  p.imad(5, 4, rz, 2);  // ty * T + tx
  p.shl(5, 5);          // &As[ty][tx]
  p.iadd(6, 5, rz);     // &Bs[ty][tx]
  p.shl(7, 4);          // &As[ty][0]
  p.shl(9, 2);
  p.iadd(9, 9, rz);      // &Bs[0][tx]
  p.mov(8);              // sum = 0
  p.imad(17, 3, rz, 2);  // row * K + tx
  p.address(10, 17, rz);
  p.imad(18, 4, rz, 0);  // ty * N + col
  p.address(12, 18, rz);
  p.mov(16);  // tile counter
  const code head = p.since(m);
  m = p.here();
  p.mov(14);
  p.isetp("LT", 17, rz);
  const code pre_a = p.since(m);
  const code ld_a = p.ld_global(14, 10, 4);  // @P1
  m = p.here();
  p.mov(15);
  p.isetp("LT", 18, rz);
  const code pre_b = p.since(m);
  const code ld_b = p.ld_global(15, 12, 4);  // @P2
  const code sts_a = p.st_shared(5, 14, 4);
  const code sts_b = p.st_shared(6, 15, 4);
  const code bar1 = p.bar_sync();
  std::vector<code> lds_a(t), lds_b(t), fma(t);
  for (std::uint32_t k = 0; k < t; ++k) {
    const reg ra = reg(20 + 2 * (k % 4)), rb = reg(21 + 2 * (k % 4));
    lds_a[k] = p.ld_shared(ra, 7, 4);
    lds_b[k] = p.ld_shared(rb, 9, 4);
    fma[k] = p.ffma(8, ra, rb, 8);
  }
  const code bar2 = p.bar_sync();
  m = p.here();
  p.ptr_add(10, 10, rz);  // += 4 * T
  p.ptr_add(12, 12, rz);  // += 4 * T * N
  p.iadd(17, 17, rz);
  p.iadd(18, 18, rz);
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const epilogue tail(p);

  const dim3 grid{(d.n + t - 1) / t, (d.m + t - 1) / t, 1};
  const std::uint32_t tiles = (d.k + t - 1) / t;
  const kernel_info info = app.kernel("_Z11sgemm_tiledILi" + std::to_string(t) + "EEviiifPKfS1_fPf",
                                      app.reserve_kernel_id(), grid, dim3{t, t, 1}, 2 * bs_off, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::array<std::uint64_t, 32> row{}, col{}, cidx{};
      std::uint32_t in = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        row[l] = std::uint64_t(tb.index.y) * t + lanes.ty[l];
        col[l] = std::uint64_t(tb.index.x) * t + lanes.tx[l];
        cidx[l] = row[l] * d.n + col[l];
        if (row[l] < d.m && col[l] < d.n) in |= 1u << l;
      }
      e.run(head, live);
      for (std::uint32_t ti = 0; ti < tiles; ++ti) {
        std::uint32_t a_in = 0, b_in = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(live >> l & 1u)) continue;
          if (row[l] < d.m && std::uint64_t(ti) * t + lanes.tx[l] < d.k) a_in |= 1u << l;
          if (std::uint64_t(ti) * t + lanes.ty[l] < d.k && col[l] < d.n) b_in |= 1u << l;
        }
        e.run(pre_a, live);
        e.mem_fn(ld_a, a_in, [&](unsigned l) {
          return a + 4 * (row[l] * d.k + std::uint64_t(ti) * t + lanes.tx[l]);
        });
        e.run(pre_b, live);
        e.mem_fn(ld_b, b_in, [&](unsigned l) {
          return b + 4 * ((std::uint64_t(ti) * t + lanes.ty[l]) * d.n + col[l]);
        });
        e.mem_fn(sts_a, live, [&](unsigned l) { return 4ull * (lanes.ty[l] * t + lanes.tx[l]); });
        e.mem_fn(sts_b, live,
                 [&](unsigned l) { return bs_off + 4ull * (lanes.ty[l] * t + lanes.tx[l]); });
        e.run(bar1, live);
        for (std::uint32_t k = 0; k < t; ++k) {
          e.mem_fn(lds_a[k], live, [&](unsigned l) { return 4ull * (lanes.ty[l] * t + k); });
          e.mem_fn(lds_b[k], live,
                   [&](unsigned l) { return bs_off + 4ull * (k * t + lanes.tx[l]); });
          e.run(fma[k], live);
        }
        e.run(bar2, live);
        e.run(step, live);
        if (ti + 1 < tiles) e.run(back, live);
      }
      tail.emit(e, live, in, c, cidx);
    }
  });
}

std::vector<param_desc> dims_params() {
  return {param_desc::integer("M", 64, 1, 1u << 16, "rows of A and C"),
          param_desc::integer("N", 64, 1, 1u << 16, "columns of B and C"),
          param_desc::integer("K", 64, 1, 1u << 16, "columns of A, rows of B")};
}
}  // namespace

kernel_generator sgemm_naive_generator() {
  auto params = dims_params();
  params.push_back(param_desc::integer("block", 16, 1, 32, "TB is block x block threads"));
  return {"sgemm_naive", "C = alpha*A*B + beta*C, one thread per C element, global loads only",
          params, generate_naive};
}

kernel_generator sgemm_tiled_generator() {
  auto params = dims_params();
  params.push_back(
      param_desc::integer("tile", 16, 1, 32, "shared-memory tile (TB is tile x tile)"));
  return {"sgemm_tiled",
          "C = alpha*A*B + beta*C with shared-memory tiles (LDS/STS, 2 BAR.SYNC per tile)", params,
          generate_tiled};
}

}  // namespace gputlm::traces::generators
