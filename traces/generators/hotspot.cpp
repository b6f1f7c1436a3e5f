// Rodinia hotspot (cuda/hotspot/hotspot.cu, calculate_temp): transient thermal simulation
// of an n x n chip with pyramid time tiling. A TB of B x B threads loads a B x B tile of
// temp_src and power (with a halo of pyramid_height cells on each side, loads outside the
// chip predicated off) into shared memory, runs `iteration` stencil steps in shared memory
// (each step shrinks the computed region by one cell per side and is clipped to the chip:
// N/S/W/E neighbours clamped to the valid range), then the threads computed in the last step
// store temp_t into temp_dst. The host launches ceil(iterations / pyramid_height) kernels,
// swapping temp_src and temp_dst, each with iteration = min(pyramid_height, remaining); the
// TB grid covers the chip with B - 2 * pyramid_height wide tiles, while the kernel places
// its tiles with its own `iteration`, as the original does. The update mixes float and
// double arithmetic (`2.0 * temp`), so it uses F2F, DFMA and DMUL.
#include <algorithm>

#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct hotspot_code {
  code head, ld_temp, ld_power, sts_temp, sts_power, bar0, bounds;
  code loop_cmp, lds_c, lds_s, lds_n, lds_e, lds_w, lds_p, math, sts_t, bar1, last;
  code lds_copy, sts_copy, bar2, step, back, exit_idle, lds_out, addr_out, st_out, done;
};

hotspot_code build_hotspot(program& p) {
  hotspot_code c;
  auto m = p.here();
  p.global_index_2d();    // R2 = tx, R4 = ty (R0, R3 recomputed below)
  p.mov(60);              // step
  p.mov(61);              // Cap
  fp_div(p, 40, 60, 61);  // step_div_Cap
  for (reg r : {43, 45, 47}) {
    p.mov(62);         // Rx, Ry, Rz
    fp_rcp(p, r, 62);  // Rx_1, Ry_1, Rz_1
  }
  p.imad(0, 0, rz, rz);  // blkX = small * bx - border
  p.imad(3, 3, rz, rz);  // blkY
  p.iadd(5, 3, 4);       // yidx
  p.iadd(6, 0, 2);       // xidx
  p.imad(7, 5, rz, 6);   // index = cols * yidx + xidx
  p.isetp("GE", 5, rz);
  p.isetp("GE", 6, rz);
  p.address(8, 7, rz);   // &temp_src[index]
  p.address(10, 7, rz);  // &power[index]
  p.imad(12, 4, rz, 2);  // ty * B + tx
  p.shl(12, 12);         // &temp_on_cuda[ty][tx]
  c.head = p.since(m);
  c.ld_temp = p.ld_global(14, 8, 4);     // @P0
  c.ld_power = p.ld_global(15, 10, 4);   // @P0
  c.sts_temp = p.st_shared(12, 14, 4);   // @P0
  c.sts_power = p.st_shared(12, 15, 4);  // @P0 [+ B*B*4]
  c.bar0 = p.bar_sync();
  m = p.here();
  for (reg r : {16, 17, 18, 21}) p.raw("IMNMX", {r}, {3});  // validYmin/max, validXmin/max
  p.iadd(22, 4, rz);
  p.raw("IMNMX", {22}, {22, 16});  // N
  p.iadd(23, 4, rz);
  p.raw("IMNMX", {23}, {23, 17});  // S
  p.iadd(24, 2, rz);
  p.raw("IMNMX", {24}, {24, 18});  // W
  p.iadd(25, 2, rz);
  p.raw("IMNMX", {25}, {25, 21});  // E
  p.mov(26);                       // i = 0
  c.bounds = p.since(m);
  m = p.here();
  p.isetp("GE", 2, 26);
  p.isetp("GE", 4, 26);
  p.isetp("GE", 2, 18);
  p.isetp("GE", 4, 16);
  c.loop_cmp = p.since(m);
  c.lds_c = p.ld_shared(27, 12, 4);
  c.lds_s = p.ld_shared(28, 23, 4);
  c.lds_n = p.ld_shared(29, 22, 4);
  c.lds_e = p.ld_shared(30, 25, 4);
  c.lds_w = p.ld_shared(31, 24, 4);
  c.lds_p = p.ld_shared(32, 12, 4);
  m = p.here();
  p.fadd(28, 28, 29);  // S + N
  p.fadd(30, 30, 31);  // E + W
  p.fadd(33, 27, rz);  // amb_temp - temp
  p.fmul(33, 33, 47);  // * Rz_1
  f2d(p, 34, 27);
  f2d(p, 36, 28);
  f2d(p, 38, 30);
  p.raw("DFMA", {36}, {34, 36});  // (S + N) - 2.0 * temp
  p.raw("DFMA", {38}, {34, 38});  // (E + W) - 2.0 * temp
  f2d(p, 50, 32);                 // power
  f2d(p, 52, 45);
  dfma(p, 50, 36, 52, 50);  // + (..) * Ry_1
  f2d(p, 52, 43);
  dfma(p, 50, 38, 52, 50);  // + (..) * Rx_1
  f2d(p, 52, 33);
  dadd(p, 50, 50, 52);  // + (amb - temp) * Rz_1
  f2d(p, 52, 40);
  dfma(p, 50, 52, 50, 34);  // temp + step_div_Cap * (..)
  d2f(p, 54, 50);
  c.math = p.since(m);
  c.sts_t = p.st_shared(12, 54, 4);  // temp_t[ty][tx]
  c.bar1 = p.bar_sync();
  m = p.here();
  p.isetp("EQ", 26, rz);  // i == iteration - 1
  p.bra();                // @P0 BRA out
  c.last = p.since(m);
  c.lds_copy = p.ld_shared(55, 12, 4);  // @P1 temp_t[ty][tx]
  c.sts_copy = p.st_shared(12, 55, 4);  // @P1 temp_on_cuda[ty][tx]
  c.bar2 = p.bar_sync();
  m = p.here();
  p.iadd(26, 26, rz);
  p.isetp("LT", 26, rz);
  c.step = p.since(m);
  c.back = p.bra();
  c.exit_idle = p.exit();  // @!P1 EXIT
  c.lds_out = p.ld_shared(56, 12, 4);
  c.addr_out = p.address(58, 7, rz);
  c.st_out = p.st_global(58, 56, 4);
  c.done = p.exit();
  p.bra();
  return c;
}

