// Adaptive mesh refinement, the recursive-refinement pattern of Wang's thesis (ch. 3, "AMR";
// the CDP AMR benchmark of Wang & Yalamanchili, IISWC'14): a 1-D grid of `cells` cells, each
// with an energy in [0, 1) (seeded). A cell whose energy exceeds `refine` and whose depth is
// below max_depth is refined into `sub` sub-cells: the refining thread takes
// base = atomicAdd(&ncells, sub) slots of the cell pool, and sub-cell j gets
// key' = key * 1000003 + j + 1 and energy' = energy * h(key'), h a hash into [0, 1)
// (input_gen.h hash_unit), both stored at pool[base + j]. Level-0 keys are the cell indices.
// The refined tree does not depend on the execution order; only the pool slots do.
//
// amr (flat): one host launch per level L < max_depth, one thread per cell of level L (the
// pool range that level L - 1 allocated); a refining thread loops over its sub-cells. The
// host stops after max_depth levels or a level that refined nothing.
//
// amr_cdp / amr_dtbl (thesis ch. 3-4, Fig. 12a): one host launch over the level-0 cells; a
// refining thread launches a child (CDP kernel of child_block-thread TBs, or a DTBL
// aggregated group in the host kernel's own function and TB shape) of one thread per
// sub-cell, with parameters (base, depth + 1) and (key, energy). A child thread computes and
// stores its sub-cell and, if that one refines, launches its own child, recursively: nesting
// depth max_depth. Every refined cell has `sub` items of work, so threshold must not exceed
// sub (a smaller grid would be refined in-thread, without recursion). amr_cdp with sync=1:
// a launching thread then executes cudaDeviceSynchronize (CDP.SYNC) and sums its sub-cells'
// energies into total[cell] (loads of energy[base + j]).
//
// Execution order on the CPU: TBs, warps and warp instructions as in bfs.cpp; device kernels
// after the kernel that launched them, breadth first (kernel ids in launch order).
#include <deque>

#include "traces/generators/device_launch.h"
#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {

// The DTBL host kernel, whose groups run in it with group_function=launcher.
constexpr const char* dtbl_refine_name = "_Z15amr_dtbl_refinePyPfPjjjf";
constexpr std::uint64_t key_multiplier = 1000003;

struct amr_config {
  std::uint32_t cells, sub, max_depth, block, threshold, child_block;
  const char* child_name;  // the function a child (CDP) or group (DTBL) runs
  float refine;
  std::uint64_t seed;
  bool sync;
  bool prolong;  // sub-cells interpolated from the parent and its neighbours (read from memory)
};

struct amr_memory {
  std::uint64_t key, energy, total, ncells;
};

struct cell {
  std::uint64_t key;
  float energy;
};

// A cell with its neighbours among its siblings (the cells its parent refined into, or the
// level-0 grid), clamped at the ends: what a prolongation reads.
struct neighbourhood {
  cell left, mid, right;
  std::uint32_t left_slot = 0, mid_slot = 0, right_slot = 0;
};

// Sub-cell j of `nb.mid`. Without prolong: energy' = energy * h(key'). With prolong: the
// parent's energy linearly interpolated to the sub-cell's centre t = (j + 0.5) / sub between
// the neighbours' (t < 1/2: left and mid, else mid and right), times h(key').
cell sub_cell(const amr_config& c, const neighbourhood& nb, std::uint32_t j) {
  const std::uint64_t k = nb.mid.key * key_multiplier + j + 1;
  float e = nb.mid.energy;
  if (c.prolong) {
    const float t = (float(j) + 0.5f) / float(c.sub);
    e = t < 0.5f ? nb.left.energy * (0.5f - t) + nb.mid.energy * (t + 0.5f)
                 : nb.mid.energy * (1.5f - t) + nb.right.energy * (t - 0.5f);
  }
  return {k, e * float(hash_unit(c.seed, k))};
}

