// Parboil sad (sum of absolute differences, H.264 motion estimation), SAD of the μC-States
// workloads (Kayiran et al., "μC-States: Fine-grained GPU Datapath Power Management",
// PACT'16, Table 1): the three kernels of Parboil's CUDA version (benchmarks/sad/src/cuda:
// kernel.cu, largerBlocks.cu, main.cu, sad.h) on a width x height frame pair, as they index
// memory. Constants of sad.h / sad4.h: SEARCH_RANGE 16, SEARCH_DIMENSION 33, MAX_POS 1089,
// MAX_POS_PADDED 1096, POS_PER_THREAD 18, THREADS_W = THREADS_H = 1. d_sads holds 41 *
// MAX_POS_PADDED 16-bit SADs per macroblock (mbs = (width / 16) * (height / 16)).
//
// mb_sad_calc<<<(width / 4, height / 4), 61, 2192>>>: one TB per 4x4 block (bx, by), 61 =
// CEIL(MAX_POS, POS_PER_THREAD) threads, so txy_tmp = tid / 61 = 0. Threads tid < 16 copy
// one pixel each: LDG.U16 frame[(4 by + (tid >> 2)) * width + 4 bx + (tid & 3)], STS.U16
// frame_loc[tid]; BAR.SYNC. Then thread tid takes search positions base = 18 tid up to
// min(base + 18, 1089), three per loop trip (6 trips; thread 60: 3), starting at row sotmp =
// base / 33, column local_x = base - 33 sotmp of the 33 x 33 search area; per trip, for y =
// 0..3 (unrolled), six texture fetches tex2D(ref, ref_x + local_x + dx, ref_y + sotmp' + y),
// dx = 0..5 (ref_x = 4 bx - 16, ref_y = 4 by - 16), each folded into sad1..sad3, then
// STS.U16 sad_loc[search_pos + 0, 1, 2]; local_x += 3 and, once it reaches 33 (-= 33), the
// search row advances (an if-converted, per-lane step). BAR.SYNC. Threads tid < 32 (warp 0)
// copy the TB's 274 8-byte words of sad_loc to blk_sad + (25 mbs + 16 mb + 4 block_y +
// block_x) * 1096 shorts (LDS.64, STG.E.64; index = tid, += 32: 9 trips, the last of lanes
// 0..17); warp 1 leaves. larger_sad_calc_8<<<(mb_w, mb_h), (32, 4)>>> and
// larger_sad_calc_16<<<(mb_w, mb_h), (32, 1)>>>: per macroblock, search_pos = threadIdx.x, <
// 545, += 32 (18 trips, the last lane 0 only), four 32-bit loads of the 4x4 (8x8) SAD pairs
// and five 32-bit stores of the 8x4/4x8/8x8 (16x8/8x16/16x16) sums, pointers as in
// largerBlocks.cu.
//
// Where we had to choose:
// - The reference frame is a cudaArray read through a texture reference with the default
//   clamp addressing and point filtering; its device layout is opaque (block-linear on the
//   chip). It is modelled as a pitch-linear width x height array of 2-byte texels, allocated
//   on the heap after frame: texel (x, y) at ref + 2 (clamp(y, 0, height - 1) * width +
//   clamp(x, 0, width - 1)). The fetch is a `TEX` (texture space, 2 bytes per lane) after
//   I2F of each integer coordinate.
// - The loop-invariant frame_loc reads (16 LDS.U16, frame_loc[4 y + x]) are hoisted out of
//   the search loop, as the compiler may since nothing in the loop stores to frame_loc.
// - |t - f| accumulated: ISAD on Kepler, VABSDIFF.ACC on Pascal, IADD3 + IABS + IADD3 on
//   Volta (our assumption of nvcc's choice).
// - Dynamic shared memory (sad_loc, 2192 bytes) follows the static frame_loc (32 bytes), so
//   sad_loc starts at shared offset 32; the TB's shared memory is 2224 bytes.
// - The cudaMemset of d_sads and the copy back are not in the trace (Accel-Sim traces
//   neither); frame and the reference are copied (MemcpyHtoD), in main.cu's order.
// The default 176 x 144 (QCIF, 11 x 9 macroblocks) is Parboil's `default` dataset size as
// GPUVerify's copy of this kernel records it (gridDim [44, 36], mb_width 11, mb_height 9).
#include <algorithm>
#include <array>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
namespace sad_kernels {
constexpr std::uint32_t search_range = 16, search_dimension = 33, max_pos = 1089;
constexpr std::uint32_t max_pos_padded = 1096, pos_per_thread = 18;
constexpr std::uint32_t threads = (max_pos + pos_per_thread - 1) / pos_per_thread;  // 61
constexpr std::uint32_t frame_loc_bytes = 32;                                       // 16 shorts
constexpr std::uint32_t sad_loc_8b_row = max_pos_padded / 4;                        // 274
constexpr std::uint32_t larger_bound = (max_pos + 1) / 2;                           // 545

struct frames {
  std::uint32_t width = 0, height = 0, mb_w = 0, mb_h = 0;
  std::uint64_t cur = 0, ref = 0, sads = 0;
  std::uint64_t mbs() const { return std::uint64_t(mb_w) * mb_h; }
  // The texel tex2D(ref, x, y) reads: clamp addressing, pitch-linear 2-byte texels.
  std::uint64_t texel(std::int64_t x, std::int64_t y) const {
    const std::int64_t cx = std::min<std::int64_t>(std::max<std::int64_t>(x, 0), width - 1);
    const std::int64_t cy = std::min<std::int64_t>(std::max<std::int64_t>(y, 0), height - 1);
    return ref + 2 * (std::uint64_t(cy) * width + std::uint64_t(cx));
  }
};

// acc += |t - f| on 32-bit registers.
code absdiff_acc(program& p, reg acc, reg t, reg f, reg tmp) {
  switch (p.family()) {
    case isa_family::kepler:
      return p.raw("ISAD", {acc}, {t, f, acc});
    case isa_family::pascal:
      return p.raw("VABSDIFF.ACC", {acc}, {t, f, acc});
    case isa_family::volta:
      break;
  }
  auto m = p.here();
  p.raw("IADD3", {tmp}, {t, f});
  p.raw("IABS", {tmp}, {tmp});
  p.raw("IADD3", {acc}, {acc, tmp});
  return p.since(m);
}

code i2f_signed(program& p, reg d, reg a) {
  return p.raw(p.family() == isa_family::volta ? "I2F" : "I2F.F32.S32", {d}, {a});
}

code tex2d(program& p, reg d, reg x, reg y) { return p.raw("TEX", {d}, {x, y}, 2); }

void mb_sad_calc(app_builder& app, const frames& f) {
  program p(app.opcodes(), 72);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.s2r(3, sreg::ctaid_y);
  p.shr(4, 0);           // threadIdx.x >> 4
  p.isetp("NE", 4, rz);  // >= THREADS_W * THREADS_H
  const code copy_test = p.since(m);
  const code copy_skip = p.bra();  // @P0 BRA
  m = p.here();
  p.land(5, 0);          // tgroup = threadIdx.x & 15
  p.shl(6, 2);           // frame_x = bx << 2
  p.shl(7, 3);           // frame_y = by << 2
  p.imad(8, 7, rz, 6);   // cur_o = frame_y * img_width + frame_x
  p.shr(9, 6);           // frame_x >> 4 < mb_width, frame_y >> 4 < mb_height
  p.isetp("GE", 9, rz);  // (always inside: the grid covers the frame)
  p.shr(9, 5);           // tgroup >> 2
  p.land(10, 5);         // tgroup & 3
  p.imad(9, 9, rz, 10);  // (tgroup >> 2) * img_width + (tgroup & 3)
  p.iadd(9, 9, 8);
  p.address(12, 9, rz);  // &frame[...]
  const code copy_index = p.since(m);
  const code ldg_frame = p.ld_global(14, 12, 2);
  const code sts_index = p.shl(15, 5);
  const code sts_frame = p.st_shared(15, 14, 2);  // frame_loc[tgroup]
  const code bar_copy = p.bar_sync();
  m = p.here();
  p.imad(16, 0, rz, rz);  // txy_tmp = threadIdx.x / 61 (IMAD.HI, SHR)
  p.shr(16, 16);
  p.shr(17, 2);  // mb_x = bx >> 2, mb_y = by >> 2
  p.shr(18, 3);
  p.isetp("GE", 17, rz);  // mb_x < mb_width && mb_y < mb_height
  p.isetp("GE", 18, rz);
  p.land(19, 2);  // block_x, block_y
  p.land(20, 3);
  p.imad(21, 17, rz, 19);  // frame_x = ((mb_x << 2) + block_x) << 2
  p.shl(21, 21);
  p.imad(22, 18, rz, 20);  // frame_y
  p.shl(22, 22);
  p.iadd(17, 21, rz);          // ref_x = frame_x - SEARCH_RANGE
  p.iadd(18, 22, rz);          // ref_y = frame_y - SEARCH_RANGE
  p.imad(19, 16, rz, 0);       // threadIdx.x % 61
  p.imad(19, 19, rz, rz);      // search_pos_base = (..) * POS_PER_THREAD
  p.iadd(20, 19, rz);          // search_pos_end = base + POS_PER_THREAD
  p.raw("IMNMX", {20}, {20});  // min(end, MAX_POS)
  p.imad(21, 19, rz, rz);      // sotmp = base / 33 (IMAD.HI, SHR)
  p.shr(21, 21);
  p.imad(23, 21, rz, 19);  // local_search_off_x = base - 33 sotmp
  p.iadd(18, 18, 21);      // search_off_y = ref_y + sotmp
  p.shl(22, 16);           // cur_o << 4, in bytes
  p.isetp("GE", 19, 20);   // search_pos_base >= search_pos_end
  const code search_setup = p.since(m);
  std::array<code, 16> lds_frame{};
  for (std::uint32_t i = 0; i < 16; ++i) lds_frame[i] = p.ld_shared(reg(24 + i), 22, 2);
  m = p.here();
  p.raw("MOV", {56}, {});  // sad1 = sad2 = sad3 = 0
  p.raw("MOV", {57}, {});
  p.raw("MOV", {58}, {});
  p.iadd(40, 17, 23);  // search_off_x = ref_x + local_search_off_x
  for (std::uint32_t dx = 0; dx < 6; ++dx) {
    if (dx > 0) p.iadd(59, 40, rz);
    i2f_signed(p, reg(41 + dx), dx > 0 ? reg(59) : reg(40));
  }
  const code trip_head = p.since(m);
  std::array<code, 4> row_head{};
  std::array<std::array<code, 6>, 4> tex{};
  std::array<code, 4> row_sad{};
  for (std::uint32_t y = 0; y < 4; ++y) {
    m = p.here();
    p.iadd(47, 18, rz);  // search_off_y + y
    i2f_signed(p, 48, 47);
    row_head[y] = p.since(m);
    for (std::uint32_t dx = 0; dx < 6; ++dx) tex[y][dx] = tex2d(p, reg(50 + dx), reg(41 + dx), 48);
    m = p.here();
    // sad1 over texels 0..3, sad2 over 1..4, sad3 over 2..5 against frame row y.
    for (std::uint32_t k = 0; k < 3; ++k)
      for (std::uint32_t x = 0; x < 4; ++x)
        absdiff_acc(p, reg(56 + k), reg(50 + k + x), reg(24 + 4 * y + x), 59);
    row_sad[y] = p.since(m);
  }
  m = p.here();
  p.iadd(60, 19, rz);  // (cur_o * MAX_POS_PADDED + search_pos) * 2 + 32
  p.shl(60, 60);
  const code sts_index_sad = p.since(m);
  std::array<code, 3> sts_sad{};
  for (std::uint32_t k = 0; k < 3; ++k) sts_sad[k] = p.st_shared(60, reg(56 + k), 2);
  m = p.here();
  p.iadd(23, 23, rz);  // local_search_off_x += 3
  p.isetp("GE", 23, rz);
  const code trip_step = p.since(m);
  m = p.here();
  p.iadd(23, 23, rz);  // @P0: -= SEARCH_DIMENSION
  p.iadd(18, 18, rz);  // @P0: search_off_y++
  const code row_wrap = p.since(m);
  m = p.here();
  p.iadd(19, 19, rz);  // search_pos += 3
  p.isetp("LT", 19, 20);
  const code pos_step = p.since(m);
  const code pos_back = p.bra();
  const code bar_sads = p.bar_sync();
  m = p.here();
  p.shr(61, 0);  // threadIdx.x >> 5
  p.isetp("NE", 61, rz);
  const code out_test = p.since(m);
  const code exit_idle = p.exit();  // @P0 EXIT
  m = p.here();
  p.land(61, 0);  // tgroup = threadIdx.x & 31
  p.shr(17, 2);   // mb_x, mb_y, block_x, block_y
  p.shr(18, 3);
  p.land(19, 2);
  p.land(20, 3);
  p.isetp("GE", 17, rz);
  p.isetp("GE", 18, rz);
  p.imad(62, rz, rz, rz);  // mb_width * mb_height * 25
  p.imad(63, 18, rz, 17);  // mb_y * mb_width + mb_x
  p.imad(62, 63, rz, 62);  // .. * 16 + 25 mbs
  p.imad(63, 20, rz, 19);  // 4 * block_y + block_x
  p.iadd(62, 62, 63);
  p.imad(62, 62, rz, rz);    // * MAX_POS_PADDED
  p.address(64, 62, rz);     // blk_sad += ..
  p.raw("MOV", {71}, {61});  // index = tgroup
  const code out_setup = p.since(m);
  m = p.here();
  p.shl(70, 71);  // &sad_loc_8b[index]
  const code lds_index = p.since(m);
  const code lds_out = p.ld_shared(68, 70, 8);
  const code stg_index = p.address(66, 71, 64);  // &((vec8b *)blk_sad)[index]
  const code stg_out = p.st_global(66, 68, 8);
  m = p.here();
  p.iadd(71, 71, rz);  // index += 32
  p.isetp("LT", 71, rz);
  const code out_step = p.since(m);
  const code out_back = p.bra();
  const code done = p.exit();
  p.bra();

  const std::uint64_t mbs = f.mbs();
  const kernel_info info = app.kernel("_Z11mb_sad_calcPtS_ii", app.reserve_kernel_id(),
                                      dim3{f.width / 4, f.height / 4, 1}, dim3{threads, 1, 1},
                                      frame_loc_bytes + 2 * max_pos_padded, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t bx = tb.index.x, by = tb.index.y;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      const auto& tid = lanes.flat;
      std::uint32_t copy = 0, out = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        if ((tid[l] >> 4) < 1) copy |= 1u << l;
        if ((tid[l] >> 5) < 1) out |= 1u << l;
      }
      e.run(copy_test, live);
      e.run(copy_skip, live & ~copy);
      e.run(copy_index, copy);
      e.mem_fn(ldg_frame, copy, [&](unsigned l) {
        const std::uint64_t g = tid[l] & 15;
        return f.cur + 2 * ((4 * by + (g >> 2)) * f.width + 4 * bx + (g & 3));
      });
      e.run(sts_index, copy);
      e.mem_fn(sts_frame, copy, [&](unsigned l) { return 2ull * (tid[l] & 15); });
      e.run(bar_copy, live);

      // Search positions: each lane's loop state, as the kernel keeps it.
      std::array<std::uint32_t, 32> pos{}, end{}, local_x{};
      std::array<std::int64_t, 32> off_y{};
      const std::int64_t ref_x = std::int64_t(4 * bx) - search_range;
      const std::int64_t ref_y = std::int64_t(4 * by) - search_range;
      std::uint32_t act = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        pos[l] = (tid[l] % threads) * pos_per_thread;
        end[l] = std::min(pos[l] + pos_per_thread, max_pos);
        const std::uint32_t sotmp = pos[l] / search_dimension;
        local_x[l] = pos[l] - search_dimension * sotmp;
        off_y[l] = ref_y + sotmp;
        if (pos[l] < end[l]) act |= 1u << l;
      }
      e.run(search_setup, live);
      for (std::uint32_t i = 0; i < 16; ++i)
        e.mem_fn(lds_frame[i], act, [&](unsigned) { return 2ull * i; });  // cur_o = 0
      while (act != 0) {
        e.run(trip_head, act);
        for (std::uint32_t y = 0; y < 4; ++y) {
          e.run(row_head[y], act);
          for (std::uint32_t dx = 0; dx < 6; ++dx)
            e.mem_fn(tex[y][dx], act,
                     [&](unsigned l) { return f.texel(ref_x + local_x[l] + dx, off_y[l] + y); });
          e.run(row_sad[y], act);
        }
        e.run(sts_index_sad, act);
        for (std::uint32_t k = 0; k < 3; ++k)
          e.mem_fn(sts_sad[k], act,
                   [&](unsigned l) { return frame_loc_bytes + 2ull * (pos[l] + k); });
        e.run(trip_step, act);
        std::uint32_t wrap = 0, next = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(act >> l & 1u)) continue;
          local_x[l] += 3;
          if (local_x[l] >= search_dimension) {
            local_x[l] -= search_dimension;
            ++off_y[l];
            wrap |= 1u << l;
          }
          pos[l] += 3;
          if (pos[l] < end[l]) next |= 1u << l;
        }
        e.run(row_wrap, wrap);
        e.run(pos_step, act);
        e.run(pos_back, next);
        act = next;
      }
      e.run(bar_sads, live);
      e.run(out_test, live);
      e.run(exit_idle, live & ~out);
      if (out == 0) continue;
      const std::uint64_t mb = (by >> 2) * f.mb_w + (bx >> 2);
      const std::uint64_t blk =
          f.sads + 2 * (25 * mbs + 16 * mb + 4 * (by & 3) + (bx & 3)) * max_pos_padded;
      e.run(out_setup, out);
      for (std::uint32_t k = 0;; ++k) {
        std::uint32_t trip = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((out >> l & 1u) && (tid[l] & 31) + 32 * k < sad_loc_8b_row) trip |= 1u << l;
        if (trip == 0) break;
        auto index = [&](unsigned l) { return std::uint64_t(tid[l] & 31) + 32 * k; };
        e.run(lds_index, trip);
        e.mem_fn(lds_out, trip, [&](unsigned l) { return frame_loc_bytes + 8 * index(l); });
        e.run(stg_index, trip);
        e.mem_fn(stg_out, trip, [&](unsigned l) { return blk + 8 * index(l); });
        e.run(out_step, trip);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((trip >> l & 1u) && index(l) + 32 < sad_loc_8b_row) next |= 1u << l;
        e.run(out_back, next);
      }
      e.run(done, out);
    }
  });
}

