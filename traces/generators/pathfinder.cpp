// Rodinia pathfinder (Rodinia 3.1 cuda/pathfinder/pathfinder.cu, dynproc_kernel; PAVER's PF,
// Tripathy's thesis Table 3.2): dynamic programming over a rows x cols grid of weights, each
// cell of a row adding its weight to the smallest of the three cells above it. Pyramid time
// tiling as in hotspot, in one dimension: a TB of `block` threads (BLOCK_SIZE) covers
// small_block_cols = block - 2 * iteration columns of output with a halo of `iteration` cells
// on each side (HALO = 1 per step). Thread tx of TB bx has xidx = blkX + tx, blkX =
// small_block_cols * bx - border (border = pyramid_height, the host's value, while
// small_block_cols uses the launch's own `iteration`); lanes with xidx in [0, cols - 1] load
// gpuSrc[xidx] into prev[tx], BAR.SYNC, then per step i the lanes with tx in
// [i + 1, block - i - 2] and inside the valid range (`computed`) read prev[W], prev[tx],
// prev[E] (W, E clamped to the valid range), take the minimum (IMNMX) and add
// gpuWall[cols * (startStep + i) + xidx] into result[tx], BAR.SYNC, and, except in the last
// step, copy result[tx] back to prev[tx], BAR.SYNC. The lanes computed in the last step store
// gpuResults[xidx]. The host launches for t = 0; t < rows - 1; t += pyramid_height, with
// iteration = min(pyramid_height, rows - t - 1), swapping the two result rows, on a grid of
// ceil(cols / (block - 2 * pyramid_height)) TBs.
#include <algorithm>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct pathfinder_code {
  code head, ld_src, sts_src, bar0, loop_init;
  code loop_cmp, lds_w, lds_c, lds_e, min, wall_addr, ld_wall, add, sts_result, bar1, last;
  code lds_copy, sts_copy, bar2, step, back, exit_idle, lds_out, addr_out, st_out, done;
};

pathfinder_code build_pathfinder(program& p) {
  pathfinder_code c;
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);     // bx
  p.s2r(2, sreg::tid_x);       // tx
  p.mov(5);                    // iteration
  p.mov(6);                    // border
  p.mov(7);                    // cols
  p.imad(8, 5, rz, rz);        // small_block_cols = BLOCK_SIZE - iteration * 2
  p.imad(9, 8, 0, 6);          // blkX = small_block_cols * bx - border
  p.iadd(10, 9, rz);           // blkXmax = blkX + BLOCK_SIZE - 1
  p.iadd(11, 9, 2);            // xidx = blkX + tx
  p.iadd(12, 9, rz);           // -blkX
  p.raw("IMNMX", {12}, {12});  // validXmin = max(-blkX, 0)
  p.iadd(13, 7, 9);            // cols - 1 - blkX
  p.isetp("GT", 10, 7);        // blkXmax > cols - 1
  p.raw("SEL", {13}, {13});    // validXmax
  p.iadd(14, 2, rz);           // W = tx - 1
  p.raw("IMNMX", {14}, {14, 12});
  p.iadd(15, 2, rz);  // E = tx + 1
  p.raw("IMNMX", {15}, {15, 13});
  p.isetp("GE", 2, 12);  // isValid = IN_RANGE(tx, validXmin, validXmax)
  p.isetp("LE", 2, 13);
  p.address(16, 11, rz);  // &gpuSrc[xidx]
  p.shl(18, 2);           // &prev[tx]
  p.shl(19, 14);          // &prev[W]
  p.shl(20, 15);          // &prev[E]
  p.isetp("GE", 11, rz);  // IN_RANGE(xidx, 0, cols - 1)
  p.isetp("GT", 11, 7);
  c.head = p.since(m);
  c.ld_src = p.ld_global(21, 16, 4);   // @P0
  c.sts_src = p.st_shared(18, 21, 4);  // @P0 prev[tx]
  c.bar0 = p.bar_sync();
  c.loop_init = p.mov(22);  // i = 0
  m = p.here();
  p.iadd(23, 22, rz);  // i + 1
  p.iadd(24, 22, rz);  // BLOCK_SIZE - i - 2
  p.isetp("GE", 2, 23);
  p.isetp("LE", 2, 24);  // && isValid: computed
  c.loop_cmp = p.since(m);
  c.lds_w = p.ld_shared(25, 19, 4);  // left = prev[W]
  c.lds_c = p.ld_shared(26, 18, 4);  // up = prev[tx]
  c.lds_e = p.ld_shared(27, 20, 4);  // right = prev[E]
  m = p.here();
  p.raw("IMNMX", {25}, {25, 26});  // MIN(left, up)
  p.raw("IMNMX", {25}, {25, 27});  // MIN(shortest, right)
  c.min = p.since(m);
  m = p.here();
  p.iadd(28, 22, rz);     // startStep + i
  p.imad(28, 28, 7, 11);  // index = cols * (startStep + i) + xidx
  p.address(30, 28, rz);  // &gpuWall[index]
  c.wall_addr = p.since(m);
  c.ld_wall = p.ld_global(32, 30, 4);
  c.add = p.iadd(25, 25, 32);
  c.sts_result = p.st_shared(18, 25, 4);  // result[tx] [+ 4 * BLOCK_SIZE]
  c.bar1 = p.bar_sync();
  m = p.here();
  p.isetp("EQ", 22, rz);  // i == iteration - 1
  p.bra();                // @P2 BRA out
  c.last = p.since(m);
  c.lds_copy = p.ld_shared(33, 18, 4);  // @P1 result[tx]
  c.sts_copy = p.st_shared(18, 33, 4);  // @P1 prev[tx]
  c.bar2 = p.bar_sync();
  m = p.here();
  p.iadd(22, 22, rz);  // i++
  p.isetp("LT", 22, 5);
  c.step = p.since(m);
  c.back = p.bra();
  c.exit_idle = p.exit();              // @!P1 EXIT (not computed)
  c.lds_out = p.ld_shared(34, 18, 4);  // result[tx]
  c.addr_out = p.address(35, 11, rz);  // &gpuResults[xidx]
  c.st_out = p.st_global(35, 34, 4);
  c.done = p.exit();
  p.bra();
  return c;
}

