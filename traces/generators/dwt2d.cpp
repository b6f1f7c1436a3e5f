// Rodinia dwt2d (Rodinia 3.1 cuda/dwt2d, Matela's GPU JPEG 2000 DWT; PAVER's DWT, Tripathy's
// thesis Table 3.2), forward 5/3 integer transform as the Rodinia run does it
// (`dwt2d rgb.bmp -d 1024x1024 -f -5 -l 3`):
//
// * c_CopySrcToComponents<int> (components.cu; c_CopySrcToComponent for components=1): TBs
//   of 256 threads over the interleaved 8-bit source; threads x < 192 (x < 64) copy one 4-byte
//   word d_src[192 bx + x] (d_src[64 bx + x]) into shared memory, BAR.SYNC, every thread reads
//   its pixel's 3 (1) bytes (LDS.U8) and, if inside the image, stores pixel - 128 into d_r,
//   d_g, d_b (d_c) at 256 bx + x.
// * Per component, `levels` launches of fdwt53Kernel<WIN_SX, 8> (dwt_cuda/fdwt53.cu), WIN_SX =
//   192, 128 or 64 for a level width of at least 960, at least 480, or less; steps =
//   ceil(sy / 120); grid ceil(sx / WIN_SX) x ceil(sy / (8 steps)) of WIN_SX threads. Thread tx
//   owns image column bx WIN_SX + tx and threads 0, 1, 2 also the boundary columns WIN_SX, -2,
//   -1 (x mirrored at the image edges: x >= sx -> 2 sx - 2 - x, x < 0 -> -x). A column
//   loader (VerticalDWTPixelLoader) reads rows firstY - 2 .. firstY (firstY = 8 steps by;
//   the top TB row reads rows 0, 1, 2 and restarts at row 1), then 8 more rows per sliding
//   window step; the TBs near the bottom edge (CHECK_LOADS) reflect at row sy (sy -> sy - 2,
//   then upwards). So a TB reads 3 rows and 3 columns of its neighbours' pixels: the halo
//   the TBs share. Per window step: the column's 11 rows go into the TransformBuffer (odd
//   and even columns in two halves, 2 boundary columns, padded for banks), BAR.SYNC, the
//   horizontal predict (every thread updates words tx, tx + WIN_SX, ... of the odd half from
//   its even neighbours: 3 LDS + STS each, a last partial pass by the first
//   (8 (WIN_SX / 2 + 2) - 1) mod WIN_SX threads), BAR.SYNC, the horizontal update likewise,
//   BAR.SYNC, each thread stores 4 low and 4 high coefficients of its output column
//   (parityIdx) into the four bands (VerticalDWTBandWriter; CHECK_WRITES TBs stop at the
//   image's last row and skip columns past sx), BAR.SYNC. The host copies the LL band back
//   into the input between levels (cudaMemcpy device to device: not in the trace, as
//   Accel-Sim traces carry only host-to-device copies).
//
// The vertical lifting of a column runs in registers: the compiler forwards a thread's own
// stores to its loads of the same words (no barrier between), so each of the 11 rows of a
// column is stored once, with its final value, and the `pixel0..2` copies need no LDS.
#include <algorithm>
#include <vector>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t components_threads = 256;  // THREADS in components.cu
constexpr std::uint32_t win_y = 8;                 // WIN_SIZE_Y of every fdwt53Kernel
constexpr std::uint32_t column_rows = win_y + 3;   // rows of the transform buffer
constexpr std::uint32_t shm_banks = 32;            // __CUDA_ARCH__ >= 200

std::uint64_t div_up(std::uint64_t n, std::uint64_t d) { return (n + d - 1) / d; }

// Arithmetic shift right: SHF.R.S32.HI on Volta, SHR before.
code sar(program& p, reg d, reg a) {
  return p.raw(p.family() == isa_family::volta ? "SHF.R.S32.HI" : "SHR", {d}, {a});
}

// ---- c_CopySrcToComponents / c_CopySrcToComponent -------------------------------------