struct hotspot_shape {
  std::uint32_t n, b, border;
};

// Per-lane state of one thread of calculate_temp.
struct hs_lane {
  std::int64_t index = 0;
  std::uint32_t c = 0, s = 0, nn = 0, e = 0, w = 0;  // shared word offsets
  bool load = false;
  std::int64_t vxmin = 0, vxmax = 0, vymin = 0, vymax = 0;
};

hs_lane lane_state(const hotspot_shape& h, std::uint32_t iteration, dim3 tb, std::uint32_t tx,
                   std::uint32_t ty) {
  const std::int64_t b = h.b, n = h.n, small = b - 2 * std::int64_t(iteration);
  const std::int64_t blk_y = small * tb.y - h.border, blk_x = small * tb.x - h.border;
  const std::int64_t blk_ymax = blk_y + b - 1, blk_xmax = blk_x + b - 1;
  const std::int64_t y = blk_y + ty, x = blk_x + tx;
  hs_lane r;
  r.index = n * y + x;
  r.load = y >= 0 && y <= n - 1 && x >= 0 && x <= n - 1;
  r.vymin = blk_y < 0 ? -blk_y : 0;
  r.vymax = blk_ymax > n - 1 ? b - 1 - (blk_ymax - n + 1) : b - 1;
  r.vxmin = blk_x < 0 ? -blk_x : 0;
  r.vxmax = blk_xmax > n - 1 ? b - 1 - (blk_xmax - n + 1) : b - 1;
  const std::int64_t nn = std::max<std::int64_t>(std::int64_t(ty) - 1, r.vymin);
  const std::int64_t s = std::min<std::int64_t>(std::int64_t(ty) + 1, r.vymax);
  const std::int64_t w = std::max<std::int64_t>(std::int64_t(tx) - 1, r.vxmin);
  const std::int64_t e = std::min<std::int64_t>(std::int64_t(tx) + 1, r.vxmax);
  r.c = std::uint32_t(ty * b + tx);
  r.nn = std::uint32_t(nn * b + tx);
  r.s = std::uint32_t(s * b + tx);
  r.w = std::uint32_t(ty * b + w);
  r.e = std::uint32_t(ty * b + e);
  return r;
}

bool computed_in_step(const hs_lane& s, std::uint32_t b, std::uint32_t i, std::uint32_t tx,
                      std::uint32_t ty) {
  auto in = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; };
  const std::int64_t lo = i + 1, hi = std::int64_t(b) - i - 2;
  return in(tx, lo, hi) && in(ty, lo, hi) && in(tx, s.vxmin, s.vxmax) && in(ty, s.vymin, s.vymax);
}