// The sub-cells of nb.mid, each with its sibling neighbours (slots left 0: not in memory).
std::vector<neighbourhood> sub_cells(const amr_config& c, const neighbourhood& nb) {
  std::vector<cell> x(c.sub);
  for (std::uint32_t j = 0; j < c.sub; ++j) x[j] = sub_cell(c, nb, j);
  std::vector<neighbourhood> out(c.sub);
  for (std::uint32_t j = 0; j < c.sub; ++j)
    out[j] = {x[j > 0 ? j - 1 : 0], x[j], x[j + 1 < c.sub ? j + 1 : j]};
  return out;
}

bool refines(const amr_config& c, const cell& x, std::uint32_t depth) {
  return depth < c.max_depth && x.energy > c.refine;
}

// Cells of the whole refined tree (the pool size).
std::uint64_t tree_cells(const amr_config& c, const neighbourhood& nb, std::uint32_t depth) {
  std::uint64_t total = 1;
  if (refines(c, nb.mid, depth))
    for (const neighbourhood& x : sub_cells(c, nb)) total += tree_cells(c, x, depth + 1);
  return total;
}

struct pending_child {
  std::uint32_t id, base, depth;  // depth of the sub-cells the child computes
  neighbourhood parent;
  dim3 grid;
};

// The code both kernels share: sub-cell computation and the sync read-back.
struct amr_code {
  code hash, addr_key, st_key, addr_energy, st_energy;
  code alloc, atom_base;
  code sync, sum_init, addr_sum, ld_sum, sum_step, sum_back, addr_total, st_total;
  // prolong: the neighbourhood's energies (R27 left, R10 mid, R29 right), interpolated to R37
  code addr_nb, ld_left, ld_mid, ld_right, interp;
};

// prolong: loads of the parent's neighbourhood (R25 its address; the mid energy too when
// `mid`), and the interpolation of sub-cell j's energy into R37.
void emit_prolong_code(program& p, amr_code& k, bool mid) {
  k.addr_nb = p.address(25, 7, rz);
  k.ld_left = p.ld_global(27, 25, 4);
  if (mid) k.ld_mid = p.ld_global(10, 25, 4);
  k.ld_right = p.ld_global(29, 25, 4);
}
void emit_interp_code(program& p, amr_code& k, reg j) {
  auto m = p.here();
  p.i2f(37, j);
  p.ffma(37, 37, 27, 10);
  p.ffma(37, 37, 29, 37);
  k.interp = p.since(m);
}

// Sub-cell j (register j) of the cell (key R14:15, energy R`energy`) into pool slot R7.
void emit_sub_cell_code(program& p, amr_code& k, reg j, reg energy) {
  auto m = p.here();
  p.imad(20, 14, rz, j);  // key' = key * 1000003 + j + 1 (low word; .HI for the high word)
  p.imad(21, 15, rz, rz);
  p.shr(22, 20);
  p.land(22, 22);
  p.imad(22, 22, rz, 21);
  p.i2f(23, 22);
  p.fmul(24, 23, energy);  // energy' = energy * h(key')
  k.hash = p.since(m);
  k.addr_key = p.address(26, 7, rz);
  k.st_key = p.st_global(26, 20, 8);
  k.addr_energy = p.address(28, 7, rz);
  k.st_energy = p.st_global(28, 24, 4);
}

// base (R18) = atomicAdd(&ncells, sub).
void emit_alloc_code(program& p, amr_code& k) {
  auto m = p.here();
  p.mov(16);  // &ncells
  p.mov(17);  // sub
  k.alloc = p.since(m);
  k.atom_base = p.atom("ADD", 18, 16, 17);
}

