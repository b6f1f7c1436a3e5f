// 2MM and 3MM, chains of naive matrix products from PolyBench/GPU (2mm.cu: mm2_kernel1,
// mm2_kernel2; 3mm.cu: mm3_kernel1..3), one thread per output element, j = blockIdx.x *
// blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y, 32 x 8 TBs, one
// launch per product in host order:
//  - mm2: tmp = alpha * A * B (tmp[i][j] = 0, then tmp[i][j] += alpha * A[i][k] * B[k][j]),
//         D = beta * D + tmp * C (D[i][j] *= beta, then D[i][j] += tmp[i][k] * C[k][j]);
//  - mm3: E = A * B, F = C * D, G = E * F (X[i][j] = 0, then X[i][j] += P[i][k] * Q[k][j]).
// The output element is stored on every k step (the compiler must assume it may alias the
// operands): LDG, LDG, [FMUL alpha], FFMA, STG per step.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
enum class mm_init : std::uint8_t { zero, scale_by_beta };

// X (rows x cols) op= P (rows x inner) * Q (inner x cols), all row-major.
struct mm_product {
  std::string name;
  std::uint32_t rows, cols, inner;
  std::uint64_t p, q, x;
  mm_init init;
  bool alpha;  // P[i][k] is multiplied by alpha first
};

struct mm_code {
  code head, exit_oob, addr_x, init_x, st_init, setup, ld_p, ld_q, math, st_x, step, back, done;
  code ld_x;  // scale_by_beta only
};

mm_code build_mm(program& p, const mm_product& d) {
  mm_code c;
  auto m = p.here();
  p.global_index_2d();  // R0 = j, R3 = i
  p.isetp("GE", 3, rz);
  p.isetp("GE", 0, rz);
  c.head = p.since(m);
  c.exit_oob = p.exit();
  m = p.here();
  p.imad(5, 3, rz, 0);  // i * cols + j
  p.address(6, 5, rz);
  c.addr_x = p.since(m);
  if (d.init == mm_init::scale_by_beta) {
    c.ld_x = p.ld_global(8, 6, 4);
    c.init_x = p.fmul(8, 8, rz);
  } else {
    c.init_x = p.mov(8);
  }
  c.st_init = p.st_global(6, 8, 4);
  m = p.here();
  p.imad(9, 3, rz, rz);  // i * inner
  p.address(10, 9, rz);  // &P[i][0]
  p.address(12, 0, rz);  // &Q[0][j]
  p.mov(16);
  c.setup = p.since(m);
  c.ld_p = p.ld_global(17, 10, 4);
  c.ld_q = p.ld_global(18, 12, 4);
  m = p.here();
  if (d.alpha) p.fmul(17, 17, rz);
  p.ffma(8, 17, 18, 8);
  c.math = p.since(m);
  c.st_x = p.st_global(6, 8, 4);
  m = p.here();
  p.ptr_add(10, 10, rz);  // += 4
  p.ptr_add(12, 12, rz);  // += 4 * cols
  p.iadd(16, 16, rz);
  p.isetp("LT", 16, rz);
  c.step = p.since(m);
  c.back = p.bra();
  c.done = p.exit();
  p.bra();
  return c;
}

void launch_mm(app_builder& app, const mm_product& d, dim3 block) {
  program p(app.opcodes(), 19);
  const mm_code c = build_mm(p, d);
  const dim3 grid{(d.cols + block.x - 1) / block.x, (d.rows + block.y - 1) / block.y, 1};
  const kernel_info info = app.kernel(d.name, app.reserve_kernel_id(), grid, block, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const matrix_lanes ml = matrix_lanes_of(tb.index, info.block, lanes, d.rows, d.cols);
      const auto& i = ml.i;
      const auto& j = ml.j;
      const std::uint32_t in = ml.in;
      auto xij = [&](unsigned l) { return d.x + 4 * (i[l] * d.cols + j[l]); };
      e.run(c.head, lanes.live);
      e.run(c.exit_oob, lanes.live & ~in);
      e.run(c.addr_x, in);
      if (d.init == mm_init::scale_by_beta) e.mem_fn(c.ld_x, in, xij);
      e.run(c.init_x, in);
      e.mem_fn(c.st_init, in, xij);
      e.run(c.setup, in);
      for (std::uint64_t k = 0; k < d.inner; ++k) {
        e.mem_fn(c.ld_p, in, [&](unsigned l) { return d.p + 4 * (i[l] * d.inner + k); });
        e.mem_fn(c.ld_q, in, [&](unsigned l) { return d.q + 4 * (k * d.cols + j[l]); });
        e.run(c.math, in);
        e.mem_fn(c.st_x, in, xij);
        e.run(c.step, in);
        if (k + 1 < d.inner) e.run(c.back, in);
      }
      e.run(c.done, in);
    }
  });
}

