#include "models/core/smx.h"

#include <algorithm>
#include <cstring>

#include "models/base/input_error.h"
#include "models/common/block_factory.h"
#include "models/control/register_layout.h"
#include "models/control/workload.h"
#include "models/power/power_component.h"

namespace gputlm::core {

using traces::warp_instruction;

const char* to_string(stall_reason r) {
  switch (r) {
    case stall_reason::issued:
      return "issued";
    case stall_reason::no_warp:
      return "no_warp";
    case stall_reason::barrier:
      return "barrier";
    case stall_reason::scoreboard:
      return "scoreboard";
    case stall_reason::unit_busy:
      return "unit_busy";
    case stall_reason::memory_backpressure:
      return "memory_backpressure";
    case stall_reason::count_:
      break;
  }
  return "?";
}

namespace {
// Bounds that keep an SMX's state a sane size (checked before anything is sized).
constexpr std::uint64_t max_registers = std::uint64_t(1) << 20;
constexpr std::uint64_t max_shared_memory = std::uint64_t(16) << 20;
constexpr std::uint64_t max_register_banks = 1024;
constexpr std::uint64_t max_threads_bound = 4096;  // 128 warps of 32
constexpr std::uint64_t max_tbs_bound = 1024;
constexpr std::uint64_t max_warp_schedulers = 64;
constexpr std::uint64_t max_units = 1024;  // per unit class, and operand collectors per kind

const char* k_unit_names[] = {"sp",     "sfu",     "int",  "dp",      "tensor", "ldst",
                              "branch", "barrier", "exit", "texture", "other"};

}  // namespace

unit_params::unit_params(component& c, const char* prefix, std::uint64_t n, std::uint64_t latency,
                         std::uint64_t initiation)
    : count(c, key(prefix, "units").c_str(), n, "units of this class"),
      latency(c, key(prefix, "latency").c_str(), {latency}, "result latency"),
      initiation(c, key(prefix, "initiation").c_str(), {initiation},
                 "cycles between issues to one unit") {}

smx::smx(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx), m_peq(this, &smx::peq_cb) {
  declare_socket("tbcr", tbcr);
  declare_socket("ldst", ldst);
  declare_socket("launch", launch);
  declare_port("neighbour", neighbour);
  declare_port("registers", registers);
  declare_port("priority", priority);
  declare_port("events", events);
  tb_release.bind(*this);
  declare_export("tb_release", tb_release);
  migration.bind(*this);
  declare_export("migration", migration);
  datapath.bind(*this);
  declare_export("datapath", datapath);
  launch.register_nb_transport_bw(this, &smx::launch_bw);
  tbcr.register_nb_transport_fw(this, &smx::tbcr_fw);
  tbcr.register_b_transport(this, &smx::tbcr_b);
  ldst.register_nb_transport_bw(this, &smx::ldst_bw);
  m_id = index_in_name(this->name());
  // Issues after the memory side has delivered at the same edge (edge_scheduler.h).
  m_wake.bind<smx, &smx::cycle>(this, clock(), edge_stage::issue);

  add_stat("active_cycles", m_active_cycles, "cycles with at least one resident warp");
  add_stat(
      "idle_cycles",
      [this] { return double(clock().now_cycle()) - double(m_active_cycles.value()); },
      "cycles with no resident warp");
  add_stat("warp_instructions", m_warp_instructions, "warp instructions issued");
  add_stat("thread_instructions", m_thread_instructions, "active lanes of issued instructions");
  add_stat(
      "achieved_occupancy",
      [this] {
        return m_active_cycles.value() == 0
                   ? 0.0
                   : double(m_resident_warp_cycles.value()) /
                         (double(m_active_cycles.value()) * double(max_warps()));
      },
      "average resident warps per active cycle / max warps");
  for (std::size_t r = 0; r < m_stalls.size(); ++r)
    add_stat(std::string("issue_") + to_string(static_cast<stall_reason>(r)), m_stalls[r],
             "scheduler-cycles (active cycles x schedulers) by issue outcome");
  for (std::size_t u = 0; u < m_mix.size(); ++u)
    add_stat(std::string("mix_") + k_unit_names[u], m_mix[u], "warp instructions by unit class");
  add_stat("memory_requests", m_memory_requests, "coalesced requests sent to the L1");
  add_stat("flag_polls", m_flag_polls,
           "polls of status words the trace marks with a flag (flag=V), each a request");
  add_stat("flag_repolls", m_flag_repolls,
           "of the polls, those that found the word short of their flag and went again");
  add_stat("shared_memory_cycles", m_shared_bank_cycles,
           "LDST cycles of shared-memory accesses (bank conflicts included)");
  add_stat(
      "register_bank_conflicts", [this] { return double(m_rf.conflicts()); },
      "operand reads delayed by a busy register bank");
  add_stat("tbs_completed", m_tbs_completed, "thread blocks completed");
  add_stat("l1_flushes", m_l1_flushes, "flush requests sent to the L1 at kernel ends");
  add_stat("device_launches", m_device_launches,
           "CDP/DTBL launch instructions issued (one per launching lane)");
  const std::string dp = control::dynamic_parallelism_stats;
  add_stat("launch_commands", m_launch_commands, "launch commands sent (a warp's run of launches)",
           dp);
  add_stat("launch_api_cycles", m_api_cycles,
           "cycles of launch API calls, summed over the commands", dp);
  add_stat("device_syncs", m_device_syncs, "CDP.SYNCs reached by a whole thread block", dp);
  add_stat("device_syncs_waited", m_syncs_waited,
           "of those, syncs that waited for launches (context saved and restored)", dp);
  add_stat("context_bytes", m_context_bytes, "bytes of TB context saved and restored at CDP.SYNC",
           dp);
  add_stat("activations", m_activations, "cycles the SMX was evaluated (the rest it slept)");
  // The register file's power elements come from these two: bounded before it is declared.
  m_registers.require(*m_registers <= max_registers,
                      "must be at most " + std::to_string(max_registers));
  m_register_banks.require(*m_register_banks <= max_register_banks,
                           "must be at most " + std::to_string(max_register_banks));
  m_power = std::make_unique<smx_power>(*this, *m_registers * 4,
                                        static_cast<std::uint32_t>(*m_register_banks));
}

// A register-level power controller bound beside the SMX takes its register file over: the
// accesses go to it from now on, and it gates the file's power component.
void smx::validate_bound() {
  if (!registers) return;
  registers->take_over(
      m_power->register_file(),
      static_cast<std::uint32_t>(*m_registers / std::max<std::uint64_t>(1, *m_warp_size)),
      static_cast<std::uint32_t>(max_warps()), static_cast<std::uint32_t>(*m_register_banks));
  m_rf.manage(*registers.get(), static_cast<std::uint32_t>(max_warps()),
              static_cast<std::uint32_t>(*m_ibuffer_entries));
  m_rf_managed = true;
  m_power->register_file_managed();
}

smx_limits smx::limits() const {
  smx_limits l;
  l.max_tbs = static_cast<std::uint32_t>(*m_max_tbs);
  l.max_threads = static_cast<std::uint32_t>(*m_max_threads);
  l.warp_size = static_cast<std::uint32_t>(*m_warp_size);
  l.registers = static_cast<std::uint32_t>(*m_registers);
  l.shared_memory = *m_shared_memory;
  return l;
}

void smx::validate() {
  m_warp_size.require(*m_warp_size == 32, "traces are recorded for 32-lane warps");
  m_max_threads.require(
      *m_max_threads >= *m_warp_size && *m_max_threads % *m_warp_size == 0,
      "must be a positive multiple of warp_size (" + std::to_string(*m_warp_size) + ")");
  m_max_threads.require(*m_max_threads <= max_threads_bound,
                        "must be at most " + std::to_string(max_threads_bound) + " (" +
                            std::to_string(max_threads_bound / *m_warp_size) + " warps)");
  m_max_tbs.require(*m_max_tbs >= 1, "must be at least 1");
  m_max_tbs.require(*m_max_tbs <= max_tbs_bound,
                    "must be at most " + std::to_string(max_tbs_bound));
  m_registers.require(*m_registers >= 1, "must be at least 1");
  // (the largest GPU's is 228 KiB: a larger one is a typo, or bytes read as KiB)
  m_shared_memory.require(m_shared_memory->value <= max_shared_memory, "must be at most 16MiB");
  m_shared_memory_banks.require(*m_shared_memory_banks >= 1 && *m_shared_memory_banks <= 64,
                                "must be 1 to 64");
  m_warp_schedulers.require(*m_warp_schedulers >= 1, "must be at least 1");
  m_warp_schedulers.require(*m_warp_schedulers <= max_warp_schedulers,
                            "must be at most " + std::to_string(max_warp_schedulers));
  m_max_threads.require(max_warps() <= 64 * *m_warp_schedulers,
                        "gives more than 64 warps per warp scheduler (warp_schedulers is " +
                            std::to_string(*m_warp_schedulers) + ")");
  // (per-cycle widths and the instruction buffer: an SMX holds at most 128 warps)
  m_max_issue_per_warp.require(*m_max_issue_per_warp >= 1 && *m_max_issue_per_warp <= 64,
                               "must be 1 to 64");
  m_fetch_width.require(*m_fetch_width >= 1 && *m_fetch_width <= 64, "must be 1 to 64");
  m_fetch_warps.require(*m_fetch_warps >= 1 && *m_fetch_warps <= 128, "must be 1 to 128");
  m_fetch_limit = *m_fetch_warps;
  m_ibuffer_entries.require(*m_ibuffer_entries >= 1 && *m_ibuffer_entries <= 1024,
                            "must be 1 to 1024");
  m_register_banks.require(*m_register_banks >= 1, "must be at least 1");
  for (list_param* w : {&m_id_oc_widths, &m_oc_ex_widths}) {
    w->require((*w)->size() <= pipeline_registers::types, "at most 3 widths (SP, SFU, MEM)");
    for (std::uint64_t x : **w) w->require(x <= 64, "a width must be at most 64");
  }
  m_register_port_throughput.require(*m_register_port_throughput <= 64,
                                     "must be at most 64 (0 reads as 1)");
  for (const unit_params* u : {&m_sp, &m_sfu, &m_dp, &m_int, &m_tensor, &m_branch})
    u->count.require(*u->count <= max_units, "must be at most " + std::to_string(max_units));
  m_sp.count.require(*m_sp.count >= 1, "an SMX needs at least one SP unit");
  m_sfu.count.require(*m_sfu.count >= 1,
                      "an SMX needs at least one SFU (it also runs DP when dp_units is 0)");
  for (const param<std::uint64_t>* c :
       {&m_collectors_sp, &m_collectors_sfu, &m_collectors_mem, &m_collectors_generic})
    c->require(**c <= max_units, "must be at most " + std::to_string(max_units));
  for (const unit_params* u : {&m_sp, &m_sfu, &m_dp, &m_int, &m_tensor, &m_branch})
    u->initiation.require(*u->initiation >= 1, "initiation interval must be at least 1 cycle");
  const std::uint64_t archs[] = {20, 35, 60, 61, 70};
  m_coalescing_arch.require(
      std::find(std::begin(archs), std::end(archs), *m_coalescing_arch) != std::end(archs),
      "must be one of 20, 35, 60, 61, 70");
  m_l1_requests_per_cycle.require(*m_l1_requests_per_cycle >= 1 && *m_l1_requests_per_cycle <= 64,
                                  "must be 1 to 64");
  m_coalescing_segment.require(*m_coalescing_segment == 0 || *m_coalescing_segment == 32 ||
                                   *m_coalescing_segment == 64 || *m_coalescing_segment == 128,
                               "must be 0 (the coalescing arch's), 32, 64 or 128");
  m_icache_sets.require(*m_icache_sets >= 1 && *m_icache_sets <= 65536, "must be 1 to 65536");
  m_icache_ways.require(*m_icache_ways >= 1 && *m_icache_ways <= 1024, "must be 1 to 1024");
  const std::uint64_t iline = m_icache_line_size->value;
  m_icache_line_size.require(iline == 32 || iline == 64 || iline == 128,
                             "must be 32B, 64B or 128B (within a memory line)");
  m_icache_mshr_entries.require(*m_icache_mshr_entries >= 1 && *m_icache_mshr_entries <= 1024,
                                "must be 1 to 1024");
  m_icache_mshr_merge.require(*m_icache_mshr_merge >= 1 && *m_icache_mshr_merge <= 1024,
                              "must be 1 to 1024");
  m_code_base.require(*m_code_base <= (std::uint64_t(1) << 56), "must be below 2^56");

  // The geometry is valid: size the state.
  if (!*m_icache_perfect && !m_icache) {
    m_icache = std::make_unique<instruction_cache>();
    m_icache->configure(
        static_cast<std::uint32_t>(*m_icache_sets), static_cast<std::uint32_t>(*m_icache_ways),
        static_cast<std::uint32_t>(iline), static_cast<std::uint32_t>(*m_icache_mshr_entries),
        static_cast<std::uint32_t>(*m_icache_mshr_merge));
    // (Only a modelled cache has statistics: a perfect one's runs keep theirs unchanged.)
    add_stat("icache_accesses", m_icache->accesses, "instruction-cache lookups by the fetch unit");
    add_stat("icache_hits", m_icache->hits, "instruction-cache lookups that hit");
    add_stat("icache_misses", m_icache->misses, "instruction lines read from L2");
    add_stat("icache_merged", m_icache->merged,
             "lookups of a line already missing (the warp waits for its fill)");
    add_stat("icache_reservation_fails", m_icache->reservation_fails,
             "lookups that found every instruction MSHR entry busy (the warp waits for a fill)");
  }
  const std::uint32_t sched = static_cast<std::uint32_t>(*m_warp_schedulers);
  m_warps.assign(max_warps(), warp_state{});
  m_scoreboard.resize(max_warps());
  m_blocked.assign(max_warps(), blocked_state{});
  m_fetchable.assign((max_warps() + 63) / 64, 0);
  m_tbs.assign(*m_max_tbs, tb_state{});
  m_launch.validate();
  m_launch.resize(max_warps(), *m_max_tbs);
  m_sched_warps.assign(sched, {});
  m_sched_masks.assign(sched, sched_masks{});
  m_slot_home.resize(max_warps());
  for (std::uint32_t wi = 0; wi < max_warps(); ++wi)
    m_slot_home[wi] = {static_cast<std::uint32_t>(wi % sched),
                       static_cast<std::uint32_t>(wi / sched)};
  m_order_positions.assign(sched, order_positions{});
  m_position.assign(max_warps(), 0);
  m_reason.assign(sched, stall_reason::no_warp);
  m_scheduler_policy->resize(sched);
  for (std::uint32_t s = 0; s < sched; ++s) m_sched_masks[s].rule = m_scheduler_policy->rule();
  auto pool = [&](const unit_params& u) {
    return unit_pool(static_cast<std::uint32_t>(*u.count), static_cast<std::uint32_t>(*u.latency),
                     static_cast<std::uint32_t>(*u.initiation), sched, *m_sub_core_model);
  };
  m_units[std::size_t(pipe::sp)] = pool(m_sp);
  m_units[std::size_t(pipe::sfu)] = pool(m_sfu);
  m_units[std::size_t(pipe::dp)] = pool(m_dp);
  m_units[std::size_t(pipe::int_alu)] = pool(m_int);
  m_units[std::size_t(pipe::tensor)] = pool(m_tensor);
  m_units[std::size_t(pipe::branch)] = pool(m_branch);
  const std::uint64_t collectors =
      *m_collectors_sp + *m_collectors_sfu + *m_collectors_mem + *m_collectors_generic;
  m_rf.configure(static_cast<std::uint32_t>(*m_register_banks),
                 static_cast<std::uint32_t>(*m_register_port_throughput), sched, *m_sub_core_model,
                 static_cast<std::uint32_t>(collectors));
  if (m_collector_sets.is("per_type")) {
    const std::uint32_t sets[3] = {std::uint32_t(*m_collectors_sp),
                                   std::uint32_t(*m_collectors_sfu),
                                   std::uint32_t(*m_collectors_mem)};
    m_rf.banks().set_collector_sets(sets, std::uint32_t(*m_collectors_generic));
  }
  for (auto [regs, widths] : {std::pair{&m_idoc, &m_id_oc_widths}, {&m_ocex, &m_oc_ex_widths}}) {
    std::uint32_t w[pipeline_registers::types] = {};
    for (std::size_t k = 0; k < (*widths)->size() && k < pipeline_registers::types; ++k)
      w[k] = std::uint32_t((**widths)[k]);
    regs->configure(w);
  }
  m_ldst.configure(static_cast<std::uint32_t>(*m_coalescing_arch),
                   static_cast<std::uint32_t>(*m_coalescing_segment),
                   static_cast<std::uint32_t>(*m_shared_memory_banks));

  // Unit classes without units of their own run elsewhere: INT and `other` on SP when there
  // is no INT unit, DP on the SFU, tensor and branch on SP (GPGPU-Sim's issue logic).
  auto or_else = [&](pipe p, pipe fallback) {
    return m_units[std::size_t(p)].exists() ? p : fallback;
  };
  using uc = traces::unit_class;
  auto set = [&](uc c, pipe p) { m_pipe_of_class[std::size_t(c)] = p; };
  set(uc::sp, pipe::sp);
  set(uc::sfu, pipe::sfu);
  set(uc::int_alu, or_else(pipe::int_alu, pipe::sp));
  set(uc::other, or_else(pipe::int_alu, pipe::sp));
  set(uc::dp, or_else(pipe::dp, pipe::sfu));
  set(uc::tensor, or_else(pipe::tensor, pipe::sp));
  set(uc::branch, or_else(pipe::branch, pipe::sp));
  set(uc::ldst, pipe::ldst);
  set(uc::texture, pipe::ldst);
  set(uc::barrier, pipe::none);
  set(uc::exit, pipe::none);
  for (std::size_t c = 0; c < m_timing_of_class.size(); ++c) {  // the pipeline's own timing,
    const pipe p = m_pipe_of_class[c];
    if (p != pipe::none && p != pipe::ldst)
      m_timing_of_class[c] = {m_units[std::size_t(p)].latency(),
                              m_units[std::size_t(p)].initiation()};
  }
  auto own = [&](uc c, const unit_params& u) {  // else the class's own parameters
    m_timing_of_class[std::size_t(c)] = {static_cast<std::uint32_t>(*u.latency),
                                         static_cast<std::uint32_t>(*u.initiation)};
  };
  own(uc::sp, m_sp);
  own(uc::sfu, m_sfu);
  own(uc::int_alu, m_int);
  own(uc::dp, m_dp);
  own(uc::tensor, m_tensor);
  own(uc::branch, m_branch);
}

void smx::add_traces(vcd_writer& vcd) {
  m_trace_active_warps.trace(vcd, name(), "active_warps", 8);
  m_trace_issued.trace(vcd, name(), "issued", 4);
  m_trace_stall.trace(vcd, name(), "stall_reason", 3);
  m_trace_tbs.trace(vcd, name(), "resident_tbs", 6);
}

std::string smx::pending_work() const {
  if (m_live_warps == 0) return {};
  std::string s = std::to_string(m_live_warps) + " live warps, " + std::to_string(m_pool.in_use()) +
                  " requests in flight, LDST " + (m_ldst.blocked() ? "blocked by the L1" : "free") +
                  ", " + std::to_string(m_ldst.queued()) + " requests queued;";
  for (std::uint32_t wi = 0; wi < m_warps.size(); ++wi) {
    const warp_state& w = m_warps[wi];
    if (!w.live) continue;
    s += " w" + std::to_string(wi) + ":" + std::to_string(w.issued) + "/" + std::to_string(w.size) +
         (w.at_barrier ? " bar" : "") +
         (w.outstanding ? " mem" + std::to_string(w.outstanding) : "") + (w.imiss ? " ifetch" : "");
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// TLM

void smx::tbcr_b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  if (gp.is_read() && gp.get_address() == control::tbcr_caps &&
      gp.get_data_length() >= sizeof(control::reg_words<control::caps_layout::words>)) {
    control::store(gp.get_data_ptr(), control::pack(limits()));
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  } else if (gp.is_write() && gp.get_address() == control::tbcr_kernel_done) {
    // Kernel end: a flush request to the L1, behind the requests already queued, when no
    // TB is resident (GPGPU-Sim invalidates an L1 whose SMX has no threads left): a busy
    // SMX, running a parent or another stream's kernel, keeps its L1 when a child kernel
    // completes.
    if (std::any_of(m_tbs.begin(), m_tbs.end(), [](const tb_state& t) { return t.live; })) {
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    m_ldst.enqueue_flush();
    wake_at(clock().next_cycle());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  } else {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

tlm::tlm_sync_enum smx::tbcr_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    m_peq.notify(gp, phase, clock_domain::kernel_delay(delay));  // launch at the annotated time
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  return tlm::TLM_COMPLETED;  // END_RESP
}

tlm::tlm_sync_enum smx::ldst_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) {
  // Taken now when not annotated into the future (it only updates the SMX's own state and
  // asks for a cycle), else at the annotated time.
  if (delay == sc_core::SC_ZERO_TIME)
    peq_cb(gp, phase);
  else
    m_peq.notify(gp, phase, clock_domain::kernel_delay(delay));
  if (phase == tlm::BEGIN_RESP) {
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

void smx::peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {  // a TB launch through the TBCR
    launch_tb(gp);
  } else if (phase == tlm::END_REQ) {
    unblock(gp);
    // The L1 took it in this cycle: the next request may follow in the same one.
    const std::uint64_t now = clock().now_cycle();
    if (m_sent_cycle == now && m_sent_in_cycle < *m_l1_requests_per_cycle) send_requests(now);
    wake_at(clock().next_cycle());
  } else if (phase == tlm::BEGIN_RESP) {
    unblock(gp);  // a response implies the end of its own request phase
    response(gp);
  }
}

void smx::unblock(const tlm::tlm_generic_payload& gp) {
  // Only the request whose END_REQ was withheld: a response to an earlier request does not
  // let the LDST unit send again.
  m_ldst.unblock(gp);
}

// ---------------------------------------------------------------------------------------
// Thread blocks and warps

void smx::launch_tb(tlm::tlm_generic_payload& gp) {
  const control::tb_descriptor desc =
      control::unpack_tbcr(control::load<control::tbcr_layout::words>(gp.get_data_ptr()).data());
  edge_dispatcher::progress();
  auto slot_it =
      std::find_if(m_tbs.begin(), m_tbs.end(), [](const tb_state& t) { return !t.live; });
  control::workload* work_ptr = work().ptr;
  if (slot_it == m_tbs.end() || !work_ptr) {
    SC_REPORT_ERROR(name(), "TB launched on an SMX without a free TB slot or workload");
    return;
  }
  const std::uint32_t slot = static_cast<std::uint32_t>(slot_it - m_tbs.begin());
  tb_state& tb = *slot_it;
  tb = tb_state{};
  tb.live = true;
  tb.launch = &gp;
  tb.desc = desc;
  tb.generation = m_launch.new_tb(slot);
  if (*m_unified_l1 && desc.kernel != m_carveout_kernel) {  // a new kernel: the L1's share
    m_carveout_kernel = desc.kernel;
    m_ldst.enqueue_carveout(std::uint64_t(desc.demand.shared_memory) *
                            core::tbs_per_smx(limits(), desc.demand));
  }
  try {
    tb.trace = work_ptr->reader(desc.kernel).read_tb(desc.tb);
  } catch (const input_error& e) {  // a bad trace: stop and let `gputlm run` report it
    if (!work_ptr->error) work_ptr->error = e;
    tb.live = false;
    sc_core::sc_stop();
    return;
  }
  account_until(clock().next_cycle());

  std::uint32_t next_free = 0;
  for (const traces::warp_trace& wt : tb.trace->warps) {
    // (The schedulers' live masks say it without visiting each warp's state.)
    while (next_free < m_warps.size() && (masks_of(next_free).live & sched_bit(next_free)))
      ++next_free;
    if (next_free == m_warps.size()) {
      SC_REPORT_ERROR(name(), "TB has more warps than the SMX has free warp slots");
      return;
    }
    start_warp(next_free, slot, wt, desc.demand.regs_per_thread, 0);
  }
  m_trace_tbs.set(m_trace_tbs + 1);
  if (m_resident_tbs++ == 0) m_power->core_busy(now_fs());
  m_trace_active_warps.set(m_live_warps);
  {
    const std::uint64_t cycle = clock().now_cycle();
    const auto warps = static_cast<std::uint32_t>(tb.warps.size());
    events.notify([&](smx_events& o) { o.tb_started(slot, warps, cycle); });
  }
  for (std::uint32_t wi : std::vector<std::uint32_t>(tb.warps)) maybe_finish_warp(wi);
  wake_at(clock().next_cycle());
}

void smx::start_warp(std::uint32_t wi, std::uint32_t slot, const traces::warp_trace& wt,
                     std::uint32_t regs_per_thread, std::uint32_t next) {
  warp_state& w = m_warps[wi];
  w = warp_state{};
  set_blocked(wi, 0, stall_reason::no_warp);  // may issue at once
  w.live = true;
  w.tb_slot = slot;
  w.scheduler = m_slot_home[wi].sched;
  w.trace = &wt;
  w.insts = wt.insts.data();
  w.addresses = wt.addresses.data();
  w.size = static_cast<std::uint32_t>(wt.insts.size());
  w.issued = w.fetched = next;
  m_scoreboard.clear(wi);
  if (m_rf_managed)  // (registers are allocated in units of 4 per thread)
    m_rf.allocate(wi, wt, (regs_per_thread + 3) & ~3u, clock().next_cycle());
  w.age = m_age++;
  m_tbs[slot].warps.push_back(wi);
  m_sched_warps[w.scheduler].push_back(wi);
  masks_of(wi).live |= sched_bit(wi);
  ++masks_of(wi).version;
  ++m_live_warps;
  update_fetchable(wi);
}

void smx::retire_warp(std::uint32_t wi) {
  warp_state& w = m_warps[wi];
  w.live = false;
  if (m_rf_managed) m_rf.warp_exited(wi, clock().next_cycle());
  if (events.any()) {
    const std::uint64_t cycle = clock().next_cycle();
    events.notify([&](smx_events& o) { o.warp_exited(wi, cycle); });
  }
  update_fetchable(wi);
  --m_live_warps;
  auto& list = m_sched_warps[w.scheduler];
  list.erase(std::find(list.begin(), list.end(), wi));
  set_blocked(wi, 0, m_blocked[wi].reason);
  masks_of(wi).live &= ~sched_bit(wi);
  masks_of(wi).ldst_wait &= ~sched_bit(wi);
  ++masks_of(wi).version;
  m_trace_active_warps.set(m_live_warps);
}

void smx::maybe_finish_warp(std::uint32_t wi) {
  warp_state& w = m_warps[wi];
  if (!w.live || w.issued < w.size || w.outstanding != 0) return;
  // The warp is done when its last results are written back (a timer wakes the SMX then).
  if (w.drain > clock().next_cycle()) {
    if (std::find(m_draining.begin(), m_draining.end(), wi) == m_draining.end())
      m_draining.push_back(wi);
    return;
  }
  tb_state& tb = m_tbs[w.tb_slot];
  retire_warp(wi);
  ++tb.warps_done;
  const std::size_t warps = tb.warps.size() + tb.away;
  if (tb.warps_done == warps)
    finish_tb(w.tb_slot);
  else if (tb.at_device_sync > 0 && tb.at_device_sync + tb.warps_done == warps)
    device_sync_arrived(w.tb_slot);
  else if (tb.at_barrier > 0 && tb.at_barrier + tb.warps_done == warps)
    barrier_complete(w.tb_slot);
}

void smx::barrier_complete(std::uint32_t slot) {
  tb_state& tb = m_tbs[slot];
  if (tb.block_sync == traces::direction::none) return release_barrier(tb);
  if (tb.block_sync_sent) return;
  tb.block_sync_sent = true;
  neighbour->block_sync(tb.block_sync, slot);
}

void smx::block_sync_released(std::uint32_t slot) {
  tb_state& tb = m_tbs[slot];
  tb.block_sync = traces::direction::none;
  tb.block_sync_sent = false;
  release_barrier(tb);
  wake_at(clock().next_cycle());
}

bool smx::without_neighbour_port(const tb_state& tb, const warp_instruction& in) {
  const bool cb = in.special != traces::special_op::block_sync;
  if (neighbour && neighbour->serves(in.dir)) return false;
  control::workload* work_ptr = work().ptr;
  if (work_ptr && !work_ptr->error) {
    const control::kernel_run& k = work_ptr->kernels()[tb.desc.kernel];
    const char* dir = in.dir == traces::direction::north   ? "NORTH"
                      : in.dir == traces::direction::south ? "SOUTH"
                      : in.dir == traces::direction::east  ? "EAST"
                      : in.dir == traces::direction::west  ? "WEST"
                                                           : "";
    const std::string op =
        cb ? std::string(in.special == traces::special_op::cb_push ? "CB.PUSH." : "CB.POP.") + dir
           : std::string("BAR.BLOCKSYNC") + (*dir ? "." : "") + dir;
    work_ptr->error = input_error(
        {k.reader->source(), 0, 0}, op,
        "kernel " + std::to_string(k.id) + " (" + k.name + ") uses " + op + ", which needs " +
            (neighbour ? "a neighbour this SM does not have"
                       : "the SPU's communication buffers and block sync; this platform has none "
                         "(run it on yaml/spu.yaml)"));
  }
  sc_core::sc_stop();
  return true;
}

void smx::issue_cb(std::uint32_t wi, warp_state& w, const warp_instruction& in, std::uint64_t now,
                   std::uint64_t wake) {
  // A warp's access of its active lanes' bytes, lane by lane (the trace's bytes=), holds the
  // LDST unit for one cycle per bank-wide row, as a shared-memory access; the buffer says
  // when the data is there.
  const std::uint32_t bytes = in.ext_index == warp_instruction::none ? 0 : in.ext_index;
  const bool push = in.special == traces::special_op::cb_push;
  const std::uint64_t start = now + wake;
  const std::uint64_t rows = (bytes + 127) / 128;
  m_ldst.busy_until(start + std::max<std::uint64_t>(rows, 1));
  const std::uint64_t ready =
      start + std::max<std::uint64_t>(neighbour->cb_access(in.dir, push, bytes), 1);
  if (!push)
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
      if (in.dst[k] < num_regs) m_scoreboard.set(wi, in.dst[k], ready);
  w.regs_ready_by = std::max(w.regs_ready_by, ready);
  w.drain = std::max(w.drain, ready);
  m_timers.push(ready);
  m_timers.push(start + std::max<std::uint64_t>(rows, 1));
}

void smx::release_barrier(tb_state& tb) {
  for (std::uint32_t wi : tb.warps) {
    m_warps[wi].at_barrier = false;
    unblock_warp(wi);
  }
  tb.at_barrier = 0;
  m_work_next_cycle = true;
}

void smx::end_foreign_tb(std::uint32_t slot, bool done) {
  tb_state& tb = m_tbs[slot];
  const std::uint32_t host = tb.host, host_tb = tb.host_tb;
  const std::uint64_t generation = tb.host_generation;
  const std::uint64_t warp_instructions =
      tb.carried.warp_instructions + tb.report.warp_instructions;
  const std::uint64_t thread_instructions =
      tb.carried.thread_instructions + tb.report.thread_instructions;
  if (m_rf_managed)
    for (std::uint32_t wi : tb.warps) m_rf.release(wi, clock().next_cycle());
  tb = tb_state{};
  m_trace_tbs.set(m_trace_tbs - 1);
  if (--m_resident_tbs == 0) m_power->core_idle(now_fs());
  const std::uint64_t cycle = clock().now_cycle();
  events.notify([&](smx_events& o) {
    o.tb_finished(slot, cycle);
    if (done)
      o.adopted_warp_done(host, host_tb, generation, warp_instructions, thread_instructions, cycle);
  });
}

void smx::finish_tb(std::uint32_t slot) {
  tb_state& tb = m_tbs[slot];
  if (tb.foreign) return end_foreign_tb(slot, true);
  tlm::tlm_generic_payload* gp = tb.launch;
  std::memcpy(gp->get_data_ptr() + control::tbcr_report_offset, &tb.report, sizeof tb.report);
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  if (m_rf_managed)
    for (std::uint32_t wi : tb.warps) m_rf.release(wi, clock().next_cycle());
  tb = tb_state{};
  ++m_tbs_completed;
  if (events.any()) {
    const std::uint64_t cycle = clock().now_cycle();
    events.notify([&](smx_events& o) { o.tb_finished(slot, cycle); });
  }
  edge_dispatcher::progress();
  m_trace_tbs.set(m_trace_tbs - 1);
  if (--m_resident_tbs == 0) m_power->core_idle(now_fs());
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  tbcr->nb_transport_bw(*gp, phase, delay);
}

// ---------------------------------------------------------------------------------------
// The pipeline, one evaluated cycle at a time

void smx::wake_at(std::uint64_t cycle) {
  // A cycle already evaluated means the next one. (Asked directly: the calendar's order
  // within an instant does not depend on when a block asked.)
  if (m_last_cycle != never && cycle <= m_last_cycle) cycle = m_last_cycle + 1;
  m_wake.at(cycle);
}

void smx::account_until(std::uint64_t cycle) {
  if (cycle <= m_accounted) return;
  const std::uint64_t elapsed = cycle - m_accounted;
  if (m_live_warps > 0) {
    m_active_cycles += elapsed;
    m_resident_warp_cycles += elapsed * m_live_warps;
    for (stall_reason r : m_reason) m_stalls[std::size_t(r)] += elapsed;
  }
  m_accounted = cycle;
}

void smx::cycle() {
  m_wake.fired();
  const std::uint64_t now = clock().now_cycle();
  if (now == m_last_cycle || clock().edge_fs(now) != clock_domain::now_fs()) {
    wake_at(clock().next_cycle_at_fs(clock_domain::now_fs() + 1));
    return;
  }
  ++m_activations;
  account_until(now);
  m_last_cycle = now;
  m_timers.pop_through(now);
  m_work_next_cycle = false;
  // Warps whose launch API calls are done.
  while (m_launch.next_resume() <= now) {
    const std::uint32_t wi = m_launch.pop_resume();
    m_warps[wi].in_device_api = false;
    unblock_warp(wi);
    m_work_next_cycle = true;
  }

  // Polls going again (a flag found short).
  if (!m_repolls.empty()) {
    for (std::size_t k = 0; k < m_repolls.size();)
      if (m_repolls[k].due <= now) {
        m_ldst.enqueue_poll(m_repolls[k].record);
        m_repolls[k] = m_repolls.back();
        m_repolls.pop_back();
      } else {
        ++k;
      }
  }

  // Warps whose last results were still in flight when they issued their last instruction.
  if (!m_draining.empty()) {
    std::vector<std::uint32_t> draining;
    draining.swap(m_draining);
    for (std::uint32_t wi : draining) maybe_finish_warp(wi);
  }

  send_requests(now);
  fetch(now);
  std::uint64_t issued = 0;
  // Scheduler s's issue step; false if it did not issue (its outcome in m_reason[s]).
  auto step = [&](std::uint32_t s) {
    // A scheduler without warps, or in a quiet period its warps have not changed since,
    // keeps its outcome without a call.
    const sched_masks& masks = m_sched_masks[s];
    stall_reason why = stall_reason::no_warp;
    bool did = false;
    if (masks.live != 0) {
      // While warps wait for the LDST unit, a quiet period lasts only as long as the unit
      // is busy, and they stall for its state of this cycle (no_warp: no such warps).
      const stall_reason ldst = masks.ldst_wait != 0 ? ldst_state(now) : stall_reason::no_warp;
      if (now < masks.quiet_until && masks.quiet_version == masks.version &&
          ldst != stall_reason::issued)
        why = std::max(masks.quiet_reason, ldst);
      else
        did = try_issue(s, now, why);
    }
    m_reason[s] = why;
    return did;
  };
  const std::uint32_t nsched = static_cast<std::uint32_t>(m_sched_warps.size());
  if (!m_sch_tuned_down) {
    for (std::uint32_t s = 0; s < nsched; ++s) issued += step(s) ? 1 : 0;
  } else {
    // μC-States' SCH tuned down: the upper half of the schedulers is gated, and active
    // scheduler s serves its own warps first, then those of its partner s + n/2; one issue a
    // cycle between them (datapath_gates.h). The partner's warps stall as unit_busy in a
    // cycle the issue slot went to s's own.
    const std::uint32_t half = (nsched + 1) / 2;
    for (std::uint32_t s = 0; s < half; ++s) {
      const std::uint32_t partner = s + half;
      if (step(s)) {
        ++issued;
        if (partner < nsched)
          m_reason[partner] =
              m_sched_masks[partner].live ? stall_reason::unit_busy : stall_reason::no_warp;
      } else if (partner < nsched && step(partner)) {
        ++issued;
      }
    }
  }
  if (m_live_warps > 0) {
    ++m_active_cycles;
    m_resident_warp_cycles += m_live_warps;
    for (stall_reason r : m_reason) ++m_stalls[std::size_t(r)];
  }
  m_accounted = now + 1;
  m_trace_issued.set(issued);
  m_trace_stall.set(m_sched_warps.empty() ? 0 : std::uint64_t(m_reason[0]));
  if (events.any()) {
    const warp_census c = census();
    if (c != m_published) {
      m_published = c;
      events.notify([&](smx_events& o) { o.warps_waiting(c, now); });
    }
  }

  if (m_work_next_cycle && (m_live_warps > 0 || m_ldst.queued() != 0))
    wake_at(now + 1);
  else if (!m_timers.empty())
    wake_at(m_timers.top());
  // else: sleep until a response, END_REQ or TB launch
}

void smx::update_fetchable(std::uint32_t wi) {
  const warp_state& w = m_warps[wi];
  const std::uint32_t buffered = w.fetched - w.issued;
  const bool want = w.live && w.fetched < w.size && !w.imiss &&
                    (*m_fetch_when_empty ? buffered == 0 : buffered < *m_ibuffer_entries);
  std::uint64_t& word = m_fetchable[wi / 64];
  const std::uint64_t bit = 1ull << (wi % 64);
  word = want ? word | bit : word & ~bit;
}

void smx::fetch(std::uint64_t now) {
  // Round robin over the warps that have room in their buffer (or an empty buffer, with
  // fetch_when_empty) and instructions left; `fetch_warps` warps per cycle, each after its
  // previous fetch has landed.
  const std::uint32_t n = static_cast<std::uint32_t>(m_warps.size());
  std::uint64_t any = 0;  // (often none: every warp's buffer full or its trace fetched)
  for (std::uint64_t word : m_fetchable) any |= word;
  if (any == 0) return;
  std::uint64_t warps = 0;
  for (std::uint32_t k = 0; k < n;) {
    const std::uint32_t at = m_fetch_next + k;  // below 2n: no division needed
    const std::uint32_t wi = at >= n ? at - n : at;
    const std::uint64_t word = m_fetchable[wi / 64] >> (wi % 64);
    if (word == 0) {  // skip to the next word, or to slot 0 at the end of the slots
      k += std::min<std::uint32_t>(64 - wi % 64, n - wi);
      continue;
    }
    const std::uint32_t skip = static_cast<std::uint32_t>(__builtin_ctzll(word));
    if (skip) {
      k += skip;
      continue;
    }
    warp_state& w = m_warps[wi];
    if (w.buffer_ready > now) {
      ++k;
      continue;
    }
    if (m_icache && fetch_misses(wi, w)) {  // the fetch slot is spent on the miss
      m_fetch_next = wi + 1 == n ? 0 : wi + 1;
      if (++warps == m_fetch_limit) return;
      ++k;
      continue;
    }
    const std::uint32_t size = w.size;
    const std::uint32_t buffered = w.fetched - w.issued;
    std::uint32_t take = static_cast<std::uint32_t>(
        std::min<std::uint64_t>({*m_fetch_width, *m_ibuffer_entries - buffered, size - w.fetched}));
    w.fetched += take;
    w.last_fetch = take;
    if (m_rf_managed) w.prev_buffer_ready = w.buffer_ready;
    w.buffer_ready = now + 1;
    events.notify([&](smx_events& o) { o.fetched(wi, take, now); });
    update_fetchable(wi);
    // A warp waiting for instructions may issue once they land (other reasons to be
    // blocked do not depend on the buffer).
    if (m_blocked[wi].reason == stall_reason::no_warp) unblock_warp(wi);
    m_fetch_next = wi + 1 == n ? 0 : wi + 1;
    m_work_next_cycle = true;
    if (++warps == m_fetch_limit) return;
    ++k;
  }
}

bool smx::fetch_misses(std::uint32_t wi, warp_state& w) {
  // GPGPU-Sim fetch(): the line of the warp's next PC; a miss sends a read of the line's
  // fetch bytes to L2 through the L1 (which passes it on) and parks the warp.
  const std::uint64_t addr = code_address(w.insts[w.fetched].pc);
  const instruction_cache::outcome o = m_icache->access(addr, wi);
  if (o == instruction_cache::outcome::hit) return false;
  if (o == instruction_cache::outcome::miss) {
    const std::uint64_t line = m_icache->line_of(addr);
    m_ldst.enqueue_fetch(wi, line, m_icache->line_bytes());
    m_work_next_cycle = true;
  }
  w.imiss = true;
  update_fetchable(wi);
  return true;
}

void smx::instruction_filled(tlm::tlm_generic_payload& gp) {
  // The request covers the cache line's sectors of its 128 B memory line.
  const std::uint8_t sectors = payload_pool::request(gp).sector_mask;
  const std::uint64_t first =
      gp.get_address() + (sectors ? std::uint64_t(__builtin_ctz(sectors)) * sector_bytes : 0);
  m_pool.release(gp);
  account_until(clock().next_cycle());
  m_icache->fill(m_icache->line_of(first), [&](std::uint32_t wi) {
    m_warps[wi].imiss = false;
    update_fetchable(wi);
  });
  wake_at(clock().next_cycle());
}

smx::pipe smx::pipe_of(const warp_instruction& in) const {
  // Barriers, exits and the extension ops take an issue slot but no unit; the SPU's CB
  // accesses go through the LDST unit's shared-memory path.
  if (in.special != traces::special_op::none)
    return in.special == traces::special_op::cb_push || in.special == traces::special_op::cb_pop
               ? pipe::ldst
               : pipe::none;
  return m_pipe_of_class[std::min<std::size_t>(std::size_t(in.unit), m_pipe_of_class.size() - 1)];
}

stall_reason smx::check(std::uint32_t wi, warp_state& w, std::uint32_t s, std::uint64_t now,
                        int& unit) {
  auto block = [&](std::uint64_t until, stall_reason why) {
    set_blocked(wi, until, why);
    return why;
  };
  if (w.at_barrier) return block(never, stall_reason::barrier);
  if (w.at_membar | w.in_device_api | (w.pending_atomics != 0))
    return block(never, stall_reason::scoreboard);
  if (w.checked != w.issued || w.checked_from > now) {
    const warp_instruction& in = w.insts[w.issued];
    if (w.pending_dst_loads != 0 || w.regs_ready_by > now) {  // else every register is ready
      const std::uint64_t ready = m_scoreboard.ready_by(wi, in);
      if (ready > now) {
        // Memory instructions are read again when they pass (to warm up their addresses).
        w.checked = w.issued;
        w.checked_pipe = pipe_of(in);
        w.checked_from = w.checked_pipe == pipe::ldst ? never : ready;
        return block(ready, stall_reason::scoreboard);
      }
    }
    w.checked = w.issued;
    w.checked_pipe = pipe_of(in);
    w.checked_from = 0;
    if (in.addr_index != warp_instruction::none) {
      // Host-cache warm-up only: the lane addresses are read when the instruction issues,
      // typically some cycles from now (the LDST unit is the usual bottleneck).
      const char* from = reinterpret_cast<const char*>(w.addresses + in.addr_index);
      const char* to =
          reinterpret_cast<const char*>(w.addresses + in.addr_index + traces::address_slots(in));
      for (const char* p = from; p < to; p += 64) __builtin_prefetch(p);
      if (to > from) __builtin_prefetch(to - 1);
    }
  }
  const pipe p = w.checked_pipe;
  unit = -1;
  if (p == pipe::ldst) {
    if (const stall_reason busy = ldst_state(now); busy != stall_reason::issued) return busy;
  } else if (p != pipe::none) {
    unit = m_units[std::size_t(p)].free_unit(s, now);
    if (unit < 0) {
      // None of the scheduler's units frees before next_free (a unit is only occupied when
      // free), and nothing else about this instruction changes until the warp issues.
      const std::uint64_t free_at = m_units[std::size_t(p)].next_free(s);
      m_timers.push(free_at);
      return block(free_at, stall_reason::unit_busy);
    }
  }
  if (p != pipe::none && !m_rf.collector_free(now, type_of(p))) return stall_reason::unit_busy;
  // The type's issue-to-collector slots this cycle.
  if (m_idoc.bounded() && p != pipe::none && !m_idoc.free(type_of(p), now))
    return stall_reason::unit_busy;
  return stall_reason::issued;
}

bool smx::try_issue(std::uint32_t s, std::uint64_t now, stall_reason& why) {
  sched_masks& masks = m_sched_masks[s];  // (cycle() handled no warps and a quiet period)
  masks.quiet_until = 0;  // (one that the LDST unit's freeing ended early) decided anew below
  // The LDST unit's waiters compete again once it is free.
  if (masks.ldst_wait && ldst_state(now) == stall_reason::issued) masks.ldst_wait = 0;
  const std::uint64_t max_issue = *m_max_issue_per_warp;
  const bool dual_different = *m_dual_issue_different_units;
  stall_reason best = stall_reason::no_warp;
  std::uint64_t all_blocked_until = never;  // 0 once a warp was not known blocked
  // Tries warp `wi`, not known blocked; true if it issued.
  auto attempt = [&](std::uint32_t wi) {
    warp_state& w = m_warps[wi];
    all_blocked_until = 0;
    pipe first_pipe = pipe::count_;
    std::uint32_t issued = 0;
    stall_reason r = stall_reason::no_warp;
    for (std::uint64_t k = 0; k < max_issue; ++k) {
      // Instructions in the buffer that have landed by this cycle.
      const std::uint32_t landed = w.buffer_ready <= now ? w.fetched : w.fetched - w.last_fetch;
      if (!w.live || w.issued >= landed || w.issued >= w.size) {
        r = stall_reason::no_warp;
        if (k == 0 && w.live) {
          // Nothing to issue until the fetch in flight lands (a warp is not fetched again
          // before), or, with an empty buffer, until fetch() picks the warp (it unblocks
          // it), or ever once everything is issued.
          const bool in_flight = w.issued < w.fetched && w.issued < w.size;
          set_blocked(wi, in_flight ? w.buffer_ready : never, stall_reason::no_warp);
        }
        break;
      }
      if (k > 0 && dual_different && pipe_of(w.insts[w.issued]) == first_pipe) break;
      int unit = -1;
      r = check(wi, w, s, now, unit);
      if (r != stall_reason::issued) {
        // (check() looks at the LDST unit after the scoreboard, before the collectors.)
        if (k == 0 && w.checked_pipe == pipe::ldst && r >= stall_reason::unit_busy &&
            ldst_state(now) != stall_reason::issued)
          masks.ldst_wait |= sched_bit(wi);
        break;
      }
      const pipe p = w.checked_pipe;
      execute(wi, w, w.insts[w.issued], unit, now);
      first_pipe = p;
      ++issued;
      if (!w.live) break;
    }
    if (issued > 0) return true;
    if (r > best) best = r;
    return false;
  };
  auto issued_by = [&](std::uint32_t wi) {
    // A policy with a fixed order rule is applied here, from this record; others are told.
    if (masks.rule == warp_scheduler_policy::order_rule::custom) m_scheduler_policy->issued(s, wi);
    masks.has_last = true;
    masks.last = wi;
    why = stall_reason::issued;
    return true;
  };
  auto known_blocked = [&](std::uint32_t wi) {
    const blocked_state& b = m_blocked[wi];
    if (b.until <= now) return false;
    if (b.reason > best) best = b.reason;
    if (b.until < all_blocked_until) all_blocked_until = b.until;
    return true;
  };
  // Only warps that are not parked are visited, in the policy's order; the parked ones are
  // known blocked (until never) and enter the outcome through their counted reasons.
  const std::uint64_t candidates = masks.live & ~masks.parked & ~masks.ldst_wait;
  const std::uint32_t nsched = static_cast<std::uint32_t>(m_sched_masks.size());
  auto visit = [&](std::uint32_t wi) { return !known_blocked(wi) && attempt(wi); };
  // Visits the warps of the set bits of `bits` (bit k: warp warp_of(k)) from bit `from` up,
  // then those below it; true once one issued, which is then `issuer`.
  std::uint32_t issuer = 0;
  auto walk = [&](std::uint64_t bits, std::uint64_t from, auto warp_of) {
    const std::uint64_t upper = from >= 64 ? 0 : bits & (~0ull << from);
    auto walk_part = [&](std::uint64_t part) {
      for (; part != 0; part &= part - 1) {
        issuer = warp_of(static_cast<std::uint32_t>(__builtin_ctzll(part)));
        if (visit(issuer)) return true;
      }
      return false;
    };
    return walk_part(upper) || walk_part(bits & ~upper);
  };
  using rule = warp_scheduler_policy::order_rule;
  if (masks.rule == rule::rotate_after_last_issuer) {
    // Slot k * nsched + s is bit k: the slots above the last issuer's first, then the rest.
    const std::uint64_t first_bit = masks.has_last ? m_slot_home[masks.last].bit + 1u : 0u;
    if (walk(candidates, first_bit, [&](std::uint32_t k) { return k * nsched + s; }))
      return issued_by(issuer);
  } else {
    // The same walk over the candidates' positions in the policy's list.
    warp_order order;
    if (masks.rule == rule::last_issuer_then_list) {
      const auto& list = m_sched_warps[s];
      order.list = list.data();
      order.n = static_cast<std::uint32_t>(list.size());
      order.has_first = masks.has_last;  // visited below only if it is a candidate (listed)
      order.first = masks.last;
    } else {
      order = m_scheduler_policy->view(s, m_sched_warps[s], masks.version);
    }
    order_positions& at = m_order_positions[s];
    if (at.version != masks.version || at.list != order.list) {
      for (std::uint32_t i = 0; i < order.n; ++i) m_position[order.list[i]] = std::uint8_t(i);
      at.version = masks.version;
      at.list = order.list;
    }
    std::uint64_t positions = 0;
    for (std::uint64_t c = candidates; c != 0; c &= c - 1)
      positions |= 1ull << m_position[std::uint32_t(__builtin_ctzll(c)) * nsched + s];
    if (order.has_first && ((candidates >> m_slot_home[order.first].bit) & 1)) {
      if (visit(order.first)) return issued_by(order.first);
      positions &= ~(1ull << m_position[order.first]);
    }
    if (walk(positions, order.start, [&](std::uint32_t k) { return order.list[k]; }))
      return issued_by(issuer);
  }
  if (masks.parked != 0) best = std::max(best, masks.parked_reason());
  // The LDST unit's waiters (not visited) stall for its state. A quiet period covers the
  // other warps; cycle() adds the unit's state of each cycle and ends it once it is free.
  const stall_reason others = best;
  if (masks.ldst_wait != 0) best = std::max(best, ldst_state(now));
  why = best;
  if (all_blocked_until > now) {
    masks.quiet_until = all_blocked_until;
    masks.quiet_version = masks.version;
    masks.quiet_reason = others;
  }
  return false;
}

void smx::execute(std::uint32_t wi, warp_state& w, const warp_instruction& in, int unit,
                  std::uint64_t now) {
  tb_state& tb = m_tbs[w.tb_slot];
  const std::uint32_t lanes = traces::lane_count(in.active_mask);
  ++m_warp_instructions;
  edge_dispatcher::progress();
  m_thread_instructions += lanes;
  ++tb.report.warp_instructions;
  tb.report.thread_instructions += lanes;
  ++m_mix[std::min<std::size_t>(std::size_t(in.unit), m_mix.size() - 1)];
  const std::uint32_t index = w.issued;  // of this instruction in the warp's trace
  const std::uint64_t landed_at = m_rf_managed ? landed(w, index) : 0;
  ++w.issued;
  if (w.issued < w.size) {
    // Host-cache warm-up only: the warp's next instruction is examined in a later cycle.
    const char* next = reinterpret_cast<const char*>(w.insts + w.issued);
    __builtin_prefetch(next);
    __builtin_prefetch(next + sizeof(warp_instruction) - 1);
  }
  update_fetchable(wi);
  m_work_next_cycle = true;

  switch (in.special) {
    case traces::special_op::bar_sync:
      w.at_barrier = true;
      ++tb.at_barrier;
      if (tb.at_barrier + tb.warps_done == tb.warps.size()) barrier_complete(w.tb_slot);
      break;
    case traces::special_op::block_sync:
      if (without_neighbour_port(tb, in)) return;
      w.at_barrier = true;
      ++tb.at_barrier;
      tb.block_sync = in.dir;
      if (tb.at_barrier + tb.warps_done == tb.warps.size()) barrier_complete(w.tb_slot);
      break;
    case traces::special_op::cb_push:
    case traces::special_op::cb_pop:
      if (without_neighbour_port(tb, in)) return;
      break;
    case traces::special_op::membar:
      if (w.outstanding > 0) w.at_membar = true;
      break;
    case traces::special_op::launch_kernel:
    case traces::special_op::launch_agg_group:
      ++m_device_launches;
      if (m_launch.run_left(wi) > 0)
        --m_launch.run_left(wi);  // a later lane of a run already sent
      else
        start_launch(wi, w, in, now);
      break;
    case traces::special_op::device_sync:
      w.at_barrier = true;  // (waits as at a barrier)
      ++tb.at_device_sync;
      if (tb.at_device_sync + tb.warps_done == tb.warps.size()) device_sync_arrived(w.tb_slot);
      break;
    default:
      break;
  }

  const pipe p = pipe_of(in);
  {
    std::uint32_t reads = 0, writes = 0;
    for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k) reads += in.src[k] < num_regs;
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k) writes += in.dst[k] < num_regs;
    m_power->issue(std::size_t(p), lanes, reads, writes);
    events.notify([&](smx_events& o) { o.issued(wi, p, lanes, reads, writes, now); });
  }
  if (m_idoc.bounded() && p != pipe::none) m_idoc.take(type_of(p), now);
  // Under a gating policy: the cycles the instruction's work waits for what it uses to wake.
  const std::uint64_t wake = m_power->any_gated() ? wake_for(wi, w, in, p) : 0;
  // A register-level power controller (register_gate.h): the sources are read once awake.
  // The instruction waits in its operand collector (the execution unit stays free for
  // others) and its work starts that much later.
  std::uint64_t read_wait = 0;
  if (m_rf_managed) {
    read_wait = m_rf.read_operands(wi, w.scheduler, index, in, landed_at, now);
  }
  if (p == pipe::ldst) {
    // A MEM collector reads the operands this cycle and holds them until the
    // collector-to-execution register takes the instruction.
    const std::uint64_t dispatch = m_ocex.bounded() ? m_ocex.take(2, now) : now;
    if (m_rf.banks().collector_sets()) {
      m_rf.banks().hold_collector(2, now, dispatch + 1);
      events.notify([&](smx_events& o) { o.operands_collected(wi, p, dispatch + 1 - now, now); });
    }
    issue_memory(wi, w, in, now, std::max(wake, read_wait) + (dispatch - now));
  } else if (p != pipe::none) {
    unit_pool& pool = m_units[std::size_t(p)];
    const class_timing t = m_timing_of_class[std::min<std::size_t>(std::size_t(in.unit),
                                                                   m_timing_of_class.size() - 1)];
    std::uint64_t read =
        m_rf.read(in.src, std::min<std::uint32_t>(in.num_src, 4), wi, w.scheduler, now, type_of(p));
    if (m_ocex.bounded()) {  // the collector holds the instruction until a slot is free
      const std::uint64_t dispatch = m_ocex.take(type_of(p), read);
      if (dispatch != read) m_rf.banks().extend_hold(dispatch + 1);
      read = dispatch;
    }
    if (m_rf.banks().collector_sets())
      events.notify([&](smx_events& o) { o.operands_collected(wi, p, read + 1 - now, now); });
    const std::uint64_t start = read + std::max(wake, read_wait);
    const std::uint64_t free_at = pool.occupy(unit, read + wake, t.initiation);
    std::uint64_t result = start + t.latency;
    if (m_rf_managed)  // a destination still waking delays the write-back
      result += m_rf.fixed_results(wi, w.scheduler, index, in, now, t.latency, result, next_of(w));
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
      if (in.dst[k] < num_regs) m_scoreboard.set(wi, in.dst[k], result);
    w.regs_ready_by = std::max(w.regs_ready_by, result);
    w.drain = std::max(w.drain, result);
    m_timers.push(result);
    if (free_at > now + 1) m_timers.push(free_at);
  }
  if (m_rf_managed)
    m_rf.operands_idle(wi, index, in, now + read_wait, outlook_of(wi, w, now),
                       [&](std::uint32_t j) { return outlook_of(wi, w, now, j); });
  if (w.issued == w.size) maybe_finish_warp(wi);
}

std::uint64_t smx::wake_for(std::uint32_t wi, const warp_state& w, const warp_instruction& in,
                            pipe p) {
  // Every component the instruction uses reports the use (so that it sleeps only when
  // idle); the wake-ups are requested together, and the longest one delays the work.
  const std::uint64_t t = now_fs();
  std::uint64_t wake = m_power->wake_front_end(t);
  bool reads = false;
  for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k)
    if (in.src[k] < num_regs) {
      reads = true;
      wake =
          std::max(wake, m_power->wake_register_bank(m_rf.bank_of(in.src[k], wi, w.scheduler), t));
    }
  for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
    if (in.dst[k] < num_regs)
      wake =
          std::max(wake, m_power->wake_register_bank(m_rf.bank_of(in.dst[k], wi, w.scheduler), t));
  if (reads) wake = std::max(wake, m_power->wake_collector(t));
  return std::max(wake, m_power->wake_pipe(std::size_t(p), t));
}

void smx::issue_memory(std::uint32_t wi, warp_state& w, const warp_instruction& in,
                       std::uint64_t now, std::uint64_t wake) {
  bool has_dst = false;
  auto set_dst = [&](std::uint64_t cycle) {
    for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k)
      if (in.dst[k] < num_regs) {
        m_scoreboard.set(wi, in.dst[k], cycle);
        has_dst = true;
      }
    if (cycle != never) w.regs_ready_by = std::max(w.regs_ready_by, cycle);
  };
  if (in.special != traces::special_op::none) return issue_cb(wi, w, in, now, wake);
  // With the LD/ST unit's group 1 gated (μC-States' EX_LDST), half its lanes generate the
  // addresses: ceil(active lanes / (warp_size / 2)) cycles instead of one; the requests
  // leave (and a shared-memory access starts) after them.
  const std::uint64_t agen =
      m_ldst_tuned_down
          ? std::max<std::uint64_t>(1, (traces::lane_count(in.active_mask) + *m_warp_size / 2 - 1) /
                                           std::max<std::uint64_t>(1, *m_warp_size / 2))
          : 1;
  switch (in.space) {
    case traces::mem_space::shared:
    case traces::mem_space::shared_atomic: {
      std::uint32_t c = m_ldst.shared_cycles(in, w.addresses);
      m_shared_bank_cycles += c;
      m_power->shared_memory(c);
      if (m_power->any_gated()) wake = std::max(wake, m_power->wake_shared_memory(now_fs()));
      const std::uint64_t start = now + wake;  // (now without a gating policy)
      c = std::max<std::uint32_t>(c, std::uint32_t(agen));
      m_ldst.busy_until(start + c);
      std::uint64_t ready = start + *m_shared_memory_latency + c - 1;
      if (m_rf_managed)
        ready += m_rf.fixed_results(wi, w.scheduler, w.issued - 1, in, now,
                                    *m_shared_memory_latency, ready, next_of(w));
      set_dst(ready);
      w.drain = std::max(w.drain, ready);
      m_timers.push(ready);
      m_timers.push(start + c);
      return;
    }
    case traces::mem_space::constant:
    case traces::mem_space::none: {
      m_ldst.busy_until(now + wake + agen);
      std::uint64_t ready = now + wake + *m_shared_memory_latency;
      if (m_rf_managed)
        ready += m_rf.fixed_results(wi, w.scheduler, w.issued - 1, in, now,
                                    *m_shared_memory_latency, ready, next_of(w));
      set_dst(ready);
      w.drain = std::max(w.drain, ready);
      m_timers.push(ready);
      if (wake + agen > 1) m_timers.push(now + wake + agen);
      return;
    }
    default:
      break;
  }
  wake += agen - 1;
  if (wake != 0) {
    // The LDST unit sends the requests (the first one in the next cycle otherwise) once the
    // components it waited for are awake.
    m_ldst.busy_until(now + 1 + wake);
    m_ldst.send_from(now + 1 + wake);
    m_timers.push(now + 1 + wake);
  }
  if (!m_ldst.coalesce(in, w.addresses)) {
    m_ldst.busy_until(now + 1 + wake);
    return;
  }
  if (m_ldst.coalesced().empty()) return;
  set_dst(never);
  if (has_dst) ++w.pending_dst_loads;
  if (has_dst && m_rf_managed) m_rf.load_results(wi, w.issued - 1, in, now);
  const access_kind kind = ldst_unit::kind_of(in);
  std::uint64_t flag_address = 0;  // a flag access's word: its first active lane's address
  if (kind == access_kind::flag_load || kind == access_kind::flag_store) {
    std::uint64_t a[32];
    if (traces::expand_addresses(*w.trace, in, a)) flag_address = a[0];
  }
  const std::uint32_t requests = m_ldst.enqueue(wi, in, kind, w.issued - 1, now, flag_address);
  w.outstanding += requests;
  if (kind == access_kind::atomic && *m_atomic_wait) {
    w.pending_atomics = static_cast<std::uint16_t>(w.pending_atomics + requests);
  }
}

