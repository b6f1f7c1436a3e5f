// Rodinia kmeans (cuda/kmeans/kmeans_cuda.cu, kmeans_cuda_kernel.cu). allocateMemory copies
// the point-major features ([point][feature]) and runs invert_mapping once, one thread per
// point: `output[pid + npoints*i] = input[pid*nfeatures + i]` for every feature i (loads
// nfeatures words apart across the lanes, coalesced stores). Every k-means iteration
// (kmeansCuda) copies membership and the cluster centres, then runs kmeansPoint, one thread
// per point: for each cluster c and feature f it reads `features[f*npoints + pid]` (the
// feature-major array: coalesced) and `clusters[c*nfeatures + f]` (one address in every
// lane: a broadcast; Rodinia reads it from constant memory, here a global load), sums the
// squared differences, keeps the nearest centre (FSETP, FMNMX, SEL), and stores
// `membership[pid]`. kmeansPoint's grid is the square Rodinia makes of ceil(npoints / block)
// TBs (num_blocks_perdim^2, pid = (gridDim.x * blockIdx.y + blockIdx.x) * blockDim.x +
// threadIdx.x), invert_mapping's the same count in 1-D; threads past the points leave
// through `@P0 EXIT`. The per-TB reductions under BLOCK_DELTA_REDUCE / BLOCK_CENTER_REDUCE
// are off in Rodinia and not emitted.
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct kmeans_shape {
  std::uint64_t points, features, clusters;
  std::uint32_t block, per_dim;
};

// Each live lane's point id in TB `tb` (pid = tb x block + thread); the lanes whose point
// exists.
std::uint32_t points_of(const kmeans_shape& k, std::uint64_t tb, const warp_lanes& lanes,
                        std::array<std::uint64_t, 32>& pid) {
  std::uint32_t in_range = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(lanes.live >> l & 1u)) continue;
    pid[l] = tb * k.block + lanes.flat[l];
    if (pid[l] < k.points) in_range |= 1u << l;
  }
  return in_range;
}

void launch_invert_mapping(app_builder& app, const kmeans_shape& k, std::uint64_t in,
                           std::uint64_t out) {
  program p(app.opcodes(), 12);
  auto m = p.here();
  p.global_index_1d();   // R3 = point_id
  p.isetp("GE", 3, rz);  // point_id >= npoints
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code init = p.mov(4);  // i = 0
  m = p.here();
  p.imad(5, 3, rz, 4);  // point_id * nfeatures + i
  p.address(6, 5, rz);
  const code addr_in = p.since(m);
  const code ld = p.ld_global(8, 6, 4);
  m = p.here();
  p.imad(9, 4, rz, 3);  // point_id + npoints * i
  p.address(10, 9, rz);
  const code addr_out = p.since(m);
  const code st = p.st_global(10, 8, 4);
  m = p.here();
  p.iadd(4, 4, rz);
  p.isetp("LT", 4, rz);  // i < nfeatures
  const code step = p.since(m);
  const code back = p.bra();
  const code done = p.exit();
  p.bra();

  const std::uint32_t grid = k.per_dim * k.per_dim;
  const kernel_info info = app.kernel("_Z14invert_mappingPfS_ii", app.reserve_kernel_id(),
                                      dim3{grid, 1, 1}, dim3{k.block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> pid{};
      const std::uint32_t in_range = points_of(k, tb.index.x, lanes, pid);
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~in_range);
      e.run(init, in_range);
      for (std::uint64_t i = 0; i < k.features; ++i) {
        e.run(addr_in, in_range);
        e.mem_fn(ld, in_range, [&](unsigned l) { return in + 4 * (pid[l] * k.features + i); });
        e.run(addr_out, in_range);
        e.mem_fn(st, in_range, [&](unsigned l) { return out + 4 * (pid[l] + k.points * i); });
        e.run(step, in_range);
        e.run(back, i + 1 < k.features ? in_range : 0u);
      }
      e.run(done, in_range);
    }
  });
}