void launch_components(app_builder& app, std::uint32_t comps, std::uint64_t pixels,
                       std::uint64_t src, const std::vector<std::uint64_t>& out) {
  program p(app.opcodes(), 30);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);  // x
  p.s2r(2, sreg::ctaid_x);
  p.imad(3, 2, rz, rz);  // gX = blockDim.x * blockIdx.x
  p.isetp("GT", 0, rz);  // x * 4 < THREADS * comps
  p.imad(4, 3, rz, rz);  // gX * comps
  p.shr(4, 4);           // >> 2
  p.iadd(4, 4, 0);       // + x
  p.address(6, 4, rz);   // &s[...]
  p.shl(8, 0);           // &sData[4 x] (float words)
  const code head = p.since(m);
  const code ld = p.ld_global(9, 6, 4);   // @!P0
  const code sts = p.st_shared(8, 9, 4);  // @!P0
  const code bar = p.bar_sync();
  const code offset = p.imad(10, 0, rz, rz);  // offset = x * comps
  std::vector<code> lds;
  for (std::uint32_t c = 0; c < comps; ++c) lds.push_back(p.ld_shared(reg(11 + c), 10, 1));
  m = p.here();
  p.iadd(14, 3, 0);  // globalOutputPosition = gX + x
  p.isetp("GE", 14, rz);
  const code bound = p.since(m);
  const code exit_out = p.exit();  // @P1 EXIT
  std::vector<code> addr, st;
  for (std::uint32_t c = 0; c < comps; ++c) {
    m = p.here();
    p.iadd(reg(11 + c), reg(11 + c), rz);  // - 128
    p.address(reg(16 + 2 * c), 14, rz);    // &d_c[pos]
    addr.push_back(p.since(m));
    st.push_back(p.st_global(reg(16 + 2 * c), reg(11 + c), 4));
  }
  const code done = p.exit();
  p.bra();

  const std::uint32_t grid = std::uint32_t(div_up(pixels, components_threads));
  const std::uint32_t words = components_threads * comps / 4;  // loading threads per TB
  const kernel_info info =
      comps == 3
          ? app.kernel("_Z21c_CopySrcToComponentsIiEvPT_S1_S1_Phi", app.reserve_kernel_id(),
                       dim3{grid, 1, 1}, dim3{components_threads, 1, 1}, components_threads * 3, p)
          : app.kernel("_Z20c_CopySrcToComponentIiEvPT_Phi", app.reserve_kernel_id(),
                       dim3{grid, 1, 1}, dim3{components_threads, 1, 1}, components_threads, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t gx = std::uint64_t(tb.index.x) * components_threads;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      std::uint32_t loading = 0, inside = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        if (lanes.tx[l] < words) loading |= 1u << l;
        if (gx + lanes.tx[l] < pixels) inside |= 1u << l;
      }
      e.run(head, live);
      e.mem_fn(ld, loading, [&](unsigned l) { return src + 4 * (gx * comps / 4 + lanes.tx[l]); });
      e.mem_fn(sts, loading, [&](unsigned l) { return 4ull * lanes.tx[l]; });
      e.run(bar, live);
      e.run(offset, live);
      for (std::uint32_t c = 0; c < comps; ++c)
        e.mem_fn(lds[c], live, [&](unsigned l) { return std::uint64_t(lanes.tx[l]) * comps + c; });
      e.run(bound, live);
      e.run(exit_out, live & ~inside);
      for (std::uint32_t c = 0; c < comps; ++c) {
        e.run(addr[c], inside);
        e.mem_fn(st[c], inside, [&](unsigned l) { return out[c] + 4 * (gx + lanes.tx[l]); });
      }
      e.run(done, inside);
    }
  });
}

// ---- fdwt53Kernel ------------------------------------------------------------------------

// The geometry of one level's launch (launchFDWT53Kernel) and its TransformBuffer.
struct fdwt_level {
  std::uint32_t sx = 0, sy = 0, win_x = 0, steps = 0, gx = 0, gy = 0;
  std::uint32_t stride = 0;      // VERTICAL_STRIDE = BOUNDARY_X + WIN_SX / 2
  std::uint32_t odd_offset = 0;  // BUFFER_SIZE + PADDING
  std::uint32_t words = 0;       // 2 BUFFER_SIZE + PADDING
  std::uint32_t h_count = 0;     // elements per horizontal lifting pass: 8 stride - 1

  std::uint32_t column_offset(std::int32_t column) const {
    const std::uint32_t c = std::uint32_t(column + 2);
    return c / 2 + (c & 1u) * odd_offset;
  }
};

