// Work-efficient prefix sum (exclusive scan) of the CUDA SDK scanLargeArray
// (scan_best_kernel.cu, prescanArrayRecursive; Harris, Sengupta & Owens, GPU Gems 3 ch. 39),
// the "scan" the GPGPU-Sim studies run. prescan<storeSum, isNP2>: each thread loads two
// elements (mem_ai = base + tid, mem_bi = mem_ai + blockDim) into shared memory at
// ai + (ai >> 4) and bi + (bi >> 4) (CONFLICT_FREE_OFFSET, 16 banks), then the Blelloch
// up-sweep (for d = blockDim; d > 0; d >>= 1: BAR.SYNC; tid < d adds s[ai] into s[bi],
// ai = 2*stride*tid + stride - 1, bi = ai + stride, stride doubling), thread 0 stores the
// block's total to blockSums and clears the last element, the down-sweep (for d = 1;
// d <= blockDim; d *= 2: stride >>= 1; BAR.SYNC; tid < d swaps and adds), BAR.SYNC and the
// two stores: 2 log2(blockDim) + 3 BAR.SYNC per TB. With more than one TB of 2 * block
// elements the host scans the block sums recursively and runs uniformAdd (thread 0 loads
// uniforms[blockIdx.x + blockOffset] into shared memory, BAR.SYNC, every thread adds it to
// its two elements; the second load and store are unconditional, as in the SDK). A last,
// partial block runs separately as prescan<true, true> (floorPow2 threads, loads past n
// predicated off) and its own uniformAdd, as the SDK does.
#include <algorithm>
#include <vector>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
bool is_pow2(std::uint64_t v) { return (v & (v - 1)) == 0; }
std::uint64_t floor_pow2(std::uint64_t v) {
  std::uint64_t r = 1;
  while (r * 2 <= v) r *= 2;
  return r;
}
// Byte offset in s_data of element i: i + CONFLICT_FREE_OFFSET(i), 4-byte words.
std::uint64_t conflict_free(std::uint64_t i) { return 4 * (i + (i >> 4)); }

struct prescan_launch {
  bool store_sum = false, np2 = false;
  std::uint32_t grid = 1, threads = 1, shmem = 0;
  std::uint64_t n = 0, block_index = 0, base_index = 0;
  std::uint64_t out = 0, in = 0, sums = 0;
};

