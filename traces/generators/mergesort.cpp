// Merge sort of the CUDA SDK mergeSort sample (mergeSort.cu; Satish, Harris & Garland,
// IPDPS'09), the MGS benchmark of Tripathy's PAVER study: n keys (rand() % 65536 in the SDK:
// rng(seed).below(65536) here) and values (their indices), ascending (sortDir = 1).
// mergeSortSharedKernel<1> sorts each 1024-key chunk in shared memory on 512 threads: per
// stride 1, 2, ..., 512 a BAR.SYNC, each thread reads keyA = s_key[base + lPos] and
// keyB = s_key[base + lPos + stride] (and their values), finds keyA's rank in the other
// half by binarySearchExclusive and keyB's by binarySearchInclusive (log2(stride) + 1
// data-dependent LDS each), BAR.SYNC, and stores both at their merged positions. Then per
// stride 1024, 2048, ... < n: generateSampleRanksKernel (a thread per 128-key sample:
// RanksA/RanksB, a binary search of the sample key in the other run in global memory),
// mergeRanksAndIndicesKernel twice (LimitsA from RanksA, LimitsB from RanksB: binary searches
// over the ranks), and mergeElementaryIntervalsKernel (a 128-thread TB per elementary
// interval: thread 0 reads the limits, BAR.SYNC, the A and B pieces to shared memory,
// BAR.SYNC, merge by two unrolled 8-probe binary searches, BAR.SYNC, shared stores, BAR.SYNC,
// global stores). The sort is carried out on the keys as it runs, so every probe address is
// the one the SDK kernels read on this input.
#include <algorithm>
#include <array>
#include <vector>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t shared_size_limit = 1024;  // SHARED_SIZE_LIMIT
constexpr std::uint32_t sample_stride = 128;       // SAMPLE_STRIDE
constexpr std::uint32_t max_sample_count = 32768;  // MAX_SAMPLE_COUNT
constexpr std::uint32_t num_values = 65536;        // key range of the sample (numValues)
constexpr std::uint32_t full = 0xffffffffu;
// mergeSortSharedKernel: 512 threads, s_val after s_key[1024].
constexpr std::uint32_t sort_threads = shared_size_limit / 2;
constexpr std::uint64_t sort_val_base = 4 * shared_size_limit;
// mergeElementaryIntervalsKernel: 128 threads, s_key[256], s_val[256], then the six shared
// parameters (startSrcA, startSrcB, lenSrcA, lenSrcB, startDstA, startDstB); the merge's
// binary searches are unrolled (log2(SAMPLE_STRIDE) + 1 probes).
constexpr std::uint32_t interval_threads = sample_stride;
constexpr std::uint64_t interval_val_base = 4 * 2 * sample_stride;
constexpr std::uint64_t interval_params = 2 * interval_val_base;
constexpr unsigned merge_probes = 8;

unsigned log2_of(std::uint64_t v) {
  unsigned r = 0;
  while ((1ull << r) < v) ++r;
  return r;
}

// binarySearchExclusive<1> (data < val moves right) or binarySearchInclusive<1> (data <= val)
// over data[0 .. len) with a power-of-two starting stride; the index of each probe
// (data[newPos - 1]) goes to `probes`, one per halving of the stride.
std::uint32_t binary_search(bool inclusive, std::uint32_t val, const std::uint32_t* data,
                            std::uint32_t len, std::uint32_t stride, std::uint32_t* probes) {
  if (len == 0) return 0;
  std::uint32_t pos = 0;
  for (unsigned k = 0; stride > 0; stride >>= 1, ++k) {
    const std::uint32_t next = std::min(pos + stride, len);
    probes[k] = next - 1;
    if (inclusive ? data[next - 1] <= val : data[next - 1] < val) pos = next;
  }
  return pos;
}

code lop_and(program& p, reg d, reg a, reg b) {
  return p.raw(p.family() == isa_family::volta ? "LOP3.LUT" : "LOP.AND", {d}, {a, b});
}
code umin(program& p, reg d, reg a, reg b) { return p.raw("IMNMX.U32", {d}, {a, b}); }
// nextPowerOfTwo(x) = 1U << (32 - __clz(x - 1)).
void next_pow2(program& p, reg d, reg x) {
  p.iadd(d, x, rz);
  p.raw("FLO.U32", {d}, {d});
  p.iadd(d, d, rz);
  p.raw(p.family() == isa_family::volta ? "SHF.L.U32" : "SHL", {d}, {d});
}

// One trip of a binary-search loop: address of data[newPos - 1], its load, the compare and
// SEL of the new position, the stride halving and the back edge.
struct search_trip {
  code addr, load, step, back;
};

// pos, s (stride), next (newPos), tmp, addr (pair when global), val; key the searched value;
// len the length; base the element index of data[0] (global: of the param array).
search_trip build_search_trip(program& p, bool global, bool inclusive, reg pos, reg s, reg next,
                              reg addr, reg val, reg key, reg len, reg base) {
  search_trip t;
  auto m = p.here();
  p.iadd(next, pos, s);
  umin(p, next, next, len);
  p.iadd(val, next, base);  // element index of data[newPos] (the load takes [addr - 4])
  if (global)
    p.address(addr, val, rz);
  else
    p.shl(addr, val);
  t.addr = p.since(m);
  t.load = global ? p.ld_global(val, addr, 4) : p.ld_shared(val, addr, 4);
  m = p.here();
  p.isetp(inclusive ? "GT.U32" : "GE.U32", val, key);  // no move when data > (>=) key
  p.raw("SEL", {pos}, {pos, next});
  p.shr(s, s);
  p.isetp("NE", s, rz);
  t.step = p.since(m);
  t.back = p.bra();
  return t;
}

// Emits `trips` trips of a search loop for the lanes in `mask`; probe(l, k) is the address
// lane l loads on trip k.
template <class F>
void emit_search(warp_emitter& e, const search_trip& t, std::uint32_t mask, unsigned trips,
                 F&& probe) {
  for (unsigned k = 0; k < trips; ++k) {
    e.run(t.addr, mask);
    e.mem_fn(t.load, mask, [&](unsigned l) { return probe(l, k); });
    e.run(t.step, mask);
    e.run(t.back, k + 1 < trips ? mask : 0u);
  }
}

