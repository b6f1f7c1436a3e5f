// The μC-States workload QTC (Kayiran et al., PACT'16, Table 1): SHOC's quality-threshold
// clustering with the full distance matrix. The point set is rebuilt here from SHOC's
// generate_synthetic_data (libdata.cpp) on the documented rng, the clusters by a plain QT
// clustering on the CPU with the host loop and the per-TB seed walk of QTC.cu and
// kernels_common.h (seed i = b, b + tbc, ...; a seed whose degree is at most the TB's best
// cardinality is skipped; the first best wins), and every address from the kernels' own
// indexing and the documented allocation order, not from the generator's code.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <set>
#include <vector>

#include "gen_test_util.h"
#include "traces/generators/input_gen.h"

namespace gputlm::traces::generators::test::uc_graph_apps_test {
namespace {

template <class F>
access lanes_where(std::uint32_t live, F&& addr_of) {
  access a;
  for (unsigned l = 0; l < 32; ++l)
    if (live >> l & 1u) {
      const auto [in, addr] = addr_of(l);
      if (!in) continue;
      a.mask |= 1u << l;
      a.addr.emplace_back(l, addr);
    }
  return a;
}

// The instructions of `w` starting with `prefix` whose first address lies in [lo, hi).
std::vector<access> accesses(const app_trace& app, const warp_trace& w, const std::string& prefix,
                             std::uint64_t lo, std::uint64_t hi) {
  std::vector<access> r;
  for (const warp_instruction* in : find(app, w, prefix)) {
    const lanes a = lane_addresses(w, *in);
    if (a.empty() || a[0].second < lo || a[0].second >= hi) continue;
    r.push_back({in->active_mask, a});
  }
  return r;
}

// ---- SHOC's input: generate_synthetic_data (libdata.cpp) ----

struct points {
  std::uint32_t n = 0, d = 0;
  float threshold = 0;
  std::vector<float> x, y;
  std::vector<std::vector<std::uint32_t>> nbr;  // increasing ids

  // The full matrix entry: (float)sqrt((double)dist_sq) when dist_sq < threshold^2.
  float work(std::uint32_t i, std::uint32_t j) const {
    if (i == j) return FLT_MAX;
    const float ax = x[i] - x[j], ay = y[i] - y[j];
    const float sx = ax * ax, sy = ay * ay;
    const float sq = sx + sy;
    return sq < threshold * threshold ? float(std::sqrt(double(sq))) : FLT_MAX;
  }
};

points shoc_points(std::uint32_t n, float threshold, std::uint64_t seed) {
  points p;
  p.n = n;
  p.threshold = threshold;
  p.x.assign(n, 0);
  p.y.assign(n, 0);
  rng r(seed);  // frand() = (float)uniform(); random() % m = below(m)
  std::uint32_t count = 0;
  while (count < n) {
    const float cntr_x = float(double(float(r.uniform())) * 20.0);
    const float cntr_y = float(double(float(r.uniform())) * 20.0);
    const float big_r = float(r.uniform()) * 20.0f / 2;
    std::uint32_t group_cnt = std::uint32_t(r.below(n / 30));
    if (group_cnt > n - count) group_cnt = n - count;
    while (group_cnt > 0) {
      const float sign = float(r.uniform()) < 0.5f ? -1.0f : 1.0f;
      const float rr = float(r.uniform()) * big_r;
      const float dx = float((2.0 * double(float(r.uniform())) - 1.0) * double(rr));
      const float dy = std::sqrt(rr * rr - dx * dx) * sign;
      const float x = cntr_x + dx;
      if (x < 0 || x > 20.0f) continue;
      const float y = cntr_y + dy;
      if (y < 0 || y > 20.0f) continue;
      p.x[count] = x;
      p.y[count] = y;
      ++count;
      --group_cnt;
    }
  }
  p.nbr.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = 0; j < n; ++j)
      if (p.work(i, j) != FLT_MAX) p.nbr[i].push_back(j);
    p.d = std::max<std::uint32_t>(p.d, std::uint32_t(p.nbr[i].size()));
  }
  return p;
}

