// Quality-threshold clustering: SHOC's QTC (shoc/src/cuda/level2/qtclustering), QTC of the
// μC-States workloads (Kayiran et al., PACT'16, Table 1: memory-intensive). Sources followed:
// QTC.cu (the host loop), kernels_common.h (QTC_device, closest_point_reduction,
// reduce_card_device, compute_degrees, trim_ungrouped_pnts_indr_array,
// update_clustered_pnts_mask), kernels_full_storage.h (generate_candidate_cluster_full_storage,
// find_closest_point_to_cluster, CHECK_POINT_FOR_PROXIMITY), libdata.cpp
// (generate_synthetic_data), tuningParameters.h (THREADSPERBLOCK 64, SM_COUNT 24,
// OVR_SBSCR_FACTOR 24).
//
// Input, as generate_synthetic_data builds it: `points` points in a 20 x 20 square, made in
// groups: a centre (cx, cy) = 20·(frand, frand), a radius R = frand·10 and a group size
// random() mod (points/30), then points at distance r = frand·R, dx = (2 frand − 1)·r (in
// double), dy = ±sqrtf(r² − dx²) around the centre, those outside the square dropped (the
// draws still made). frand is rng(seed).uniform() as a float and random() mod m is
// rng::below(m) (assumed: SHOC uses libc random(), which no platform reproduces). Below 60
// points random() mod (points/30) is always 0 and SHOC's loop never ends: refused. Two points
// are neighbours when their squared float distance is < threshold²; indr_mtrx row i lists
// i's neighbours in increasing order, padded with −1 to max_degree D (the largest degree);
// the full matrix holds (float)sqrt((double)d²) for neighbours and FLT_MAX elsewhere.
//
// Host loop (QTC.cu, one node, full storage in global memory: SHOC's size classes 1 and the
// default, TextureMem 0): compute_degrees<<<tbc, min(points, 64)>>> once, then per
// iteration tbc = point_count >= max_tbs ? max_tbs : point_count (calculate_participants),
// QTC_device<<<tbc, block>>>, reduce_card_device<<<1, 1>>> when tbc > 1,
// trim_ungrouped_pnts_indr_array<<<1, block>>> and update_clustered_pnts_mask<<<1, block>>>;
// point_count −= the winner's cardinality, until it is 1 or nothing is left, or
// `max_clusters` iterations (0: no cap; the cap is ours). Device-to-host copies and the
// cudaMemsets of clustered_pnts_mask and dist_to_clust are not in the trace (Accel-Sim).
//
// QTC_device, TB b (block threads, tid): for i = b; i < point_count; i += tbc: seed =
// ungrpd_pnts_indr[i], degree = degrees[seed] (every thread, one address), skip if degree <=
// max_cardinality; else the candidate cluster of `seed` in Ai_mask + b·N0 (bytes) with the
// distance cache dist_to_clust + b·D (floats): clear both (i = tid, += block), thread 0 sets
// Ai_mask[seed], BAR; prefetch cand_k = indr_mtrx[seed·D + k·block + tid] for k < 12 while
// the position is below degree, BAR; then per step, while cnt < point_count: each thread
// checks its 12 registers (a live cand: LDG.U8 Ai_mask[cand], then, if 0, LDG.U8
// clustered_pnts_mask[cand]; either set drops it for good; else LDG work[cand·N0 +
// latest_point] and the register cache keeps the larger distance as the diameter), then the
// positions p = 12·block + tid, += block, below degree from memory (LDG indr_mtrx, the two
// mask bytes, LDG dist_to_clust[p], LDG work, STG dist_to_clust[p] when larger);
// closest_point_reduction (STS dist_array[tid] at 4·tid and point_index_array[tid] at
// 4·block + 4·tid, BAR, thread 0 alone walks j = 1 .. block − 1: LDS dist_array[j], on a tie
// also LDS point_index_array[j] and [0], and on a better one LDS [j], STS [0]; STS [0] = −1
// when nothing is within the threshold; BAR; every thread LDS point_index_array[0]); thread 0
// marks the winner (STG.U8), BAR. A final BAR. Thread 0 stores (max_cardinality, index) at
// cardnl[2b], [2b + 1].
//
// trim_ungrouped_pnts_indr_array (one TB): LDG degrees[winner], the candidate cluster again
// through find_closest_point_to_cluster (positions i + tid < D from memory every step, the
// −1 padding included) with thread 0 storing result_cluster[0] = seed and result[cnt] per
// member, on TB 0's Ai_mask and dist_to_clust; then the compaction of ungrpd_pnts_indr
// (shared tmp_pnts at 8·block, cnt_sh at 12·block, flag_sh at 12·block + 4: the order of the
// static __shared__ arrays is our assumption): per chunk LDG ungrpd[i + tid], STS tmp_pnts,
// LDG.U8 Ai_mask[pnt]; members STS flag_sh and tmp_pnts = −42, the others LDS cnt_sh and STG
// ungrpd[cnt_sh + tid]; BAR (the lanes in range only, as the loop runs); thread 0 LDS flag_sh
// and either LDS cnt_sh, rewrites the chunk from tmp_pnts (LDS each, STG the non-members)
// and STS cnt_sh, or adds block to cnt_sh; STS flag_sh; BAR.
//
// Defaults: points=256 threshold=4 max_clusters=2. SHOC's size 1 is 4096 points with
// threshold 1 (D = 121 here, 576 TBs); a 16th of the points at 4x the threshold keeps the
// points per threshold disc (D = 55, 256 TBs), and two of the 29 iterations keep a run near
// 0.9 M cycles on yaml/uc-bigcore.yaml (the whole run: 3.2 M; the serial one-TB kernels cost
// 50-100 k cycles per iteration). max_clusters=0 runs to the end.
//
// Execution on the CPU: TBs in order; a TB's warps advance together phase by phase (they are
// bound by barriers), each warp instruction for all its lanes. Compact storage and the
// texture path are not generated.
#include <array>
#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {

constexpr unsigned qtc_prefetch = 12;            // cand_pnt_1 .. cand_pnt_12
constexpr std::int32_t qtc_invalid_point = -42;  // INVALID_POINT_MARKER

struct qtc_input {
  std::uint32_t n = 0, max_degree = 0;
  float threshold = 0;
  std::vector<float> x, y;
  std::vector<std::int32_t> indr;  // n x max_degree, -1 padded
  std::vector<std::uint32_t> degree;

  float dist(std::uint32_t i, std::uint32_t j) const {
    const float dx = x[i] - x[j], dy = y[i] - y[j];
    const float dx2 = dx * dx, dy2 = dy * dy;
    const float d2 = dx2 + dy2;
    if (i == j || !(d2 < threshold * threshold)) return FLT_MAX;
    return float(std::sqrt(double(d2)));
  }
};

qtc_input make_qtc_input(std::uint32_t n, float threshold, std::uint64_t seed) {
  qtc_input in;
  in.n = n;
  in.threshold = threshold;
  in.x.resize(n);
  in.y.resize(n);
  rng r(seed);
  auto frand = [&] { return float(r.uniform()); };
  const float min_dim = 20.0f;
  for (std::uint32_t count = 0; count < n;) {
    const float cx = float(double(frand()) * 20.0), cy = float(double(frand()) * 20.0);
    const float radius = frand() * min_dim / 2;
    std::uint32_t group = std::uint32_t(r.below(n / 30));
    group = std::min(group, n - count);
    while (group > 0) {
      const float sign = frand() < 0.5f ? -1.0f : 1.0f;
      const float rr = frand() * radius;
      const float dx = float((2.0 * double(frand()) - 1.0) * double(rr));
      const float dy = std::sqrt(rr * rr - dx * dx) * sign;
      const float px = cx + dx;
      if (px < 0 || px > 20.0f) continue;
      const float py = cy + dy;
      if (py < 0 || py > 20.0f) continue;
      in.x[count] = px;
      in.y[count] = py;
      ++count;
      --group;
    }
  }
  in.degree.assign(n, 0);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < n; ++j)
      if (in.dist(i, j) != FLT_MAX) ++in.degree[i];
  for (std::uint32_t d : in.degree) in.max_degree = std::max(in.max_degree, d);
  if (in.max_degree == 0)
    param_set::fail("threshold", "no two points are closer than the threshold (max_degree 0)");
  in.indr.assign(std::uint64_t(n) * in.max_degree, -1);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t k = 0;
    for (std::uint32_t j = 0; j < n; ++j)
      if (in.dist(i, j) != FLT_MAX) in.indr[std::uint64_t(i) * in.max_degree + k++] = j;
  }
  return in;
}