// cudaDeviceSynchronize, then total[cell R3] = sum of energy[base + j], j < sub.
void emit_sync_code(program& p, amr_code& k) {
  k.sync = p.cdp_sync();
  auto m = p.here();
  p.mov(30);  // sum = 0
  p.mov(31);  // j = 0
  k.sum_init = p.since(m);
  m = p.here();
  p.iadd(32, 18, 31);
  p.address(32, 32, rz);
  k.addr_sum = p.since(m);
  k.ld_sum = p.ld_global(34, 32, 4);
  m = p.here();
  p.fadd(30, 30, 34);
  p.iadd(31, 31, rz);
  p.isetp("LT", 31, 17);
  k.sum_step = p.since(m);
  k.sum_back = p.bra();
  k.addr_total = p.address(36, 3, rz);
  k.st_total = p.st_global(36, 30, 4);
}

class amr_writer {
 public:
  amr_writer(const amr_config& c, app_builder& app, launch_mode mode)
      : m_c(c), m_app(app), m_mode(mode), m_p(app.opcodes(), 39), m_cp(app.opcodes(), 39) {}

  void run();

 private:
  void build_host_program();
  void build_child_program();
  void emit_sub_cells(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                      const std::array<std::uint32_t, 32>& slot,
                      const std::array<neighbourhood, 32>& parent,
                      const std::array<std::uint32_t, 32>& j);
  void emit_prolong_loads(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                          const std::array<neighbourhood, 32>& nb, bool mid);
  neighbourhood neighbourhood_of(std::uint32_t slot) const;
  std::uint32_t emit_alloc(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                           std::array<std::uint32_t, 32>& base);
  void emit_launches(warp_emitter& e, const amr_code& k, const launch_site& site,
                     std::uint32_t mask, const std::array<std::uint32_t, 32>& base,
                     const std::array<neighbourhood, 32>& x,
                     const std::array<std::uint32_t, 32>& slot, std::uint32_t depth);
  void write_host_level(std::uint32_t first, std::uint32_t count, std::uint32_t depth);
  void write_child(const pending_child& ch);

  const amr_config& m_c;
  app_builder& m_app;
  launch_mode m_mode;
  amr_memory m_mem{};
  std::vector<cell> m_pool;
  std::vector<std::uint32_t> m_range_first;  // prolong: a slot's first sibling
  std::uint32_t m_ncells = 0;
  std::deque<pending_child> m_children;
  const char* m_name = nullptr;

  program m_p, m_cp;
  amr_code m_pk{}, m_ck{};
  code m_head{}, m_exit_oob{}, m_addr_energy{}, m_ld_energy{}, m_cmp{}, m_exit_leaf{}, m_addr_key{},
      m_ld_key{}, m_loop_init{}, m_step{}, m_back{}, m_done{};
  std::unique_ptr<launch_site> m_site;
  code m_c_head{}, m_c_exit_oob{}, m_c_params{}, m_c_cmp{}, m_c_exit_leaf{}, m_c_done{};
  std::unique_ptr<launch_site> m_c_site;
};

void amr_writer::build_host_program() {
  program& p = m_p;
  auto m = p.here();
  p.global_index_1d();  // R3 = i
  p.mov(5);             // count
  p.isetp("GE", 3, 5);
  m_head = p.since(m);
  m_exit_oob = p.exit();
  m = p.here();
  p.mov(6);  // first
  p.iadd(7, 6, 3);
  p.address(8, 7, rz);
  m_addr_energy = p.since(m);
  m_ld_energy = p.ld_global(10, 8, 4);
  m = p.here();
  p.mov(11);  // refine
  p.raw("FSETP.GT.AND", {}, {10, 11});
  m_cmp = p.since(m);
  m_exit_leaf = p.exit();
  m_addr_key = p.address(12, 7, rz);
  m_ld_key = p.ld_global(14, 12, 8);
  emit_alloc_code(p, m_pk);
  if (m_mode == launch_mode::flat) {
    if (m_c.prolong) emit_prolong_code(p, m_pk, false);
    m = p.here();
    p.mov(19);  // j = 0
    p.iadd(7, 18, 19);
    m_loop_init = p.since(m);
    if (m_c.prolong) emit_interp_code(p, m_pk, 19);
    emit_sub_cell_code(p, m_pk, 19, m_c.prolong ? 37 : 10);
    m = p.here();
    p.iadd(19, 19, rz);
    p.iadd(7, 18, 19);
    p.isetp("LT", 19, 17);
    m_step = p.since(m);
    m_back = p.bra();
  } else {
    m_site = std::make_unique<launch_site>(p, m_mode, 38, 18, 14);  // (base, depth), (key, energy)
    if (m_c.sync) emit_sync_code(p, m_pk);
  }
  m_done = p.exit();
  p.bra();
}

