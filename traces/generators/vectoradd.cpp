// vectorAdd: C[i] = A[i] + B[i], one thread per element (the CUDA samples' vectorAdd,
// the NVBit/Accel-Sim "hello world"). Lanes past n leave through `@P0 EXIT`.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_vectoradd(const param_set& ps, app_builder& app) {
  const std::uint64_t n = ps.u64("n");
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t grid = std::uint32_t((n + block - 1) / block);

  const std::uint64_t a = app.input(4 * n);
  const std::uint64_t b = app.input(4 * n);
  const std::uint64_t c = app.output(4 * n);

  program p(app.opcodes(), 5);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(3, sreg::tid_x);
  p.imad(0, 0, rz, 3);   // i = blockIdx.x * blockDim.x + threadIdx.x
  p.isetp("GE", 0, rz);  // i >= n
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.address(2, 0, rz);
  p.address(4, 0, rz);
  const code addr_ab = p.since(m);
  const code ld_a = p.ld_global(2, 2, 4);
  const code ld_b = p.ld_global(5, 4, 4);
  m = p.here();
  p.address(6, 0, rz);
  p.fadd(9, 2, 5);
  const code add = p.since(m);
  const code st_c = p.st_global(6, 9, 4);
  const code done = p.exit();
  p.bra();  // the compiler's trailing self-loop, never executed

  const kernel_info info = app.kernel("_Z9vectorAddPKfS0_Pfi", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> i{};
      std::uint32_t oob = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        i[l] = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (i[l] >= n) oob |= 1u << l;
      }
      e.run(head, lanes.live);
      e.run(exit_oob, oob);
      const std::uint32_t act = lanes.live & ~oob;
      e.run(addr_ab, act);
      e.mem_fn(ld_a, act, [&](unsigned l) { return a + 4 * i[l]; });
      e.mem_fn(ld_b, act, [&](unsigned l) { return b + 4 * i[l]; });
      e.run(add, act);
      e.mem_fn(st_c, act, [&](unsigned l) { return c + 4 * i[l]; });
      e.run(done, act);
    }
  });
}
}  // namespace

kernel_generator vectoradd_generator() {
  return {"vectoradd",
          "C[i] = A[i] + B[i]; 1-D grid, one thread per element",
          {param_desc::integer("n", 10000, 1, 1ull << 28, "number of elements"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB")},
          generate_vectoradd};
}

}  // namespace gputlm::traces::generators