struct qtc_memory {
  std::uint64_t work, indr, degrees, ungrpd, ai_mask, dist_to_clust, clustered, cardnl, result;
};

// Static code of the clearing loops at the start of a candidate cluster.
struct qtc_clear_code {
  code ai_init, ai_addr, ai_st, ai_step, ai_back, dc_init, dc_addr, dc_st, dc_step, dc_back;
  code seed_cmp, seed_st, result_st, bar;
};

qtc_clear_code add_clear(program& p, bool with_result) {
  qtc_clear_code c{};
  auto m = p.here();
  p.mov(47);                // 0
  p.raw("MOV", {40}, {0});  // i + tid
  p.isetp("GE", 40, rz);    // < N0
  c.ai_init = p.since(m);
  c.ai_addr = p.ptr_add(42, 4, 40);
  c.ai_st = p.st_global(42, 47, 1);
  m = p.here();
  p.iadd(40, 40, rz);
  p.isetp("LT", 40, rz);
  c.ai_step = p.since(m);
  c.ai_back = p.bra();
  m = p.here();
  p.raw("MOV", {40}, {0});
  p.isetp("GE", 40, rz);  // < max_degree
  c.dc_init = p.since(m);
  c.dc_addr = p.address(42, 40, 6);
  c.dc_st = p.st_global(42, 47, 4);
  m = p.here();
  p.iadd(40, 40, rz);
  p.isetp("LT", 40, rz);
  c.dc_step = p.since(m);
  c.dc_back = p.bra();
  m = p.here();
  p.isetp("NE", 0, rz);  // 0 == tid
  p.ptr_add(44, 4, 10);  // &Ai_mask[seed]
  p.mov(46);             // 1
  c.seed_cmp = p.since(m);
  if (with_result) {
    auto r = p.here();
    p.address(48, 10, rz);  // &candidate_cluster[0]
    p.st_global(48, 10, 4);
    c.result_st = p.since(r);
  }
  c.seed_st = p.st_global(44, 46, 1);
  c.bar = p.bar_sync();
  return c;
}

// Static code of closest_point_reduction and of the step's end.
struct qtc_reduce_code {
  code sts_addr, sts_dist, sts_idx, bar, tid_cmp, skip, j_init, lds_addr, lds_dist, cmp, lds_tie_j,
      lds_tie_0, tie_cmp, lds_better, sts_better, better_min, j_step, j_back, thr_cmp, sts_none,
      join, bar2, lds_result, res_cmp, win_addr, win_st, win_result_st, cnt_inc, bar3, loop_cmp,
      loop_back;
};

qtc_reduce_code add_reduce(program& p, bool with_result) {
  qtc_reduce_code c{};
  auto m = p.here();
  p.shl(50, 0);        // 4 * tid
  p.iadd(51, 50, rz);  // + 4 * THREADSPERBLOCK
  c.sts_addr = p.since(m);
  c.sts_dist = p.st_shared(50, 52, 4);  // dist_array[tid] = min_dist
  c.sts_idx = p.st_shared(51, 53, 4);   // point_index_array[tid] = closest_point
  c.bar = p.bar_sync();
  c.tid_cmp = p.isetp("NE", 0, rz);
  c.skip = p.bra();  // @P0 BRA (tid != 0)
  c.j_init = p.mov(54);
  c.lds_addr = p.shl(55, 54);
  c.lds_dist = p.ld_shared(56, 55, 4);
  m = p.here();
  p.raw("FSETP.LT.AND", {}, {56, 52});
  p.raw("FSETP.EQ.AND", {}, {56, 52});
  c.cmp = p.since(m);
  c.lds_tie_j = p.ld_shared(57, 55, 4);  // point_index_array[j]
  c.lds_tie_0 = p.raw("LDS", {58}, {}, 4);
  c.tie_cmp = p.isetp("LT", 57, 58);
  c.lds_better = p.ld_shared(57, 55, 4);
  c.sts_better = p.raw("STS", {}, {57}, 4);  // point_index_array[0]
  c.better_min = p.raw("FMNMX", {52}, {52, 56});
  m = p.here();
  p.iadd(54, 54, rz);
  p.isetp("LT", 54, rz);
  c.j_step = p.since(m);
  c.j_back = p.bra();
  c.thr_cmp = p.raw("FSETP.GT.AND", {}, {52});
  c.sts_none = p.raw("STS", {}, {59}, 4);  // point_index_array[0] = -1
  c.join = p.reconverge_end();
  c.bar2 = p.bar_sync();
  c.lds_result = p.raw("LDS", {60}, {}, 4);
  c.res_cmp = p.isetp("LT", 60, rz);
  m = p.here();
  p.isetp("NE", 0, rz);
  p.ptr_add(62, 4, 60);
  c.win_addr = p.since(m);
  c.win_st = p.st_global(62, 46, 1);  // Ai_mask[min_G_index] = 1
  if (with_result) {
    m = p.here();
    p.address(64, 61, rz);  // &candidate_cluster[cnt]
    p.st_global(64, 60, 4);
    c.win_result_st = p.since(m);
  }
  m = p.here();
  p.raw("MOV", {12}, {60});  // latest_point
  p.iadd(61, 61, rz);        // cnt++
  c.cnt_inc = p.since(m);
  c.bar3 = p.bar_sync();
  c.loop_cmp = p.isetp("LT", 61, rz);  // cnt < point_count && flag
  c.loop_back = p.bra();
  return c;
}

struct qtc_lane_min {
  float dist;
  std::int32_t index;
};

// Application state of the host loop.
struct qtc_run {
  const qtc_input& in;
  qtc_memory mem;
  std::uint32_t block, n0, d;
  std::vector<std::int32_t> ungrpd;
  std::vector<std::uint8_t> clustered;
  std::uint32_t point_count;
};

// The warps of one TB, advancing together.
struct qtc_tb {
  std::vector<warp_emitter> e;
  std::vector<std::uint32_t> live;
  std::uint32_t block;

  qtc_tb(const program& p, tb_trace& tb, std::uint32_t threads) : block(threads) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      e.emplace_back(p, tb.warps[w]);
      live.push_back(lanes_of(dim3{threads, 1, 1}, w).live);
    }
  }
  std::size_t warps() const { return e.size(); }
  // Live lanes of warp w whose thread id t satisfies f(t).
  template <class F>
  std::uint32_t mask(std::size_t w, F&& f) const {
    std::uint32_t m = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((live[w] >> l & 1u) && f(std::uint32_t(32 * w + l))) m |= 1u << l;
    return m;
  }
  void run_all(code c) {
    for (std::size_t w = 0; w < warps(); ++w) e[w].run(c, live[w]);
  }
  // Thread 0 only.
  void run0(code c) { e[0].run(c, 1u); }
  void mem0(code c, std::uint64_t addr) {
    e[0].mem_fn(c, 1u, [&](unsigned) { return addr; });
  }
  // A strided loop `for (i = 0; i + tid < n; i += block)` of one store per trip.
  void clear_loop(code init, code addr, code st, code step, code back, std::uint64_t base,
                  std::uint64_t n, unsigned bytes) {
    for (std::size_t w = 0; w < warps(); ++w) {
      e[w].run(init, live[w]);
      for (std::uint64_t i = 0;; i += block) {
        const std::uint32_t act = mask(w, [&](std::uint32_t t) { return i + t < n; });
        if (act == 0) break;
        e[w].run(addr, act);
        e[w].mem_fn(st, act, [&](unsigned l) { return base + bytes * (i + 32 * w + l); });
        e[w].run(step, act);
        e[w].run(back, mask(w, [&](std::uint32_t t) { return i + block + t < n; }));
      }
    }
  }
};