void amr_writer::build_child_program() {
  program& p = m_cp;
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::tid_x);
  p.imad(3, 0, rz, 2);  // j
  p.mov(17);            // sub
  p.isetp("GE", 3, 17);
  m_c_head = p.since(m);
  m_c_exit_oob = p.exit();
  m = p.here();
  p.mov(6);  // base
  p.iadd(7, 6, 3);
  p.mov(14);  // key
  p.mov(15);
  p.mov(10);  // energy
  m_c_params = p.since(m);
  if (m_c.prolong) {
    emit_prolong_code(p, m_ck, true);
    emit_interp_code(p, m_ck, 3);
  }
  emit_sub_cell_code(p, m_ck, 3, m_c.prolong ? 37 : 10);
  m = p.here();
  p.mov(9);  // depth
  p.isetp("LT", 9, rz);
  p.mov(11);  // refine
  p.raw("FSETP.GT.AND", {}, {24, 11});
  p.mov(3);  // this sub-cell: slot, key, energy
  p.mov(14);
  p.mov(10);
  m_c_cmp = p.since(m);
  m_c_exit_leaf = p.exit();
  emit_alloc_code(p, m_ck);
  m_c_site = std::make_unique<launch_site>(p, m_mode, 38, 18, 14);
  if (m_c.sync) emit_sync_code(p, m_ck);
  m_c_done = p.exit();
  p.bra();
}

neighbourhood amr_writer::neighbourhood_of(std::uint32_t slot) const {
  neighbourhood nb;
  nb.left_slot = nb.mid_slot = nb.right_slot = slot;
  if (m_c.prolong) {
    const std::uint32_t first = m_range_first[slot];
    const std::uint32_t count = first == 0 ? m_c.cells : m_c.sub;  // sub-cells follow the grid
    if (slot > first) nb.left_slot = slot - 1;
    if (slot + 1 < first + count) nb.right_slot = slot + 1;
  }
  nb.left = m_pool[nb.left_slot];
  nb.mid = m_pool[slot];
  nb.right = m_pool[nb.right_slot];
  return nb;
}

void amr_writer::emit_prolong_loads(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                                    const std::array<neighbourhood, 32>& nb, bool mid) {
  e.run(k.addr_nb, mask);
  e.mem_fn(k.ld_left, mask, [&](unsigned l) { return m_mem.energy + 4ull * nb[l].left_slot; });
  if (mid)
    e.mem_fn(k.ld_mid, mask, [&](unsigned l) { return m_mem.energy + 4ull * nb[l].mid_slot; });
  e.mem_fn(k.ld_right, mask, [&](unsigned l) { return m_mem.energy + 4ull * nb[l].right_slot; });
}

void amr_writer::emit_sub_cells(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                                const std::array<std::uint32_t, 32>& slot,
                                const std::array<neighbourhood, 32>& parent,
                                const std::array<std::uint32_t, 32>& j) {
  if (m_c.prolong) e.run(k.interp, mask);
  e.run(k.hash, mask);
  e.run(k.addr_key, mask);
  e.mem_fn(k.st_key, mask, [&](unsigned l) { return m_mem.key + 8ull * slot[l]; });
  e.run(k.addr_energy, mask);
  e.mem_fn(k.st_energy, mask, [&](unsigned l) { return m_mem.energy + 4ull * slot[l]; });
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1u) {
      m_pool[slot[l]] = sub_cell(m_c, parent[l], j[l]);
      if (m_c.prolong) m_range_first[slot[l]] = slot[l] - j[l];
    }
}

