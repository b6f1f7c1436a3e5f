// Fast Walsh transform of the CUDA SDK (fastWalshTransform, fastWalshTransform_kernel.cuh,
// fwtBatchGPU) on 2^log2n floats, in place. While log2N > ELEMENTARY_LOG2SIZE (11), one
// fwtBatch2Kernel launch per radix-4 global-memory stage (grid 2^log2n / 1024 TBs of 256
// threads, fixed for all launches; stride = 2^log2N / 4, then log2N -= 2): thread pos reads
// d_Src[i0..i3], i0 = ((pos - lo) << 2) + lo with lo = pos & (stride - 1), i1 = i0 + stride,
// i2 = i1 + stride, i3 = i2 + stride, and writes the four butterfly results back at the same
// indices. The SDK then runs fwtBatch1Kernel on the remaining 2^log2N-element batches (one
// TB of 2^log2N / 4 threads each): loads the batch into shared memory, radix-4 stages in
// shared memory with BAR.SYNC before each, one radix-2 stage when log2N is odd, BAR.SYNC,
// stores. batch1=0 (default) leaves that kernel out, so the trace has only the barrier-free
// global stages; batch1=1 emits it as the SDK does. The sample runs fwtBatchGPU three times
// (data, kernel, the inverse) around a modulate kernel; this is one transform.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t elementary_log2size = 11;
constexpr std::uint32_t thread_n = 256;

// pos & mask with the mask in a register: LOP3.LUT on Volta, LOP.AND before.
code land_reg(program& p, reg d, reg a, reg b) {
  return p.raw(p.family() == isa_family::volta ? "LOP3.LUT" : "LOP.AND", {d}, {a, b});
}

// i0 of a radix-4 butterfly: ((pos - lo) << 2) + lo, lo = pos & (stride - 1).
std::uint64_t radix4_i0(std::uint64_t pos, std::uint64_t stride) {
  const std::uint64_t lo = pos & (stride - 1);
  return ((pos - lo) << 2) + lo;
}

void launch_batch2(app_builder& app, std::uint64_t data, std::uint32_t grid, std::uint64_t stride) {
  program p(app.opcodes(), 34);
  auto m = p.here();
  p.global_index_1d();  // R3 = pos
  p.s2r(4, sreg::ctaid_y);
  p.mov(5);              // stride
  p.iadd(6, 5, rz);      // stride - 1
  land_reg(p, 6, 3, 6);  // lo
  p.iadd(7, 3, 6);       // pos - lo
  p.shl(7, 7);
  p.iadd(7, 7, 6);       // i0
  p.imad(8, 4, rz, 7);   // blockIdx.y * N + i0
  p.address(10, 8, rz);  // &d_Src[i0]
  p.address(12, 5, 10);  // &d_Src[i1]
  p.address(14, 5, 12);  // &d_Src[i2]
  p.address(16, 5, 14);  // &d_Src[i3]
  const code head = p.since(m);
  const code ld0 = p.ld_global(18, 10, 4);
  const code ld1 = p.ld_global(19, 12, 4);
  const code ld2 = p.ld_global(20, 14, 4);
  const code ld3 = p.ld_global(21, 16, 4);
  m = p.here();
  p.fadd(22, 18, 20);  // D0 + D2
  p.fadd(20, 18, 20);  // D0 - D2
  p.fadd(23, 19, 21);  // D1 + D3
  p.fadd(21, 19, 21);  // D1 - D3
  p.fadd(24, 22, 23);
  p.fadd(22, 22, 23);
  p.fadd(25, 20, 21);
  p.fadd(20, 20, 21);
  p.address(26, 8, rz);  // &d_Dst[i0]
  p.address(28, 5, 26);
  p.address(30, 5, 28);
  p.address(32, 5, 30);
  const code math = p.since(m);
  const code st0 = p.st_global(26, 24, 4);
  const code st1 = p.st_global(28, 22, 4);
  const code st2 = p.st_global(30, 25, 4);
  const code st3 = p.st_global(32, 20, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z15fwtBatch2KernelPfS_i", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{thread_n, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> i0{};
      for (unsigned l = 0; l < 32; ++l)
        if (lanes.live >> l & 1u)
          i0[l] = radix4_i0(std::uint64_t(tb.index.x) * thread_n + lanes.flat[l], stride);
      auto at = [&](std::uint64_t k) {
        return [&, k](unsigned l) { return data + 4 * (i0[l] + k * stride); };
      };
      e.run(head, lanes.live);
      e.mem_fn(ld0, lanes.live, at(0));
      e.mem_fn(ld1, lanes.live, at(1));
      e.mem_fn(ld2, lanes.live, at(2));
      e.mem_fn(ld3, lanes.live, at(3));
      e.run(math, lanes.live);
      e.mem_fn(st0, lanes.live, at(0));
      e.mem_fn(st1, lanes.live, at(1));
      e.mem_fn(st2, lanes.live, at(2));
      e.mem_fn(st3, lanes.live, at(3));
      e.run(done, lanes.live);
    }
  });
}

