// The SPU's global block sync (the original BAR.BLOCKSYNC; Rajasree thesis §2.2.1, §4.1;
// SPU-Sim barrier_set_t): a barrier over every active unit (SMs and interface units); when
// the last active unit arrives, every link's buffer pair swaps and all units are released
// in the same cycle, `sync_latency` cycles later (0, as SPU-Sim). Sockets `unit[i]`
// (targets, non-blocking; one per unit that may take part): an arrival is BEGIN_REQ; the
// last arrival completes in its own call (TLM_COMPLETED with the delay), the others by
// BEGIN_RESP on their backward paths. The runtime says how many units are active
// (set_active) and which links swap (add_link). Statistics: barriers, cycles units waited;
// a barrier left incomplete names the units still missing in the report of a run that
// cannot finish.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

#include "models/common/component.h"

namespace gputlm::spu {

class communication_buffer;

class global_sync : public component {
 public:
  using socket_type = tlm_utils::simple_target_socket_tagged<global_sync>;

  global_sync(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  std::string pending_work() const override;

  std::vector<std::unique_ptr<socket_type>> unit;

  // Units taking part in the next barriers (at most `units`; all by default).
  void set_active(std::size_t n);
  void add_link(communication_buffer& cb) { m_links.push_back(&cb); }
  std::uint64_t barriers() const { return m_barriers.value(); }
  std::uint64_t wait_cycles() const { return m_wait_cycles.value(); }

 private:
  tlm::tlm_sync_enum arrive(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);

  std::uint64_t m_units = 0;  // units that may take part (SMs and IUs): as many as bound
  param<cycles> m_sync_latency{
      *this, "sync_latency", {0}, "cycles from the last arrival to the release (SPU-Sim: 0)"};
  std::size_t m_active = 0;
  std::vector<tlm::tlm_generic_payload*> m_waiting;  // per unit, while it waits
  std::vector<std::uint64_t> m_since;
  std::size_t m_arrived = 0;
  std::vector<communication_buffer*> m_links;
  counter m_barriers, m_wait_cycles;
};

}  // namespace gputlm::spu