// ---- the QT clustering the host loop runs ----

// The candidate cluster of `seed` in growth order: repeatedly the seed's neighbour, not yet
// in it nor clustered, whose largest distance to the members is least (the smaller id on a
// tie), while that distance is within the threshold and the cluster is smaller than
// point_count.
std::vector<std::uint32_t> qt_cluster(const points& p, std::uint32_t seed,
                                      const std::vector<bool>& clustered,
                                      std::uint32_t point_count) {
  std::vector<std::uint32_t> c{seed};
  std::set<std::uint32_t> in{seed};
  while (c.size() < point_count) {
    float best = FLT_MAX;
    std::int64_t pick = -1;
    for (std::uint32_t q : p.nbr[seed]) {
      if (in.count(q) || clustered[q]) continue;
      float diam = 0;
      for (std::uint32_t m : c) diam = std::max(diam, p.work(q, m));
      if (diam < best) {  // neighbours in increasing id: the first is the smaller id
        best = diam;
        pick = q;
      }
    }
    if (pick < 0 || best > p.threshold) break;
    c.push_back(std::uint32_t(pick));
    in.insert(std::uint32_t(pick));
  }
  return c;
}

struct tb_walk {
  std::vector<std::uint32_t> indices, seeds;         // i, ungrpd[i] of every seed looked at
  std::vector<std::vector<std::uint32_t>> clusters;  // of the seeds not skipped
  std::vector<std::uint32_t> processed;              // those seeds
  std::int32_t max_card = -1;
};

struct iteration {
  std::uint32_t point_count = 0, tbc = 0;
  std::vector<std::uint32_t> ungrpd;
  std::vector<bool> clustered;
  std::vector<tb_walk> tbs;
  std::vector<std::uint32_t> winner;  // the winner's cluster
};

std::vector<iteration> qt_reference(const points& p, std::uint32_t max_tbs) {
  std::vector<iteration> its;
  std::vector<std::uint32_t> ungrpd(p.n);
  for (std::uint32_t i = 0; i < p.n; ++i) ungrpd[i] = i;
  std::vector<bool> clustered(p.n, false);
  std::uint32_t pc = p.n;
  for (;;) {
    iteration it;
    it.point_count = pc;
    it.tbc = pc >= max_tbs ? max_tbs : pc;  // calculate_participants
    it.ungrpd = ungrpd;
    it.clustered = clustered;
    std::int32_t best = -1;
    for (std::uint32_t b = 0; b < it.tbc; ++b) {
      tb_walk t;
      for (std::uint32_t i = b; i < pc; i += it.tbc) {
        const std::uint32_t seed = ungrpd[i];
        t.indices.push_back(i);
        t.seeds.push_back(seed);
        if (std::int32_t(p.nbr[seed].size()) <= t.max_card) continue;
        std::vector<std::uint32_t> c = qt_cluster(p, seed, clustered, pc);
        t.processed.push_back(seed);
        if (std::int32_t(c.size()) > t.max_card) t.max_card = std::int32_t(c.size());
        if (std::int32_t(c.size()) > best) {
          best = std::int32_t(c.size());
          it.winner = c;
        }
        t.clusters.push_back(std::move(c));
      }
      it.tbs.push_back(std::move(t));
    }
    // reduce_card_device keeps the first TB with the largest cardinality; within a TB the
    // first seed: the same as the first strict maximum in TB order above.
    for (std::uint32_t q : it.winner) clustered[q] = true;
    std::vector<std::uint32_t> next;
    for (std::uint32_t i = 0; i < pc; ++i)
      if (!clustered[ungrpd[i]]) next.push_back(ungrpd[i]);
    std::copy(next.begin(), next.end(), ungrpd.begin());
    pc -= std::uint32_t(it.winner.size());
    const bool more = it.winner.size() > 1 && pc > 0;
    its.push_back(std::move(it));
    if (!more) break;
  }
  return its;
}

