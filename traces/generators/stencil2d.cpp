// 2-D 5-point Jacobi stencil on an nx x ny grid (row-major, x fastest):
//   out[y][x] = c0 * in[y][x] + c1 * (in[y][x-1] + in[y][x+1] + in[y-1][x] + in[y+1][x])
// for interior points only; 2-D TBs (16 x 16 by default), one thread per point. Boundary
// points and threads past the grid leave through `@!P0 EXIT`, so they are masked from all
// later instructions (the Rodinia/Parboil stencil pattern).
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_stencil2d(const param_set& ps, app_builder& app) {
  const std::uint32_t nx = ps.u32("nx"), ny = ps.u32("ny");
  const std::uint32_t bx = ps.u32("block_x"), by = ps.u32("block_y");
  if (std::uint64_t(bx) * by > 1024) param_set::fail("block_y", "block_x * block_y exceeds 1024");
  const dim3 grid{(nx + bx - 1) / bx, (ny + by - 1) / by, 1};
  const std::uint64_t points = std::uint64_t(nx) * ny;

  const std::uint64_t in = app.input(4 * points);
  const std::uint64_t out = app.output(4 * points);

  program p(app.opcodes(), 19);
  auto m = p.here();
  p.global_index_2d();  // R0 = x, R3 = y
  p.isetp("GT", 0, rz);
  p.isetp("LT", 0, rz);
  p.isetp("GT", 3, rz);
  p.isetp("LT", 3, rz);
  const code head = p.since(m);
  const code exit_boundary = p.exit();
  m = p.here();
  p.imad(5, 3, rz, 0);  // idx = y * nx + x
  p.address(6, 5, rz);
  const code addr_c = p.since(m);
  const code ld_c = p.ld_global(8, 6, 4);
  const code ld_w = p.ld_global(9, 6, 4);   // [R6 - 0x4]
  const code ld_e = p.ld_global(10, 6, 4);  // [R6 + 0x4]
  m = p.here();
  p.iadd(11, 5, rz);  // idx - nx
  p.address(12, 11, rz);
  const code addr_n = p.since(m);
  const code ld_n = p.ld_global(14, 12, 4);
  m = p.here();
  p.iadd(15, 5, rz);  // idx + nx
  p.address(16, 15, rz);
  const code addr_s = p.since(m);
  const code ld_s = p.ld_global(18, 16, 4);
  m = p.here();
  p.fadd(9, 9, 10);
  p.fadd(9, 9, 14);
  p.fadd(9, 9, 18);
  p.fmul(9, 9, rz);
  p.ffma(9, 8, rz, 9);
  p.address(20, 5, rz);
  const code compute = p.since(m);
  const code st = p.st_global(20, 9, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z9stencil2dPKfPfiiff", app.reserve_kernel_id(), grid, dim3{bx, by, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> idx{};
      std::uint32_t interior = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint64_t x = std::uint64_t(tb.index.x) * bx + lanes.tx[l];
        const std::uint64_t y = std::uint64_t(tb.index.y) * by + lanes.ty[l];
        idx[l] = y * nx + x;
        if (x >= 1 && x + 1 < nx && y >= 1 && y + 1 < ny) interior |= 1u << l;
      }
      e.run(head, lanes.live);
      e.run(exit_boundary, lanes.live & ~interior);
      e.run(addr_c, interior);
      e.mem_fn(ld_c, interior, [&](unsigned l) { return in + 4 * idx[l]; });
      e.mem_fn(ld_w, interior, [&](unsigned l) { return in + 4 * (idx[l] - 1); });
      e.mem_fn(ld_e, interior, [&](unsigned l) { return in + 4 * (idx[l] + 1); });
      e.run(addr_n, interior);
      e.mem_fn(ld_n, interior, [&](unsigned l) { return in + 4 * (idx[l] - nx); });
      e.run(addr_s, interior);
      e.mem_fn(ld_s, interior, [&](unsigned l) { return in + 4 * (idx[l] + nx); });
      e.run(compute, interior);
      e.mem_fn(st, interior, [&](unsigned l) { return out + 4 * idx[l]; });
      e.run(done, interior);
    }
  });
}
}  // namespace

kernel_generator stencil2d_generator() {
  return {"stencil2d",
          "2-D 5-point stencil on an nx x ny grid, 2-D TBs, boundary lanes masked",
          {param_desc::integer("nx", 128, 3, 1u << 16, "grid width (points)"),
           param_desc::integer("ny", 128, 3, 1u << 16, "grid height (points)"),
           param_desc::integer("block_x", 16, 1, 1024, "TB width (threads)"),
           param_desc::integer("block_y", 16, 1, 1024, "TB height (threads)")},
          generate_stencil2d};
}

}  // namespace gputlm::traces::generators
