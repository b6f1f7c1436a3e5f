// What the crossbar and the 2-D mesh share: the SMX-side and memory-side network interfaces
// (packing requests and replies into packets of flits, injection and ejection buffers with
// their depths, the address -> memory sub-partition map) and a packet engine that moves
// packets over links with finite buffers: a packet waits in a buffer until its routing
// delay has passed, then for its next link to be free and for room in the buffer behind it
// (credit back-pressure) and occupies the link for ceil(flits / speedup) cycles. Its head
// reaches the next router channel_latency after the grant and is routed there while the
// tail follows (virtual cut-through at packet level, room for the whole packet reserved
// ahead); the network interface at the end takes it when the tail has arrived.
// Requests and replies travel on two separate subnets, as GPGPU-Sim's two-subnet
// configurations do, so replies never wait behind requests.
//
// Event-driven: the engine wakes only at a packet's next eligible time, when a link frees
// or when a buffer gains room; with no traffic it does nothing.
//
// MemcpyHtoD warm-up: at the start of the simulation the network plays the host's copy
// engine: every `MemcpyHtoD,addr,bytes` of the workload becomes one debug write
// (transport_dbg) per 128 B line, sent through mem[port_of(line)] to the L2 bank that owns
// the line (through its network interface). An L2 bank with warm_from_memcpy keeps the lines
// valid and answers the bytes taken; one that answers 0 (warm-up off) is not asked again.
//
// Sockets: `smx[i]` (target) from the L1s, `mem[j]` (initiator) to the L2 banks.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <memory>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/common/timed_queue.h"
#include "models/common/wakeup.h"
#include "models/memory/address_decoder.h"
#include "models/memory/sectors.h"
#include "models/memory/tlm_channels.h"
#include "models/noc/peer_transport.h"
#include "models/power/power_component.h"

namespace gputlm::noc {

struct noc_route;

class network : public component, public peer_transport {
 public:
  using target_type = tlm_utils::simple_target_socket_tagged<network>;
  using initiator_type = tlm_utils::simple_initiator_socket_tagged<network>;

  SC_HAS_PROCESS(network);
  network(const sc_core::sc_module_name& name, const block_context& ctx);
  ~network() override;
  void validate() override;
  void add_traces(vcd_writer& vcd) override;
  std::string pending_work() const override;
  void start_of_simulation() override;

  std::vector<std::unique_ptr<target_type>> smx;
  std::vector<std::unique_ptr<initiator_type>> mem;

  // SMX-to-SMX messages (peer_transport.h), on a topology that routes them.
  sc_core::sc_export<peer_transport> peer{"peer"};
  const char* peer_unsupported() const override;
  void attach_peer(std::uint32_t smx, peer_receiver& receiver) override;
  void send_peer(std::uint32_t from, std::uint32_t to, std::uint32_t bytes,
                 std::uint64_t tag) override;

  // Memory port (sub-partition) serving `addr`.
  std::uint32_t port_of(std::uint64_t addr) const { return m_decoder->sub_partition(addr); }
  std::uint64_t packets_in_flight() const { return m_in_flight; }
  // A payload's flits on the request (reply = false) or reply subnet; `packets`: how many
  // packets they stand for (with sector_replies, a multi-sector request's reply is one per
  // sector, carried here as one packet of their flits that holds links as long as they would).
  std::uint32_t flits_of(const tlm::tlm_generic_payload& gp, bool reply,
                         std::uint32_t* packets = nullptr) const;

