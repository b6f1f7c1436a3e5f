// Relational (equi-)join of R and a sorted S, the GPU join of He et al. (SIGMOD'08) in the
// form Wang's thesis uses (ch. 3, "JOIN"): thread per element of R; the thread binary-searches
// S for its key (lower and upper bound) and gathers every matching S element into the output.
// Output positions come from a prefix sum of the match counts, so the flat version runs three
// host kernels: count (lower[i] and count[i]), an exclusive scan of count (one TB: per-thread
// chunk sums, a Hillis-Steele scan of the chunk sums in shared memory, then the chunk
// offsets; offset[|R|] = total), and write (thread i loops over its matches:
// out[offset[i] + j] = (i, S[lower[i] + j]), 8-byte stores).
//
// join_cdp / join_dtbl (thesis ch. 3-4): the count kernel splits the counts in two, small[i]
// (count < threshold, else 0) and big[i] (count >= threshold, else 0), each with its own scan
// (two prefix sums instead of one); the output holds the small elements' matches first, then
// the big ones'. In the write kernel a small element loops as in the flat version; a big one
// launches a child (CDP kernel, or DTBL aggregated group in the write kernel's own function
// and TB shape) of one thread per match, with parameters (lower, count) and the output base
// offset_small[|R|] + offset_big[i]; child thread j writes match j.
//
// Keys: keys=uniform draws R and S keys uniformly from [0, key_range); keys=gaussian draws
// them from round(key_range / 2 + sigma * z) clamped to the range (z: input_gen.h
// make_gaussian_u32), which concentrates matches on a few keys (skewed match counts).
#include <algorithm>

#include "traces/generators/device_launch.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct join_input {
  std::vector<std::uint32_t> r, s;  // s sorted
};

join_input make_join_input(const param_set& ps) {
  const std::uint32_t nr = ps.u32("r_size"), ns = ps.u32("s_size"), range = ps.u32("key_range");
  const std::uint64_t seed = ps.u64("seed");
  join_input in;
  if (ps.str("keys") == "gaussian") {
    const double sigma = ps.real("sigma");
    in.r = make_gaussian_u32(nr, range / 2.0, sigma, range, seed);
    in.s = make_gaussian_u32(ns, range / 2.0, sigma, range, seed + 1);
  } else {
    in.r = make_uniform_range(nr, range, seed);
    in.s = make_uniform_range(ns, range, seed + 1);
    for (auto& k : in.r) --k;
    for (auto& k : in.s) --k;
  }
  std::sort(in.s.begin(), in.s.end());
  return in;
}