struct sort_arrays {
  std::uint64_t n = 0;
  std::uint64_t ranks_a = 0, ranks_b = 0, limits_a = 0, limits_b = 0;
};

// mergeSortSharedKernel<1>: sorts keys[b*1024 .. +1024) of every TB in place (as d_DstKey
// holds them after the kernel).
void launch_shared_sort(app_builder& app, std::vector<std::uint32_t>& keys, std::uint64_t dst_key,
                        std::uint64_t dst_val, std::uint64_t src_key, std::uint64_t src_val) {
  program p(app.opcodes(), 26);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.imad(3, 2, rz, 0);  // blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x
  p.address(4, 3, rz);  // d_SrcKey
  p.address(6, 3, rz);  // d_SrcVal
  const code head = p.since(m);
  const code ld_k0 = p.ld_global(8, 4, 4);
  const code ld_v0 = p.ld_global(9, 6, 4);
  const code ld_k1 = p.ld_global(10, 4, 4);  // [+ SHARED_SIZE_LIMIT / 2]
  const code ld_v1 = p.ld_global(11, 6, 4);
  const code s_index = p.shl(12, 0);
  const code sts_k0 = p.st_shared(12, 8, 4);
  const code sts_v0 = p.st_shared(12, 9, 4);
  const code sts_k1 = p.st_shared(12, 10, 4);
  const code sts_v1 = p.st_shared(12, 11, 4);
  m = p.here();
  p.mov(13);                  // stride = 1
  p.isetp("GE.U32", 13, rz);  // stride < arrayLength
  const code loop_init = p.since(m);
  m = p.here();
  p.iadd(14, 13, rz);     // stride - 1
  lop_and(p, 15, 0, 14);  // lPos
  p.iadd(16, 0, 15);      // threadIdx.x - lPos
  p.shl(16, 16);          // base = 2 * (threadIdx.x - lPos)
  p.iadd(17, 16, 15);     // base + lPos
  p.iadd(18, 17, 13);     // + stride
  p.shl(17, 17);
  p.shl(18, 18);
  const code loop_index = p.since(m);
  const code bar_load = p.bar_sync();
  const code lds_ka = p.ld_shared(8, 17, 4);
  const code lds_va = p.ld_shared(9, 17, 4);
  const code lds_kb = p.ld_shared(10, 18, 4);
  const code lds_vb = p.ld_shared(11, 18, 4);
  m = p.here();
  p.isetp("EQ", 13, rz);  // L == 0
  p.mov(19);              // pos = 0
  p.raw("MOV", {20}, {13});
  p.iadd(23, 16, 13);  // base + stride: data of the A search (the B half)
  p.iadd(23, 23, rz);  // - 1
  const code search_a_init = p.since(m);
  const search_trip trip_a = build_search_trip(p, false, false, 19, 20, 21, 21, 22, 8, 13, 23);
  m = p.here();
  p.iadd(19, 19, 15);  // posA += lPos
  p.isetp("EQ", 13, rz);
  p.mov(3);  // pos = 0
  p.raw("MOV", {20}, {13});
  p.iadd(23, 16, rz);  // base - 1
  const code search_b_init = p.since(m);
  const search_trip trip_b = build_search_trip(p, false, true, 3, 20, 21, 21, 22, 10, 13, 23);
  m = p.here();
  p.iadd(3, 3, 15);  // posB += lPos
  p.iadd(21, 16, 19);
  p.iadd(22, 16, 3);
  p.shl(21, 21);
  p.shl(22, 22);
  const code store_index = p.since(m);
  const code bar_store = p.bar_sync();
  const code sts_ka = p.st_shared(21, 8, 4);
  const code sts_va = p.st_shared(21, 9, 4);
  const code sts_kb = p.st_shared(22, 10, 4);
  const code sts_vb = p.st_shared(22, 11, 4);
  m = p.here();
  p.shl(13, 13);
  p.isetp("LT.U32", 13, rz);
  const code loop_step = p.since(m);
  const code loop_back = p.bra();
  const code bar_out = p.bar_sync();
  const code lds_k0 = p.ld_shared(8, 12, 4);
  const code lds_v0 = p.ld_shared(9, 12, 4);
  const code lds_k1 = p.ld_shared(10, 12, 4);
  const code lds_v1 = p.ld_shared(11, 12, 4);
  m = p.here();
  p.imad(3, 2, rz, 0);
  p.address(4, 3, rz);  // d_DstKey
  p.address(6, 3, rz);  // d_DstVal
  const code out_index = p.since(m);
  const code stg_k0 = p.st_global(4, 8, 4);
  const code stg_v0 = p.st_global(6, 9, 4);
  const code stg_k1 = p.st_global(4, 10, 4);
  const code stg_v1 = p.st_global(6, 11, 4);
  const code done = p.exit();
  p.bra();

  const auto grid = std::uint32_t(keys.size() / shared_size_limit);
  const kernel_info info =
      app.kernel("_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j", app.reserve_kernel_id(),
                 dim3{grid, 1, 1}, dim3{sort_threads, 1, 1}, 2 * 4 * shared_size_limit, p);
  std::vector<std::uint32_t> s(shared_size_limit), next(shared_size_limit);
  // Per thread: the probes of both searches (at most 10 each) and the merged positions.
  std::vector<std::array<std::uint32_t, 10>> probe_a(sort_threads), probe_b(sort_threads);
  std::vector<std::uint32_t> pos_a(sort_threads), pos_b(sort_threads), base(sort_threads),
      lpos(sort_threads);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t first = std::uint64_t(tb.index.x) * shared_size_limit;
    std::copy(keys.begin() + first, keys.begin() + first + shared_size_limit, s.begin());
    std::vector<warp_emitter> e;
    e.reserve(tb.warps.size());
    for (auto& w : tb.warps) e.emplace_back(p, w);
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      auto gl = [&](std::uint64_t arr, std::uint64_t off) {
        return [=](unsigned l) { return arr + 4 * (first + 32 * w + l + off); };
      };
      auto sh = [&](std::uint64_t off) {
        return [=](unsigned l) { return off + 4 * (32 * w + l); };
      };
      e[w].run(head, full);
      e[w].mem_fn(ld_k0, full, gl(src_key, 0));
      e[w].mem_fn(ld_v0, full, gl(src_val, 0));
      e[w].mem_fn(ld_k1, full, gl(src_key, sort_threads));
      e[w].mem_fn(ld_v1, full, gl(src_val, sort_threads));
      e[w].run(s_index, full);
      e[w].mem_fn(sts_k0, full, sh(0));
      e[w].mem_fn(sts_v0, full, sh(sort_val_base));
      e[w].mem_fn(sts_k1, full, sh(4 * sort_threads));
      e[w].mem_fn(sts_v1, full, sh(sort_val_base + 4 * sort_threads));
      e[w].run(loop_init, full);
    }
    for (std::uint32_t stride = 1; stride < shared_size_limit; stride <<= 1) {
      const unsigned trips = log2_of(stride) + 1;
      for (std::uint32_t t = 0; t < sort_threads; ++t) {
        lpos[t] = t & (stride - 1);
        base[t] = 2 * (t - lpos[t]);
        const std::uint32_t key_a = s[base[t] + lpos[t]], key_b = s[base[t] + lpos[t] + stride];
        pos_a[t] =
            binary_search(false, key_a, &s[base[t] + stride], stride, stride, probe_a[t].data()) +
            lpos[t];
        pos_b[t] =
            binary_search(true, key_b, &s[base[t]], stride, stride, probe_b[t].data()) + lpos[t];
      }
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter& x = e[w];
        auto at = [&, w](std::uint64_t off, const std::vector<std::uint32_t>& idx,
                         std::uint32_t plus) {
          const std::vector<std::uint32_t>* v = &idx;
          return [&, v, w, off, plus](unsigned l) {
            const std::uint32_t t = 32 * w + l;
            return off + 4 * (base[t] + (*v)[t] + plus);
          };
        };
        x.run(loop_index, full);
        x.run(bar_load, full);
        x.mem_fn(lds_ka, full, at(0, lpos, 0));
        x.mem_fn(lds_va, full, at(sort_val_base, lpos, 0));
        x.mem_fn(lds_kb, full, at(0, lpos, stride));
        x.mem_fn(lds_vb, full, at(sort_val_base, lpos, stride));
        x.run(search_a_init, full);
        emit_search(x, trip_a, full, trips, [&](unsigned l, unsigned k) {
          const std::uint32_t t = 32 * w + l;
          return 4ull * (base[t] + stride + probe_a[t][k]);
        });
        x.run(search_b_init, full);
        emit_search(x, trip_b, full, trips, [&](unsigned l, unsigned k) {
          const std::uint32_t t = 32 * w + l;
          return 4ull * (base[t] + probe_b[t][k]);
        });
        x.run(store_index, full);
        x.run(bar_store, full);
        x.mem_fn(sts_ka, full, at(0, pos_a, 0));
        x.mem_fn(sts_va, full, at(sort_val_base, pos_a, 0));
        x.mem_fn(sts_kb, full, at(0, pos_b, 0));
        x.mem_fn(sts_vb, full, at(sort_val_base, pos_b, 0));
        x.run(loop_step, full);
        x.run(loop_back, 2 * stride < shared_size_limit ? full : 0u);
      }
      for (std::uint32_t t = 0; t < sort_threads; ++t) {
        next[base[t] + pos_a[t]] = s[base[t] + lpos[t]];
        next[base[t] + pos_b[t]] = s[base[t] + lpos[t] + stride];
      }
      s.swap(next);
    }
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      auto gl = [&](std::uint64_t arr, std::uint64_t off) {
        return [=](unsigned l) { return arr + 4 * (first + 32 * w + l + off); };
      };
      auto sh = [&](std::uint64_t off) {
        return [=](unsigned l) { return off + 4 * (32 * w + l); };
      };
      e[w].run(bar_out, full);
      e[w].mem_fn(lds_k0, full, sh(0));
      e[w].mem_fn(lds_v0, full, sh(sort_val_base));
      e[w].mem_fn(lds_k1, full, sh(4 * sort_threads));
      e[w].mem_fn(lds_v1, full, sh(sort_val_base + 4 * sort_threads));
      e[w].run(out_index, full);
      e[w].mem_fn(stg_k0, full, gl(dst_key, 0));
      e[w].mem_fn(stg_v0, full, gl(dst_val, 0));
      e[w].mem_fn(stg_k1, full, gl(dst_key, sort_threads));
      e[w].mem_fn(stg_v1, full, gl(dst_val, sort_threads));
      e[w].run(done, full);
    }
    std::copy(s.begin(), s.end(), keys.begin() + first);
  });
}

