// Streaming multiprocessor (SMX/SM): resident TBs' warps, warp schedulers, scoreboard,
// register banks and operand collectors, functional units and the LDST unit. Parameters
// follow GPGPU-Sim/Accel-Sim's tested configs (-gpgpu_shader_core_pipeline, _cta,
// _registers, _num_sched_per_core, trace.config latencies); see
// ../shared/reference/platforms.md §2. Sockets: `tbcr` (target) is the Thread Block
// Control Register the SMX scheduler writes; `ldst` (initiator) carries memory requests to
// the L1.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/component.h"

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

class smx : public component {
 public:
  smx(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;

  tlm_utils::simple_target_socket<smx> tbcr{"tbcr"};
  tlm_utils::simple_initiator_socket<smx> ldst{"ldst"};

  std::uint64_t max_warps() const { return *m_max_threads / *m_warp_size; }

 private:
  param<std::uint64_t> m_warp_size{*this, "warp_size", 32, "threads per warp"};
  param<std::uint64_t> m_max_threads{*this, "max_threads", 1536, "resident threads"};
  param<std::uint64_t> m_max_tbs{*this, "max_tbs", 8, "resident thread blocks"};
  param<std::uint64_t> m_registers{*this, "registers", 32768, "32-bit registers"};
  param<std::uint64_t> m_max_registers_per_tb{*this, "max_registers_per_tb", 65536,
                                               "registers one TB may use"};
  param<bytes> m_shared_memory{*this, "shared_memory", {48 * 1024}, "shared memory"};
  param<bytes> m_max_shared_memory_per_tb{*this, "max_shared_memory_per_tb", {48 * 1024},
                                          "shared memory one TB may use"};
  param<std::uint64_t> m_shared_memory_banks{*this, "shared_memory_banks", 32,
                                             "shared-memory banks (4 B wide)"};
  param<cycles> m_shared_memory_latency{*this, "shared_memory_latency", {3},
                                        "shared-memory access latency"};
  param<std::uint64_t> m_warp_schedulers{*this, "warp_schedulers", 2, "warp schedulers"};
  choice_param m_scheduler_policy{*this, "scheduler_policy", "gto", "warp scheduling policy",
                                  {"lrr", "gto", "two_level"}};
  param<std::uint64_t> m_max_issue_per_warp{*this, "max_issue_per_warp", 1,
                                            "instructions one warp may issue per cycle"};
  param<bool> m_dual_issue_different_units{*this, "dual_issue_different_units", false,
                                           "dual issue only to different unit classes"};
  param<bool> m_sub_core_model{*this, "sub_core_model", false,
                               "each scheduler owns its register banks and units"};
  param<std::uint64_t> m_fetch_width{*this, "fetch_width", 1,
                                     "instructions fetched per warp per cycle"};
  param<std::uint64_t> m_ibuffer_entries{*this, "ibuffer_entries", 2,
                                         "instruction buffer entries per warp"};
  param<std::uint64_t> m_register_banks{*this, "register_banks", 16, "register file banks"};
  param<std::uint64_t> m_register_port_throughput{*this, "register_port_throughput", 1,
                                                  "accesses per bank per cycle"};
  param<std::uint64_t> m_collectors_sp{*this, "collectors_sp", 0, "SP operand collector units"};
  param<std::uint64_t> m_collectors_sfu{*this, "collectors_sfu", 0,
                                        "SFU operand collector units"};
  param<std::uint64_t> m_collectors_mem{*this, "collectors_mem", 0,
                                        "MEM operand collector units"};
  param<std::uint64_t> m_collectors_generic{*this, "collectors_generic", 0,
                                            "generic operand collector units"};
  list_param m_pipeline_widths{*this, "pipeline_widths", {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                               "ID_OC SP,DP,INT,SFU,MEM; OC_EX SP,DP,INT,SFU,MEM; EX_WB"};
  unit_params m_sp{*this, "sp", 1, 4, 1};
  unit_params m_sfu{*this, "sfu", 1, 4, 1};
  unit_params m_dp{*this, "dp", 0, 4, 1};
  unit_params m_int{*this, "int", 0, 4, 1};
  unit_params m_tensor{*this, "tensor", 0, 4, 1};
  unit_params m_branch{*this, "branch", 1, 4, 1};
  param<std::uint64_t> m_ldst_units{*this, "ldst_units", 1, "LD/ST pipelines"};
  param<std::uint64_t> m_coalescing_arch{*this, "coalescing_arch", 20,
                                         "coalescing rules: 20 Fermi, 60/61 Pascal, 70 Volta"};
};

}  // namespace gputlm::core
