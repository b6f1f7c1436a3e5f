// A RAY-like ray tracer's traversal (LATOA's RAY; the GPGPU-Sim ISPASS'09 suite's ray
// tracer): one thread per pixel casts a primary ray from a pinhole camera into a scene of
// random spheres held in a bounding-volume hierarchy, walks the tree depth first with a
// short stack in registers and keeps the nearest hit, then stores the hit sphere (4 bytes).
// Each step pops a node and reads its box (two `LDG.128`: min and first child or
// primitive, max and primitive count; 32-byte nodes), tests the ray against it (the slab
// test's FFMA / FMNMX chain), and then either reads and intersects the leaf's spheres
// (`LDG.128` centre and radius each) or pushes the two children (allocated side by side).
// It is a model of the walk, not the suite's code: rays of neighbouring pixels share the
// top of the tree and part deeper down, so loads go to divergent addresses and the walks'
// lengths depend on the data (lanes leave the loop by `@P1 BRA`, BSSY/BSYNC around it).
// The tree: median splits along the longest axis down to `leaf` spheres. Everything
// follows from `seed`.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
struct sphere {
  std::array<float, 3> c;
  float r;
};
struct bvh_node {
  std::array<float, 3> lo, hi;
  std::uint32_t first = 0;  // inner: left child (right = first + 1); leaf: first sphere
  std::uint32_t count = 0;  // spheres of a leaf (0: inner)
};

struct scene {
  std::vector<sphere> spheres;  // in leaf order
  std::vector<bvh_node> nodes;  // node 0: the root
};

void build(scene& s, std::uint32_t n, std::uint32_t lo, std::uint32_t hi, std::uint32_t leaf) {
  bvh_node& b = s.nodes[n];
  b.lo = {1e30f, 1e30f, 1e30f};
  b.hi = {-1e30f, -1e30f, -1e30f};
  for (std::uint32_t i = lo; i < hi; ++i)
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = std::min(b.lo[a], s.spheres[i].c[a] - s.spheres[i].r);
      b.hi[a] = std::max(b.hi[a], s.spheres[i].c[a] + s.spheres[i].r);
    }
  if (hi - lo <= leaf) {
    b.first = lo;
    b.count = hi - lo;
    return;
  }
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (b.hi[a] - b.lo[a] > b.hi[axis] - b.lo[axis]) axis = a;
  const std::uint32_t mid = lo + (hi - lo) / 2;
  std::nth_element(s.spheres.begin() + lo, s.spheres.begin() + mid, s.spheres.begin() + hi,
                   [axis](const sphere& x, const sphere& y) { return x.c[axis] < y.c[axis]; });
  const std::uint32_t left = std::uint32_t(s.nodes.size());
  s.nodes[n].first = left;  // (b may move when the vector grows)
  s.nodes.resize(s.nodes.size() + 2);
  build(s, left, lo, mid, leaf);
  build(s, left + 1, mid, hi, leaf);
}

// Whether the ray o + t d (1/d in inv) meets the box before `best`.
bool hits_box(const bvh_node& b, const std::array<float, 3>& o, const std::array<float, 3>& inv,
              float best) {
  float t0 = 0, t1 = best;
  for (int a = 0; a < 3; ++a) {
    float n = (b.lo[a] - o[a]) * inv[a], f = (b.hi[a] - o[a]) * inv[a];
    if (n > f) std::swap(n, f);
    t0 = std::max(t0, n);
    t1 = std::min(t1, f);
  }
  return t0 <= t1;
}

// The distance to the sphere along a unit ray, or a negative number for none.
float hit_sphere(const sphere& s, const std::array<float, 3>& o, const std::array<float, 3>& d) {
  const float oc[3] = {o[0] - s.c[0], o[1] - s.c[1], o[2] - s.c[2]};
  const float b = oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2];
  const float c = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - s.r * s.r;
  const float disc = b * b - c;
  if (disc < 0) return -1;
  return -b - std::sqrt(disc);
}