// ---- the device memory of QTC.cu: cudaMalloc order ----

struct qtc_layout {
  std::uint64_t work, indr, degrees, ungrpd, ai, dc, clustered, cardnl, result;
};

qtc_layout layout(const points& p, std::uint32_t tbc0) {
  qtc_layout m{};
  std::uint64_t a = heap;
  auto take = [&](std::uint64_t bytes) {
    const std::uint64_t r = a;
    a += align256(bytes);
    return r;
  };
  const std::uint64_t n = p.n, d = p.d;
  m.work = take(4 * n * n);
  m.indr = take(4 * n * d);
  m.degrees = take(4 * n);
  m.ungrpd = take(4 * n);
  m.ai = take(tbc0 * n);
  m.dc = take(4 * tbc0 * d);
  m.clustered = take(n);
  m.cardnl = take(8 * tbc0);
  m.result = take(4 * n);
  return m;
}

struct qtc_case {
  std::uint32_t points, block, max_tbs;
  float threshold;
  std::uint64_t seed;
  std::vector<std::string> params() const {
    return {"points=" + std::to_string(points),   "block=" + std::to_string(block),
            "max_tbs=" + std::to_string(max_tbs), "threshold=" + std::to_string(threshold),
            "seed=" + std::to_string(seed),       "max_clusters=0"};
  }
};

std::uint32_t live_of(std::uint32_t block, std::uint32_t w) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (32 * w + l < block) m |= 1u << l;
  return m;
}