void launch_prescan(app_builder& app, const prescan_launch& s) {
  program p(app.opcodes(), 40);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.mov(3);              // baseIndex
  p.isetp("EQ", 3, rz);  // baseIndex == 0
  p.imad(4, 2, rz, rz);  // blockIdx.x * (blockDim.x << 1)
  p.raw("SEL", {4}, {4, 3});
  p.iadd(5, 4, 0);   // mem_ai
  p.iadd(6, 5, rz);  // mem_bi = mem_ai + blockDim.x
  p.iadd(7, 0, rz);  // bi = thid + blockDim.x
  p.shr(8, 0);
  p.shr(9, 7);
  p.iadd(8, 8, 0);  // ai + bankOffsetA
  p.iadd(9, 9, 7);  // bi + bankOffsetB
  p.shl(8, 8);
  p.shl(9, 9);
  p.address(10, 5, rz);  // &g_idata[mem_ai]
  p.address(12, 6, rz);  // &g_idata[mem_bi]
  if (s.np2) {
    p.isetp("GE", 7, rz);  // bi >= n
    p.mov(15);             // 0
  }
  const code head = p.since(m);
  const code ld_a = p.ld_global(14, 10, 4);
  const code ld_b = p.ld_global(15, 12, 4);  // isNP2: @!P0
  const code sts_a = p.st_shared(8, 14, 4);
  const code sts_b = p.st_shared(9, 15, 4);
  m = p.here();
  p.mov(16);  // stride = 1
  p.mov(17);  // d = blockDim.x
  const code up_init = p.since(m);
  // One tree level: i = 2 * stride * thid, ai = i + stride - 1, bi = ai + stride, padded.
  auto level_index = [&p]() {
    auto mark = p.here();
    p.shl(18, 16);
    p.imad(18, 18, 0, rz);
    p.iadd(19, 18, 16);
    p.iadd(19, 19, rz);
    p.iadd(20, 19, 16);
    p.shr(21, 19);
    p.iadd(19, 19, 21);
    p.shr(21, 20);
    p.iadd(20, 20, 21);
    p.shl(19, 19);
    p.shl(20, 20);
    return p.since(mark);
  };
  const code up_bar = p.bar_sync();
  const code up_cmp = p.isetp("GE.U32", 0, 17);  // thid >= d
  const code up_index = level_index();
  const code up_lds_a = p.ld_shared(22, 19, 4);
  const code up_lds_b = p.ld_shared(23, 20, 4);
  const code up_add = p.fadd(23, 23, 22);
  const code up_sts = p.st_shared(20, 23, 4);
  m = p.here();
  p.shl(16, 16);  // stride *= 2
  p.shr(17, 17);  // d >>= 1
  p.isetp("NE", 17, rz);
  const code up_step = p.since(m);
  const code up_back = p.bra();
  const code clear_cmp = p.isetp("NE", 0, rz);  // threadIdx.x == 0
  m = p.here();
  p.mov(24);  // (blockDim.x << 1) - 1
  p.shr(25, 24);
  p.iadd(24, 24, 25);
  p.shl(24, 24);
  const code clear_index = p.since(m);
  code lds_total, sum_addr, stg_total;  // storeSum only
  if (s.store_sum) {
    lds_total = p.ld_shared(26, 24, 4);
    m = p.here();
    p.mov(27);  // blockIndex
    p.isetp("EQ", 27, rz);
    p.raw("SEL", {27}, {2, 27});
    p.address(28, 27, rz);  // &g_blockSums[..]
    sum_addr = p.since(m);
    stg_total = p.st_global(28, 26, 4);
  }
  const code sts_zero = p.raw("STS", {}, {24}, 4);  // s_data[index] = 0
  const code down_init = p.mov(17);                 // d = 1
  const code down_shift = p.shr(16, 16);            // stride >>= 1
  const code down_bar = p.bar_sync();
  const code down_cmp = p.isetp("GE.U32", 0, 17);
  const code down_index = level_index();
  const code down_lds_a = p.ld_shared(22, 19, 4);
  const code down_lds_b = p.ld_shared(23, 20, 4);
  const code down_sts_a = p.st_shared(19, 23, 4);
  const code down_add = p.fadd(23, 23, 22);
  const code down_sts_b = p.st_shared(20, 23, 4);
  m = p.here();
  p.shl(17, 17);  // d *= 2
  p.isetp("LE.U32", 17, rz);
  const code down_step = p.since(m);
  const code down_back = p.bra();
  const code store_bar = p.bar_sync();
  const code lds_a = p.ld_shared(30, 8, 4);
  const code out_a = p.address(32, 5, rz);
  const code stg_a = p.st_global(32, 30, 4);
  const code store_cmp = s.np2 ? p.isetp("GE", 7, rz) : code{};
  const code lds_b = p.ld_shared(31, 9, 4);  // isNP2: @!P0
  const code out_b = p.address(34, 6, rz);
  const code stg_b = p.st_global(34, 31, 4);
  const code done = p.exit();
  p.bra();

  const char* name =
      s.store_sum
          ? (s.np2 ? "_Z7prescanILb1ELb1EEvPfPKfS0_iii" : "_Z7prescanILb1ELb0EEvPfPKfS0_iii")
          : (s.np2 ? "_Z7prescanILb0ELb1EEvPfPKfS0_iii" : "_Z7prescanILb0ELb0EEvPfPKfS0_iii");
  const std::uint32_t b = s.threads;
  const kernel_info info =
      app.kernel(name, app.reserve_kernel_id(), dim3{s.grid, 1, 1}, dim3{b, 1, 1}, s.shmem, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t base = s.base_index == 0 ? std::uint64_t(tb.index.x) * 2 * b : s.base_index;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      const auto& tid = lanes.flat;
      std::uint32_t b_in = live;  // lanes whose bi < n (isNP2)
      if (s.np2)
        for (unsigned l = 0; l < 32; ++l)
          if (std::uint64_t(tid[l]) + b >= s.n) b_in &= ~(1u << l);
      auto below = [&](std::uint64_t d) {
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && tid[l] < d) act |= 1u << l;
        return act;
      };
      auto ai = [&](std::uint64_t stride) {
        return [&, stride](unsigned l) { return conflict_free(2 * stride * tid[l] + stride - 1); };
      };
      auto bi = [&](std::uint64_t stride) {
        return
            [&, stride](unsigned l) { return conflict_free(2 * stride * tid[l] + 2 * stride - 1); };
      };
      e.run(head, live);
      e.mem_fn(ld_a, live, [&](unsigned l) { return s.in + 4 * (base + tid[l]); });
      e.mem_fn(ld_b, b_in, [&](unsigned l) { return s.in + 4 * (base + tid[l] + b); });
      e.mem_fn(sts_a, live, [&](unsigned l) { return conflict_free(tid[l]); });
      e.mem_fn(sts_b, live, [&](unsigned l) { return conflict_free(tid[l] + b); });
      e.run(up_init, live);
      std::uint64_t stride = 1;
      for (std::uint64_t d = b; d > 0; d >>= 1, stride *= 2) {
        const std::uint32_t act = below(d);
        e.run(up_bar, live);
        e.run(up_cmp, live);
        e.run(up_index, act);
        e.mem_fn(up_lds_a, act, ai(stride));
        e.mem_fn(up_lds_b, act, bi(stride));
        e.run(up_add, act);
        e.mem_fn(up_sts, act, bi(stride));
        e.run(up_step, live);
        e.run(up_back, d > 1 ? live : 0u);
      }
      const std::uint32_t first = w == 0 ? live & 1u : 0u;  // thread 0
      const std::uint64_t last = conflict_free(2 * std::uint64_t(b) - 1);
      e.run(clear_cmp, live);
      e.run(clear_index, first);
      if (s.store_sum) {
        e.mem_fn(lds_total, first, [&](unsigned) { return last; });
        e.run(sum_addr, first);
        e.mem_fn(stg_total, first, [&](unsigned) {
          return s.sums + 4 * (s.block_index == 0 ? tb.index.x : s.block_index);
        });
      }
      e.mem_fn(sts_zero, first, [&](unsigned) { return last; });
      e.run(down_init, live);
      for (std::uint64_t d = 1; d <= b; d *= 2) {
        stride >>= 1;
        const std::uint32_t act = below(d);
        e.run(down_shift, live);
        e.run(down_bar, live);
        e.run(down_cmp, live);
        e.run(down_index, act);
        e.mem_fn(down_lds_a, act, ai(stride));
        e.mem_fn(down_lds_b, act, bi(stride));
        e.mem_fn(down_sts_a, act, ai(stride));
        e.run(down_add, act);
        e.mem_fn(down_sts_b, act, bi(stride));
        e.run(down_step, live);
        e.run(down_back, d < b ? live : 0u);
      }
      e.run(store_bar, live);
      e.mem_fn(lds_a, live, [&](unsigned l) { return conflict_free(tid[l]); });
      e.run(out_a, live);
      e.mem_fn(stg_a, live, [&](unsigned l) { return s.out + 4 * (base + tid[l]); });
      if (s.np2) e.run(store_cmp, live);
      e.mem_fn(lds_b, b_in, [&](unsigned l) { return conflict_free(tid[l] + b); });
      e.run(out_b, b_in);
      e.mem_fn(stg_b, b_in, [&](unsigned l) { return s.out + 4 * (base + tid[l] + b); });
      e.run(done, live);
    }
  });
}

