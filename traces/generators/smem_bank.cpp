// Shared-memory bank-conflict microbenchmark (as the GPU-dissection papers write it: Jia et
// al. 2018; Mei & Chu 2017): one warp issues `iterations` 4-byte shared loads into the same
// register, lane l reading word l x `stride` of a shared array, so that with 32 banks of 4
// bytes the warp's 32 addresses fall gcd(stride, 32) to a bank (stride 1: none; 2: 2-way;
// 4: 4-way; 32: all 32 lanes in one bank). Each load waits for the previous one's write
// (the same destination), so (cycles of n2 loads - cycles of n1) / (n2 - n1) is the load's
// latency under the conflict (bench/fidelity/smem.sh).
//
//   for (k = 0; k < iterations; ++k) x += s[threadIdx.x * stride];   // one warp
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_smem_bank(const param_set& ps, app_builder& app) {
  const std::uint64_t stride = ps.u64("stride");
  const std::uint64_t iterations = ps.u64("iterations");
  const std::uint32_t shared = static_cast<std::uint32_t>(32 * stride * 4);
  if (shared > 48 * 1024) param_set::fail("stride", "needs more than 48 KiB of shared memory");

  program p(app.opcodes(), 8);
  auto m = p.here();
  p.s2r(0, sreg::tid_x);
  p.mov(4);              // iterations
  p.imad(2, 0, rz, rz);  // word offset = tid * stride * 4
  const code head = p.since(m);
  const code ld = p.ld_shared(5, 2, 4);
  m = p.here();
  p.iadd(4, 4, rz);  // --iterations
  p.isetp("NE", 4, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z9smem_bankPjj", app.reserve_kernel_id(), dim3{1, 1, 1},
                                      dim3{32, 1, 1}, shared, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    warp_emitter e(p, tb.warps[0]);
    e.run(head, ~0u);
    for (std::uint64_t k = 0; k < iterations; ++k) {
      e.mem_fn(ld, ~0u, [&](unsigned l) { return std::uint64_t(l) * stride * 4; });
      e.run(step, ~0u);
      e.run(back, k + 1 < iterations ? ~0u : 0u);
    }
    e.run(done, ~0u);
  });
}
}  // namespace

kernel_generator smem_bank_generator() {
  return {"smem_bank",
          "shared-memory bank conflicts: one warp's independent loads, lane l at word l x stride",
          {param_desc::integer("stride", 1, 1, 384, "words between two lanes' addresses"),
           param_desc::integer("iterations", 1024, 1, 1ull << 24, "shared loads")},
          generate_smem_bank};
}

}  // namespace gputlm::traces::generators