struct pathfinder_launch {
  std::uint32_t cols, block, border, iteration, start_step, grid;
  std::uint64_t wall, src, dst;
};

// One thread of dynproc_kernel: its column and the shared words it reads.
struct pf_lane {
  std::int64_t xidx = 0;
  std::uint32_t w = 0, e = 0;  // clamped neighbours (shared word indices)
  bool valid = false;          // isValid == IN_RANGE(xidx, 0, cols - 1)
};

pf_lane lane_state(const pathfinder_launch& k, std::uint32_t bx, std::uint32_t tx) {
  const std::int64_t b = k.block, cols = k.cols;
  const std::int64_t small = b - 2 * std::int64_t(k.iteration);
  const std::int64_t blk_x = small * bx - k.border, blk_xmax = blk_x + b - 1;
  const std::int64_t vmin = blk_x < 0 ? -blk_x : 0;
  const std::int64_t vmax = blk_xmax > cols - 1 ? b - 1 - (blk_xmax - cols + 1) : b - 1;
  pf_lane r;
  r.xidx = blk_x + tx;
  r.w = std::uint32_t(std::max<std::int64_t>(std::int64_t(tx) - 1, vmin));
  r.e = std::uint32_t(std::min<std::int64_t>(std::int64_t(tx) + 1, vmax));
  r.valid = std::int64_t(tx) >= vmin && std::int64_t(tx) <= vmax;
  return r;
}