// The pointers of one larger_sad_calc kernel, in shorts from blk_sad: the input (4 loads at
// uint offsets in_off[k] from bi) and outputs (5 stores at out_base[k] + out_off[k] uints).
struct larger_layout {
  std::uint64_t bi = 0;
  std::array<std::uint64_t, 4> in_off{};
  std::array<std::uint64_t, 5> out_base{}, out_off{};
};

void larger_sad_calc(app_builder& app, const frames& f, bool sixteen) {
  program p(app.opcodes(), 40);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::tid_y);
  p.s2r(3, sreg::ctaid_x);
  p.s2r(4, sreg::ctaid_y);
  p.land(5, 2);           // tx = threadIdx.y & 1
  p.shr(6, 2);            // ty = threadIdx.y >> 1
  p.imad(7, rz, rz, rz);  // macroblocks = mb_width * mb_height
  p.imad(8, 4, rz, 3);    // mb_y * mb_width + mb_x
  p.imad(8, 8, rz, rz);   // macroblock_index = (..) * MAX_POS_PADDED
  p.imad(9, 7, rz, 6);    // bi: (25 mbs + 8 ty + 2 tx) * 1096 + 16 mbi (16x16: 5 M + 4 mbi)
  p.imad(9, 9, rz, 8);
  p.address(10, 9, rz);
  p.imad(9, 7, rz, 6);  // bo_6 / bo_3
  p.imad(9, 9, rz, 8);
  p.address(12, 9, rz);
  p.imad(9, 7, rz, 5);  // bo_5 / bo_2
  p.imad(9, 9, rz, 8);
  p.address(14, 9, rz);
  p.imad(9, 7, rz, 5);  // bo_4 / bo_1
  p.imad(9, 9, rz, 8);
  p.address(16, 9, rz);
  p.raw("MOV", {18}, {0});  // search_pos = threadIdx.x
  p.isetp("GE", 18, rz);    // >= (MAX_POS + 1) / 2
  const code head = p.since(m);
  const code load_addr = p.address(20, 18, 10);
  std::array<code, 4> ldg{};
  for (std::uint32_t k = 0; k < 4; ++k) ldg[k] = p.ld_global(reg(22 + k), 20, 4);
  m = p.here();
  p.iadd(26, 22, 24);  // i00 + i10
  p.iadd(27, 23, 25);  // i01 + i11
  p.iadd(28, 22, 23);  // i00 + i01
  p.iadd(29, 24, 25);  // i10 + i11
  p.iadd(30, 28, 29);  // (i00 + i01) + (i10 + i11)
  p.address(32, 18, 12);
  p.address(34, 18, 14);
  p.address(36, 18, 16);
  const code sums = p.since(m);
  const std::array<reg, 5> st_addr{32, 32, 34, 34, 36}, st_val{26, 27, 28, 29, 30};
  std::array<code, 5> stg{};
  for (std::uint32_t k = 0; k < 5; ++k) stg[k] = p.st_global(st_addr[k], st_val[k], 4);
  m = p.here();
  p.iadd(18, 18, rz);  // search_pos += 32
  p.isetp("LT", 18, rz);
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const std::uint64_t mbs = f.mbs(), h = max_pos_padded / 2;
  const dim3 block = sixteen ? dim3{32, 1, 1} : dim3{32, 4, 1};
  const kernel_info info =
      app.kernel(sixteen ? "_Z18larger_sad_calc_16Ptii" : "_Z17larger_sad_calc_8Ptii",
                 app.reserve_kernel_id(), dim3{f.mb_w, f.mb_h, 1}, block, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t mbi = (std::uint64_t(tb.index.y) * f.mb_w + tb.index.x) * max_pos_padded;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      larger_layout g;
      if (!sixteen) {
        const std::uint64_t tx = w & 1, ty = w >> 1;  // warp w is threadIdx.y = w
        g.bi = (25 * mbs + ty * 8 + tx * 2) * max_pos_padded + mbi * 16;
        g.in_off = {0, h, 4 * h, 5 * h};
        const std::uint64_t bo6 = (17 * mbs + ty * 4 + tx * 2) * max_pos_padded + mbi * 8;
        const std::uint64_t bo5 = (9 * mbs + ty * 4 + tx) * max_pos_padded + mbi * 8;
        const std::uint64_t bo4 = (5 * mbs + ty * 2 + tx) * max_pos_padded + mbi * 4;
        g.out_base = {bo6, bo6, bo5, bo5, bo4};
        g.out_off = {0, h, 0, 2 * h, 0};
      } else {
        const std::uint64_t big = mbs * max_pos_padded;
        g.bi = ((big + mbi) << 2) + big;
        g.in_off = {0, h, 2 * h, 3 * h};
        const std::uint64_t bo3 = ((big + mbi) << 1) + big, bo2 = big + mbi * 2, bo1 = mbi;
        g.out_base = {bo3, bo3, bo2, bo2, bo1};
        g.out_off = {0, h, 0, h, 0};
      }
      e.run(head, lanes.live);
      for (std::uint32_t k = 0;; ++k) {
        std::uint32_t trip = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && lanes.tx[l] + 32 * k < larger_bound) trip |= 1u << l;
        if (trip == 0) break;
        auto sp = [&](unsigned l) { return std::uint64_t(lanes.tx[l]) + 32 * k; };
        e.run(load_addr, trip);
        for (std::uint32_t j = 0; j < 4; ++j)
          e.mem_fn(ldg[j], trip,
                   [&](unsigned l) { return f.sads + 2 * g.bi + 4 * (sp(l) + g.in_off[j]); });
        e.run(sums, trip);
        for (std::uint32_t j = 0; j < 5; ++j)
          e.mem_fn(stg[j], trip, [&](unsigned l) {
            return f.sads + 2 * g.out_base[j] + 4 * (sp(l) + g.out_off[j]);
          });
        e.run(step, trip);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((trip >> l & 1u) && sp(l) + 32 < larger_bound) next |= 1u << l;
        e.run(back, next);
      }
      e.run(done, lanes.live);
    }
  });
}

