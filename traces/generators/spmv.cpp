// Scalar CSR sparse matrix-vector product y = A * x, one thread per row (Bell & Garland,
// "Efficient sparse matrix-vector multiplication on CUDA", NVIDIA TR 2008, csr_scalar), on a
// generated matrix whose row lengths follow a power law (or the graph `matrix` names:
// graph_file.h): each lane loops over its row, so trip counts (and active masks) follow the
// row lengths and x is gathered by column index.
//
// spmv_cdp / spmv_dtbl (Wang's thesis, ch. 3-4): a row with length >= threshold is not walked
// by its thread; the thread zeroes y[row] and launches a child (CDP kernel or DTBL aggregated
// group) of ceil(length / child_block) TBs, one thread per non-zero, each adding its product
// to y[row] with a floating-point RED.
#include "traces/generators/device_launch.h"
#include "traces/generators/graph_file.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct pending_child {
  std::uint32_t id, row, start, count;
  dim3 grid;
};

// The matrix of `matrix`: the power-law matrix, or a graph's adjacency with values uniform
// in [0, 1) (rng(seed), in storage order).
csr_matrix spmv_matrix(const param_set& ps) {
  const std::uint32_t rows = ps.u32("rows");
  const std::uint32_t cols = ps.u32("cols") == 0 ? rows : ps.u32("cols");
  if (ps.str("matrix") == "powerlaw")
    return make_powerlaw_matrix(rows, cols, ps.real("alpha"), ps.u32("max_row"), ps.u64("seed"));
  if (ps.u32("cols") != 0) param_set::fail("cols", "must be 0 when the matrix is a graph");
  csr_graph g = graph_input(ps, "matrix", "powerlaw", rows, ps.u32("degree"), ps.u64("seed"));
  csr_matrix a;
  a.rows = a.cols = g.vertices;
  a.row_ptr = std::move(g.row_ptr);
  a.col = std::move(g.col);
  rng r(ps.u64("seed"));
  a.val.resize(a.col.size());
  for (float& v : a.val) v = float(r.uniform());
  return a;
}