void launch_batch1(app_builder& app, std::uint64_t data, std::uint32_t batches,
                   std::uint32_t log2n) {
  const std::uint32_t n = 1u << log2n, threads = n / 4;
  program p(app.opcodes(), 39);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::tid_x);
  p.shl(4, 0);          // base = blockIdx.x << log2N
  p.address(6, 4, rz);  // d_Src
  p.address(8, 4, rz);  // d_Dst
  p.mov(10);            // pos = threadIdx.x
  const code head = p.since(m);
  m = p.here();
  p.address(12, 10, 6);  // &d_Src[pos]
  const code load_addr = p.since(m);
  const code ld_in = p.ld_global(14, 12, 4);
  const code sts_addr = p.shl(15, 10);
  const code sts_in = p.st_shared(15, 14, 4);
  m = p.here();
  p.iadd(10, 10, rz);  // pos += blockDim.x
  p.isetp("LT", 10, rz);
  const code load_step = p.since(m);
  const code load_back = p.bra();
  const code init_stride = p.mov(5);  // stride = N >> 2
  const code bar_stage = p.bar_sync();
  m = p.here();
  p.iadd(16, 5, rz);       // stride - 1
  land_reg(p, 16, 2, 16);  // lo
  p.iadd(17, 2, 16);
  p.shl(17, 17);
  p.iadd(17, 17, 16);                                   // i0
  p.iadd(18, 17, 5);                                    // i1
  p.iadd(19, 18, 5);                                    // i2
  p.iadd(20, 19, 5);                                    // i3
  for (reg r : {17, 18, 19, 20}) p.shl(reg(r + 4), r);  // byte offsets R21..R24
  const code stage_index = p.since(m);
  const code lds0 = p.ld_shared(25, 21, 4);
  const code lds1 = p.ld_shared(26, 22, 4);
  const code lds2 = p.ld_shared(27, 23, 4);
  const code lds3 = p.ld_shared(28, 24, 4);
  m = p.here();
  p.fadd(29, 25, 27);
  p.fadd(27, 25, 27);
  p.fadd(30, 26, 28);
  p.fadd(28, 26, 28);
  p.fadd(31, 29, 30);
  p.fadd(29, 29, 30);
  p.fadd(32, 27, 28);
  p.fadd(27, 27, 28);
  const code stage_math = p.since(m);
  const code sts0 = p.st_shared(21, 31, 4);
  const code sts1 = p.st_shared(22, 29, 4);
  const code sts2 = p.st_shared(23, 32, 4);
  const code sts3 = p.st_shared(24, 27, 4);
  m = p.here();
  p.shr(5, 5);  // stride >>= 2
  p.isetp("NE", 5, rz);
  const code stage_step = p.since(m);
  const code stage_back = p.bra();
  m = p.here();
  p.land(33, rz);  // log2N & 1
  p.isetp("EQ", 33, rz);
  const code odd_test = p.since(m);
  const code skip_odd = p.bra();  // @P0 BRA (even log2N)
  const code bar_odd = p.bar_sync();
  const code odd_init = p.mov(34);      // pos = threadIdx.x
  const code odd_addr = p.shl(35, 34);  // pos << 1, in bytes
  const code lds_odd0 = p.ld_shared(36, 35, 4);
  const code lds_odd1 = p.ld_shared(37, 35, 4);  // [R35 + 0x4]
  m = p.here();
  p.fadd(38, 36, 37);
  p.fadd(36, 36, 37);
  const code odd_math = p.since(m);
  const code sts_odd0 = p.st_shared(35, 38, 4);
  const code sts_odd1 = p.st_shared(35, 36, 4);  // [R35 + 0x4]
  m = p.here();
  p.iadd(34, 34, rz);
  p.isetp("LT", 34, rz);  // pos < N / 2
  const code odd_step = p.since(m);
  const code odd_back = p.bra();
  const code bar_out = p.bar_sync();
  const code out_init = p.mov(10);  // pos = threadIdx.x
  const code out_lds_addr = p.shl(15, 10);
  const code lds_out = p.ld_shared(14, 15, 4);
  const code out_addr = p.address(12, 10, 8);  // &d_Dst[pos]
  const code st_out = p.st_global(12, 14, 4);
  m = p.here();
  p.iadd(10, 10, rz);
  p.isetp("LT", 10, rz);
  const code out_step = p.since(m);
  const code out_back = p.bra();
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z15fwtBatch1KernelPfS_i", app.reserve_kernel_id(),
                                      dim3{batches, 1, 1}, dim3{threads, 1, 1}, 4 * n, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t base = data + 4ull * tb.index.x * n;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      const auto& tid = lanes.flat;
      e.run(head, live);
      // for (pos = threadIdx.x; pos < N; pos += blockDim.x): 4 trips, blockDim.x = N / 4.
      for (std::uint32_t k = 0; k < 4; ++k) {
        auto pos = [&, k](unsigned l) { return std::uint64_t(tid[l]) + k * threads; };
        e.run(load_addr, live);
        e.mem_fn(ld_in, live, [&](unsigned l) { return base + 4 * pos(l); });
        e.run(sts_addr, live);
        e.mem_fn(sts_in, live, [&](unsigned l) { return 4 * pos(l); });
        e.run(load_step, live);
        e.run(load_back, k < 3 ? live : 0u);
      }
      e.run(init_stride, live);
      for (std::uint64_t stride = n >> 2; stride >= 1; stride >>= 2) {
        auto at = [&, stride](std::uint64_t j) {
          return
              [&, stride, j](unsigned l) { return 4 * (radix4_i0(tid[l], stride) + j * stride); };
        };
        e.run(bar_stage, live);
        e.run(stage_index, live);
        e.mem_fn(lds0, live, at(0));
        e.mem_fn(lds1, live, at(1));
        e.mem_fn(lds2, live, at(2));
        e.mem_fn(lds3, live, at(3));
        e.run(stage_math, live);
        e.mem_fn(sts0, live, at(0));
        e.mem_fn(sts1, live, at(1));
        e.mem_fn(sts2, live, at(2));
        e.mem_fn(sts3, live, at(3));
        e.run(stage_step, live);
        e.run(stage_back, stride >= 4 ? live : 0u);
      }
      e.run(odd_test, live);
      const bool odd = (log2n & 1u) != 0;
      e.run(skip_odd, odd ? 0u : live);
      if (odd) {
        e.run(bar_odd, live);
        e.run(odd_init, live);
        // for (pos = threadIdx.x; pos < N / 2; pos += blockDim.x): 2 trips.
        for (std::uint32_t k = 0; k < 2; ++k) {
          auto i0 = [&, k](unsigned l) { return 2 * (std::uint64_t(tid[l]) + k * threads); };
          e.run(odd_addr, live);
          e.mem_fn(lds_odd0, live, [&](unsigned l) { return 4 * i0(l); });
          e.mem_fn(lds_odd1, live, [&](unsigned l) { return 4 * i0(l) + 4; });
          e.run(odd_math, live);
          e.mem_fn(sts_odd0, live, [&](unsigned l) { return 4 * i0(l); });
          e.mem_fn(sts_odd1, live, [&](unsigned l) { return 4 * i0(l) + 4; });
          e.run(odd_step, live);
          e.run(odd_back, k < 1 ? live : 0u);
        }
      }
      e.run(bar_out, live);
      e.run(out_init, live);
      for (std::uint32_t k = 0; k < 4; ++k) {
        auto pos = [&, k](unsigned l) { return std::uint64_t(tid[l]) + k * threads; };
        e.run(out_lds_addr, live);
        e.mem_fn(lds_out, live, [&](unsigned l) { return 4 * pos(l); });
        e.run(out_addr, live);
        e.mem_fn(st_out, live, [&](unsigned l) { return base + 4 * pos(l); });
        e.run(out_step, live);
        e.run(out_back, k < 3 ? live : 0u);
      }
      e.run(done, live);
    }
  });
}

