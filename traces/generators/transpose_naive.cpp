// Naive matrix transpose: the CUDA SDK sample transpose (transpose.cu `transposeNaive`),
// TRA of the μC-States workloads (μC-States: Kayiran et al., "μC-States: Fine-grained
// GPU Datapath Power Management", PACT'16, Table 1). The kernel, as it indexes memory, on a
// (width / TILE_DIM) x (height / TILE_DIM) grid of TILE_DIM x BLOCK_ROWS = 32 x 8 TBs:
// xIndex = blockIdx.x * TILE_DIM + threadIdx.x, yIndex = blockIdx.y * TILE_DIM + threadIdx.y,
// index_in = xIndex + width * yIndex, index_out = yIndex + height * xIndex; for (i = 0; i <
// TILE_DIM; i += BLOCK_ROWS) odata[index_out + i] = idata[index_in + i * width]. The loop is
// unrolled: four LDG (a warp reads 32 consecutive words: coalesced), each followed by its STG
// (a warp writes 32 words `height` apart: strided), in program order since odata and idata
// may alias. No shared memory, no barriers.
#include <array>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_transpose_naive(const param_set& ps, app_builder& app) {
  constexpr std::uint32_t tile_dim = 32, block_rows = 8;
  const std::uint32_t width = ps.u32("width"), height = ps.u32("height");
  if (width % tile_dim != 0) param_set::fail("width", "must be a multiple of 32");
  if (height % tile_dim != 0) param_set::fail("height", "must be a multiple of 32");
  const std::uint64_t bytes = 4ull * width * height;

  const std::uint64_t idata = app.input(bytes);
  const std::uint64_t odata = app.output(bytes);

  program p(app.opcodes(), 14);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::tid_x);
  p.s2r(3, sreg::ctaid_y);
  p.s2r(4, sreg::tid_y);
  p.imad(0, 0, rz, 2);   // xIndex = blockIdx.x * TILE_DIM + threadIdx.x
  p.imad(3, 3, rz, 4);   // yIndex = blockIdx.y * TILE_DIM + threadIdx.y
  p.imad(5, 3, rz, 0);   // index_in = xIndex + width * yIndex
  p.imad(6, 0, rz, 3);   // index_out = yIndex + height * xIndex
  p.address(8, 5, rz);   // &idata[index_in]
  p.address(10, 6, rz);  // &odata[index_out]
  const code head = p.since(m);
  std::array<code, tile_dim / block_rows> step{}, ld{}, st{};
  for (std::uint32_t k = 0; k < ld.size(); ++k) {
    if (k > 0) step[k] = p.ptr_add(8, 8, rz);  // += BLOCK_ROWS * width elements
    ld[k] = p.ld_global(12, 8, 4);             // idata[index_in + i * width]
    st[k] = p.st_global(10, 12, 4);            // odata[index_out + i] ([R10 + 4i])
  }
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z14transposeNaivePfS_ii", app.reserve_kernel_id(),
                 dim3{width / tile_dim, height / tile_dim, 1}, dim3{tile_dim, block_rows, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> x{}, y{};
      for (unsigned l = 0; l < 32; ++l) {
        x[l] = std::uint64_t(tb.index.x) * tile_dim + lanes.tx[l];
        y[l] = std::uint64_t(tb.index.y) * tile_dim + lanes.ty[l];
      }
      e.run(head, lanes.live);
      for (std::uint32_t k = 0; k < ld.size(); ++k) {
        const std::uint64_t i = std::uint64_t(k) * block_rows;
        e.run(step[k], lanes.live);
        e.mem_fn(ld[k], lanes.live,
                 [&](unsigned l) { return idata + 4 * (x[l] + width * y[l] + i * width); });
        e.mem_fn(st[k], lanes.live,
                 [&](unsigned l) { return odata + 4 * (y[l] + height * x[l] + i); });
      }
      e.run(done, lanes.live);
    }
  });
}
}  // namespace

kernel_generator transpose_naive_generator() {
  return {"transpose_naive",
          "CUDA SDK transposeNaive: 32 x 8 TBs over 32 x 32 tiles, four coalesced LDG rows "
          "and four strided STG columns per thread",
          {param_desc::integer("width", 1024, 32, 16384, "matrix width (a multiple of 32)"),
           param_desc::integer("height", 1024, 32, 16384, "matrix height (a multiple of 32)")},
          generate_transpose_naive};
}

}  // namespace gputlm::traces::generators