// Lanes of warp w whose pos = blockIdx.x * 256 + threadIdx.x is below `count`.
std::uint32_t live_below(std::uint64_t first, std::uint64_t count) {
  if (first >= count) return 0;
  return count - first >= 32 ? full : (1u << (count - first)) - 1;
}

// generateSampleRanksKernel<1>: fills ranks_a / ranks_b (N / 128 entries each).
void launch_sample_ranks(app_builder& app, const sort_arrays& a,
                         const std::vector<std::uint32_t>& keys, std::uint64_t src_key,
                         std::uint32_t stride, std::vector<std::uint32_t>& ranks_a,
                         std::vector<std::uint32_t>& ranks_b) {
  const std::uint64_t n = a.n;
  const std::uint32_t samples = stride / sample_stride;  // per run (N a power of two)
  const std::uint64_t thread_count = n / (2 * sample_stride);
  program p(app.opcodes(), 26);
  auto m = p.here();
  p.global_index_1d();  // R3 = pos
  p.isetp("GE.U32", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.mov(4);  // stride
  p.shr(5, 4);
  p.iadd(5, 5, rz);     // stride / SAMPLE_STRIDE - 1
  lop_and(p, 6, 3, 5);  // i
  p.iadd(7, 3, 6);      // pos - i
  p.shl(7, 7);          // segmentBase
  p.shr(8, 7);
  p.iadd(8, 8, 6);  // segmentBase / SAMPLE_STRIDE + i
  p.iadd(9, 7, 4);
  p.iadd(9, 9, rz);  // N - segmentBase - stride
  umin(p, 9, 9, 4);  // segmentElementsB
  p.iadd(10, 9, rz);
  p.shr(10, 10);            // segmentSamplesB
  p.isetp("GE.U32", 6, 5);  // i < segmentSamplesA
  const code setup = p.since(m);
  // A sample: RanksA[i] = i * SAMPLE_STRIDE, RanksB[i] = rank of its key in B.
  m = p.here();
  p.address(12, 8, rz);  // &d_RanksA[..]
  p.shl(14, 6);          // i * SAMPLE_STRIDE
  const code a_index = p.since(m);
  const code st_a_self = p.st_global(12, 14, 4);
  m = p.here();
  p.iadd(15, 7, 14);
  p.address(16, 15, rz);
  const code a_key_addr = p.since(m);
  const code ld_a_key = p.ld_global(18, 16, 4);
  m = p.here();
  next_pow2(p, 20, 9);
  p.isetp("EQ", 9, rz);
  p.mov(19);  // pos = 0
  p.iadd(21, 7, 4);
  p.iadd(21, 21, rz);  // segmentBase + stride - 1
  const code a_search_init = p.since(m);
  const search_trip trip_a = build_search_trip(p, true, false, 19, 20, 22, 24, 23, 18, 9, 21);
  const code a_out_addr = p.address(12, 8, rz);  // &d_RanksB[..]
  const code st_a_rank = p.st_global(12, 19, 4);
  // B sample: RanksB[S + i] = i * SAMPLE_STRIDE, RanksA[S + i] = rank of its key in A.
  const code b_cmp = p.isetp("GE.U32", 6, 10);  // i < segmentSamplesB
  m = p.here();
  p.iadd(11, 8, 5);
  p.iadd(11, 11, rz);  // + stride / SAMPLE_STRIDE
  p.address(12, 11, rz);
  const code b_index = p.since(m);
  const code st_b_self = p.st_global(12, 14, 4);
  m = p.here();
  p.iadd(15, 15, 4);
  p.address(16, 15, rz);
  const code b_key_addr = p.since(m);
  const code ld_b_key = p.ld_global(18, 16, 4);
  m = p.here();
  next_pow2(p, 20, 4);
  p.mov(19);
  p.iadd(21, 7, rz);  // segmentBase - 1
  const code b_search_init = p.since(m);
  const search_trip trip_b = build_search_trip(p, true, true, 19, 20, 22, 24, 23, 18, 4, 21);
  const code b_out_addr = p.address(12, 11, rz);
  const code st_b_rank = p.st_global(12, 19, 4);
  const code done = p.exit();
  p.bra();

  const auto grid = std::uint32_t((thread_count + 255) / 256);
  const kernel_info info =
      app.kernel("_Z25generateSampleRanksKernelILj1EEvPjS0_S0_jjj", app.reserve_kernel_id(),
                 dim3{grid, 1, 1}, dim3{256, 1, 1}, 0, p);
  const unsigned trips = log2_of(stride) + 1;
  struct lane {
    std::uint64_t seg = 0;  // segmentBase
    std::uint32_t i = 0;
    std::array<std::uint32_t, 32> pa{}, pb{};
  };
  std::array<lane, 32> ln;
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const std::uint64_t first = 256ull * tb.index.x + 32 * w;
      const std::uint32_t act = live_below(first, thread_count);
      for (unsigned l = 0; l < 32; ++l) {
        if (!(act >> l & 1u)) continue;
        const std::uint64_t pos = first + l;
        lane& x = ln[l];
        x.i = std::uint32_t(pos & (samples - 1));
        x.seg = (pos - x.i) * 2 * sample_stride;
        const std::uint32_t* run_a = &keys[x.seg];
        const std::uint32_t* run_b = run_a + stride;
        const std::uint64_t r = x.seg / sample_stride + x.i;
        ranks_a[r] = x.i * sample_stride;
        ranks_b[r] =
            binary_search(false, run_a[x.i * sample_stride], run_b, stride, stride, x.pa.data());
        ranks_b[r + samples] = x.i * sample_stride;
        ranks_a[r + samples] =
            binary_search(true, run_b[x.i * sample_stride], run_a, stride, stride, x.pb.data());
      }
      auto rank_at = [&](std::uint64_t arr, std::uint64_t plus) {
        return [&, arr, plus](unsigned l) {
          return arr + 4 * (ln[l].seg / sample_stride + ln[l].i + plus);
        };
      };
      e.run(head, full);
      e.run(exit_oob, full & ~act);
      e.run(setup, act);
      e.run(a_index, act);
      e.mem_fn(st_a_self, act, rank_at(a.ranks_a, 0));
      e.run(a_key_addr, act);
      e.mem_fn(ld_a_key, act,
               [&](unsigned l) { return src_key + 4 * (ln[l].seg + ln[l].i * sample_stride); });
      e.run(a_search_init, act);
      emit_search(e, trip_a, act, trips, [&](unsigned l, unsigned k) {
        return src_key + 4 * (ln[l].seg + stride + ln[l].pa[k]);
      });
      e.run(a_out_addr, act);
      e.mem_fn(st_a_rank, act, rank_at(a.ranks_b, 0));
      e.run(b_cmp, act);
      e.run(b_index, act);
      e.mem_fn(st_b_self, act, rank_at(a.ranks_b, samples));
      e.run(b_key_addr, act);
      e.mem_fn(ld_b_key, act, [&](unsigned l) {
        return src_key + 4 * (ln[l].seg + stride + ln[l].i * sample_stride);
      });
      e.run(b_search_init, act);
      emit_search(e, trip_b, act, trips,
                  [&](unsigned l, unsigned k) { return src_key + 4 * (ln[l].seg + ln[l].pb[k]); });
      e.run(b_out_addr, act);
      e.mem_fn(st_b_rank, act, rank_at(a.ranks_a, samples));
      e.run(done, act);
    }
  });
}

