// SHOC's SpMV (level 1, Spmv.cu; SPMV-S of the μC-States workloads: Kayiran et al.,
// "μC-States: Fine-grained GPU Datapath Power Management", PACT'16, Table 1): the CSR vector
// kernel spmv_csr_vector_kernel<float, texReader><<<ceil(rows / (block / 32)), block>>> on
// SHOC's random matrix. The kernel, as it indexes memory: t = threadIdx.x, id = t & 31, myRow
// = blockIdx.x * (blockDim.x / 32) + t / 32 (one row per warp; a warp past the last row
// leaves by `@P0 EXIT`); warpStart = rowDelimiters[myRow], warpEnd = rowDelimiters[myRow + 1]
// (two LDG); for (j = warpStart + id; j < warpEnd; j += 32) { col = cols[j] (LDG); mySum +=
// val[j] (LDG) * tex1Dfetch(vecTex, col) (TLD of d_vec + 4 col) } (lanes past the row's end
// leave the loop); partialSums[t] = mySum (STS at 4 t); if (id < 16) for l = 16, 8, 4, 2, 1:
// if (id < l) partialSums[t] += partialSums[t + l] (volatile: LDS [4 t], LDS [4 (t + l)],
// FADD, STS [4 t], each predicated, so with l lanes); if (id == 0) out[myRow] =
// partialSums[t] (LDS, STG by lane 0).
//
// The matrix is SHOC's initRandomMatrix: n = rows² · density non-zeros (SHOC: numRows² /
// 100), entry (i, j) taken in row-major order when fewer than n are taken and drand48() <=
// n / rows² (srand48(8675309), the POSIX 48-bit generator, reproduced exactly), or when the
// entries left are no more than those still needed. rows from SHOC's size class (-s 1..4:
// 1024, 8192, 12288, 16384) unless `rows` is given.
//
// Where we had to choose:
// - Only the CSR vector kernel is traced: SHOC's run also times the CSR scalar kernel, a
//   `zero` kernel, ELLPACK-R and the padded variants, in double precision too, each
//   passes x iterations times (10 x 100); `iterations` launches of the vector kernel here.
// - tex1Dfetch is a `TLD` of 4 bytes per lane at d_vec + 4·col (a linear texture bound to
//   d_vec); the reduction's `if (id < l)` steps are predicated, as compiled without branches.
// - Device arrays in csrTest's cudaMalloc order: d_val, d_cols, d_vec, d_out,
//   d_rowDelimiters; copies of val, cols, vec, rowDelimiters in its order (d_out is not
//   copied). Values are not traced, so SHOC's fill() of val and vec is not reproduced.
#include <cmath>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
constexpr std::uint32_t shoc_sizes[] = {1024, 8192, 12288, 16384};

// POSIX drand48 after srand48(seed): X' = (0x5DEECE66D X + 0xB) mod 2^48, returns X' / 2^48.
class drand48_gen {
 public:
  explicit drand48_gen(std::uint32_t seed) : m_x((std::uint64_t(seed) << 16) | 0x330e) {}
  double next() {
    m_x = (0x5deece66dull * m_x + 0xb) & ((1ull << 48) - 1);
    return std::ldexp(double(m_x), -48);
  }

 private:
  std::uint64_t m_x;
};

// SHOC's initRandomMatrix(cols, rowDelimiters, n, dim): column indices only (val unused).
csr_matrix shoc_random_matrix(std::uint32_t dim, std::uint64_t n) {
  csr_matrix a;
  a.rows = a.cols = dim;
  a.row_ptr.resize(dim + 1);
  a.col.reserve(n);
  const std::uint64_t total = std::uint64_t(dim) * dim;
  const double prob = double(n) / (double(dim) * double(dim));
  drand48_gen r(8675309u);
  bool fill_remaining = false;
  for (std::uint32_t i = 0; i < dim; ++i) {
    a.row_ptr[i] = std::uint32_t(a.col.size());
    for (std::uint32_t j = 0; j < dim; ++j) {
      const std::uint64_t left = total - (std::uint64_t(i) * dim + j);
      if (left <= n - a.col.size()) fill_remaining = true;
      if ((a.col.size() < n && r.next() <= prob) || fill_remaining) a.col.push_back(j);
    }
  }
  a.row_ptr[dim] = std::uint32_t(a.col.size());
  return a;
}