std::uint32_t amr_writer::emit_alloc(warp_emitter& e, const amr_code& k, std::uint32_t mask,
                                     std::array<std::uint32_t, 32>& base) {
  e.run(k.alloc, mask);
  e.mem_fn(k.atom_base, mask, [&](unsigned) { return m_mem.ncells; });
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1u) {
      base[l] = m_ncells;
      m_ncells += m_c.sub;
    }
  return mask;
}

void amr_writer::emit_launches(warp_emitter& e, const amr_code& k, const launch_site& site,
                               std::uint32_t mask, const std::array<std::uint32_t, 32>& base,
                               const std::array<neighbourhood, 32>& x,
                               const std::array<std::uint32_t, 32>& slot, std::uint32_t depth) {
  std::array<device_launch, 32> what{};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    what[l] = child_grid(m_app, m_c.sub, m_c.child_block);
    m_children.push_back({what[l].child_kernel, base[l], depth + 1, x[l], what[l].grid});
  }
  site.emit(e, mask, what);
  if (!m_c.sync || mask == 0) return;
  // Children complete at the CDP.SYNC, so the pool holds their sub-cells when read here.
  e.run(k.sync, mask);
  e.run(k.sum_init, mask);
  for (std::uint32_t j = 0; j < m_c.sub; ++j) {
    e.run(k.addr_sum, mask);
    e.mem_fn(k.ld_sum, mask, [&](unsigned l) { return m_mem.energy + 4ull * (base[l] + j); });
    e.run(k.sum_step, mask);
    e.run(k.sum_back, j + 1 < m_c.sub ? mask : 0);
  }
  e.run(k.addr_total, mask);
  e.mem_fn(k.st_total, mask, [&](unsigned l) { return m_mem.total + 4ull * slot[l]; });
}

void amr_writer::write_host_level(std::uint32_t first, std::uint32_t count, std::uint32_t depth) {
  const std::uint32_t block = m_c.block;
  const kernel_info info =
      m_app.kernel(m_name, m_app.reserve_kernel_id(), dim3{(count + block - 1) / block, 1, 1},
                   dim3{block, 1, 1}, 0, m_p);
  m_app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(m_p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint32_t, 32> slot{}, base{}, j{};
      std::array<neighbourhood, 32> x{};
      std::uint32_t act = 0, ref = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint64_t i = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (i >= count) continue;
        act |= 1u << l;
        slot[l] = first + std::uint32_t(i);
        x[l] = neighbourhood_of(slot[l]);
        if (refines(m_c, x[l].mid, depth)) ref |= 1u << l;
      }
      e.run(m_head, lanes.live);
      e.run(m_exit_oob, lanes.live & ~act);
      e.run(m_addr_energy, act);
      e.mem_fn(m_ld_energy, act, [&](unsigned l) { return m_mem.energy + 4ull * slot[l]; });
      e.run(m_cmp, act);
      e.run(m_exit_leaf, act & ~ref);
      e.run(m_addr_key, ref);
      e.mem_fn(m_ld_key, ref, [&](unsigned l) { return m_mem.key + 8ull * slot[l]; });
      emit_alloc(e, m_pk, ref, base);
      if (m_mode == launch_mode::flat) {
        if (m_c.prolong) emit_prolong_loads(e, m_pk, ref, x, false);
        e.run(m_loop_init, ref);
        for (std::uint32_t k = 0; k < m_c.sub; ++k) {
          std::array<std::uint32_t, 32> to{};
          for (unsigned l = 0; l < 32; ++l) {
            to[l] = base[l] + k;
            j[l] = k;
          }
          emit_sub_cells(e, m_pk, ref, to, x, j);
          e.run(m_step, ref);
          e.run(m_back, k + 1 < m_c.sub ? ref : 0);
        }
      } else {
        emit_launches(e, m_pk, *m_site, ref, base, x, slot, depth);
      }
      e.run(m_done, ref);
    }
  });
}