// closest_point_reduction and the end of the step: returns min_G_index.
std::int32_t qtc_reduce(qtc_tb& tb, const qtc_reduce_code& c, const std::vector<qtc_lane_min>& v,
                        float threshold) {
  const std::uint32_t t = tb.block;
  for (std::size_t w = 0; w < tb.warps(); ++w) {
    tb.e[w].run(c.sts_addr, tb.live[w]);
    tb.e[w].mem_fn(c.sts_dist, tb.live[w], [&](unsigned l) { return 4ull * (32 * w + l); });
    tb.e[w].mem_fn(c.sts_idx, tb.live[w], [&](unsigned l) { return 4ull * (t + 32 * w + l); });
  }
  tb.run_all(c.bar);
  tb.run_all(c.tid_cmp);
  for (std::size_t w = 0; w < tb.warps(); ++w)
    tb.e[w].run(c.skip, tb.live[w] & ~(w == 0 ? 1u : 0u));
  float min_dist = v[0].dist;
  std::int32_t p0 = v[0].index;
  tb.run0(c.j_init);
  for (std::uint32_t j = 1; j < t; ++j) {
    tb.run0(c.lds_addr);
    tb.mem0(c.lds_dist, 4ull * j);
    tb.run0(c.cmp);
    const float d = v[j].dist;
    bool take = d < min_dist;
    if (d == min_dist) {
      tb.mem0(c.lds_tie_j, 4ull * (t + j));
      tb.mem0(c.lds_tie_0, 4ull * t);
      tb.run0(c.tie_cmp);
      take = v[j].index < p0;
    }
    if (take) {
      if (d < min_dist) tb.mem0(c.lds_better, 4ull * (t + j));
      tb.mem0(c.sts_better, 4ull * t);
      tb.run0(c.better_min);
      min_dist = d;
      p0 = v[j].index;
    }
    tb.run0(c.j_step);
    if (j + 1 < t) tb.run0(c.j_back);
  }
  tb.run0(c.thr_cmp);
  if (min_dist > threshold) {
    tb.mem0(c.sts_none, 4ull * t);
    p0 = -1;
  }
  tb.run_all(c.join);
  tb.run_all(c.bar2);
  for (std::size_t w = 0; w < tb.warps(); ++w)
    tb.e[w].mem_fn(c.lds_result, tb.live[w], [&](unsigned) { return 4ull * t; });
  tb.run_all(c.res_cmp);
  return p0;
}

// The end of a step after the reduction: thread 0 marks the winner, BAR, the loop test.
void qtc_step_end(qtc_tb& tb, const qtc_reduce_code& c, const qtc_run& s, std::uint64_t ai,
                  std::int32_t chosen, std::uint32_t cnt, bool more) {
  if (chosen >= 0) {
    tb.run_all(c.win_addr);
    tb.mem0(c.win_st, ai + std::uint64_t(chosen));
    if (c.win_result_st.count != 0) {
      tb.run0(code{c.win_result_st.first, c.win_result_st.count - 1});
      tb.mem0(code{c.win_result_st.first + c.win_result_st.count - 1, 1},
              s.mem.result + 4ull * cnt);
    }
    tb.run_all(c.cnt_inc);
  }
  tb.run_all(c.bar3);
  tb.run_all(c.loop_cmp);
  if (more) tb.run_all(c.loop_back);
}

// ---- QTC_device ----

// One trip over a candidate point (generate_candidate_cluster's loop over the points beyond
// the prefetched ones, in QTC_device and again in the trim kernel): the point's index from
// the indirection array ([R82] into R84; `neg`: the trim kernel's test for a removed point),
// its Ai_mask and clustered flags, the candidate's distance so far (dist_to_clust) and its
// distance to the newest member, the larger of the two written back, the running minimum
// kept, then the loop step against `bound` (a register).
struct qtc_candidate_code {
  code ld, neg, ai_addr, ai, ai_cmp, cl_addr, cl, cl_cmp, dc_addr, dc, w_addr, w, gt, st_dc, upd,
      step, back;
};

qtc_candidate_code add_candidate(program& p, bool check_removed, std::uint16_t bound) {
  qtc_candidate_code c;
  c.ld = p.ld_global(84, 82, 4);
  if (check_removed) c.neg = p.isetp("LT", 84, rz);
  c.ai_addr = p.ptr_add(66, 4, 84);
  c.ai = p.ld_global(68, 66, 1);
  c.ai_cmp = p.isetp("NE", 68, rz);
  c.cl_addr = p.ptr_add(70, 34, 84);
  c.cl = p.ld_global(69, 70, 1);
  auto m = p.here();
  p.isetp("NE", 69, rz);
  p.bra();
  c.cl_cmp = p.since(m);
  c.dc_addr = p.address(86, 78, 6);
  c.dc = p.ld_global(88, 86, 4);
  m = p.here();
  p.imad(72, 84, 3, 12);
  p.address(74, 72, rz);
  c.w_addr = p.since(m);
  c.w = p.ld_global(76, 74, 4);
  c.gt = p.raw("FSETP.GT.AND", {}, {76, 88});
  c.st_dc = p.st_global(86, 76, 4);
  m = p.here();
  p.raw("FMNMX", {88}, {76, 88});
  p.raw("FSETP.LT.AND", {}, {88, 52});
  p.raw("SEL", {53}, {84, 53});
  p.raw("FMNMX", {52}, {52, 88});
  c.upd = p.since(m);
  m = p.here();
  p.iadd(78, 78, rz);
  p.isetp("LT", 78, bound);
  c.step = p.since(m);
  c.back = p.bra();
  return c;
}

struct qtc_device_code {
  code head, no_seed, seed_addr, ld_seed, deg_addr, ld_deg, deg_cmp, deg_skip;
  qtc_clear_code clear;
  std::array<code, qtc_prefetch> pf_cmp, pf_brk, pf_ld, pf_inc;
  code pf_bar, step_init;
  std::array<code, qtc_prefetch> ck_cmp, ck_skip, ck_ai_addr, ck_ai, ck_ai_cmp, ck_cl_addr, ck_cl,
      ck_cl_cmp, ck_drop, ck_w_addr, ck_w, ck_upd;
  code rest_init, rest_addr;
  qtc_candidate_code rest;
  qtc_reduce_code reduce;
  code end_bar, card_upd, next_step, next_back, card_cmp, card_addr, st_card, st_index, done;
};

