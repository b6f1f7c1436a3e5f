// The SPU's runtime (spu_runtime.h).
#include "models/spu/spu_runtime.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "models/base/input_error.h"
#include "models/common/block_factory.h"
#include "models/control/workload.h"

namespace gputlm::spu {

namespace {
// The scheduler's policy: the runtime's placement for its kernels, LRR for others.
class spu_policy : public control::tb_policy {
 public:
  spu_policy(spu_runtime& rt)
      : m_rt(rt), m_lrr(control::make_tb_policy("lrr", "fcfs", "round_robin", false, 0, {})) {}
  control::tb_choice pick(control::tb_scheduler_view& v) override {
    control::tb_choice c = m_rt.pick(v);
    if (c.entry >= 0) return c;
    // Other kernels' TBs: LRR, never the runtime's.
    for (const control::kde_record& e : v.entries())
      if (e.valid && m_rt.owns(e.kernel) && e.tbs_left()) return c;
    return m_lrr->pick(v);
  }
  void tb_completed(std::size_t smx, std::uint32_t kernel) override {
    if (m_rt.owns(kernel))
      m_rt.tb_completed(smx, kernel);
    else
      m_lrr->tb_completed(smx, kernel);
  }
  std::uint64_t source_added(control::tb_scheduler_view& v, const control::tb_source& s) override {
    m_rt.source_added(s);
    return m_lrr->source_added(v, s);
  }
  std::string pending() const override { return m_rt.pending_work(); }

 private:
  spu_runtime& m_rt;
  std::unique_ptr<control::tb_policy> m_lrr;
};

// The SMX scheduler's strategy `spu`: the placements of the block bound to its
// `policy_source` (the runtime's export `policy`), known once everything is bound.
class spu_strategy final : public control::tb_policy, public strategy {
 public:
  explicit spu_strategy(const strategy_site& s) : strategy(s) {}
  void bound(control::tb_scheduler_view& v) override {
    control::tb_policy_source* src = v.policy_source();
    if (!src)
      throw input_error(owner().config().where(), owner().config().path() + ".policy",
                        "spu needs the block that places the TBs (the SPU's spu_runtime): bind "
                        "policy_source to its export policy");
    m_placed = src->make_tb_policy(v.smx_count());
  }
  bool takes_policy_source() const override { return true; }
  control::tb_choice pick(control::tb_scheduler_view& v) override { return m_placed->pick(v); }
  void tb_completed(std::size_t smx, std::uint32_t kernel) override {
    m_placed->tb_completed(smx, kernel);
  }
  std::uint64_t source_added(control::tb_scheduler_view& v, const control::tb_source& s) override {
    return m_placed->source_added(v, s);
  }
  std::string pending() const override { return m_placed ? m_placed->pending() : std::string(); }

