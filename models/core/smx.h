// Streaming multiprocessor (SMX/SM): resident TBs' warps replay their trace instructions
// through fetch into per-warp instruction buffers, warp schedulers (LRR/GTO,
// warp_scheduler.h), a scoreboard on destination and source registers (RAW and WAW,
// scoreboard.h), register banks with operand collection (register_banks.h), functional
// units with latency and initiation interval (functional_units.h), barriers, EXIT, and the
// LDST unit (ldst_unit.h: coalescer, shared-memory banks, requests to the L1 with
// back-pressure). This module is the issue logic that joins them, and the SMX's sockets.
// Parameters follow GPGPU-Sim/Accel-Sim's tested configs (-gpgpu_shader_core_pipeline,
// _cta, _registers, _num_sched_per_core, trace.config latencies): docs/references.md, the
// platform sections and "Core and launch options".
//
// Event-driven: an SMX runs a cycle only when a warp may issue or a unit has work; with no
// issuable warp it sleeps until a memory response, a unit or register becoming free, or a
// new TB wakes it. Cycles slept are accounted in bulk with the stall reason they had.
//
// Device-side launches (CDP.LAUNCH, DTBL.LAUNCH) and CDP.SYNC: launch_unit.h. A warp at
// CDP.SYNC waits, with its TB's other warps, until every kernel the TB launched has
// completed; a TB that must wait saves its context (registers and shared memory) to memory
// and restores it before going on, as real requests on `ldst`.
//
// Sockets: `tbcr` (target): Thread Block Control Register (control_registers.h): capability
// reads and TB launches, answered at TB completion. `ldst` (initiator): memory requests
// (mem_request.h) towards the L1. `launch` (initiator): launch commands to the KMU.
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/common/wakeup.h"
#include "models/control/control_registers.h"
#include "models/core/coalescer.h"
#include "models/core/datapath_gates.h"
#include "models/core/functional_units.h"
#include "models/core/instruction_cache.h"
#include "models/core/launch_unit.h"
#include "models/core/ldst_unit.h"
#include "models/core/neighbour_port.h"
#include "models/core/pipeline_registers.h"
#include "models/core/register_file.h"
#include "models/core/request_priority.h"
#include "models/core/scoreboard.h"
#include "models/core/smx_events.h"
#include "models/core/smx_power.h"
#include "models/core/timer_set.h"
#include "models/core/warp_migration.h"
#include "models/core/warp_scheduler.h"
#include "traces/trace_types.h"

namespace gputlm::core {

// Count, latency and initiation interval of one functional-unit class.
struct unit_params {
  unit_params(component& c, const char* prefix, std::uint64_t count, std::uint64_t latency,
              std::uint64_t initiation);
  param<std::uint64_t> count;
  param<cycles> latency;
  param<cycles> initiation;

