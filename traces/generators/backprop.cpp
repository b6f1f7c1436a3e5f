// Rodinia backprop (cuda/backprop/backprop_cuda_kernel.cu, bpnn_layerforward_CUDA): the
// input-to-hidden layer of a 16-hidden-unit network, grid (1, in / 16) of 16 x 16 TBs
// (HEIGHT x WIDTH). Thread (tx, ty) of TB by: tx == 0 loads input_cuda[16*by + ty + 1] into
// input_node[ty]; BAR; every thread loads the weight input_hidden_cuda[index], index =
// (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid+1), into weight_matrix[ty][tx]; BAR; multiplies
// it by input_node[ty]; BAR; a tree over ty in shared memory (for i = 1 .. __log2f(16):
// power_two = __powf(2, i); if ty % power_two == 0, weight_matrix[ty][tx] +=
// weight_matrix[ty + power_two/2][tx]; BAR); stores weight_matrix[ty][tx] back to
// input_hidden_cuda[index]; BAR; tx == 0 stores weight_matrix[0][ty] to
// hidden_partial_sum[by*hid + ty]. Each TB reads its own 16 inputs and 16 weight rows.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t bp_height = 16, bp_width = 16, bp_hid = 16;

struct backprop_code {
  code head, ld_in, sts_in, bar0, ld_w, sts_w, bar1, lds_w, lds_in, mul, sts_mul, bar2;
  code loop_cond, loop_mod, lds_self, lds_other, add, sts_sum, bar, step, leave;
  code lds_out, st_w, bar3, exit_others, lds_col, addr_sum, st_sum, done;
};

backprop_code build_backprop(program& p) {
  backprop_code c;
  auto m = p.here();
  p.prologue();
  p.s2r(3, sreg::ctaid_y);
  p.s2r(2, sreg::tid_x);
  p.s2r(4, sreg::tid_y);
  p.imad(5, 3, rz, 4);  // index_in = HEIGHT * by + ty + 1
  p.address(6, 5, rz);
  p.imad(8, 4, rz, 2);  // (hid+1) * ty + tx
  p.imad(8, 3, rz, 8);  // + (hid+1) * HEIGHT * by (+ 1 + (hid+1) as offset)
  p.address(10, 8, rz);
  p.shl(12, 4);  // &input_node[ty]
  p.imad(13, 4, rz, 2);
  p.shl(13, 13);  // &weight_matrix[ty][tx]
  p.isetp("NE", 2, rz);
  c.head = p.since(m);
  c.ld_in = p.ld_global(14, 6, 4);    // @!P0
  c.sts_in = p.st_shared(12, 14, 4);  // @!P0
  c.bar0 = p.bar_sync();
  c.ld_w = p.ld_global(15, 10, 4);
  c.sts_w = p.st_shared(13, 15, 4);
  c.bar1 = p.bar_sync();
  c.lds_w = p.ld_shared(16, 13, 4);
  c.lds_in = p.ld_shared(17, 12, 4);
  c.mul = p.fmul(16, 16, 17);
  c.sts_mul = p.st_shared(13, 16, 4);
  c.bar2 = p.bar_sync();
  m = p.here();
  p.mov(18);  // i = 1
  c.loop_cond = p.since(m);
  m = p.here();
  p.i2f(20, 18);
  p.raw("MUFU.LG2", {21}, {});  // __log2f(HEIGHT)
  p.raw("FSETP.GT.AND", {}, {20, 21});
  c.leave = p.since(m);  // i <= __log2f(HEIGHT)?  (@P0 BRA out)
  m = p.here();
  p.raw("MUFU.LG2", {22}, {});  // __powf(2, i) = ex2(i * lg2(2))
  p.fmul(22, 22, 20);
  p.raw("MUFU.EX2", {22}, {22});
  p.raw("F2I.TRUNC", {23}, {22});  // power_two
  p.i2f(24, 23);                   // ty % power_two
  p.raw("MUFU.RCP", {24}, {24});
  p.raw("F2I.TRUNC", {25}, {24});
  p.imad(25, 25, 23, 4);
  p.isetp("GE.U32", 25, 23);
  p.iadd(25, 25, 23);
  p.isetp("NE", 25, rz);
  p.shr(26, 23);  // power_two / 2
  p.imad(26, 26, rz, 13);
  c.loop_mod = p.since(m);
  c.lds_self = p.ld_shared(27, 13, 4);   // @!P0
  c.lds_other = p.ld_shared(28, 26, 4);  // @!P0
  c.add = p.fadd(27, 27, 28);            // @!P0
  c.sts_sum = p.st_shared(13, 27, 4);    // @!P0
  c.bar = p.bar_sync();
  m = p.here();
  p.iadd(18, 18, rz);
  p.bra();
  c.step = p.since(m);
  c.lds_out = p.ld_shared(29, 13, 4);
  c.st_w = p.st_global(10, 29, 4);
  c.bar3 = p.bar_sync();
  c.exit_others = p.exit();            // @P0 EXIT: tx != 0
  c.lds_col = p.ld_shared(30, 12, 4);  // weight_matrix[0][ty]
  c.addr_sum = p.address(31, 4, rz);
  c.st_sum = p.st_global(31, 30, 4);
  c.done = p.exit();
  p.bra();
  return c;
}