dim3 read_block(const param_set& ps) {
  const std::uint32_t bx = ps.u32("block_x"), by = ps.u32("block_y");
  if (std::uint64_t(bx) * by > 1024) param_set::fail("block_y", "block_x * block_y exceeds 1024");
  return dim3{bx, by, 1};
}

void generate_mm2(const param_set& ps, app_builder& app) {
  const std::uint32_t ni = ps.u32("ni"), nj = ps.u32("nj"), nk = ps.u32("nk"), nl = ps.u32("nl");
  const dim3 block = read_block(ps);
  // 2mm.cu allocates and copies tmp, A, B, C, D in this order.
  const std::uint64_t tmp = app.input(4ull * ni * nj);
  const std::uint64_t a = app.input(4ull * ni * nk);
  const std::uint64_t b = app.input(4ull * nk * nj);
  const std::uint64_t c = app.input(4ull * nj * nl);
  const std::uint64_t d = app.input(4ull * ni * nl);
  const std::string sig = "iiiiffPfS_S_";
  launch_mm(app, {"_Z11mm2_kernel1" + sig, ni, nj, nk, a, b, tmp, mm_init::zero, true}, block);
  launch_mm(app, {"_Z11mm2_kernel2" + sig, ni, nl, nj, tmp, c, d, mm_init::scale_by_beta, false},
            block);
}

void generate_mm3(const param_set& ps, app_builder& app) {
  const std::uint32_t ni = ps.u32("ni"), nj = ps.u32("nj"), nk = ps.u32("nk"), nl = ps.u32("nl"),
                      nm = ps.u32("nm");
  const dim3 block = read_block(ps);
  // 3mm.cu allocates and copies A, B, C, D, E, F, G in this order.
  const std::uint64_t a = app.input(4ull * ni * nk);
  const std::uint64_t b = app.input(4ull * nk * nj);
  const std::uint64_t c = app.input(4ull * nj * nm);
  const std::uint64_t d = app.input(4ull * nm * nl);
  const std::uint64_t e = app.input(4ull * ni * nj);
  const std::uint64_t f = app.input(4ull * nj * nl);
  const std::uint64_t g = app.input(4ull * ni * nl);
  const std::string sig = "iiiiiPfS_S_";
  launch_mm(app, {"_Z11mm3_kernel1" + sig, ni, nj, nk, a, b, e, mm_init::zero, false}, block);
  launch_mm(app, {"_Z11mm3_kernel2" + sig, nj, nl, nm, c, d, f, mm_init::zero, false}, block);
  launch_mm(app, {"_Z11mm3_kernel3" + sig, ni, nl, nj, e, f, g, mm_init::zero, false}, block);
}

std::vector<param_desc> block_params() {
  return {param_desc::integer("block_x", 32, 1, 1024, "TB width (threads)"),
          param_desc::integer("block_y", 8, 1, 1024, "TB height (threads)")};
}

param_desc dim(const char* name, const char* what) {
  return param_desc::integer(name, 64, 1, 1u << 15, what);
}
}  // namespace

kernel_generator mm2_generator() {
  std::vector<param_desc> params = {
      dim("ni", "rows of A, tmp and D"), dim("nj", "columns of B and tmp, rows of C"),
      dim("nk", "columns of A, rows of B"), dim("nl", "columns of C and D")};
  for (auto& b : block_params()) params.push_back(b);
  return {"mm2", "2MM: tmp = alpha*A*B, D = beta*D + tmp*C, two naive PolyBench/GPU launches",
          params, generate_mm2};
}

kernel_generator mm3_generator() {
  std::vector<param_desc> params = {
      dim("ni", "rows of A, E and G"), dim("nj", "columns of B and E, rows of C and F"),
      dim("nk", "columns of A, rows of B"), dim("nl", "columns of D, F and G"),
      dim("nm", "columns of C, rows of D")};
  for (auto& b : block_params()) params.push_back(b);
  return {"mm3", "3MM: E = A*B, F = C*D, G = E*F, three naive PolyBench/GPU launches", params,
          generate_mm3};
}

}  // namespace gputlm::traces::generators