// Every kernel of the run against the reference.
void expect_qtc_matches_shoc(const qtc_case& c) {
  const points p = shoc_points(c.points, c.threshold, c.seed);
  EXPECT_LT(p.d, 12u * c.block) << "the test expects every neighbour in the 12 prefetched slots";
  const std::vector<iteration> its = qt_reference(p, c.max_tbs);
  const std::uint32_t tbc0 = its[0].tbc, n = p.n, d = p.d, t = c.block;
  const qtc_layout m = layout(p, tbc0);
  const app_trace app = generate_in_memory("qtc", c.params());

  // Copies: the distance matrix, the indirection matrix, the ungrouped-points array.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> copies;
  for (const command& cmd : app.commands)
    if (cmd.what == command::kind::memcpy_h2d) copies.emplace_back(cmd.addr, cmd.bytes);
  EXPECT_EQ(copies, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{
                        {m.work, 4ull * n * n}, {m.indr, 4ull * n * d}, {m.ungrpd, 4ull * n}}));

  // Kernel sequence: compute_degrees, then per iteration QTC_device, reduce_card_device (more
  // than one TB), trim_ungrouped_pnts_indr_array, update_clustered_pnts_mask.
  std::vector<std::string> want_names{"_Z15compute_degreesPiS_ii"};
  for (const iteration& it : its) {
    want_names.push_back("_Z10QTC_devicePfPcS0_PiS1_S1_S_S1_iiifiiiib");
    if (it.tbc > 1) want_names.push_back("_Z18reduce_card_devicePii");
    want_names.push_back("_Z30trim_ungrouped_pnts_indr_arrayiPiPfS_PcS1_S_S_S0_S_iiifib");
    want_names.push_back("_Z26update_clustered_pnts_maskPcS_i");
  }
  std::vector<std::string> names;
  for (const kernel_trace& k : app.kernels) names.push_back(k.info.name);
  EXPECT_EQ(names, want_names);
  if (names != want_names) return;

  // compute_degrees<<<tbc0, min(N, 64)>>>: TB b owns points b*L .. (L = ceil(N / tbc0)),
  // thread t walks row start + t: indr_mtrx[(start + t) * D + j], j < D; stores degrees.
  {
    const kernel_trace& k = app.kernels[0];
    const std::uint32_t tpb = std::min(n, t);
    EXPECT_EQ(k.info.grid, (dim3{tbc0, 1, 1}));
    EXPECT_EQ(k.info.block, (dim3{tpb, 1, 1}));
    const std::uint32_t per = (n + tbc0 - 1) / tbc0;
    for (const tb_trace& tb : k.tbs) {
      const std::uint32_t b = tb.index.x, start = b * per;
      const std::uint32_t local = std::min(per, start < n ? n - start : 0);
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        std::vector<access> ld, st;
        for (std::uint32_t i = 0; i < local; i += tpb) {
          for (std::uint32_t j = 0; j < d; ++j)
            ld.push_back(lanes_where(live_of(tpb, w), [&](unsigned l) {
              const std::uint64_t q = i + 32 * w + l;
              return std::pair{q < local, m.indr + 4 * ((start + q) * d + j)};
            }));
          st.push_back(lanes_where(live_of(tpb, w), [&](unsigned l) {
            const std::uint64_t q = i + 32 * w + l;
            return std::pair{q < local, m.degrees + 4 * (start + q)};
          }));
        }
        ld.erase(std::remove_if(ld.begin(), ld.end(), [](const access& a) { return a.mask == 0; }),
                 ld.end());
        st.erase(std::remove_if(st.begin(), st.end(), [](const access& a) { return a.mask == 0; }),
                 st.end());
        EXPECT_EQ(accesses(app, tb.warps[w], "LDG", 0, ~0ull), ld) << "compute_degrees TB " << b;
        EXPECT_EQ(accesses(app, tb.warps[w], "STG", 0, ~0ull), st) << "compute_degrees TB " << b;
      }
    }
  }

  std::size_t kx = 1, work_loads = 0, skipped_members = 0;
  for (std::size_t iter = 0; iter < its.size(); ++iter) {
    const iteration& it = its[iter];
    const std::string where_it = "iteration " + std::to_string(iter);
    const std::uint32_t pc = it.point_count;
    // ---- QTC_device ----
    const kernel_trace& q = app.kernels[kx++];
    EXPECT_EQ(q.info.grid, (dim3{it.tbc, 1, 1})) << where_it;
    EXPECT_EQ(q.info.block, (dim3{t, 1, 1})) << where_it;
    EXPECT_EQ(q.info.shmem, 8 * t) << where_it;
    EXPECT_EQ(q.tbs.size(), it.tbc);
    for (const tb_trace& tb : q.tbs) {
      const std::uint32_t b = tb.index.x;
      const tb_walk& tw = it.tbs.at(b);
      const std::uint64_t ai = m.ai + std::uint64_t(b) * n;
      const std::string where = where_it + " TB " + std::to_string(b);
      std::uint32_t bars = 0;
      for (const auto& cl : tw.clusters) {
        const std::uint32_t steps = std::uint32_t(cl.size()) - 1 + (cl.size() < pc ? 1 : 0);
        bars += 2 + 3 * steps + 1;
      }
      for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
        const warp_trace& wt = tb.warps[w];
        const std::uint32_t live = live_of(t, w);
        auto broadcast = [&](std::uint64_t a) {
          return lanes_where(live, [&](unsigned) { return std::pair{true, a}; });
        };
        // seed_index = ungrpd_pnts_indr[i], degree = degrees[seed_index], every thread.
        std::vector<access> un, dg;
        for (std::size_t s = 0; s < tw.seeds.size(); ++s) {
          un.push_back(broadcast(m.ungrpd + 4ull * tw.indices[s]));
          dg.push_back(broadcast(m.degrees + 4ull * tw.seeds[s]));
        }
        EXPECT_EQ(accesses(app, wt, "LDG.E.SYS", m.ungrpd, m.ungrpd + 4ull * n), un) << where;
        EXPECT_EQ(accesses(app, wt, "LDG.E.SYS", m.degrees, m.degrees + 4ull * n), dg) << where;
        // Prefetch: cand_k = indr_mtrx[seed * D + k * block + tid] while below degree.
        // Per step (latest = cluster[s]), per slot: LDG.U8 Ai_mask[cand] by the live
        // candidates, LDG.U8 clustered_pnts_mask[cand] by those not in the cluster, LDG
        // work[cand * N0 + latest] by those not clustered either.
        std::vector<access> pf, ai_ld, cl_ld, work_ld;
        for (std::size_t s = 0; s < tw.processed.size(); ++s) {
          const std::uint32_t seed = tw.processed[s];
          const auto& nb = p.nbr[seed];
          const std::vector<std::uint32_t>& cl = tw.clusters[s];
          for (std::uint32_t k = 0; k < 12; ++k) {
            access a = lanes_where(live, [&](unsigned l) {
              const std::uint64_t pos = std::uint64_t(k) * t + 32 * w + l;
              return std::pair{pos < nb.size(), m.indr + 4 * (std::uint64_t(seed) * d + pos)};
            });
            if (a.mask) pf.push_back(a);
          }
          const std::uint32_t steps = std::uint32_t(cl.size()) - 1 + (cl.size() < pc ? 1 : 0);
          for (std::uint32_t st = 0; st < steps; ++st) {
            const std::set<std::uint32_t> before(cl.begin(), cl.begin() + st);
            const std::set<std::uint32_t> now(cl.begin(), cl.begin() + st + 1);
            for (std::uint32_t k = 0; k < 12; ++k) {
              auto cand = [&](unsigned l, std::uint64_t& pos) {
                pos = std::uint64_t(k) * t + 32 * w + l;
                return pos < nb.size() ? std::int64_t(nb[pos]) : -1;
              };
              auto alive = [&](std::int64_t q) {
                return q >= 0 && (st == 0 || (!before.count(std::uint32_t(q)) &&
                                              !it.clustered[std::uint32_t(q)]));
              };
              std::uint64_t pos;
              access a = lanes_where(live, [&](unsigned l) {
                const std::int64_t q = cand(l, pos);
                return std::pair{alive(q), ai + std::uint64_t(q)};
              });
              access b2 = lanes_where(live, [&](unsigned l) {
                const std::int64_t q = cand(l, pos);
                return std::pair{alive(q) && !now.count(std::uint32_t(q)),
                                 m.clustered + std::uint64_t(q)};
              });
              access c3 = lanes_where(live, [&](unsigned l) {
                const std::int64_t q = cand(l, pos);
                return std::pair{
                    alive(q) && !now.count(std::uint32_t(q)) && !it.clustered[std::uint32_t(q)],
                    m.work + 4 * (std::uint64_t(q) * n + cl[st])};
              });
              if (a.mask) ai_ld.push_back(a);
              if (b2.mask) cl_ld.push_back(b2);
              if (c3.mask) work_ld.push_back(c3);
            }
          }
        }
        EXPECT_EQ(accesses(app, wt, "LDG.E.SYS", m.indr, m.indr + 4ull * n * d), pf) << where;
        EXPECT_EQ(accesses(app, wt, "LDG.E.U8", ai, ai + n), ai_ld) << where << " warp " << w;
        EXPECT_EQ(accesses(app, wt, "LDG.E.U8", m.clustered, m.clustered + n), cl_ld) << where;
        EXPECT_EQ(accesses(app, wt, "LDG.E.SYS", m.work, m.work + 4ull * n * n), work_ld)
            << where << " warp " << w;
        work_loads += work_ld.size();
        skipped_members += ai_ld.size() - cl_ld.size();
        // BAR.SYNC: after the clearing, after the prefetch, three per step, one at the end.
        const auto b = find(app, wt, "BAR.SYNC");
        EXPECT_EQ(b.size(), bars) << where << " warp " << w;
        for (const warp_instruction* in : b) EXPECT_EQ(in->active_mask, live) << where;
        // closest_point_reduction: STS dist_array[tid] (4 tid), point_index_array[tid]
        // (4 block + 4 tid) by every thread.
        const auto sts = find(app, wt, "STS");
        if (w != 0) {
          ASSERT_EQ(sts.size() % 2, 0u);
          for (std::size_t i = 0; i < sts.size(); ++i) {
            const lanes a = lane_addresses(wt, *sts[i]);
            ASSERT_EQ(a.size(), popcount(live));
            for (auto [l, x] : a) EXPECT_EQ(x, 4ull * (32 * w + l) + (i % 2 ? 4ull * t : 0));
          }
        }
      }
      // Thread 0: Ai_mask[seed] = 1 per processed seed and Ai_mask[min_G_index] = 1 per
      // member, i.e. the clusters in growth order; then cardnl[2b], cardnl[2b + 1].
      const warp_trace& w0 = tb.warps[0];
      std::vector<access> marks;
      for (const auto& cl : tw.clusters)
        for (std::uint32_t q : cl) marks.push_back({1u, {{0, ai + q}}});
      std::vector<access> got_marks;
      for (const access& a : accesses(app, w0, "STG.E.U8", ai, ai + n))
        if (a.mask == 1u) got_marks.push_back(a);
      EXPECT_EQ(got_marks, marks) << where;
      EXPECT_EQ(accesses(app, w0, "STG.E.SYS", m.cardnl, m.cardnl + 8ull * tbc0),
                (std::vector<access>{{1u, {{0, m.cardnl + 8ull * b}}},
                                     {1u, {{0, m.cardnl + 8ull * b + 4}}}}))
          << where;
      // Thread 0's walk over the other threads: LDS dist_array[j], j = 1 .. block - 1, per step.
      std::uint32_t steps = 0;
      for (const auto& cl : tw.clusters)
        steps += std::uint32_t(cl.size()) - 1 + (cl.size() < pc ? 1 : 0);
      std::uint32_t walk = 0;
      for (const warp_instruction* in : find(app, w0, "LDS"))
        if (in->active_mask == 1u) {
          const std::uint64_t a = lane_addresses(w0, *in).at(0).second;
          if (a > 0 && a < 4ull * t) ++walk;
        }
      EXPECT_EQ(walk, steps * (t - 1)) << where;
    }
    // ---- reduce_card_device<<<1, 1>>>: cardinalities[i] for every TB, [i + 1] on a new max ----
    if (it.tbc > 1) {
      const kernel_trace& r = app.kernels[kx++];
      EXPECT_EQ(r.info.grid, (dim3{1, 1, 1}));
      EXPECT_EQ(r.info.block, (dim3{1, 1, 1}));
      std::vector<access> ld;
      std::int32_t best = -1;
      for (std::uint32_t i = 0; i < it.tbc; ++i) {
        ld.push_back({1u, {{0, m.cardnl + 8ull * i}}});
        if (it.tbs[i].max_card > best) {
          best = it.tbs[i].max_card;
          ld.push_back({1u, {{0, m.cardnl + 8ull * i + 4}}});
        }
      }
      EXPECT_EQ(accesses(app, r.tbs.at(0).warps.at(0), "LDG", 0, ~0ull), ld) << where_it;
      EXPECT_EQ(best, std::int32_t(it.winner.size()));
    }
    // ---- trim_ungrouped_pnts_indr_array<<<1, block>>> on TB 0's Ai_mask ----
    const kernel_trace& tr = app.kernels[kx++];
    EXPECT_EQ(tr.info.grid, (dim3{1, 1, 1}));
    EXPECT_EQ(tr.info.block, (dim3{t, 1, 1}));
    {
      const warp_trace& w0 = tr.tbs.at(0).warps.at(0);
      std::vector<access> res, marks;
      for (std::size_t k2 = 0; k2 < it.winner.size(); ++k2) {
        res.push_back({1u, {{0, m.result + 4 * k2}}});
        marks.push_back({1u, {{0, m.ai + it.winner[k2]}}});
      }
      EXPECT_EQ(accesses(app, w0, "STG.E.SYS", m.result, m.result + 4ull * n), res) << where_it;
      std::vector<access> got_marks;
      for (const access& a : accesses(app, w0, "STG.E.U8", m.ai, m.ai + n))
        if (a.mask == 1u) got_marks.push_back(a);
      EXPECT_EQ(got_marks, marks) << where_it;
      // The compaction reads ungrpd_pnts_indr[i + tid] chunk by chunk, then checks
      // Ai_mask[pnt].
      for (std::uint32_t w = 0; w < tr.tbs[0].warps.size(); ++w) {
        const warp_trace& wt = tr.tbs[0].warps[w];
        std::vector<access> chunks, masks;
        for (std::uint32_t i = 0; i < pc; i += t) {
          access a = lanes_where(live_of(t, w), [&](unsigned l) {
            const std::uint64_t j = i + 32 * w + l;
            return std::pair{j < pc, m.ungrpd + 4 * j};
          });
          access b2 = lanes_where(live_of(t, w), [&](unsigned l) {
            const std::uint64_t j = i + 32 * w + l;
            return std::pair{j < pc, m.ai + (j < pc ? it.ungrpd[j] : 0)};
          });
          if (a.mask) chunks.push_back(a);
          if (b2.mask) masks.push_back(b2);
        }
        std::vector<access> reads;
        for (const access& a : accesses(app, wt, "LDG.E.SYS", m.ungrpd, m.ungrpd + 4ull * n))
          reads.push_back(a);
        EXPECT_EQ(reads, chunks) << where_it << " warp " << w;
        const std::vector<access> u8 = accesses(app, wt, "LDG.E.U8", m.ai, m.ai + n);
        ASSERT_GE(u8.size(), masks.size());
        EXPECT_EQ(std::vector<access>(u8.end() - std::ptrdiff_t(masks.size()), u8.end()), masks)
            << where_it;
      }
    }
    // ---- update_clustered_pnts_mask<<<1, block>>>: clustered[i + tid] |= Ai_mask[i + tid] ----
    const kernel_trace& up = app.kernels[kx++];
    for (std::uint32_t w = 0; w < up.tbs.at(0).warps.size(); ++w) {
      const warp_trace& wt = up.tbs[0].warps[w];
      std::vector<access> ld, st;
      for (std::uint32_t i = 0; i < n; i += t) {
        access c1 = lanes_where(live_of(t, w), [&](unsigned l) {
          return std::pair{i + 32 * w + l < n, m.clustered + i + 32 * w + l};
        });
        access a1 = lanes_where(live_of(t, w), [&](unsigned l) {
          return std::pair{i + 32 * w + l < n, m.ai + i + 32 * w + l};
        });
        if (!c1.mask) continue;
        ld.push_back(c1);
        ld.push_back(a1);
        st.push_back(c1);
      }
      EXPECT_EQ(accesses(app, wt, "LDG", 0, ~0ull), ld) << where_it;
      EXPECT_EQ(accesses(app, wt, "STG", 0, ~0ull), st) << where_it;
    }
  }
  // Not vacuous: distances were read, and candidates met members of their own cluster.
  EXPECT_GT(work_loads, 0u);
  EXPECT_GT(skipped_members, 0u);
  EXPECT_GT(its.at(0).winner.size(), 2u);
}