void amr_writer::write_child(const pending_child& ch) {
  const std::uint32_t cb = m_c.child_block;
  kernel_info ci = m_app.kernel(m_c.child_name, ch.id, ch.grid, dim3{cb, 1, 1}, 0, m_cp);
  ci.device_launched = true;
  // The sub-cells with their sibling neighbours (slots in the pool range from ch.base).
  std::vector<neighbourhood> subs = sub_cells(m_c, ch.parent);
  for (std::uint32_t j = 0; j < m_c.sub; ++j) {
    subs[j].left_slot = ch.base + (j > 0 ? j - 1 : 0);
    subs[j].mid_slot = ch.base + j;
    subs[j].right_slot = ch.base + (j + 1 < m_c.sub ? j + 1 : j);
  }
  m_app.write_kernel(ci, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(m_cp, tb.warps[w]);
      const warp_lanes lanes = lanes_of(ci.block, w);
      std::array<std::uint32_t, 32> slot{}, base{}, j{};
      std::array<neighbourhood, 32> parent{}, x{};
      std::uint32_t act = 0, ref = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        const std::uint64_t i = std::uint64_t(tb.index.x) * cb + lanes.flat[l];
        if (i >= m_c.sub) continue;
        act |= 1u << l;
        j[l] = std::uint32_t(i);
        slot[l] = ch.base + j[l];
        parent[l] = ch.parent;
        x[l] = subs[j[l]];
        if (refines(m_c, x[l].mid, ch.depth)) ref |= 1u << l;
      }
      e.run(m_c_head, lanes.live);
      e.run(m_c_exit_oob, lanes.live & ~act);
      e.run(m_c_params, act);
      if (m_c.prolong) emit_prolong_loads(e, m_ck, act, parent, true);
      emit_sub_cells(e, m_ck, act, slot, parent, j);
      e.run(m_c_cmp, act);
      e.run(m_c_exit_leaf, act & ~ref);
      emit_alloc(e, m_ck, ref, base);
      emit_launches(e, m_ck, *m_c_site, ref, base, x, slot, ch.depth);
      e.run(m_c_done, ref);
    }
  });
}

void amr_writer::run() {
  auto level0 = [&](std::uint32_t i) { return cell{i, float(hash_unit(m_c.seed, i))}; };
  std::uint64_t pool = 0;
  for (std::uint32_t i = 0; i < m_c.cells; ++i) {
    neighbourhood nb;
    nb.left = level0(i > 0 ? i - 1 : i);
    nb.mid = level0(i);
    nb.right = level0(i + 1 < m_c.cells ? i + 1 : i);
    pool += tree_cells(m_c, nb, 0);
  }
  if (pool > (1ull << 26))
    param_set::fail("max_depth", "the refined mesh has " + std::to_string(pool) +
                                     " cells, more than 2^26; lower max_depth, sub or cells");
  m_pool.assign(pool, cell{});
  for (std::uint32_t i = 0; i < m_c.cells; ++i) m_pool[i] = level0(i);
  if (m_c.prolong) m_range_first.assign(pool, 0);
  m_ncells = m_c.cells;
  m_mem.key = m_app.output(8 * pool);
  m_app.memcpy_h2d(m_mem.key, 8ull * m_c.cells);
  m_mem.energy = m_app.output(4 * pool);
  m_app.memcpy_h2d(m_mem.energy, 4ull * m_c.cells);
  if (m_c.sync) m_mem.total = m_app.output(4 * pool);
  m_mem.ncells = m_app.input(4);

  m_name = m_mode == launch_mode::flat  ? "_Z10amr_refinePyPfPjjjf"
           : m_mode == launch_mode::cdp ? "_Z14amr_cdp_refinePyPfS0_Pjjjf"
                                        : dtbl_refine_name;
  build_host_program();
  if (m_mode != launch_mode::flat) build_child_program();
  if (m_mode == launch_mode::flat) {
    std::uint32_t first = 0;
    for (std::uint32_t depth = 0; depth < m_c.max_depth; ++depth) {
      const std::uint32_t end = m_ncells;
      if (end == first) break;
      write_host_level(first, end - first, depth);
      first = end;
    }
    return;
  }
  write_host_level(0, m_c.cells, 0);
  while (!m_children.empty()) {
    const pending_child ch = m_children.front();
    m_children.pop_front();
    write_child(ch);
  }
}

