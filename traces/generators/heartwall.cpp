// Rodinia heartwall (HW; Rodinia 3.1 cuda/heartwall: main.cu, kernel.cu, define.c), the
// compute-intensive HW of the μC-States workloads (Kayiran et al., "μC-States: Fine-grained
// GPU Datapath Power Management", PACT'16, Table 1): the tracking stage of the heart-wall
// application, one launch of `kernel` per video frame, one TB per tracked point (ALL_POINTS
// = 20 endo + 31 epi points, main.cu's hardcoded coordinates) of NUMBER_THREADS = 256
// threads, as the kernel indexes memory. Sizes follow main.cu from tSize = t_size, sSize =
// s_size: in = 2t+1 square (the template), in2 = 2s+1 (the search window), conv = in + in2
// - 1, pad = in2 + 2 in; the frame is column-major, pixel (r, c) at d_frame[c * rows + r].
// Every phase is the grid-stride loop `ei_new = tx; while (ei_new < N) {..; ei_new += 256}`
// whose row/col are (ei_new + 1) % R - 1 and (ei_new + 1) / R (a signed division by a
// __constant__ value), followed by __syncthreads():
//  - frame 0: thread 0 stores tRowLoc/tColLoc[point_no * no_frames]; the template T[p] =
//    frame[(Col - 25 + col - 1) * rows + Row - 25 + row - 1] (in x in elements).
//  - other frames, 34 barriers: the window in2[ei] = frame[(col + Col - s - 1) * rows + row
//    + Row - s - 1]; the rotated template into shared d_in_mod_temp[ei] = T[(in - 1 - col)
//    * in + in - 1 - row]; the full convolution conv[ei] = sum over ja (columns of T) and ia
//    (rows) of d_in_mod_temp[in (ja-1) + ia-1] * in2[in2 (jb-1) + ib-1] (LDS, LDG, FFMA);
//    then twice (for in2 and for in2_sqr = in2^2) pad into pad x pad (LDG only inside),
//    vertical cumulative sums (thread per column, load-add-store down the column),
//    the two selections and the subtraction (the second time with no barrier after it, as in
//    kernel.cu), horizontal cumulative sums (thread per row), the two selections and the
//    subtraction; the denominator sqrt(sqr - sub2^2 / in_elem);
//    in_sqr = T^2; per-column sums of T and of in_sqr into shared memory, threads 0 and 1
//    add them up, thread 0 the template's deviation (divisions, sqrt); denominator,
//    numerator and correlation over conv x conv; the template mask (1 at the last location);
//    the mask convolution with the 10x10 ones (maxMove) at offset 5; per-column maxima of
//    |mask_conv| into shared par_max_val/par_max_coo; thread 0 finds the largest and stores
//    the point's tRowLoc/tColLoc[point_no * no_frames + frame].
//  - frames 10, 20, ...: every thread reloads the new location into Row/Col[point_no], then
//    the template T[ei] = alpha T[ei] + (1.00 - alpha) frame[..] (double: 1.00 is a double).
//
// Where we had to choose:
// - The video (test.avi) is data: we assume frames in which every point's best match is at
//   zero displacement, so the points stay at main.cu's coordinates (Rodinia's result.txt
//   shows them moving 0 to 4 pixels over 20 frames). Control flow is otherwise
//   data-independent: the data-dependent ifs of the kernel (temp2 < 0, the template mask's
//   ei_new == location, the maximum searches) are if-converted (FMNMX, SEL, FSEL; FCMP on
//   Kepler), as nvcc compiles such one-assignment ifs.
// - Inner loops with run-time trip counts (both convolutions' ia loops, the cumulative sums,
//   the template sums, the maximum searches) are unrolled by 4, the leftover trips after the
//   unrolled ones; the signed divisions by __constant__ sizes are nvcc's 20-instruction
//   reciprocal sequence (I2F.RP, MUFU.RCP, F2I, IMAD.HI and the fix-ups, all lanes).
// - d_unique[bx].* pointers are LDC (an indexed __constant__ array), loaded once at entry;
//   Row/Col[point_no] are reloaded after global stores (the kernel's int and float arrays
//   may alias for all the compiler knows, except within a loop that stores floats only).
// - Static shared memory in declaration order: in_partial_sum (0), in_sqr_partial_sum (204),
//   in_final_sum (408), in_sqr_final_sum (412), denomT (416), par_max_val (420), par_max_coo
//   (944), d_in_mod_temp (1468): 11872 bytes. The kernel's literal 25 of the template
//   corner is tSize.
// - IEEE division and sqrtf as fp_math.h expands them (fast paths only).
// - Rodinia's sizes (t_size=25 s_size=40) make ~4 M warp instructions per TB and tracked
//   frame (~200 M a frame: minutes of replay and a trace of ~10 GB); the defaults halve the
//   template and window sides, t_size=12 s_size=20 (25 x 25 and 41 x 41; 23.6 M warp
//   instructions a tracked frame), and run frames=2, the template frame and one tracked
//   frame (Rodinia's run script processes 20). Image size, points and no_frames are
//   test.avi's and main.cu's: 609 x 590, 51 points, 104 frames.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
namespace heartwall_kernels {
constexpr std::uint32_t threads = 256;  // NUMBER_THREADS
constexpr std::uint32_t endo_points = 20, epi_points = 31, all_points = 51;
constexpr std::uint64_t mask_rows = 10, mask_offset = 5;  // maxMove; (10 - 1) / 2 + 1
constexpr std::uint32_t template_batch = 10;              // frame_no % 10 == 0: new template
// Static shared memory (kernel.cu's declarations, in order).
constexpr std::uint64_t sh_in_partial = 0, sh_in_sqr_partial = 204, sh_in_final = 408,
                        sh_in_sqr_final = 412, sh_denom = 416, sh_par_val = 420, sh_par_coo = 944,
                        sh_in_mod = 1468, shmem = 11872;

// main.cu's hardcoded first-frame points (row, column).
constexpr std::array<std::int64_t, endo_points> endo_row{369, 400, 429, 452, 476, 486, 479,
                                                         458, 433, 404, 374, 346, 318, 294,
                                                         277, 269, 275, 287, 311, 339};
constexpr std::array<std::int64_t, endo_points> endo_col{408, 406, 397, 383, 354, 322, 294,
                                                         270, 250, 237, 235, 241, 254, 273,
                                                         300, 328, 356, 383, 401, 411};
constexpr std::array<std::int64_t, epi_points> epi_row{
    390, 419, 448, 474, 501, 519, 535, 542, 543, 538, 528, 511, 491, 466, 438, 406,
    376, 347, 318, 291, 275, 259, 256, 252, 252, 257, 266, 283, 305, 331, 360};
constexpr std::array<std::int64_t, epi_points> epi_col{
    457, 454, 446, 431, 411, 388, 361, 331, 301, 273, 243, 218, 196, 178, 166, 157,
    155, 165, 177, 197, 218, 248, 276, 304, 333, 361, 391, 415, 434, 448, 455};

struct sizes {
  std::uint64_t t = 0, s = 0, rows = 0, cols = 0, no_frames = 0;
  std::uint64_t in = 0, in2 = 0, conv = 0, pad = 0;
  std::uint64_t in_elem() const { return in * in; }
  std::uint64_t in2_elem() const { return in2 * in2; }
  std::uint64_t conv_elem() const { return conv * conv; }
  std::uint64_t pad_elem() const { return pad * pad; }
  std::uint64_t sel_elem() const { return conv * pad; }  // in2_pad_cumv_sel, in2_sub_cumh
};

// One TB's point and arrays (main.cu's unique[bx]).
struct point {
  std::uint64_t row_arr = 0, col_arr = 0, trow = 0, tcol = 0, tmpl = 0;
  std::uint64_t no = 0;
  std::int64_t row = 0, col = 0;
  std::uint64_t in2 = 0, conv = 0, pad = 0, pad_sel = 0, sub_cumh = 0, sub_cumh_sel = 0, sub2 = 0,
                in2_sqr = 0, sqr_sub2 = 0, in_sqr = 0, tmask = 0, mask_conv = 0;
};

// d = a / b and r = a % b, signed, b a __constant__ value: nvcc's reciprocal sequence.
code divmod(program& p, reg q, reg r, reg a) {
  auto m = p.here();
  const bool volta = p.family() == isa_family::volta;
  const char* iabs = volta ? "IABS" : "I2I.S32.S32";
  p.raw(iabs, {reg(q + 1)}, {});
  p.raw(iabs, {reg(q + 2)}, {a});
  p.raw(volta ? "I2F.RP" : "I2F.F32.U32.RP", {reg(q + 3)}, {reg(q + 1)});
  p.raw("MUFU.RCP", {reg(q + 3)}, {reg(q + 3)});
  p.iadd(reg(q + 3), reg(q + 3), rz);
  p.raw(volta ? "F2I.FTZ.U32.TRUNC" : "F2I.FTZ.U32.F32.TRUNC", {reg(q + 4)}, {reg(q + 3)});
  p.imad(reg(q + 5), reg(q + 4), reg(q + 1), rz);
  p.imad(q, reg(q + 4), reg(q + 5), reg(q + 4));  // IMAD.HI
  p.imad(q, q, reg(q + 2), rz);                   // IMAD.HI: the quotient estimate
  p.imad(reg(q + 2), q, reg(q + 1), reg(q + 2));  // a - q b
  p.isetp("GT.U32", reg(q + 1), reg(q + 2));
  p.iadd(reg(q + 2), reg(q + 2), reg(q + 1));
  p.iadd(q, q, rz);
  p.isetp("GE.U32", reg(q + 2), reg(q + 1));
  p.raw(volta ? "LOP3.LUT" : "LOP.XOR", {reg(q + 5)}, {a});  // sign of a ^ b
  p.isetp("GE", reg(q + 5), rz);
  p.iadd(q, q, rz);
  p.iadd(q, q, rz);     // the sign fix-up
  p.imad(r, q, rz, a);  // a - q b
  return p.since(m);
}

using lane_ids = std::array<std::uint32_t, 32>;
using counts = std::array<std::uint64_t, 32>;

// `ei_new = tx; while (ei_new < n) {..; ei_new += NUMBER_THREADS;}` and its __syncthreads().
struct loop_code {
  code test, skip, step, back, bar;
};

loop_code loop_head(program& p) {
  loop_code l;
  auto m = p.here();
  p.raw("MOV", {20}, {0});  // ei_new = tx
  p.isetp("GE", 20, rz);
  l.test = p.since(m);
  l.skip = p.bra();
  return l;
}

void loop_tail(program& p, loop_code& l, bool bar = true) {
  auto m = p.here();
  p.iadd(20, 20, rz);  // += NUMBER_THREADS
  p.isetp("LT", 20, rz);
  l.step = p.since(m);
  l.back = p.bra();
  if (bar) l.bar = p.bar_sync();
}

// Lane l's element in trip k is ei = tid[l] + 256 k; trip(act, k) emits the body.
template <class F>
void strided(warp_emitter& e, const loop_code& l, std::uint32_t live, const lane_ids& tid,
             std::uint64_t n, F&& trip) {
  e.run(l.test, live);
  std::uint32_t act = 0;
  for (unsigned i = 0; i < 32; ++i)
    if ((live >> i & 1u) && tid[i] < n) act |= 1u << i;
  e.run(l.skip, live & ~act);
  for (std::uint64_t k = 0; act != 0; ++k) {
    trip(act, k);
    e.run(l.step, act);
    std::uint32_t next = 0;
    for (unsigned i = 0; i < 32; ++i)
      if ((act >> i & 1u) && tid[i] + threads * (k + 1) < n) next |= 1u << i;
    e.run(l.back, next);
    act = next;
  }
  e.run(l.bar, live);
}

// row, col = the (0-n) position of ei_new in an R-row column-major matrix.
code position(program& p) {
  auto m = p.here();
  p.iadd(21, 20, rz);  // ei_new + 1
  divmod(p, 22, 28, 21);
  p.isetp("EQ", 28, rz);  // (ei_new + 1) % R == 0: row = R - 1, col - 1
  p.raw("SEL", {29}, {28});
  p.raw("SEL", {30}, {22});
  return p.since(m);
}

// Code of a loop with a per-lane run-time trip count, unrolled by 4, leftovers after.
struct unrolled {
  code enter, skip_main, main_step, main_back, rest_test, skip_rest, rest_step, rest_back;
};

void unrolled_head(program& p, unrolled& u, reg counter) {
  auto m = p.here();
  p.land(49, counter);  // trips & 3
  p.isetp("LT.U32", counter, rz);
  u.enter = p.since(m);
  u.skip_main = p.bra();
}
void unrolled_main_tail(program& p, unrolled& u, reg counter, std::initializer_list<reg> ptrs) {
  auto m = p.here();
  for (reg r : ptrs) p.iadd(r, r, rz);
  p.iadd(counter, counter, rz);
  p.isetp("NE", counter, rz);
  u.main_step = p.since(m);
  u.main_back = p.bra();
  m = p.here();
  p.isetp("EQ", 49, rz);
  u.rest_test = p.since(m);
  u.skip_rest = p.bra();
}
void unrolled_rest_tail(program& p, unrolled& u, std::initializer_list<reg> ptrs) {
  auto m = p.here();
  for (reg r : ptrs) p.iadd(r, r, rz);
  p.iadd(49, 49, rz);
  p.isetp("NE", 49, rz);
  u.rest_step = p.since(m);
  u.rest_back = p.bra();
}

// Trips of `u` for the lanes of act, lane l making count[l]: main(mask, k) for unrolled trip k
// (iterations 4k .. 4k + 3), rest(mask, r) for leftover r (iteration 4 (count / 4) + r).
template <class M, class R>
void run_unrolled(warp_emitter& e, const unrolled& u, std::uint32_t act, const counts& count,
                  M&& main, R&& rest) {
  e.run(u.enter, act);
  std::uint32_t some = 0;
  for (unsigned l = 0; l < 32; ++l)
    if ((act >> l & 1u) && count[l] >= 4) some |= 1u << l;
  e.run(u.skip_main, act & ~some);
  for (std::uint64_t k = 0; some != 0; ++k) {
    main(some, k);
    e.run(u.main_step, some);
    std::uint32_t next = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((some >> l & 1u) && count[l] / 4 > k + 1) next |= 1u << l;
    e.run(u.main_back, next);
    some = next;
  }
  e.run(u.rest_test, act);
  std::uint32_t left = 0;
  for (unsigned l = 0; l < 32; ++l)
    if ((act >> l & 1u) && count[l] % 4 != 0) left |= 1u << l;
  e.run(u.skip_rest, act & ~left);
  for (std::uint64_t r = 0; left != 0; ++r) {
    rest(left, r);
    e.run(u.rest_step, left);
    std::uint32_t next = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((left >> l & 1u) && count[l] % 4 > r + 1) next |= 1u << l;
    e.run(u.rest_back, next);
    left = next;
  }
}

counts uniform(std::uint64_t n) {
  counts c;
  c.fill(n);
  return c;
}

// kernel.cu's full convolution of an a-row square A (column-major) with a b-row square B
// into a c x c output at offset `off`: output ei's column (ja) and row (ia) ranges of A.
struct conv_ranges {
  std::int64_t ja1 = 0, ja2 = 0, ia1 = 0, ia2 = 0, jp1 = 0, ip1 = 0;
};
conv_ranges ranges_of(std::uint64_t ei, std::uint64_t c, std::int64_t a, std::int64_t b,
                      std::int64_t off) {
  std::int64_t ic = std::int64_t((ei + 1) % c), jc = std::int64_t((ei + 1) / c) + 1;
  if ((ei + 1) % c == 0) {
    ic = std::int64_t(c);
    jc -= 1;
  }
  conv_ranges r;
  const std::int64_t j = jc + off, i = ic + off;
  r.jp1 = j + 1;
  r.ip1 = i + 1;
  r.ja1 = b < r.jp1 ? r.jp1 - b : 1;
  r.ja2 = a < j ? a : j;
  r.ia1 = b < r.ip1 ? r.ip1 - b : 1;
  r.ia2 = a < i ? a : i;
  return r;
}

// One convolution phase; `image`: the template x window one (LDS and LDG per trip, FFMA),
// else the template-mask one (LDG tMask, FADD: `* 1` folds), whose result is multiplied
// by in2_sqr_sub2[ei].
struct conv_code {
  loop_code l;
  code setup, outer_test, outer_skip, outer_head;
  unrolled inner;
  std::array<code, 4> lds{}, ldg{};
  code math4, lds1, ldg1, math1, outer_step, outer_back, out_addr, ld_corr, scale, st;
};

conv_code make_conv(program& p, bool image) {
  conv_code c;
  c.l = loop_head(p);
  auto m = p.here();
  position(p);
  p.iadd(31, 30, rz);  // j = jc + joffset; jp1 = j + 1
  p.iadd(32, 31, rz);
  p.isetp("LT", 32, rz);  // in2_cols < jp1
  p.iadd(33, 32, rz);
  p.raw("SEL", {33}, {33});    // ja1
  p.raw("IMNMX", {34}, {31});  // ja2 = min(in_cols, j)
  p.iadd(35, 29, rz);          // i = ic + ioffset; ip1
  p.iadd(36, 35, rz);
  p.isetp("LT", 36, rz);
  p.iadd(37, 36, rz);
  p.raw("SEL", {37}, {37});    // ia1
  p.raw("IMNMX", {38}, {35});  // ia2
  p.raw("MOV", {39}, {});      // s = 0
  c.setup = p.since(m);
  m = p.here();
  p.isetp("GT", 33, 34);  // ja1 > ja2
  c.outer_test = p.since(m);
  c.outer_skip = p.bra();
  m = p.here();
  p.iadd(40, 32, 33);      // jb = jp1 - ja
  p.iadd(41, 33, rz);      // ja - 1
  p.imad(42, 41, rz, 37);  // in_rows (ja - 1) + ia1 - 1
  if (image) {
    p.shl(42, 42);           // byte offset in d_in_mod_temp
    p.imad(43, 40, rz, 36);  // in2_rows (jb - 1) + ip1 - ia1 - 1
    p.address(44, 43, 2);    // &in2[..]
  } else {
    p.address(44, 42, 4);  // &tMask[..]
  }
  p.iadd(46, 38, 37);  // trips = ia2 - ia1 + 1
  c.outer_head = p.since(m);
  unrolled_head(p, c.inner, 46);
  for (std::uint32_t j = 0; j < 4; ++j) {
    if (image) c.lds[j] = p.ld_shared(reg(50 + j), 42, 4);  // [R42 + 4j]
    c.ldg[j] = p.ld_global(reg(54 + j), 44, 4);             // [R44 -+ 4j]
  }
  m = p.here();
  for (std::uint32_t j = 0; j < 4; ++j)
    image ? p.ffma(39, reg(50 + j), reg(54 + j), 39) : p.fadd(39, 39, reg(54 + j));
  c.math4 = p.since(m);
  if (image)
    unrolled_main_tail(p, c.inner, 46, {42, 44, 45});
  else
    unrolled_main_tail(p, c.inner, 46, {44, 45});
  if (image) c.lds1 = p.ld_shared(50, 42, 4);
  c.ldg1 = p.ld_global(54, 44, 4);
  c.math1 = image ? p.ffma(39, 50, 54, 39) : p.fadd(39, 39, 54);
  if (image)
    unrolled_rest_tail(p, c.inner, {42, 44, 45});
  else
    unrolled_rest_tail(p, c.inner, {44, 45});
  m = p.here();
  p.iadd(33, 33, rz);  // ja++
  p.isetp("LE", 33, 34);
  c.outer_step = p.since(m);
  c.outer_back = p.bra();
  m = p.here();
  p.address(58, 20, 6);  // &out[ei_new]
  if (!image) p.address(60, 20, 8);
  c.out_addr = p.since(m);
  if (!image) {
    c.ld_corr = p.ld_global(62, 60, 4);  // in2_sqr_sub2[ei_new]
    c.scale = p.fmul(39, 62, 39);
  }
  c.st = p.st_global(58, 39, 4);
  loop_tail(p, c.l);
  return c;
}

// A remapping copy: dst[ei] = src[f(row, col)] (`guarded`: the pad, a load only inside).
struct remap_code {
  loop_code l;
  code pre, ld, post, st;
};
remap_code make_remap(program& p, bool to_shared, bool guarded, bool bar = true) {
  remap_code c;
  c.l = loop_head(p);
  auto m = p.here();
  position(p);
  if (guarded) {
    p.isetp("GT", 29, rz);  // row, col inside the original array
    p.isetp("LT", 29, rz);
    p.isetp("GT", 30, rz);
    p.isetp("LT", 30, rz);
    p.raw("MOV", {32}, {});  // 0 for the padding
  }
  p.iadd(31, 29, rz);      // ori_row
  p.iadd(33, 30, rz);      // ori_col
  p.imad(34, 33, rz, 31);  // ori_col * R + ori_row
  p.address(36, 34, 2);
  c.pre = p.since(m);
  c.ld = p.ld_global(32, 36, 4);
  m = p.here();
  if (to_shared)
    p.shl(38, 20);
  else
    p.address(38, 20, 4);
  c.post = p.since(m);
  c.st = to_shared ? p.st_shared(38, 32, 4) : p.st_global(38, 32, 4);
  loop_tail(p, c.l, bar);
  return c;
}

// An elementwise map: out[ei] = g(a[ei], b[ei]) (`math` between the loads and the store).
struct map_code {
  loop_code l;
  code pre, ld1, ld2, math, st;
};
template <class G>
map_code make_map(program& p, bool two, G&& math, bool bar = true) {
  map_code c;
  c.l = loop_head(p);
  auto m = p.here();
  p.address(22, 20, 2);
  if (two) p.address(24, 20, 4);
  p.address(26, 20, 6);
  c.pre = p.since(m);
  c.ld1 = p.ld_global(30, 22, 4);
  if (two) c.ld2 = p.ld_global(31, 24, 4);
  m = p.here();
  math(p);
  c.math = p.since(m);
  c.st = p.st_global(26, 32, 4);
  loop_tail(p, c.l, bar);
  return c;
}

// A thread per column or row walking `count` elements (cumulative sums: load, add, store
// back; the template sums and the maximum search: load and fold, then shared stores).
struct walk_code {
  loop_code l;
  code head;
  unrolled u;
  std::array<code, 4> ld{}, st{}, fold{};  // fold: the cumulative sums' adds
  code math4, ld1, math1, st1, tail;
  std::array<code, 2> sts{};
};
walk_code make_walk(program& p, bool cumsum, bool max_search) {
  walk_code c;
  c.l = loop_head(p);
  auto m = p.here();
  p.imad(21, 20, rz, rz);  // pos_ori
  p.address(22, 21, 10);
  p.raw("MOV", {24}, {});  // sum = 0 (largest = 0)
  p.raw("MOV", {25}, {});  // trips
  c.head = p.since(m);
  unrolled_head(p, c.u, 25);
  auto fold = [&](reg v) {
    if (max_search) {
      p.raw("FADD.FTZ", {v}, {v});  // |x|
      p.raw("FSETP.GT.AND", {}, {v, 24});
      p.raw("SEL", {27}, {21});  // largest_coordinate
      fp_select(p, 24, v, 24, v);
    } else {
      p.fadd(24, v, 24);
    }
  };
  if (cumsum) {
    for (std::uint32_t j = 0; j < 4; ++j) {
      c.ld[j] = p.ld_global(26, 22, 4);
      m = p.here();
      fold(26);
      c.fold[j] = p.since(m);
      c.st[j] = p.st_global(22, 24, 4);
    }
  } else {
    for (std::uint32_t j = 0; j < 4; ++j) c.ld[j] = p.ld_global(reg(50 + j), 22, 4);
    m = p.here();
    for (std::uint32_t j = 0; j < 4; ++j) fold(reg(50 + j));
    c.math4 = p.since(m);
  }
  unrolled_main_tail(p, c.u, 25, {22, 23});
  c.ld1 = p.ld_global(26, 22, 4);
  m = p.here();
  fold(26);
  c.math1 = p.since(m);
  if (cumsum) c.st1 = p.st_global(22, 24, 4);
  unrolled_rest_tail(p, c.u, {22, 23});
  if (!cumsum) {
    c.tail = p.shl(28, 20);
    c.sts[0] = p.st_shared(28, 27, 4);  // par_max_coo (max) / the partial sum
    if (max_search) c.sts[1] = p.st_shared(28, 24, 4);
  }
  loop_tail(p, c.l);
  return c;
}

// A one-thread loop over `count` shared words (the final sums, the final search).
struct serial_code {
  code test, skip, head;
  unrolled u;
  std::array<code, 4> lds{}, lds2{};
  code math4, lds1, lds21, math1;
};
serial_code make_serial(program& p, bool search) {
  serial_code c;
  auto m = p.here();
  p.isetp("NE", 0, rz);
  c.test = p.since(m);
  c.skip = p.bra();
  m = p.here();
  p.raw("MOV", {24}, {});
  p.raw("MOV", {25}, {});
  p.raw("MOV", {22}, {});
  c.head = p.since(m);
  unrolled_head(p, c.u, 25);
  for (std::uint32_t j = 0; j < 4; ++j) {
    c.lds[j] = p.ld_shared(reg(50 + j), 22, 4);
    if (search) c.lds2[j] = p.ld_shared(reg(54 + j), 22, 4);
  }
  auto fold = [&](reg v, reg coo) {
    if (search) {
      p.raw("FSETP.GT.AND", {}, {v, 24});
      fp_select(p, 24, v, 24, v);
      p.raw("SEL", {27}, {coo});
    } else {
      p.fadd(24, 24, v);
    }
  };
  m = p.here();
  for (std::uint32_t j = 0; j < 4; ++j) fold(reg(50 + j), reg(54 + j));
  c.math4 = p.since(m);
  unrolled_main_tail(p, c.u, 25, {22});
  c.lds1 = p.ld_shared(50, 22, 4);
  if (search) c.lds21 = p.ld_shared(54, 22, 4);
  m = p.here();
  fold(50, 54);
  c.math1 = p.since(m);
  unrolled_rest_tail(p, c.u, {22});
  return c;
}

// The kernel's static code, in kernel.cu's order.
struct kernel_code {
  code entry, f0_test, f0_skip;
  code t0_test, t0_skip, t0_addr1, t0_ld_row, t0_addr2, t0_ld_col, t0_addr3, t0_st_row, t0_addr4,
      t0_st_col;
  code tm_addr, tm_ld_row, tm_ld_col, tm_join;
  remap_code tmpl;
  code f0_done;
  code pr_addr, pr_ld_row, pr_ld_col, pr_math;
  remap_code select, rotate;
  conv_code conv;
  map_code square;
  struct chain {
    remap_code pad;
    walk_code vcum;
    remap_code sel, sel2;
    map_code sub;
    walk_code hcum;
    remap_code sel3, sel4;
    map_code sub2;
  };
  std::array<chain, 2> chains;
  map_code denom_a, in_sqr;
  walk_code in_sum, in_sqr_sum;
  serial_code fin0, fin1;
  code fin0_st, fin1_st, fin_bar;
  code dt_test, dt_skip, dt_ld1, dt_ld2, dt_math, dt_st, dt_bar;
  code dn_lds;
  map_code denom;
  code nu_lds;
  map_code numer, corr;
  code tm2_addr, tm2_ld_trow, tm2_ld_tcol, tm2_ld_row, tm2_ld_col, tm2_math;
  loop_code tmask_l;
  code tmask_math, tmask_st;
  conv_code mask_conv;
  walk_code max;
  serial_code fs;
  code fs_math, fs_ld_row, fs_ld_col, fs_addr, fs_st_row, fs_st_col, fs_bar;
  code up_test, up_skip, up_addr, up_ld_trow, up_ld_tcol, up_st_row, up_st_col;
  loop_code up_l;
  code up_pre, up_ld_t, up_ld_f, up_math, up_st;
  code exit;
};

kernel_code build(program& p) {
  kernel_code k;
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.imad(3, 2, rz, rz);                                       // bx * sizeof(params_unique)
  for (reg r = 4; r < 20; r += 2) p.raw("LDC.64", {r}, {3});  // d_unique[bx] pointers
  k.entry = p.since(m);
  k.f0_test = p.isetp("NE", 3, rz);  // frame_no != 0
  k.f0_skip = p.bra();
  // frame 0: thread 0 records the point, all copy the template.
  k.t0_test = p.isetp("NE", 0, rz);
  k.t0_skip = p.bra();
  m = p.here();
  p.imad(21, 3, rz, rz);  // pointer = point_no * no_frames + frame_no
  p.address(22, 3, 4);
  k.t0_addr1 = p.since(m);
  k.t0_ld_row = p.ld_global(24, 22, 4);
  k.t0_addr2 = p.address(26, 3, 6);
  k.t0_ld_col = p.ld_global(25, 26, 4);
  k.t0_addr3 = p.address(28, 21, 8);
  k.t0_st_row = p.st_global(28, 24, 4);
  k.t0_addr4 = p.address(30, 21, 10);
  k.t0_st_col = p.st_global(30, 25, 4);
  m = p.here();
  p.address(22, 3, 4);
  p.address(26, 3, 6);
  k.tm_addr = p.since(m);
  k.tm_ld_row = p.ld_global(16, 22, 4);
  k.tm_ld_col = p.ld_global(17, 26, 4);
  k.tmpl = make_remap(p, false, false, false);
  k.f0_done = p.bra();
  // other frames
  k.pr_addr = p.address(22, 3, 4);
  k.pr_ld_row = p.ld_global(16, 22, 4);
  k.pr_ld_col = p.ld_global(17, 22, 4);
  m = p.here();
  p.iadd(16, 16, rz);  // in2_rowlow = Row - sSize
  p.iadd(17, 17, rz);
  k.pr_math = p.since(m);
  k.select = make_remap(p, false, false);
  k.rotate = make_remap(p, true, false);
  k.conv = make_conv(p, true);
  for (std::size_t i = 0; i < 2; ++i) {
    auto& c = k.chains[i];
    if (i == 1) k.square = make_map(p, false, [](program& q) { q.fmul(32, 30, 30); });
    c.pad = make_remap(p, false, true);
    c.vcum = make_walk(p, true, false);
    c.sel = make_remap(p, false, false);
    c.sel2 = make_remap(p, false, false);
    // kernel.cu has no __syncthreads() after the second chain's first subtraction.
    c.sub = make_map(
        p, true, [](program& q) { q.fadd(32, 30, 31); }, i == 0);
    c.hcum = make_walk(p, true, false);
    c.sel3 = make_remap(p, false, false);
    c.sel4 = make_remap(p, false, false);
    c.sub2 = make_map(p, true, [](program& q) { q.fadd(32, 30, 31); });
  }
  k.denom_a = make_map(p, true, [](program& q) {
    q.fmul(33, 30, 30);  // temp * temp
    q.i2f(34, 3);        // (float) in_elem
    fp_div(q, 35, 33, 34);
    q.fadd(33, 31, 35);
    q.raw("FMNMX", {33}, {33});  // temp2 < 0: 0
    fp_sqrt(q, 32, 33);
  });
  k.in_sqr = make_map(p, false, [](program& q) { q.fmul(32, 30, 30); });
  k.in_sum = make_walk(p, false, false);
  k.in_sqr_sum = make_walk(p, false, false);
  k.fin0 = make_serial(p, false);
  k.fin0_st = p.st_shared(rz, 24, 4);
  k.fin1 = make_serial(p, false);
  k.fin1_st = p.st_shared(rz, 24, 4);
  k.fin_bar = p.bar_sync();
  k.dt_test = p.isetp("NE", 0, rz);
  k.dt_skip = p.bra();
  k.dt_ld1 = p.ld_shared(30, rz, 4);
  k.dt_ld2 = p.ld_shared(31, rz, 4);
  m = p.here();
  p.i2f(32, 3);
  fp_div(p, 33, 30, 32);  // mean
  p.fmul(36, 33, 33);
  fp_div(p, 37, 31, 32);
  p.fadd(37, 37, 36);  // variance
  fp_sqrt(p, 40, 37);  // deviation
  p.iadd(43, 3, rz);
  p.i2f(43, 43);
  fp_sqrt(p, 44, 43);  // sqrt(float(in_elem - 1))
  p.fmul(47, 44, 40);
  k.dt_math = p.since(m);
  k.dt_st = p.st_shared(rz, 47, 4);
  k.dt_bar = p.bar_sync();
  k.dn_lds = p.ld_shared(48, rz, 4);
  k.denom = make_map(p, false, [](program& q) { q.fmul(32, 30, 48); });
  k.nu_lds = p.ld_shared(48, rz, 4);
  k.numer = make_map(p, true, [](program& q) {
    q.fmul(33, 31, 48);
    q.i2f(34, 3);
    fp_div(q, 35, 33, 34);
    q.fadd(32, 30, 35);
  });
  k.corr = make_map(p, true, [](program& q) { fp_div(q, 32, 30, 31); });
  m = p.here();
  p.imad(21, 3, rz, 3);  // pointer = frame_no - 1 + point_no * no_frames
  p.address(22, 21, 8);
  p.address(24, 21, 10);
  p.address(26, 3, 4);
  p.address(28, 3, 6);
  k.tm2_addr = p.since(m);
  k.tm2_ld_trow = p.ld_global(30, 22, 4);
  k.tm2_ld_tcol = p.ld_global(31, 24, 4);
  k.tm2_ld_row = p.ld_global(32, 26, 4);
  k.tm2_ld_col = p.ld_global(33, 28, 4);
  m = p.here();
  p.iadd(30, 30, 32);  // tMask_row = cent + tRowLoc - Row - 1
  p.iadd(31, 31, 33);
  p.imad(34, 31, rz, 30);  // location
  k.tm2_math = p.since(m);
  k.tmask_l = loop_head(p);
  m = p.here();
  p.isetp("EQ", 20, 34);
  p.raw("SEL", {35}, {});  // 1 : 0 (as floats)
  p.address(36, 20, 12);
  k.tmask_math = p.since(m);
  k.tmask_st = p.st_global(36, 35, 4);
  loop_tail(p, k.tmask_l);
  k.mask_conv = make_conv(p, false);
  k.max = make_walk(p, false, true);
  k.fs = make_serial(p, true);
  m = p.here();
  divmod(p, 40, 41, 27);  // fin_max_coo's row and column
  p.isetp("EQ", 41, rz);
  p.raw("SEL", {41}, {41});
  p.raw("SEL", {40}, {40});
  p.iadd(41, 41, rz);  // offset_row, offset_col
  p.iadd(40, 40, rz);
  p.imad(42, 3, rz, 3);  // pointer = frame_no + point_no * no_frames
  p.address(22, 3, 4);
  p.address(26, 3, 6);
  k.fs_math = p.since(m);
  k.fs_ld_row = p.ld_global(43, 22, 4);
  k.fs_ld_col = p.ld_global(44, 26, 4);
  m = p.here();
  p.iadd(43, 43, 41);
  p.iadd(44, 44, 40);
  p.address(28, 42, 8);
  p.address(30, 42, 10);
  k.fs_addr = p.since(m);
  k.fs_st_row = p.st_global(28, 43, 4);
  k.fs_st_col = p.st_global(30, 44, 4);
  k.fs_bar = p.bar_sync();
  // frames 10, 20, ...: the new template
  m = p.here();
  p.imad(21, 3, rz, rz);  // frame_no % 10 (IMAD.HI, SHR, IMAD)
  p.shr(21, 21);
  p.imad(21, 21, rz, 3);
  p.isetp("NE", 21, rz);
  k.up_test = p.since(m);
  k.up_skip = p.bra();
  m = p.here();
  p.imad(21, 3, rz, 3);  // loc_pointer
  p.address(22, 21, 8);
  p.address(24, 21, 10);
  k.up_addr = p.since(m);
  k.up_ld_trow = p.ld_global(16, 22, 4);
  k.up_ld_tcol = p.ld_global(17, 24, 4);
  k.up_st_row = p.st_global(4, 16, 4);
  k.up_st_col = p.st_global(6, 17, 4);
  k.up_l = loop_head(p);
  m = p.here();
  position(p);
  p.iadd(31, 29, 16);  // ori_row = Row - 25 + row - 1
  p.iadd(33, 30, 17);
  p.imad(34, 33, rz, 31);
  p.address(36, 34, rz);  // &d_frame[ori_pointer]
  p.address(38, 20, 12);  // &d_in[ei_new]
  k.up_pre = p.since(m);
  k.up_ld_t = p.ld_global(40, 38, 4);
  k.up_ld_f = p.ld_global(41, 36, 4);
  m = p.here();
  p.fmul(40, 40, rz);  // alpha * d_in (float)
  f2d(p, 42, rz);      // 1.00 - alpha, in double
  dadd(p, 42, 42, rz);
  f2d(p, 44, 41);
  dmul(p, 44, 42, 44);
  f2d(p, 46, 40);
  dadd(p, 44, 46, 44);
  d2f(p, 40, 44);
  k.up_math = p.since(m);
  k.up_st = p.st_global(38, 40, 4);
  loop_tail(p, k.up_l, false);
  k.exit = p.exit();
  p.bra();
  return k;
}

class generator {
 public:
  generator(app_builder& app, const sizes& z) : m_app(app), m_z(z) {}
  void run(std::uint64_t frames);