void generate_backprop(const param_set& ps, app_builder& app) {
  const std::uint32_t in = ps.u32("in");
  if (in % bp_height != 0) param_set::fail("in", "must be a multiple of 16");
  const std::uint32_t blocks = in / bp_height;
  // backprop_cuda.cu: cudaMalloc input_cuda, output_hidden_cuda, input_hidden_cuda,
  // hidden_partial_sum; copy input_cuda and input_hidden_cuda.
  const std::uint64_t input = app.output(4ull * (in + 1));
  app.output(4ull * (bp_hid + 1));
  const std::uint64_t weights = app.output(4ull * (in + 1) * (bp_hid + 1));
  const std::uint64_t partial = app.output(4ull * blocks * bp_width);
  app.memcpy_h2d(input, 4ull * (in + 1));
  app.memcpy_h2d(weights, 4ull * (in + 1) * (bp_hid + 1));

  program p(app.opcodes(), 19);
  const backprop_code c = build_backprop(p);
  const std::uint32_t w_off = 4 * bp_height;  // weight_matrix follows input_node
  const kernel_info info = app.kernel(
      "_Z22bpnn_layerforward_CUDAPfS_S_S_ii", app.reserve_kernel_id(), dim3{1, blocks, 1},
      dim3{bp_width, bp_height, 1}, w_off + 4 * bp_height * bp_width, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t by = tb.index.y;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::uint32_t first_col = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((live >> l & 1u) && lanes.tx[l] == 0) first_col |= 1u << l;
      auto tx = [&](unsigned l) { return std::uint64_t(lanes.tx[l]); };
      auto ty = [&](unsigned l) { return std::uint64_t(lanes.ty[l]); };
      auto index = [&](unsigned l) {
        return (bp_hid + 1) * bp_height * by + (bp_hid + 1) * ty(l) + tx(l) + 1 + (bp_hid + 1);
      };
      auto wm = [&](std::uint64_t row, std::uint64_t col) {
        return w_off + 4 * (row * bp_width + col);
      };
      e.run(c.head, live);
      e.mem_fn(c.ld_in, first_col,
               [&](unsigned l) { return input + 4 * (bp_height * by + ty(l) + 1); });
      e.mem_fn(c.sts_in, first_col, [&](unsigned l) { return 4 * ty(l); });
      e.run(c.bar0, live);
      e.mem_fn(c.ld_w, live, [&](unsigned l) { return weights + 4 * index(l); });
      e.mem_fn(c.sts_w, live, [&](unsigned l) { return wm(ty(l), tx(l)); });
      e.run(c.bar1, live);
      e.mem_fn(c.lds_w, live, [&](unsigned l) { return wm(ty(l), tx(l)); });
      e.mem_fn(c.lds_in, live, [&](unsigned l) { return 4 * ty(l); });
      e.run(c.mul, live);
      e.mem_fn(c.sts_mul, live, [&](unsigned l) { return wm(ty(l), tx(l)); });
      e.run(c.bar2, live);
      e.run(c.loop_cond, live);
      for (std::uint32_t i = 1;; ++i) {
        e.run(c.leave, live);
        if ((1u << i) > bp_height) break;  // i > log2(HEIGHT)
        const std::uint32_t power_two = 1u << i;
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && ty(l) % power_two == 0) act |= 1u << l;
        e.run(c.loop_mod, live);
        e.mem_fn(c.lds_self, act, [&](unsigned l) { return wm(ty(l), tx(l)); });
        e.mem_fn(c.lds_other, act, [&](unsigned l) { return wm(ty(l) + power_two / 2, tx(l)); });
        e.run(c.add, act);
        e.mem_fn(c.sts_sum, act, [&](unsigned l) { return wm(ty(l), tx(l)); });
        e.run(c.bar, live);
        e.run(c.step, live);
      }
      e.mem_fn(c.lds_out, live, [&](unsigned l) { return wm(ty(l), tx(l)); });
      e.mem_fn(c.st_w, live, [&](unsigned l) { return weights + 4 * index(l); });
      e.run(c.bar3, live);
      e.run(c.exit_others, live & ~first_col);
      e.mem_fn(c.lds_col, first_col, [&](unsigned l) { return wm(tx(l), ty(l)); });
      e.run(c.addr_sum, first_col);
      e.mem_fn(c.st_sum, first_col,
               [&](unsigned l) { return partial + 4 * (by * bp_hid + ty(l)); });
      e.run(c.done, first_col);
    }
  });
}
}  // namespace

kernel_generator backprop_generator() {
  return {"backprop",
          "Rodinia backprop bpnn_layerforward_CUDA: 16 x 16 TBs, shared-memory tree over ty",
          {param_desc::integer("in", 1024, 16, 1u << 24, "input units (multiple of 16)")},
          generate_backprop};
}

}  // namespace gputlm::traces::generators