qtc_device_code qtc_device_program(program& p) {
  qtc_device_code c{};
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.s2r(2, sreg::ctaid_x);
  p.mov(3);             // N0
  p.imad(8, 2, 3, rz);  // tblock_id * N0
  p.mov(4);             // Ai_mask
  p.mov(34);            // clustered_pnts_mask
  p.ptr_add(4, 4, 8);   // Ai_mask += tblock_id * N0
  p.mov(9);             // max_degree
  p.imad(8, 2, 9, rz);
  p.address(6, 8, rz);      // dist_to_clust += tblock_id * max_degree
  p.mov(15);                // max_cardinality = -1
  p.raw("MOV", {14}, {2});  // i = base_offset = tblock_id
  p.isetp("GE", 14, rz);    // i < point_count
  c.head = p.since(m);
  c.no_seed = p.bra();
  c.seed_addr = p.address(16, 14, rz);
  c.ld_seed = p.ld_global(10, 16, 4);  // seed_index = ungrpd_pnts_indr[i]
  c.deg_addr = p.address(18, 10, rz);
  c.ld_deg = p.ld_global(11, 18, 4);  // degree = degrees[seed_index]
  c.deg_cmp = p.isetp("LE", 11, 15);
  c.deg_skip = p.bra();
  c.clear = add_clear(p, false);
  m = p.here();
  p.imad(20, 10, 9, 0);  // seed * max_degree + tid
  p.address(22, 20, rz);
  p.raw("MOV", {12}, {10});  // latest_point = seed
  p.mov(61);                 // cnt = 1
  for (unsigned k = 0; k < qtc_prefetch; ++k) {
    if (k == 0) p.isetp("GE", 0, 11);
    c.pf_cmp[k] = k == 0 ? p.since(m) : p.isetp("GE", 20, 11);
    c.pf_brk[k] = p.bra();  // @P break
    c.pf_ld[k] = p.ld_global(reg(24 + k), 22, 4);
    if (k + 1 < qtc_prefetch) c.pf_inc[k] = p.iadd(20, 20, rz);
  }
  c.pf_bar = p.bar_sync();
  m = p.here();
  p.mov(52);  // min_dist = 2 * threshold
  p.mov(53);  // point_index = -1
  c.step_init = p.since(m);
  for (unsigned k = 0; k < qtc_prefetch; ++k) {
    const reg cand = reg(24 + k);
    c.ck_cmp[k] = p.isetp("LT", cand, rz);
    c.ck_skip[k] = p.bra();
    c.ck_ai_addr[k] = p.ptr_add(66, 4, cand);
    c.ck_ai[k] = p.ld_global(68, 66, 1);
    c.ck_ai_cmp[k] = p.isetp("NE", 68, rz);
    c.ck_cl_addr[k] = p.ptr_add(70, 34, cand);  // clustered_pnts_mask + cand
    c.ck_cl[k] = p.ld_global(69, 70, 1);
    c.ck_cl_cmp[k] = p.isetp("NE", 69, rz);
    m = p.here();
    p.mov(cand);  // _CAND_PNT_ = -1
    p.bra();      // break
    c.ck_drop[k] = p.since(m);
    m = p.here();
    p.imad(72, cand, 3, 12);  // cand * N0 + latest_point
    p.address(74, 72, rz);
    c.ck_w_addr[k] = p.since(m);
    c.ck_w[k] = p.ld_global(76, 74, 4);
    m = p.here();
    p.raw("FMNMX", {reg(36 + k % 4)}, {76, reg(36 + k % 4)});  // cp_dist = max(cp_dist, d)
    p.raw("FSETP.LT.AND", {}, {reg(36 + k % 4), 52});
    p.raw("SEL", {53}, {cand, 53});
    p.raw("FMNMX", {52}, {52, reg(36 + k % 4)});
    c.ck_upd[k] = p.since(m);
  }
  m = p.here();
  p.iadd(78, 0, rz);  // i = 12 * curThreadCount (+ tid)
  p.isetp("GE", 78, 11);
  p.bra();
  c.rest_init = p.since(m);
  m = p.here();
  p.iadd(80, 20, 78);
  p.address(82, 80, rz);
  c.rest_addr = p.since(m);
  c.rest = add_candidate(p, false, 11);
  c.reduce = add_reduce(p, false);
  c.end_bar = p.bar_sync();
  m = p.here();
  p.isetp("GT", 61, 15);
  p.raw("SEL", {15}, {61, 15});
  p.raw("SEL", {13}, {10, 13});
  c.card_upd = p.since(m);
  m = p.here();
  p.iadd(14, 14, rz);  // i += total_thread_block_count
  p.isetp("LT", 14, rz);
  c.next_step = p.since(m);
  c.next_back = p.bra();
  m = p.here();
  p.isetp("NE", 0, rz);
  c.card_cmp = p.since(m);
  m = p.here();
  p.shl(90, 2);
  p.address(92, 90, rz);
  c.card_addr = p.since(m);
  c.st_card = p.st_global(92, 15, 4);
  c.st_index = p.st_global(92, 13, 4);  // [R92 + 0x4]
  c.done = p.exit();
  p.bra();
  return c;
}

// One TB of QTC_device; returns (max_cardinality, index).
std::pair<std::int32_t, std::int32_t> qtc_device_tb(qtc_tb& tb, const qtc_device_code& c,
                                                    const qtc_run& s, std::uint32_t b,
                                                    std::uint32_t tbc) {
  const qtc_input& in = s.in;
  const std::uint32_t t = s.block, d = s.d;
  const std::uint64_t ai = s.mem.ai_mask + std::uint64_t(b) * s.n0;
  const std::uint64_t dc = s.mem.dist_to_clust + 4ull * b * d;
  std::int32_t max_card = -1, max_index = 0;
  tb.run_all(c.head);
  std::vector<std::uint8_t> in_ai(s.n0, 0);
  for (std::uint32_t i = b; i < s.point_count; i += tbc) {
    if (i != b) tb.run_all(c.next_back);
    const std::uint32_t seed = std::uint32_t(s.ungrpd[i]);
    const std::uint32_t degree = in.degree[seed];
    tb.run_all(c.seed_addr);
    for (std::size_t w = 0; w < tb.warps(); ++w) {
      tb.e[w].mem_fn(c.ld_seed, tb.live[w], [&](unsigned) { return s.mem.ungrpd + 4ull * i; });
    }
    tb.run_all(c.deg_addr);
    for (std::size_t w = 0; w < tb.warps(); ++w)
      tb.e[w].mem_fn(c.ld_deg, tb.live[w], [&](unsigned) { return s.mem.degrees + 4ull * seed; });
    tb.run_all(c.deg_cmp);
    if (std::int32_t(degree) <= max_card) {
      tb.run_all(c.deg_skip);
      tb.run_all(c.next_step);
      continue;
    }
    // generate_candidate_cluster_full_storage(seed, degree, ..., candidate_cluster = NULL)
    const qtc_clear_code& cl = c.clear;
    tb.clear_loop(cl.ai_init, cl.ai_addr, cl.ai_st, cl.ai_step, cl.ai_back, ai, s.n0, 1);
    tb.clear_loop(cl.dc_init, cl.dc_addr, cl.dc_st, cl.dc_step, cl.dc_back, dc, d, 4);
    std::fill(in_ai.begin(), in_ai.end(), 0);
    tb.run_all(cl.seed_cmp);
    tb.mem0(cl.seed_st, ai + seed);
    in_ai[seed] = 1;
    tb.run_all(cl.bar);
    const std::uint64_t row = std::uint64_t(seed) * d;
    auto cand_at = [&](std::uint64_t pos) { return std::uint32_t(in.indr[row + pos]); };
    // Registers: alive[k][t] while the prefetched position k * block + t is a live candidate.
    std::vector<std::array<bool, qtc_prefetch>> alive(t);
    std::vector<std::array<float, qtc_prefetch>> cache(t);
    for (std::uint32_t th = 0; th < t; ++th)
      for (unsigned k = 0; k < qtc_prefetch; ++k) {
        alive[th][k] = std::uint64_t(k) * t + th < degree;
        cache[th][k] = 0;
      }
    std::vector<float> mem_cache(d, 0.0f);
    for (std::size_t w = 0; w < tb.warps(); ++w) {
      for (unsigned k = 0; k < qtc_prefetch; ++k) {
        // The lanes that got to step k (all earlier positions below degree), and those of
        // them whose position k is below degree too.
        const std::uint32_t reach = k == 0 ? tb.live[w] : tb.mask(w, [&](std::uint32_t th) {
          return std::uint64_t(k - 1) * t + th < degree;
        });
        const std::uint32_t act =
            tb.mask(w, [&](std::uint32_t th) { return std::uint64_t(k) * t + th < degree; });
        tb.e[w].run(c.pf_cmp[k], reach);
        tb.e[w].run(c.pf_brk[k], reach & ~act);
        tb.e[w].mem_fn(c.pf_ld[k], act,
                       [&](unsigned l) { return s.mem.indr + 4 * (row + k * t + 32 * w + l); });
        if (k + 1 < qtc_prefetch) tb.e[w].run(c.pf_inc[k], act);
      }
    }
    tb.run_all(c.pf_bar);
    std::uint32_t cnt = 1, latest = seed;
    while (cnt < s.point_count) {
      std::vector<qtc_lane_min> v(t, qtc_lane_min{2 * in.threshold, -1});
      auto consider = [&](std::uint32_t th, std::uint32_t cand, float& cached) {
        const float dn = in.dist(cand, latest);
        if (dn > cached) cached = dn;
        if (cached < v[th].dist) v[th] = {cached, std::int32_t(cand)};
      };
      tb.run_all(c.step_init);
      for (unsigned k = 0; k < qtc_prefetch; ++k)
        for (std::size_t w = 0; w < tb.warps(); ++w) {
          auto pos = [&](unsigned l) { return std::uint64_t(k) * t + 32 * w + l; };
          const std::uint32_t act = tb.mask(w, [&](std::uint32_t th) { return alive[th][k]; });
          tb.e[w].run(c.ck_cmp[k], tb.live[w]);
          tb.e[w].run(c.ck_skip[k], tb.live[w] & ~act);
          tb.e[w].run(c.ck_ai_addr[k], act);
          tb.e[w].mem_fn(c.ck_ai[k], act, [&](unsigned l) { return ai + cand_at(pos(l)); });
          tb.e[w].run(c.ck_ai_cmp[k], act);
          const std::uint32_t a2 = tb.mask(w, [&](std::uint32_t th) {
            return alive[th][k] && !in_ai[cand_at(std::uint64_t(k) * t + th)];
          });
          tb.e[w].run(c.ck_cl_addr[k], a2);
          tb.e[w].mem_fn(c.ck_cl[k], a2,
                         [&](unsigned l) { return s.mem.clustered + cand_at(pos(l)); });
          tb.e[w].run(c.ck_cl_cmp[k], a2);
          const std::uint32_t a3 = tb.mask(w, [&](std::uint32_t th) {
            const std::uint32_t cand = cand_at(std::uint64_t(k) * t + th);
            return alive[th][k] && !in_ai[cand] && !s.clustered[cand];
          });
          tb.e[w].run(c.ck_drop[k], act & ~a3);
          tb.e[w].run(c.ck_w_addr[k], a3);
          tb.e[w].mem_fn(c.ck_w[k], a3, [&](unsigned l) {
            return s.mem.work + 4 * (std::uint64_t(cand_at(pos(l))) * s.n0 + latest);
          });
          tb.e[w].run(c.ck_upd[k], a3);
          for (unsigned l = 0; l < 32; ++l) {
            const std::uint32_t th = std::uint32_t(32 * w + l);
            if (act >> l & 1u && !(a3 >> l & 1u)) alive[th][k] = false;
            if (a3 >> l & 1u) consider(th, cand_at(pos(l)), cache[th][k]);
          }
        }
      for (std::size_t w = 0; w < tb.warps(); ++w) {
        tb.e[w].run(c.rest_init, tb.live[w]);
        for (std::uint64_t j = qtc_prefetch;; ++j) {
          auto pos = [&](unsigned l) { return j * t + 32 * w + l; };
          const std::uint32_t act =
              tb.mask(w, [&](std::uint32_t th) { return j * t + th < degree; });
          if (act == 0) break;
          tb.e[w].run(c.rest_addr, act);
          tb.e[w].mem_fn(c.rest.ld, act,
                         [&](unsigned l) { return s.mem.indr + 4 * (row + pos(l)); });
          tb.e[w].run(c.rest.ai_addr, act);
          tb.e[w].mem_fn(c.rest.ai, act, [&](unsigned l) { return ai + cand_at(pos(l)); });
          tb.e[w].run(c.rest.ai_cmp, act);
          const std::uint32_t a2 = tb.mask(w, [&](std::uint32_t th) {
            return j * t + th < degree && !in_ai[cand_at(j * t + th)];
          });
          tb.e[w].run(c.rest.cl_addr, a2);
          tb.e[w].mem_fn(c.rest.cl, a2,
                         [&](unsigned l) { return s.mem.clustered + cand_at(pos(l)); });
          tb.e[w].run(c.rest.cl_cmp, a2);
          const std::uint32_t a3 = tb.mask(w, [&](std::uint32_t th) {
            if (j * t + th >= degree) return false;
            const std::uint32_t cand = cand_at(j * t + th);
            return !in_ai[cand] && !s.clustered[cand];
          });
          tb.e[w].run(c.rest.dc_addr, a3);
          tb.e[w].mem_fn(c.rest.dc, a3, [&](unsigned l) { return dc + 4 * pos(l); });
          tb.e[w].run(c.rest.w_addr, a3);
          tb.e[w].mem_fn(c.rest.w, a3, [&](unsigned l) {
            return s.mem.work + 4 * (std::uint64_t(cand_at(pos(l))) * s.n0 + latest);
          });
          tb.e[w].run(c.rest.gt, a3);
          std::uint32_t larger = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (a3 >> l & 1u && in.dist(cand_at(pos(l)), latest) > mem_cache[pos(l)])
              larger |= 1u << l;
          tb.e[w].mem_fn(c.rest.st_dc, larger, [&](unsigned l) { return dc + 4 * pos(l); });
          tb.e[w].run(c.rest.upd, a3);
          for (unsigned l = 0; l < 32; ++l)
            if (a3 >> l & 1u)
              consider(std::uint32_t(32 * w + l), cand_at(pos(l)), mem_cache[pos(l)]);
          tb.e[w].run(c.rest.step, act);
          tb.e[w].run(c.rest.back,
                      tb.mask(w, [&](std::uint32_t th) { return (j + 1) * t + th < degree; }));
        }
      }
      const std::int32_t chosen = qtc_reduce(tb, c.reduce, v, in.threshold);
      if (chosen >= 0) {
        in_ai[std::uint32_t(chosen)] = 1;
        latest = std::uint32_t(chosen);
      }
      const bool more = chosen >= 0 && cnt + 1 < s.point_count;
      qtc_step_end(tb, c.reduce, s, ai, chosen, cnt, more);
      if (chosen < 0) break;
      ++cnt;
    }
    tb.run_all(c.end_bar);
    tb.run_all(c.card_upd);
    if (std::int32_t(cnt) > max_card) {
      max_card = std::int32_t(cnt);
      max_index = std::int32_t(seed);
    }
    tb.run_all(c.next_step);
  }
  tb.run_all(c.card_cmp);
  tb.run0(c.card_addr);
  tb.mem0(c.st_card, s.mem.cardnl + 8ull * b);
  tb.mem0(c.st_index, s.mem.cardnl + 8ull * b + 4);
  tb.run_all(c.done);
  return {max_card, max_index};
}

