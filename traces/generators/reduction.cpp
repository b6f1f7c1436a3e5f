// Sum reduction, "reduce2" of Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA,
// 2007): each thread loads one element into shared memory, then a tree in shared memory with
// sequential addressing (for s = blockDim/2; s > 0; s >>= 1: if tid < s, sdata[tid] +=
// sdata[tid + s]; BAR.SYNC), so the active lanes halve at every step. Thread 0 then writes
// the TB's partial sum (final=partial) or adds it to the total with a global RED
// (final=atomic).
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_reduction(const param_set& ps, app_builder& app) {
  const std::uint64_t n = ps.u64("n");
  const std::uint32_t block = ps.u32("block");
  if ((block & (block - 1)) != 0) param_set::fail("block", "must be a power of two");
  const bool atomic = ps.str("final") == "atomic";
  const std::uint32_t grid = std::uint32_t((n + block - 1) / block);

  const std::uint64_t in = app.input(4 * n);
  const std::uint64_t out = atomic ? app.input(4) : app.output(4ull * grid);

  program p(app.opcodes(), 13);
  auto m = p.here();
  p.global_index_1d();  // R3 = i
  p.isetp("GE", 3, rz);
  p.mov(4);  // v = 0
  p.address(6, 3, rz);
  p.shl(5, 2);  // &sdata[tid]
  const code head = p.since(m);
  const code ld_in = p.ld_global(4, 6, 4);  // @!P0
  const code sts_in = p.st_shared(5, 4, 4);
  const code bar0 = p.bar_sync();
  const code init_s = p.mov(8);  // s = blockDim.x / 2
  m = p.here();
  p.isetp("GE.U32", 2, 8);  // tid >= s
  p.iadd(11, 2, 8);
  p.shl(11, 11);  // &sdata[tid + s]
  const code cmp = p.since(m);
  const code lds_self = p.ld_shared(9, 5, 4);     // @!P0
  const code lds_other = p.ld_shared(10, 11, 4);  // @!P0
  const code add = p.fadd(9, 9, 10);              // @!P0
  const code sts_sum = p.st_shared(5, 9, 4);      // @!P0
  const code bar = p.bar_sync();
  m = p.here();
  p.shr(8, 8);
  p.isetp("NE", 8, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code tid0 = p.isetp("NE", 2, rz);
  const code exit_others = p.exit();
  const code lds_total = p.raw("LDS", {12}, {}, 4);  // [RZ]
  const code addr_out = atomic ? p.mov(14) : p.address(14, 0, rz);
  const code put = atomic ? p.red_add(14, 12, true) : p.st_global(14, 12, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel(atomic ? "_Z13reduce_atomicPKfPfj" : "_Z7reduce2PKfPfj", app.reserve_kernel_id(),
                 dim3{grid, 1, 1}, dim3{block, 1, 1}, 4 * block, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::uint32_t in_range = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((live >> l & 1u) && std::uint64_t(tb.index.x) * block + lanes.flat[l] < n)
          in_range |= 1u << l;
      e.run(head, live);
      e.mem_fn(ld_in, in_range, [&](unsigned l) {
        return in + 4 * (std::uint64_t(tb.index.x) * block + lanes.flat[l]);
      });
      e.mem_fn(sts_in, live, [&](unsigned l) { return 4ull * lanes.flat[l]; });
      e.run(bar0, live);
      e.run(init_s, live);
      for (std::uint32_t s = block / 2; s > 0; s >>= 1) {
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && lanes.flat[l] < s) act |= 1u << l;
        e.run(cmp, live);
        e.mem_fn(lds_self, act, [&](unsigned l) { return 4ull * lanes.flat[l]; });
        e.mem_fn(lds_other, act, [&](unsigned l) { return 4ull * (lanes.flat[l] + s); });
        e.run(add, act);
        e.mem_fn(sts_sum, act, [&](unsigned l) { return 4ull * lanes.flat[l]; });
        e.run(bar, live);
        e.run(step, live);
        if (s > 1) e.run(back, live);
      }
      e.run(tid0, live);
      const std::uint32_t first = w == 0 ? 1u : 0u;
      e.run(exit_others, live & ~first);
      e.mem_fn(lds_total, first, [](unsigned) { return 0ull; });
      e.run(addr_out, first);
      e.mem_fn(put, first, [&](unsigned) { return atomic ? out : out + 4ull * tb.index.x; });
      e.run(done, first);
    }
  });
}
}  // namespace

kernel_generator reduction_generator() {
  return {"reduction",
          "sum reduction: shared-memory tree (active lanes halve per step), one result per TB",
          {param_desc::integer("n", 16384, 1, 1ull << 28, "number of elements"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB (power of two)"),
           param_desc::choice("final", {"partial", "atomic"},
                              "per-TB result: STG to partial[blockIdx] or RED into one total")},
          generate_reduction};
}

}  // namespace gputlm::traces::generators
