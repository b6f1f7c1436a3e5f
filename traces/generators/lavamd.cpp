// Rodinia lavaMD (LAV; Rodinia 3.1 cuda/lavaMD: main.c, main.h, kernel/kernel_gpu_cuda.cu,
// kernel/kernel_gpu_cuda_wrapper.cu), the compute-intensive LAV of the μC-States workloads
// (Kayiran et al., "μC-States: Fine-grained GPU Datapath Power Management", PACT'16, Table
// 1): particle potentials and forces in a boxes1d^3 grid of boxes of NUMBER_PAR_PER_BOX =
// 100 particles, one launch of kernel_gpu_cuda<<<number_boxes, NUMBER_THREADS = 128>>>, one
// TB per home box bx, as the kernel indexes memory. fp is float; FOUR_VECTOR {v, x, y, z}
// is 16 bytes; box_str {int x, y, z, number; long offset; int nn; nei_str nei[26]} is 656
// bytes (offset at +16, nn at +24, nei at +32), nei_str {int x, y, z, number; long offset}
// 24 bytes (number at +12). main.c numbers box (x, y, z) as z boxes1d^2 + y boxes1d + x,
// its particles from offset = 100 number, and lists its neighbours in l (z), m (y), n (x)
// order over -1..1, skipping itself and positions outside the grid (nn = 7 at a corner, 26
// inside). Per TB:
//  - a2 = 2.0 alpha alpha (in double: F2F, DMUL, F2F); first_i = d_box_gpu[bx].offset
//    (LDG.64); threads wtx < 100 copy rA_shared[wtx] = d_rv_gpu[first_i + wtx] (4 LDG, 4
//    STS; the `while (wtx < 100) .. wtx += 128` loop runs once); __syncthreads().
//  - for k = 0 .. nn (the test reloads d_box_gpu[bx].nn every trip): pointer = bx at k = 0,
//    else d_box_gpu[bx].nei[k - 1].number (LDG); first_j = d_box_gpu[pointer].offset (LDG.64);
//    wtx < 100 copy rB_shared[wtx] = d_rv_gpu[first_j + wtx] (4 LDG, 4 STS) and qB_shared[wtx]
//    = d_qv_gpu[first_j + wtx]; __syncthreads(); wtx < 100: rA_shared[wtx] (4 LDS), fA[wtx]
//    = d_fv_gpu[first_i + wtx] (4 LDG), then for j = 0..99 rB_shared[j] (4 LDS, broadcast),
//    qB_shared[j] (LDS), r2 = rA.v + rB.v - DOT(rA, rB) (FMUL, 2 FFMA, 2 FADD), u2 = a2 r2
//    (FMUL), vij = exp(-u2), fs = 2 vij (FADD), d = rA - rB and fs d (3 FADD, 3 FMUL), fA +=
//    qB (vij, fxij, fyij, fzij) (4 FFMA); fA stored back (4 STG); __syncthreads().
// So warps 0-2 compute with all lanes, warp 3 with lanes 0-3 (threads 96-99); every warp
// meets 1 + 2 (nn + 1) barriers, and a TB runs (nn + 1) 100 x 100 exps.
//
// Where we had to choose:
// - exp(-u2) of a float is expf, as nvcc expands it without fast math: FFMA.SAT, FFMA.RM,
//   FADD, two FFMA (the reduction of x log2 e into integer and fraction), SHL of the
//   integer part into an exponent, MUFU.EX2 of the fraction (RRO.EX2 before it on Kepler and
//   Pascal), FMUL by the exponent: 8 instructions (9) and one MUFU per pair of particles.
// - fA[wtx] (global) is kept in registers across the j loop (loaded before, stored after),
//   as the compiler may: nothing else in the loop writes global memory. rA_shared[wtx] is
//   loaded once per neighbour box (after the barrier), not per j.
// - The j loop (constant trip count 100) is unrolled by 4: 25 trips of IADD, ISETP, BRA.
//   The 16-byte FOUR_VECTORs (4-byte aligned) move as four 32-bit loads and stores.
// - Static shared memory in declaration order: rA_shared (0), rB_shared (1600), qB_shared
//   (3200): 3600 bytes.
// - Device arrays in the wrapper's cudaMalloc order, each copied (MemcpyHtoD; d_fv_gpu is
//   copied too, the zeroed forces): d_box_gpu (656 number_boxes bytes), d_rv_gpu (16 x 100
//   number_boxes), d_qv_gpu (4 x 100 number_boxes), d_fv_gpu (16 x 100 number_boxes). The
//   copy back is not in the trace. par.alpha (0.5) only changes values, not the trace.
// - Rodinia's run uses -boxes1d 10: 1000 TBs, 21952 box visits, ~0.28 G warp instructions
//   (minutes of replay, a text trace of ~10 GB). The default boxes1d=6 (216 TBs, 4096 box
//   visits: 53.0 M warp instructions, 1.9 GB of text) still fills every SMX many times over
//   and replays on uc-bigcore.yaml in ~23 s; the grid keeps Rodinia's mix of corner, edge,
//   face and interior boxes (8, 48, 96 and 64 of them).
#include <array>
#include <cstdint>
#include <vector>

