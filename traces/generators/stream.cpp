// Streaming bandwidth microbenchmark (as the GPU-dissection papers and the STREAM-style GPU
// kernels write it: Jia et al. 2018, Mei & Chu 2017): a grid-stride loop in which every
// thread reads (or writes) 4-byte words of an array of `footprint` bytes, coalesced (lane l
// of a warp at word base + l), repeated `passes` times over the same array. A footprint that
// fits the L2 (and, for reads, with the L1 bypassed by the platform or `--set
// smx.l1.bypass_global_loads=true`, as the papers' ld.cg does) measures the L2's bandwidth;
// one several times the L2 measures DRAM's. Two runs with different `passes` cancel the
// launch and the first pass's cold misses: bandwidth = footprint x (p2 - p1) / (cycles(p2)
// - cycles(p1)) (bench/fidelity/bandwidth.sh).
//
//   read:  for (p..passes) for (i = gid; i < n; i += gridDim.x*blockDim.x) s += A[i];
//          out[gid] = s;
//   write: for (p..passes) for (i = gid; i < n; i += gridDim.x*blockDim.x) A[i] = p;
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_stream(const param_set& ps, app_builder& app) {
  const bool read = ps.str("mode") == "read";
  const std::uint64_t footprint = ps.u64("footprint");
  const std::uint64_t passes = ps.u64("passes");
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t grid = ps.u32("grid");
  if (footprint % 4 != 0) param_set::fail("footprint", "must be a multiple of 4 bytes");
  const std::uint64_t n = footprint / 4;
  const std::uint64_t stride = std::uint64_t(grid) * block;
  const std::uint64_t a = app.input(footprint);
  const std::uint64_t out = read ? app.input(4 * stride) : 0;

  program p(app.opcodes(), 12);
  auto m = p.here();
  p.global_index_1d();  // R3 = gid
  p.mov(4);             // stride = gridDim.x * blockDim.x
  p.mov(5);             // passes
  p.mov(8);             // s = 0 / the value stored
  const code head = p.since(m);
  m = p.here();
  p.iadd(6, 3, rz);  // i = gid
  p.isetp("GE", 6, rz);
  const code pass_head = p.since(m);
  const code skip = p.bra();  // a thread past n does no iteration this pass
  const code addr = p.address(10, 6, rz);
  const code access = read ? p.ld_global(7, 10, 4) : p.st_global(10, 8, 4);
  m = p.here();
  if (read) p.fadd(8, 8, 7);
  p.iadd(6, 6, 4);
  p.isetp("LT", 6, rz);
  const code step = p.since(m);
  const code back = p.bra();
  m = p.here();
  p.iadd(5, 5, rz);  // --passes
  p.isetp("NE", 5, rz);
  const code pass_step = p.since(m);
  const code pass_back = p.bra();
  code tail_calc, tail_store;  // read: out[gid] = s
  if (read) {
    tail_calc = p.address(10, 3, rz);
    tail_store = p.st_global(10, 8, 4);
  }
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel(read ? "_Z11stream_readPKfPfii" : "_Z12stream_writePfii", app.reserve_kernel_id(),
                 dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> gid{};
      for (unsigned l = 0; l < 32; ++l)
        if (lanes.live >> l & 1u) gid[l] = std::uint64_t(tb.index.x) * block + lanes.flat[l];
      e.run(head, lanes.live);
      for (std::uint64_t pass = 0; pass < passes; ++pass) {
        e.run(pass_head, lanes.live);
        std::array<std::uint64_t, 32> i = gid;
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && i[l] < n) act |= 1u << l;
        e.run(skip, lanes.live & ~act);
        while (act != 0) {
          e.run(addr, act);
          e.mem_fn(access, act, [&](unsigned l) { return a + 4 * i[l]; });
          e.run(step, act);
          const std::uint32_t next = stride_step(i, act, stride, n);
          e.run(back, next);
          act = next;
        }
        e.run(pass_step, lanes.live);
        e.run(pass_back, pass + 1 < passes ? lanes.live : 0u);
      }
      if (read) {
        e.run(tail_calc, lanes.live);
        e.mem_fn(tail_store, lanes.live, [&](unsigned l) { return out + 4 * gid[l]; });
      }
      e.run(done, lanes.live);
    }
  });
}
}  // namespace

kernel_generator stream_generator() {
  return {"stream",
          "streaming bandwidth: coalesced grid-stride reads or writes of a footprint, repeated",
          {param_desc::choice("mode", {"read", "write"}, "read (sum into a register) or write"),
           param_desc::integer("footprint", 1u << 20, 4, 1ull << 32, "bytes of the array"),
           param_desc::integer("passes", 2, 1, 1u << 16, "sweeps over the array"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB"),
           param_desc::integer("grid", 640, 1, 1u << 20, "TBs (the loop strides by grid*block)")},
          generate_stream};
}

}  // namespace gputlm::traces::generators
