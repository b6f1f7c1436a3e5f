// Histogram with global atomics: a grid-stride loop over n 32-bit values, each adding 1
// to bins[value & (bins - 1)] with a RED.E.ADD (atomicAdd with the result unused), as in
// the CUDA samples' histogram "global atomics" baseline. Values are uniform random (seeded);
// lanes leave the loop as their strided index passes n.
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_histogram(const param_set& ps, app_builder& app) {
  const std::uint64_t n = ps.u64("n");
  const std::uint32_t bins = ps.u32("bins");
  if ((bins & (bins - 1)) != 0) param_set::fail("bins", "must be a power of two");
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t grid = ps.u32("grid");
  const std::vector<std::uint32_t> data = make_uniform_u32(n, ps.u64("seed"));

  const std::uint64_t in = app.input(4 * n);
  const std::uint64_t hist = app.input(4ull * bins);  // zeroed by the host

  program p(app.opcodes(), 13);
  auto m = p.here();
  p.global_index_1d();  // R3 = i
  p.mov(4);             // stride = gridDim.x * blockDim.x
  p.mov(12);            // 1
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_idle = p.exit();
  const code addr_in = p.address(6, 3, rz);
  const code ld = p.ld_global(8, 6, 4);
  m = p.here();
  p.land(9, 8);
  p.address(10, 9, rz);
  const code bin = p.since(m);
  const code red = p.red_add(10, 12, false);
  m = p.here();
  p.iadd(3, 3, 4);
  p.isetp("LT", 3, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const std::uint64_t stride = std::uint64_t(grid) * block;
  const kernel_info info = app.kernel("_Z16histogram_atomicPKjPjjj", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> i{};
      std::uint32_t act = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        i[l] = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (i[l] < n) act |= 1u << l;
      }
      e.run(head, lanes.live);
      e.run(exit_idle, lanes.live & ~act);
      const std::uint32_t entered = act;
      while (act != 0) {
        e.run(addr_in, act);
        e.mem_fn(ld, act, [&](unsigned l) { return in + 4 * i[l]; });
        e.run(bin, act);
        e.mem_fn(red, act, [&](unsigned l) { return hist + 4ull * (data[i[l]] & (bins - 1)); });
        e.run(step, act);
        const std::uint32_t next = stride_step(i, act, stride, n);
        e.run(back, next);
        act = next;
      }
      e.run(done, entered);
    }
  });
}
}  // namespace

kernel_generator histogram_generator() {
  return {"histogram",
          "histogram of n uniform 32-bit values with global atomics (RED.E.ADD), grid-stride loop",
          {param_desc::integer("n", 65536, 1, 1ull << 28, "number of values"),
           param_desc::integer("bins", 256, 1, 1u << 20, "number of bins (power of two)"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB"),
           param_desc::integer("grid", 32, 1, 1u << 20, "TBs (the loop strides by grid*block)"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the value generator")},
          generate_histogram};
}

}  // namespace gputlm::traces::generators