 private:
  static std::string key(const char* prefix, const char* what) {
    return std::string(prefix) + "_" + what;
  }
};

// Why a warp scheduler did not issue in a cycle (the first reason that stopped the most
// advanced candidate warp).
enum class stall_reason : std::uint8_t {
  issued,
  no_warp,              // no resident warp with a fetched instruction
  barrier,              // every candidate waits at BAR.SYNC
  scoreboard,           // operands or destination still pending
  unit_busy,            // the functional unit or a collector unit is occupied
  memory_backpressure,  // the LDST unit is still sending an earlier instruction's requests
  count_
};
const char* to_string(stall_reason r);

class smx : public component,
            public block_sync_release,
            public warp_migration,
            public datapath_gates {
 public:
  SC_HAS_PROCESS(smx);
  smx(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;

  tlm_utils::simple_target_socket<smx> tbcr{"tbcr"};
  tlm_utils::simple_initiator_socket<smx> ldst{"ldst"};
  tlm_utils::simple_initiator_socket<smx> launch{"launch"};

  std::uint64_t max_warps() const { return *m_max_threads / *m_warp_size; }
  smx_limits limits() const;
  std::size_t payloads_in_use() const { return m_pool.in_use(); }

  // The SPU: the block joining this SM to its communication buffers and block syncs
  // (neighbour_port.h), bound to `neighbour`; it releases a TB's BAR.BLOCKSYNC through
  // `tb_release`.
  optional_port<neighbour_port> neighbour{"neighbour"};
  // A register-level power controller beside the SMX (register_gate.h): Slumber or WRF.
  optional_port<register_gate> registers{"registers"};
  // A mechanism that ranks its memory requests (request_priority.h): CLAMS.
  optional_port<request_priority> priority{"priority"};
  // Its observation point (smx_events.h): controllers beside it hear what it does.
  observers<smx_events> events{"events"};
  sc_core::sc_export<block_sync_release> tb_release{"tb_release"};
  void block_sync_released(std::uint32_t slot) override;
  // Its datapath's groups (datapath_gates.h): μC-States' gating control unit beside it.
  sc_core::sc_export<datapath_gates> datapath{"datapath"};
  bool tunable(pm::uc_component c) const override;
  void tune(pm::uc_component c, bool down) override;
  bool tuned_down(pm::uc_component c) const override;
  std::vector<power_group> group_power(pm::uc_component c) override;
  double width(pm::uc_component c) const override;
  // Warps leaving and arriving (warp_migration.h): LATOA's unit beside it.
  sc_core::sc_export<warp_migration> migration{"migration"};
  refusal export_refusal(std::uint32_t warp) const override;
  std::uint32_t hops(std::uint32_t warp) const override {
    const tb_state& tb = m_tbs[m_warps[warp].tb_slot];
    return tb.foreign ? tb.hops : 0;
  }
  warp_context export_warp(std::uint32_t warp,
                           const std::vector<tlm::tlm_generic_payload*>& cancelled) override;
  std::uint32_t warp_size() const override { return static_cast<std::uint32_t>(*m_warp_size); }
  std::uint32_t context_registers(std::uint32_t warp) const override {
    const tb_demand d{warp_size(), m_tbs[m_warps[warp].tb_slot].desc.demand.regs_per_thread, 0};
    return d.registers(warp_size());
  }
  bool adopt(const warp_context& ctx) override;
  void remote_warp_done(std::uint32_t tb_slot, std::uint64_t generation,
                        const control::tb_report& issued_there) override;
  // The id of the SMX (its index in the platform).
  std::uint32_t id() const { return m_id; }

 private:
  static constexpr std::uint64_t never = ~0ull;
  static constexpr unsigned num_regs = scoreboard::num_regs;

  using pipe = unit_pipe;

  // The per-warp state the issue loop reads for a warp that is not known blocked is kept in
  // one 64-byte line (the scoreboard lives apart, in m_reg_ready; whether it is blocked in
  // m_blocked): with many SMXs the warps' state does not stay in the host's caches.
  struct alignas(64) warp_state {
    std::uint64_t buffer_ready = 0;                   // cycle the last fetch lands in the buffer
    const traces::warp_instruction* insts = nullptr;  // trace->insts.data()
    std::uint32_t size = 0;                           // trace->insts.size()
    std::uint32_t fetched = 0;                        // instructions fetched into the buffer so far
    std::uint32_t issued = 0;                         // instructions issued so far
    std::uint32_t last_fetch = 0;                     // instructions of that fetch
    std::uint32_t scheduler = 0;
    std::uint32_t tb_slot = 0;
    bool live = false;
    bool at_barrier = false;
    bool at_membar = false;
    bool in_device_api = false;     // waiting for its launch API calls (launch_unit.h)
    std::uint32_t outstanding = 0;  // memory requests in flight
    // Instruction `checked` (an index, none: no instruction) runs on `checked_pipe` and
    // passes the scoreboard from cycle `checked_from` on: its registers' ready times only
    // change when the warp issues (a pending load's `never` is not a known time), so a warp
    // waiting for its unit or a known ready time is re-examined without reading the trace
    // or its registers.
    std::uint32_t checked = traces::warp_instruction::none;
    pipe checked_pipe = pipe::none;
    // Global atomic requests in flight that the warp waits for (atomic_wait: one atomic
    // instruction's, at most 32); it issues nothing while any is.
    std::uint16_t pending_atomics = 0;
    std::uint64_t checked_from = 0;
    // Second line: touched at issue and completion only.
    const traces::warp_trace* trace = nullptr;
    const std::uint64_t* addresses = nullptr;  // trace->addresses.data()
    std::uint64_t drain = 0;                   // cycle the last issued ALU result is written back
    std::uint64_t age = 0;
    // No register's ready time exceeds regs_ready_by, but for the destinations of the
    // pending_dst_loads loads in flight (`never`): the scoreboard passes for any
    // instruction when there are none and regs_ready_by has passed.
    std::uint64_t regs_ready_by = 0;
    std::uint32_t pending_dst_loads = 0;
    // Under a register-level power policy only: when the fetch before the last one landed
    // (when its instructions entered the buffer).
    std::uint64_t prev_buffer_ready = 0;
    // Waiting for an instruction-cache fill (or an MSHR entry): not fetched meanwhile.
    bool imiss = false;
  };
  static_assert(offsetof(warp_state, trace) == 64, "the issue loop's fields fill one line");

  struct tb_state {
    bool live = false;
    tlm::tlm_generic_payload* launch = nullptr;  // the TBCR write, answered at completion
    control::tb_descriptor desc;
    std::shared_ptr<const traces::tb_trace> trace;
    std::vector<std::uint32_t> warps;
    std::uint32_t warps_done = 0;
    std::uint32_t at_barrier = 0;
    std::uint32_t at_device_sync = 0;  // warps waiting at CDP.SYNC
    bool suspended = false;            // at CDP.SYNC with launches running: context saved
    // The BAR.BLOCKSYNC its warps wait at (none: BAR.SYNC), and whether the port has it.
    traces::direction block_sync = traces::direction::none;
    bool block_sync_sent = false;
    std::uint64_t generation = 0;  // tells this TB from the slot's later ones
    control::tb_report report;
    // Warp migration (warp_migration.h). A foreign TB holds one adopted warp: where it
    // came from. `migratable`: whether the kernel's warps may leave (0: not yet known, 1:
    // yes, 2: it has barriers, shared memory or device-side operations).
    bool foreign = false;
    mutable std::uint8_t migratable = 0;
    std::uint32_t away = 0;  // its warps adopted elsewhere (counted done when reported)
    std::uint32_t host = 0, host_tb = 0, hops = 0;
    std::uint64_t host_generation = 0;
    control::tb_report carried;  // issued on the warp's earlier guests
  };

  // TLM
  tlm::tlm_sync_enum tbcr_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  void tbcr_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum ldst_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  tlm::tlm_sync_enum launch_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                               sc_core::sc_time& delay);
  void peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);
  void unblock(const tlm::tlm_generic_payload& gp);