 private:
  std::unique_ptr<control::tb_policy> m_placed;
};

GPUTLM_STRATEGY(control::tb_policy, "spu", spu_strategy,
                "the SPU: CTAs placed by the runtime bound to policy_source, in passes");
}  // namespace

spu_runtime::spu_runtime(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  for (std::uint64_t i = 0; i < bound_count("sm"); ++i) {
    sm.push_back(
        std::make_unique<required_port<core::neighbour_port>>(("sm_" + std::to_string(i)).c_str()));
    declare_port("sm[" + std::to_string(i) + "]", *sm.back());
  }
  for (std::size_t side = 0; side < 4; ++side) {
    const std::string n = side_name(spu::side(side));
    for (std::uint64_t i = 0; i < bound_count(n); ++i) {
      units[side].push_back(
          std::make_unique<required_port<unit_control>>((n + "_" + std::to_string(i)).c_str()));
      declare_port(n + "[" + std::to_string(i) + "]", *units[side].back());
    }
  }
  for (std::uint64_t i = 0; i < bound_count("viu"); ++i) {
    viu.push_back(
        std::make_unique<required_port<unit_control>>(("viu_" + std::to_string(i)).c_str()));
    declare_port("viu[" + std::to_string(i) + "]", *viu.back());
  }
  declare_port("sync", sync);
  policy.bind(*this);
  declare_export("policy", policy);
  add_stat("kernels", m_kernels, "stencil kernels run in passes");
  add_stat("passes", m_passes, "passes begun (their first CTA placed)");
  add_stat("ctas", m_ctas, "CTAs placed on their SM");
  add_stat("early_starts", m_early_starts,
           "CTAs started while a CTA of an earlier pass still ran (overlapped passes)");
  add_stat("cycles", m_cycles,
           "cycles from a kernel's first CTA to its last unit done (CTAs and interface units)");
  add_stat("plan_faces", m_plan_faces,
           "faces the plan moves between global memory and the grid (loads, stores, spills, "
           "restores, and each CTA's A and output tiles)");
  for (std::size_t p = 0; p < std::size_t(interface_unit::purpose::count_); ++p) {
    const auto why = interface_unit::purpose(p);
    add_stat(
        std::string("faces_") + purpose_name(why),
        [this, why] {
          std::uint64_t n = 0;
          for (const auto& side : m_ius)
            for (const unit_control* u : side) n += u->faces(why);
          for (const unit_control* u : m_vius) n += u->faces(why);
          return double(n);
        },
        std::string("faces the interface units (and the SMs acting as units) moved to ") +
            purpose_name(why));
  }
}

void spu_runtime::validate() { m_p.require(*m_p >= 2 && *m_p <= 32, "must be between 2 and 32"); }

void spu_runtime::validate_bound() {
  const std::uint64_t p = *m_p;
  for (std::size_t side = 0; side < 4; ++side)
    for (std::size_t lane = 0; lane < units[side].size(); ++lane) {
      unit_control* u = units[side][lane]->get();
      m_p.require(std::size_t(u->border_side()) == side && u->lane() == lane,
                  std::string("the unit bound to ") + units[side][lane]->basename() + " is the " +
                      side_name(u->border_side()) + " unit of lane " + std::to_string(u->lane()));
      m_ius[side].push_back(u);
    }
  for (const auto& v : viu) m_vius.push_back(v->get());
  m_global = sync.get();
  const std::string grid = std::to_string(p) + " x " + std::to_string(p);
  m_p.require(sm.size() == p * p, "a " + grid + " grid needs " + std::to_string(p * p) +
                                      " SMXs (sm[i], bound to their link ports); the platform "
                                      "binds " +
                                      std::to_string(sm.size()));
  m_p.require(m_vius.empty() || m_vius.size() == sm.size(),
              "either every SMX of the grid has its unit (viu[i]) or none");
  for (std::size_t side = 0; side < 4; ++side)
    m_p.require(m_ius[side].size() == p,
                "a " + grid + " grid needs " + std::to_string(p) + " interface units on its " +
                    side_name(spu::side(side)) + " side (" + side_name(spu::side(side)) + "[0.." +
                    std::to_string(p - 1) + "])");
}

std::unique_ptr<control::tb_policy> spu_runtime::make_tb_policy(std::size_t) {
  return std::make_unique<spu_policy>(*this);
}

std::string spu_runtime::added_hardware() const {
  return "per SM and IU: pass registers cpassx, cpassy and spill registers spillnb, cspillnb "
         "(Table 4.1)";
}

bool spu_runtime::owns(std::uint32_t kernel) const {
  if (m_active && kernel == m_kernel) return true;
  for (std::uint32_t k : m_waiting)
    if (k == kernel) return true;
  return false;
}

void spu_runtime::fail(const std::string& key, const std::string& why) {
  control::workload* w = work().ptr;
  if (w && !w->error)
    w->error = input_error({w->kernels()[m_kernel].reader->source(), 0, 0}, key, why);
  m_active = false;
  sc_core::sc_stop();
}

void spu_runtime::check_workload() {
  control::workload* w = work().ptr;
  if (!w) return;
  traces::application_trace& t = w->trace();
  // The notes of a text trace are kernelslist.g's comment lines: each note's line there.
  std::string list = t.path();
  std::vector<std::string> lines;
  if (t.what() == traces::application_trace::format::text) {
    if (std::filesystem::is_directory(list)) list += "/kernelslist.g";
    std::ifstream in(list);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  auto where = [&](const std::string& note) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i] == "# " + note || lines[i] == "#" + note) return source_location{list, i + 1, 0};
    return source_location{list, 0, 0};
  };
  for (const std::string& text : t.notes()) {
    if (text.rfind("spu ", 0) != 0) continue;
    const source_location at = where(text);
    const kernel_note n = parse_kernel_note(text, at);
    const control::kernel_run* k = nullptr;
    std::string ids;
    for (const control::kernel_run& r : w->kernels()) {
      if (r.id == n.kernel) k = &r;
      ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
    }
    if (!k)
      throw input_error(
          at, "spu note kernel",
          "no kernel " + std::to_string(n.kernel) + " in the trace (its kernels: " + ids + ")");
    const traces::kernel_info& info = k->reader->info();
    const std::uint32_t side = n.n / n.b;
    if (!n.iu_in_grid && (info.grid.x != side || info.grid.y != side || info.grid.z != 1))
      throw input_error(at, "spu note n",
                        "kernel " + std::to_string(n.kernel) + "'s CTA grid (" +
                            std::to_string(info.grid.x) + "," + std::to_string(info.grid.y) + "," +
                            std::to_string(info.grid.z) + ") is not the note's N/b x N/b = " +
                            std::to_string(side) + " x " + std::to_string(side));
    // The runtime sizes its plan from the grid: its last CTA must be in the kernel's trace
    // before that claim is trusted (a text trace is skimmed up to it, once).
    if (!n.iu_in_grid) try {
        (void)k->reader->read_tb(side * side - 1);
      } catch (const input_error& e) {
        throw input_error(at, "spu note n",
                          "kernel " + std::to_string(n.kernel) + "'s grid of " +
                              std::to_string(side) + " x " + std::to_string(side) +
                              " CTAs is not in its trace: " + e.message());
      }
  }
}

