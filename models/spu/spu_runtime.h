// The SPU's runtime (Rajasree thesis §2.2.2, §4.1-4.3, Table 4.1; docs/references.md,
// "SPU runtime and sync"): the block that maps a stencil kernel's virtual CTA grid onto the
// p x p SMs in passes (pass_plan.h) and gives the border units their programs. It supplies
// the SMX scheduler's policy (`smx_scheduler.policy: spu`): CTA (X, Y) only on SM (X mod p,
// Y mod p), one at a time, each SM taking the CTAs of its queue in pass order,
//   by_pass     a pass's CTAs only once every CTA of the pass before has exited;
//   overlapped  an SM takes its next CTA as soon as its current one exits (the thesis's
//               per-SM pass registers, Table 4.1), while its neighbours may still be in the
//               previous pass.
// Each interface unit gets its program at the kernel's start, pass by pass from its role:
// load (west / north: the kernel's boundary faces), store (east / south: its output
// faces), spill (east / south virtual IU: the pass's border faces to a spill region in
// global memory, at `spill_base`), restore (west / north virtual IU: a producer pass's
// spilled faces, each once it has been written: the per-unit spill counters of Table 4.1).
// With the directional sync a unit moves one face per tile and meets its link's sync after
// (loaders) or before (storers) each; with the global sync (Algorithm 1) every active unit
// meets every barrier of the kernel's loop, loaders and storers moving their faces at the
// wavefront steps that need them, virtual IUs one face at every barrier (Algorithm 2).
// Pass by pass, a unit starts a pass's work when the pass starts; the global barrier counts
// the pass's SMs and working units.
//
// What the runtime needs of a kernel beyond its launch (tiling, sync, arrays) is the
// application's SPU note (kernel_note.h). A kernel without one is dispatched as LRR does
// (any SM with room): the SPU still runs ordinary kernels. Bad input (a kernel whose grid
// includes the IUs' TBs, a CTA grid that is not the stencil's, passes narrower than the
// grid, the global sync with overlapped passes) stops the run with a one-line error.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/component.h"
#include "models/control/tb_policy.h"
#include "models/spu/interface_unit.h"
#include "models/spu/kernel_note.h"
#include "models/spu/pass_plan.h"

#include "models/core/neighbour_port.h"
#include "models/spu/global_sync.h"

namespace gputlm::spu {

class spu_runtime : public component, public control::tb_policy_source, public unit_runtime {
 public:
  spu_runtime(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  // Every SPU kernel note of the trace parses, names a kernel of the trace, and matches that
  // kernel's CTA grid (N/b x N/b), before the simulation starts.
  void check_workload() override;
  std::string pending_work() const override;
  std::string added_hardware() const override;
  std::unique_ptr<control::tb_policy> make_tb_policy(std::size_t smxs) override;

  // Bound in the platform: the grid's SMs (their link ports, `sm[i]`), the interface units
  // by side, lane i (`north[i]` ...), the SMs' own units (`viu[i]`, all or none), the global
  // barrier (`sync`); the scheduler asks `policy` for its TB policy.
  std::vector<std::unique_ptr<required_port<core::neighbour_port>>> sm;
  std::array<std::vector<std::unique_ptr<required_port<unit_control>>>, 4> units;  // by side
  std::vector<std::unique_ptr<required_port<unit_control>>> viu;
  optional_port<barrier_control> sync{"sync"};
  sc_core::sc_export<control::tb_policy_source> policy{"policy"};

  // --- The interface units (unit_runtime)
  std::uint64_t spill_count(std::uint32_t tag) const override {
    return tag < m_spills.size() ? m_spills[tag] : 0;
  }
  void add_spill(std::uint32_t tag) override;
  bool pass_started(std::uint32_t pass) const override {
    return m_active && pass <= m_current_pass;
  }
  void unit_finished(unit_control& u) override;
  bool sm_turn(const unit_control& u, std::uint32_t pass) const override;
  void unit_pass_done(const unit_control& u, std::uint32_t pass) override;

  // --- The policy
  control::tb_choice pick(control::tb_scheduler_view& v);
  void tb_completed(std::size_t smx, std::uint32_t kernel);
  void source_added(const control::tb_source& s);
  bool owns(std::uint32_t kernel) const;

  // One CTA's run: where, in which pass, from when to when (cycles).
  struct cta_run {
    std::uint32_t x, y, pass, sm;
    std::uint64_t start, end;
  };
  const std::vector<cta_run>& runs() const { return m_runs; }
  std::uint32_t p() const { return static_cast<std::uint32_t>(*m_p); }
  const pass_plan* plan() const { return m_plan.get(); }

 private:
  void activate(std::uint32_t kernel);
  void fail(const std::string& key, const std::string& why);
  static constexpr std::size_t all_passes = ~std::size_t(0);
  // A border unit's program (the passes it works in), or one pass's work of side s, lane
  // `lane` (an SM acting as that unit).
  std::vector<interface_unit::op> program(side s, std::uint32_t lane,
                                          std::size_t only_pass = all_passes) const;
  // The work of SM `sm`'s unit: the partial passes whose east or south border it is.
  std::vector<interface_unit::op> sm_program(std::uint32_t sm) const;
  std::size_t sm_of(const unit_control& u) const;
  void start_pass(std::uint32_t pass);
  // Wakes every unit that may wait for a pass, a spill or its SM's CTAs.
  void poke_units() const;
  void maybe_finish();
  std::uint32_t spill_tag(std::size_t pass, bool horizontal, std::uint32_t lane) const {
    return static_cast<std::uint32_t>((pass * 2 + (horizontal ? 1 : 0)) * *m_p + lane);
  }

  param<std::uint64_t> m_p{*this, "p", 4, "SMs per side of the grid (p x p SMs, 4p IUs)"};
  choice_param m_pass_mode{*this,
                           "pass_mode",
                           "overlapped",
                           "by_pass (the next pass once all CTAs exited) or overlapped (§4.3)",
                           {"by_pass", "overlapped"}};
  param<std::uint64_t> m_spill_base{*this, "spill_base", 0x7f8000000000ull,
                                    "global-memory address of the spill region"};

  std::array<std::vector<unit_control*>, 4> m_ius;  // by side (pass_plan.h), by lane
  barrier_control* m_global = nullptr;
  std::vector<unit_control*> m_vius;  // per SM: its unit, when the SMs have them

  // The kernel being run.
  bool m_active = false;
  std::uint32_t m_kernel = 0;
  std::deque<std::uint32_t> m_waiting;  // SPU kernels after it
  std::optional<kernel_note> m_note;
  std::unique_ptr<pass_plan> m_plan;
  std::vector<std::vector<pass_plan::cta>> m_queue;       // per SM
  std::vector<std::size_t> m_next;                        // per SM: its next CTA in the queue
  std::vector<int> m_running;                             // per SM: index in m_runs, or -1
  std::vector<std::uint32_t> m_exited;                    // per pass
  std::vector<bool> m_begun;                              // per pass: a CTA of it placed
  std::vector<std::vector<std::uint32_t>> m_acting_left;  // per SM: passes its unit owes
  std::uint32_t m_current_pass = 0;                       // by_pass: the pass running
  std::vector<std::uint64_t> m_spills;                    // per spill tag: faces written
  std::size_t m_units_busy = 0;
  std::vector<cta_run> m_runs;
  std::uint64_t m_start_cycle = 0;

  counter m_kernels, m_passes, m_ctas, m_early_starts, m_cycles;
  counter m_plan_faces;
};

}  // namespace gputlm::spu
