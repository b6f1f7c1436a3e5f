// Global atomic throughput microbenchmark (as the GPU-dissection papers measure it: every
// thread of a grid adds 1 to a global word `iterations` times with atomicAdd, result
// unused, so the compiler emits RED.E.ADD): thread gid updates word (gid mod `addresses`) of
// an array whose words lie `spacing` bytes apart. addresses=1 puts every thread on one
// address (the whole grid contends for one L2 bank's atomic unit, and a warp's 32 lanes
// are one word); addresses = grid x block with spacing 4 spreads the lanes of a warp over
// one line each warp and the warps over every bank. Two runs with different `iterations`
// cancel the launch: throughput = threads x (n2 - n1) / (cycles(n2) - cycles(n1)) atomics a
// cycle (bench/fidelity/atomics.sh).
//
//   for (k = 0; k < iterations; ++k) atomicAdd(&A[(gid % addresses) * spacing / 4], 1);
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_atomics(const param_set& ps, app_builder& app) {
  const std::uint64_t addresses = ps.u64("addresses");
  const std::uint64_t spacing = ps.u64("spacing");
  const std::uint64_t iterations = ps.u64("iterations");
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t grid = ps.u32("grid");
  if (spacing % 4 != 0) param_set::fail("spacing", "must be a multiple of 4 bytes");
  if (addresses * spacing > (1ull << 32))
    param_set::fail("addresses", "x spacing must be at most 4 GiB");
  const std::uint64_t a = app.input(addresses * spacing);  // zeroed by the host

  program p(app.opcodes(), 12);
  auto m = p.here();
  p.global_index_1d();  // R3 = gid
  p.mov(4);             // addresses
  p.mov(5);             // iterations
  p.mov(9);             // 1
  p.iadd(6, 3, rz);     // gid % addresses (IMAD/IADD sequence of the remainder)
  p.address(10, 6, rz);
  const code head = p.since(m);
  const code red = p.red_add(10, 9, false);
  m = p.here();
  p.iadd(5, 5, rz);  // --iterations
  p.isetp("NE", 5, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z7atomicsPjjj", app.reserve_kernel_id(), dim3{grid, 1, 1},
                                      dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      e.run(head, lanes.live);
      for (std::uint64_t k = 0; k < iterations; ++k) {
        e.mem_fn(red, lanes.live, [&](unsigned l) {
          const std::uint64_t gid = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          return a + (gid % addresses) * spacing;
        });
        e.run(step, lanes.live);
        e.run(back, k + 1 < iterations ? lanes.live : 0u);
      }
      e.run(done, lanes.live);
    }
  });
}
}  // namespace

kernel_generator atomics_generator() {
  return {"atomics",
          "global atomic throughput: every thread RED.E.ADDs 1 to word (gid mod addresses)",
          {param_desc::integer("addresses", 1, 1, 1ull << 26, "distinct words updated"),
           param_desc::integer("spacing", 4, 4, 1u << 20, "bytes between two words"),
           param_desc::integer("iterations", 16, 1, 1u << 20, "atomics per thread"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB"),
           param_desc::integer("grid", 160, 1, 1u << 20, "TBs")},
          generate_atomics};
}

}  // namespace gputlm::traces::generators