void generate_ray_walk(const param_set& ps, app_builder& app) {
  const std::uint32_t width = ps.u32("width"), height = ps.u32("height");
  const std::uint32_t count = ps.u32("spheres"), leaf = ps.u32("leaf");
  const double radius = ps.real("radius");
  const std::uint32_t stack_depth = ps.u32("stack");
  const std::uint64_t seed = ps.u64("seed");
  const std::uint32_t bx = ps.u32("block_x"), by = ps.u32("block_y");
  if (std::uint64_t(bx) * by > 1024)
    param_set::fail("block_y", "block_x * block_y must be <= 1024");

  rng r(seed);
  scene s;
  s.spheres.resize(count);
  for (sphere& sp : s.spheres) {
    sp.c = {float(r.uniform()), float(r.uniform()), float(0.2 + r.uniform())};
    sp.r = float(radius * (0.5 + r.uniform()));
  }
  s.nodes.resize(1);
  build(s, 0, 0, count, leaf);
  // The tree's depth bounds the stack a depth-first walk needs (one pending sibling a level).
  std::uint32_t depth = 0;
  for (std::uint32_t n = count; n > leaf; n = (n + 1) / 2) ++depth;
  if (depth + 1 > stack_depth) param_set::fail("stack", "is shallower than the tree needs");

  const std::uint64_t node_base = app.input(32ull * s.nodes.size());
  const std::uint64_t sphere_base = app.input(16ull * s.spheres.size());
  const std::uint64_t out = app.output(4ull * width * height);

  program p(app.opcodes(), 40);
  auto m = p.here();
  p.global_index_1d();  // R3 = pixel (x, y folded)
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.fmul(20, 3, rz);  // ray direction and its inverse
  p.fmul(21, 3, rz);
  p.mov(22);
  p.raw("MUFU.RCP", {23}, {20});
  p.raw("MUFU.RCP", {24}, {21});
  p.raw("MUFU.RCP", {25}, {22});
  p.mov(26);  // best t
  p.mov(27);  // stack top = root
  p.mov(28);  // stack size = 1
  const code init = p.since(m);
  const code split = p.reconverge_begin();
  m = p.here();
  p.iadd(28, 28, rz);     // pop
  p.address(30, 27, rz);  // &nodes[node]
  const code pop = p.since(m);
  const code ld_lo = p.ld_global(4, 30, 16);  // lo.xyz, first
  const code ld_hi = p.ld_global(8, 30, 16);  // hi.xyz, count
  m = p.here();
  for (const std::array<reg, 4>& k :  // slab test per axis: near, far, the box's lo, hi
       {std::array<reg, 4>{12, 15, 4, 8}, std::array<reg, 4>{13, 16, 5, 9},
        std::array<reg, 4>{14, 17, 6, 10}}) {
    p.ffma(k[0], k[2], 23, rz);
    p.ffma(k[1], k[3], 23, rz);
    p.raw("FMNMX", {k[0]}, {k[0], k[1]});
  }
  p.raw("FMNMX", {18}, {12, 13});
  p.raw("FMNMX", {18}, {18, 14});
  p.raw("FSETP.GT.AND", {}, {18, 26});
  const code slab = p.since(m);
  const code bra_miss = p.bra();  // @P0 BRA (box missed: next pop)
  const code is_leaf = p.isetp("NE", 11, rz);
  const code bra_leaf = p.bra();  // @P1 BRA leaf
  m = p.here();
  p.mov(27);  // push the right child, go on with the left (registers: a short stack)
  p.iadd(28, 28, rz);
  p.iadd(27, 7, rz);
  const code push = p.since(m);
  m = p.here();
  p.address(32, 7, rz);  // &spheres[first + k]
  const code leaf_addr = p.since(m);
  const code ld_sphere = p.ld_global(34, 32, 16);
  m = p.here();
  p.fadd(12, 20, 34);  // oc, b, c, disc, t
  p.ffma(13, 12, 20, rz);
  p.ffma(14, 12, 12, rz);
  p.ffma(15, 13, 13, 14);
  p.raw("FSETP.GEU.AND", {}, {15, rz});
  p.raw("MUFU.SQRT", {16}, {15});
  p.fadd(17, 13, 16);
  p.raw("FMNMX", {26}, {26, 17});
  p.iadd(32, 32, rz);
  p.isetp("LT", 32, 11);
  const code intersect = p.since(m);
  const code leaf_back = p.bra();  // next sphere of the leaf
  const code loop_test = p.isetp("NE", 28, rz);
  const code back = p.bra();  // stack not empty
  const code join = p.reconverge_end();
  const code addr_out = p.address(36, 3, rz);
  const code st = p.st_global(36, 26, 4);  // the nearest sphere
  const code done = p.exit();
  p.bra();

  const dim3 grid{(width + bx - 1) / bx, (height + by - 1) / by, 1};
  const kernel_info info = app.kernel("_Z6renderP6float4PK7BVHNodePK6Sphereii",
                                      app.reserve_kernel_id(), grid, dim3{bx, by, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint32_t, 32> pixel{};
      std::array<std::array<float, 3>, 32> dir{}, inv{};
      std::array<float, 32> best{};
      std::array<std::uint32_t, 32> hit{};
      std::array<std::vector<std::uint32_t>, 32> stack;
      std::array<std::uint32_t, 32> node{}, k{};
      const std::array<float, 3> origin = {0.5f, 0.5f, -1.0f};
      std::uint32_t act = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint32_t x = tb.index.x * bx + lanes.flat[l] % bx;
        const std::uint32_t y = tb.index.y * by + lanes.flat[l] / bx;
        if (x >= width || y >= height) continue;
        act |= 1u << l;
        pixel[l] = y * width + x;
        const float px = (x + 0.5f) / float(width), py = (y + 0.5f) / float(height);
        std::array<float, 3> d = {px - origin[0], py - origin[1], 0.0f - origin[2]};
        const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int a = 0; a < 3; ++a) {
          dir[l][a] = d[a] / len;
          inv[l][a] = dir[l][a] != 0 ? 1.0f / dir[l][a] : 1e30f;
        }
        best[l] = 1e30f;
        hit[l] = ~0u;
        stack[l] = {0};
      }
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~act);
      e.run(init, act);
      e.run(split, act);
      std::uint32_t loop = act;
      while (loop != 0) {
        for (unsigned l = 0; l < 32; ++l)
          if (loop >> l & 1u) {
            node[l] = stack[l].back();
            stack[l].pop_back();
          }
        e.run(pop, loop);
        e.mem_fn(ld_lo, loop, [&](unsigned l) { return node_base + 32ull * node[l]; });
        e.mem_fn(ld_hi, loop, [&](unsigned l) { return node_base + 32ull * node[l] + 16; });
        e.run(slab, loop);
        std::uint32_t missed = 0, leaves = 0, inner = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(loop >> l & 1u)) continue;
          const bvh_node& b = s.nodes[node[l]];
          if (!hits_box(b, origin, inv[l], best[l]))
            missed |= 1u << l;
          else if (b.count != 0)
            leaves |= 1u << l;
          else
            inner |= 1u << l;
        }
        e.run(bra_miss, missed);
        const std::uint32_t met = loop & ~missed;
        e.run(is_leaf, met);
        e.run(bra_leaf, leaves);
        e.run(push, inner);
        for (unsigned l = 0; l < 32; ++l)
          if (inner >> l & 1u) {
            stack[l].push_back(s.nodes[node[l]].first + 1);
            stack[l].push_back(s.nodes[node[l]].first);
          }
        // The leaves' spheres, one a pass, while a lane has one left.
        e.run(leaf_addr, leaves);
        for (unsigned l = 0; l < 32; ++l) k[l] = 0;
        std::uint32_t pass = leaves;
        while (pass != 0) {
          e.mem_fn(ld_sphere, pass, [&](unsigned l) {
            return sphere_base + 16ull * (s.nodes[node[l]].first + k[l]);
          });
          std::uint32_t more = 0;
          for (unsigned l = 0; l < 32; ++l) {
            if (!(pass >> l & 1u)) continue;
            const std::uint32_t sidx = s.nodes[node[l]].first + k[l];
            const float t = hit_sphere(s.spheres[sidx], origin, dir[l]);
            if (t > 0 && t < best[l]) {
              best[l] = t;
              hit[l] = sidx;
            }
            if (++k[l] < s.nodes[node[l]].count) more |= 1u << l;
          }
          e.run(intersect, pass);
          e.run(leaf_back, more);
          pass = more;
        }
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((loop >> l & 1u) && !stack[l].empty()) next |= 1u << l;
        e.run(loop_test, loop);
        e.run(back, next);
        loop = next;
      }
      e.run(join, act);
      e.run(addr_out, act);
      e.mem_fn(st, act, [&](unsigned l) { return out + 4ull * pixel[l]; });
      e.run(done, act);
    }
  });
}
}  // namespace

kernel_generator ray_walk_generator() {
  return {"ray_walk",
          "RAY-like ray tracer: thread per pixel, depth-first BVH walk over random spheres, "
          "divergent node and sphere loads, data-dependent walk lengths",
          {param_desc::integer("width", 256, 1, 4096, "image width (pixels)"),
           param_desc::integer("height", 256, 1, 4096, "image height (pixels)"),
           param_desc::integer("spheres", 4096, 1, 1u << 20, "spheres in the scene"),
           param_desc::integer("leaf", 4, 1, 16, "spheres per BVH leaf at most"),
           param_desc::real("radius", 0.01, 0.0001, 0.5,
                            "mean sphere radius (the scene is a unit cube)"),
           param_desc::integer("stack", 32, 2, 64,
                               "traversal stack entries (must hold the tree's depth)"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the scene"),
           param_desc::integer("block_x", 16, 1, 1024, "TB width (threads)"),
           param_desc::integer("block_y", 8, 1, 1024, "TB height (threads)")},
          generate_ray_walk};
}

}  // namespace gputlm::traces::generators