fdwt_level level_of(std::uint32_t sx, std::uint32_t sy) {
  fdwt_level g;
  g.sx = sx;
  g.sy = sy;
  g.win_x = sx >= 960 ? 192 : sx >= 480 ? 128 : 64;
  g.steps = std::uint32_t(div_up(sy, 15 * win_y));
  g.gx = std::uint32_t(div_up(sx, g.win_x));
  g.gy = std::uint32_t(div_up(sy, win_y * g.steps));
  g.stride = 2 + g.win_x / 2;
  const std::uint32_t buffer = g.stride * column_rows;
  const std::uint32_t padding = shm_banks - (buffer + shm_banks / 2) % shm_banks;
  g.odd_offset = buffer + padding;
  g.words = 2 * buffer + padding;
  g.h_count = win_y * g.stride - 1;
  return g;
}

// DWTIO::mirror.
std::int64_t mirror(std::int64_t d, std::int64_t size) {
  if (d >= size) return 2 * size - 2 - d;
  if (d < 0) return -d;
  return d;
}

// VerticalDWTPixelLoader on rows: `last` is a row, the column being fixed (its `end` check,
// last == sy * sx + x, is a check for row sy).
struct row_loader {
  std::int64_t last = 0, stride = 1, sy = 0;
  bool checked = false;
  void init(std::int64_t first_row) {
    stride = 1;
    last = first_row - 1;
  }
  std::int64_t load() {
    last += stride;
    if (checked && last == sy) {
      last -= 2 * stride;
      stride = -stride;
    }
    return last;
  }
};

// The rows a column of TB row `by` loads: 3 by initColumn, then 8 per window step.
std::vector<std::int64_t> column_rows_of(const fdwt_level& g, std::uint32_t by, bool checked) {
  const std::int64_t first_y = std::int64_t(by) * win_y * g.steps;
  row_loader ld;
  ld.sy = g.sy;
  ld.checked = checked;
  std::vector<std::int64_t> rows;
  if (by == 0) {
    ld.init(first_y);
    for (int i = 0; i < 3; ++i) rows.push_back(ld.load());
    ld.init(first_y + 1);
  } else {
    ld.init(first_y - 2);
    for (int i = 0; i < 3; ++i) rows.push_back(ld.load());
  }
  for (std::uint32_t k = 0; k < win_y * g.steps; ++k) rows.push_back(ld.load());
  return rows;
}

bool at_bottom(const fdwt_level& g, std::uint32_t by) {
  return std::uint64_t(by + 1) * win_y * g.steps + 1 >= g.sy;
}
bool at_right(const fdwt_level& g, std::uint32_t bx) {
  return std::uint64_t(bx + 1) * g.win_x + 1 >= g.sx;
}

// Rodinia reads outside the image where the mirroring does not reach back into it (images
// narrower or shorter than the window); such sizes are refused before anything is written.
void check_level(const fdwt_level& g, std::uint32_t level) {
  const std::string at = " at level " + std::to_string(level + 1) + " (" + std::to_string(g.sx) +
                         " x " + std::to_string(g.sy) + ")";
  const std::int64_t last_column = std::int64_t(g.gx) * g.win_x;  // the last boundary column
  if (g.sx < 3 || last_column > 2 * std::int64_t(g.sx) - 2)
    param_set::fail("width", "too narrow for the " + std::to_string(g.win_x) +
                                 "-column window: its mirrored columns leave the image" + at);
  for (std::uint32_t by = 0; by < g.gy; ++by)
    for (std::int64_t r : column_rows_of(g, by, at_bottom(g, by)))
      if (r < 0 || r >= g.sy)
        param_set::fail("height",
                        "too short for the sliding window: its mirrored rows leave "
                        "the image" +
                            at);
}

// VerticalDWTBandWriter of one thread.
struct band_writer {
  std::int64_t next = 0, end = 0, low_to_high = 0, high_to_low = 0;
  bool checked = false;

  void init(std::int64_t sx, std::int64_t sy, std::int64_t first_x, std::int64_t first_y,
            bool check) {
    checked = check;
    if (first_x >= sx) {
      next = end = low_to_high = high_to_low = 0;
      return;
    }
    std::int64_t column = first_x / 2, vstride = 0;
    if (first_x & 1) {
      vstride = sx / 2;
      column += div_up(sx, 2) * div_up(sy, 2);
      low_to_high = (sx * sy) / 2;
    } else {
      vstride = sx / 2 + (sx & 1);
      low_to_high = std::int64_t(div_up(sy, 2)) * sx;
    }
    high_to_low = vstride - low_to_high;
    end = checked ? column + (sy / 2) * vstride + (sy & 1) * low_to_high : 0;
    next = column + (first_y / 2) * vstride + (first_y & 1) * low_to_high;
  }
  bool writes() const { return !checked || next != end; }
  void advance(bool low) { next += low ? low_to_high : high_to_low; }
};

