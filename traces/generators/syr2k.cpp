// SYR2K, C = alpha * A * B^T + alpha * B * A^T + beta * C with A, B (n x k) and C (n x n),
// row-major: the naive PolyBench/GPU kernel (syr2k.cu, syr2k_kernel), one thread per C
// element, j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y +
// threadIdx.y, 32 x 8 TBs. C is scaled by beta, then each k step reads a[i][k], b[j][k],
// b[i][k], a[j][k] and stores c[i][j] (the compiler must assume C may alias A and B):
// LDG x4, FMUL x2, FMUL, FFMA, FADD, STG per step.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct syr2k_code {
  code head, exit_oob, addr_c, ld_c, beta, st_beta, setup;
  code ld_aik, ld_bjk, ld_bik, ld_ajk, math, st_c, step, back, done;
};

syr2k_code build_syr2k(program& p) {
  syr2k_code c;
  auto m = p.here();
  p.global_index_2d();  // R0 = j, R3 = i
  p.isetp("GE", 3, rz);
  p.isetp("GE", 0, rz);
  c.head = p.since(m);
  c.exit_oob = p.exit();
  m = p.here();
  p.imad(5, 3, rz, 0);  // i * n + j
  p.address(6, 5, rz);
  c.addr_c = p.since(m);
  c.ld_c = p.ld_global(8, 6, 4);
  c.beta = p.fmul(8, 8, rz);
  c.st_beta = p.st_global(6, 8, 4);
  m = p.here();
  p.imad(9, 3, rz, rz);   // i * k
  p.address(10, 9, rz);   // &a[i][0]
  p.address(12, 9, rz);   // &b[i][0]
  p.imad(14, 0, rz, rz);  // j * k
  p.address(20, 14, rz);  // &a[j][0]
  p.address(22, 14, rz);  // &b[j][0]
  p.mov(16);
  c.setup = p.since(m);
  c.ld_aik = p.ld_global(17, 10, 4);
  c.ld_bjk = p.ld_global(18, 22, 4);
  c.ld_bik = p.ld_global(24, 12, 4);
  c.ld_ajk = p.ld_global(25, 20, 4);
  m = p.here();
  p.fmul(17, 17, rz);  // alpha * a[i][k]
  p.fmul(24, 24, rz);  // alpha * b[i][k]
  p.fmul(24, 24, 25);  // * a[j][k]
  p.ffma(17, 17, 18, 24);
  p.fadd(8, 8, 17);
  c.math = p.since(m);
  c.st_c = p.st_global(6, 8, 4);
  m = p.here();
  p.ptr_add(10, 10, rz);
  p.ptr_add(12, 12, rz);
  p.ptr_add(20, 20, rz);
  p.ptr_add(22, 22, rz);
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, rz);
  c.step = p.since(m);
  c.back = p.bra();
  c.done = p.exit();
  p.bra();
  return c;
}

void generate_syr2k(const param_set& ps, app_builder& app) {
  const std::uint32_t n = ps.u32("n"), kk = ps.u32("k");
  const std::uint32_t bx = ps.u32("block_x"), by = ps.u32("block_y");
  if (std::uint64_t(bx) * by > 1024) param_set::fail("block_y", "block_x * block_y exceeds 1024");
  const std::uint64_t a = app.input(4ull * n * kk);
  const std::uint64_t b = app.input(4ull * n * kk);
  const std::uint64_t c = app.input(4ull * n * n);

  program p(app.opcodes(), 19);
  const syr2k_code s = build_syr2k(p);
  const dim3 grid{(n + bx - 1) / bx, (n + by - 1) / by, 1};
  const kernel_info info = app.kernel("_Z12syr2k_kerneliiffPfS_S_", app.reserve_kernel_id(), grid,
                                      dim3{bx, by, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const matrix_lanes ml = matrix_lanes_of(tb.index, info.block, lanes, n, n);
      const auto& i = ml.i;
      const auto& j = ml.j;
      const std::uint32_t in = ml.in;
      auto cij = [&](unsigned l) { return c + 4 * (i[l] * n + j[l]); };
      e.run(s.head, lanes.live);
      e.run(s.exit_oob, lanes.live & ~in);
      e.run(s.addr_c, in);
      e.mem_fn(s.ld_c, in, cij);
      e.run(s.beta, in);
      e.mem_fn(s.st_beta, in, cij);
      e.run(s.setup, in);
      for (std::uint64_t k = 0; k < kk; ++k) {
        e.mem_fn(s.ld_aik, in, [&](unsigned l) { return a + 4 * (i[l] * kk + k); });
        e.mem_fn(s.ld_bjk, in, [&](unsigned l) { return b + 4 * (j[l] * kk + k); });
        e.mem_fn(s.ld_bik, in, [&](unsigned l) { return b + 4 * (i[l] * kk + k); });
        e.mem_fn(s.ld_ajk, in, [&](unsigned l) { return a + 4 * (j[l] * kk + k); });
        e.run(s.math, in);
        e.mem_fn(s.st_c, in, cij);
        e.run(s.step, in);
        if (k + 1 < kk) e.run(s.back, in);
      }
      e.run(s.done, in);
    }
  });
}
}  // namespace

kernel_generator syr2k_generator() {
  return {"syr2k",
          "C = alpha*A*B^T + alpha*B*A^T + beta*C (A, B n x k), naive PolyBench/GPU kernel",
          {param_desc::integer("n", 64, 1, 1u << 15, "rows of A and B; C is n x n"),
           param_desc::integer("k", 64, 1, 1u << 15, "columns of A and B"),
           param_desc::integer("block_x", 32, 1, 1024, "TB width (threads)"),
           param_desc::integer("block_y", 8, 1, 1024, "TB height (threads)")},
          generate_syr2k};
}

}  // namespace gputlm::traces::generators