void smx::send_requests(std::uint64_t now) {
  // The requests of a warp that left the SMX are not sent (export_warp).
  if (m_ldst.any_dropped())
    while (m_ldst.can_send(now) && m_ldst.head_dropped()) m_ldst.drop_request(m_ldst.pop().pending);
  if (!m_ldst.can_send(now)) return;
  if (m_sent_cycle != now) {
    m_sent_cycle = now;
    m_sent_in_cycle = 0;
  }
  ++m_sent_in_cycle;
  const ldst_unit::request& q = m_ldst.pop();
  tlm::tlm_generic_payload* gp;
  if (q.kind == access_kind::flush || q.kind == access_kind::carveout) {
    // An order to the L1 itself (a carve-out's shared-memory bytes in the address).
    gp = &m_pool.acquire(q.req.line_address, 0, tlm::TLM_WRITE_COMMAND);
    mem_request& r = payload_pool::request(*gp);
    r.smx = m_id;
    r.kind = q.kind;
    r.issue_time_fs = clock_domain::now_fs();
    if (q.kind == access_kind::flush) ++m_l1_flushes;
  } else if (q.kind == access_kind::instruction_fetch) {
    const warp_state& w = m_warps[q.warp];
    gp = &m_pool.acquire(q.req.line_address, q.req.bytes, tlm::TLM_READ_COMMAND);
    mem_request& r = payload_pool::request(*gp);
    r.smx = m_id;
    r.warp = q.warp;
    r.tb = m_tbs[w.tb_slot].desc.tb;
    r.kernel = m_tbs[w.tb_slot].desc.kernel;
    r.sector_mask = q.req.sector_mask;
    r.kind = q.kind;
    r.issue_time_fs = clock_domain::now_fs();
    if (priority) r.priority = priority->priority_of(census(), q.warp, now);
  } else {
    const warp_state& w = m_warps[q.warp];
    const tb_state& tb = m_tbs[w.tb_slot];
    const tlm::tlm_command cmd = is_write(q.kind) ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
    gp = &m_pool.acquire(q.req.line_address, q.req.bytes, cmd);
    mem_request& r = payload_pool::request(*gp);
    r.smx = m_id;
    r.warp = q.warp;
    r.tb = tb.desc.tb;
    r.kernel = tb.desc.kernel;
    r.pc = q.pc;
    r.lane_mask = q.req.lane_mask;
    r.sector_mask = q.req.sector_mask;
    r.kind = q.kind;
    r.issue_time_fs = clock_domain::now_fs();
    r.origin = reinterpret_cast<void*>(static_cast<std::uintptr_t>(q.pending));
    if (priority) r.priority = priority->priority_of(census(), q.warp, now);
    ++m_memory_requests;
    if (q.kind == access_kind::flag_load || q.kind == access_kind::flag_store) {
      write_flag(*gp, m_ldst.pending(q.pending).flag);
      if (q.kind == access_kind::flag_load) ++m_flag_polls;
    }
  }
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = ldst->nb_transport_fw(*gp, phase, delay);
  if (s == tlm::TLM_ACCEPTED)
    m_ldst.block(*gp);  // END_REQ withheld: the L1 pushes back
  else if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP))
    m_peq.notify(*gp, tlm::BEGIN_RESP, clock_domain::kernel_delay(delay));
  if (m_ldst.queued() != 0 && !m_ldst.blocked()) m_work_next_cycle = true;
}

