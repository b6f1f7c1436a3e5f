// Functional-unit latency and throughput microbenchmark (as Jia et al. 2018 and Mei & Chu
// time arithmetic: a loop of unrolled register-to-register operations of one class, timed
// by clock()): each of `warps` warps of one TB runs `iterations` loop trips, each trip 8
// rounds over `chains` independent chains, chain c being r_c = op(r_c, ...). With one warp
// and one chain every operation waits for the previous one's result, so the cycles per
// operation are the unit's dependent-issue latency; with many warps and chains the unit's
// issue rate bounds them, so the operations a cycle are its throughput. The loop's counter
// update and branch (3 instructions a trip) are independent of the chains. Two runs with
// different `iterations` cancel the launch (bench/fidelity/fu.sh).
//
//   for (k = 0; k < iterations; ++k)
//     #pragma unroll
//     for (u = 0; u < 8; ++u) for (c = 0; c < chains; ++c) r[c] = op(r[c], a, b);
//
// Operations per unit, as the compiler emits them: fp32 FFMA, int IADD3 (IADD on Kepler),
// fp64 DFMA (register pairs), sfu MUFU.RSQ.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_fu_chain(const param_set& ps, app_builder& app) {
  const std::string& unit = ps.str("unit");
  const std::uint32_t chains = ps.u32("chains");
  const std::uint32_t warps = ps.u32("warps");
  const std::uint64_t iterations = ps.u64("iterations");

  program p(app.opcodes(), 3);
  auto m = p.here();
  p.s2r(0, sreg::tid_x);
  p.mov(4);   // iterations
  p.mov(8);   // a
  p.mov(10);  // b
  const code head = p.since(m);
  m = p.here();
  for (std::uint32_t u = 0; u < 8; ++u)
    for (std::uint32_t c = 0; c < chains; ++c) {
      const reg r = reg(unit == "fp64" ? 12 + 2 * c : 12 + c);  // fp64: pairs
      if (unit == "fp32")
        p.raw("FFMA", {r}, {r, 8, 10});
      else if (unit == "int")
        p.family() == isa_family::kepler ? p.raw("IADD", {r}, {r, 8})
                                         : p.raw("IADD3", {r}, {r, 8, 10});
      else if (unit == "fp64")
        p.raw("DFMA", {r}, {r, 8, 10});
      else
        p.raw("MUFU.RSQ", {r}, {r});
    }
  p.iadd(4, 4, rz);  // --iterations
  p.isetp("NE", 4, rz);
  const code body = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z8fu_chainPfi", app.reserve_kernel_id(), dim3{1, 1, 1},
                                      dim3{32 * warps, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      e.run(head, ~0u);
      for (std::uint64_t k = 0; k < iterations; ++k) {
        e.run(body, ~0u);
        e.run(back, k + 1 < iterations ? ~0u : 0u);
      }
      e.run(done, ~0u);
    }
  });
}
}  // namespace

kernel_generator fu_chain_generator() {
  return {"fu_chain",
          "functional-unit latency / throughput: unrolled chains of one operation class",
          {param_desc::choice("unit", {"fp32", "int", "fp64", "sfu"}, "operation class"),
           param_desc::integer("chains", 1, 1, 8, "independent chains per warp (1: dependent)"),
           param_desc::integer("warps", 1, 1, 32, "warps of the one TB"),
           param_desc::integer("iterations", 256, 1, 1u << 20, "loop trips (8 rounds each)")},
          generate_fu_chain};
}

}  // namespace gputlm::traces::generators