void generate_sad(const param_set& ps, app_builder& app) {
  frames f;
  f.width = ps.u32("width");
  f.height = ps.u32("height");
  if (f.width % 16 != 0) param_set::fail("width", "must be a multiple of 16");
  if (f.height % 16 != 0) param_set::fail("height", "must be a multiple of 16");
  f.mb_w = f.width / 16;
  f.mb_h = f.height / 16;
  const std::uint64_t image_bytes = 2ull * f.width * f.height;
  // main.cu: cudaMalloc d_cur_image, cudaMallocArray ref_ary, copy the current frame, then
  // the reference; cudaMalloc d_sads (41 * MAX_POS_PADDED shorts per macroblock).
  f.cur = app.input(image_bytes);
  f.ref = app.input(image_bytes);
  f.sads = app.output(2 * 41 * max_pos_padded * f.mbs());
  mb_sad_calc(app, f);
  larger_sad_calc(app, f, false);
  larger_sad_calc(app, f, true);
}
}  // namespace sad_kernels
}  // namespace

kernel_generator sad_generator() {
  return {"sad",
          "Parboil sad: mb_sad_calc (4x4 SADs over a ±16 search range, current frame via "
          "LDG and shared memory, reference via TEX), then larger_sad_calc_8 and _16",
          {param_desc::integer("width", 176, 16, 4096,
                               "frame width in pixels (a multiple of 16; Parboil default 176)"),
           param_desc::integer("height", 144, 16, 4096,
                               "frame height in pixels (a multiple of 16; Parboil default 144)")},
          sad_kernels::generate_sad};
}

}  // namespace gputlm::traces::generators
