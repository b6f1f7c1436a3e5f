// CUDA samples BlackScholes (BlackScholes_kernel.cu, BlackScholesGPU, the grid-stride form
// launched as <<<480, 128>>>): for (opt = tid; opt < optN; opt += blockDim.x * gridDim.x)
// each thread reads S[opt], X[opt], T[opt] and writes call[opt], put[opt]. The body is
// BlackScholesBodyGPU: sqrtT = sqrtf(T); d1 = (__logf(S / X) + (R + 0.5 V^2) T) / (V sqrtT);
// d2 = d1 - V sqrtT; two cndGPU (K = 1 / (1 + 0.2316419 |d|), RSQRT2PI * __expf(-d^2 / 2) *
// the degree-5 polynomial in K, 1 - cnd for d > 0); expRT = __expf(-R T); call and put.
// Emitted with nvcc's expansions: MUFU.RSQ + FFMAs for sqrtf, MUFU.RCP + FFMAs for the IEEE
// divisions and reciprocals, MUFU.LG2 / MUFU.EX2 for __logf / __expf, FSEL for the d > 0
// select (FCMP on Kepler).
#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
// cndGPU(d) into `out` (registers out .. out + 7 are used).
void cnd(program& p, reg out, reg d) {
  const reg k = reg(out + 1), x = reg(out + 4), poly = reg(out + 5);
  p.raw("FFMA", {x}, {d});  // 1 + 0.2316419 * |d|
  fp_rcp(p, k, x);          // K (uses k + 1)
  p.fmul(x, d, d);
  p.fmul(x, x, rz);                                              // -0.5 * d * d
  fp_exp_fast(p, x, x);                                          // __expf
  p.raw("FFMA", {poly}, {k});                                    // A4 + K * A5
  for (int i = 0; i < 3; ++i) p.raw("FFMA", {poly}, {k, poly});  // A3.., A2.., A1 + K * (..)
  p.fmul(poly, k, poly);
  p.fmul(x, x, rz);  // RSQRT2PI * exp
  p.fmul(out, x, poly);
  p.raw("FSETP.GT.AND", {}, {d});
  p.fadd(reg(out + 6), out, rz);  // 1.0f - cnd
  fp_select(p, out, reg(out + 6), out, d);
}

struct bs_code {
  code head, exit_idle, consts, addr, ld_s, ld_x, ld_t, body, st_call, st_put, step, back, done;
};

bs_code build_blackscholes(program& p) {
  bs_code c;
  auto m = p.here();
  p.global_index_1d();  // R3 = opt = tid
  p.isetp("GE", 3, rz);
  c.head = p.since(m);
  c.exit_idle = p.exit();  // @P0 EXIT: tid >= optN
  m = p.here();
  p.mov(4);  // V
  p.fmul(5, 4, 4);
  p.raw("FFMA", {5}, {5});  // R + 0.5f * V * V
  p.mov(6);                 // blockDim.x * gridDim.x
  c.consts = p.since(m);
  m = p.here();
  p.address(8, 3, rz);   // &S[opt]
  p.address(10, 3, rz);  // &X[opt]
  p.address(12, 3, rz);  // &T[opt]
  c.addr = p.since(m);
  c.ld_s = p.ld_global(14, 8, 4);
  c.ld_x = p.ld_global(15, 10, 4);
  c.ld_t = p.ld_global(16, 12, 4);
  m = p.here();
  fp_sqrt(p, 17, 16);     // sqrtT (17..19)
  fp_div(p, 20, 14, 15);  // S / X (20..22)
  fp_log_fast(p, 20, 20);
  p.ffma(20, 5, 16, 20);   // + (R + 0.5 V^2) * T
  p.fmul(21, 4, 17);       // V * sqrtT
  fp_div(p, 23, 20, 21);   // d1 (23..25)
  p.fadd(26, 23, 21);      // d2 = d1 - V * sqrtT
  cnd(p, 27, 23);          // CNDD1 (27..34)
  cnd(p, 35, 26);          // CNDD2 (35..42)
  p.fmul(43, 16, rz);      // -R * T
  fp_exp_fast(p, 43, 43);  // expRT
  p.fmul(43, 15, 43);      // X * expRT
  p.fmul(44, 43, 35);
  p.ffma(44, 14, 27, 44);  // call = S * CNDD1 - X * expRT * CNDD2
  p.fadd(45, 35, rz);      // 1 - CNDD2
  p.fadd(46, 27, rz);      // 1 - CNDD1
  p.fmul(46, 14, 46);
  p.ffma(45, 43, 45, 46);  // put
  p.address(48, 3, rz);    // &call[opt]
  p.address(50, 3, rz);    // &put[opt]
  c.body = p.since(m);
  c.st_call = p.st_global(48, 44, 4);
  c.st_put = p.st_global(50, 45, 4);
  m = p.here();
  p.iadd(3, 3, 6);
  p.isetp("LT", 3, rz);
  c.step = p.since(m);
  c.back = p.bra();
  c.done = p.exit();
  p.bra();
  return c;
}

