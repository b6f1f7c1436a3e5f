// What LATOA's messages between cores carry (seed 003 §4.3-4.4): a warp's context from a
// host to its guest, and the guest's notice that the adopted warp ended. The packets that
// carry them travel the mesh (models/noc/peer_transport.h); the mailbox (export `mailbox`
// of models/core/latoa_neighbours.h, the chip's LATOA block) holds what the model needs of
// a message besides its bytes (the warp's trace, its TB, the counts issued there) from the
// send to the last packet's arrival, under the tag the packets carry.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/control/control_registers.h"
#include "models/core/warp_migration.h"

namespace gputlm::core {

struct latoa_message {
  bool done = false;          // a "warp done" notice (else a context)
  warp_context context;       // the context; for a notice, its host, TB slot and generation
  control::tb_report issued;  // a notice: what the warp issued on the guest
};

class latoa_mailbox : public virtual sc_core::sc_interface {
 public:
  // Holds a message until take(); returns its tag.
  virtual std::uint64_t post(latoa_message m) = 0;
  virtual latoa_message take(std::uint64_t tag) = 0;
  // Contexts SMX `host` posted that are not taken yet (LATOA: one in flight per core).
  virtual std::uint32_t contexts_from(std::uint32_t host) const = 0;
};

}  // namespace gputlm::core
