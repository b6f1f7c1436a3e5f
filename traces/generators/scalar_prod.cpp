// Scalar products of vector pairs: the CUDA SDK sample scalarProd (scalarProd_kernel.cu
// `scalarProdGPU`), SCP of the μC-States workloads (μC-States: Kayiran et al.,
// "μC-States: Fine-grained GPU Datapath Power Management", PACT'16, Table 1). The kernel, as
// it indexes memory: for (vec = blockIdx.x; vec < vectorN; vec += gridDim.x) { vectorBase =
// elementN * vec, vectorEnd = vectorBase + elementN; for (iAccum = threadIdx.x; iAccum <
// ACCUM_N; iAccum += blockDim.x) { sum = 0; for (pos = vectorBase + iAccum; pos < vectorEnd;
// pos += ACCUM_N) sum += d_A[pos] * d_B[pos] (LDG, LDG, FFMA); accumResult[iAccum] = sum
// (STS at 4 * iAccum) } for (stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
// __syncthreads(); for (iAccum = threadIdx.x; iAccum < stride; iAccum += blockDim.x)
// accumResult[iAccum] += accumResult[stride + iAccum] (LDS, LDS, FADD, STS) }
// __syncthreads(); if (threadIdx.x == 0) d_C[vec] = accumResult[0] (LDS [0], STG) }.
// log2(ACCUM_N) + 1 BAR.SYNC per vector a TB handles; TBs with blockIdx.x >= vectorN leave at
// once (`@P0 EXIT`), threads past ACCUM_N skip the accumulation (`@P1 BRA`).
#include <array>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_scalar_prod(const param_set& ps, app_builder& app) {
  const std::uint32_t vectors = ps.u32("vectors"), elements = ps.u32("elements");
  const std::uint32_t accum = ps.u32("accum");
  const std::uint32_t grid = ps.u32("grid"), block = ps.u32("block");
  if ((accum & (accum - 1)) != 0) param_set::fail("accum", "must be a power of two");
  if (elements % accum != 0) param_set::fail("elements", "must be a multiple of accum");
  if (std::uint64_t(vectors) * elements > (1ull << 28))
    param_set::fail("elements", "vectors * elements must be at most 2^28");
  const std::uint64_t n = std::uint64_t(vectors) * elements;
  const std::uint32_t per_accum = elements / accum;  // pos-loop trips of every accumulator

  const std::uint64_t a_base = app.input(4 * n);
  const std::uint64_t b_base = app.input(4 * n);
  const std::uint64_t c_base = app.output(4ull * vectors);

  program p(app.opcodes(), 24);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);  // vec = blockIdx.x
  p.s2r(2, sreg::tid_x);
  p.isetp("GE", 0, rz);  // vec >= vectorN
  const code head = p.since(m);
  const code exit_none = p.exit();  // @P0 EXIT
  m = p.here();
  p.imad(4, 0, rz, rz);    // vectorBase = elementN * vec
  p.iadd(5, 4, rz);        // vectorEnd = vectorBase + elementN
  p.raw("MOV", {6}, {2});  // iAccum = threadIdx.x
  p.isetp("GE", 2, rz);    // iAccum >= ACCUM_N
  const code vec_init = p.since(m);
  const code skip_accum = p.bra();  // @P1 BRA (threads past ACCUM_N)
  m = p.here();
  p.mov(7);         // sum = 0
  p.iadd(8, 4, 6);  // pos = vectorBase + iAccum
  const code acc_init = p.since(m);
  m = p.here();
  p.address(10, 8, rz);  // &d_A[pos] (an int index: the address is rebuilt every trip)
  p.address(12, 8, rz);  // &d_B[pos]
  const code pos_addr = p.since(m);
  const code ld_a = p.ld_global(14, 10, 4);
  const code ld_b = p.ld_global(15, 12, 4);
  m = p.here();
  p.ffma(7, 14, 15, 7);  // sum += d_A[pos] * d_B[pos]
  p.iadd(8, 8, rz);      // pos += ACCUM_N
  p.isetp("LT", 8, 5);   // pos < vectorEnd
  const code fma_step = p.since(m);
  const code pos_back = p.bra();
  const code acc_addr = p.shl(16, 6);  // &accumResult[iAccum]
  const code sts_acc = p.st_shared(16, 7, 4);
  m = p.here();
  p.iadd(6, 6, rz);  // iAccum += blockDim.x
  p.isetp("LT", 6, rz);
  const code acc_step = p.since(m);
  const code acc_back = p.bra();
  const code red_init = p.mov(17);  // stride = ACCUM_N / 2
  const code bar = p.bar_sync();
  m = p.here();
  p.raw("MOV", {6}, {2});  // iAccum = threadIdx.x
  p.isetp("GE", 2, 17);    // iAccum >= stride
  const code red_cmp = p.since(m);
  const code skip_red = p.bra();  // @P1 BRA
  m = p.here();
  p.iadd(18, 6, 17);  // stride + iAccum
  p.shl(16, 6);
  p.shl(18, 18);
  const code red_addr = p.since(m);
  const code lds_self = p.ld_shared(19, 16, 4);
  const code lds_other = p.ld_shared(20, 18, 4);
  const code red_add = p.fadd(19, 19, 20);
  const code sts_sum = p.st_shared(16, 19, 4);
  m = p.here();
  p.iadd(6, 6, rz);  // iAccum += blockDim.x
  p.isetp("LT", 6, 17);
  const code red_step = p.since(m);
  const code red_back = p.bra();
  m = p.here();
  p.shr(17, 17);  // stride >>= 1
  p.isetp("NE", 17, rz);
  const code stride_next = p.since(m);
  const code stride_back = p.bra();
  const code final_bar = p.bar_sync();
  const code tid0 = p.isetp("NE", 2, rz);            // threadIdx.x == 0
  const code lds_total = p.raw("LDS", {21}, {}, 4);  // @!P0 LDS [RZ]
  const code addr_out = p.address(22, 0, rz);        // @!P0 &d_C[vec]
  const code stg = p.st_global(22, 21, 4);           // @!P0
  m = p.here();
  p.iadd(0, 0, rz);  // vec += gridDim.x
  p.isetp("LT", 0, rz);
  const code vec_step = p.since(m);
  const code vec_back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z13scalarProdGPUPfS_S_ii", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{block, 1, 1}, 4 * accum, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::array<std::uint64_t, 32> i_accum{};
      // The lanes of `live` with threadIdx.x < bound, i_accum set to threadIdx.x.
      auto start = [&](std::uint32_t bound) {
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l) {
          i_accum[l] = lanes.flat[l];
          if ((live >> l & 1u) && lanes.flat[l] < bound) act |= 1u << l;
        }
        return act;
      };
      e.run(head, live);
      if (tb.index.x >= vectors) {
        e.run(exit_none, live);
        continue;
      }
      for (std::uint64_t vec = tb.index.x; vec < vectors; vec += grid) {
        const std::uint64_t vector_base = vec * elements;
        e.run(vec_init, live);
        std::uint32_t act = start(accum);
        e.run(skip_accum, live & ~act);
        while (act != 0) {
          e.run(acc_init, act);
          for (std::uint32_t j = 0; j < per_accum; ++j) {
            auto at = [&](unsigned l) { return 4 * (vector_base + i_accum[l] + j * accum); };
            e.run(pos_addr, act);
            e.mem_fn(ld_a, act, [&](unsigned l) { return a_base + at(l); });
            e.mem_fn(ld_b, act, [&](unsigned l) { return b_base + at(l); });
            e.run(fma_step, act);
            if (j + 1 < per_accum) e.run(pos_back, act);
          }
          e.run(acc_addr, act);
          e.mem_fn(sts_acc, act, [&](unsigned l) { return 4 * i_accum[l]; });
          e.run(acc_step, act);
          act = stride_step(i_accum, act, block, accum);
          e.run(acc_back, act);
        }
        if (accum > 1) e.run(red_init, live);
        for (std::uint32_t stride = accum / 2; stride > 0; stride >>= 1) {
          e.run(bar, live);
          e.run(red_cmp, live);
          act = start(stride);
          e.run(skip_red, live & ~act);
          while (act != 0) {
            e.run(red_addr, act);
            e.mem_fn(lds_self, act, [&](unsigned l) { return 4 * i_accum[l]; });
            e.mem_fn(lds_other, act, [&](unsigned l) { return 4 * (stride + i_accum[l]); });
            e.run(red_add, act);
            e.mem_fn(sts_sum, act, [&](unsigned l) { return 4 * i_accum[l]; });
            e.run(red_step, act);
            act = stride_step(i_accum, act, block, stride);
            e.run(red_back, act);
          }
          e.run(stride_next, live);
          if (stride > 1) e.run(stride_back, live);
        }
        e.run(final_bar, live);
        e.run(tid0, live);
        const std::uint32_t first = w == 0 ? 1u : 0u;  // thread 0
        e.mem_fn(lds_total, first, [](unsigned) { return 0ull; });
        e.run(addr_out, first);
        e.mem_fn(stg, first, [&](unsigned) { return c_base + 4 * vec; });
        e.run(vec_step, live);
        if (vec + grid < vectors) e.run(vec_back, live);
      }
      e.run(done, live);
    }
  });
}
}  // namespace

kernel_generator scalar_prod_generator() {
  return {"scalar_prod",
          "CUDA SDK scalarProd: grid-stride loop over vectors, per vector strided LDG/FFMA "
          "into shared accumulators, then a shared-memory tree with BAR.SYNC per level",
          {param_desc::integer("vectors", 256, 1, 1u << 20, "vector pairs (vectorN)"),
           param_desc::integer("elements", 4096, 1, 1u << 24,
                               "elements per vector (elementN; a multiple of accum)"),
           param_desc::integer("accum", 1024, 1, 8192,
                               "shared-memory accumulators (ACCUM_N; a power of two)"),
           param_desc::integer("grid", 128, 1, 65535, "TBs"),
           param_desc::integer("block", 256, 1, 1024, "threads per TB")},
          generate_scalar_prod};
}

}  // namespace gputlm::traces::generators