void smx::response(tlm::tlm_generic_payload& gp) {
  edge_dispatcher::progress();
  const mem_request& r = payload_pool::request(gp);
  if (r.kind == access_kind::flush || r.kind == access_kind::carveout) {  // the L1 has done it
    m_pool.release(gp);
    if (m_ldst.queued() != 0) wake_at(clock().next_cycle());
    return;
  }
  if (r.kind == access_kind::instruction_fetch) return instruction_filled(gp);
  const std::uint32_t p = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(r.origin));
  const std::uint8_t served = r.served;
  const bool poll = r.kind == access_kind::flag_load;
  const std::uint32_t seen = poll ? read_flag(gp).value : 0;
  m_pool.release(gp);
  // The cycles slept so far count with the warps resident before this response (it may end
  // a warp), whether or not it wakes the SMX.
  account_until(clock().next_cycle());
  ldst_unit::pending_load& pl = m_ldst.pending(p);
  if (pl.dropped) {  // its warp left the SMX (export_warp)
    m_ldst.drop_request(p);
    return;
  }
  if (poll && seen < pl.flag.value) {  // short: the spin loop polls again
    ++m_flag_repolls;
    const std::uint64_t due = clock().next_cycle() + m_flag_poll_interval->value;
    m_repolls.push_back({due, p});
    m_timers.push(due);
    wake_at(due);
    return;
  }
  warp_state& w = m_warps[pl.warp];
  const bool atomic = pl.atomic;
  --w.outstanding;
  const std::uint64_t now = clock().next_cycle();
  pl.served = std::max(pl.served, served);
  if (--pl.requests == 0) {
    if (pl.restores_tb != ldst_unit::no_tb) release_device_sync(pl.restores_tb);
    bool had_dst = false;
    for (std::uint16_t d : pl.dst)
      if (d < num_regs) {
        m_scoreboard.set(pl.warp, d, now);
        had_dst = true;
      }
    if (had_dst) {
      --w.pending_dst_loads;
      w.regs_ready_by = std::max(w.regs_ready_by, now);
      if (m_rf_managed) load_written(pl, w, now);
    }
    m_ldst.release(p);
  }
  if (w.outstanding == 0) w.at_membar = false;
  if (atomic && w.pending_atomics != 0) --w.pending_atomics;
  // A response that leaves the warp waiting for a load (a store's, another load's, one of
  // several requests of a load) does not make the scheduler examine it again.
  if (!waits_for_a_load(pl.warp)) {
    unblock_warp(pl.warp);
    wake_at(now);
  }
  maybe_finish_warp(pl.warp);
}