void launch_kmeans_point(app_builder& app, const kmeans_shape& k, std::uint64_t features,
                         std::uint64_t membership, std::uint64_t clusters) {
  program p(app.opcodes(), 20);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::ctaid_y);
  p.s2r(3, sreg::tid_x);
  p.imad(0, 2, rz, 0);   // block_id = gridDim.x * blockIdx.y + blockIdx.x
  p.imad(3, 0, rz, 3);   // point_id = block_id * blockDim.x + threadIdx.x
  p.isetp("GE", 3, rz);  // point_id >= npoints
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.mov(4);  // min_dist = FLT_MAX
  p.mov(5);  // index = -1
  p.mov(6);  // i = 0
  p.mov(7);  // cluster_base_index = 0
  const code init = p.since(m);
  m = p.here();
  p.mov(8);  // ans = 0
  p.mov(9);  // j = 0
  const code cluster_head = p.since(m);
  m = p.here();
  p.imad(10, 9, rz, 3);  // addr = point_id + j * npoints
  p.address(12, 10, rz);
  p.iadd(11, 7, 9);  // cluster_base_index + j
  p.address(14, 11, rz);
  const code addrs = p.since(m);
  const code ld_feature = p.ld_global(16, 12, 4);
  const code ld_cluster = p.ld_global(17, 14, 4);
  m = p.here();
  p.fadd(16, 16, 17);    // diff
  p.ffma(8, 16, 16, 8);  // ans += diff * diff
  p.iadd(9, 9, rz);      // ++j
  p.isetp("LT", 9, rz);  // j < nfeatures
  const code feature_step = p.since(m);
  const code feature_back = p.bra();
  m = p.here();
  p.raw("FSETP.GT.AND", {}, {4, 8});  // dist < min_dist
  p.raw("FMNMX", {4}, {4, 8});        // min_dist = dist
  p.raw("SEL", {5}, {6, 5});          // index = i
  p.iadd(7, 7, rz);                   // cluster_base_index += nfeatures
  p.iadd(6, 6, rz);                   // ++i
  p.isetp("LT", 6, rz);               // i < nclusters
  const code cluster_step = p.since(m);
  const code cluster_back = p.bra();
  const code addr_out = p.address(18, 3, rz);
  const code st = p.st_global(18, 5, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel("_Z11kmeansPointPfiiiPiS_S_S0_", app.reserve_kernel_id(),
                                      dim3{k.per_dim, k.per_dim, 1}, dim3{k.block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> pid{};
      const std::uint32_t in_range = points_of(k, tb.linear_id, lanes, pid);
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~in_range);
      e.run(init, in_range);
      for (std::uint64_t c = 0; c < k.clusters; ++c) {
        e.run(cluster_head, in_range);
        for (std::uint64_t f = 0; f < k.features; ++f) {
          e.run(addrs, in_range);
          e.mem_fn(ld_feature, in_range,
                   [&](unsigned l) { return features + 4 * (f * k.points + pid[l]); });
          e.mem_fn(ld_cluster, in_range,
                   [&](unsigned) { return clusters + 4 * (c * k.features + f); });
          e.run(feature_step, in_range);
          e.run(feature_back, f + 1 < k.features ? in_range : 0u);
        }
        e.run(cluster_step, in_range);
        e.run(cluster_back, c + 1 < k.clusters ? in_range : 0u);
      }
      e.run(addr_out, in_range);
      e.mem_fn(st, in_range, [&](unsigned l) { return membership + 4 * pid[l]; });
      e.run(done, in_range);
    }
  });
}

void generate_kmeans(const param_set& ps, app_builder& app) {
  kmeans_shape k{ps.u64("points"), ps.u64("features"), ps.u64("clusters"), ps.u32("block"), 0};
  if (k.clusters > k.points) param_set::fail("clusters", "must not exceed points");
  const std::uint32_t iterations = ps.u32("iterations");
  const std::uint64_t blocks = (k.points + k.block - 1) / k.block;
  while (std::uint64_t(k.per_dim) * k.per_dim < blocks) ++k.per_dim;

  // allocateMemory: feature_flipped_d (copied), feature_d, invert_mapping, membership_d,
  // clusters_d; kmeansCuda copies membership and clusters before every kmeansPoint.
  const std::uint64_t flipped = app.input(4 * k.points * k.features);
  const std::uint64_t features = app.output(4 * k.points * k.features);
  launch_invert_mapping(app, k, flipped, features);
  const std::uint64_t membership = app.output(4 * k.points);
  const std::uint64_t clusters = app.output(4 * k.clusters * k.features);
  for (std::uint32_t it = 0; it < iterations; ++it) {
    app.memcpy_h2d(membership, 4 * k.points);
    app.memcpy_h2d(clusters, 4 * k.clusters * k.features);
    launch_kmeans_point(app, k, features, membership, clusters);
  }
}
}  // namespace

kernel_generator kmeans_generator() {
  return {
      "kmeans",
      "Rodinia kmeans: invert_mapping, then kmeansPoint per iteration (thread per point, "
      "feature-major loads, broadcast centre loads)",
      {param_desc::integer("points", 16384, 1, 1ull << 24, "number of points (npoints)"),
       param_desc::integer("features", 34, 1, 1024, "features per point (nfeatures)"),
       param_desc::integer("clusters", 5, 1, 1024, "number of cluster centres (nclusters)"),
       param_desc::integer("iterations", 1, 1, 500, "k-means iterations (kmeansPoint launches)"),
       param_desc::integer("block", 256, 32, 1024, "threads per TB (THREADS_PER_DIM^2)")},
      generate_kmeans};
}

}  // namespace gputlm::traces::generators