 protected:
  static constexpr std::size_t max_hops = 40;
  // Bounds on the parameters (checked before anything is sized by them).
  static constexpr std::uint64_t max_ports = 1024;      // smx[i], mem[j] bound
  static constexpr std::uint64_t max_flit_size = 4096;  // bytes
  static constexpr std::uint64_t max_buffer = 65536;    // flits or packets per buffer
  struct packet;
  struct buffer {
    std::uint32_t capacity_flits = 0;
    std::uint32_t capacity_packets = 0;
    std::uint32_t flits = 0;
    std::uint32_t packets = 0;
    std::uint64_t frees = 0;  // times it made room (a packet left it)
    std::uint64_t entries = 0;  // packets that entered it (a packet's place in a FIFO input)
    std::uint64_t sending_until = 0;  // with serial inputs: the cycle its packet has crossed
    // Packets that left it in the cycle `left_cycle` (their flits and number).
    std::uint64_t left_cycle = ~std::uint64_t(0);
    std::uint32_t left_flits = 0, left_packets = 0;
    bool has_room(std::uint32_t f) const {
      return packets < capacity_packets && flits + f <= capacity_flits;
    }
    // Room for f flits as the buffer was at the start of cycle `now`, before any packet left
    // it in that cycle: what an injection from outside the network sees, whether it comes
    // before or after the network's run within the instant.
    bool had_room(std::uint32_t f, std::uint64_t now) const {
      const bool this_cycle = left_cycle == now;
      return packets + (this_cycle ? left_packets : 0) < capacity_packets &&
             flits + (this_cycle ? left_flits : 0) + f <= capacity_flits;
    }
    // A packet of f flits enters; returns its place in the buffer's order of entry.
    std::uint32_t enter(std::uint32_t f) {
      flits += f;
      ++packets;
      return static_cast<std::uint32_t>(entries++);
    }
    // Whether the packet that entered `place`-th is the oldest one still in the buffer (the
    // head of a FIFO input: packets leave a FIFO input in the order they entered).
    bool is_head(std::uint32_t place) const { return place == static_cast<std::uint32_t>(frees); }
    void leave(std::uint32_t f) {
      flits -= f;
      --packets;
      ++frees;
    }
    void leave(std::uint32_t f, std::uint64_t now) {
      leave(f);
      if (left_cycle != now) {
        left_cycle = now;
        left_flits = left_packets = 0;
      }
      left_flits += f;
      ++left_packets;
    }
  };
  // A set of small indices (ports, buffers) as a bitmap.
  struct bit_set {
    std::vector<std::uint64_t> words;
    void resize(std::size_t n) { words.assign((n + 63) / 64, 0); }
    void set(std::size_t i) { words[i / 64] |= std::uint64_t(1) << (i % 64); }
    void clear(std::size_t i) { words[i / 64] &= ~(std::uint64_t(1) << (i % 64)); }
    // Calls f(i) for each member in increasing order. Each 64-bit word is read once, when
    // the walk reaches it: a member f adds is visited only if it lies in a later word.
    template <class F>
    void for_each(F&& f) const {
      for (std::size_t w = 0; w < words.size(); ++w)
        for (std::uint64_t bits = words[w]; bits; bits &= bits - 1)
          f(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
    }
    // The same for the members that are also in `other` (of the same size).
    template <class F>
    void for_each_also_in(const bit_set& other, F&& f) const {
      for (std::size_t w = 0; w < words.size(); ++w)
        for (std::uint64_t bits = words[w] & other.words[w]; bits; bits &= bits - 1)
          f(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
    }
  };
  // Packets linked through packet::next, oldest first (a packet waits in one list at a
  // time: a link's input queue or an ejection queue).
  struct packet_list {
    packet* head = nullptr;
    packet* tail = nullptr;
    bool empty() const { return head == nullptr; }
    inline void push(packet* p);
    inline packet* pop();
    std::size_t size() const;
  };
  struct link {
    std::uint32_t owner = 0;  // router or port index for statistics
    std::uint64_t busy_until = 0;
    std::uint32_t channel_latency = 1;
    std::uint32_t routing_latency = 0;  // at the buffer feeding this link
    // What arbitration needs of an input queue's head packet, kept with the queue so that
    // choosing among many inputs does not visit their packets (valid while not empty).
    struct head_info {
      std::uint64_t arrival;
      std::uint32_t flits;
      std::uint32_t ahead;  // the buffer it goes to
      std::uint32_t place;  // its place in its input buffer's order of entry
    };
    struct input_queue {
      packet_list packets;
      head_info head;
    };
    // Packets waiting for this link, one queue per input (the buffer they wait in), each in
    // arrival order; `nonempty` is a bitmap over the network's buffers marking the inputs
    // with packets, so that arbitration visits only those. Sized on first use.
    std::vector<std::uint32_t> slot_of;  // buffer -> 1 + queue index (0: none yet)
    std::vector<input_queue> queues;     // by queue index
    bit_set nonempty;
    std::uint32_t waiting = 0;                  // packets in all queues
    // The buffer every waiting packet goes to next (topologies route a link into one
    // buffer); ~0u before the first packet, ~1u if packets of one link ever differed.
    std::uint32_t ahead = ~0u;
    bool active = false;
    // Arbitration found no head that fits the buffer ahead (`ahead`, when it is one buffer)
    // while that buffer had made room `stalled_frees` times: the answer stays the same
    // until it makes room again or a packet arrives.
    bool stalled = false;
    std::uint64_t stalled_frees = 0;
    std::uint32_t rr_next = 0;  // round robin: first input (buffer index) to look at
    std::uint64_t flits = 0;
    std::uint64_t stall_cycles = 0;
  };
  // A packet's fields, ordered so that those of a one-hop route (a crossbar's) share one
  // host cache line.
  struct alignas(64) packet {
    tlm::tlm_generic_payload* gp = nullptr;
    std::uint64_t eligible = 0;
    std::uint64_t injected = 0;
    std::uint64_t arrival = 0;   // order of arrival at the link it waits for (oldest first)
    packet* next = nullptr;      // in its packet_list
    std::uint32_t endpoint = 0;  // destination port (mem j for requests, smx i for replies)
    std::uint32_t flits = 1;
    std::uint32_t place = 0;  // order of entry into the buffer it waits in
    bool reply = false;
    std::uint8_t hop = 0;
    std::uint8_t hops = 0;
    std::uint8_t packets = 1;  // the packets it stands for (a line write's sector acks)
    std::uint32_t message = ~0u;  // a peer message's packet: the message (else ~0u)
    // The route, set by the topology: buffer(0) is the injection buffer, link(h) leaves
    // buffer(h) into buffer(h + 1), buffer(hops) is the ejection buffer.
    std::uint32_t& buffer(std::uint32_t h) { return m_route[2 * h]; }
    std::uint32_t& link(std::uint32_t h) { return m_route[2 * h + 1]; }
    std::uint32_t buffer(std::uint32_t h) const { return m_route[2 * h]; }
    std::uint32_t link(std::uint32_t h) const { return m_route[2 * h + 1]; }

   private:
    std::array<std::uint32_t, 2 * max_hops + 1> m_route{};
  };

  // Filled by the topology before end of elaboration.
  std::vector<buffer> m_buffers;
  std::vector<link> m_links;
  // Name of link l's waveform scope, e.g. "port.mem[3]" or "router[9].reply.east".
  virtual std::string link_name(std::uint32_t l) const = 0;
  // The topology's route of a packet from its source to its endpoint (sets links/buffers/hops).
  // A peer message's packet (packet::message set, reply) goes from SMX port `source` to SMX
  // port `endpoint` on the reply subnet, on a topology whose routes_peers().
  virtual void route(packet& p, std::uint32_t source) const = 0;
  virtual bool routes_peers() const { return false; }
  // Called once the ports exist (constructor of the derived class): builds buffers and links.
  std::uint32_t smx_ports() const { return static_cast<std::uint32_t>(m_smx_ports); }
  std::uint32_t mem_ports() const { return static_cast<std::uint32_t>(m_mem_ports); }
  void set_speedup(double s) { m_speedup_x100 = static_cast<std::uint32_t>(s * 100 + 0.5); }
  // Output arbitration, among the packets at the head of their input's queue (an input is
  // the buffer feeding the link; a head that does not fit the buffer ahead blocks the
  // packets behind it). oldest_first: the head that arrived first. round_robin: the head of
  // the first input at or after the one after the last input granted. islip: one iteration of iSLIP (McKeown): every free output grants
  // round robin as above, every input accepts one grant per cycle, round robin over the
  // outputs from its accept pointer; pointers move only on an accepted grant; an output
  // whose grant was not accepted stays idle this cycle.
  enum class arbitration : std::uint8_t { oldest_first, round_robin, islip };
  void set_arbitration(arbitration a) { m_arbitration = a; }
  // Input buffers as one FIFO each (GPGPU-Sim's local crossbar, BookSim with one virtual
  // channel): only the oldest packet of an input may be granted, so a packet whose output
  // is taken blocks the packets behind it for other outputs (head-of-line blocking).
  // Otherwise (the default) an input keeps a queue per output (virtual output queues).
  void set_fifo_inputs(bool fifo) { m_fifo_inputs = fifo; }
  // BookSim's input-queued router with one virtual channel per port: a packet spends `steps`
  // switch steps in allocation before its flits cross, so it holds its output link for
  // ceil((flits + steps) / speedup) cycles (0, the default: ceil(flits / speedup)).
  void set_allocation_steps(std::uint32_t steps) { m_alloc_steps = steps; }
  // An input sends one packet at a time (BookSim's input_speedup 1: a flit a switch step), so
  // its next packet may start once this one has crossed. Off (the default): an input may
  // start a packet every cycle.
  void set_serial_inputs(bool serial) { m_serial_inputs = serial; }
  // Each port's channels, its injection channel into its input buffer and its output
  // channel into its network interface, carry `flits_per_cycle` flits a cycle (BookSim's
  // channels, whatever the switch's internal speedup): a port takes a packet of f flits no
  // sooner than ceil(f / rate) cycles after the one before, and a source's packets become
  // eligible that far apart. 0 (the default): a packet a cycle, whatever its size.
  void set_channel_rate(double flits_per_cycle) {
    m_channel_x100 = static_cast<std::uint32_t>(flits_per_cycle * 100 + 0.5);
  }
  // After the links exist: the address map, and the power component `router` with one
  // element per router (links' `owner`; a crossbar is one router).
  void finish_topology(std::uint32_t routers = 1);

  // SMX-side ports (smx[i]) and memory sub-partition ports (mem[j]): as many as bound.
  std::uint64_t m_smx_ports = 0, m_mem_ports = 0;
  param<bytes> m_flit_size{*this, "flit_size", {32}, "flit size"};
  param<std::uint64_t> m_ejection_buffer{*this, "ejection_buffer", 32,
                                         "packets per SMX-side ejection buffer (network interface)"};
  param<bool> m_sector_replies{
      *this, "sector_replies", false,
      "a multi-sector request is answered with a packet per 32-byte sector (data or ack)"};
  param<std::uint64_t> m_mem_channels{*this, "mem_channels", 1,
                                      "DRAM channels (the memory ports mem[j] / channels sub-partitions each)"};
  choice_param m_partition_indexing{*this,
                                    "partition_indexing",
                                    "linear",
                                    "address -> sub-partition hash",
                                    {"linear", "xor", "ipoly", "random"}};
  param<std::string> m_address_map{
      *this, "address_map",
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
      "GPGPU-Sim address mapping, as the DRAM channels' (selects the sub-partition)"};

 private:
  // An injection held at a full input buffer: retried once that buffer has room for it.
  struct pending_in {
    tlm::tlm_generic_payload* gp = nullptr;
    std::uint32_t buffer = 0;  // the input buffer it waits for
    std::uint32_t flits = 0;
  };

  // Records the SMX port of a request without a mem_request, for its reply.
  void add_route(tlm::tlm_generic_payload& gp, std::uint32_t source);
  tlm::tlm_sync_enum smx_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                            sc_core::sc_time& t);
  tlm::tlm_sync_enum mem_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                            sc_core::sc_time& t);
  // Injects into the source's input buffer, or (no room) records the payload in `held`.
  bool try_inject(tlm::tlm_generic_payload& gp, std::uint32_t source, bool reply,
                  pending_in& held);
  // Puts routed packet p, which its input buffer had room for, into the network.
  void admit(packet* p, std::uint64_t now);
  // Peer messages: each SMX port's queue of packets to send (message, data bytes), and the
  // messages in flight. Injected by run(), one packet per port per cycle.
  struct peer_message {
    std::uint32_t from = 0, to = 0, packets_left = 0;
    std::uint64_t tag = 0;
  };
  struct peer_packet {
    std::uint32_t message = 0, bytes = 0;
  };
  std::vector<std::vector<peer_packet>> m_peer_out;  // per SMX port, in order (from m_peer_head)
  std::vector<std::size_t> m_peer_head;
  std::vector<peer_message> m_peer_messages;
  std::vector<std::uint32_t> m_peer_free;
  std::vector<peer_receiver*> m_peer_receivers;
  std::size_t m_peer_queued = 0;  // packets waiting in all queues
  void inject_peers(std::uint64_t now, std::uint64_t& next);
  void deliver_peer(packet_list& queue, std::uint64_t now);
  void run();
  void wake_at(std::uint64_t cycle);
  packet* new_packet();
  void free_packet(packet* p);
  tlm::tlm_generic_payload* eject(packet_list& queue, std::uint64_t now);
  void arrive(packet* p, std::uint64_t now);
  void activate(std::uint32_t l);