#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
namespace lavamd_kernels {
constexpr std::uint32_t threads = 128;      // NUMBER_THREADS
constexpr std::uint64_t par_per_box = 100;  // NUMBER_PAR_PER_BOX
constexpr std::uint64_t box_bytes = 656;    // sizeof(box_str)
constexpr std::uint64_t box_offset = 16, box_nn = 24, box_nei = 32;
constexpr std::uint64_t nei_bytes = 24, nei_number = 12;
constexpr std::uint64_t vec_bytes = 16;  // sizeof(FOUR_VECTOR)
constexpr std::uint64_t sh_ra = 0, sh_rb = 1600, sh_qb = 3200, shmem = 3600;
constexpr std::uint32_t unroll = 4;

// main.c's box list: the neighbours' numbers of box `number`, in its l, m, n order.
std::vector<std::uint64_t> neighbours(std::uint64_t number, std::uint64_t b) {
  const std::int64_t n1 = std::int64_t(b);
  const std::int64_t i = std::int64_t(number / (b * b)), j = std::int64_t(number / b % b),
                     k = std::int64_t(number % b);
  std::vector<std::uint64_t> out;
  for (std::int64_t l = -1; l <= 1; ++l)
    for (std::int64_t m = -1; m <= 1; ++m)
      for (std::int64_t n = -1; n <= 1; ++n) {
        if (l == 0 && m == 0 && n == 0) continue;
        const std::int64_t z = i + l, y = j + m, x = k + n;
        if (z < 0 || y < 0 || x < 0 || z >= n1 || y >= n1 || x >= n1) continue;
        out.push_back(std::uint64_t((z * n1 + y) * n1 + x));
      }
  return out;
}

// One j iteration: the loads of rB_shared[j] and qB_shared[j], then the arithmetic.
struct pair_code {
  std::array<code, 4> ld_rb;
  code ld_qb, math;
};

// The kernel's straight-line pieces, in program order; the comment says which threads run
// each (all: every thread of the TB; act: wtx < 100).
struct kernel_code {
  code entry, exit_early, box, ld_first_i, home_setup, home_skip;  // all; skip: wtx >= 100
  code home_index, home_sts_index, home_step;                      // act
  std::array<code, 4> ld_ra_g, st_ra;                              // act
  code bar;                                                        // all (the same BAR each time)
  code k_init, ld_nn, k_test, k_else;             // all (k_else: the branch over k == 0 when k > 0)
  code k_zero, k_nei, ld_nei;                     // k == 0: pointer = bx; k > 0: nei[k - 1].number
  code nei_box, ld_first_j, nei_setup, nei_skip;  // all; skip: wtx >= 100
  code nei_index, qb_index, ld_qb_g, sts_index, st_qb, nei_step;  // act
  std::array<code, 4> ld_rb_g, st_rb;                             // act
  code bar2, compute_test, compute_skip;                          // all; skip: wtx >= 100
  code compute_index, fa_index;                                   // act
  std::array<code, 4> ld_ra_s, ld_fa, st_fa;                      // act
  std::array<pair_code, unroll> pair;                             // act
  code j_step, j_back, wtx_step;                                  // act (j_back: taken 24 times)
  code bar3, k_step, ld_nn2, k_back, k_branch, done;              // all
};

// expf(x), x = -u2 (the negation folds into the operands): nvcc's non-fast-math expansion.
void expf_code(program& p, reg d, reg x) {
  p.raw("FFMA.SAT", {d}, {x});  // x / (128 ln 2) + 0.5, clamped
  p.raw("FFMA.RM", {d}, {d});   // the integer part, rounded down (a magic constant)
  p.raw("FADD", {reg(d + 1)}, {d});
  p.raw("FFMA", {reg(d + 1)}, {x, reg(d + 1)});  // x log2 e - integer part
  p.raw("FFMA", {reg(d + 1)}, {x, reg(d + 1)});  // the low bits of log2 e
  p.shl(d, d);                                   // integer part << 23: 2^int
  if (p.family() != isa_family::volta) p.raw("RRO.EX2", {reg(d + 1)}, {reg(d + 1)});
  p.raw("MUFU.EX2", {reg(d + 1)}, {reg(d + 1)});
  p.fmul(reg(d + 2), d, reg(d + 1));
}

kernel_code build(program& p) {
  kernel_code k;
  // R0 wtx, R2 bx, R4 a2, R10 &d_box_gpu[bx], R12 first_i, R14 rA, R16 fA, R26 k, R27 nn,
  // R29 pointer, R34 first_j, R36 rB, R38 qB, R52-55 rA_shared[wtx], R60-63 fA[wtx], R64 j.
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.mov(3);  // d_par_gpu.alpha
  f2d(p, 6, 3);
  dmul(p, 8, 6, rz);  // 2.0 * alpha
  dmul(p, 8, 8, 6);   // * alpha
  d2f(p, 4, 8);
  p.isetp("GE.U32", 2, rz);  // bx < d_dim_gpu.number_boxes (a long)
  p.isetp("GE.X", 2, rz);
  k.entry = p.since(m);
  k.exit_early = p.exit();                // @P0 EXIT: no thread
  k.box = p.address(10, 2, rz);           // &d_box_gpu[bx]
  k.ld_first_i = p.ld_global(12, 10, 8);  // .offset (+16)
  m = p.here();
  p.address(14, 12, rz);  // rA = &d_rv_gpu[first_i]
  p.address(16, 12, rz);  // fA = &d_fv_gpu[first_i]
  p.isetp("GT", 0, rz);   // !(wtx < NUMBER_PAR_PER_BOX)
  k.home_setup = p.since(m);
  k.home_skip = p.bra();
  k.home_index = p.address(18, 0, 14);  // &rA[wtx]
  for (reg c = 0; c < 4; ++c) k.ld_ra_g[c] = p.ld_global(reg(20 + c), 18, 4);
  k.home_sts_index = p.shl(24, 0);  // wtx * 16
  for (reg c = 0; c < 4; ++c) k.st_ra[c] = p.st_shared(24, reg(20 + c), 4);
  m = p.here();
  p.iadd(0, 0, rz);  // wtx += NUMBER_THREADS
  p.isetp("LT", 0, rz);
  k.home_step = p.since(m);
  k.bar = p.bar_sync();
  k.k_init = p.mov(26);              // k = 0
  k.ld_nn = p.ld_global(27, 10, 4);  // d_box_gpu[bx].nn (+24)
  m = p.here();
  p.iadd(28, 27, rz);  // 1 + nn
  p.isetp("GE", 26, 28);
  p.isetp("NE", 26, rz);  // k != 0
  k.k_test = p.since(m);
  k.k_else = p.bra();
  m = p.here();
  p.mov(29);  // pointer = bx
  p.bra();
  k.k_zero = p.since(m);
  k.k_nei = p.imad(30, 26, rz, 10);   // &d_box_gpu[bx].nei[k - 1]
  k.ld_nei = p.ld_global(29, 30, 4);  // .number
  k.nei_box = p.address(32, 29, rz);  // &d_box_gpu[pointer]
  k.ld_first_j = p.ld_global(34, 32, 8);
  m = p.here();
  p.address(36, 34, rz);  // rB = &d_rv_gpu[first_j]
  p.address(38, 34, rz);  // qB = &d_qv_gpu[first_j]
  p.isetp("GT", 0, rz);
  k.nei_setup = p.since(m);
  k.nei_skip = p.bra();
  k.nei_index = p.address(40, 0, 36);
  for (reg c = 0; c < 4; ++c) k.ld_rb_g[c] = p.ld_global(reg(44 + c), 40, 4);
  k.qb_index = p.address(42, 0, 38);
  k.ld_qb_g = p.ld_global(48, 42, 4);
  m = p.here();
  p.shl(49, 0);  // wtx * 16
  p.shl(50, 0);  // wtx * 4
  k.sts_index = p.since(m);
  for (reg c = 0; c < 4; ++c) k.st_rb[c] = p.st_shared(49, reg(44 + c), 4);
  k.st_qb = p.st_shared(50, 48, 4);
  m = p.here();
  p.iadd(0, 0, rz);
  p.isetp("LT", 0, rz);
  k.nei_step = p.since(m);
  k.bar2 = p.bar_sync();
  k.compute_test = p.isetp("GT", 0, rz);
  k.compute_skip = p.bra();
  k.compute_index = p.shl(51, 0);
  for (reg c = 0; c < 4; ++c) k.ld_ra_s[c] = p.ld_shared(reg(52 + c), 51, 4);
  m = p.here();
  p.address(56, 0, 16);  // &fA[wtx]
  p.mov(64);             // j = 0
  k.fa_index = p.since(m);
  for (reg c = 0; c < 4; ++c) k.ld_fa[c] = p.ld_global(reg(60 + c), 56, 4);
  for (auto& pc : k.pair) {
    for (reg c = 0; c < 4; ++c) pc.ld_rb[c] = p.ld_shared(reg(66 + c), 64, 4);
    pc.ld_qb = p.ld_shared(70, 64, 4);
    m = p.here();
    p.fmul(71, 53, 67);  // DOT(rA, rB)
    p.ffma(71, 54, 68, 71);
    p.ffma(71, 55, 69, 71);
    p.fadd(72, 52, 66);  // rA.v + rB.v
    p.fadd(72, 72, 71);  // - DOT
    p.fmul(73, 4, 72);   // u2 = a2 * r2
    expf_code(p, 74, 73);
    p.fadd(77, 76, 76);  // fs = 2 * vij
    for (reg c = 0; c < 3; ++c) {
      p.fadd(reg(78 + c), reg(53 + c), reg(67 + c));  // d = rA - rB
      p.fmul(reg(78 + c), 77, reg(78 + c));           // fs * d
    }
    p.ffma(60, 70, 76, 60);  // fA += qB * (vij, fxij, fyij, fzij)
    for (reg c = 0; c < 3; ++c) p.ffma(reg(61 + c), 70, reg(78 + c), reg(61 + c));
    pc.math = p.since(m);
  }
  m = p.here();
  p.iadd(64, 64, rz);  // j += 4
  p.isetp("LT", 64, rz);
  k.j_step = p.since(m);
  k.j_back = p.bra();
  for (reg c = 0; c < 4; ++c) k.st_fa[c] = p.st_global(56, reg(60 + c), 4);
  m = p.here();
  p.iadd(0, 0, rz);
  p.isetp("LT", 0, rz);
  k.wtx_step = p.since(m);
  k.bar3 = p.bar_sync();
  k.k_step = p.iadd(26, 26, rz);      // k++
  k.ld_nn2 = p.ld_global(27, 10, 4);  // the test reloads nn (after global stores)
  m = p.here();
  p.iadd(28, 27, rz);
  p.isetp("LT", 26, 28);
  k.k_back = p.since(m);
  k.k_branch = p.bra();
  k.done = p.exit();
  return k;
}

struct arrays {
  std::uint64_t b = 0, boxes = 0;  // boxes1d, number_boxes
  std::uint64_t box = 0, rv = 0, qv = 0, fv = 0;
};

void generate_lavamd(const param_set& ps, app_builder& app) {
  arrays a;
  a.b = ps.u64("boxes1d");
  a.boxes = a.b * a.b * a.b;
  const std::uint64_t space_elem = a.boxes * par_per_box;
  // kernel_gpu_cuda_wrapper.cu's cudaMalloc and cudaMemcpy order.
  a.box = app.input(box_bytes * a.boxes);
  a.rv = app.input(vec_bytes * space_elem);
  a.qv = app.input(4 * space_elem);
  a.fv = app.input(vec_bytes * space_elem);

  program p(app.opcodes(), 90);
  const kernel_code k = build(p);
  const kernel_info info = app.kernel(
      "_Z15kernel_gpu_cuda7par_str7dim_strP7box_strP11FOUR_VECTORPfS4_", app.reserve_kernel_id(),
      dim3{std::uint32_t(a.boxes), 1, 1}, dim3{threads, 1, 1}, shmem, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t bx = tb.index.x;
    const std::vector<std::uint64_t> nei = neighbours(bx, a.b);
    const std::uint64_t box_a = a.box + box_bytes * bx;
    const std::uint64_t first_i = par_per_box * bx;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      const auto& tid = lanes.flat;
      std::uint32_t act = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((live >> l & 1u) && tid[l] < par_per_box) act |= 1u << l;
      auto at = [](std::uint64_t addr) { return [addr](unsigned) { return addr; }; };
      auto elem = [&](std::uint64_t base, std::uint64_t first, std::uint64_t size,
                      std::uint64_t field) {
        return [&, base, first, size, field](unsigned l) {
          return base + size * (first + tid[l]) + field;
        };
      };
      e.run(k.entry, live);
      e.run(k.box, live);
      e.mem_fn(k.ld_first_i, live, at(box_a + box_offset));
      e.run(k.home_setup, live);
      e.run(k.home_skip, live & ~act);
      e.run(k.home_index, act);
      for (unsigned c = 0; c < 4; ++c) e.mem_fn(k.ld_ra_g[c], act, elem(a.rv, first_i, 16, 4 * c));
      e.run(k.home_sts_index, act);
      for (unsigned c = 0; c < 4; ++c)
        e.mem_fn(k.st_ra[c], act, [&](unsigned l) { return sh_ra + 16 * tid[l] + 4 * c; });
      e.run(k.home_step, act);
      e.run(k.bar, live);
      e.run(k.k_init, live);
      e.mem_fn(k.ld_nn, live, at(box_a + box_nn));
      for (std::uint64_t kk = 0; kk <= nei.size(); ++kk) {
        e.run(k.k_test, live);
        std::uint64_t pointer = bx;
        if (kk == 0) {
          e.run(k.k_zero, live);
        } else {
          pointer = nei[kk - 1];
          e.run(k.k_else, live);
          e.run(k.k_nei, live);
          e.mem_fn(k.ld_nei, live, at(box_a + box_nei + nei_bytes * (kk - 1) + nei_number));
        }
        const std::uint64_t first_j = par_per_box * pointer;
        e.run(k.nei_box, live);
        e.mem_fn(k.ld_first_j, live, at(a.box + box_bytes * pointer + box_offset));
        e.run(k.nei_setup, live);
        e.run(k.nei_skip, live & ~act);
        e.run(k.nei_index, act);
        for (unsigned c = 0; c < 4; ++c)
          e.mem_fn(k.ld_rb_g[c], act, elem(a.rv, first_j, 16, 4 * c));
        e.run(k.qb_index, act);
        e.mem_fn(k.ld_qb_g, act, elem(a.qv, first_j, 4, 0));
        e.run(k.sts_index, act);
        for (unsigned c = 0; c < 4; ++c)
          e.mem_fn(k.st_rb[c], act, [&](unsigned l) { return sh_rb + 16 * tid[l] + 4 * c; });
        e.mem_fn(k.st_qb, act, [&](unsigned l) { return sh_qb + 4 * tid[l]; });
        e.run(k.nei_step, act);
        e.run(k.bar2, live);
        e.run(k.compute_test, live);
        e.run(k.compute_skip, live & ~act);
        e.run(k.compute_index, act);
        for (unsigned c = 0; c < 4; ++c)
          e.mem_fn(k.ld_ra_s[c], act, [&](unsigned l) { return sh_ra + 16 * tid[l] + 4 * c; });
        e.run(k.fa_index, act);
        for (unsigned c = 0; c < 4; ++c) e.mem_fn(k.ld_fa[c], act, elem(a.fv, first_i, 16, 4 * c));
        for (std::uint64_t j = 0; j < par_per_box; j += unroll) {
          for (std::uint32_t u = 0; u < unroll; ++u) {
            const pair_code& pc = k.pair[u];
            for (unsigned c = 0; c < 4; ++c)
              e.mem_fn(pc.ld_rb[c], act, at(sh_rb + 16 * (j + u) + 4 * c));
            e.mem_fn(pc.ld_qb, act, at(sh_qb + 4 * (j + u)));
            e.run(pc.math, act);
          }
          e.run(k.j_step, act);
          if (j + unroll < par_per_box) e.run(k.j_back, act);
        }
        for (unsigned c = 0; c < 4; ++c) e.mem_fn(k.st_fa[c], act, elem(a.fv, first_i, 16, 4 * c));
        e.run(k.wtx_step, act);
        e.run(k.bar3, live);
        e.run(k.k_step, live);
        e.mem_fn(k.ld_nn2, live, at(box_a + box_nn));
        e.run(k.k_back, live);
        if (kk < nei.size()) e.run(k.k_branch, live);
      }
      e.run(k.done, live);
    }
  });
}

}  // namespace lavamd_kernels
}  // namespace

kernel_generator lavamd_generator() {
  return {"lavamd",
          "Rodinia lavaMD: a 128-thread TB per box of 100 particles, home and neighbour "
          "particles in shared memory, 100 x 100 pair forces per box pair (FFMA, expf: MUFU.EX2)",
          {param_desc::integer("boxes1d", 6, 1, 40,
                               "boxes per grid side: boxes1d^3 TBs (Rodinia's run: 10)")},
          lavamd_kernels::generate_lavamd};
}

}  // namespace gputlm::traces::generators