void spu_runtime::source_added(const control::tb_source& s) {
  if (s.group != control::tb_source::none) return;
  control::workload* w = work().ptr;
  if (!w) return;
  const control::kernel_run& k = w->kernels()[s.kernel];
  if (!find_kernel_note(w->trace().notes(), k.id, k.reader->source())) return;
  if (m_active) {
    m_waiting.push_back(s.kernel);
    return;
  }
  activate(s.kernel);
}

void spu_runtime::activate(std::uint32_t kernel) {
  control::workload* w = work().ptr;
  const control::kernel_run& k = w->kernels()[kernel];
  m_kernel = kernel;
  m_active = true;
  m_note = find_kernel_note(w->trace().notes(), k.id, k.reader->source());
  const kernel_note& n = *m_note;
  const std::uint32_t p = this->p();
  const std::string name = "kernel " + std::to_string(k.id) + " (" + k.name + ")";
  if (n.iu_in_grid)
    return fail("spu note iu", name +
                                   "'s grid holds the interface units' TBs (iu=ring); on the "
                                   "SPU they are the platform's: generate it with iu=none");
  const std::uint32_t side = n.n / n.b;  // (the grid is N/b x N/b: check_workload)
  if (side % p != 0 && m_vius.empty())
    return fail("-grid dim", name + ": " + std::to_string(side) + " CTAs a side on a " +
                                 std::to_string(p) + " x " + std::to_string(p) +
                                 " grid make passes narrower than the grid, where SMs act as "
                                 "interface units: the platform's SMs have no unit (viu)");
  if (n.global_sync && m_pass_mode.is("overlapped"))
    return fail("pass_mode", name +
                                 " uses the global BAR.BLOCKSYNC, whose barrier spans one "
                                 "pass: run it with pass_mode: by_pass");
  if (n.global_sync && !m_global)
    return fail("spu note sync", name +
                                     " uses the global BAR.BLOCKSYNC; the platform has no "
                                     "global_sync block");
  m_plan = std::make_unique<pass_plan>(p, side, side, n.tiles());
  if (n.global_sync) m_plan->set_global_barriers(n.barriers);
  m_begun.assign(m_plan->passes().size(), false);
  const std::uint32_t sms = p * p;
  m_queue.assign(sms, {});
  for (std::uint32_t s = 0; s < sms; ++s) m_queue[s] = m_plan->queue_of(s);
  m_next.assign(sms, 0);
  m_running.assign(sms, -1);
  m_exited.assign(m_plan->passes().size(), 0);
  m_spills.assign(m_plan->passes().size() * 2 * p, 0);
  m_current_pass = 0;
  m_start_cycle = clock().now_cycle();
  ++m_kernels;
  m_plan_faces += m_plan->off_chip_faces(n.global_sync ? pass_plan::sync_mode::global
                                                       : pass_plan::sync_mode::pairwise);
  m_units_busy = 0;
  for (std::size_t s = 0; s < 4; ++s)
    for (std::uint32_t lane = 0; lane < p; ++lane) {
      unit_control& u = *m_ius[s][lane];
      u.attach(*this, kernel);
      auto ops = program(spu::side(s), lane);
      if (ops.empty()) continue;
      ++m_units_busy;
      u.run_program(std::move(ops));
    }
  m_acting_left.assign(sms, {});
  for (std::uint32_t sm = 0; sm < sms && !m_vius.empty(); ++sm) {
    auto ops = sm_program(sm);
    for (const auto& o : ops)
      if (o.what == interface_unit::op::pass_done) m_acting_left[sm].push_back(o.count);
    if (ops.empty()) continue;
    m_vius[sm]->attach(*this, kernel);
    ++m_units_busy;
    m_vius[sm]->run_program(std::move(ops));
  }
  start_pass(0);
}

