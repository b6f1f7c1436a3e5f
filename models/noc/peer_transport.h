// SMX-to-SMX messages on the interconnect (export `peer` of a network): LATOA's warp
// contexts and its "warp done" notices (Bitalebi et al., GPGPU 2023, §4.3; seed 003). A
// message leaves the sending SMX's node as packets of at most 128 data bytes behind an
// 8-byte header (as a data reply), one packet a cycle while its input buffer has room, and
// travels the reply subnet to the receiving SMX's node, where its network interface takes
// it from the ejection buffer it shares with the SMX's replies. The receiver hears of the
// message when its last packet has arrived. Only a topology with a path between SMX nodes
// carries them (the mesh); a crossbar joins SMXs to memories only.
#pragma once

#include <cstdint>
#include <systemc>

namespace gputlm::noc {

class peer_receiver {
 public:
  virtual ~peer_receiver() = default;
  // Every packet of message `tag` from SMX `from` has arrived.
  virtual void peer_arrived(std::uint32_t from, std::uint64_t tag) = 0;
};

class peer_transport : public virtual sc_core::sc_interface {
 public:
  // nullptr if SMX-to-SMX messages can travel; else why not.
  virtual const char* peer_unsupported() const = 0;
  // The receiver of the messages to SMX `smx`.
  virtual void attach_peer(std::uint32_t smx, peer_receiver& receiver) = 0;
  // Sends `bytes` (at least 1) from SMX `from` to SMX `to`.
  virtual void send_peer(std::uint32_t from, std::uint32_t to, std::uint32_t bytes,
                         std::uint64_t tag) = 0;
  // Packets a message of `bytes` travels as, and the flits of each but the last.
  static std::uint32_t packets_of(std::uint32_t bytes) { return (bytes + 127) / 128; }
};

}  // namespace gputlm::noc