void generate_spmv(const param_set& ps, app_builder& app, launch_mode mode) {
  const csr_matrix a = spmv_matrix(ps);
  const std::uint32_t rows = a.rows, cols = a.cols;
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);

  const std::uint64_t row_ptr = app.input(4ull * (rows + 1));
  const std::uint64_t col = app.input(4ull * std::max<std::size_t>(a.col.size(), 1));
  const std::uint64_t val = app.input(4ull * std::max<std::size_t>(a.val.size(), 1));
  const std::uint64_t x = app.input(4ull * cols);
  const std::uint64_t y = app.output(4ull * rows);

  program p(app.opcodes(), 25);
  auto m = p.here();
  p.global_index_1d();  // R3 = row
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_row = p.address(4, 3, rz);
  const code ld_start = p.ld_global(6, 4, 4);
  const code ld_end = p.ld_global(7, 4, 4);  // [R4 + 0x4]
  code cmp_thr{}, bra_small{}, zero_y{}, st_zero{}, bra_join{};
  std::unique_ptr<launch_site> site;
  const code split = p.reconverge_begin();
  if (mode != launch_mode::flat) {
    m = p.here();
    p.iadd(9, 7, 6);  // length
    p.isetp("LT", 9, rz);
    cmp_thr = p.since(m);
    bra_small = p.bra();
    m = p.here();
    p.mov(8);
    p.address(22, 3, rz);
    zero_y = p.since(m);
    st_zero = p.st_global(22, 8, 4);
    site = std::make_unique<launch_site>(p, mode, 24, 6, 9);
    bra_join = p.bra();
  }
  m = p.here();
  p.mov(8);  // sum = 0
  p.isetp("GE", 6, 7);
  const code loop_init = p.since(m);
  const code addr_col = p.address(10, 6, rz);
  const code ld_col = p.ld_global(12, 10, 4);
  const code addr_val = p.address(14, 6, rz);
  const code ld_val = p.ld_global(16, 14, 4);
  const code addr_x = p.address(18, 12, rz);
  const code ld_x = p.ld_global(20, 18, 4);
  m = p.here();
  p.ffma(8, 16, 20, 8);
  p.iadd(6, 6, rz);
  p.isetp("LT", 6, 7);
  const code step = p.since(m);
  const code back = p.bra();
  const code addr_y = p.address(22, 3, rz);
  const code st_y = p.st_global(22, 8, 4);
  const code join = p.reconverge_end();
  const code done = p.exit();
  p.bra();

  // Child: one thread per non-zero of one row.
  program cp(app.opcodes(), 15);
  const child_start entry = child_prologue(cp);
  const code c_head = entry.head, c_exit_oob = entry.exit_oob;
  m = cp.here();
  cp.mov(4);  // start
  cp.iadd(5, 4, 3);
  cp.address(6, 5, rz);
  cp.address(8, 5, rz);
  const code c_addr = cp.since(m);
  const code c_ld_col = cp.ld_global(10, 6, 4);
  const code c_ld_val = cp.ld_global(11, 8, 4);
  const code c_addr_x = cp.address(12, 10, rz);
  const code c_ld_x = cp.ld_global(14, 12, 4);
  m = cp.here();
  cp.fmul(11, 11, 14);
  cp.mov(16);  // &y[row]
  const code c_mul = cp.since(m);
  const code c_red = cp.red_add(16, 11, true);
  const code c_done = cp.exit();
  cp.bra();

  const char* parent_name = mode == launch_mode::flat  ? "_Z15spmv_csr_scalarjPKjS0_PKfS2_Pf"
                            : mode == launch_mode::cdp ? "_Z8spmv_cdpjPKjS0_PKfS2_Pf"
                                                       : "_Z9spmv_dtbljPKjS0_PKfS2_Pf";
  // A DTBL group runs the row kernel's own function (its group path), so it coalesces into
  // the running row kernel.
  const char* child_name = child_function(ps, mode, parent_name, "_Z14spmv_cdp_childPKjPKfS2_Pfjjj",
                                          "_Z15spmv_dtbl_childPKjPKfS2_Pfjjj");
  const std::uint32_t grid = (rows + block - 1) / block;
  std::vector<pending_child> children;
  const kernel_info info =
      app.kernel(parent_name, app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint32_t, 32> r{}, j{}, end{};
      std::uint32_t act = 0, big = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint64_t rr = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (rr >= rows) continue;
        r[l] = std::uint32_t(rr);
        act |= 1u << l;
        j[l] = a.row_ptr[r[l]];
        end[l] = a.row_ptr[r[l] + 1];
        if (mode != launch_mode::flat && end[l] - j[l] >= threshold) big |= 1u << l;
      }
      const std::uint32_t small = act & ~big;
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~act);
      e.run(addr_row, act);
      e.mem_fn(ld_start, act, [&](unsigned l) { return row_ptr + 4ull * r[l]; });
      e.mem_fn(ld_end, act, [&](unsigned l) { return row_ptr + 4ull * r[l] + 4; });
      e.run(split, act);
      if (mode != launch_mode::flat) {
        e.run(cmp_thr, act);
        e.run(bra_small, small);
        e.run(zero_y, big);
        e.mem_fn(st_zero, big, [&](unsigned l) { return y + 4ull * r[l]; });
        std::array<device_launch, 32> what{};
        for (unsigned l = 0; l < 32; ++l) {
          if (!(big >> l & 1u)) continue;
          const std::uint32_t count = end[l] - j[l];
          what[l] = child_grid(app, count, child_block);
          children.push_back({what[l].child_kernel, r[l], j[l], count, what[l].grid});
        }
        site->emit(e, big, what);
        e.run(bra_join, big);
      }
      e.run(loop_init, small);
      std::uint32_t loop = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((small >> l & 1u) && j[l] < end[l]) loop |= 1u << l;
      while (loop != 0) {
        e.run(addr_col, loop);
        e.mem_fn(ld_col, loop, [&](unsigned l) { return col + 4ull * j[l]; });
        e.run(addr_val, loop);
        e.mem_fn(ld_val, loop, [&](unsigned l) { return val + 4ull * j[l]; });
        e.run(addr_x, loop);
        e.mem_fn(ld_x, loop, [&](unsigned l) { return x + 4ull * a.col[j[l]]; });
        e.run(step, loop);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((loop >> l & 1u) && ++j[l] < end[l]) next |= 1u << l;
        e.run(back, next);
        loop = next;
      }
      e.run(addr_y, small);
      e.mem_fn(st_y, small, [&](unsigned l) { return y + 4ull * r[l]; });
      e.run(join, act);
      e.run(done, act);
    }
  });

  for (const pending_child& c : children) {
    kernel_info ci = app.kernel(child_name, c.id, c.grid, dim3{child_block, 1, 1}, 0, cp);
    ci.device_launched = true;
    app.write_kernel(ci, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(cp, tb.warps[w]);
        const warp_lanes lanes = lanes_of(ci.block, w);
        std::array<std::uint32_t, 32> k{};
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t i = std::uint64_t(tb.index.x) * child_block + lanes.flat[l];
          if (i >= c.count) continue;
          act |= 1u << l;
          k[l] = c.start + std::uint32_t(i);
        }
        e.run(c_head, lanes.live);
        e.run(c_exit_oob, lanes.live & ~act);
        e.run(c_addr, act);
        e.mem_fn(c_ld_col, act, [&](unsigned l) { return col + 4ull * k[l]; });
        e.mem_fn(c_ld_val, act, [&](unsigned l) { return val + 4ull * k[l]; });
        e.run(c_addr_x, act);
        e.mem_fn(c_ld_x, act, [&](unsigned l) { return x + 4ull * a.col[k[l]]; });
        e.run(c_mul, act);
        e.mem_fn(c_red, act, [&](unsigned) { return y + 4ull * c.row; });
        e.run(c_done, act);
      }
    });
  }
}

std::vector<param_desc> spmv_params() {
  std::vector<param_desc> p = {
      param_desc::integer("rows", 1024, 1, 1u << 24, "matrix rows"),
      param_desc::integer("cols", 0, 0, 1u << 24, "matrix columns (0: same as rows)"),
      param_desc::real("alpha", 1.5, 0.0, 10.0, "power-law exponent of the row lengths"),
      param_desc::integer("max_row", 256, 1, 1u << 20, "longest row (non-zeros)"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the matrix generator"),
      param_desc::integer("block", 256, 32, 1024, "threads per TB")};
  for (param_desc& d : graph_params("matrix", "powerlaw", "power-law row lengths"))
    p.push_back(std::move(d));
  p.push_back(param_desc::integer("degree", 8, 1, 64, "citation, banded: edges generated per row"));
  p.back().noted_at_default = false;
  return p;
}

}  // namespace

kernel_generator spmv_generator() {
  return launch_form("spmv", "scalar CSR SpMV (thread per row) on a power-law matrix",
                     spmv_params(), generate_spmv, launch_mode::flat);
}

kernel_generator spmv_cdp_generator() {
  return launch_form("spmv_cdp",
                     "CSR SpMV with CDP: a row of length >= threshold launches a child kernel",
                     spmv_params(), generate_spmv, launch_mode::cdp);
}

kernel_generator spmv_dtbl_generator() {
  return launch_form(
      "spmv_dtbl", "CSR SpMV with DTBL: a row of length >= threshold launches an aggregated group",
      spmv_params(), generate_spmv, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