void launch_uniform_add(app_builder& app, std::uint32_t grid, std::uint32_t threads,
                        std::uint64_t data, std::uint64_t uniforms, std::uint64_t block_offset,
                        std::uint64_t base_index) {
  program p(app.opcodes(), 20);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.isetp("NE", 0, rz);  // threadIdx.x == 0
  const code head = p.since(m);
  m = p.here();
  p.iadd(3, 2, rz);  // blockIdx.x + blockOffset
  p.address(4, 3, rz);
  const code uni_addr = p.since(m);
  const code ld_uni = p.ld_global(6, 4, 4);
  const code sts_uni = p.raw("STS", {}, {6}, 4);  // [RZ]: uni
  m = p.here();
  p.imad(7, 2, rz, 0);  // blockIdx.x * (blockDim.x << 1) + threadIdx.x
  p.iadd(7, 7, rz);     // + baseIndex
  const code index = p.since(m);
  const code bar = p.bar_sync();
  const code lds_uni = p.raw("LDS", {8}, {}, 4);  // [RZ]
  const code addr_a = p.address(10, 7, rz);
  const code ld_a = p.ld_global(12, 10, 4);
  const code add_a = p.fadd(12, 12, 8);
  const code st_a = p.st_global(10, 12, 4);
  m = p.here();
  p.iadd(13, 0, rz);      // threadIdx.x + blockDim.x
  p.isetp("LT", 13, rz);  // < n
  p.raw("SEL", {14}, {});
  p.i2f(14, 14);
  p.fmul(14, 14, 8);  // (..) * uni
  p.iadd(15, 7, rz);  // address + blockDim.x
  p.address(16, 15, rz);
  const code b_index = p.since(m);
  const code ld_b = p.ld_global(18, 16, 4);
  const code add_b = p.fadd(18, 18, 14);
  const code st_b = p.st_global(16, 18, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z10uniformAddPfS_iii", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{threads, 1, 1}, 4, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t base = std::uint64_t(tb.index.x) * 2 * threads + base_index;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      const std::uint32_t first = w == 0 ? live & 1u : 0u;  // thread 0
      e.run(head, live);
      e.run(uni_addr, first);
      e.mem_fn(ld_uni, first, [&](unsigned) { return uniforms + 4 * (tb.index.x + block_offset); });
      e.mem_fn(sts_uni, first, [](unsigned) { return 0ull; });
      e.run(index, live);
      e.run(bar, live);
      e.mem_fn(lds_uni, live, [](unsigned) { return 0ull; });
      e.run(addr_a, live);
      e.mem_fn(ld_a, live, [&](unsigned l) { return data + 4 * (base + lanes.flat[l]); });
      e.run(add_a, live);
      e.mem_fn(st_a, live, [&](unsigned l) { return data + 4 * (base + lanes.flat[l]); });
      e.run(b_index, live);
      auto b_at = [&](unsigned l) { return data + 4 * (base + lanes.flat[l] + threads); };
      e.mem_fn(ld_b, live, b_at);
      e.run(add_b, live);
      e.mem_fn(st_b, live, b_at);
      e.run(done, live);
    }
  });
}