// ---- trim_ungrouped_pnts_indr_array ----

struct qtc_trim_code {
  code head, ld_deg;
  qtc_clear_code clear;
  code step_init, fc_addr;
  qtc_candidate_code fc;
  qtc_reduce_code reduce;
  code end_bar, sh_init, sh_st_cnt, sh_st_flag, sh_bar, ch_init, ch_addr, ch_ld, ch_sts, ch_ai_addr,
      ch_ai, ch_cmp, ch_bad_flag, ch_bad_tmp, ch_good_cnt, ch_good_addr, ch_good_st, ch_bar, t0_cmp,
      t0_flag, t0_flag_cmp, t0_cnt, t0_j_lds, t0_j_cmp, t0_j_st, t0_j_step, t0_j_back, t0_cnt_st,
      t0_plus_cnt, t0_plus_st, t0_flag_clear, ch_bar2, ch_step, ch_back, done;
};

qtc_trim_code qtc_trim_program(program& p) {
  qtc_trim_code c{};
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::tid_x);
  p.mov(10);  // seed_index
  p.mov(3);   // N0
  p.mov(9);   // max_degree
  p.mov(4);   // Ai_mask
  p.mov(6);   // dist_to_clust
  p.mov(34);  // clustered_pnts_mask
  c.head = p.since(m);
  m = p.here();
  p.address(18, 10, rz);
  p.ld_global(11, 18, 4);
  c.ld_deg = p.since(m);
  c.clear = add_clear(p, true);
  m = p.here();
  p.mov(52);
  p.mov(53);
  p.raw("MOV", {78}, {0});
  p.isetp("GE", 78, 9);
  c.step_init = p.since(m);
  m = p.here();
  p.imad(80, 10, 9, 78);
  p.address(82, 80, rz);
  c.fc_addr = p.since(m);
  c.fc = add_candidate(p, true, 9);
  c.reduce = add_reduce(p, true);
  c.end_bar = p.bar_sync();
  m = p.here();
  p.isetp("NE", 0, rz);
  p.mov(94);  // 0
  c.sh_init = p.since(m);
  c.sh_st_cnt = p.raw("STS", {}, {94}, 4);
  c.sh_st_flag = p.raw("STS.U8", {}, {94}, 1);
  c.sh_bar = p.bar_sync();
  m = p.here();
  p.raw("MOV", {96}, {0});
  p.isetp("GE", 96, rz);  // i + tid < point_count
  c.ch_init = p.since(m);
  c.ch_addr = p.address(98, 96, rz);
  c.ch_ld = p.ld_global(100, 98, 4);
  c.ch_sts = p.st_shared(50, 100, 4);  // tmp_pnts[tid]
  c.ch_ai_addr = p.ptr_add(66, 4, 100);
  c.ch_ai = p.ld_global(68, 66, 1);
  c.ch_cmp = p.isetp("NE", 68, rz);  // 1 == Ai_mask[pnt]
  c.ch_bad_flag = p.raw("STS.U8", {}, {46}, 1);
  c.ch_bad_tmp = p.st_shared(50, 102, 4);
  c.ch_good_cnt = p.raw("LDS", {104}, {}, 4);
  c.ch_good_addr = p.iadd(105, 104, 0);
  c.ch_good_st = p.st_global(106, 100, 4);
  c.ch_bar = p.bar_sync();
  c.t0_cmp = p.isetp("NE", 0, rz);
  c.t0_flag = p.raw("LDS.U8", {108}, {}, 1);
  c.t0_flag_cmp = p.isetp("EQ", 108, rz);
  c.t0_cnt = p.raw("LDS", {110}, {}, 4);
  c.t0_j_lds = p.ld_shared(112, 111, 4);
  c.t0_j_cmp = p.isetp("EQ", 112, rz);
  c.t0_j_st = p.st_global(114, 112, 4);
  m = p.here();
  p.iadd(111, 111, rz);
  p.isetp("LT", 111, rz);
  c.t0_j_step = p.since(m);
  c.t0_j_back = p.bra();
  c.t0_cnt_st = p.raw("STS", {}, {110}, 4);
  c.t0_plus_cnt = p.raw("LDS", {110}, {}, 4);
  c.t0_plus_st = p.raw("STS", {}, {110}, 4);
  c.t0_flag_clear = p.raw("STS.U8", {}, {94}, 1);
  c.ch_bar2 = p.bar_sync();
  m = p.here();
  p.iadd(96, 96, rz);
  p.isetp("LT", 96, rz);
  c.ch_step = p.since(m);
  c.ch_back = p.bra();
  c.done = p.exit();
  p.bra();
  return c;
}