void smx::load_written(const ldst_unit::pending_load& pl, warp_state& w, std::uint64_t now) {
  // A register-level power controller: a destination still waking delays its write-back;
  // then its new mode.
  registers->load_answered(pl.warp, pl.issued, now, pl.served);
  std::uint64_t at[2] = {now, now};
  for (std::size_t k = 0; k < 2; ++k) {
    const std::uint16_t d = pl.dst[k];
    if (!m_rf.tracked(pl.warp, d)) continue;
    at[k] +=
        registers->load_written(pl.warp, d, m_rf.bank_of(d, pl.warp, w.scheduler), now, pl.served);
    if (at[k] == now) continue;
    m_scoreboard.set(pl.warp, d, at[k]);
    w.regs_ready_by = std::max(w.regs_ready_by, at[k]);
    w.drain = std::max(w.drain, at[k]);
    m_timers.push(at[k]);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const std::uint16_t d = pl.dst[k];
    if (!m_rf.tracked(pl.warp, d)) continue;
    std::uint32_t wake_for = 0;
    const std::uint64_t t = at[k];
    const register_file::outlook o =
        m_rf.idle_of(pl.warp, pl.inst, w.insts[pl.inst], d, pl.inst + 1, outlook_of(pl.warp, w, t),
                     wake_for, [&](std::uint32_t j) { return outlook_of(pl.warp, w, t, j); });
    registers->after_access(pl.warp, d, at[k],
                            m_rf.dead_after(pl.warp, pl.inst, w.insts[pl.inst], d), o, wake_for);
  }
}