void generate_fwt(const param_set& ps, app_builder& app) {
  const std::uint32_t log2n = ps.u32("log2n");
  const bool batch1 = ps.u32("batch1") != 0;
  if (!batch1 && log2n <= elementary_log2size)
    param_set::fail(
        "log2n", "must be at least 12 with batch1=0 (no global-memory stage below 2^12 elements)");
  const std::uint64_t data = app.input(4ull << log2n);
  // fwtBatchGPU(d_Data, 1, log2N): the grid is sized once, for the whole vector.
  const std::uint32_t grid = std::uint32_t((1ull << log2n) / (4 * thread_n));
  std::uint32_t l = log2n;
  for (; l > elementary_log2size; l -= 2) launch_batch2(app, data, grid, (1ull << l) / 4);
  if (batch1) launch_batch1(app, data, std::uint32_t(1ull << (log2n - l)), l);
}
}  // namespace

kernel_generator fwt_generator() {
  return {"fwt",
          "CUDA SDK fastWalshTransform: radix-4 global-memory stages (fwtBatch2Kernel), "
          "optionally the shared-memory fwtBatch1Kernel",
          {param_desc::integer("log2n", 20, 2, 26, "log2 of the number of elements"),
           param_desc::integer("batch1", 0, 0, 1,
                               "1: run the shared-memory fwtBatch1Kernel after the global stages")},
          generate_fwt};
}

}  // namespace gputlm::traces::generators
