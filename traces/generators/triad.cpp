// SHOC's Triad (level 1, Triad.cu; TRD of the μC-States workloads: Kayiran et al.,
// "μC-States: Fine-grained GPU Datapath Power Management", PACT'16, Table 1): the STREAM
// triad C = A + s·B over a vector of mem_kb KB, streamed through the GPU in chunks. The
// kernel, as it indexes memory: triad(float* A, float* B, float* C, float s) { gid =
// threadIdx.x + blockIdx.x * blockDim.x; C[gid] = A[gid] + s * B[gid] } (LDG A[gid], LDG
// B[gid], FFMA, STG C[gid]; no bounds check: the grid is exact).
//
// RunBenchmark's host loop: for every pass, for every chunk size blockSizes[i] (KB: 64, 128,
// ..., 16384 = memSize), elemsInBlock = 256·blockSizes[i] floats, chunks = memSize /
// blockSizes[i] launches of triad<<<elemsInBlock / 128, 128>>>, double-buffered over two
// device buffer sets (d_memA0/B0/C0 and d_memA1/B1/C1, each memSize KB): chunk k runs on
// set k & 1 (stream k & 1); A and B of chunk k + 1 are copied in (MemcpyHtoD, blockSizes[i]
// KB each) after chunk k is launched, so the command order is A0, B0, K0, A1, B1, K1, A0,
// B0, K2, ...
//
// Where we had to choose:
// - SHOC's sizes (memSize 16 MB, chunks 64 KB..16 MB: 511 launches and 9 x 4 M threads per
//   pass, 10 passes by default) make a text trace of about 0.7 GB per pass; the default
//   mem_kb 4096 and one pass keep 127 launches (chunk sizes double from min_chunk_kb to
//   mem_kb as SHOC's double from 64 KB to memSize; `mem_kb=16384` is SHOC's loop).
// - Streams: SHOC alternates streams[0] and [1] (`streams=two`, stream id k & 1, no
//   cudaThreadSynchronize between chunk sizes, which the KMU cannot wait on); the default
//   `streams=one` puts every launch on stream 0, as the μC-States multi-application harness
//   runs TRD on one application stream, and keeps the trace mergeable into mixes.
// - The copies back (cudaMemcpyDeviceToHost of C) are not traced (Accel-Sim traces none).
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_triad(const param_set& ps, app_builder& app) {
  const std::uint64_t mem_kb = ps.u64("mem_kb"), min_chunk_kb = ps.u64("min_chunk_kb");
  const std::uint32_t block = ps.u32("block");
  const std::uint64_t passes = ps.u64("passes");
  const bool two_streams = ps.str("streams") == "two";
  auto pow2 = [](std::uint64_t v) { return (v & (v - 1)) == 0; };
  if (!pow2(mem_kb)) param_set::fail("mem_kb", "must be a power of two");
  if (!pow2(min_chunk_kb)) param_set::fail("min_chunk_kb", "must be a power of two");
  if (min_chunk_kb > mem_kb) param_set::fail("min_chunk_kb", "must be at most mem_kb");
  if ((256 * min_chunk_kb) % block != 0)
    param_set::fail("block", "must divide the smallest chunk's 256·min_chunk_kb floats");

  // cudaMalloc order: d_memA0, d_memB0, d_memC0, d_memA1, d_memB1, d_memC1.
  std::uint64_t a[2], b[2], c[2];
  for (int s = 0; s < 2; ++s) {
    a[s] = app.output(1024 * mem_kb);
    b[s] = app.output(1024 * mem_kb);
    c[s] = app.output(1024 * mem_kb);
  }

  program p(app.opcodes(), 12);
  auto m = p.here();
  p.global_index_1d();  // R3 = gid
  p.address(4, 3, rz);  // &A[gid]
  p.address(6, 3, rz);  // &B[gid]
  const code head = p.since(m);
  const code ld_a = p.ld_global(8, 4, 4);
  const code ld_b = p.ld_global(9, 6, 4);
  m = p.here();
  p.address(10, 3, rz);  // &C[gid]
  p.ffma(9, 9, rz, 8);   // s * B[gid] + A[gid]
  const code calc = p.since(m);
  const code st_c = p.st_global(10, 9, 4);
  const code done = p.exit();
  p.bra();

  for (std::uint64_t pass = 0; pass < passes; ++pass)
    for (std::uint64_t chunk_kb = min_chunk_kb; chunk_kb <= mem_kb; chunk_kb *= 2) {
      const std::uint64_t elems = 256 * chunk_kb, chunks = mem_kb / chunk_kb;
      const std::uint32_t grid = std::uint32_t(elems / block);
      auto copy_in = [&](std::uint64_t k) {
        app.memcpy_h2d(a[k & 1], 1024 * chunk_kb);
        app.memcpy_h2d(b[k & 1], 1024 * chunk_kb);
      };
      copy_in(0);
      for (std::uint64_t k = 0; k < chunks; ++k) {
        const unsigned s = unsigned(k & 1);
        kernel_info info = app.kernel("_Z5triadPfS_S_f", app.reserve_kernel_id(), dim3{grid, 1, 1},
                                      dim3{block, 1, 1}, 0, p);
        if (two_streams) info.stream_id = s;
        app.write_kernel(info, [&](tb_trace& tb) {
          for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
            warp_emitter e(p, tb.warps[w]);
            const warp_lanes lanes = lanes_of(info.block, w);
            auto at = [&](std::uint64_t base) {
              return [&, base](unsigned l) {
                return base + 4 * (std::uint64_t(tb.index.x) * block + lanes.flat[l]);
              };
            };
            e.run(head, lanes.live);
            e.mem_fn(ld_a, lanes.live, at(a[s]));
            e.mem_fn(ld_b, lanes.live, at(b[s]));
            e.run(calc, lanes.live);
            e.mem_fn(st_c, lanes.live, at(c[s]));
            e.run(done, lanes.live);
          }
        });
        if (k + 1 < chunks) copy_in(k + 1);
      }
    }
}
}  // namespace

kernel_generator triad_generator() {
  return {"triad",
          "SHOC Triad: C = A + s*B streamed in chunks of doubling size, double-buffered, one "
          "thread per element",
          {param_desc::integer("mem_kb", 4096, 1, 1u << 20,
                               "KB of the whole vector (SHOC memSize 16384; a power of two)"),
           param_desc::integer("min_chunk_kb", 64, 1, 1u << 20,
                               "smallest chunk in KB (SHOC blockSizes[0] 64; a power of two)"),
           param_desc::integer("block", 128, 32, 1024, "threads per TB (SHOC blockSize 128)"),
           param_desc::integer("passes", 1, 1, 1000, "passes over all chunk sizes (SHOC: 10)"),
           param_desc::choice("streams", {"one", "two"},
                              "one stream (mergeable) or SHOC's two, chunk k on stream k & 1")},
          generate_triad};
}

}  // namespace gputlm::traces::generators
