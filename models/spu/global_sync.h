// The SPU's global block sync (the original BAR.BLOCKSYNC; Rajasree thesis §2.2.1, §4.1;
// SPU-Sim barrier_set_t): a barrier over every active unit (SMs and interface units); when
// the last active unit arrives, every link's buffer pair swaps and all units are released
// in the same cycle, `sync_latency` cycles later (0, as SPU-Sim). Sockets `unit[i]`
// (targets, non-blocking; one per unit that may take part): an arrival is BEGIN_REQ; the
// last arrival completes in its own call (TLM_COMPLETED with the delay), the others by
// BEGIN_RESP on their backward paths. The runtime says how many units are active
// (`control`: set_active); the links every barrier swaps are bound to its ports `link[i]`
// (each link's export `swap`). Statistics: barriers, cycles units waited;
// a barrier left incomplete names the units still missing in the report of a run that
// cannot finish.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <vector>

#include "models/common/component.h"

#include "models/spu/communication_buffer.h"

namespace gputlm::spu {

// What the runtime sets of the barrier (the global sync's export `control`).
class barrier_control : public virtual sc_core::sc_interface {
 public:
  // Units taking part in the next barriers (at most the units bound; all by default).
  virtual void set_active(std::size_t n) = 0;
};

class global_sync : public component, public barrier_control {
 public:
  using socket_type = tlm_utils::simple_target_socket_tagged<global_sync>;

  global_sync(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  std::string pending_work() const override;

  std::vector<std::unique_ptr<socket_type>> unit;

  void set_active(std::size_t n) override;
  sc_core::sc_export<barrier_control> control{"control"};
  // The links every barrier swaps (`link[i]`, as many as bound).
  std::vector<std::unique_ptr<required_port<link_swap>>> link;
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
  counter m_barriers, m_wait_cycles;
};

}  // namespace gputlm::spu