register_file::outlook smx::outlook_of(std::uint32_t wi, const warp_state& w, std::uint64_t now,
                                       std::uint32_t j) const {
  // No instruction left: idle for good (an exited warp's registers are OFF anyway).
  if (j >= w.size) return {std::uint64_t(1) << 40, true};
  std::uint64_t ready = m_scoreboard.ready_by(wi, w.insts[j]);
  if (ready == never) {  // waits for a load: its predicted return, if it missed L1
    const std::uint64_t due = registers->load_due(wi);
    return due > now ? register_file::outlook{due - now, true} : register_file::outlook{0, false};
  }
  // Not in the buffer yet: the fetch lands it in the next cycle if the instruction cache
  // holds it; if not, the fetch-unit list says so (rules (c)/(d) of the controller).
  bool not_in_l1i = false;
  if (j >= w.fetched) {
    ready = std::max(ready, now + 1);
    not_in_l1i = m_icache && !m_icache->contains(code_address(w.insts[j].pc));
  }
  return {ready > now + 1 ? ready - now - 1 : 0, true, not_in_l1i};
}

bool smx::waits_for_a_load(std::uint32_t wi) const {
  const warp_state& w = m_warps[wi];
  const blocked_state& b = m_blocked[wi];
  if (b.until != never || b.reason != stall_reason::scoreboard || w.at_membar ||
      w.pending_atomics != 0 || w.pending_dst_loads == 0 || !w.live || w.checked != w.issued ||
      w.issued >= w.size)
    return false;
  return m_scoreboard.ready_by(wi, w.insts[w.issued]) == never;
}

}  // namespace gputlm::core