  std::unique_ptr<memory::address_decoder> m_decoder;
  std::uint32_t m_speedup_x100 = 100;
  arbitration m_arbitration = arbitration::oldest_first;
  bool m_fifo_inputs = false;
  std::uint32_t m_channel_x100 = 0;  // set_channel_rate (0: a packet a cycle)
  bool m_serial_inputs = false;      // set_serial_inputs
  std::uint32_t m_alloc_steps = 0;
  std::uint64_t m_now = 0;                                 // the cycle run() is in (for arbitrate)
  std::uint64_t m_arbitrated = ~std::uint64_t(0);          // the cycle links were last allocated
  mutable std::uint64_t m_input_free = ~std::uint64_t(0);  // earliest sending input's end
  mutable bool m_sending_seen = false;  // arbitrate passed over an input still sending
  // With an ejection rate: the cycle each port's output channel is free again.
  std::vector<std::uint64_t> m_eject_free_mem, m_eject_free_smx;
  std::vector<std::uint64_t> m_inject_free;  // per buffer: when its injection channel is free
  // Cycles `units` (flits, switch steps) take at `rate_x100` hundredths of a unit a cycle,
  // rounded up (a rate of 1: no division).
  static std::uint64_t cycles_at(std::uint64_t units, std::uint32_t rate_x100) {
    return rate_x100 == 100 ? units : (units * 100 + rate_x100 - 1) / rate_x100;
  }
  struct grant {
    std::uint32_t link, input;
  };
  std::vector<grant> m_grants;               // iSLIP: this cycle's grants
  std::vector<std::uint32_t> m_accept_next;  // iSLIP: per input (buffer), first link to accept
  static constexpr std::uint32_t none = ~0u;
  // The input (buffer) whose head packet the arbitration picks for link l, or `none`;
  // choose() skips links known to be stalled (link::stalled).
  std::uint32_t choose(link& l) const;
  std::uint32_t arbitrate(const link& l) const;
  // What arbitration keeps of a queue's head (link::heads).
  static link::head_info head_of(const packet& p) {
    return {p.arrival, p.flits, p.buffer(p.hop + 1u), p.place};
  }
  static link::input_queue& queue_of(link& l, std::uint32_t input) {
    return l.queues[l.slot_of[input] - 1];
  }
  static const link::input_queue& queue_of(const link& l, std::uint32_t input) {
    return l.queues[l.slot_of[input] - 1];
  }
  void traverse(std::uint32_t li, std::uint32_t input, std::uint64_t now);
  wakeup m_wake;