void launch_pathfinder(app_builder& app, const pathfinder_launch& k) {
  program p(app.opcodes(), 36);
  const pathfinder_code c = build_pathfinder(p);
  const std::uint64_t result_base = 4ull * k.block;  // __shared__ int prev[B], result[B]
  const kernel_info info =
      app.kernel("_Z14dynproc_kerneliPiS_S_iiii", app.reserve_kernel_id(), dim3{k.grid, 1, 1},
                 dim3{k.block, 1, 1}, std::uint32_t(2 * result_base), p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::array<pf_lane, 32> st{};
      std::uint32_t valid = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        st[l] = lane_state(k, tb.index.x, lanes.tx[l]);
        if (st[l].valid) valid |= 1u << l;
      }
      auto prev = [&](unsigned l) { return 4ull * lanes.tx[l]; };
      auto result = [&](unsigned l) { return result_base + 4ull * lanes.tx[l]; };
      e.run(c.head, live);
      e.mem_fn(c.ld_src, valid, [&](unsigned l) { return k.src + 4 * std::uint64_t(st[l].xidx); });
      e.mem_fn(c.sts_src, valid, prev);
      e.run(c.bar0, live);
      e.run(c.loop_init, live);
      std::uint32_t computed = 0;
      for (std::uint32_t i = 0; i < k.iteration; ++i) {
        computed = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((valid >> l & 1u) && lanes.tx[l] >= i + 1 && lanes.tx[l] + i + 2 <= k.block)
            computed |= 1u << l;
        e.run(c.loop_cmp, live);
        e.mem_fn(c.lds_w, computed, [&](unsigned l) { return 4ull * st[l].w; });
        e.mem_fn(c.lds_c, computed, prev);
        e.mem_fn(c.lds_e, computed, [&](unsigned l) { return 4ull * st[l].e; });
        e.run(c.min, computed);
        e.run(c.wall_addr, computed);
        const std::uint64_t row = std::uint64_t(k.cols) * (k.start_step + i);
        e.mem_fn(c.ld_wall, computed,
                 [&](unsigned l) { return k.wall + 4 * (row + std::uint64_t(st[l].xidx)); });
        e.run(c.add, computed);
        e.mem_fn(c.sts_result, computed, result);
        e.run(c.bar1, live);
        e.run(c.last, live);
        if (i + 1 == k.iteration) break;
        e.mem_fn(c.lds_copy, computed, result);
        e.mem_fn(c.sts_copy, computed, prev);
        e.run(c.bar2, live);
        e.run(c.step, live);
        e.run(c.back, live);
      }
      e.run(c.exit_idle, live & ~computed);
      e.mem_fn(c.lds_out, computed, result);
      e.run(c.addr_out, computed);
      e.mem_fn(c.st_out, computed,
               [&](unsigned l) { return k.dst + 4 * std::uint64_t(st[l].xidx); });
      e.run(c.done, computed);
    }
  });
}

void generate_pathfinder(const param_set& ps, app_builder& app) {
  const std::uint32_t cols = ps.u32("cols"), rows = ps.u32("rows");
  const std::uint32_t pyramid = ps.u32("pyramid_height"), block = ps.u32("block");
  if (2 * pyramid >= block) param_set::fail("pyramid_height", "2 * pyramid_height must be < block");
  if (std::uint64_t(rows) * cols > (1ull << 31))
    param_set::fail("rows", "rows * cols must be at most 2^31 (int indices)");
  const std::uint32_t small = block - 2 * pyramid;
  const std::uint32_t grid = (cols + small - 1) / small;
  // pathfinder.cu run(): cudaMalloc gpuResult[0], gpuResult[1]; copy row 0 into gpuResult[0];
  // cudaMalloc and copy gpuWall (rows 1 .. rows - 1).
  const std::uint64_t result[2] = {app.output(4ull * cols), app.output(4ull * cols)};
  app.memcpy_h2d(result[0], 4ull * cols);
  const std::uint64_t wall = app.input(4ull * cols * (rows - 1));
  int src = 1, dst = 0;
  for (std::uint32_t t = 0; t + 1 < rows; t += pyramid) {
    std::swap(src, dst);
    launch_pathfinder(app, {cols, block, pyramid, std::min(pyramid, rows - t - 1), t, grid, wall,
                            result[src], result[dst]});
  }
}
}  // namespace

kernel_generator pathfinder_generator() {
  return {"pathfinder",
          "Rodinia pathfinder dynproc_kernel: 1-D pyramid tiles with shared-memory halo, one "
          "launch per pyramid_height rows (thesis PF: 463 TBs)",
          {param_desc::integer("cols", 100000, 1, 1u << 30, "columns (row_len)"),
           param_desc::integer("rows", 100, 2, 1u << 20, "rows (col_len)"),
           param_desc::integer("pyramid_height", 20, 1, 511, "rows per launch"),
           param_desc::integer("block", 256, 3, 1024, "threads per TB (BLOCK_SIZE)")},
          generate_pathfinder};
}

}  // namespace gputlm::traces::generators
