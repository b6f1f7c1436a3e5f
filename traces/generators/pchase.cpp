// Fine-grained pointer chase (Mei & Chu, TPDS 2017; Jia et al., "Dissecting the NVIDIA
// Volta GPU architecture via microbenchmarking", 2018): one thread walks an array of
// `footprint` bytes in which A[j] = (j + stride/4) mod (footprint/4), j = A[j] for
// `iterations` dependent loads; every load's address depends on the previous load's data,
// so the kernel's time is iterations x the load latency of wherever the footprint lives
// (L1, L2 or DRAM), plus the first pass's cold misses and the launch. Two runs with
// different `iterations` cancel both: latency = (cycles(n2) - cycles(n1)) / (n2 - n1)
// (bench/fidelity/latency.sh).
//
//   j = 0;  for (k = 0; k < iterations; ++k) j = A[j];      // one warp, lane 0 active
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_pchase(const param_set& ps, app_builder& app) {
  const std::uint64_t footprint = ps.u64("footprint");
  const std::uint64_t stride = ps.u64("stride");
  const std::uint64_t iterations = ps.u64("iterations");
  if (footprint % 4 != 0) param_set::fail("footprint", "must be a multiple of 4 bytes");
  if (stride % 4 != 0 || stride == 0 || stride > footprint)
    param_set::fail("stride", "must be a positive multiple of 4 bytes, at most the footprint");
  const std::uint64_t elems = footprint / 4, step = stride / 4;
  const std::uint64_t a = app.input(footprint);

  program p(app.opcodes(), 6);
  auto m = p.here();
  p.s2r(0, sreg::tid_x);
  p.mov(1);              // j = 0
  p.mov(4);              // iterations
  p.isetp("NE", 0, rz);  // only thread 0 chases
  const code head = p.since(m);
  const code exit_others = p.exit();
  m = p.here();
  p.address(2, 1, rz);  // &A[j]
  const code addr = p.since(m);
  const code ld = p.ld_global(1, 2, 4);  // j = A[j]
  m = p.here();
  p.iadd(4, 4, rz);  // --iterations
  p.isetp("NE", 4, rz);
  const code step_code = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z6pchasePjj", app.reserve_kernel_id(), dim3{1, 1, 1}, dim3{32, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    warp_emitter e(p, tb.warps[0]);
    e.run(head, ~0u);
    e.run(exit_others, ~0u & ~1u);
    std::uint64_t j = 0;
    for (std::uint64_t k = 0; k < iterations; ++k) {
      e.run(addr, 1u);
      e.mem_fn(ld, 1u, [&](unsigned) { return a + 4 * j; });
      j = (j + step) % elems;
      e.run(step_code, 1u);
      e.run(back, k + 1 < iterations ? 1u : 0u);
    }
    e.run(done, 1u);
  });
}
}  // namespace

kernel_generator pchase_generator() {
  return {
      "pchase",
      "fine-grained pointer chase: one thread, dependent loads A[j] at a stride over a footprint",
      {param_desc::integer("footprint", 16384, 4, 1ull << 32, "bytes of the chased array"),
       param_desc::integer("stride", 128, 4, 1ull << 32, "bytes between consecutive loads"),
       param_desc::integer("iterations", 2048, 1, 1ull << 24, "dependent loads")},
      generate_pchase};
}

}  // namespace gputlm::traces::generators