void spu_runtime::start_pass(std::uint32_t pass) {
  m_current_pass = pass;
  if (m_note->global_sync) {
    std::size_t active = m_plan->ctas_of(pass).size();
    for (std::size_t s = 0; s < 4; ++s)
      for (std::uint32_t lane = 0; lane < p(); ++lane)
        active += m_plan->role(pass, spu::side(s), lane) != iu_role::idle;
    m_global->set_active(active);
  }
  poke_units();
}

void spu_runtime::poke_units() const {
  for (const auto& side : m_ius)
    for (unit_control* u : side) u->poke();
  for (unit_control* v : m_vius) v->poke();
}

std::vector<interface_unit::op> spu_runtime::program(side s, std::uint32_t lane,
                                                     std::size_t only_pass) const {
  using op = interface_unit::op;
  using why = interface_unit::purpose;
  const kernel_note& n = *m_note;
  const std::uint32_t p = this->p(), b = n.b, tiles = n.tiles();
  const std::uint64_t face = n.face_bytes(), row = 4ull * b, k_row = 4ull * n.k;
  const bool global = n.global_sync;
  const std::uint32_t per_pass = global ? n.barriers : tiles;  // spills a lane makes a pass
  const bool horizontal = s == side::west || s == side::east;
  std::vector<op> ops;
  auto face_op = [&](op::kind what, why purpose, std::uint64_t addr, std::uint64_t stride) {
    op o{what};
    o.why = purpose;
    o.addr = addr;
    o.stride = stride;
    o.rows = b;
    o.row_bytes = static_cast<std::uint32_t>(row);
    ops.push_back(o);
  };
  auto simple = [&](op::kind what, std::uint32_t bytes = 0) {
    op o{what};
    o.row_bytes = bytes;
    ops.push_back(o);
  };
  auto counter_op = [&](op::kind what, std::uint32_t tag, std::uint32_t count) {
    op o{what};
    o.tag = tag;
    o.count = count;
    ops.push_back(o);
  };
  auto spill_addr = [&](std::uint32_t tag, std::uint32_t t) {
    return *m_spill_base + (std::uint64_t(tag) * per_pass + t) * face;
  };
  const op::kind sync_op = global ? op::global_sync : op::link_sync;
  for (std::size_t i = 0; i < m_plan->passes().size(); ++i) {
    const iu_role role = m_plan->role(i, s, lane);
    if (role == iu_role::idle) continue;
    // A partial pass's east or south border is an SM's (sm_program), not the border unit's.
    if (only_pass == all_passes ? m_plan->unit_of(i, s, lane).is_sm : i != only_pass) continue;
    if (m_pass_mode.is("by_pass")) counter_op(op::wait_pass, 0, static_cast<std::uint32_t>(i));
    const pass_plan::pass& ps = m_plan->passes()[i];
    // The lane's CTA row (west, east) or column (north, south) in the virtual grid, and the
    // pass's first and last CTA column and row.
    const std::uint32_t x0 = ps.x * p, y0 = ps.y * p, xe = x0 + ps.cols - 1, ye = y0 + ps.rows - 1;
    const std::uint32_t line = (horizontal ? y0 : x0) + lane;
    // Boundary and output faces: rows of the N x K arrays, row (line * b + r), column k * b.
    const std::uint64_t array = s == side::west    ? n.west
                                : s == side::north ? n.north
                                : s == side::east  ? n.east
                                                   : n.south;
    auto face_at = [&](std::uint32_t k) {
      return array + 4 * (std::uint64_t(line) * b * n.k + std::uint64_t(k) * b);
    };
    // Global sync: the wavefront step at which the lane's tile k is due (Algorithm 1 with
    // the kernel's offset of one step for the loaders: SM (X, Y) works on tile k at step
    // X + Y + k + 1).
    auto due = [&](std::uint32_t k) -> std::uint32_t {
      switch (s) {
        case side::west:
          return x0 + line + k;
        case side::north:
          return line + y0 + k;
        case side::east:
          return xe + line + k + 2;
        default:
          return line + ye + k + 2;
      }
    };
    const bool producer_side = s == side::west || s == side::north;
    if (role == iu_role::load || role == iu_role::store) {
      // Tile k's face: loaded and pushed into the link, or popped and stored.
      auto move_face = [&](std::uint32_t k) {
        if (producer_side) {
          face_op(op::read_face, why::load, face_at(k), k_row);
          simple(op::push, static_cast<std::uint32_t>(face));
        } else {
          simple(op::pop, static_cast<std::uint32_t>(face));
          face_op(op::write_face, why::store, face_at(k), k_row);
        }
      };
      if (!global) {  // the link's sync after a loader's face, before a storer's
        for (std::uint32_t k = 0; k < tiles; ++k) {
          if (!producer_side) simple(op::link_sync);
          move_face(k);
          if (producer_side) simple(op::link_sync);
        }
      } else {  // each face at the step it is due, every barrier met
        std::uint32_t k = 0;
        for (std::uint32_t t = 0; t < n.barriers; ++t) {
          if (k < tiles && t == due(k)) move_face(k++);
          simple(sync_op);
        }
      }
      continue;
    }
    if (role == iu_role::spill) {
      const std::uint32_t tag = spill_tag(i, horizontal, lane);
      for (std::uint32_t t = 0; t < per_pass; ++t) {
        simple(sync_op);
        simple(op::pop, static_cast<std::uint32_t>(face));
        face_op(op::write_face, why::spill, spill_addr(tag, t), row);
        counter_op(op::spilled, tag, 0);
      }
      continue;
    }
    // restore: the faces the producer pass (west or north of this one) spilled, each once
    // written.
    const std::size_t producer = horizontal ? i - 1 : i - m_plan->passes_x();
    const std::uint32_t tag = spill_tag(producer, horizontal, lane);
    for (std::uint32_t t = 0; t < per_pass; ++t) {
      counter_op(op::wait_spills, tag, t + 1);
      face_op(op::read_face, why::restore, spill_addr(tag, t), row);
      simple(op::push, static_cast<std::uint32_t>(face));
      simple(sync_op);
    }
  }
  return ops;
}