// ---------------------------------------------------------------------------------------
// Device-side launches and CDP.SYNC (launch_unit.h)

namespace gputlm::core {

void smx::start_launch(std::uint32_t wi, warp_state& w, const warp_instruction& in,
                       std::uint64_t now) {
  control::workload* work_ptr = work().ptr;
  tb_state& tb = m_tbs[w.tb_slot];
  // The run: this instruction and the launches after it at the same PC, one lane each.
  std::uint32_t x = 1;
  while (w.issued - 1 + x < w.size && x < 32) {
    const warp_instruction& next = w.insts[w.issued - 1 + x];
    if (next.pc != in.pc || next.special != in.special) break;
    ++x;
  }
  m_launch.run_left(wi) = x - 1;
  launch_unit::command_slot& slot = m_launch.acquire();
  control::launch_command& c = slot.cmd;
  c = control::launch_command{};
  c.what = in.special == traces::special_op::launch_agg_group ? control::launch_command::kind::dtbl
                                                              : control::launch_command::kind::cdp;
  c.smx = m_id;
  c.warp = wi;
  c.parent = tb.desc.kernel;
  c.count = x;
  c.issue_cycle = now;
  c.api_cycles = m_launch.api_cycles(c.what, x);
  slot.tb_slot = w.tb_slot;
  slot.tb_generation = tb.generation;
  try {
    control::kernel_run& parent = work_ptr->kernel(c.parent);
    for (std::uint32_t k = 0; k < x; ++k) {
      const warp_instruction& li = w.insts[w.issued - 1 + k];
      if (li.ext_index >= w.trace->launches.size())
        throw input_error({work_ptr->reader(c.parent).source(), 0, 0}, "launch",
                          "a launch instruction without its launch record");
      const traces::device_launch& l = w.trace->launches[li.ext_index];
      c.child[k] = work_ptr->device_child(
          l.child_kernel, c.parent,
          "TB " + std::to_string(tb.desc.tb) + " launch at PC " + std::to_string(li.pc));
      control::kernel_run& child = work_ptr->kernel(c.child[k]);
      child.parent = c.parent;
      child.root = parent.root;
      child.depth = parent.depth + 1;
      child.launch_smx = m_id;
      child.launch_cycle = now;
      c.hw_tid[k] =
          wi * 32 + static_cast<std::uint32_t>(__builtin_ctz(li.active_mask | 0x80000000u));
    }
  } catch (const input_error& e) {  // a launch the trace cannot honour: stop, report
    if (!work_ptr->error) work_ptr->error = e;
    m_launch.release(slot);
    sc_core::sc_stop();
    return;
  }
  ++m_launch_commands;
  m_api_cycles += c.api_cycles;
  if (c.what == control::launch_command::kind::cdp) ++m_launch.outstanding(w.tb_slot);
  w.in_device_api = true;
  set_blocked(wi, never, stall_reason::scoreboard);
  slot.gp.set_command(tlm::TLM_WRITE_COMMAND);
  slot.gp.set_address(0);
  slot.gp.set_data_ptr(reinterpret_cast<unsigned char*>(&c));
  slot.gp.set_data_length(sizeof c);
  slot.gp.set_streaming_width(sizeof c);
  slot.gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  // A CDP command reaches the KMU once the API calls are done; a DTBL one at once (the
  // searches run in parallel with the parameter buffer's allocation).
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = c.what == control::launch_command::kind::cdp
                               ? clock().delay_cycles(c.api_cycles)
                               : sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = launch->nb_transport_fw(slot.gp, phase, delay);
  if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) launch_request_ended(slot);
  if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
    launch_request_ended(slot);
    launch_done(slot);
  }
}