void launch_hotspot(app_builder& app, const hotspot_shape& h, std::uint32_t iteration,
                    std::uint32_t tiles, std::uint64_t power, std::uint64_t src,
                    std::uint64_t dst) {
  program p(app.opcodes(), 19);
  const hotspot_code c = build_hotspot(p);
  const std::uint64_t bb = 4ull * h.b * h.b;  // temp_on_cuda, power_on_cuda, temp_t
  const kernel_info info =
      app.kernel("_Z14calculate_tempiPfS_S_iiiiffffff", app.reserve_kernel_id(),
                 dim3{tiles, tiles, 1}, dim3{h.b, h.b, 1}, std::uint32_t(3 * bb), p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::array<hs_lane, 32> st{};
      std::uint32_t load = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        st[l] = lane_state(h, iteration, tb.index, lanes.tx[l], lanes.ty[l]);
        if (st[l].load) load |= 1u << l;
      }
      auto glob = [&](std::uint64_t base) {
        return [&, base](unsigned l) { return base + 4 * std::uint64_t(st[l].index); };
      };
      auto sh = [&](std::uint64_t base, std::uint32_t hs_lane::*word) {
        return [&, base, word](unsigned l) { return base + 4ull * (st[l].*word); };
      };
      e.run(c.head, live);
      e.mem_fn(c.ld_temp, load, glob(src));
      e.mem_fn(c.ld_power, load, glob(power));
      e.mem_fn(c.sts_temp, load, sh(0, &hs_lane::c));
      e.mem_fn(c.sts_power, load, sh(bb, &hs_lane::c));
      e.run(c.bar0, live);
      e.run(c.bounds, live);
      std::uint32_t computed = 0;
      for (std::uint32_t i = 0; i < iteration; ++i) {
        computed = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && computed_in_step(st[l], h.b, i, lanes.tx[l], lanes.ty[l]))
            computed |= 1u << l;
        e.run(c.loop_cmp, live);
        e.mem_fn(c.lds_c, computed, sh(0, &hs_lane::c));
        e.mem_fn(c.lds_s, computed, sh(0, &hs_lane::s));
        e.mem_fn(c.lds_n, computed, sh(0, &hs_lane::nn));
        e.mem_fn(c.lds_e, computed, sh(0, &hs_lane::e));
        e.mem_fn(c.lds_w, computed, sh(0, &hs_lane::w));
        e.mem_fn(c.lds_p, computed, sh(bb, &hs_lane::c));
        e.run(c.math, computed);
        e.mem_fn(c.sts_t, computed, sh(2 * bb, &hs_lane::c));
        e.run(c.bar1, live);
        e.run(c.last, live);
        if (i + 1 == iteration) break;
        e.mem_fn(c.lds_copy, computed, sh(2 * bb, &hs_lane::c));
        e.mem_fn(c.sts_copy, computed, sh(0, &hs_lane::c));
        e.run(c.bar2, live);
        e.run(c.step, live);
        e.run(c.back, live);
      }
      e.run(c.exit_idle, live & ~computed);
      e.mem_fn(c.lds_out, computed, sh(2 * bb, &hs_lane::c));
      e.run(c.addr_out, computed);
      e.mem_fn(c.st_out, computed, glob(dst));
      e.run(c.done, computed);
    }
  });
}

void generate_hotspot(const param_set& ps, app_builder& app) {
  const std::uint32_t n = ps.u32("n"), b = ps.u32("block");
  const std::uint32_t pyramid = ps.u32("pyramid_height"), total = ps.u32("iterations");
  if (2 * pyramid >= b) param_set::fail("pyramid_height", "2 * pyramid_height must be < block");
  const hotspot_shape h{n, b, pyramid};
  const std::uint32_t small = b - 2 * pyramid;
  const std::uint32_t tiles = (n + small - 1) / small;
  const std::uint64_t bytes = 4ull * n * n;
  // hotspot.cu: cudaMalloc MatrixTemp[0], MatrixTemp[1]; copy MatrixTemp[0]; cudaMalloc and
  // copy MatrixPower.
  const std::uint64_t temp[2] = {app.output(bytes), app.output(bytes)};
  app.memcpy_h2d(temp[0], bytes);
  const std::uint64_t power = app.input(bytes);
  int src = 1, dst = 0;
  for (std::uint32_t t = 0; t < total; t += pyramid) {
    std::swap(src, dst);
    launch_hotspot(app, h, std::min(pyramid, total - t), tiles, power, temp[src], temp[dst]);
  }
}
}  // namespace

kernel_generator hotspot_generator() {
  return {"hotspot",
          "Rodinia hotspot calculate_temp: shared-memory tiles with halo, pyramid time steps",
          {param_desc::integer("n", 64, 1, 1u << 15, "chip grid rows = columns"),
           param_desc::integer("pyramid_height", 2, 1, 15, "time steps per launch"),
           param_desc::integer("iterations", 4, 1, 1u << 16, "total time steps (sim_time)"),
           param_desc::integer("block", 16, 3, 32, "TB is block x block threads (BLOCK_SIZE)")},
          generate_hotspot};
}

}  // namespace gputlm::traces::generators
