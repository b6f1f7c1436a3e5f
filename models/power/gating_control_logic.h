// The decision logic of μC-States' Gating Control Unit (Kayiran et al., "μC-States:
// Fine-grained GPU Datapath Power Management", PACT 2016, §2.2 and §4, Algorithm 1; seed
// 002): every interval T (2048 cycles) it decides one of three phases in turn from the
// interval's counters, so each component is decided again every 3T:
//   1. the execution units: EX_SP and EX_SFU are tuned down while their utilization is
//      below th_U (0.15); EX_LDST while its response time by Little's law, W = J / λ, is
//      above th_RT (100 cycles): the memory system, not the LD/ST pipeline, is the bottleneck;
//   2. each pipeline's IDOC and OCEX registers and operand collectors: down while less
//      utilized than that pipeline's execution units;
//   3. the front end: the schedulers down while their utilization is below sch_factor x
//      th_U (0.30) and, for every pipeline, their issues to it are below its execution
//      units' utilization; then the fetch/decode stage down while less utilized than the
//      schedulers. Otherwise both up.
// Utilization is the Utilization Law's: busy width-cycles over the component's total width
// (both groups, whether tuned down or not) times T. Tuning down gates group 1 of a
// component (group 0 is always on); what that means for the timing and the power is the
// SMX's and the power model's. Plain C++; a controller beside the SMX feeds it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gputlm::pm {

// The 14 components of a big core's datapath (Fig. 3): fetch/decode, the schedulers, and
// per pipeline (SP, SFU, LD/ST) the issue-to-collector registers, the operand collectors,
// the collector-to-execute registers and the execution units.
enum class uc_component : std::uint8_t {
  ifid,
  sch,
  idoc_sp,
  oc_sp,
  ocex_sp,
  ex_sp,
  idoc_sfu,
  oc_sfu,
  ocex_sfu,
  ex_sfu,
  idoc_ldst,
  oc_ldst,
  ocex_ldst,
  ex_ldst,
  count_
};
enum class uc_pipe : std::uint8_t { sp, sfu, ldst, count_ };
constexpr std::size_t uc_components = std::size_t(uc_component::count_);
constexpr std::size_t uc_pipes = std::size_t(uc_pipe::count_);
const char* to_string(uc_component c);
// A pipeline's component of a kind (idoc_sp + 4 x pipe ...).
uc_component uc_stage(uc_component sp_stage, uc_pipe p);
// The inverse: the pipeline (0 SP, 1 SFU, 2 LD/ST) of component c if it is of the kind whose
// SP instance is `sp_stage`, or -1.
int uc_pipe_of(uc_component c, uc_component sp_stage);

// One interval's counters, as the controller reads them when a phase decides.
struct uc_interval {
  std::uint64_t cycles = 0;                   // T
  std::array<double, uc_components> busy{};   // busy width-cycles per component
  std::array<double, uc_components> width{};  // the component's total width (both groups)
  std::array<double, uc_pipes> sch_busy{};    // scheduler issues to each pipeline (SCH_k)
  double job_cycles = 0;       // Σ over the cycles of the warps waiting on a load (J x T)
  std::uint64_t arrivals = 0;  // warp instructions that entered EX_LDST (λ x T)

  // busy / (width x T); 0 for a component without width or an empty interval.
  double utilization(uc_component c) const;
  // The schedulers' issues to pipeline k over their width x T (the U[SCH] parts).
  double sch_utilization(uc_pipe k) const;
  // EX_LDST's response time by Little's law, W = J / λ = job_cycles / arrivals; 0 without
  // arrivals (not memory-system bound).
  double response_time() const;
};

// The time integral of a count that changes at events (the warps waiting on a load):
// Little's law's J x T without counting every cycle.
class job_integral {
 public:
  // The count is `count` from cycle `now` on.
  void set(std::uint64_t now, std::uint32_t count);
  // The integral since the last take (or the start) up to `now`; starts the next.
  double take(std::uint64_t now);

 private:
  std::uint64_t m_since = 0;
  std::uint32_t m_count = 0;
  double m_sum = 0;
};

class gating_control_logic {
 public:
  struct params {
    double th_u = 0.15;     // utilization below which EX_SP, EX_SFU are tuned down
    double th_rt = 100;     // response time (cycles) above which EX_LDST is tuned down
    double sch_factor = 2;  // the schedulers' threshold is sch_factor x th_u
  };
  explicit gating_control_logic(params p) : m_p(p) {}

  // The phase the next decision runs (1, 2, 3).
  int phase() const { return m_phase; }
  // Decides the current phase from an interval's counters and moves to the next phase;
  // appends the components whose state changed to `changed`.
  void decide(const uc_interval& iv, std::vector<uc_component>& changed);
  bool tuned_down(uc_component c) const { return m_down[std::size_t(c)]; }
  std::uint64_t tune_downs(uc_component c) const { return m_tune_downs[std::size_t(c)]; }

 private:
  void set(uc_component c, bool down, std::vector<uc_component>& changed);

  params m_p;
  int m_phase = 1;
  std::array<bool, uc_components> m_down{};
  std::array<std::uint64_t, uc_components> m_tune_downs{};
};

}  // namespace gputlm::pm