struct scan_host {
  app_builder& app;
  std::uint64_t block;
  std::vector<std::uint64_t> block_sums;  // g_scanBlockSums[level]

  std::uint64_t blocks_of(std::uint64_t n) const {
    return std::max<std::uint64_t>(1, (n + 2 * block - 1) / (2 * block));
  }

  // preallocBlockSums: one array per level that has more than one TB.
  void prealloc(std::uint64_t n) {
    for (std::uint64_t elts = n; elts > 1;) {
      const std::uint64_t blocks = blocks_of(elts);
      if (blocks > 1) block_sums.push_back(app.output(4 * blocks));
      elts = blocks;
    }
  }

  // prescanArrayRecursive.
  void run(std::uint64_t out, std::uint64_t in, std::uint64_t n, std::size_t level) {
    const std::uint64_t blocks = blocks_of(n);
    const std::uint64_t threads = blocks > 1 ? block : is_pow2(n) ? n / 2 : floor_pow2(n);
    const std::uint64_t per_block = 2 * threads;
    const std::uint64_t last_elts = n - (blocks - 1) * per_block;
    std::uint64_t last_threads = std::max<std::uint64_t>(1, last_elts / 2);
    const bool np2_last = last_elts != per_block;
    std::uint32_t last_shmem = 0;
    if (np2_last) {
      if (!is_pow2(last_elts)) last_threads = floor_pow2(last_elts);
      last_shmem = std::uint32_t(4 * (2 * last_threads + 2 * last_threads / 16));
    }
    const auto shmem = std::uint32_t(4 * (per_block + per_block / 16));
    const auto grid = std::uint32_t(std::max<std::uint64_t>(1, blocks - (np2_last ? 1 : 0)));
    prescan_launch s;
    s.grid = grid;
    s.threads = std::uint32_t(threads);
    s.shmem = shmem;
    s.out = out;
    s.in = in;
    if (blocks > 1) {
      s.store_sum = true;
      s.n = per_block;
      s.sums = block_sums.at(level);
      launch_prescan(app, s);
      if (np2_last) {
        prescan_launch t = s;
        t.np2 = true;
        t.grid = 1;
        t.threads = std::uint32_t(last_threads);
        t.shmem = last_shmem;
        t.n = last_elts;
        t.block_index = blocks - 1;
        t.base_index = n - last_elts;
        launch_prescan(app, t);
      }
      run(block_sums[level], block_sums[level], blocks, level + 1);
      launch_uniform_add(app, grid, std::uint32_t(threads), out, block_sums[level], 0, 0);
      if (np2_last)
        launch_uniform_add(app, 1, std::uint32_t(last_threads), out, block_sums[level], blocks - 1,
                           n - last_elts);
    } else {
      s.np2 = !is_pow2(n);
      s.n = s.np2 ? n : per_block;
      launch_prescan(app, s);
    }
  }
};

void generate_scan(const param_set& ps, app_builder& app) {
  const std::uint64_t n = ps.u64("elements");
  const std::uint32_t block = ps.u32("block");
  if (!is_pow2(block)) param_set::fail("block", "must be a power of two");
  const std::uint64_t in = app.input(4 * n);
  const std::uint64_t out = app.output(4 * n);
  scan_host host{app, block, {}};
  host.prealloc(n);
  host.run(out, in, n, 0);
}
}  // namespace

kernel_generator scan_generator() {
  return {"scan",
          "CUDA SDK scanLargeArray: Blelloch scan per TB in shared memory, recursive block "
          "sums, uniformAdd",
          {param_desc::integer("elements", 262144, 2, 1ull << 26, "number of elements"),
           param_desc::integer("block", 256, 2, 1024,
                               "threads per TB, two elements each (BLOCK_SIZE, power of two)")},
          generate_scan};
}

}  // namespace gputlm::traces::generators
