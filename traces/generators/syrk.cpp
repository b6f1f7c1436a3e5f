// SYRK, C = alpha * A * A^T + beta * C with A (n x k) and C (n x n), row-major: the naive
// PolyBench/GPU kernel (syrk.cu), one thread per C element. C is scaled by beta, then
// updated in global memory on every k step (the compiler must assume C may alias A, so each
// iteration stores C), giving LDG, LDG, FMUL, FFMA, STG per step.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_syrk(const param_set& ps, app_builder& app) {
  const std::uint32_t n = ps.u32("n"), kk = ps.u32("k");
  const std::uint32_t bx = ps.u32("block_x"), by = ps.u32("block_y");
  if (std::uint64_t(bx) * by > 1024) param_set::fail("block_y", "block_x * block_y exceeds 1024");
  const std::uint64_t a = app.input(4ull * n * kk);
  const std::uint64_t c = app.input(4ull * n * n);

  program p(app.opcodes(), 19);
  auto m = p.here();
  p.global_index_2d();  // R0 = j, R3 = i
  p.isetp("GE", 3, rz);
  p.isetp("GE", 0, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.imad(5, 3, rz, 0);  // i * n + j
  p.address(6, 5, rz);
  const code addr_c = p.since(m);
  const code ld_c = p.ld_global(8, 6, 4);
  const code beta = p.fmul(8, 8, rz);
  const code st_beta = p.st_global(6, 8, 4);
  m = p.here();
  p.imad(9, 3, rz, rz);  // i * k
  p.address(10, 9, rz);
  p.imad(12, 0, rz, rz);  // j * k
  p.address(14, 12, rz);
  p.mov(16);
  const code setup = p.since(m);
  const code ld_ai = p.ld_global(17, 10, 4);
  const code ld_aj = p.ld_global(18, 14, 4);
  m = p.here();
  p.fmul(17, 17, rz);  // alpha * a[i][k]
  p.ffma(8, 17, 18, 8);
  const code fma = p.since(m);
  const code st_c = p.st_global(6, 8, 4);
  m = p.here();
  p.ptr_add(10, 10, rz);
  p.ptr_add(14, 14, rz);
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const dim3 grid{(n + bx - 1) / bx, (n + by - 1) / by, 1};
  const kernel_info info =
      app.kernel("_Z11syrk_kernelffPfS_", app.reserve_kernel_id(), grid, dim3{bx, by, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const matrix_lanes ml = matrix_lanes_of(tb.index, info.block, lanes, n, n);
      const auto& i = ml.i;
      const auto& j = ml.j;
      const std::uint32_t in = ml.in;
      auto cij = [&](unsigned l) { return c + 4 * (i[l] * n + j[l]); };
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~in);
      e.run(addr_c, in);
      e.mem_fn(ld_c, in, cij);
      e.run(beta, in);
      e.mem_fn(st_beta, in, cij);
      e.run(setup, in);
      for (std::uint64_t k = 0; k < kk; ++k) {
        e.mem_fn(ld_ai, in, [&](unsigned l) { return a + 4 * (i[l] * kk + k); });
        e.mem_fn(ld_aj, in, [&](unsigned l) { return a + 4 * (j[l] * kk + k); });
        e.run(fma, in);
        e.mem_fn(st_c, in, cij);
        e.run(step, in);
        if (k + 1 < kk) e.run(back, in);
      }
      e.run(done, in);
    }
  });
}
}  // namespace

kernel_generator syrk_generator() {
  return {"syrk",
          "C = alpha*A*A^T + beta*C (A n x k), naive PolyBench/GPU kernel, C updated in memory",
          {param_desc::integer("n", 64, 1, 1u << 15, "rows of A; C is n x n"),
           param_desc::integer("k", 64, 1, 1u << 15, "columns of A"),
           param_desc::integer("block_x", 32, 1, 1024, "TB width (threads)"),
           param_desc::integer("block_y", 8, 1, 1024, "TB height (threads)")},
          generate_syrk};
}

}  // namespace gputlm::traces::generators