// Exclusive scan of n counts at `in` into `out` (n + 1 entries): one TB of `block` threads.
void write_scan(app_builder& app, const char* name, std::uint64_t in, std::uint64_t out,
                std::uint32_t n, std::uint32_t block) {
  program p(app.opcodes(), 25);
  auto m = p.here();
  p.prologue();
  p.s2r(2, sreg::tid_x);
  p.mov(4);  // chunk
  p.imad(5, 2, 4, rz);
  p.mov(6);  // sum = 0
  p.isetp("GE", 5, rz);
  const code head = p.since(m);
  const code skip1 = p.bra();
  const code addr_in = p.address(8, 5, rz);
  const code ld_in = p.ld_global(10, 8, 4);
  m = p.here();
  p.iadd(6, 6, 10);
  p.iadd(5, 5, rz);
  p.isetp("LT", 5, rz);
  const code step1 = p.since(m);
  const code back1 = p.bra();
  m = p.here();
  p.shl(12, 2);
  const code sh_addr = p.since(m);
  const code sts_sum = p.st_shared(12, 6, 4);
  const code bar = p.bar_sync();
  m = p.here();
  p.mov(13);  // s = 1
  p.isetp("LT", 2, 13);
  p.iadd(14, 2, 13);
  p.shl(14, 14);
  const code step_head = p.since(m);
  const code lds_other = p.ld_shared(15, 14, 4);  // @!P0
  const code bar1 = p.bar_sync();
  const code add = p.iadd(6, 6, 15);
  const code sts_mine = p.st_shared(12, 6, 4);  // @!P0
  const code bar2 = p.bar_sync();
  m = p.here();
  p.shl(13, 13);
  p.isetp("LT", 13, rz);
  const code step2 = p.since(m);
  const code back2 = p.bra();
  m = p.here();
  p.mov(6);  // base = 0
  p.isetp("EQ", 2, rz);
  p.iadd(14, 12, rz);
  const code base_head = p.since(m);
  const code lds_base = p.ld_shared(6, 14, 4);  // @!P0: sh[t - 1]
  m = p.here();
  p.imad(5, 2, 4, rz);
  p.isetp("GE", 5, rz);
  const code head3 = p.since(m);
  const code skip3 = p.bra();
  const code addr3 = p.address(8, 5, rz);
  const code ld3 = p.ld_global(10, 8, 4);
  const code addr_out = p.address(16, 5, rz);
  const code st_out = p.st_global(16, 6, 4);
  m = p.here();
  p.iadd(6, 6, 10);
  p.iadd(5, 5, rz);
  p.isetp("LT", 5, rz);
  const code step3 = p.since(m);
  const code back3 = p.bra();
  m = p.here();
  p.isetp("NE", 2, rz);
  p.mov(18);
  p.address(18, 18, rz);
  const code total_head = p.since(m);
  const code st_total = p.st_global(18, 6, 4);  // @P0: last thread, out[n]
  const code done = p.exit();
  p.bra();

  const std::uint32_t chunk = (n + block - 1) / block;
  const kernel_info info =
      app.kernel(name, app.reserve_kernel_id(), dim3{1, 1, 1}, dim3{block, 1, 1}, 4 * block, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint32_t, 32> t{}, begin{}, end{};
      for (unsigned l = 0; l < 32; ++l) {
        t[l] = lanes.flat[l];
        begin[l] = std::min(n, t[l] * chunk);
        end[l] = std::min(n, begin[l] + chunk);
      }
      // A loop over each lane's chunk, `body(j)` for the lanes with j < end.
      auto chunk_loop = [&](code skip, code back, auto&& body) {
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && begin[l] < end[l]) act |= 1u << l;
        e.run(skip, lanes.live & ~act);
        for (std::uint32_t k = 0; act != 0; ++k) {
          body(act, k);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((act >> l & 1u) && begin[l] + k + 1 < end[l]) next |= 1u << l;
          e.run(back, next);
          act = next;
        }
      };
      e.run(head, lanes.live);
      chunk_loop(skip1, back1, [&](std::uint32_t act, std::uint32_t k) {
        e.run(addr_in, act);
        e.mem_fn(ld_in, act, [&](unsigned l) { return in + 4ull * (begin[l] + k); });
        e.run(step1, act);
      });
      e.run(sh_addr, lanes.live);
      e.mem_fn(sts_sum, lanes.live, [&](unsigned l) { return 4ull * t[l]; });
      e.run(bar, lanes.live);
      for (std::uint32_t s = 1; s < block; s <<= 1) {
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && t[l] >= s) act |= 1u << l;
        e.run(step_head, lanes.live);
        e.mem_fn(lds_other, act, [&](unsigned l) { return 4ull * (t[l] - s); });
        e.run(bar1, lanes.live);
        e.run(add, act);
        e.mem_fn(sts_mine, act, [&](unsigned l) { return 4ull * t[l]; });
        e.run(bar2, lanes.live);
        e.run(step2, lanes.live);
        e.run(back2, s * 2 < block ? lanes.live : 0);
      }
      std::uint32_t not_first = 0, last = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (lanes.live >> l & 1u) {
          if (t[l] > 0) not_first |= 1u << l;
          if (t[l] == block - 1) last |= 1u << l;
        }
      e.run(base_head, lanes.live);
      e.mem_fn(lds_base, not_first, [&](unsigned l) { return 4ull * (t[l] - 1); });
      e.run(head3, lanes.live);
      chunk_loop(skip3, back3, [&](std::uint32_t act, std::uint32_t k) {
        e.run(addr3, act);
        e.mem_fn(ld3, act, [&](unsigned l) { return in + 4ull * (begin[l] + k); });
        e.run(addr_out, act);
        e.mem_fn(st_out, act, [&](unsigned l) { return out + 4ull * (begin[l] + k); });
        e.run(step3, act);
      });
      e.run(total_head, lanes.live);
      e.mem_fn(st_total, last, [&](unsigned) { return out + 4ull * n; });
      e.run(done, lanes.live);
    }
  });
}