TEST(GenQtc, SixtyPointsOneSeedPerTb) {
  // 60 points: 60 TBs of 64 threads in the first iteration (point_count < 576), one seed each.
  const qtc_case c{60, 64, 576, 3.0f, 1};
  expect_qtc_matches_shoc(c);
  EXPECT_GT(qt_reference(shoc_points(c.points, c.threshold, c.seed), c.max_tbs).size(), 2u);
}

TEST(GenQtc, FewTbsWalkSeveralSeedsAndSkipLowDegrees) {
  // 4 TBs of one warp: each walks every 4th ungrouped point, skipping a seed whose degree is
  // at most its best cardinality so far; reduce_card_device picks among the 4.
  const qtc_case c{96, 32, 4, 2.5f, 7};
  expect_qtc_matches_shoc(c);
  // Some seed is skipped somewhere (the check above would then see fewer clusters per TB).
  const points p = shoc_points(c.points, c.threshold, c.seed);
  std::size_t looked = 0, processed = 0;
  for (const iteration& it : qt_reference(p, c.max_tbs))
    for (const tb_walk& tw : it.tbs) {
      looked += tw.seeds.size();
      processed += tw.processed.size();
    }
  EXPECT_LT(processed, looked);
}

TEST(GenQtc, TwoWarpsPartlyFilledByNeighbours) {
  // A dense set: degrees above 32, so both warps of a 64-thread TB prefetch candidates.
  const qtc_case c{90, 64, 8, 8.0f, 3};
  const points p = shoc_points(c.points, c.threshold, c.seed);
  ASSERT_GT(p.d, 32u);
  expect_qtc_matches_shoc(c);
}

