// An SPU SM's neighbour path (Rajasree thesis §2.2.1, §4.2; SPU-Sim's ld/st .cbh/.cbv and
// bar.blocksync): the block beside an SM that joins it to the communication buffers of its
// four links and to the block syncs. Bound to its SM in the platform (`neighbour -> links.core`,
// `links.sm -> tb_release`): the SMX hands it each CB.PUSH / CB.POP (the LDST unit's
// shared-memory path) and each BAR.BLOCKSYNC its TB reaches with all warps, and it releases
// the TB through the SM's export.
// Sockets (initiators): `west`, `north` to the reader side of the links the SM consumes
// from, `east`, `south` to the writer side of those it produces into (b_transport: the
// buffer's access delay); `west_sync` … `south_sync` to the same links' syncs and
// `global_sync` to the global barrier (non-blocking: released in the call or by
// BEGIN_RESP). A released TB goes on in the next cycle, as at BAR.SYNC.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <memory>

#include "models/common/component.h"
#include "models/common/wakeup.h"
#include "models/core/neighbour_port.h"
#include "models/spu/sync_arrival.h"

namespace gputlm::spu {

class link_port : public component, public core::neighbour_port {
 public:
  using sync_socket = tlm_utils::simple_initiator_socket_tagged<link_port>;
  using data_socket = tlm_utils::simple_initiator_socket<link_port>;
  // Socket order: north, west, east, south (data and sync), then the global sync.
  static constexpr int links = 4, global = 4;

  link_port(const sc_core::sc_module_name& name, const block_context& ctx);

  // The SM's side: its neighbour path (core::neighbour_port, provided) and its TB release.
  sc_core::sc_export<core::neighbour_port> core{"core"};
  required_port<core::block_sync_release> sm{"sm"};

  std::array<std::unique_ptr<data_socket>, links> data;
  std::array<std::unique_ptr<sync_socket>, links + 1> sync;
  // The SM acting as an interface unit (a partial pass's east or south border, SPU-Sim's
  // set_possible_vius): its unit (`viu`, an interface_unit inside the SM) reaches the link
  // it reads through these: `unit_cb` (b_transport; a debug write of 4 bytes at address 1
  // selects the link: 0 north, 1 west), `unit_sync` (that link's sync), `unit_global` (the
  // global barrier, on the SM's own place).
  tlm_utils::simple_target_socket<link_port> unit_cb{"unit_cb"};
  tlm_utils::simple_target_socket_tagged<link_port> unit_sync{"unit_sync"};
  tlm_utils::simple_target_socket_tagged<link_port> unit_global{"unit_global"};
  static constexpr std::uint64_t select_register = 1;

  std::uint64_t cb_access(traces::direction d, bool push, std::uint32_t bytes) override;
  void block_sync(traces::direction d, std::uint32_t slot) override;
  bool serves(traces::direction d) const override { return index_of(d) >= 0; }
  std::string pending_work() const override;
  void validate_bound() override;  // names its SM at each link's end
  std::uint64_t sync_wait_cycles() const { return m_wait_cycles.value(); }

 private:
  static int index_of(traces::direction d);
  tlm::tlm_sync_enum sync_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& delay);
  void release(int id, std::uint64_t at);
  void unit_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned unit_dbg(tlm::tlm_generic_payload& gp);
  tlm::tlm_sync_enum unit_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& delay);
  void run();

  std::array<sync_arrival, links + 1> m_arrival;
  std::array<std::uint32_t, links + 1> m_slot{};
  std::array<std::uint64_t, links + 1> m_release_at{};
  std::array<bool, links + 1> m_releasing{};
  int m_acting = 1;                              // the link the SM's unit reads (0 N, 1 W)
  std::array<bool, links + 1> m_unit_waiting{};  // a sync of the unit's, not of a TB
  tlm::tlm_generic_payload m_access;
  counter m_wait_cycles;
  wakeup m_wake;
};

}  // namespace gputlm::spu