struct join_memory {
  std::uint64_t r, s, lower, count, offset, big, offset_big, out;
};

struct pending_child {
  std::uint32_t id, lower, count, base;
  dim3 grid;
};

void generate_join(const param_set& ps, app_builder& app, launch_mode mode) {
  const join_input in = make_join_input(ps);
  const auto nr = std::uint32_t(in.r.size()), ns = std::uint32_t(in.s.size());
  const std::uint32_t block = ps.u32("block");
  const std::uint32_t threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  const std::uint32_t child_block = child_block_of(ps, mode, block);
  const bool dyn = mode != launch_mode::flat;

  std::vector<std::uint32_t> lower(nr), count(nr);
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < nr; ++i) {
    const auto range = std::equal_range(in.s.begin(), in.s.end(), in.r[i]);
    lower[i] = std::uint32_t(range.first - in.s.begin());
    count[i] = std::uint32_t(range.second - range.first);
    total += count[i];
  }
  if (total > (1ull << 26))
    param_set::fail("keys",
                    std::to_string(total) +
                        " matches, more than 2^26; use fewer elements or a wider key range");

  join_memory mem{};
  mem.r = app.input(4ull * nr);
  mem.s = app.input(4ull * ns);
  mem.lower = app.output(4ull * nr);
  mem.count = app.output(4ull * nr);
  mem.offset = app.output(4ull * (nr + 1));
  if (dyn) {
    mem.big = app.output(4ull * nr);
    mem.offset_big = app.output(4ull * (nr + 1));
  }
  mem.out = app.output(8 * std::max<std::uint64_t>(total, 1));
  auto is_big = [&](std::uint32_t i) { return dyn && count[i] >= threshold; };
  const std::uint32_t grid = (nr + block - 1) / block;

  // ---- count: two binary searches per element ----
  {
    program p(app.opcodes(), 25);
    auto m = p.here();
    p.global_index_1d();  // R3 = i
    p.isetp("GE", 3, rz);
    const code head = p.since(m);
    const code exit_oob = p.exit();
    const code addr_r = p.address(4, 3, rz);
    const code ld_r = p.ld_global(6, 4, 4);
    m = p.here();
    p.mov(7);  // lo = 0
    p.mov(8);  // hi = |S|
    p.isetp("GE", 7, 8);
    const code search_init = p.since(m);
    m = p.here();
    p.iadd(9, 7, 8);
    p.shr(9, 9);
    p.address(10, 9, rz);
    const code mid = p.since(m);
    const code ld_mid = p.ld_global(12, 10, 4);
    m = p.here();
    p.isetp("LT.U32", 12, 6);  // lower: S[mid] < key; upper: S[mid] <= key
    p.iadd(7, 9, rz);          // @P0 lo = mid + 1
    p.mov(8);                  // @!P0 hi = mid
    p.isetp("LT", 7, 8);
    const code step = p.since(m);
    const code back = p.bra();
    m = p.here();
    p.iadd(13, 8, rz);
    p.address(14, 3, rz);
    const code addr_lower = p.since(m);
    const code st_lower = p.st_global(14, 13, 4);
    m = p.here();
    p.iadd(16, 7, 13);  // count = upper - lower
    p.address(18, 3, rz);
    p.isetp("LT", 16, rz);  // dynamic: count < threshold
    const code addr_count = p.since(m);
    const code st_count = p.st_global(18, 16, 4);
    const code addr_big = p.address(20, 3, rz);
    const code st_big = p.st_global(20, 16, 4);
    const code done = p.exit();
    p.bra();

    const kernel_info info =
        app.kernel(dyn ? "_Z15join_count_cdpPKjS0_PjS1_S1_jjj" : "_Z10join_countPKjS0_PjS1_jj",
                   app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
    app.write_kernel(info, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        std::array<std::uint32_t, 32> idx{};
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t i = std::uint64_t(tb.index.x) * block + lanes.flat[l];
          if (i >= nr) continue;
          idx[l] = std::uint32_t(i);
          act |= 1u << l;
        }
        e.run(head, lanes.live);
        e.run(exit_oob, lanes.live & ~act);
        e.run(addr_r, act);
        e.mem_fn(ld_r, act, [&](unsigned l) { return mem.r + 4ull * idx[l]; });
        for (bool upper : {false, true}) {
          std::array<std::uint32_t, 32> lo{}, hi{};
          std::uint32_t live = 0;
          for (unsigned l = 0; l < 32; ++l) {
            hi[l] = ns;
            if ((act >> l & 1u) && ns > 0) live |= 1u << l;
          }
          e.run(search_init, act);
          while (live != 0) {
            std::array<std::uint32_t, 32> md{};
            for (unsigned l = 0; l < 32; ++l) md[l] = (lo[l] + hi[l]) / 2;
            e.run(mid, live);
            e.mem_fn(ld_mid, live, [&](unsigned l) { return mem.s + 4ull * md[l]; });
            e.run(step, live);
            std::uint32_t next = 0;
            for (unsigned l = 0; l < 32; ++l) {
              if (!(live >> l & 1u)) continue;
              const std::uint32_t key = in.r[idx[l]], sv = in.s[md[l]];
              if (upper ? sv <= key : sv < key)
                lo[l] = md[l] + 1;
              else
                hi[l] = md[l];
              if (lo[l] < hi[l]) next |= 1u << l;
            }
            e.run(back, next);
            live = next;
          }
          if (!upper) {
            e.run(addr_lower, act);
            e.mem_fn(st_lower, act, [&](unsigned l) { return mem.lower + 4ull * idx[l]; });
          }
        }
        e.run(addr_count, act);
        e.mem_fn(st_count, act, [&](unsigned l) { return mem.count + 4ull * idx[l]; });
        if (dyn) {
          e.run(addr_big, act);
          e.mem_fn(st_big, act, [&](unsigned l) { return mem.big + 4ull * idx[l]; });
        }
        e.run(done, act);
      }
    });
  }

  // ---- scans ----
  write_scan(app, "_Z9join_scanPKjPjj", mem.count, mem.offset, nr, block);
  if (dyn) write_scan(app, "_Z9join_scanPKjPjj", mem.big, mem.offset_big, nr, block);
  std::vector<std::uint64_t> offset(nr + 1, 0), offset_big(nr + 1, 0);
  for (std::uint32_t i = 0; i < nr; ++i) {
    offset[i + 1] = offset[i] + (is_big(i) ? 0 : count[i]);
    offset_big[i + 1] = offset_big[i] + (is_big(i) ? count[i] : 0);
  }

  // ---- write ----
  program p(app.opcodes(), 35);
  auto m = p.here();
  p.global_index_1d();
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_i = p.address(4, 3, rz);
  const code ld_lower = p.ld_global(6, 4, 4);
  const code addr_cnt = p.address(8, 3, rz);
  const code ld_cnt = p.ld_global(10, 8, 4);
  code addr_big{}, ld_big{}, cmp_big{}, split{}, bra_small{}, addr_ob{}, ld_ob{}, ld_base{},
      bra_join{}, join{};
  std::unique_ptr<launch_site> site;
  if (dyn) {
    addr_big = p.address(12, 3, rz);
    ld_big = p.ld_global(11, 12, 4);
    cmp_big = p.isetp("EQ", 11, rz);
    split = p.reconverge_begin();
    bra_small = p.bra();
    addr_ob = p.address(14, 3, rz);
    ld_ob = p.ld_global(16, 14, 4);
    ld_base = p.ld_global(17, 30, 4);  // offset[|R|]: total of the small elements
    site = std::make_unique<launch_site>(p, mode, 24, 6, 16);  // (lower, count), base
    bra_join = p.bra();
  }
  const code addr_off = p.address(18, 3, rz);
  const code ld_off = p.ld_global(20, 18, 4);
  m = p.here();
  p.mov(21);  // j = 0
  p.isetp("GE", 21, 10);
  const code loop_init = p.since(m);
  const code skip = p.bra();
  m = p.here();
  p.iadd(22, 6, 21);
  p.address(26, 22, rz);
  const code addr_s = p.since(m);
  const code ld_s = p.ld_global(28, 26, 4);
  m = p.here();
  p.iadd(23, 20, 21);
  p.mov(29);  // i
  p.address(32, 23, rz);
  const code addr_o = p.since(m);
  const code st_o = p.st_global(32, 28, 8);  // (i, S[lower + j])
  m = p.here();
  p.iadd(21, 21, rz);
  p.isetp("LT", 21, 10);
  const code step = p.since(m);
  const code back = p.bra();
  if (dyn) join = p.reconverge_end();
  const code done = p.exit();
  p.bra();

  // ---- child: one thread per match of one element ----
  program cp(app.opcodes(), 25);
  const child_start entry = child_prologue(cp);
  const code c_head = entry.head, c_exit_oob = entry.exit_oob;
  m = cp.here();
  cp.mov(4);  // lower
  cp.iadd(5, 4, 3);
  cp.address(6, 5, rz);
  const code c_addr_s = cp.since(m);
  const code c_ld_s = cp.ld_global(8, 6, 4);
  m = cp.here();
  cp.mov(9);  // base
  cp.iadd(10, 9, 3);
  cp.mov(7);  // i
  cp.address(12, 10, rz);
  const code c_addr_o = cp.since(m);
  const code c_st_o = cp.st_global(12, 7, 8);
  const code c_done = cp.exit();
  cp.bra();

  const char* write_name = mode == launch_mode::flat  ? "_Z10join_writePKjS0_S0_S0_Pyj"
                           : mode == launch_mode::cdp ? "_Z14join_cdp_writePKjS0_S0_S0_S0_Pyjj"
                                                      : "_Z15join_dtbl_writePKjS0_S0_S0_S0_Pyjj";
  const char* child_name = child_function(ps, mode, write_name, "_Z14join_cdp_childPKjPyjjjj",
                                          "_Z15join_dtbl_childPKjPyjjjj");
  std::vector<pending_child> children;
  const kernel_info info =
      app.kernel(write_name, app.reserve_kernel_id(), dim3{grid, 1, 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint32_t, 32> idx{};
      std::uint32_t act = 0, big = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint64_t i = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (i >= nr) continue;
        idx[l] = std::uint32_t(i);
        act |= 1u << l;
        if (is_big(idx[l])) big |= 1u << l;
      }
      const std::uint32_t small = act & ~big;
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~act);
      e.run(addr_i, act);
      e.mem_fn(ld_lower, act, [&](unsigned l) { return mem.lower + 4ull * idx[l]; });
      e.run(addr_cnt, act);
      e.mem_fn(ld_cnt, act, [&](unsigned l) { return mem.count + 4ull * idx[l]; });
      if (dyn) {
        e.run(addr_big, act);
        e.mem_fn(ld_big, act, [&](unsigned l) { return mem.big + 4ull * idx[l]; });
        e.run(cmp_big, act);
        e.run(split, act);
        e.run(bra_small, small);
        e.run(addr_ob, big);
        e.mem_fn(ld_ob, big, [&](unsigned l) { return mem.offset_big + 4ull * idx[l]; });
        e.mem_fn(ld_base, big, [&](unsigned) { return mem.offset + 4ull * nr; });
        std::array<device_launch, 32> what{};
        for (unsigned l = 0; l < 32; ++l) {
          if (!(big >> l & 1u)) continue;
          what[l] = child_grid(app, count[idx[l]], child_block);
          children.push_back({what[l].child_kernel, lower[idx[l]], count[idx[l]],
                              std::uint32_t(offset[nr] + offset_big[idx[l]]), what[l].grid});
        }
        site->emit(e, big, what);
        e.run(bra_join, big);
      }
      e.run(addr_off, small);
      e.mem_fn(ld_off, small, [&](unsigned l) { return mem.offset + 4ull * idx[l]; });
      e.run(loop_init, small);
      std::uint32_t live = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((small >> l & 1u) && count[idx[l]] > 0) live |= 1u << l;
      e.run(skip, small & ~live);
      for (std::uint32_t j = 0; live != 0; ++j) {
        e.run(addr_s, live);
        e.mem_fn(ld_s, live, [&](unsigned l) { return mem.s + 4ull * (lower[idx[l]] + j); });
        e.run(addr_o, live);
        e.mem_fn(st_o, live, [&](unsigned l) { return mem.out + 8ull * (offset[idx[l]] + j); });
        e.run(step, live);
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && j + 1 < count[idx[l]]) next |= 1u << l;
        e.run(back, next);
        live = next;
      }
      if (dyn) e.run(join, act);
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
        std::array<std::uint32_t, 32> j{};
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(lanes.live >> l & 1u)) continue;
          const std::uint64_t i = std::uint64_t(tb.index.x) * child_block + lanes.flat[l];
          if (i >= c.count) continue;
          j[l] = std::uint32_t(i);
          act |= 1u << l;
        }
        e.run(c_head, lanes.live);
        e.run(c_exit_oob, lanes.live & ~act);
        e.run(c_addr_s, act);
        e.mem_fn(c_ld_s, act, [&](unsigned l) { return mem.s + 4ull * (c.lower + j[l]); });
        e.run(c_addr_o, act);
        e.mem_fn(c_st_o, act, [&](unsigned l) { return mem.out + 8ull * (c.base + j[l]); });
        e.run(c_done, act);
      }
    });
  }
}