// mergeRanksAndIndicesKernel on one ranks array (A or B): limits[2 * (pos - i) + ...].
void launch_merge_ranks(app_builder& app, std::uint64_t n, std::uint32_t stride,
                        std::uint64_t limits_addr, std::uint64_t ranks_addr,
                        const std::vector<std::uint32_t>& ranks,
                        std::vector<std::uint32_t>& limits) {
  const std::uint32_t samples = stride / sample_stride;
  const std::uint64_t thread_count = n / (2 * sample_stride);
  program p(app.opcodes(), 26);
  auto m = p.here();
  p.global_index_1d();
  p.isetp("GE.U32", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.mov(4);  // stride
  p.shr(5, 4);
  p.iadd(5, 5, rz);
  lop_and(p, 6, 3, 5);  // i
  p.iadd(7, 3, 6);
  p.shl(7, 7);  // 2 * (pos - i): first rank / limit of the segment
  p.iadd(9, 7, rz);
  umin(p, 9, 9, 4);
  p.iadd(10, 9, rz);
  p.shr(10, 10);            // segmentSamplesB
  p.isetp("GE.U32", 6, 5);  // i < segmentSamplesA
  const code setup = p.since(m);
  m = p.here();
  p.iadd(11, 7, 6);
  p.address(12, 11, rz);  // &d_Ranks[i]
  const code a_addr = p.since(m);
  const code ld_a = p.ld_global(18, 12, 4);
  m = p.here();
  next_pow2(p, 20, 10);
  p.isetp("EQ", 10, rz);
  p.mov(19);
  p.iadd(21, 7, 5);  // d_Ranks + segmentSamplesA, - 1
  const code a_search_init = p.since(m);
  const search_trip trip_a = build_search_trip(p, true, false, 19, 20, 22, 24, 23, 18, 10, 21);
  m = p.here();
  p.iadd(19, 19, 6);  // dstPos
  p.iadd(19, 19, 7);
  p.address(12, 19, rz);  // &d_Limits[dstPos]
  const code a_out = p.since(m);
  const code st_a = p.st_global(12, 18, 4);
  const code b_cmp = p.isetp("GE.U32", 6, 10);  // i < segmentSamplesB
  m = p.here();
  p.iadd(11, 11, 5);
  p.iadd(11, 11, rz);
  p.address(12, 11, rz);  // &d_Ranks[segmentSamplesA + i]
  const code b_addr = p.since(m);
  const code ld_b = p.ld_global(18, 12, 4);
  m = p.here();
  next_pow2(p, 20, 5);
  p.mov(19);
  p.iadd(21, 7, rz);
  const code b_search_init = p.since(m);
  const search_trip trip_b = build_search_trip(p, true, true, 19, 20, 22, 24, 23, 18, 5, 21);
  m = p.here();
  p.iadd(19, 19, 6);
  p.iadd(19, 19, 7);
  p.address(12, 19, rz);
  const code b_out = p.since(m);
  const code st_b = p.st_global(12, 18, 4);
  const code done = p.exit();
  p.bra();

  const auto grid = std::uint32_t((thread_count + 255) / 256);
  const kernel_info info =
      app.kernel("_Z26mergeRanksAndIndicesKernelPjS_jjj", app.reserve_kernel_id(), dim3{grid, 1, 1},
                 dim3{256, 1, 1}, 0, p);
  const unsigned trips = log2_of(samples) + 1;
  struct lane {
    std::uint64_t seg = 0;  // 2 * (pos - i)
    std::uint32_t i = 0, dst_a = 0, dst_b = 0;
    std::array<std::uint32_t, 32> pa{}, pb{};
  };
  std::array<lane, 32> ln;
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const std::uint64_t first = 256ull * tb.index.x + 32 * w;
      const std::uint32_t act = live_below(first, thread_count);
      for (unsigned l = 0; l < 32; ++l) {
        if (!(act >> l & 1u)) continue;
        const std::uint64_t pos = first + l;
        lane& x = ln[l];
        x.i = std::uint32_t(pos & (samples - 1));
        x.seg = 2 * (pos - x.i);
        const std::uint32_t* r = &ranks[x.seg];
        x.dst_a = binary_search(false, r[x.i], r + samples, samples, samples, x.pa.data()) + x.i;
        x.dst_b = binary_search(true, r[samples + x.i], r, samples, samples, x.pb.data()) + x.i;
        limits[x.seg + x.dst_a] = r[x.i];
        limits[x.seg + x.dst_b] = r[samples + x.i];
      }
      e.run(head, full);
      e.run(exit_oob, full & ~act);
      e.run(setup, act);
      e.run(a_addr, act);
      e.mem_fn(ld_a, act, [&](unsigned l) { return ranks_addr + 4 * (ln[l].seg + ln[l].i); });
      e.run(a_search_init, act);
      emit_search(e, trip_a, act, trips, [&](unsigned l, unsigned k) {
        return ranks_addr + 4 * (ln[l].seg + samples + ln[l].pa[k]);
      });
      e.run(a_out, act);
      e.mem_fn(st_a, act, [&](unsigned l) { return limits_addr + 4 * (ln[l].seg + ln[l].dst_a); });
      e.run(b_cmp, act);
      e.run(b_addr, act);
      e.mem_fn(ld_b, act,
               [&](unsigned l) { return ranks_addr + 4 * (ln[l].seg + samples + ln[l].i); });
      e.run(b_search_init, act);
      emit_search(e, trip_b, act, trips, [&](unsigned l, unsigned k) {
        return ranks_addr + 4 * (ln[l].seg + ln[l].pb[k]);
      });
      e.run(b_out, act);
      e.mem_fn(st_b, act, [&](unsigned l) { return limits_addr + 4 * (ln[l].seg + ln[l].dst_b); });
      e.run(done, act);
    }
  });
}