// Static code of one column's loads and stores (the thread's own column or a boundary one).
struct column_code {
  code init;                  // offset, firstX, mirror, loader set-up
  code top_branch;            // blockIdx.y == 0
  code top_init, other_init;  // loader at firstY (top TB row) or firstY - 2
  std::array<code, 3> top_step{}, top_ld{}, other_step{}, other_ld{};
  code top_reinit;
  std::array<code, win_y> step{}, ld{};
  code vertical;                        // lifting in registers
  std::array<code, column_rows> sts{};  // final values of rows 0..10
};

// One horizontal lifting pass (forEachHorizontalOdd/Even) unrolled: full passes and the last.
struct horizontal_code {
  std::vector<code> lds_prev, lds_next, lds_center, math, sts;
  code final_test;
};

// One specialisation transform<CHECK_LOADS, CHECK_WRITES>.
struct transform_code {
  column_code main, boundary;
  code boundary_test_init, writer_init, loop_init, boundary_test;
  code bar_vertical, bar_predict, bar_update, bar_write;
  horizontal_code predict, update;
  std::array<code, win_y / 2> lds_low{}, lds_high{}, test_low{}, test_high{};
  std::array<code, win_y / 2> stg_low{}, stg_high{}, adv_low{}, adv_high{};
  code step, back, done;
};

// One LDG of a column loader: last += stride (the CHECKED loader turns at the last row),
// &input[last], load.
void loader_load(program& p, bool checked, reg last, reg stride, reg end, reg addr, reg value,
                 code& step, code& ld) {
  auto m = p.here();
  p.iadd(last, last, stride);
  if (checked) {
    p.isetp("EQ", last, end);
    p.imad(last, stride, rz, last);  // @P last -= 2 * stride
    p.iadd(stride, rz, stride);      // @P stride = -stride
  }
  p.address(addr, last, rz);
  step = p.since(m);
  ld = p.ld_global(value, addr, 4);
}

// Registers of a column: base .. base + 24.
column_code build_column(program& p, bool checked, reg base) {
  column_code c;
  const reg last = base, stride = reg(base + 1), end = reg(base + 2), off = reg(base + 3);
  const reg addr = reg(base + 4), px = reg(base + 6);  // px .. px + 10: the column's rows
  auto m = p.here();
  p.iadd(off, 2, rz);  // columnIndex + BOUNDARY_X
  p.shr(reg(off + 1), off);
  p.land(off, off);                    // & 1
  p.imad(off, off, rz, reg(off + 1));  // + (& 1) * ODD_OFFSET
  p.shl(off, off);                     // byte offset
  p.imad(last, 0, rz, 2);              // firstX = blockIdx.x * WIN_SX + columnIndex
  p.isetp("GE", last, rz);             // mirror: x >= sx
  p.iadd(reg(last + 1), rz, last);     // 2 sx - 2 - x
  p.raw("SEL", {last}, {last, reg(last + 1)});
  p.raw("IMNMX", {last}, {last});              // x < 0 -> -x
  p.mov(stride);                               // sx
  if (checked) p.imad(end, rz, stride, last);  // sy * sx + firstX
  c.init = p.since(m);
  m = p.here();
  p.isetp("NE", 3, rz);  // blockIdx.y == 0
  p.bra();
  c.top_branch = p.since(m);
  c.top_init = p.imad(last, 8, stride, last);  // last = firstX + sx * firstY - sx
  for (int i = 0; i < 3; ++i)
    loader_load(p, checked, last, stride, end, addr, reg(px + 2 - i), c.top_step[i], c.top_ld[i]);
  m = p.here();
  p.mov(stride);
  p.imad(last, 8, stride, last);  // init at firstY + 1
  c.top_reinit = p.since(m);
  c.other_init = p.imad(last, 8, stride, last);  // init at firstY - 2
  for (int i = 0; i < 3; ++i)
    loader_load(p, checked, last, stride, end, addr, reg(px + i), c.other_step[i], c.other_ld[i]);
  for (std::uint32_t i = 0; i < win_y; ++i)
    loader_load(p, checked, last, stride, end, addr, reg(px + 3 + i), c.step[i], c.ld[i]);
  m = p.here();
  // forEachVerticalOdd (rows 1, 3, 5, 7, 9): c -= (p + n) / 2.
  for (std::uint32_t r = 1; r + 1 < column_rows; r += 2) {
    const reg t = reg(base + 17);
    p.iadd(t, reg(px + r - 1), reg(px + r + 1));
    p.shr(reg(t + 1), t);
    p.iadd(t, t, reg(t + 1));
    sar(p, t, t);
    p.iadd(reg(px + r), reg(px + r), t);
  }
  // forEachVerticalEven (rows 2, 4, 6, 8): c += (p + n + 2) / 4.
  for (std::uint32_t r = 2; r + 1 < column_rows; r += 2) {
    const reg t = reg(base + 17);
    p.iadd(t, reg(px + r - 1), reg(px + r + 1));
    p.iadd(t, t, rz);
    sar(p, reg(t + 1), t);
    p.shr(reg(t + 1), reg(t + 1));
    p.iadd(t, t, reg(t + 1));
    sar(p, t, t);
    p.iadd(reg(px + r), reg(px + r), t);
  }
  c.vertical = p.since(m);
  for (std::uint32_t r = 0; r < column_rows; ++r) c.sts[r] = p.st_shared(off, reg(px + r), 4);
  return c;
}