std::vector<interface_unit::op> spu_runtime::sm_program(std::uint32_t sm) const {
  using op = interface_unit::op;
  std::vector<op> ops;
  for (std::size_t i = 0; i < m_plan->passes().size(); ++i)
    for (side s : {side::east, side::south})
      for (std::uint32_t lane = 0; lane < p(); ++lane) {
        const pass_plan::unit u = m_plan->unit_of(i, s, lane);
        if (!u.is_sm || u.y * p() + u.x != sm || m_plan->role(i, s, lane) == iu_role::idle)
          continue;
        // After the SM's CTAs of the passes before (the link's syncs come in that order),
        // reading its west (acting east) or north (acting south) link.
        const auto pass = static_cast<std::uint32_t>(i);
        ops.push_back(op{op::wait_turn, {}, 0, 0, 0, 0, 0, pass});
        ops.push_back(op{op::select_link, {}, 0, 0, 0, 0, 0, s == side::east ? 1u : 0u});
        const auto work = program(s, lane, i);
        ops.insert(ops.end(), work.begin(), work.end());
        ops.push_back(op{op::pass_done, {}, 0, 0, 0, 0, 0, pass});
      }
  return ops;
}

bool spu_runtime::sm_turn(const unit_control& u, std::uint32_t pass) const {
  const std::size_t sm = sm_of(u);
  if (m_running[sm] >= 0 && m_runs[std::size_t(m_running[sm])].pass < pass) return false;
  return m_next[sm] >= m_queue[sm].size() || m_plan->pass_index(m_queue[sm][m_next[sm]]) > pass;
}

void spu_runtime::unit_pass_done(const unit_control& u, std::uint32_t pass) {
  auto& left = m_acting_left[sm_of(u)];
  left.erase(std::remove(left.begin(), left.end(), pass), left.end());
}