  // Pipeline
  void cycle();
  void launch_tb(tlm::tlm_generic_payload& gp);
  void fetch(std::uint64_t now);
  // Scheduler s's issue step; `why` is the cycle's outcome. Called by cycle() only for a
  // scheduler with warps and outside a quiet period.
  bool try_issue(std::uint32_t s, std::uint64_t now, stall_reason& why);
  stall_reason check(std::uint32_t wi, warp_state& w, std::uint32_t s, std::uint64_t now,
                     int& unit);
  void execute(std::uint32_t wi, warp_state& w, const traces::warp_instruction& in, int unit,
               std::uint64_t now);
  // `wake`: cycles the LDST operation waits for gated components to wake (0 without a
  // gating policy).
  void issue_memory(std::uint32_t wi, warp_state& w, const traces::warp_instruction& in,
                    std::uint64_t now, std::uint64_t wake);
  // Under a gating policy: reports the instruction's use of the SMX's components and
  // returns the longest wake-up among them (smx_power.h).
  std::uint64_t wake_for(std::uint32_t wi, const warp_state& w, const traces::warp_instruction& in,
                         pipe p);
  void send_requests(std::uint64_t now);
  void response(tlm::tlm_generic_payload& gp);
  void release_barrier(tb_state& tb);
  // All of TB `slot`'s live warps wait at its barrier: BAR.SYNC releases them, BAR.BLOCKSYNC
  // goes to the neighbour port.
  void barrier_complete(std::uint32_t slot);
  // CB.PUSH / CB.POP through the shared-memory path to the neighbour port.
  void issue_cb(std::uint32_t wi, warp_state& w, const traces::warp_instruction& in,
                std::uint64_t now, std::uint64_t wake);
  // A CB or BAR.BLOCKSYNC instruction the platform has no SPU path for: bad input, the run
  // stops (true when so).
  bool without_neighbour_port(const tb_state& tb, const traces::warp_instruction& in);
  // Device launches and CDP.SYNC (launch_unit.h).
  void start_launch(std::uint32_t wi, warp_state& w, const traces::warp_instruction& in,
                    std::uint64_t now);
  void launch_request_ended(launch_unit::command_slot& c);
  void launch_done(launch_unit::command_slot& c);
  void device_sync_arrived(std::uint32_t slot);
  void release_device_sync(std::uint32_t slot);
  // Queues the requests that save (store) or restore (load) a TB's context.
  void context_traffic(std::uint32_t slot, bool restore);
  void maybe_finish_warp(std::uint32_t wi);
  // Takes warp slot wi out of its scheduler and the SMX's live warps (it ended or left).
  void retire_warp(std::uint32_t wi);
  // Fills warp slot wi with trace `wt` of TB `slot` from instruction `next` on.
  void start_warp(std::uint32_t wi, std::uint32_t slot, const traces::warp_trace& wt,
                  std::uint32_t regs_per_thread, std::uint32_t next);
  // Whether TB `slot`'s kernel lets a warp leave (computed once per TB from its trace).
  bool migratable(const tb_state& tb) const;
  void finish_tb(std::uint32_t slot);
  // A foreign TB's warp ended (done: its host hears of it) or moved on (warp_migration.h).
  void end_foreign_tb(std::uint32_t slot, bool done);
  pipe pipe_of(const traces::warp_instruction& in) const;
  void account_until(std::uint64_t cycle);
  void wake_at(std::uint64_t cycle);