horizontal_code build_horizontal(program& p, const fdwt_level& g, bool update) {
  horizontal_code h;
  const std::uint32_t full = g.h_count / g.win_x;
  const bool last = g.h_count % g.win_x != 0;
  const reg t = 70;
  for (std::uint32_t i = 0; i < full + (last ? 1 : 0); ++i) {
    if (i == full) h.final_test = p.isetp("GE", 2, rz);  // threadIdx.x < finalCount
    h.lds_prev.push_back(p.ld_shared(64, 78, 4));        // [R78 + immediate]: 4 tx + constant
    h.lds_next.push_back(p.ld_shared(65, 78, 4));
    h.lds_center.push_back(p.ld_shared(66, 78, 4));
    auto m = p.here();
    p.iadd(t, 64, 65);
    if (update) {
      p.iadd(t, t, rz);  // + 2
      sar(p, reg(t + 1), t);
      p.shr(reg(t + 1), reg(t + 1));
    } else {
      p.shr(reg(t + 1), t);
    }
    p.iadd(t, t, reg(t + 1));
    sar(p, t, t);
    p.iadd(66, 66, t);
    h.math.push_back(p.since(m));
    h.sts.push_back(p.st_shared(78, 66, 4));
  }
  return h;
}

transform_code build_transform(program& p, const fdwt_level& g, bool check_loads,
                               bool check_writes) {
  transform_code t;
  t.main = build_column(p, check_loads, 20);
  auto m = p.here();
  p.isetp("GT.U32", 2, rz);  // threadIdx.x < 3
  p.bra();
  t.boundary_test_init = p.since(m);
  t.boundary = build_column(p, check_loads, 40);
  m = p.here();
  p.shl(60, 2);  // parityIdx: 2 tx - (WIN_SX - 1) (tx / (WIN_SX / 2))
  p.shr(61, 2);
  p.imad(60, 61, rz, 60);
  p.imad(61, 0, rz, 60);  // outputFirstX
  p.iadd(62, 60, rz);     // outColumnOffset (bytes)
  p.shl(62, 62);
  p.land(63, 61);         // writer.init: parity of firstX, strides, first index
  p.imad(63, 8, rz, 63);  // + (firstY / 2) * verticalStride
  p.imad(67, 63, rz, rz);
  p.imad(68, 63, rz, rz);
  if (check_writes) {
    p.isetp("GE", 61, rz);  // firstX < sizeX
    p.imad(69, 5, rz, 63);  // end
    p.raw("SEL", {63}, {63});
  }
  p.address(80, 63, rz);
  p.shl(78, 2);  // 4 threadIdx.x: the horizontal passes' base
  t.writer_init = p.since(m);
  t.loop_init = p.mov(79);  // w = 0
  t.boundary_test = p.isetp("GT.U32", 2, rz);
  t.bar_vertical = p.bar_sync();
  t.predict = build_horizontal(p, g, false);
  t.bar_predict = p.bar_sync();
  t.update = build_horizontal(p, g, true);
  t.bar_update = p.bar_sync();
  for (std::uint32_t k = 0; k < win_y / 2; ++k) {
    t.lds_low[k] = p.ld_shared(72, 62, 4);
    if (check_writes) t.test_low[k] = p.isetp("EQ", 63, 69);  // next != end
    t.stg_low[k] = p.st_global(80, 72, 4);
    t.adv_low[k] = p.address(80, 67, 80);  // next += strideLowToHigh
    t.lds_high[k] = p.ld_shared(73, 62, 4);
    if (check_writes) t.test_high[k] = p.isetp("EQ", 63, 69);
    t.stg_high[k] = p.st_global(80, 73, 4);
    t.adv_high[k] = p.address(80, 68, 80);  // next += strideHighToLow
  }
  t.bar_write = p.bar_sync();
  m = p.here();
  p.iadd(79, 79, rz);
  p.isetp("LT", 79, rz);
  t.step = p.since(m);
  t.back = p.bra();
  t.done = p.exit();
  return t;
}