// The trim TB: the winner's cluster (result_cluster), then the compaction of ungrpd.
std::vector<std::uint32_t> qtc_trim_tb(qtc_tb& tb, const qtc_trim_code& c, qtc_run& s,
                                       std::uint32_t seed) {
  const qtc_input& in = s.in;
  const std::uint32_t t = s.block, d = s.d;
  const std::uint64_t ai = s.mem.ai_mask, dc = s.mem.dist_to_clust;
  tb.run_all(c.head);
  for (std::size_t w = 0; w < tb.warps(); ++w) {
    tb.e[w].run(code{c.ld_deg.first, c.ld_deg.count - 1}, tb.live[w]);
    tb.e[w].mem_fn(code{c.ld_deg.first + c.ld_deg.count - 1, 1}, tb.live[w],
                   [&](unsigned) { return s.mem.degrees + 4ull * seed; });
  }
  const qtc_clear_code& cl = c.clear;
  tb.clear_loop(cl.ai_init, cl.ai_addr, cl.ai_st, cl.ai_step, cl.ai_back, ai, s.n0, 1);
  tb.clear_loop(cl.dc_init, cl.dc_addr, cl.dc_st, cl.dc_step, cl.dc_back, dc, d, 4);
  std::vector<std::uint8_t> in_ai(s.n0, 0);
  std::vector<float> mem_cache(d, 0.0f);
  tb.run_all(cl.seed_cmp);
  tb.run0(code{cl.result_st.first, cl.result_st.count - 1});
  tb.mem0(code{cl.result_st.first + cl.result_st.count - 1, 1}, s.mem.result);
  tb.mem0(cl.seed_st, ai + seed);
  in_ai[seed] = 1;
  tb.run_all(cl.bar);
  const std::uint64_t row = std::uint64_t(seed) * d;
  std::vector<std::uint32_t> cluster{seed};
  std::uint32_t latest = seed;
  // find_closest_point_to_cluster per step.
  while (cluster.size() < s.point_count) {
    std::vector<qtc_lane_min> v(t, qtc_lane_min{2 * in.threshold, -1});
    for (std::size_t w = 0; w < tb.warps(); ++w) {
      tb.e[w].run(c.step_init, tb.live[w]);
      for (std::uint64_t i = 0;; i += t) {
        auto pos = [&](unsigned l) { return i + 32 * w + l; };
        const std::uint32_t act = tb.mask(w, [&](std::uint32_t th) { return i + th < d; });
        if (act == 0) break;
        auto valid = [&](std::uint32_t th, int level) {
          if (i + th >= d) return false;
          const std::int32_t p2 = in.indr[row + i + th];
          if (p2 < 0) return false;
          if (level >= 1 && in_ai[std::uint32_t(p2)]) return false;
          if (level >= 2 && s.clustered[std::uint32_t(p2)]) return false;
          return true;
        };
        auto cand = [&](unsigned l) { return std::uint32_t(in.indr[row + pos(l)]); };
        tb.e[w].run(c.fc_addr, act);
        tb.e[w].mem_fn(c.fc.ld, act, [&](unsigned l) { return s.mem.indr + 4 * (row + pos(l)); });
        tb.e[w].run(c.fc.neg, act);
        const std::uint32_t a1 = tb.mask(w, [&](std::uint32_t th) { return valid(th, 0); });
        const std::uint32_t a2 = tb.mask(w, [&](std::uint32_t th) { return valid(th, 1); });
        const std::uint32_t a3 = tb.mask(w, [&](std::uint32_t th) { return valid(th, 2); });
        tb.e[w].run(c.fc.ai_addr, a1);
        tb.e[w].mem_fn(c.fc.ai, a1, [&](unsigned l) { return ai + cand(l); });
        tb.e[w].run(c.fc.ai_cmp, a1);
        tb.e[w].run(c.fc.cl_addr, a2);
        tb.e[w].mem_fn(c.fc.cl, a2, [&](unsigned l) { return s.mem.clustered + cand(l); });
        tb.e[w].run(c.fc.cl_cmp, a2);
        tb.e[w].run(c.fc.dc_addr, a3);
        tb.e[w].mem_fn(c.fc.dc, a3, [&](unsigned l) { return dc + 4 * pos(l); });
        tb.e[w].run(c.fc.w_addr, a3);
        tb.e[w].mem_fn(c.fc.w, a3, [&](unsigned l) {
          return s.mem.work + 4 * (std::uint64_t(cand(l)) * s.n0 + latest);
        });
        tb.e[w].run(c.fc.gt, a3);
        std::uint32_t larger = 0;
        for (unsigned l = 0; l < 32; ++l)
          if (a3 >> l & 1u) {
            const float dn = in.dist(cand(l), latest);
            float& cached = mem_cache[pos(l)];
            if (dn > cached) {
              larger |= 1u << l;
              cached = dn;
            }
            qtc_lane_min& m = v[32 * w + l];
            if (cached < m.dist) m = {cached, std::int32_t(cand(l))};
          }
        tb.e[w].mem_fn(c.fc.st_dc, larger, [&](unsigned l) { return dc + 4 * pos(l); });
        tb.e[w].run(c.fc.upd, a3);
        tb.e[w].run(c.fc.step, act);
        tb.e[w].run(c.fc.back, tb.mask(w, [&](std::uint32_t th) { return i + t + th < d; }));
      }
    }
    const std::int32_t chosen = qtc_reduce(tb, c.reduce, v, in.threshold);
    const bool more = chosen >= 0 && cluster.size() + 1 < s.point_count;
    qtc_step_end(tb, c.reduce, s, ai, chosen, std::uint32_t(cluster.size()), more);
    if (chosen < 0) break;
    in_ai[std::uint32_t(chosen)] = 1;
    latest = std::uint32_t(chosen);
    cluster.push_back(latest);
  }
  tb.run_all(c.end_bar);
  // The compaction of ungrpd_pnts_indr.
  const std::uint64_t tmp = 8ull * t, cnt_sh = 12ull * t, flag_sh = 12ull * t + 4;
  tb.run_all(c.sh_init);
  tb.mem0(c.sh_st_cnt, cnt_sh);
  tb.mem0(c.sh_st_flag, flag_sh);
  tb.run_all(c.sh_bar);
  std::vector<std::int32_t> next;
  std::uint32_t cnt = 0;
  tb.run_all(c.ch_init);
  for (std::uint32_t i = 0; i < s.point_count; i += t) {
    std::vector<std::int32_t> tmp_pnts(t, 0);
    bool flag = false;
    for (std::size_t w = 0; w < tb.warps(); ++w) {
      const std::uint32_t act =
          tb.mask(w, [&](std::uint32_t th) { return i + th < s.point_count; });
      if (act == 0) continue;
      auto pnt = [&](unsigned l) { return std::uint32_t(s.ungrpd[i + 32 * w + l]); };
      tb.e[w].run(c.ch_addr, act);
      tb.e[w].mem_fn(c.ch_ld, act,
                     [&](unsigned l) { return s.mem.ungrpd + 4ull * (i + 32 * w + l); });
      tb.e[w].mem_fn(c.ch_sts, act, [&](unsigned l) { return tmp + 4ull * (32 * w + l); });
      tb.e[w].run(c.ch_ai_addr, act);
      tb.e[w].mem_fn(c.ch_ai, act, [&](unsigned l) { return ai + pnt(l); });
      tb.e[w].run(c.ch_cmp, act);
      std::uint32_t bad = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (act >> l & 1u) {
          tmp_pnts[32 * w + l] = std::int32_t(pnt(l));
          if (in_ai[pnt(l)]) {
            bad |= 1u << l;
            tmp_pnts[32 * w + l] = qtc_invalid_point;
          }
        }
      flag = flag || bad != 0;
      const std::uint32_t good = act & ~bad;
      tb.e[w].mem_fn(c.ch_bad_flag, bad, [&](unsigned) { return flag_sh; });
      tb.e[w].mem_fn(c.ch_bad_tmp, bad, [&](unsigned l) { return tmp + 4ull * (32 * w + l); });
      tb.e[w].mem_fn(c.ch_good_cnt, good, [&](unsigned) { return cnt_sh; });
      tb.e[w].run(c.ch_good_addr, good);
      tb.e[w].mem_fn(c.ch_good_st, good,
                     [&](unsigned l) { return s.mem.ungrpd + 4ull * (cnt + 32 * w + l); });
      tb.e[w].run(c.ch_bar, act);
      tb.e[w].run(c.t0_cmp, act);
    }
    tb.mem0(c.t0_flag, flag_sh);
    tb.run0(c.t0_flag_cmp);
    if (flag) {
      tb.mem0(c.t0_cnt, cnt_sh);
      for (std::uint32_t j = 0; j < t && i + j < s.point_count; ++j) {
        tb.mem0(c.t0_j_lds, tmp + 4ull * j);
        tb.run0(c.t0_j_cmp);
        if (tmp_pnts[j] != qtc_invalid_point) {
          tb.mem0(c.t0_j_st, s.mem.ungrpd + 4ull * cnt);
          ++cnt;
        }
        tb.run0(c.t0_j_step);
        if (j + 1 < t && i + j + 1 < s.point_count) tb.run0(c.t0_j_back);
      }
      tb.mem0(c.t0_cnt_st, cnt_sh);
    } else {
      tb.mem0(c.t0_plus_cnt, cnt_sh);
      tb.mem0(c.t0_plus_st, cnt_sh);
      cnt += t;
    }
    tb.mem0(c.t0_flag_clear, flag_sh);
    for (std::size_t w = 0; w < tb.warps(); ++w) {
      const std::uint32_t act =
          tb.mask(w, [&](std::uint32_t th) { return i + th < s.point_count; });
      tb.e[w].run(c.ch_bar2, act);
      tb.e[w].run(c.ch_step, act);
      tb.e[w].run(c.ch_back,
                  tb.mask(w, [&](std::uint32_t th) { return i + t + th < s.point_count; }));
    }
  }
  tb.run_all(c.done);
  for (std::uint32_t k = 0; k < s.point_count; ++k)
    if (!in_ai[std::uint32_t(s.ungrpd[k])]) next.push_back(s.ungrpd[k]);
  std::copy(next.begin(), next.end(), s.ungrpd.begin());
  return cluster;
}