void generate_blackscholes(const param_set& ps, app_builder& app) {
  const std::uint64_t options = ps.u64("options");
  const std::uint32_t grid = ps.u32("grid"), block = ps.u32("block");
  const std::uint64_t bytes = 4 * options;
  // BlackScholes.cu: cudaMalloc call, put, S, X, T; copy S, X, T.
  const std::uint64_t call = app.output(bytes), put = app.output(bytes);
  const std::uint64_t s = app.output(bytes), x = app.output(bytes), t = app.output(bytes);
  for (std::uint64_t a : {s, x, t}) app.memcpy_h2d(a, bytes);

  program p(app.opcodes(), 19);
  const bs_code c = build_blackscholes(p);
  const kernel_info info = app.kernel("_Z15BlackScholesGPUPfS_S_S_S_ffi", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  const std::uint64_t threads = std::uint64_t(grid) * block;
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint64_t tid0 = std::uint64_t(tb.index.x) * block;
      auto active = [&](std::uint64_t round) {
        std::uint32_t m = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && tid0 + lanes.flat[l] + round * threads < options)
            m |= 1u << l;
        return m;
      };
      std::uint32_t in = active(0);
      e.run(c.head, lanes.live);
      e.run(c.exit_idle, lanes.live & ~in);
      e.run(c.consts, in);
      for (std::uint64_t round = 0; in != 0; ++round) {
        auto opt = [&](unsigned l) { return tid0 + lanes.flat[l] + round * threads; };
        e.run(c.addr, in);
        e.mem_fn(c.ld_s, in, [&](unsigned l) { return s + 4 * opt(l); });
        e.mem_fn(c.ld_x, in, [&](unsigned l) { return x + 4 * opt(l); });
        e.mem_fn(c.ld_t, in, [&](unsigned l) { return t + 4 * opt(l); });
        e.run(c.body, in);
        e.mem_fn(c.st_call, in, [&](unsigned l) { return call + 4 * opt(l); });
        e.mem_fn(c.st_put, in, [&](unsigned l) { return put + 4 * opt(l); });
        e.run(c.step, in);
        const std::uint32_t next = active(round + 1);
        e.run(c.back, next);
        e.run(c.done, in & ~next);
        in = next;
      }
    }
  });
}
}  // namespace

kernel_generator blackscholes_generator() {
  return {"blackscholes",
          "CUDA samples BlackScholes: grid-stride loop, per option 3 loads, FP math, 2 stores",
          {param_desc::integer("options", 16384, 1, 1ull << 28, "number of options (optN)"),
           param_desc::integer("grid", 64, 1, 1u << 20, "TBs (the sample launches 480)"),
           param_desc::integer("block", 128, 32, 1024, "threads per TB")},
          generate_blackscholes};
}

}  // namespace gputlm::traces::generators