struct fdwt_program {
  code head;
  std::array<code, 2> variant_branch{};  // atBottomBoundary, atRightBoundary tests
  std::array<transform_code, 3> variants;
};

// One column being loaded: its mirrored image column and the rows.
struct column_lanes {
  std::array<std::int64_t, 32> x{};
  std::uint32_t mask = 0;
};

void emit_column(warp_emitter& e, const column_code& c, const column_lanes& cl,
                 const std::vector<std::int64_t>& rows, bool top, std::uint64_t in,
                 std::uint32_t sx) {
  const std::uint32_t mask = cl.mask;
  auto at = [&](std::int64_t row) {
    return [&, row](unsigned l) { return in + 4 * std::uint64_t(cl.x[l] + row * sx); };
  };
  e.run(c.init, mask);
  e.run(c.top_branch, mask);
  e.run(top ? c.top_init : c.other_init, mask);
  for (int i = 0; i < 3; ++i) {
    e.run(top ? c.top_step[i] : c.other_step[i], mask);
    e.mem_fn(top ? c.top_ld[i] : c.other_ld[i], mask, at(rows[i]));
  }
  if (top) e.run(c.top_reinit, mask);
}

void emit_window(warp_emitter& e, const column_code& c, const column_lanes& cl,
                 const std::vector<std::int64_t>& rows, std::uint32_t w, std::uint64_t in,
                 std::uint32_t sx, std::uint32_t stride,
                 const std::array<std::uint32_t, 32>& offset) {
  const std::uint32_t mask = cl.mask;
  for (std::uint32_t i = 0; i < win_y; ++i) {
    const std::int64_t row = rows[3 + w * win_y + i];
    e.run(c.step[i], mask);
    e.mem_fn(c.ld[i], mask, [&](unsigned l) { return in + 4 * std::uint64_t(cl.x[l] + row * sx); });
  }
  e.run(c.vertical, mask);
  for (std::uint32_t r = 0; r < column_rows; ++r)
    e.mem_fn(c.sts[r], mask, [&, r](unsigned l) { return 4ull * (offset[l] + r * stride); });
}