void generate_amr(const param_set& ps, app_builder& app, launch_mode mode) {
  amr_config c{};
  c.cells = ps.u32("cells");
  c.sub = ps.u32("sub");
  c.max_depth = ps.u32("max_depth");
  c.block = ps.u32("block");
  c.threshold = mode == launch_mode::flat ? 0 : ps.u32("threshold");
  c.child_block = child_block_of(ps, mode, c.block);
  c.child_name = child_function(ps, mode, dtbl_refine_name, "_Z13amr_cdp_childPyPfS0_PjS1_jjyf",
                                "_Z13amr_dtbl_childPyPfS0_PjS1_jjyf");
  c.refine = float(ps.real("refine"));
  c.seed = ps.u64("seed");
  c.sync = mode == launch_mode::cdp && ps.u32("sync") != 0;
  c.prolong = ps.u32("prolong") != 0;
  if (c.threshold > c.sub)
    param_set::fail("threshold", "must not exceed sub = " + std::to_string(c.sub) +
                                     " (every refined cell launches sub threads)");
  amr_writer(c, app, mode).run();
}

std::vector<param_desc> amr_params() {
  std::vector<param_desc> p = {
      param_desc::integer("cells", 256, 1, 1u << 20, "cells of the level-0 grid"),
      param_desc::integer("sub", 32, 1, 1024, "sub-cells of a refined cell"),
      param_desc::real("refine", 0.75, 0, 1, "a cell refines if its energy exceeds this"),
      param_desc::integer("max_depth", 2, 1, 8, "refinement levels below the grid"),
      param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the energies"),
      param_desc::integer("block", 128, 32, 1024, "threads per TB of the host kernel")};
  // Not noted at its default: the traces without it stay byte-identical.
  param_desc prolong = param_desc::integer(
      "prolong", 0, 0, 1,
      "1: a sub-cell's energy is interpolated from its parent's and the parent's neighbours' "
      "(loaded from memory by every child thread)");
  prolong.noted_at_default = false;
  p.push_back(std::move(prolong));
  return p;
}

}  // namespace

kernel_generator amr_generator() {
  return launch_form("amr",
                     "AMR refinement, one launch per level, a refining thread loops over sub-cells",
                     amr_params(), generate_amr, launch_mode::flat);
}

kernel_generator amr_cdp_generator() {
  auto params = with_launch_params(amr_params(), launch_mode::cdp);
  params.push_back(param_desc::integer(
      "sync", 0, 0, 1, "1: a launching thread syncs (CDP.SYNC) and reads its children's cells"));
  return {"amr_cdp", "AMR with CDP: a refining cell launches a child grid, recursively", params,
          [](const param_set& ps, app_builder& app) { generate_amr(ps, app, launch_mode::cdp); }};
}

kernel_generator amr_dtbl_generator() {
  return launch_form("amr_dtbl",
                     "AMR with DTBL: a refining cell launches an aggregated group, recursively",
                     amr_params(), generate_amr, launch_mode::dtbl);
}

}  // namespace gputlm::traces::generators