 private:
  void allocate();
  void tb(const kernel_code& k, const program& p, tb_trace& t, std::uint64_t frame);

  app_builder& m_app;
  sizes m_z;
  std::uint64_t m_frame = 0;
  std::vector<point> m_points;
};

void generator::allocate() {
  const std::uint64_t nf = m_z.no_frames;
  m_frame = m_app.output(4 * m_z.rows * m_z.cols);  // copied before every launch
  const std::uint64_t endo_row_a = m_app.input(4 * endo_points);
  const std::uint64_t endo_col_a = m_app.input(4 * endo_points);
  const std::uint64_t endo_trow = m_app.output(4 * endo_points * nf);
  const std::uint64_t endo_tcol = m_app.output(4 * endo_points * nf);
  const std::uint64_t epi_row_a = m_app.input(4 * epi_points);
  const std::uint64_t epi_col_a = m_app.input(4 * epi_points);
  const std::uint64_t epi_trow = m_app.output(4 * epi_points * nf);
  const std::uint64_t epi_tcol = m_app.output(4 * epi_points * nf);
  const std::uint64_t in_mem = 4 * m_z.in_elem();
  const std::uint64_t endo_t = m_app.output(in_mem * endo_points);
  const std::uint64_t epi_t = m_app.output(in_mem * epi_points);
  m_points.resize(all_points);
  for (std::uint32_t i = 0; i < all_points; ++i) {
    point& pt = m_points[i];
    const bool endo = i < endo_points;
    pt.no = endo ? i : i - endo_points;
    pt.row_arr = endo ? endo_row_a : epi_row_a;
    pt.col_arr = endo ? endo_col_a : epi_col_a;
    pt.trow = endo ? endo_trow : epi_trow;
    pt.tcol = endo ? endo_tcol : epi_tcol;
    pt.tmpl = (endo ? endo_t : epi_t) + in_mem * pt.no;  // &d_T[in_pointer]
    pt.row = endo ? endo_row[pt.no] : epi_row[pt.no];
    pt.col = endo ? endo_col[pt.no] : epi_col[pt.no];
  }
  // One cudaMalloc loop over the points per array, in main.cu's order.
  const std::uint64_t conv_mem = 4 * m_z.conv_elem(), sel_mem = 4 * m_z.sel_elem();
  for (auto& pt : m_points) pt.in2 = m_app.output(4 * m_z.in2_elem());
  for (auto& pt : m_points) pt.conv = m_app.output(conv_mem);
  for (auto& pt : m_points) pt.pad = m_app.output(4 * m_z.pad_elem());
  for (auto& pt : m_points) pt.pad_sel = m_app.output(sel_mem);
  for (auto& pt : m_points) pt.sub_cumh = m_app.output(sel_mem);
  for (auto& pt : m_points) pt.sub_cumh_sel = m_app.output(conv_mem);
  for (auto& pt : m_points) pt.sub2 = m_app.output(conv_mem);
  for (auto& pt : m_points) pt.in2_sqr = m_app.output(4 * m_z.in2_elem());
  for (auto& pt : m_points) pt.sqr_sub2 = m_app.output(conv_mem);
  for (auto& pt : m_points) pt.in_sqr = m_app.output(in_mem);
  for (auto& pt : m_points) pt.tmask = m_app.output(conv_mem);
  for (auto& pt : m_points) pt.mask_conv = m_app.output(conv_mem);
}

void generator::run(std::uint64_t frames) {
  allocate();
  program p(m_app.opcodes(), 63);
  const kernel_code k = build(p);
  for (std::uint64_t f = 0; f < frames; ++f) {
    m_app.memcpy_h2d(m_frame, 4 * m_z.rows * m_z.cols);
    const kernel_info info = m_app.kernel("_Z6kernelv", m_app.reserve_kernel_id(),
                                          dim3{all_points, 1, 1}, dim3{threads, 1, 1}, shmem, p);
    m_app.write_kernel(info, [&](tb_trace& t) { tb(k, p, t, f); });
  }
}

void generator::tb(const kernel_code& k, const program& p, tb_trace& t, std::uint64_t frame) {
  const point& pt = m_points[t.index.x];
  const sizes& z = m_z;
  const std::uint64_t in = z.in, in2 = z.in2, cv = z.conv, pad = z.pad;
  const std::int64_t s = std::int64_t(z.s), tt = std::int64_t(z.t);
  const std::uint64_t row_addr = pt.row_arr + 4 * pt.no, col_addr = pt.col_arr + 4 * pt.no;
  const std::uint64_t rows = z.rows;
  auto pixel = [&](std::int64_t r, std::int64_t c) {
    return m_frame + 4 * (std::uint64_t(c) * rows + std::uint64_t(r));
  };
  // (row, col) of ei in an R-row column-major matrix.
  auto rc = [](std::uint64_t ei, std::uint64_t r) {
    return std::pair<std::int64_t, std::int64_t>(std::int64_t(ei % r), std::int64_t(ei / r));
  };
  for (std::uint32_t w = 0; w < t.warps.size(); ++w) {
    warp_emitter e(p, t.warps[w]);
    const warp_lanes lanes = lanes_of(dim3{threads, 1, 1}, w);
    const std::uint32_t live = lanes.live;
    const lane_ids& tid = lanes.flat;
    const std::uint32_t t0 = w == 0 ? 1u : 0u, t1 = w == 0 ? 2u : 0u;
    auto at = [](std::uint64_t a) { return [a](unsigned) { return a; }; };
    auto ei_of = [&](unsigned l, std::uint64_t k2) { return tid[l] + std::uint64_t(threads) * k2; };
    auto remap = [&](const remap_code& c, std::uint64_t n, auto&& src, auto&& dst, auto&& inside) {
      strided(e, c.l, live, tid, n, [&](std::uint32_t act, std::uint64_t k2) {
        e.run(c.pre, act);
        std::uint32_t ld = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((act >> l & 1u) && inside(ei_of(l, k2))) ld |= 1u << l;
        e.mem_fn(c.ld, ld, [&](unsigned l) { return src(ei_of(l, k2)); });
        e.run(c.post, act);
        e.mem_fn(c.st, act, [&](unsigned l) { return dst(ei_of(l, k2)); });
      });
    };
    auto all = [](std::uint64_t) { return true; };
    auto map = [&](const map_code& c, std::uint64_t n, std::uint64_t a, std::uint64_t b,
                   std::uint64_t out) {
      strided(e, c.l, live, tid, n, [&](std::uint32_t act, std::uint64_t k2) {
        e.run(c.pre, act);
        e.mem_fn(c.ld1, act, [&](unsigned l) { return a + 4 * ei_of(l, k2); });
        if (c.ld2.count != 0)
          e.mem_fn(c.ld2, act, [&](unsigned l) { return b + 4 * ei_of(l, k2); });
        e.run(c.math, act);
        e.mem_fn(c.st, act, [&](unsigned l) { return out + 4 * ei_of(l, k2); });
      });
    };
    // A thread per line: element i of line ei at base + 4 (ei * line + i * step).
    auto walk = [&](const walk_code& c, std::uint64_t n, std::uint64_t count, std::uint64_t base,
                    std::uint64_t line, std::uint64_t step, std::uint64_t sts0,
                    std::uint64_t sts1) {
      const counts cnt = uniform(count);
      strided(e, c.l, live, tid, n, [&](std::uint32_t act, std::uint64_t k2) {
        auto addr = [&](unsigned l, std::uint64_t i) {
          return base + 4 * (ei_of(l, k2) * line + i * step);
        };
        e.run(c.head, act);
        run_unrolled(
            e, c.u, act, cnt,
            [&](std::uint32_t mk, std::uint64_t u) {
              for (std::uint64_t j = 0; j < 4; ++j) {
                e.mem_fn(c.ld[j], mk, [&](unsigned l) { return addr(l, 4 * u + j); });
                if (c.st[j].count != 0) {
                  e.run(c.fold[j], mk);
                  e.mem_fn(c.st[j], mk, [&](unsigned l) { return addr(l, 4 * u + j); });
                }
              }
              if (c.st[0].count == 0) e.run(c.math4, mk);
            },
            [&](std::uint32_t mk, std::uint64_t r) {
              const std::uint64_t i = count / 4 * 4 + r;
              e.mem_fn(c.ld1, mk, [&](unsigned l) { return addr(l, i); });
              e.run(c.math1, mk);
              if (c.st1.count != 0) e.mem_fn(c.st1, mk, [&](unsigned l) { return addr(l, i); });
            });
        if (c.tail.count != 0) {
          e.run(c.tail, act);
          e.mem_fn(c.sts[0], act, [&](unsigned l) { return sts0 + 4 * ei_of(l, k2); });
          if (c.sts[1].count != 0)
            e.mem_fn(c.sts[1], act, [&](unsigned l) { return sts1 + 4 * ei_of(l, k2); });
        }
      });
    };
    auto serial = [&](const serial_code& c, std::uint32_t who, std::uint64_t count, std::uint64_t a,
                      std::uint64_t b) {
      e.run(c.test, live);
      e.run(c.skip, live & ~who);
      if (who == 0) return;
      e.run(c.head, who);
      run_unrolled(
          e, c.u, who, uniform(count),
          [&](std::uint32_t mk, std::uint64_t u) {
            for (std::uint64_t j = 0; j < 4; ++j) {
              e.mem_fn(c.lds[j], mk, at(a + 4 * (4 * u + j)));
              if (c.lds2[j].count != 0) e.mem_fn(c.lds2[j], mk, at(b + 4 * (4 * u + j)));
            }
            e.run(c.math4, mk);
          },
          [&](std::uint32_t mk, std::uint64_t r) {
            const std::uint64_t i = count / 4 * 4 + r;
            e.mem_fn(c.lds1, mk, at(a + 4 * i));
            if (c.lds21.count != 0) e.mem_fn(c.lds21, mk, at(b + 4 * i));
            e.run(c.math1, mk);
          });
    };
    // A convolution of an a-row A at `abase` (LDS when image) with a b-row B at `bbase`.
    auto convolve = [&](const conv_code& c, bool image, std::uint64_t abase, std::int64_t a,
                        std::uint64_t bbase, std::int64_t b, std::int64_t off, std::uint64_t out) {
      strided(e, c.l, live, tid, cv * cv, [&](std::uint32_t act, std::uint64_t k2) {
        std::array<conv_ranges, 32> r{};
        counts inner{};
        std::int64_t outer = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (act >> l & 1u) {
            r[l] = ranges_of(ei_of(l, k2), cv, a, b, off);
            inner[l] = std::uint64_t(r[l].ia2 - r[l].ia1 + 1);
            outer = std::max(outer, r[l].ja2 - r[l].ja1 + 1);
          }
        e.run(c.setup, act);
        e.run(c.outer_test, act);
        std::uint32_t go = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((act >> l & 1u) && r[l].ja1 <= r[l].ja2) go |= 1u << l;
        e.run(c.outer_skip, act & ~go);
        for (std::int64_t o = 0; o < outer && go != 0; ++o) {
          e.run(c.outer_head, go);
          auto a_at = [&](unsigned l, std::uint64_t i) {
            const std::int64_t ja = r[l].ja1 + o, ia = r[l].ia1 + std::int64_t(i);
            return abase + 4 * std::uint64_t(a * (ja - 1) + ia - 1);
          };
          auto b_at = [&](unsigned l, std::uint64_t i) {
            const std::int64_t jb = r[l].jp1 - (r[l].ja1 + o);
            const std::int64_t ib = r[l].ip1 - (r[l].ia1 + std::int64_t(i));
            return bbase + 4 * std::uint64_t(b * (jb - 1) + ib - 1);
          };
          run_unrolled(
              e, c.inner, go, inner,
              [&](std::uint32_t mk, std::uint64_t u) {
                for (std::uint64_t j = 0; j < 4; ++j) {
                  if (image) {
                    e.mem_fn(c.lds[j], mk, [&](unsigned l) { return a_at(l, 4 * u + j); });
                    e.mem_fn(c.ldg[j], mk, [&](unsigned l) { return b_at(l, 4 * u + j); });
                  } else {
                    e.mem_fn(c.ldg[j], mk, [&](unsigned l) { return a_at(l, 4 * u + j); });
                  }
                }
                e.run(c.math4, mk);
              },
              [&](std::uint32_t mk, std::uint64_t rr) {
                auto it = [&](unsigned l) { return inner[l] / 4 * 4 + rr; };
                if (image) {
                  e.mem_fn(c.lds1, mk, [&](unsigned l) { return a_at(l, it(l)); });
                  e.mem_fn(c.ldg1, mk, [&](unsigned l) { return b_at(l, it(l)); });
                } else {
                  e.mem_fn(c.ldg1, mk, [&](unsigned l) { return a_at(l, it(l)); });
                }
                e.run(c.math1, mk);
              });
          e.run(c.outer_step, go);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((go >> l & 1u) && r[l].ja1 + o + 1 <= r[l].ja2) next |= 1u << l;
          e.run(c.outer_back, next);
          go = next;
        }
        e.run(c.out_addr, act);
        if (!image) {
          e.mem_fn(c.ld_corr, act, [&](unsigned l) { return pt.sqr_sub2 + 4 * ei_of(l, k2); });
          e.run(c.scale, act);
        }
        e.mem_fn(c.st, act, [&](unsigned l) { return out + 4 * ei_of(l, k2); });
      });
    };

    e.run(k.entry, live);
    e.run(k.f0_test, live);
    if (frame == 0) {
      // Template from the first frame.
      e.run(k.t0_test, live);
      e.run(k.t0_skip, live & ~t0);
      const std::uint64_t pointer = pt.no * z.no_frames + frame;
      e.run(k.t0_addr1, t0);
      e.mem_fn(k.t0_ld_row, t0, at(row_addr));
      e.run(k.t0_addr2, t0);
      e.mem_fn(k.t0_ld_col, t0, at(col_addr));
      e.run(k.t0_addr3, t0);
      e.mem_fn(k.t0_st_row, t0, at(pt.trow + 4 * pointer));
      e.run(k.t0_addr4, t0);
      e.mem_fn(k.t0_st_col, t0, at(pt.tcol + 4 * pointer));
      e.run(k.tm_addr, live);
      e.mem_fn(k.tm_ld_row, live, at(row_addr));
      e.mem_fn(k.tm_ld_col, live, at(col_addr));
      remap(
          k.tmpl, z.in_elem(),
          [&](std::uint64_t ei) {
            auto [row, col] = rc(ei, in);
            return pixel(pt.row - tt + row - 1, pt.col - tt + col - 1);
          },
          [&](std::uint64_t ei) { return pt.tmpl + 4 * ei; }, all);
      e.run(k.f0_done, live);
    } else {
      e.run(k.f0_skip, live);
      e.run(k.pr_addr, live);
      e.mem_fn(k.pr_ld_row, live, at(row_addr));
      e.mem_fn(k.pr_ld_col, live, at(col_addr));
      e.run(k.pr_math, live);
      remap(
          k.select, z.in2_elem(),
          [&](std::uint64_t ei) {
            auto [row, col] = rc(ei, in2);
            return pixel(row + pt.row - s - 1, col + pt.col - s - 1);
          },
          [&](std::uint64_t ei) { return pt.in2 + 4 * ei; }, all);
      remap(
          k.rotate, z.in_elem(),
          [&](std::uint64_t ei) {
            auto [row, col] = rc(ei, in);
            return pt.tmpl + 4 * ((in - 1 - std::uint64_t(col)) * in + in - 1 - std::uint64_t(row));
          },
          [&](std::uint64_t ei) { return sh_in_mod + 4 * ei; }, all);
      convolve(k.conv, true, sh_in_mod, std::int64_t(in), pt.in2, std::int64_t(in2), 0, pt.conv);
      for (std::size_t i = 0; i < 2; ++i) {
        const auto& c = k.chains[i];
        const std::uint64_t src = i == 0 ? pt.in2 : pt.in2_sqr;
        const std::uint64_t out = i == 0 ? pt.sub2 : pt.sqr_sub2;
        if (i == 1) map(k.square, z.in2_elem(), pt.in2, 0, pt.in2_sqr);
        auto inside = [&](std::uint64_t ei) {
          auto [row, col] = rc(ei, pad);
          return row >= std::int64_t(in) && row < std::int64_t(in + in2) &&
                 col >= std::int64_t(in) && col < std::int64_t(in + in2);
        };
        remap(
            c.pad, z.pad_elem(),
            [&](std::uint64_t ei) {
              auto [row, col] = rc(ei, pad);
              return src + 4 * (std::uint64_t(col - std::int64_t(in)) * in2 +
                                std::uint64_t(row - std::int64_t(in)));
            },
            [&](std::uint64_t ei) { return pt.pad + 4 * ei; }, inside);
        walk(c.vcum, pad, pad, pt.pad, pad, 1, 0, 0);
        remap(
            c.sel, z.sel_elem(),
            [&](std::uint64_t ei) {
              auto [row, col] = rc(ei, cv);
              return pt.pad + 4 * (std::uint64_t(col) * pad + std::uint64_t(row) + in);
            },
            [&](std::uint64_t ei) { return pt.pad_sel + 4 * ei; }, all);
        remap(
            c.sel2, z.sel_elem(),
            [&](std::uint64_t ei) {
              auto [row, col] = rc(ei, cv);
              return pt.pad + 4 * (std::uint64_t(col) * pad + std::uint64_t(row));
            },
            [&](std::uint64_t ei) { return pt.sub_cumh + 4 * ei; }, all);
        map(c.sub, z.sel_elem(), pt.pad_sel, pt.sub_cumh, pt.sub_cumh);
        walk(c.hcum, cv, pad, pt.sub_cumh, 1, cv, 0, 0);
        remap(
            c.sel3, z.conv_elem(),
            [&](std::uint64_t ei) {
              auto [row, col] = rc(ei, cv);
              return pt.sub_cumh + 4 * ((std::uint64_t(col) + in) * cv + std::uint64_t(row));
            },
            [&](std::uint64_t ei) { return pt.sub_cumh_sel + 4 * ei; }, all);
        remap(
            c.sel4, z.conv_elem(),
            [&](std::uint64_t ei) { return pt.sub_cumh + 4 * ei; },  // (col, row) in conv rows
            [&](std::uint64_t ei) { return out + 4 * ei; }, all);
        map(c.sub2, z.conv_elem(), pt.sub_cumh_sel, out, out);
      }
      map(k.denom_a, z.conv_elem(), pt.sub2, pt.sqr_sub2, pt.sqr_sub2);
      map(k.in_sqr, z.in_elem(), pt.tmpl, 0, pt.in_sqr);
      walk(k.in_sum, in, in, pt.tmpl, in, 1, sh_in_partial, 0);
      walk(k.in_sqr_sum, in, in, pt.in_sqr, 1, in, sh_in_sqr_partial, 0);
      serial(k.fin0, t0, in, sh_in_partial, 0);
      e.mem_fn(k.fin0_st, t0, at(sh_in_final));
      serial(k.fin1, t1, in, sh_in_sqr_partial, 0);
      e.mem_fn(k.fin1_st, t1, at(sh_in_sqr_final));
      e.run(k.fin_bar, live);
      e.run(k.dt_test, live);
      e.run(k.dt_skip, live & ~t0);
      e.mem_fn(k.dt_ld1, t0, at(sh_in_final));
      e.mem_fn(k.dt_ld2, t0, at(sh_in_sqr_final));
      e.run(k.dt_math, t0);
      e.mem_fn(k.dt_st, t0, at(sh_denom));
      e.run(k.dt_bar, live);
      std::uint32_t enter = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((live >> l & 1u) && tid[l] < z.conv_elem()) enter |= 1u << l;
      e.mem_fn(k.dn_lds, enter, at(sh_denom));
      map(k.denom, z.conv_elem(), pt.sqr_sub2, 0, pt.sqr_sub2);
      e.mem_fn(k.nu_lds, enter, at(sh_in_final));
      map(k.numer, z.conv_elem(), pt.conv, pt.sub2, pt.conv);
      map(k.corr, z.conv_elem(), pt.conv, pt.sqr_sub2, pt.sqr_sub2);
      const std::uint64_t prev = frame - 1 + pt.no * z.no_frames;
      e.run(k.tm2_addr, live);
      e.mem_fn(k.tm2_ld_trow, live, at(pt.trow + 4 * prev));
      e.mem_fn(k.tm2_ld_tcol, live, at(pt.tcol + 4 * prev));
      e.mem_fn(k.tm2_ld_row, live, at(row_addr));
      e.mem_fn(k.tm2_ld_col, live, at(col_addr));
      e.run(k.tm2_math, live);
      strided(e, k.tmask_l, live, tid, z.conv_elem(), [&](std::uint32_t act, std::uint64_t k2) {
        e.run(k.tmask_math, act);
        e.mem_fn(k.tmask_st, act, [&](unsigned l) { return pt.tmask + 4 * ei_of(l, k2); });
      });
      convolve(k.mask_conv, false, pt.tmask, std::int64_t(cv), 0, std::int64_t(mask_rows),
               std::int64_t(mask_offset), pt.mask_conv);
      walk(k.max, cv, cv, pt.mask_conv, cv, 1, sh_par_coo, sh_par_val);
      serial(k.fs, t0, cv, sh_par_val, sh_par_coo);
      const std::uint64_t here = frame + pt.no * z.no_frames;
      e.run(k.fs_math, t0);
      e.mem_fn(k.fs_ld_row, t0, at(row_addr));
      e.mem_fn(k.fs_ld_col, t0, at(col_addr));
      e.run(k.fs_addr, t0);
      e.mem_fn(k.fs_st_row, t0, at(pt.trow + 4 * here));
      e.mem_fn(k.fs_st_col, t0, at(pt.tcol + 4 * here));
      e.run(k.fs_bar, live);
    }
    e.run(k.up_test, live);
    if (frame == 0 || frame % template_batch != 0) {
      e.run(k.up_skip, live);
    } else {
      const std::uint64_t loc = pt.no * z.no_frames + frame;
      e.run(k.up_addr, live);
      e.mem_fn(k.up_ld_trow, live, at(pt.trow + 4 * loc));
      e.mem_fn(k.up_ld_tcol, live, at(pt.tcol + 4 * loc));
      e.mem_fn(k.up_st_row, live, at(row_addr));
      e.mem_fn(k.up_st_col, live, at(col_addr));
      strided(e, k.up_l, live, tid, z.in_elem(), [&](std::uint32_t act, std::uint64_t k2) {
        e.run(k.up_pre, act);
        e.mem_fn(k.up_ld_t, act, [&](unsigned l) { return pt.tmpl + 4 * ei_of(l, k2); });
        e.mem_fn(k.up_ld_f, act, [&](unsigned l) {
          auto [row, col] = rc(ei_of(l, k2), in);
          return pixel(pt.row - tt + row - 1, pt.col - tt + col - 1);
        });
        e.run(k.up_math, act);
        e.mem_fn(k.up_st, act, [&](unsigned l) { return pt.tmpl + 4 * ei_of(l, k2); });
      });
    }
    e.run(k.exit, live);
  }
}

void generate_heartwall(const param_set& ps, app_builder& app) {
  sizes z;
  z.t = ps.u32("t_size");
  z.s = ps.u32("s_size");
  z.cols = ps.u32("width");
  z.rows = ps.u32("height");
  z.no_frames = ps.u32("video_frames");
  const std::uint64_t frames = ps.u32("frames");
  if (frames > z.no_frames) param_set::fail("frames", "must be at most video_frames");
  z.in = 2 * z.t + 1;
  z.in2 = 2 * z.s + 1;
  z.conv = z.in + z.in2 - 1;
  z.pad = z.in2 + 2 * z.in;
  // Every window row/column Row - sSize - 1 .. Row + sSize - 1 must be inside the frame.
  const std::int64_t max_row = 543, max_col = 457;  // the points' largest coordinates
  if (std::int64_t(z.rows) < max_row + std::int64_t(z.s))
    param_set::fail("height", "must be at least " + std::to_string(max_row + z.s) +
                                  " (the points' search windows)");
  if (std::int64_t(z.cols) < max_col + std::int64_t(z.s))
    param_set::fail("width", "must be at least " + std::to_string(max_col + z.s) +
                                 " (the points' search windows)");
  generator(app, z).run(frames);
}
}  // namespace heartwall_kernels
}  // namespace

kernel_generator heartwall_generator() {
  return {"heartwall",
          "Rodinia heartwall tracking: a launch per frame, a 256-thread TB per point (51): "
          "template x window convolution (LDS/LDG/FFMA), cumulative sums, correlation",
          {param_desc::integer("frames", 2, 1, 104,
                               "frames processed (frame 0 makes the templates; Rodinia runs 20)"),
           param_desc::integer("t_size", 12, 2, 25,
                               "template half-size tSize (Rodinia 25: 51 x 51 templates)"),
           param_desc::integer("s_size", 20, 2, 40,
                               "search half-size sSize (Rodinia 40: 81 x 81 windows)"),
           param_desc::integer("width", 609, 1, 8192, "frame width (test.avi: 609)"),
           param_desc::integer("height", 590, 1, 8192, "frame height (test.avi: 590)"),
           param_desc::integer("video_frames", 104, 1, 100000,
                               "frames in the video, no_frames (test.avi: 104)")},
          heartwall_kernels::generate_heartwall};
}

}  // namespace gputlm::traces::generators