void launch_fdwt53(app_builder& app, const fdwt_level& g, std::uint64_t in, std::uint64_t out) {
  program p(app.opcodes(), 99);
  fdwt_program f;
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::tid_x);
  p.s2r(3, sreg::ctaid_y);
  p.mov(4);              // sizeX
  p.mov(5);              // sizeY
  p.imad(6, 0, rz, rz);  // maxX = (blockIdx.x + 1) * WIN_SX + 1
  p.imad(7, 3, rz, rz);  // maxY = (blockIdx.y + 1) * WIN_SY * steps + 1
  p.imad(8, 3, rz, rz);  // firstY = blockIdx.y * WIN_SY * steps
  f.head = p.since(m);
  m = p.here();
  p.isetp("GE", 7, 5);  // atBottomBoundary
  p.bra();
  f.variant_branch[0] = p.since(m);
  m = p.here();
  p.isetp("GE", 6, 4);  // atRightBoundary
  p.bra();
  f.variant_branch[1] = p.since(m);
  f.variants[2] = build_transform(p, g, false, false);
  f.variants[1] = build_transform(p, g, false, true);
  f.variants[0] = build_transform(p, g, true, true);

  const std::string name = "_ZN8dwt_cuda12fdwt53KernelILi" + std::to_string(g.win_x) + "ELi" +
                           std::to_string(win_y) + "EEEvPKiPiiii";
  const kernel_info info = app.kernel(name, app.reserve_kernel_id(), dim3{g.gx, g.gy, 1},
                                      dim3{g.win_x, 1, 1}, 4 * g.words, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint32_t bx = tb.index.x, by = tb.index.y;
    const bool bottom = at_bottom(g, by), right = at_right(g, bx);
    const int v = bottom ? 0 : right ? 1 : 2;
    const transform_code& t = f.variants[std::size_t(v)];
    const bool check_writes = bottom || right;
    const std::vector<std::int64_t> rows = column_rows_of(g, by, bottom);
    const std::int64_t first_y = std::int64_t(by) * win_y * g.steps;
    const std::int64_t left = std::int64_t(bx) * g.win_x;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      column_lanes main, bnd;
      std::array<std::uint32_t, 32> main_off{}, bnd_off{}, out_off{};
      std::array<band_writer, 32> wr{};
      main.mask = live;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(live >> l & 1u)) continue;
        const std::int32_t tx = std::int32_t(lanes.tx[l]);
        main.x[l] = mirror(left + tx, g.sx);
        main_off[l] = g.column_offset(tx);
        if (tx < 3) {
          const std::int32_t col = tx == 0 ? std::int32_t(g.win_x) : tx - 3;
          bnd.mask |= 1u << l;
          bnd.x[l] = mirror(left + col, g.sx);
          bnd_off[l] = g.column_offset(col);
        }
        // parityIdx<WIN_SX>(): even columns to the first half of the threads, odd to the rest.
        const std::int32_t half = std::int32_t(g.win_x / 2);
        const std::int32_t out_col = 2 * tx - (std::int32_t(g.win_x) - 1) * (tx / half);
        out_off[l] = g.column_offset(out_col);
        wr[l].init(g.sx, g.sy, left + out_col, first_y, check_writes);
      }
      e.run(f.head, live);
      // transform<true, true> near the bottom edge, <false, true> near the right edge only,
      // <false, false> elsewhere: the tests fall through to the last.
      for (int b = 0; b <= std::min(v, 1); ++b) e.run(f.variant_branch[std::size_t(b)], live);
      emit_column(e, t.main, main, rows, by == 0, in, g.sx);
      e.run(t.boundary_test_init, live);
      emit_column(e, t.boundary, bnd, rows, by == 0, in, g.sx);
      e.run(t.writer_init, live);
      e.run(t.loop_init, live);
      for (std::uint32_t s = 0; s < g.steps; ++s) {
        emit_window(e, t.main, main, rows, s, in, g.sx, g.stride, main_off);
        e.run(t.boundary_test, live);
        emit_window(e, t.boundary, bnd, rows, s, in, g.sx, g.stride, bnd_off);
        e.run(t.bar_vertical, live);
        for (int pass = 0; pass < 2; ++pass) {
          const horizontal_code& h = pass == 0 ? t.predict : t.update;
          // forEachHorizontalOdd: prev = even word, center = odd word, next = even word + 1;
          // forEachHorizontalEven: prev = odd word, center = even word + 1, next = odd + 1.
          const std::uint32_t row2 = 2 * g.stride;
          const std::uint32_t prev = pass == 0 ? row2 : row2 + g.odd_offset;
          const std::uint32_t center = pass == 0 ? row2 + g.odd_offset : row2 + 1;
          const std::uint32_t next = prev + 1;
          const std::uint32_t full = g.h_count / g.win_x, rest = g.h_count % g.win_x;
          for (std::uint32_t i = 0; i < h.sts.size(); ++i) {
            std::uint32_t mask = live;
            if (i == full) {
              e.run(h.final_test, live);
              mask = 0;
              for (unsigned l = 0; l < 32; ++l)
                if ((live >> l & 1u) && lanes.tx[l] < rest) mask |= 1u << l;
            }
            auto word = [&, i](std::uint32_t base) {
              return [&, base, i](unsigned l) { return 4ull * (base + i * g.win_x + lanes.tx[l]); };
            };
            e.mem_fn(h.lds_prev[i], mask, word(prev));
            e.mem_fn(h.lds_next[i], mask, word(next));
            e.mem_fn(h.lds_center[i], mask, word(center));
            e.run(h.math[i], mask);
            e.mem_fn(h.sts[i], mask, word(center));
          }
          e.run(pass == 0 ? t.bar_predict : t.bar_update, live);
        }
        for (std::uint32_t k = 0; k < win_y / 2; ++k) {
          const std::uint32_t r = 2 + 2 * k;
          for (int high = 0; high < 2; ++high) {
            e.mem_fn(high ? t.lds_high[k] : t.lds_low[k], live, [&, r, high](unsigned l) {
              return 4ull * (out_off[l] + (r + std::uint32_t(high)) * g.stride);
            });
            std::uint32_t writing = 0;
            for (unsigned l = 0; l < 32; ++l)
              if ((live >> l & 1u) && wr[l].writes()) writing |= 1u << l;
            if (check_writes) e.run(high ? t.test_high[k] : t.test_low[k], live);
            e.mem_fn(high ? t.stg_high[k] : t.stg_low[k], writing,
                     [&](unsigned l) { return out + 4 * std::uint64_t(wr[l].next); });
            e.run(high ? t.adv_high[k] : t.adv_low[k], writing);
            for (unsigned l = 0; l < 32; ++l)
              if (writing >> l & 1u) wr[l].advance(high == 0);
          }
        }
        e.run(t.bar_write, live);
        e.run(t.step, live);
        e.run(t.back, s + 1 < g.steps ? live : 0u);
      }
      e.run(t.done, live);
    }
  });
}