std::vector<param_desc> join_params() {
  return {param_desc::integer("r_size", 2048, 1, 1u << 24, "elements of R (one thread each)"),
          param_desc::integer("s_size", 2048, 1, 1u << 24, "elements of S (sorted)"),
          param_desc::choice("keys", {"uniform", "gaussian"},
                             "key distribution of R and S (gaussian: skewed match counts)"),
          param_desc::integer("key_range", 2048, 1, 1u << 30, "keys in [0, key_range)"),
          param_desc::real("sigma", 16, 0.001, 1e9, "gaussian keys: standard deviation"),
          param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the keys"),
          param_desc::integer("block", 256, 32, 1024, "threads per TB (and of the scan's one TB)")};
}

}  // namespace

kernel_generator join_generator() {
  return launch_form("join",
                     "join of R with sorted S: count (binary search), scan, write (thread loops)",
                     join_params(), generate_join, launch_mode::flat);
}

kernel_generator join_cdp_generator() {
  return launch_form("join_cdp",
                     "join with CDP: an element with >= threshold matches launches a child kernel",
                     join_params(), generate_join, launch_mode::cdp);
}

kernel_generator join_dtbl_generator() {
  return launch_form("join_dtbl",
                     "join with DTBL: an element with >= threshold matches launches a group",
                     join_params(), generate_join, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