  param<std::uint64_t> m_warp_size{*this, "warp_size", 32, "threads per warp"};
  param<std::uint64_t> m_max_threads{*this, "max_threads", 1536, "resident threads"};
  param<std::uint64_t> m_max_tbs{*this, "max_tbs", 8, "resident thread blocks"};
  param<std::uint64_t> m_registers{*this, "registers", 32768, "32-bit registers"};
  param<bytes> m_shared_memory{*this, "shared_memory", {48 * 1024}, "shared memory"};
  param<std::uint64_t> m_shared_memory_banks{*this, "shared_memory_banks", 32,
                                             "shared-memory banks (4 B wide)"};
  param<cycles> m_shared_memory_latency{
      *this,
      "shared_memory_latency",
      {3},
      "shared-memory access latency (also the always-hitting constant cache)"};
  param<std::uint64_t> m_warp_schedulers{*this, "warp_schedulers", 2, "warp schedulers"};
  strategy_choice<warp_scheduler_policy> m_scheduler_policy{
      *this, "scheduler_policy", "gto", "warp scheduling policy",
      "warp scheduling policy of every warp scheduler (lrr, gto)"};
  param<std::uint64_t> m_max_issue_per_warp{*this, "max_issue_per_warp", 1,
                                            "instructions one warp may issue per cycle"};
  param<bool> m_dual_issue_different_units{*this, "dual_issue_different_units", false,
                                           "dual issue only to different unit classes"};
  param<bool> m_sub_core_model{*this, "sub_core_model", false,
                               "each scheduler owns its register banks and units"};
  param<std::uint64_t> m_fetch_width{*this, "fetch_width", 1,
                                     "instructions one fetch brings into a warp's buffer"};
  param<std::uint64_t> m_fetch_warps{
      *this, "fetch_warps", 1, "warps fetched per cycle (GPGPU-Sim -gpgpu_inst_fetch_throughput)"};
  param<bool> m_atomic_wait{
      *this, "atomic_wait", false,
      "a warp with global atomics in flight issues nothing until they are answered (GPGPU-Sim)"};
  param<bool> m_fetch_when_empty{*this, "fetch_when_empty", false,
                                 "a warp is fetched only when its buffer is empty (GPGPU-Sim)"};
  param<std::uint64_t> m_ibuffer_entries{*this, "ibuffer_entries", 2,
                                         "instruction buffer entries per warp"};
  param<std::uint64_t> m_register_banks{*this, "register_banks", 16, "register file banks"};
  param<std::uint64_t> m_register_port_throughput{*this, "register_port_throughput", 1,
                                                  "reads per bank per cycle"};
  param<std::uint64_t> m_collectors_sp{*this, "collectors_sp", 0, "SP operand collector units"};
  param<std::uint64_t> m_collectors_sfu{*this, "collectors_sfu", 0, "SFU operand collector units"};
  param<std::uint64_t> m_collectors_mem{*this, "collectors_mem", 0, "MEM operand collector units"};
  param<std::uint64_t> m_collectors_generic{*this, "collectors_generic", 0,
                                            "generic operand collector units"};
  choice_param m_collector_sets{*this,
                                "collector_sets",
                                "shared",
                                "operand collectors as one pool of all units, or per_type: "
                                "GPGPU-Sim's SP, SFU and MEM sets (generic units for any type)",
                                {"shared", "per_type"}};
  list_param m_id_oc_widths{*this,
                            "id_oc_widths",
                            {0, 0, 0},
                            "issue-to-collector pipeline registers per type (SP, SFU, MEM): "
                            "instructions of the type issued a cycle (0: unbounded)"};
  list_param m_oc_ex_widths{*this,
                            "oc_ex_widths",
                            {0, 0, 0},
                            "collector-to-execution pipeline registers per type (SP, SFU, "
                            "MEM): instructions of the type dispatched a cycle (0: unbounded)"};
  unit_params m_sp{*this, "sp", 1, 4, 1};
  unit_params m_sfu{*this, "sfu", 1, 4, 1};
  unit_params m_dp{*this, "dp", 0, 4, 1};
  unit_params m_int{*this, "int", 0, 4, 1};
  unit_params m_tensor{*this, "tensor", 0, 4, 1};
  unit_params m_branch{*this, "branch", 1, 4, 1};
  param<std::uint64_t> m_coalescing_arch{
      *this, "coalescing_arch", 20,
      "coalescing rules: 20 Fermi, 35 Kepler, 60/61 Pascal, 70 Volta"};
  param<bool> m_unified_l1{
      *this, "unified_l1", false,
      "send the L1 each kernel's shared memory on this SMX (bytes per TB x the TBs it holds) "
      "at the kernel's first TB, for an L1 sharing its array with shared memory (unified_size)"};
  param<std::uint64_t> m_l1_requests_per_cycle{
      *this, "l1_requests_per_cycle", 1,
      "requests the LDST unit may send the L1 in one cycle, each once the L1 took the one "
      "before (GPGPU-Sim: -gpgpu_l1_banks with an L1 latency queue)"};
  param<cycles> m_flag_poll_interval{
      *this,
      "flag_poll_interval",
      {8},
      "cycles from a poll's answer that finds its flag short to the next poll (the spin "
      "loop's compare and branch)"};
  // The L1 instruction cache (instruction_cache.h; GPGPU-Sim -gpgpu_cache:il1 and
  // -gpgpu_perfect_inst_const_cache).
  param<bool> m_icache_perfect{*this, "icache_perfect", true,
                               "every fetch hits the instruction cache (GPGPU-Sim "
                               "-gpgpu_perfect_inst_const_cache 1)"};
  param<std::uint64_t> m_icache_sets{*this, "icache_sets", 4, "instruction cache sets"};
  param<std::uint64_t> m_icache_ways{*this, "icache_ways", 4, "instruction cache ways"};
  param<bytes> m_icache_line_size{*this, "icache_line_size", {128}, "instruction cache line"};
  param<std::uint64_t> m_icache_mshr_entries{*this, "icache_mshr_entries", 2,
                                             "instruction lines missing at once"};
  param<std::uint64_t> m_icache_mshr_merge{*this, "icache_mshr_merge", 32,
                                           "warps waiting for one missing instruction line"};
  param<std::uint64_t> m_code_base{*this, "code_base", 0xF0000000,
                                   "address of PC 0 in memory (GPGPU-Sim PROGRAM_MEM_START)"};
  param<std::uint64_t> m_coalescing_segment{*this, "coalescing_segment", 0,
                                            "bytes per coalesced request: 32 (a sector), 64, 128 "
                                            "(a line); 0: the arch's (32 from 60 on)"};