TEST(GenQtc, MaxClustersCapsTheHostLoop) {
  const points p = shoc_points(60, 3.0f, 1);
  const std::size_t all = qt_reference(p, 576).size();
  ASSERT_GT(all, 2u);
  const app_trace app = generate_in_memory("qtc", {"points=60", "threshold=3", "max_clusters=2"});
  std::size_t launches = 0;
  for (const kernel_trace& k : app.kernels)
    if (k.info.name == "_Z10QTC_devicePfPcS0_PiS1_S1_S_S1_iiifiiiib") ++launches;
  EXPECT_EQ(launches, 2u);
}

TEST(GenQtc, DefaultsAreTwoIterationsOnAQuarterOfSizeOne) {
  // points=256 threshold=4 (SHOC size 1: 4096 points, threshold 1; a 16th of the points at
  // 4x the threshold keeps the points per threshold disc), max_clusters=2: compute_degrees,
  // then two iterations of 256 and 256 - |first cluster| TBs, each with reduce_card_device.
  const app_trace app = generate_in_memory("qtc", {});
  ASSERT_EQ(app.kernels.size(), 9u);
  const points p = shoc_points(256, 4.0f, 1);
  const std::vector<iteration> its = qt_reference(p, 576);
  ASSERT_GE(its.size(), 2u);
  EXPECT_EQ(app.kernels[0].info.grid, (dim3{256, 1, 1}));
  EXPECT_EQ(app.kernels[1].info.grid, (dim3{256, 1, 1}));
  EXPECT_EQ(app.kernels[5].info.grid, (dim3{its[1].tbc, 1, 1}));
  EXPECT_EQ(its[1].tbc, 256 - its[0].winner.size());
  // The first winner's members, in growth order, from the trim kernel's result stores.
  const warp_trace& w0 = app.kernels[3].tbs.at(0).warps.at(0);
  const qtc_layout m = layout(p, 256);
  std::vector<std::uint64_t> got;
  for (const access& a : accesses(app, w0, "STG.E.U8", m.ai, m.ai + 256))
    if (a.mask == 1u) got.push_back(a.addr[0].second - m.ai);
  EXPECT_EQ(got, std::vector<std::uint64_t>(its[0].winner.begin(), its[0].winner.end()));
}

TEST(GenQtc, BadParametersAreRefused) {
  auto refused = [](const std::vector<std::string>& ps) {
    EXPECT_THROW(generate_in_memory("qtc", ps), std::exception);
  };
  refused({"points=59"});    // random() % (N / 30) is always 0 below 60: no group ever
  refused({"points=4097"});  // above SHOC's size 1
  refused({"threshold=0"});  // no cluster diameter
  refused({"threshold=-1"});
  refused({"threshold=0.0001", "points=60"});  // no neighbours: max_degree 0
  refused({"block=48"});                       // not a multiple of 32
  refused({"block=2048"});
  refused({"max_tbs=0"});
  refused({"seed=-1"});
}

}  // namespace
}  // namespace gputlm::traces::generators::test::uc_graph_apps_test