void generate_spmv_shoc(const param_set& ps, app_builder& app) {
  const std::uint32_t rows = ps.u32("rows") != 0 ? ps.u32("rows") : shoc_sizes[ps.u32("size") - 1];
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t iterations = ps.u32("iterations");
  if (block % 32 != 0) param_set::fail("block", "must be a multiple of 32 (a warp per row)");
  const std::uint64_t nnz = std::uint64_t(double(rows) * double(rows) * ps.real("density"));
  if (nnz == 0) param_set::fail("density", "gives no non-zeros: rows² · density < 1");
  const csr_matrix a = shoc_random_matrix(rows, nnz);
  const std::uint32_t warps = block / 32;
  const std::uint32_t grid = (rows + warps - 1) / warps;

  // cudaMalloc order of csrTest, then its four copies.
  const std::uint64_t val = app.output(4 * nnz);
  const std::uint64_t cols = app.output(4 * nnz);
  const std::uint64_t vec = app.output(4ull * rows);
  const std::uint64_t out = app.output(4ull * rows);
  const std::uint64_t delims = app.output(4ull * (rows + 1));
  app.memcpy_h2d(val, 4 * nnz);
  app.memcpy_h2d(cols, 4 * nnz);
  app.memcpy_h2d(vec, 4ull * rows);
  app.memcpy_h2d(delims, 4ull * (rows + 1));

  program p(app.opcodes(), 30);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.land(3, 0);          // id = t & 31
  p.shr(4, 0);           // t / 32
  p.imad(5, 2, rz, 4);   // myRow = blockIdx.x * warpsPerBlock + t / 32
  p.isetp("GE", 5, rz);  // myRow >= dim
  const code head = p.since(m);
  const code exit_row = p.exit();
  const code addr_row = p.address(6, 5, rz);  // &rowDelimiters[myRow]
  const code ld_start = p.ld_global(8, 6, 4);
  const code ld_end = p.ld_global(9, 6, 4);  // [R6 + 0x4]
  m = p.here();
  p.mov(10);             // mySum = 0
  p.iadd(11, 8, 3);      // j = warpStart + id
  p.isetp("GE", 11, 9);  // j >= warpEnd
  const code loop_init = p.since(m);
  const code skip_loop = p.bra();
  const code addr_col = p.address(12, 11, rz);  // &cols[j]
  const code ld_col = p.ld_global(14, 12, 4);
  const code addr_val = p.address(16, 11, rz);  // &val[j]
  const code ld_val = p.ld_global(15, 16, 4);
  const code tex = p.raw("TLD", {18}, {14}, 4);  // tex1Dfetch(vecTex, col)
  m = p.here();
  p.ffma(10, 15, 18, 10);  // mySum += val[j] * vec[col]
  p.iadd(11, 11, rz);      // j += 32
  p.isetp("LT", 11, 9);
  const code loop_step = p.since(m);
  const code loop_back = p.bra();
  m = p.here();
  p.shl(19, 0);  // 4 t
  const code addr_t = p.since(m);
  const code sts_sum = p.st_shared(19, 10, 4);
  const code cmp16 = p.isetp("GT", 3, rz);  // id > 15
  const code skip_red = p.bra();
  code red_lds_self[5], red_lds_other[5], red_add[5], red_sts[5], red_cmp[5];
  for (int s = 0; s < 5; ++s) {
    red_cmp[s] = p.isetp("LT", 3, rz);  // id < l
    red_lds_self[s] = p.ld_shared(20, 19, 4);
    red_lds_other[s] = p.ld_shared(21, 19, 4);  // [R19 + 4 l]
    red_add[s] = p.fadd(20, 20, 21);
    red_sts[s] = p.st_shared(19, 20, 4);
  }
  const code cmp0 = p.isetp("NE", 3, rz);       // id != 0
  const code lds_out = p.ld_shared(22, 19, 4);  // @!P0
  const code addr_out = p.address(24, 5, rz);   // @!P0 &out[myRow]
  const code stg = p.st_global(24, 22, 4);      // @!P0
  const code done = p.exit();
  p.bra();

  for (std::uint32_t it = 0; it < iterations; ++it) {
    const kernel_info info =
        app.kernel("_Z22spmv_csr_vector_kernelIf9texReaderEvPKT_PKiS5_iPS1_",
                   app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 4 * block, p);
    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const std::uint32_t live = lanes_of(info.block, w).live;  // block % 32 == 0: all
        const std::uint64_t row = std::uint64_t(tb.index.x) * warps + w;
        e.run(head, live);
        if (row >= rows) {
          e.run(exit_row, live);
          continue;
        }
        const std::uint32_t start = a.row_ptr[row], end = a.row_ptr[row + 1];
        e.run(addr_row, live);
        e.mem_fn(ld_start, live, [&](unsigned) { return delims + 4 * row; });
        e.mem_fn(ld_end, live, [&](unsigned) { return delims + 4 * (row + 1); });
        e.run(loop_init, live);
        auto in_row = [&](std::uint64_t base) {
          std::uint32_t act = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (base + l < end) act |= 1u << l;
          return act;
        };
        std::uint32_t act = in_row(start);
        e.run(skip_loop, live & ~act);
        for (std::uint64_t base = start; act != 0; base += 32) {
          e.run(addr_col, act);
          e.mem_fn(ld_col, act, [&](unsigned l) { return cols + 4 * (base + l); });
          e.run(addr_val, act);
          e.mem_fn(ld_val, act, [&](unsigned l) { return val + 4 * (base + l); });
          e.mem_fn(tex, act, [&](unsigned l) { return vec + 4ull * a.col[base + l]; });
          e.run(loop_step, act);
          const std::uint32_t next = in_row(base + 32);
          e.run(loop_back, next);
          act = next;
        }
        const std::uint64_t t0 = 32ull * w;  // threadIdx.x of lane 0
        e.run(addr_t, live);
        e.mem_fn(sts_sum, live, [&](unsigned l) { return 4 * (t0 + l); });
        e.run(cmp16, live);
        e.run(skip_red, live & 0xffff0000u);
        for (int s = 0; s < 5; ++s) {
          const std::uint32_t l_step = 16u >> s, mask = (1u << l_step) - 1;
          e.run(red_cmp[s], 0x0000ffffu);
          e.mem_fn(red_lds_self[s], mask, [&](unsigned l) { return 4 * (t0 + l); });
          e.mem_fn(red_lds_other[s], mask, [&](unsigned l) { return 4 * (t0 + l + l_step); });
          e.run(red_add[s], mask);
          e.mem_fn(red_sts[s], mask, [&](unsigned l) { return 4 * (t0 + l); });
        }
        e.run(cmp0, live);
        e.mem_fn(lds_out, 1u, [&](unsigned) { return 4 * t0; });
        e.run(addr_out, 1u);
        e.mem_fn(stg, 1u, [&](unsigned) { return out + 4 * row; });
        e.run(done, live);
      }
    });
  }
}
}  // namespace

kernel_generator spmv_shoc_generator() {
  return {"spmv_shoc",
          "SHOC SpMV CSR vector kernel: a warp per row of SHOC's random matrix, lanes strided "
          "over the row, TLD of the vector, shared-memory warp reduction",
          {param_desc::integer("size", 1, 1, 4, "SHOC size class: rows 1024, 8192, 12288, 16384"),
           param_desc::integer("rows", 0, 0, 16384, "matrix rows (0: from size)"),
           param_desc::real("density", 0.01, 1e-6, 1.0,
                            "fraction of non-zeros (SHOC: 0.01, numRows² / 100)"),
           param_desc::integer("block", 128, 32, 1024,
                               "threads per TB (SHOC BLOCK_SIZE 128; a multiple of 32)"),
           param_desc::integer("iterations", 1, 1, 1000,
                               "launches of the kernel (SHOC: 10 passes x 100 iterations)")},
          generate_spmv_shoc};
}

}  // namespace gputlm::traces::generators