  // State
  std::uint32_t m_id = 0;                          // the index in the SMX array (gpu.smx[i])
  std::uint32_t m_carveout_kernel = ~0u;           // the kernel the last carve-out was sent for
  std::uint64_t m_sent_cycle = ~std::uint64_t(0);  // requests sent to the L1 in that cycle
  std::uint32_t m_sent_in_cycle = 0;
  std::vector<warp_state> m_warps;
  // Per warp slot, densely for the issue loop's scan: a warp known not to issue before
  // `until` (scoreboard on a register with a known ready time, a pending load, a barrier,
  // its unit busy), and why; reset when that changes.
  struct blocked_state {
    std::uint64_t until = 0;
    stall_reason reason = stall_reason::no_warp;
  };
  std::vector<blocked_state> m_blocked;
  scoreboard m_scoreboard;
  std::vector<tb_state> m_tbs;
  std::uint32_t m_resident_tbs = 0;                       // TBs held (the core is idle without one)
  std::vector<std::vector<std::uint32_t>> m_sched_warps;  // per scheduler, oldest first
  // Per scheduler, one bit per warp slot it owns (slot k * schedulers + s is bit k):
  // - live: the warps in its list;
  // - parked: those blocked until an event (a load's data, a barrier's release, a fetch, a
  //   membar) rather than until a known cycle; their stall reasons are counted, for the
  //   cycle's outcome (the highest reason wins, whatever the order);
  // - ldst_wait: those whose next instruction waits for the LDST unit (it still sends an
  //   earlier instruction's requests, or is busy with shared-memory bank cycles); they are
  //   visited again once the unit is free, and meanwhile stall for its current reason.
  // The issue scan visits only the live warps in neither of the other two sets.
  // With them, what the issue step reads of its scheduler, in one place: the list's
  // version (bumped when the list changes), the quiet period, the policy's order rule and
  // the last issuer (a scheduler has at most 64 warps, so the counts fit a byte).
  // Quiet period: every warp not waiting for the LDST unit is known blocked before
  // `quiet_until` (the earliest m_blocked entry), so a cycle before then, while the LDST
  // unit is busy if some warps wait for it, has outcome `quiet_reason` (with the unit's
  // state of that cycle for its waiters) without looking at the warps. Valid while the
  // list's version is `quiet_version`; unblocking one of its warps clears it. The struct
  // fits one host cache line.
  struct alignas(64) sched_masks {
    std::uint64_t live = 0, parked = 0, ldst_wait = 0;
    std::uint64_t version = 0;
    std::uint64_t quiet_until = 0, quiet_version = ~0ull;
    std::uint32_t last = 0;
    std::array<std::uint8_t, std::size_t(stall_reason::count_)> parked_by_reason{};
    stall_reason quiet_reason = stall_reason::no_warp;
    warp_scheduler_policy::order_rule rule = warp_scheduler_policy::order_rule::custom;
    bool has_last = false;
    stall_reason parked_reason() const {  // the highest reason among the parked warps
      for (std::size_t r = parked_by_reason.size(); r-- > 1;)
        if (parked_by_reason[r]) return stall_reason(r);
      return stall_reason::issued;
    }
  };
  static_assert(sizeof(sched_masks) == 64, "one host cache line per scheduler");
  std::vector<sched_masks> m_sched_masks;
  bool m_rf_managed = false;  // a register-level power controller is bound (register_gate.h)
  // For policies with a list order: each warp's position in its scheduler's order.list, as
  // of that list's version (a scheduler has at most 64 warps).
  struct order_positions {
    std::uint64_t version = ~0ull;
    const std::uint32_t* list = nullptr;
  };
  std::vector<order_positions> m_order_positions;
  std::vector<std::uint8_t> m_position;  // by warp slot
  // Warp slot wi belongs to scheduler wi mod schedulers, as bit wi / schedulers of its
  // masks; kept per slot (sized by validate()) so that the hot paths do not divide.
  struct slot_home {
    std::uint32_t sched = 0;
    std::uint32_t bit = 0;  // below 64 (checked by validate())
  };
  std::vector<slot_home> m_slot_home;
  std::uint64_t sched_bit(std::uint32_t wi) const { return 1ull << m_slot_home[wi].bit; }
  sched_masks& masks_of(std::uint32_t wi) { return m_sched_masks[m_slot_home[wi].sched]; }
  // Every change of m_blocked goes through here, so that the parked bits follow it.
  void set_blocked(std::uint32_t wi, std::uint64_t until, stall_reason why) {
    blocked_state& b = m_blocked[wi];
    if (b.until == never || until == never) {
      sched_masks& m = masks_of(wi);
      if (b.until == never) {
        m.parked &= ~sched_bit(wi);
        --m.parked_by_reason[std::size_t(b.reason)];
      }
      if (until == never) {
        m.parked |= sched_bit(wi);
        ++m.parked_by_reason[std::size_t(why)];
      }
    }
    b = {until, why};
  }
  // Why an instruction for the LDST unit cannot issue at `now` (issued: it can).
  stall_reason ldst_state(std::uint64_t now) const {
    if (m_ldst.queued() != 0 || m_ldst.blocked())
      return m_ldst.blocked() ? stall_reason::memory_backpressure : stall_reason::unit_busy;
    return m_ldst.busy_until() > now ? stall_reason::unit_busy : stall_reason::issued;
  }
  void unblock_warp(std::uint32_t wi) {
    set_blocked(wi, 0, m_blocked[wi].reason);
    masks_of(wi).quiet_until = 0;
  }
  // Whether warp wi is parked by the scoreboard on its next instruction and one of that
  // instruction's registers still waits for a load (`never`): check() would park it again.
  bool waits_for_a_load(std::uint32_t wi) const;
  // The live warps and those waiting for memory (smx_events.h): parked until a load
  // returns, or waiting for an LDST unit the L1 pushes back on.
  warp_census census() const {
    warp_census c{m_live_warps, 0};
    const bool pushed_back = m_ldst.blocked();
    for (const sched_masks& m : m_sched_masks) {
      c.memory_wait += m.parked_by_reason[std::size_t(stall_reason::scoreboard)];
      if (pushed_back) c.memory_wait += __builtin_popcountll(m.ldst_wait & ~m.parked);
    }
    return c;
  }
  std::array<unit_pool, static_cast<std::size_t>(pipe::count_)> m_units;
  register_file m_rf{"rf"};
  std::unique_ptr<smx_power> m_power;
  // Under a register-level power controller: what the warp's next instruction says about how
  // long its registers stay unused (register_gate.h), and when the instruction
  // `i` of a warp landed in its buffer.
  register_file::outlook outlook_of(std::uint32_t wi, const warp_state& w,
                                    std::uint64_t now) const {
    return outlook_of(wi, w, now, w.issued);
  }
  // The same for the warp's instruction j (not yet issued) from what the scoreboard holds
  // now: the cycles until its operands are ready (the instructions before it aside).
  register_file::outlook outlook_of(std::uint32_t wi, const warp_state& w, std::uint64_t now,
                                    std::uint32_t j) const;
  static std::uint64_t landed(const warp_state& w, std::uint32_t i) {
    return i + w.last_fetch >= w.fetched ? w.buffer_ready : w.prev_buffer_ready;
  }
  static const traces::warp_instruction* next_of(const warp_state& w) {
    return w.issued < w.size ? &w.insts[w.issued] : nullptr;
  }
  void load_written(const ldst_unit::pending_load& pl, warp_state& w, std::uint64_t now);
  ldst_unit m_ldst;
  timer_set m_timers;
  payload_pool m_pool;
  tlm_utils::peq_with_cb_and_phase<smx> m_peq;
  wakeup m_wake;
  std::uint64_t m_last_cycle = never;
  std::uint64_t m_accounted = 0;  // cycles before this are accounted
  std::uint64_t m_age = 0;
  std::uint32_t m_fetch_next = 0;
  // Warps fetched a cycle: fetch_warps, halved while fetch/decode is tuned down.
  std::uint64_t m_fetch_limit = 1;
  bool m_ldst_tuned_down = false;  // the LD/ST unit's address generation on 16 lanes
  // The issue-to-collector (id_oc_widths) and collector-to-execution (oc_ex_widths)
  // registers of each type (SP, SFU, MEM).
  pipeline_registers m_idoc, m_ocex;
  // The collector set / pipeline-register type of a pipe (0 SP, 1 SFU, 2 MEM).
  static std::uint32_t type_of(unit_pipe p) { return std::uint32_t(datapath_pipe(p)); }
  bool m_sch_tuned_down = false;  // the upper half of the schedulers served by the lower
  std::uint32_t m_live_warps = 0;
  std::vector<stall_reason> m_reason;  // per scheduler, of the last processed cycle
  bool m_work_next_cycle = false;
  std::vector<std::uint32_t> m_draining;   // warps done issuing, results still in flight
  std::vector<std::uint64_t> m_fetchable;  // bit per warp slot: has room and instructions to fetch
  // The L1 instruction cache; null with icache_perfect.
  std::unique_ptr<instruction_cache> m_icache;
  // The fetch of warp `wi` missed its instruction-cache line: false if it may proceed (a hit).
  bool fetch_misses(std::uint32_t wi, warp_state& w);
  void instruction_filled(tlm::tlm_generic_payload& gp);
  std::uint64_t code_address(std::uint32_t pc) const { return *m_code_base + pc; }
  void update_fetchable(std::uint32_t wi);
  std::array<pipe, 11> m_pipe_of_class{};  // by traces::unit_class, after the unit fallbacks
  // Latency and initiation interval of each traces::unit_class: its own class's parameters
  // also where its instructions run on another class's units (GPGPU-Sim times an
  // instruction by its op's latency and initiation, whichever pipeline takes it).
  struct class_timing {
    std::uint32_t latency = 0, initiation = 1;
  };
  std::array<class_timing, 11> m_timing_of_class{};

  // Statistics
  counter m_active_cycles;
  counter m_warp_instructions;
  counter m_thread_instructions;
  counter m_resident_warp_cycles;  // sum over active cycles of resident warps
  std::array<counter, static_cast<std::size_t>(stall_reason::count_)> m_stalls;
  std::array<counter, 11> m_mix;  // by traces::unit_class
  counter m_memory_requests;
  // Flags (flag=V in the trace): polls sent, and of them those that found the word short.
  counter m_flag_polls, m_flag_repolls;
  struct repoll {
    std::uint64_t due;
    std::uint32_t record;  // the poll's pending-load record
  };
  std::vector<repoll> m_repolls;
  counter m_shared_bank_cycles;
  counter m_tbs_completed;
  counter m_l1_flushes;
  counter m_device_launches;
  launch_unit m_launch{*this};
  // Dynamic parallelism (written for traces with device launches).
  counter m_launch_commands, m_api_cycles, m_device_syncs, m_syncs_waited, m_context_bytes;
  counter m_activations;
  traced_value m_trace_active_warps;
  traced_value m_trace_issued;
  traced_value m_trace_stall;
  traced_value m_trace_tbs;
  warp_census m_published;  // the census last published (warps_waiting)
};

}  // namespace gputlm::core