  // Packets by the cycle their routing delay or link traversal ends, then in push order;
  // run() takes those on links first, then the injected ones.
  timed_queue<packet*> m_timed;     // packets on links (pushed by run())
  timed_queue<packet*> m_injected;  // packets injected, until their routing delay passed
  std::uint64_t m_arrivals = 0;
  std::vector<std::uint32_t> m_active;  // links with waiting packets

  // Network interfaces: pending injections (one per socket) and ejection queues.
  std::vector<pending_in> m_smx_pending, m_mem_pending;
  std::vector<packet_list> m_to_mem, m_to_smx;
  // Which ports have something to do, so run() visits only those: an ejection queue with
  // packets, a held injection.
  bit_set m_eject_mem, m_eject_smx, m_held_smx, m_held_mem;
  // A held injection waits for room in its input buffer, which only a packet leaving that
  // buffer makes: the port is tried again once one has (its m_retry_* bit), not at every
  // run (a congested network holds most ports for many cycles). Per buffer, the ports that
  // were ever held on it (an SMX port i as 2i, a memory port j as 2j + 1; a port's input
  // buffer is fixed by the topology).
  bit_set m_retry_smx, m_retry_mem;
  std::vector<std::vector<std::uint32_t>> m_buffer_waiters;
  std::vector<std::uint8_t> m_waiter_listed;  // per port code: in its buffer's list
  void hold(bool reply, std::uint32_t port, std::uint32_t buffer);
  void left(std::uint32_t buffer) {  // a packet left `buffer`
    if (buffer < m_buffer_waiters.size())
      for (std::uint32_t code : m_buffer_waiters[buffer])
        (code & 1 ? m_retry_mem : m_retry_smx).set(code >> 1);
  }
  std::vector<memory::request_channel> m_mem_channel;
  std::vector<memory::response_channel> m_smx_channel;
  std::vector<packet*> m_packet_free;
  // Packets are made k_packet_chunk at a time (one allocation while a run warms up, not
  // one per packet) and live as long as the network.
  static constexpr std::size_t k_packet_chunk = 64;
  std::vector<std::unique_ptr<packet[]>> m_packet_all;
  std::size_t m_packet_chunk_used = k_packet_chunk;  // packets handed out of the last chunk
  std::uint64_t m_in_flight = 0;
  std::vector<std::unique_ptr<noc_route>> m_route_all;
  std::vector<noc_route*> m_route_free;
  bool m_freed = false;

 protected:
  // Statistics.
  counter m_packets, m_flits_total, m_injection_stalls, m_warm_writes;
  std::uint64_t m_latency_sum = 0;
  // Power (docs/power.md): the routers (buffers, allocators, crossbar switch and links);
  // event `flit`: one flit through a router's switch onto its output link.
  pm::power_component* m_router_power = nullptr;
  std::uint32_t m_routers = 1;
  std::vector<traced_value> m_trace_waiting;  // per link: packets waiting for it (when traced)
  traced_value m_trace_in_flight;
  traced_value m_trace_busy;
};

inline void network::packet_list::push(packet* p) {
  p->next = nullptr;
  (tail ? tail->next : head) = p;
  tail = p;
}

inline network::packet* network::packet_list::pop() {
  packet* p = head;
  head = p->next;
  if (!head) tail = nullptr;
  return p;
}

}  // namespace gputlm::noc