void generate_dwt2d(const param_set& ps, app_builder& app) {
  const std::uint32_t width = ps.u32("width"), height = ps.u32("height");
  const std::uint32_t comps = ps.u32("components"), levels = ps.u32("levels");
  if (comps != 1 && comps != 3) param_set::fail("components", "must be 1 or 3");
  const std::uint64_t pixels = std::uint64_t(width) * height;
  if (pixels * comps > (1ull << 31) - 1)
    param_set::fail("width", "width * height * components must be below 2^31 (int sizes)");
  std::vector<fdwt_level> plan;
  for (std::uint32_t l = 0, sx = width, sy = height; l < levels; ++l) {
    plan.push_back(level_of(sx, sy));
    check_level(plan.back(), l);
    sx = std::uint32_t(div_up(sx, 2));
    sy = std::uint32_t(div_up(sy, 2));
  }
  // dwt2d.cu processDWT<int>: c_r_out, backup (and c_g_out, c_b_out, c_r, c_g, c_b for RGB),
  // each cudaMalloc'd and cudaMemset (not traced); components.cu: d_src, aligned to whole
  // TBs, and the copy of the image into it.
  const std::uint64_t bytes = 4 * pixels;
  std::vector<std::uint64_t> in(comps), out(comps);
  out[0] = app.output(bytes);
  app.output(bytes);  // backup
  for (std::uint32_t c = 1; c < comps; ++c) out[c] = app.output(bytes);
  for (std::uint32_t c = 0; c < comps; ++c) in[c] = app.output(bytes);
  const std::uint64_t src =
      app.output(div_up(pixels, components_threads) * components_threads * comps);
  app.memcpy_h2d(src, pixels * comps);
  launch_components(app, comps, pixels, src, in);
  for (std::uint32_t c = 0; c < comps; ++c)
    for (const fdwt_level& g : plan) launch_fdwt53(app, g, in[c], out[c]);
}
}  // namespace

kernel_generator dwt2d_generator() {
  return {"dwt2d",
          "Rodinia dwt2d forward 5/3: component split (4096 TBs at 1024x1024), then "
          "fdwt53Kernel per level and component (sliding window, 3-row/column halo)",
          {param_desc::integer("width", 1024, 1, 1u << 15, "image width in pixels"),
           param_desc::integer("height", 1024, 1, 1u << 15, "image height in pixels"),
           param_desc::integer("components", 3, 1, 3, "colour components: 3 (RGB) or 1"),
           param_desc::integer("levels", 3, 1, 15, "DWT levels")},
          generate_dwt2d};
}

}  // namespace gputlm::traces::generators