// mergeElementaryIntervalsKernel<1>: merges keys (runs of `stride`) into `out`.
void launch_merge_intervals(app_builder& app, const sort_arrays& a, std::uint32_t stride,
                            const std::vector<std::uint32_t>& keys,
                            const std::vector<std::uint32_t>& limits_a,
                            const std::vector<std::uint32_t>& limits_b,
                            std::vector<std::uint32_t>& out, std::uint64_t dst_key,
                            std::uint64_t dst_val, std::uint64_t src_key, std::uint64_t src_val) {
  const std::uint64_t n = a.n;
  const std::uint32_t segment_samples = 2 * (stride / sample_stride);
  program p(app.opcodes(), 26);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.mov(3);  // stride
  p.shr(4, 3);
  p.shl(4, 4);
  p.iadd(4, 4, rz);     // (2 * stride) / SAMPLE_STRIDE - 1
  lop_and(p, 5, 2, 4);  // intervalI
  p.iadd(6, 2, 5);
  p.shl(6, 6);  // segmentBase
  p.isetp("NE", 0, rz);
  const code head = p.since(m);
  const code skip_params = p.bra();  // threads other than 0
  m = p.here();
  p.iadd(7, 6, 3);
  p.iadd(7, 7, rz);
  umin(p, 7, 7, 3);      // segmentElementsB
  p.address(8, 2, rz);   // &d_LimitsA[blockIdx.x]
  p.address(10, 2, rz);  // &d_LimitsB[blockIdx.x]
  const code t0_addr = p.since(m);
  const code ld_start_a = p.ld_global(12, 8, 4);
  const code ld_start_b = p.ld_global(13, 10, 4);
  m = p.here();
  p.iadd(14, 5, rz);
  p.isetp("GE.U32", 14, rz);  // intervalI + 1 < segmentSamples
  const code t0_cmp = p.since(m);
  const code ld_end_a = p.ld_global(15, 8, 4);  // @!P0 [+4]
  const code ld_end_b = p.ld_global(16, 10, 4);
  m = p.here();
  p.raw("SEL", {15}, {15, 3});
  p.raw("SEL", {16}, {16, 7});
  p.iadd(15, 15, 12);  // lenSrcA
  p.iadd(16, 16, 13);  // lenSrcB
  p.iadd(17, 12, 13);  // startDstA
  p.iadd(18, 17, 15);  // startDstB
  const code t0_lens = p.since(m);
  const code sts_param[6] = {p.raw("STS", {}, {12}, 4), p.raw("STS", {}, {13}, 4),
                             p.raw("STS", {}, {15}, 4), p.raw("STS", {}, {16}, 4),
                             p.raw("STS", {}, {17}, 4), p.raw("STS", {}, {18}, 4)};
  const code bar_params = p.bar_sync();
  // The shared parameters: word k at interval_params + 4 k.
  const code lds_start_a = p.raw("LDS", {12}, {}, 4);
  const code lds_start_b = p.raw("LDS", {13}, {}, 4);
  const code lds_len_a = p.raw("LDS", {15}, {}, 4);
  const code lds_len_b = p.raw("LDS", {16}, {}, 4);
  m = p.here();
  p.shl(19, 0);  // threadIdx.x * 4
  p.isetp("GE.U32", 0, 15);
  const code load_a_cmp = p.since(m);
  const code skip_load_a = p.bra();
  m = p.here();
  p.iadd(7, 6, 12);
  p.iadd(7, 7, 0);
  p.address(8, 7, rz);
  p.address(10, 7, rz);
  const code load_a_addr = p.since(m);
  const code ldg_ka = p.ld_global(20, 8, 4);
  const code ldg_va = p.ld_global(21, 10, 4);
  const code sts_ka = p.st_shared(19, 20, 4);
  const code sts_va = p.st_shared(19, 21, 4);
  const code load_b_cmp = p.isetp("GE.U32", 0, 16);
  const code skip_load_b = p.bra();
  m = p.here();
  p.iadd(7, 6, 3);
  p.iadd(7, 7, 13);
  p.iadd(7, 7, 0);
  p.address(8, 7, rz);
  p.address(10, 7, rz);
  const code load_b_addr = p.since(m);
  const code ldg_kb = p.ld_global(20, 8, 4);
  const code ldg_vb = p.ld_global(21, 10, 4);
  const code sts_kb = p.st_shared(19, 20, 4);
  const code sts_vb = p.st_shared(19, 21, 4);
  const code bar_merge = p.bar_sync();
  const code lds_merge_len_a = p.raw("LDS", {15}, {}, 4);
  const code lds_merge_len_b = p.raw("LDS", {16}, {}, 4);
  // merge(): the A element's rank in B (exclusive), then the B element's rank in A.
  struct unrolled {
    code cmp, skip, lds_key, lds_val, empty;
    std::array<code, merge_probes> addr, load, step;
    code post;
  };
  auto build_merge_search = [&](bool inclusive, reg len, reg other_len, reg key) {
    unrolled u;
    u.cmp = p.isetp("GE.U32", 0, len);
    u.skip = p.bra();
    u.lds_key = p.ld_shared(key, 19, 4);
    u.lds_val = p.ld_shared(reg(key + 1), 19, 4);
    auto mk = p.here();
    p.isetp("EQ", other_len, rz);  // L == 0: no search
    p.mov(22);                     // pos = 0
    u.empty = p.since(mk);
    for (unsigned k = 0; k < merge_probes; ++k) {
      mk = p.here();
      p.iadd(23, 22, rz);  // pos + stride (an immediate: unrolled)
      umin(p, 23, 23, other_len);
      p.shl(24, 23);  // byte offset of data[newPos]; the load takes [R24 + data - 4]
      u.addr[k] = p.since(mk);
      u.load[k] = p.ld_shared(24, 24, 4);
      mk = p.here();
      p.isetp(inclusive ? "GT.U32" : "GE.U32", 24, key);
      p.raw("SEL", {22}, {22, 23});
      u.step[k] = p.since(mk);
    }
    u.post = p.iadd(inclusive ? 25 : 26, 22, 0);  // dstPos = pos + threadIdx.x
    return u;
  };
  const unrolled merge_a = build_merge_search(false, 15, 16, 20);
  const unrolled merge_b = build_merge_search(true, 16, 15, 27);
  const code bar_scatter = p.bar_sync();
  m = p.here();
  p.isetp("GE.U32", 0, 15);
  p.shl(26, 26);
  const code scatter_a_index = p.since(m);
  const code sts_sa = p.st_shared(26, 20, 4);
  const code sts_sva = p.st_shared(26, 21, 4);
  m = p.here();
  p.isetp("GE.U32", 0, 16);
  p.shl(25, 25);
  const code scatter_b_index = p.since(m);
  const code sts_sb = p.st_shared(25, 27, 4);
  const code sts_svb = p.st_shared(25, 28, 4);
  const code bar_store = p.bar_sync();
  const code lds_dst_a = p.raw("LDS", {17}, {}, 4);
  const code lds_dst_b = p.raw("LDS", {18}, {}, 4);
  const code lds_out_len_a = p.raw("LDS", {15}, {}, 4);
  const code lds_out_len_b = p.raw("LDS", {16}, {}, 4);
  const code store_a_cmp = p.isetp("GE.U32", 0, 15);
  const code lds_oka = p.ld_shared(20, 19, 4);
  const code lds_ova = p.ld_shared(21, 19, 4);
  m = p.here();
  p.iadd(7, 6, 17);
  p.iadd(7, 7, 0);
  p.address(8, 7, rz);
  p.address(10, 7, rz);
  const code store_a_addr = p.since(m);
  const code stg_ka = p.st_global(8, 20, 4);
  const code stg_va = p.st_global(10, 21, 4);
  const code store_b_cmp = p.isetp("GE.U32", 0, 16);
  m = p.here();
  p.iadd(25, 15, 0);
  p.shl(25, 25);
  const code store_b_index = p.since(m);
  const code lds_okb = p.ld_shared(20, 25, 4);
  const code lds_ovb = p.ld_shared(21, 25, 4);
  m = p.here();
  p.iadd(7, 6, 18);
  p.iadd(7, 7, 0);
  p.address(8, 7, rz);
  p.address(10, 7, rz);
  const code store_b_addr = p.since(m);
  const code stg_kb = p.st_global(8, 20, 4);
  const code stg_vb = p.st_global(10, 21, 4);
  const code done = p.exit();
  p.bra();

  const auto grid = std::uint32_t(n / sample_stride);
  const kernel_info info = app.kernel(
      "_Z30mergeElementaryIntervalsKernelILj1EEvPjS0_S0_S0_S0_S0_jj", app.reserve_kernel_id(),
      dim3{grid, 1, 1}, dim3{interval_threads, 1, 1}, std::uint32_t(interval_params + 6 * 4), p);
  std::array<std::uint32_t, 2 * sample_stride> s{}, merged{};
  std::array<std::array<std::uint32_t, merge_probes>, interval_threads> probe_a{}, probe_b{};
  std::array<std::uint32_t, interval_threads> dst_a{}, dst_b{};
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint32_t b = tb.index.x;
    const std::uint32_t interval = b & (segment_samples - 1);
    const std::uint64_t seg = std::uint64_t(b - interval) * sample_stride;
    const std::uint32_t start_a = limits_a[b], start_b = limits_b[b];
    const bool has_end = interval + 1 < segment_samples;
    const std::uint32_t end_a = has_end ? limits_a[b + 1] : stride;
    const std::uint32_t end_b = has_end ? limits_b[b + 1] : stride;
    const std::uint32_t len_a = end_a - start_a, len_b = end_b - start_b;
    const std::uint32_t dst_start_a = start_a + start_b, dst_start_b = dst_start_a + len_a;
    for (std::uint32_t t = 0; t < len_a; ++t) s[t] = keys[seg + start_a + t];
    for (std::uint32_t t = 0; t < len_b; ++t)
      s[sample_stride + t] = keys[seg + stride + start_b + t];
    for (std::uint32_t t = 0; t < len_a; ++t)
      dst_a[t] =
          binary_search(false, s[t], &s[sample_stride], len_b, sample_stride, probe_a[t].data()) +
          t;
    for (std::uint32_t t = 0; t < len_b; ++t)
      dst_b[t] = binary_search(true, s[sample_stride + t], &s[0], len_a, sample_stride,
                               probe_b[t].data()) +
                 t;
    for (std::uint32_t t = 0; t < len_a; ++t) merged[dst_a[t]] = s[t];
    for (std::uint32_t t = 0; t < len_b; ++t) merged[dst_b[t]] = s[sample_stride + t];
    for (std::uint32_t j = 0; j < len_a + len_b; ++j) out[seg + dst_start_a + j] = merged[j];

    auto below = [](std::uint32_t w, std::uint32_t len) { return live_below(32ull * w, len); };
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const std::uint32_t t0 = w == 0 ? 1u : 0u;
      const std::uint32_t in_a = below(w, len_a), in_b = below(w, len_b);
      auto word = [](unsigned k) { return [k](unsigned) { return interval_params + 4ull * k; }; };
      auto tid_at = [w](std::uint64_t off) {
        return [w, off](unsigned l) { return off + 4ull * (32 * w + l); };
      };
      auto gl = [&, w](std::uint64_t arr, std::uint64_t at) {
        return [=](unsigned l) { return arr + 4 * (at + 32 * w + l); };
      };
      e.run(head, full);
      e.run(skip_params, full & ~t0);
      e.run(t0_addr, t0);
      e.mem_fn(ld_start_a, t0, [&](unsigned) { return a.limits_a + 4ull * b; });
      e.mem_fn(ld_start_b, t0, [&](unsigned) { return a.limits_b + 4ull * b; });
      e.run(t0_cmp, t0);
      e.mem_fn(ld_end_a, has_end ? t0 : 0u, [&](unsigned) { return a.limits_a + 4ull * (b + 1); });
      e.mem_fn(ld_end_b, has_end ? t0 : 0u, [&](unsigned) { return a.limits_b + 4ull * (b + 1); });
      e.run(t0_lens, t0);
      for (unsigned k = 0; k < 6; ++k) e.mem_fn(sts_param[k], t0, word(k));
      e.run(bar_params, full);
      e.mem_fn(lds_start_a, full, word(0));
      e.mem_fn(lds_start_b, full, word(1));
      e.mem_fn(lds_len_a, full, word(2));
      e.mem_fn(lds_len_b, full, word(3));
      // Load the A and B pieces into s_key / s_val.
      e.run(load_a_cmp, full);
      e.run(skip_load_a, full & ~in_a);
      e.run(load_a_addr, in_a);
      e.mem_fn(ldg_ka, in_a, gl(src_key, seg + start_a));
      e.mem_fn(ldg_va, in_a, gl(src_val, seg + start_a));
      e.mem_fn(sts_ka, in_a, tid_at(0));
      e.mem_fn(sts_va, in_a, tid_at(interval_val_base));
      e.run(load_b_cmp, full);
      e.run(skip_load_b, full & ~in_b);
      e.run(load_b_addr, in_b);
      e.mem_fn(ldg_kb, in_b, gl(src_key, seg + stride + start_b));
      e.mem_fn(ldg_vb, in_b, gl(src_val, seg + stride + start_b));
      e.mem_fn(sts_kb, in_b, tid_at(4 * sample_stride));
      e.mem_fn(sts_vb, in_b, tid_at(interval_val_base + 4 * sample_stride));
      e.run(bar_merge, full);
      e.mem_fn(lds_merge_len_a, full, word(2));
      e.mem_fn(lds_merge_len_b, full, word(3));
      auto search =
          [&](const unrolled& u, std::uint32_t mask, std::uint32_t other_len, std::uint64_t own_off,
              std::uint64_t data_off,
              const std::array<std::array<std::uint32_t, merge_probes>, interval_threads>& pr) {
            e.run(u.cmp, full);
            e.run(u.skip, full & ~mask);
            e.mem_fn(u.lds_key, mask, tid_at(own_off));
            e.mem_fn(u.lds_val, mask, tid_at(interval_val_base + own_off));
            e.run(u.empty, mask);
            if (other_len > 0)
              for (unsigned k = 0; k < merge_probes; ++k) {
                e.run(u.addr[k], mask);
                e.mem_fn(u.load[k], mask,
                         [&, k](unsigned l) { return data_off + 4ull * pr[32 * w + l][k]; });
                e.run(u.step[k], mask);
              }
            e.run(u.post, mask);
          };
      search(merge_a, in_a, len_b, 0, 4 * sample_stride, probe_a);
      search(merge_b, in_b, len_a, 4 * sample_stride, 0, probe_b);
      e.run(bar_scatter, full);
      e.run(scatter_a_index, in_a);
      auto at_dst = [w](std::uint64_t off, const std::array<std::uint32_t, interval_threads>& d) {
        return [w, off, &d](unsigned l) { return off + 4ull * d[32 * w + l]; };
      };
      e.mem_fn(sts_sa, in_a, at_dst(0, dst_a));
      e.mem_fn(sts_sva, in_a, at_dst(interval_val_base, dst_a));
      e.run(scatter_b_index, in_b);
      e.mem_fn(sts_sb, in_b, at_dst(0, dst_b));
      e.mem_fn(sts_svb, in_b, at_dst(interval_val_base, dst_b));
      e.run(bar_store, full);
      e.mem_fn(lds_dst_a, full, word(4));
      e.mem_fn(lds_dst_b, full, word(5));
      e.mem_fn(lds_out_len_a, full, word(2));
      e.mem_fn(lds_out_len_b, full, word(3));
      e.run(store_a_cmp, full);
      e.mem_fn(lds_oka, in_a, tid_at(0));
      e.mem_fn(lds_ova, in_a, tid_at(interval_val_base));
      e.run(store_a_addr, in_a);
      e.mem_fn(stg_ka, in_a, gl(dst_key, seg + dst_start_a));
      e.mem_fn(stg_va, in_a, gl(dst_val, seg + dst_start_a));
      e.run(store_b_cmp, full);
      e.run(store_b_index, in_b);
      e.mem_fn(lds_okb, in_b, tid_at(4ull * len_a));
      e.mem_fn(lds_ovb, in_b, tid_at(interval_val_base + 4ull * len_a));
      e.run(store_b_addr, in_b);
      e.mem_fn(stg_kb, in_b, gl(dst_key, seg + dst_start_b));
      e.mem_fn(stg_vb, in_b, gl(dst_val, seg + dst_start_b));
      e.run(done, full);
    }
  });
}