tlm::tlm_sync_enum smx::launch_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                  sc_core::sc_time&) {
  launch_unit::command_slot& slot = m_launch.slot_of(gp);
  account_until(clock().next_cycle());
  if (phase == tlm::END_REQ) {
    launch_request_ended(slot);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    launch_request_ended(slot);  // (a response implies the request phase ended)
    launch_done(slot);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

// The KMU took the command: its warp goes on once the API calls are done (DTBL: and the
// searches, whichever is longer).
void smx::launch_request_ended(launch_unit::command_slot& slot) {
  if (slot.request_ended) return;
  slot.request_ended = true;
  const control::launch_command& c = slot.cmd;
  const std::uint64_t now = clock().next_cycle();
  std::uint64_t at = now;
  if (c.what == control::launch_command::kind::dtbl)
    at = std::max(now, c.issue_cycle + std::max(c.api_cycles, c.search_cycles));
  m_launch.resume_at(at, c.warp);
  m_timers.push(at);
  wake_at(at);
}

// Every kernel the command launched has completed (CDP), or it launched none (DTBL groups
// all coalesced): a TB waiting at CDP.SYNC may go on.
void smx::launch_done(launch_unit::command_slot& slot) {
  const bool cdp = slot.cmd.what == control::launch_command::kind::cdp;
  const std::uint32_t s = slot.tb_slot;
  const bool same_tb = m_tbs[s].live && m_tbs[s].generation == slot.tb_generation;
  m_launch.release(slot);
  if (!cdp || !same_tb) return;
  if (--m_launch.outstanding(s) == 0 && m_tbs[s].suspended) context_traffic(s, true);
}

void smx::device_sync_arrived(std::uint32_t s) {
  ++m_device_syncs;
  if (m_launch.outstanding(s) == 0) {
    release_device_sync(s);
    return;
  }
  // Children still run: the TB's context goes to memory while it waits.
  ++m_syncs_waited;
  m_tbs[s].suspended = true;
  context_traffic(s, false);
}

void smx::release_device_sync(std::uint32_t s) {
  tb_state& tb = m_tbs[s];
  tb.suspended = false;
  tb.at_device_sync = 0;
  for (std::uint32_t wi : tb.warps) {
    if (!m_warps[wi].live) continue;
    m_warps[wi].at_barrier = false;
    unblock_warp(wi);
  }
  m_work_next_cycle = true;
  wake_at(clock().next_cycle());
}

void smx::context_traffic(std::uint32_t s, bool restore) {
  tb_state& tb = m_tbs[s];
  // The TB's registers (its warps' threads, registers rounded as allocated) and its shared
  // memory, in 128-byte lines, at the slot's place in the reserved region.
  const std::uint64_t bytes =
      std::uint64_t(tb.desc.demand.registers(32)) * 4 + tb.desc.demand.shared_memory;
  const std::uint32_t lines = static_cast<std::uint32_t>((bytes + 127) / 128);
  m_context_bytes += bytes;
  std::uint32_t rep = tb.warps.front();
  for (std::uint32_t wi : tb.warps)
    if (m_warps[wi].live) {
      rep = wi;
      break;
    }
  if (lines == 0) {
    if (restore) release_device_sync(s);
    return;
  }
  const std::uint64_t base = launch_unit::context_base +
                             (std::uint64_t(m_id) * m_tbs.size() + s) * launch_unit::context_stride;
  m_ldst.enqueue_lines(rep, base, lines,
                       restore ? access_kind::local_load : access_kind::local_store,
                       restore ? s : ldst_unit::no_tb);
  m_warps[rep].outstanding += lines;
  m_work_next_cycle = true;
  wake_at(clock().next_cycle());
}

// ---------------------------------------------------------------------------------------
// Datapath groups (datapath_gates.h)

namespace {
// The pipeline whose execution units a μC-States component is (none: not an EX unit).
unit_pipe ex_pipe(pm::uc_component c) {
  return c == pm::uc_component::ex_sp    ? unit_pipe::sp
         : c == pm::uc_component::ex_sfu ? unit_pipe::sfu
                                         : unit_pipe::none;
}
}  // namespace

namespace {
// The pipeline (0 SP, 1 SFU, 2 LD/ST) of an IDOC, OC or OCEX component, or -1.
int idoc_type(pm::uc_component c) { return pm::uc_pipe_of(c, pm::uc_component::idoc_sp); }
int oc_type(pm::uc_component c) { return pm::uc_pipe_of(c, pm::uc_component::oc_sp); }
int ocex_type(pm::uc_component c) { return pm::uc_pipe_of(c, pm::uc_component::ocex_sp); }
}  // namespace

bool smx::tunable(pm::uc_component c) const {
  if (c == pm::uc_component::ifid || c == pm::uc_component::ex_ldst) return true;
  if (const int k = idoc_type(c); k >= 0) return m_idoc.width(std::uint32_t(k)) >= 2;
  if (const int k = ocex_type(c); k >= 0) return m_ocex.width(std::uint32_t(k)) >= 2;
  if (const int k = oc_type(c); k >= 0)
    return m_rf.banks_view().collector_sets() && m_rf.banks_view().collector_units(k) >= 2;
  if (c == pm::uc_component::sch) return m_sched_warps.size() > 1 && !*m_sub_core_model;
  const pipe p = ex_pipe(c);
  return p != pipe::none && m_units[std::size_t(p)].exists();
}

bool smx::tuned_down(pm::uc_component c) const {
  if (c == pm::uc_component::ifid) return m_fetch_limit < *m_fetch_warps;
  if (c == pm::uc_component::sch) return m_sch_tuned_down;
  if (c == pm::uc_component::ex_ldst) return m_ldst_tuned_down;
  if (const int k = idoc_type(c); k >= 0) return m_idoc.tuned_down(std::uint32_t(k));
  if (const int k = ocex_type(c); k >= 0) return m_ocex.tuned_down(std::uint32_t(k));
  if (const int k = oc_type(c); k >= 0)
    return m_rf.banks_view().collectors_limited(std::uint32_t(k));
  return tunable(c) && m_units[std::size_t(ex_pipe(c))].tuned_down();
}

std::vector<datapath_gates::power_group> smx::group_power(pm::uc_component c) {
  if (!tunable(c)) return {};
  // Shared by the three pipelines: two elements per pipeline (its groups 0 and 1), an equal
  // share each; the pipeline registers two per pipeline and stage (IDOC, then OCEX).
  if (const int k = oc_type(c); k >= 0)
    return {{&m_power->collector(), 6, 2 * std::uint32_t(k) + 1},
            {&m_power->register_file(), 6, 2 * std::uint32_t(k) + 1}};
  if (const int k = idoc_type(c); k >= 0)
    return {{&m_power->pipeline_registers(), 12, 2 * std::uint32_t(k) + 1}};
  if (const int k = ocex_type(c); k >= 0)
    return {{&m_power->pipeline_registers(), 12, 6 + 2 * std::uint32_t(k) + 1}};
  if (c == pm::uc_component::ifid) return {{&m_power->fetch_decode()}};
  if (c == pm::uc_component::sch) return {{&m_power->scheduler()}};
  const pipe p = c == pm::uc_component::ex_ldst ? pipe::ldst : ex_pipe(c);
  return {{&m_power->pipe_component(std::size_t(p))}};
}

double smx::width(pm::uc_component c) const {
  if (c == pm::uc_component::ifid) return double(*m_fetch_warps * *m_fetch_width);
  if (const int k = idoc_type(c); k >= 0) return double(m_idoc.width(std::uint32_t(k)));
  if (const int k = ocex_type(c); k >= 0) return double(m_ocex.width(std::uint32_t(k)));
  if (const int k = oc_type(c); k >= 0)
    return m_rf.banks_view().collector_sets() ? double(m_rf.banks_view().collector_units(k)) : 0;
  if (c == pm::uc_component::sch) return double(m_sched_warps.size());
  const pipe p = c == pm::uc_component::ex_ldst ? pipe::ldst : ex_pipe(c);
  if (p == pipe::ldst) return double(*m_warp_size);  // one instruction's requests at a time
  if (p == pipe::none || !m_units[std::size_t(p)].exists()) return 0;
  const unit_pool& u = m_units[std::size_t(p)];
  return double(u.count()) * double(*m_warp_size) / double(u.initiation());
}

void smx::tune(pm::uc_component c, bool down) {
  if (!tunable(c) || tuned_down(c) == down) return;
  if (c == pm::uc_component::ifid) {  // half the warps fetched a cycle (at least one)
    m_fetch_limit = down ? std::max<std::uint64_t>(1, *m_fetch_warps / 2) : *m_fetch_warps;
    wake_at(clock().next_cycle());
    return;
  }
  if (c == pm::uc_component::ex_ldst) {  // address generation on 16 lanes (issue_memory)
    m_ldst_tuned_down = down;
    return;
  }
  if (const int k = idoc_type(c); k >= 0) {  // half the type's issue-to-collector slots
    m_idoc.tune(std::uint32_t(k), down);
    wake_at(clock().next_cycle());
    return;
  }
  if (const int k = ocex_type(c); k >= 0) {  // half its collector-to-execution slots
    m_ocex.tune(std::uint32_t(k), down);
    return;
  }
  if (const int k = oc_type(c); k >= 0) {  // the type's first half of collector units
    const std::uint32_t n = m_rf.banks().collector_units(std::uint32_t(k));
    m_rf.banks().limit_collectors(std::uint32_t(k), down ? std::max(1u, n / 2) : n);
    wake_at(clock().next_cycle());
    return;
  }
  if (c == pm::uc_component::sch) {  // the upper half served by the lower (cycle())
    m_sch_tuned_down = down;
    for (sched_masks& m : m_sched_masks) m.quiet_until = 0;
    wake_at(clock().next_cycle());
    return;
  }
  m_units[std::size_t(ex_pipe(c))].set_tuned_down(down);
  // Turned back on, units free sooner than warps known blocked for one, and the
  // schedulers' quiet periods, assumed: those are looked at again. (Gated, units free no
  // sooner: a warp that wakes before its unit is free waits again.)
  if (down) return;
  for (std::uint32_t wi = 0; wi < m_warps.size(); ++wi)
    if (m_warps[wi].live && m_blocked[wi].reason == stall_reason::unit_busy &&
        m_blocked[wi].until != never)
      unblock_warp(wi);
  for (sched_masks& m : m_sched_masks) m.quiet_until = 0;
  wake_at(clock().next_cycle());
}

// ---------------------------------------------------------------------------------------
// Warp migration (warp_migration.h)

bool smx::migratable(const tb_state& tb) const {
  if (tb.migratable == 0) {
    tb.migratable = 1;
    for (const traces::warp_trace& wt : tb.trace->warps)
      for (const warp_instruction& in : wt.insts) {
        const bool flag =
            in.space == traces::mem_space::global && in.ext_index != warp_instruction::none;
        if ((in.special != traces::special_op::none && in.special != traces::special_op::exit) ||
            in.space == traces::mem_space::shared || in.space == traces::mem_space::shared_atomic ||
            flag) {
          tb.migratable = 2;
          return false;
        }
      }
  }
  return tb.migratable == 1;
}

warp_migration::refusal smx::export_refusal(std::uint32_t wi) const {
  if (wi >= m_warps.size() || !m_warps[wi].live) return refusal::not_resident;
  const warp_state& w = m_warps[wi];
  const tb_state& tb = m_tbs[w.tb_slot];
  if (!migratable(tb)) return refusal::kernel;
  if (w.at_barrier || w.at_membar || w.in_device_api || w.imiss || w.pending_atomics != 0 ||
      tb.suspended)
    return refusal::waiting;
  if (w.issued >= w.size) return refusal::no_load;
  bool loads = false, others = false;
  m_ldst.for_each_in_flight([&](std::uint32_t, const ldst_unit::pending_load& pl) {
    if (pl.warp != wi || pl.dropped) return;
    const bool load = pl.dst[0] < num_regs || pl.dst[1] < num_regs;
    (load && !pl.atomic && pl.restores_tb == ldst_unit::no_tb ? loads : others) = true;
  });
  if (others) return refusal::store;
  return loads ? refusal::none : refusal::no_load;
}

warp_context smx::export_warp(std::uint32_t wi,
                              const std::vector<tlm::tlm_generic_payload*>& cancelled) {
  account_until(clock().next_cycle());
  warp_state& w = m_warps[wi];
  tb_state& tb = m_tbs[w.tb_slot];
  // Rewind to the oldest load in flight; drop it and every later request of the warp.
  std::uint32_t rewind = w.issued;
  m_ldst.for_each_in_flight([&](std::uint32_t p, const ldst_unit::pending_load& pl) {
    if (pl.warp != wi || pl.dropped) return;
    rewind = std::min(rewind, pl.inst);
    m_ldst.drop(p);
  });
  for (tlm::tlm_generic_payload* gp : cancelled) {  // given back by the L1's MSHR
    const auto p = static_cast<std::uint32_t>(
        reinterpret_cast<std::uintptr_t>(payload_pool::request(*gp).origin));
    m_pool.release(*gp);
    m_ldst.drop_request(p);
  }
  // The instructions issued since are issued again by the guest: counted there.
  for (std::uint32_t k = rewind; k < w.issued; ++k) {
    const warp_instruction& in = w.insts[k];
    const std::uint32_t lanes = traces::lane_count(in.active_mask);
    m_warp_instructions -= 1;
    m_thread_instructions -= lanes;
    tb.report.warp_instructions -= 1;
    tb.report.thread_instructions -= lanes;
    m_mix[std::min<std::size_t>(std::size_t(in.unit), m_mix.size() - 1)] -= 1;
  }
  warp_context ctx;
  ctx.host = tb.foreign ? tb.host : m_id;
  ctx.host_tb = tb.foreign ? tb.host_tb : w.tb_slot;
  ctx.host_generation = tb.foreign ? tb.host_generation : tb.generation;
  ctx.hops = (tb.foreign ? tb.hops : 0) + 1;
  if (tb.foreign) {
    ctx.carried = tb.carried;
    ctx.carried.warp_instructions += tb.report.warp_instructions;
    ctx.carried.thread_instructions += tb.report.thread_instructions;
  }
  ctx.kernel = tb.desc.kernel;
  ctx.tb = tb.desc.tb;
  ctx.trace = w.trace;
  ctx.tb_trace = tb.trace;
  ctx.next = rewind;
  ctx.regs_per_thread = tb.desc.demand.regs_per_thread;
  ctx.squashed = w.issued - rewind;
  // Retired like a finished warp; its TB stays until the guest reports it done.
  w.outstanding = 0;
  w.pending_dst_loads = 0;
  m_scoreboard.clear(wi);
  retire_warp(wi);
  if (m_rf_managed) m_rf.release(wi, clock().next_cycle());
  tb.warps.erase(std::find(tb.warps.begin(), tb.warps.end(), wi));
  if (tb.foreign)  // moving on: the foreign TB ends here, its host not told
    end_foreign_tb(w.tb_slot, false);
  else
    ++tb.away;
  wake_at(clock().next_cycle());
  return ctx;
}

bool smx::adopt(const warp_context& ctx) {
  auto slot_it =
      std::find_if(m_tbs.begin(), m_tbs.end(), [](const tb_state& t) { return !t.live; });
  std::uint32_t wi = 0;
  while (wi < m_warps.size() && (masks_of(wi).live & sched_bit(wi))) ++wi;
  if (slot_it == m_tbs.end() || wi == m_warps.size()) return false;
  account_until(clock().next_cycle());
  const std::uint32_t slot = static_cast<std::uint32_t>(slot_it - m_tbs.begin());
  tb_state& tb = *slot_it;
  tb = tb_state{};
  tb.live = true;
  tb.foreign = true;
  tb.migratable = 1;
  tb.desc.kernel = ctx.kernel;
  tb.desc.tb = ctx.tb;
  tb.desc.demand.threads = warp_size();
  tb.desc.demand.regs_per_thread = ctx.regs_per_thread;
  tb.generation = m_launch.new_tb(slot);
  tb.trace = ctx.tb_trace;
  tb.host = ctx.host;
  tb.host_tb = ctx.host_tb;
  tb.host_generation = ctx.host_generation;
  tb.hops = ctx.hops;
  tb.carried = ctx.carried;
  start_warp(wi, slot, *ctx.trace, ctx.regs_per_thread, ctx.next);
  m_trace_tbs.set(m_trace_tbs + 1);
  if (m_resident_tbs++ == 0) m_power->core_busy(now_fs());
  m_trace_active_warps.set(m_live_warps);
  const std::uint64_t cycle = clock().now_cycle();
  events.notify([&](smx_events& o) { o.tb_started(slot, 1, cycle); });
  wake_at(clock().next_cycle());
  return true;
}

void smx::remote_warp_done(std::uint32_t slot, std::uint64_t generation,
                           const control::tb_report& issued_there) {
  if (slot >= m_tbs.size() || !m_tbs[slot].live || m_tbs[slot].generation != generation) {
    SC_REPORT_ERROR(name(), "an adopted warp reported done for a TB no longer here");
    return;
  }
  account_until(clock().next_cycle());
  tb_state& tb = m_tbs[slot];
  tb.report.warp_instructions += issued_there.warp_instructions;
  tb.report.thread_instructions += issued_there.thread_instructions;
  if (++tb.warps_done == tb.warps.size() + tb.away) finish_tb(slot);
  wake_at(clock().next_cycle());
}

GPUTLM_BLOCK("smx", smx, "streaming multiprocessor", {"scheduler_policy"});

}  // namespace gputlm::core