std::size_t spu_runtime::sm_of(const unit_control& u) const {
  for (std::size_t s = 0; s < m_vius.size(); ++s)
    if (m_vius[s] == &u) return s;
  return 0;
}

void spu_runtime::add_spill(std::uint32_t tag) {
  ++m_spills.at(tag);
  poke_units();
}

control::tb_choice spu_runtime::pick(control::tb_scheduler_view& v) {
  control::tb_choice c;
  if (!m_active) return c;
  int entry = -1;
  const auto& entries = v.entries();
  for (std::size_t e = 0; e < entries.size(); ++e)
    if (entries[e].valid && entries[e].kernel == m_kernel &&
        entries[e].next_tb < entries[e].tbs_total)
      entry = static_cast<int>(e);
  if (entry < 0) return c;
  const bool by_pass = m_pass_mode.is("by_pass");
  const traces::kernel_info& info = work().ptr->kernels()[m_kernel].reader->info();
  for (std::size_t sm = 0; sm < m_queue.size(); ++sm) {
    if (m_running[sm] >= 0 || m_next[sm] >= m_queue[sm].size()) continue;
    const pass_plan::cta cta = m_queue[sm][m_next[sm]];
    const std::uint32_t pass = static_cast<std::uint32_t>(m_plan->pass_index(cta));
    if (by_pass && pass != m_current_pass) continue;
    bool acting = false;  // its unit's work for an earlier pass is not done
    for (std::uint32_t a : m_acting_left[sm]) acting = acting || a < pass;
    if (acting) {
      // (Asked again next cycle: the unit's end is not an event the scheduler hears of.)
      c.retry_at = clock().now_cycle() + 1;
      continue;
    }
    if (!v.fits(sm, std::size_t(entry))) continue;
    const std::uint64_t now = clock().now_cycle();
    for (int r : m_running)
      if (r >= 0 && m_runs[std::size_t(r)].pass < pass) {
        ++m_early_starts;
        break;
      }
    if (!m_begun[pass]) {
      m_begun[pass] = true;
      ++m_passes;
    }
    m_running[sm] = static_cast<int>(m_runs.size());
    m_runs.push_back({cta.x, cta.y, pass, static_cast<std::uint32_t>(sm), now, 0});
    ++m_next[sm];
    ++m_ctas;
    c.entry = entry;
    c.smx = static_cast<int>(sm);
    c.tb = cta.y * info.grid.x + cta.x;
    return c;
  }
  return c;
}

void spu_runtime::tb_completed(std::size_t smx, std::uint32_t) {
  if (smx >= m_running.size() || m_running[smx] < 0) return;
  cta_run& r = m_runs[std::size_t(m_running[smx])];
  r.end = clock().now_cycle();
  m_running[smx] = -1;
  const std::uint32_t pass = r.pass;
  ++m_exited[pass];
  for (unit_control* v : m_vius) v->poke();
  if (m_pass_mode.is("by_pass") && pass == m_current_pass &&
      m_exited[pass] == m_plan->ctas_of(pass).size() && pass + 1 < m_plan->passes().size())
    start_pass(pass + 1);
  maybe_finish();
}

void spu_runtime::unit_finished(unit_control&) {
  if (m_units_busy > 0) --m_units_busy;
  maybe_finish();
}

void spu_runtime::maybe_finish() {
  if (!m_active || m_units_busy > 0) return;
  for (std::size_t s = 0; s < m_queue.size(); ++s)
    if (m_running[s] >= 0 || m_next[s] < m_queue[s].size()) return;
  m_cycles += clock().now_cycle() - m_start_cycle;
  m_active = false;
  if (!m_waiting.empty()) {
    const std::uint32_t k = m_waiting.front();
    m_waiting.pop_front();
    activate(k);
  }
}

std::string spu_runtime::pending_work() const {
  if (!m_active) return {};
  std::size_t left = 0, running = 0;
  for (std::size_t s = 0; s < m_queue.size(); ++s) {
    left += m_queue[s].size() - m_next[s];
    running += m_running[s] >= 0;
  }
  return "kernel " + std::to_string(m_kernel) + ": pass " + std::to_string(m_current_pass) + ", " +
         std::to_string(running) + " CTAs running, " + std::to_string(left) + " to place, " +
         std::to_string(m_units_busy) + " interface units working";
}

GPUTLM_BLOCK("spu_runtime", spu_runtime, "SPU: the runtime placing CTAs in passes", {});

}  // namespace gputlm::spu