void generate_qtc(const param_set& ps, app_builder& app) {
  const std::uint32_t n = ps.u32("points"), block = ps.u32("block");
  const std::uint32_t max_tbs = ps.u32("max_tbs"), max_clusters = ps.u32("max_clusters");
  const double threshold_param = ps.real("threshold");
  if (threshold_param <= 0) param_set::fail("threshold", "must be greater than 0");
  if (block % 32 != 0) param_set::fail("block", "must be a multiple of 32");
  const qtc_input in = make_qtc_input(n, float(threshold_param), ps.u64("seed"));
  const std::uint32_t d = in.max_degree;

  // calculate_participants (one node).
  auto tb_count = [&](std::uint32_t points) { return points >= max_tbs ? max_tbs : points; };
  const std::uint32_t tbc0 = tb_count(n);
  qtc_memory mem{};
  mem.work = app.output(4ull * n * n);
  mem.indr = app.output(4ull * n * d);
  mem.degrees = app.output(4ull * n);
  mem.ungrpd = app.output(4ull * n);
  mem.ai_mask = app.output(std::uint64_t(tbc0) * n);
  mem.dist_to_clust = app.output(4ull * tbc0 * d);
  mem.clustered = app.output(n);
  mem.cardnl = app.output(8ull * tbc0);
  mem.result = app.output(4ull * n);
  app.memcpy_h2d(mem.work, 4ull * n * n);
  app.memcpy_h2d(mem.indr, 4ull * n * d);
  app.memcpy_h2d(mem.ungrpd, 4ull * n);

  qtc_run s{in, mem, block, n, d, {}, std::vector<std::uint8_t>(n, 0), n};
  s.ungrpd.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) s.ungrpd[i] = std::int32_t(i);

  // ---- compute_degrees<<<tbc0, min(points, THREADSPERBLOCK)>>> ----
  {
    program p(app.opcodes(), 30);
    auto m = p.here();
    p.prologue();
    p.s2r(0, sreg::tid_x);
    p.s2r(2, sreg::ctaid_x);
    p.mov(3);
    p.imad(4, 2, 3, rz);  // starting_point
    p.raw("MOV", {6}, {0});
    p.isetp("GE", 6, rz);  // i + tid < local_point_count
    const code head = p.since(m);
    const code exit_none = p.exit();
    m = p.here();
    p.mov(8);  // cnt = 0
    p.iadd(9, 4, 6);
    p.mov(10);  // j = 0
    const code pt_init = p.since(m);
    m = p.here();
    p.imad(11, 9, rz, 10);
    p.address(12, 11, rz);
    const code addr = p.since(m);
    const code ld = p.ld_global(14, 12, 4);
    m = p.here();
    p.isetp("GE", 14, rz);
    p.iadd(8, 8, rz);  // @P0
    p.iadd(10, 10, rz);
    p.isetp("LT", 10, rz);
    const code j_step = p.since(m);
    const code j_back = p.bra();
    const code st_addr = p.address(16, 9, rz);
    const code st = p.st_global(16, 8, 4);
    m = p.here();
    p.iadd(6, 6, rz);
    p.isetp("LT", 6, rz);
    const code i_step = p.since(m);
    const code i_back = p.bra();
    const code done = p.exit();
    p.bra();
    const std::uint32_t tpb = std::min(n, block);
    const kernel_info info = app.kernel("_Z15compute_degreesPiS_ii", app.reserve_kernel_id(),
                                        dim3{tbc0, 1, 1}, dim3{tpb, 1, 1}, 0, p);
    app.write_kernel(info, [&](tb_trace& tb) {
      const std::uint32_t b = tb.index.x;
      std::uint32_t local = (n + tbc0 - 1) / tbc0;
      const std::uint32_t start = b * local;
      if (std::uint64_t(b + 1) * local > n) local = start < n ? n - start : 0;
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(p, tb.warps[w]);
        const warp_lanes lanes = lanes_of(info.block, w);
        e.run(head, lanes.live);
        std::uint32_t act = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((lanes.live >> l & 1u) && lanes.flat[l] < local) act |= 1u << l;
        e.run(exit_none, lanes.live & ~act);
        for (std::uint32_t i = 0; act != 0; i += tpb) {
          e.run(pt_init, act);
          for (std::uint32_t j = 0; j < d; ++j) {
            e.run(addr, act);
            e.mem_fn(ld, act, [&](unsigned l) {
              return mem.indr + 4 * ((std::uint64_t(start) + i + lanes.flat[l]) * d + j);
            });
            e.run(j_step, act);
            if (j + 1 < d) e.run(j_back, act);
          }
          e.run(st_addr, act);
          e.mem_fn(st, act,
                   [&](unsigned l) { return mem.degrees + 4ull * (start + i + lanes.flat[l]); });
          e.run(i_step, act);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((act >> l & 1u) && i + tpb + lanes.flat[l] < local) next |= 1u << l;
          e.run(i_back, next);
          e.run(done, act & ~next);
          act = next;
        }
      }
    });
  }

  program qp(app.opcodes(), 31);
  const qtc_device_code qc = qtc_device_program(qp);
  program tp(app.opcodes(), 31);
  const qtc_trim_code tc = qtc_trim_program(tp);

  // reduce_card_device<<<1, 1>>>
  program rp(app.opcodes(), 20);
  auto m = rp.here();
  rp.prologue();
  rp.mov(2);  // max_card = -1
  rp.mov(4);  // i = 0
  const code r_head = rp.since(m);
  const code r_addr = rp.address(6, 4, rz);
  const code r_ld = rp.ld_global(8, 6, 4);
  const code r_cmp = rp.isetp("GT", 8, 2);
  const code r_ld_idx = rp.ld_global(9, 6, 4);  // [R6 + 0x4]
  m = rp.here();
  rp.raw("SEL", {2}, {8, 2});
  rp.iadd(4, 4, rz);
  rp.isetp("LT", 4, rz);
  const code r_step = rp.since(m);
  const code r_back = rp.bra();
  const code r_addr0 = rp.mov(10);
  const code r_st0 = rp.st_global(10, 2, 4);
  const code r_st1 = rp.st_global(10, 9, 4);
  const code r_done = rp.exit();
  rp.bra();

  // update_clustered_pnts_mask<<<1, block>>>
  program up(app.opcodes(), 20);
  m = up.here();
  up.prologue();
  up.s2r(0, sreg::tid_x);
  up.mov(10);
  up.mov(12);
  up.raw("MOV", {2}, {0});
  up.isetp("GE", 2, rz);
  const code u_head = up.since(m);
  m = up.here();
  up.ptr_add(4, 10, 2);  // clustered_pnts_mask + i + tid
  up.ptr_add(6, 12, 2);  // Ai_mask + i + tid
  const code u_addr = up.since(m);
  const code u_ld_cl = up.ld_global(8, 4, 1);
  const code u_ld_ai = up.ld_global(9, 6, 1);
  const code u_or = up.raw(up.family() == isa_family::volta ? "LOP3.LUT" : "LOP.OR", {8}, {8, 9});
  const code u_st = up.st_global(4, 8, 1);
  m = up.here();
  up.iadd(2, 2, rz);
  up.isetp("LT", 2, rz);
  const code u_step = up.since(m);
  const code u_back = up.bra();
  const code u_bar = up.bar_sync();
  const code u_done = up.exit();
  up.bra();

  const std::uint32_t shmem = 8 * block;
  for (std::uint32_t iter = 0; max_clusters == 0 || iter < max_clusters; ++iter) {
    const std::uint32_t tbc = tb_count(s.point_count);
    std::vector<std::pair<std::int32_t, std::int32_t>> card;
    const kernel_info qi =
        app.kernel("_Z10QTC_devicePfPcS0_PiS1_S1_S_S1_iiifiiiib", app.reserve_kernel_id(),
                   dim3{tbc, 1, 1}, dim3{block, 1, 1}, shmem, qp);
    app.write_kernel(qi, [&](tb_trace& tb) {
      qtc_tb t(qp, tb, block);
      card.push_back(qtc_device_tb(t, qc, s, tb.index.x, tbc));
    });
    std::int32_t max_card = -1, winner = 0;
    for (const auto& [cn, idx] : card)
      if (cn > max_card) {
        max_card = cn;
        winner = idx;
      }
    if (tbc > 1) {
      const kernel_info ri = app.kernel("_Z18reduce_card_devicePii", app.reserve_kernel_id(),
                                        dim3{1, 1, 1}, dim3{1, 1, 1}, 0, rp);
      app.write_kernel(ri, [&](tb_trace& tb) {
        warp_emitter e(rp, tb.warps[0]);
        e.run(r_head, 1u);
        std::int32_t best = -1;
        for (std::uint32_t i = 0; i < tbc; ++i) {
          e.run(r_addr, 1u);
          e.mem_fn(r_ld, 1u, [&](unsigned) { return mem.cardnl + 8ull * i; });
          e.run(r_cmp, 1u);
          if (card[i].first > best) {
            best = card[i].first;
            e.mem_fn(r_ld_idx, 1u, [&](unsigned) { return mem.cardnl + 8ull * i + 4; });
          }
          e.run(r_step, 1u);
          if (i + 1 < tbc) e.run(r_back, 1u);
        }
        e.run(r_addr0, 1u);
        e.mem_fn(r_st0, 1u, [&](unsigned) { return mem.cardnl; });
        e.mem_fn(r_st1, 1u, [&](unsigned) { return mem.cardnl + 4; });
        e.run(r_done, 1u);
      });
    }
    std::vector<std::uint32_t> cluster;
    const kernel_info ti =
        app.kernel("_Z30trim_ungrouped_pnts_indr_arrayiPiPfS_PcS1_S_S_S0_S_iiifib",
                   app.reserve_kernel_id(), dim3{1, 1, 1}, dim3{block, 1, 1}, 12 * block + 8, tp);
    app.write_kernel(ti, [&](tb_trace& tb) {
      qtc_tb t(tp, tb, block);
      cluster = qtc_trim_tb(t, tc, s, std::uint32_t(winner));
    });
    if (cluster.size() != std::size_t(max_card))
      throw std::logic_error("qtc: the trimmed cluster differs from the winner's cardinality");
    const kernel_info ui =
        app.kernel("_Z26update_clustered_pnts_maskPcS_i", app.reserve_kernel_id(), dim3{1, 1, 1},
                   dim3{block, 1, 1}, 0, up);
    app.write_kernel(ui, [&](tb_trace& tb) {
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        warp_emitter e(up, tb.warps[w]);
        const warp_lanes lanes = lanes_of(ui.block, w);
        e.run(u_head, lanes.live);
        for (std::uint64_t i = 0;; i += block) {
          std::uint32_t act = 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((lanes.live >> l & 1u) && i + lanes.flat[l] < n) act |= 1u << l;
          if (act == 0) break;
          e.run(u_addr, act);
          e.mem_fn(u_ld_cl, act, [&](unsigned l) { return mem.clustered + i + lanes.flat[l]; });
          e.mem_fn(u_ld_ai, act, [&](unsigned l) { return mem.ai_mask + i + lanes.flat[l]; });
          e.run(u_or, act);
          e.mem_fn(u_st, act, [&](unsigned l) { return mem.clustered + i + lanes.flat[l]; });
          e.run(u_step, act);
          std::uint32_t next = 0;
          for (unsigned l = 0; l < 32; ++l)
            if ((act >> l & 1u) && i + block + lanes.flat[l] < n) next |= 1u << l;
          e.run(u_back, next);
        }
        e.run(u_bar, lanes.live);
        e.run(u_done, lanes.live);
      }
    });
    for (std::uint32_t p : cluster) s.clustered[p] = 1;
    s.point_count -= std::uint32_t(max_card);
    if (max_card <= 1 || s.point_count == 0) break;
  }
}

}  // namespace

kernel_generator qtc_generator() {
  return {"qtc",
          "SHOC QT clustering (full distance matrix): per iteration QTC_device (a TB per seed "
          "walks its neighbours' distances, shared-memory reduction), reduce, trim, update",
          {param_desc::integer("points", 256, 60, 4096,
                               "points (SHOC PointCount; size 1: 4096; at least 60)"),
           param_desc::real("threshold", 4.0, 0.0, 20.0,
                            "cluster diameter threshold (> 0; SHOC size 1: 1)"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the point set"),
           param_desc::integer("max_clusters", 2, 0, 1u << 20,
                               "host iterations (clusters found) at most; 0: until done"),
           param_desc::integer("max_tbs", 576, 1, 65535,
                               "TB cap (SM_COUNT x OVR_SBSCR_FACTOR = 24 x 24)"),
           param_desc::integer("block", 64, 32, 1024,
                               "threads per TB (THREADSPERBLOCK; a multiple of 32)")},
          generate_qtc};
}

}  // namespace gputlm::traces::generators