void generate_mergesort(const param_set& ps, app_builder& app) {
  const std::uint64_t n = ps.u64("n");
  if ((n & (n - 1)) != 0) param_set::fail("n", "must be a power of two");
  rng r(ps.u64("seed"));
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = std::uint32_t(r.below(num_values));

  // main.cpp's cudaMallocs, then initMergeSort's.
  const std::uint64_t dst_key = app.output(4 * n), dst_val = app.output(4 * n);
  const std::uint64_t buf_key = app.output(4 * n), buf_val = app.output(4 * n);
  const std::uint64_t src_key = app.input(4 * n), src_val = app.input(4 * n);
  sort_arrays a;
  a.n = n;
  a.ranks_a = app.output(4 * max_sample_count);
  a.ranks_b = app.output(4 * max_sample_count);
  a.limits_a = app.output(4 * max_sample_count);
  a.limits_b = app.output(4 * max_sample_count);

  unsigned stages = 0;
  for (std::uint64_t stride = shared_size_limit; stride < n; stride <<= 1) ++stages;
  std::uint64_t ikey = dst_key, ival = dst_val, okey = buf_key, oval = buf_val;
  if (stages & 1u) {
    ikey = buf_key;
    ival = buf_val;
    okey = dst_key;
    oval = dst_val;
  }
  launch_shared_sort(app, keys, ikey, ival, src_key, src_val);
  std::vector<std::uint32_t> out(n), ranks_a(n / sample_stride), ranks_b(n / sample_stride);
  std::vector<std::uint32_t> limits_a(n / sample_stride), limits_b(n / sample_stride);
  for (std::uint64_t stride = shared_size_limit; stride < n; stride <<= 1) {
    const auto s = std::uint32_t(stride);
    launch_sample_ranks(app, a, keys, ikey, s, ranks_a, ranks_b);
    launch_merge_ranks(app, n, s, a.limits_a, a.ranks_a, ranks_a, limits_a);
    launch_merge_ranks(app, n, s, a.limits_b, a.ranks_b, ranks_b, limits_b);
    launch_merge_intervals(app, a, s, keys, limits_a, limits_b, out, okey, oval, ikey, ival);
    keys.swap(out);
    std::swap(ikey, okey);
    std::swap(ival, oval);
  }
}
}  // namespace

kernel_generator mergesort_generator() {
  return {"mergesort",
          "CUDA SDK mergeSort: 1024-key shared-memory sorts with binary-search merges, then per "
          "stride sample ranks, limits and elementary-interval merges (PAVER MGS)",
          {param_desc::integer(
               "n", 1u << 20, 1024, 1u << 22,
               "keys to sort (power of two; the SDK sample and the PAVER thesis sort 4194304)"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the keys (in [0, 65536))")},
          generate_mergesort};
}

}  // namespace gputlm::traces::generators
