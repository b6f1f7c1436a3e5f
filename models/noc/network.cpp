#include "models/noc/network.h"

#include <algorithm>

#include "models/control/workload.h"

namespace gputlm::noc {

// The SMX port a request came from, so its reply finds the way back, for a payload without
// a mem_request (which carries it as icnt_port). Pooled per network.
struct noc_route : tlm::tlm_extension<noc_route> {
  std::uint32_t source = 0;
  tlm::tlm_extension_base* clone() const override { return new noc_route(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    source = static_cast<const noc_route&>(o).source;
  }
};

network::~network() = default;

network::network(const sc_core::sc_module_name& name, const block_context& ctx)
    : component(name, ctx) {
  // Checked before the sockets and tables are sized, and before the topologies divide by
  // the flit size in their constructors.
  m_smx_ports = bound_array("smx", 1, max_ports);
  m_mem_ports = bound_array("mem", 1, max_ports);
  m_flit_size.require(*m_flit_size >= 8, "must hold at least the 8 B packet header");
  m_flit_size.require(*m_flit_size <= max_flit_size,
                      "must be at most " + units::format_bytes(max_flit_size));
  for (std::uint64_t i = 0; i < m_smx_ports; ++i) {
    smx.push_back(std::make_unique<target_type>(("smx_" + std::to_string(i)).c_str()));
    smx.back()->register_nb_transport_fw(this, &network::smx_fw, static_cast<int>(i));
    smx.back()->register_b_transport(this, &component::at_only_tagged, static_cast<int>(i));
    declare_socket("smx[" + std::to_string(i) + "]", *smx.back());
  }
  for (std::uint64_t j = 0; j < m_mem_ports; ++j) {
    mem.push_back(std::make_unique<initiator_type>(("mem_" + std::to_string(j)).c_str()));
    mem.back()->register_nb_transport_bw(this, &network::mem_bw, static_cast<int>(j));
    declare_socket("mem[" + std::to_string(j) + "]", *mem.back());
  }
  m_smx_pending.resize(m_smx_ports);
  m_mem_pending.resize(m_mem_ports);
  m_peer_out.resize(m_smx_ports);
  m_peer_head.assign(m_smx_ports, 0);
  m_peer_receivers.assign(m_smx_ports, nullptr);
  peer.bind(*this);
  declare_export("peer", peer);
  m_to_smx.resize(m_smx_ports);
  m_to_mem.resize(m_mem_ports);
  m_smx_channel.resize(m_smx_ports);
  m_mem_channel.resize(m_mem_ports);
  m_eject_smx.resize(m_smx_ports);
  m_held_smx.resize(m_smx_ports);
  m_eject_mem.resize(m_mem_ports);
  m_held_mem.resize(m_mem_ports);
  m_eject_free_smx.assign(m_smx_ports, 0);
  m_eject_free_mem.assign(m_mem_ports, 0);
  m_retry_smx.resize(m_smx_ports);
  m_retry_mem.resize(m_mem_ports);
  m_waiter_listed.assign(2 * std::max(m_smx_ports, m_mem_ports), 0);
  for (std::size_t i = 0; i < smx.size(); ++i) m_smx_channel[i].bind(*smx[i]);
  for (std::size_t j = 0; j < mem.size(); ++j) m_mem_channel[j].bind(*mem[j]);

  m_wake.bind<network, &network::run>(this, clock());

  add_stat("packets", m_packets, "packets delivered");
  add_stat("flits", m_flits_total, "flits delivered");
  add_stat("warm_writes", m_warm_writes,
           "MemcpyHtoD lines taken by an L2 bank at start (debug writes, warm_from_memcpy)");
  add_stat("injection_stalls", m_injection_stalls,
           "requests/replies held at a full injection buffer (END_REQ/END_RESP withheld)");
  add_stat(
      "avg_packet_latency",
      [this] {
        return m_packets.value() ? double(m_latency_sum) / double(m_packets.value()) : 0.0;
      },
      "cycles from injection to ejection");
}

void network::validate() {
  m_ejection_buffer.require(*m_ejection_buffer >= 1, "must be at least 1");
  m_ejection_buffer.require(*m_ejection_buffer <= max_buffer,
                            "must be at most " + std::to_string(max_buffer));
  m_mem_channels.require(*m_mem_channels >= 1 && m_mem_ports % *m_mem_channels == 0,
                         "must divide the " + std::to_string(m_mem_ports) +
                             " memory ports bound (mem[j])");
  const std::string err = memory::address_decoder::check(*m_address_map);
  m_address_map.require(err.empty(), err);
}

void network::finish_topology(std::uint32_t routers) {
  m_routers = routers ? routers : 1;
  m_inject_free.assign(m_buffers.size(), 0);
  m_router_power = &declare_power("router", {"flit"}, 0, m_routers);
  // A malformed map is reported by validate(); until then decode with the default one.
  const std::string map = memory::address_decoder::check(*m_address_map).empty()
                              ? *m_address_map
                              : std::string("dramid@8;") + std::string(64, '0');
  m_decoder = std::make_unique<memory::address_decoder>(
      map, static_cast<std::uint32_t>(*m_mem_channels),
      static_cast<std::uint32_t>(m_mem_ports / std::max<std::uint64_t>(1, *m_mem_channels)),
      memory::parse_partition_indexing(*m_partition_indexing));
}

void network::start_of_simulation() {
  const control::workload* w = work().ptr;
  if (!w) return;
  constexpr std::uint64_t line = payload_pool::max_bytes;
  std::vector<bool> off(mem.size(), false);
  std::size_t n_off = 0;
  unsigned char data[line] = {};
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_data_ptr(data);
  for (const traces::command& c : w->commands()) {
    if (c.what != traces::command::kind::memcpy_h2d) continue;
    const std::uint64_t end = c.addr + c.bytes;
    for (std::uint64_t a = c.addr & ~(line - 1); a < end && n_off < off.size(); a += line) {
      const std::uint32_t j = port_of(a);
      if (j >= off.size() || off[j]) continue;
      const std::uint64_t lo = std::max(a, c.addr), hi = std::min(a + line, end);
      gp.set_address(lo);
      gp.set_data_length(static_cast<unsigned>(hi - lo));
      gp.set_streaming_width(static_cast<unsigned>(hi - lo));
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      if ((*mem[j])->transport_dbg(gp) == 0) {
        off[j] = true;
        ++n_off;
      } else {
        ++m_warm_writes;
      }
    }
  }
}

std::size_t network::packet_list::size() const {
  std::size_t n = 0;
  for (const packet* p = head; p; p = p->next) ++n;
  return n;
}

std::string network::pending_work() const {
  if (m_in_flight == 0 && m_timed.empty() && m_injected.empty()) return {};
  std::size_t waiting = 0, to_mem = 0, to_smx = 0, held = 0;
  for (std::uint32_t li : m_active) waiting += m_links[li].waiting;
  for (const auto& q : m_to_mem) to_mem += q.size();
  for (const auto& q : m_to_smx) to_smx += q.size();
  for (const bit_set* b : {&m_held_smx, &m_held_mem}) b->for_each([&](std::size_t) { ++held; });
  return "packets in flight " + std::to_string(m_in_flight) + ": moving " +
         std::to_string(m_timed.size() + m_injected.size()) + ", waiting " +
         std::to_string(waiting) + " at " + std::to_string(m_active.size()) +
         " links, in ejection queues " + std::to_string(to_mem) + " (memory ports) and " +
         std::to_string(to_smx) + " (core ports); injections held " + std::to_string(held);
}

void network::add_traces(vcd_writer& vcd) {
  m_trace_in_flight.trace(vcd, name(), "packets_in_flight", 16);
  m_trace_busy.trace(vcd, name(), "busy", 1);
  std::vector<traced_value> waiting(m_links.size());
  bool any = false;
  for (std::uint32_t l = 0; l < m_links.size(); ++l) {
    waiting[l].trace(vcd, name(), link_name(l) + ".waiting", 16);
    any = any || waiting[l].traced();
  }
  if (any) m_trace_waiting = std::move(waiting);
}

std::uint32_t network::flits_of(const tlm::tlm_generic_payload& gp, bool reply,
                                std::uint32_t* packets) const {
  const mem_request* req = payload_pool::find_request(gp);
  const bool atomic = req && req->kind == access_kind::atomic;
  const bool carries = reply ? (gp.is_read() || atomic) : (gp.is_write() || atomic);
  const std::uint64_t f = m_flit_size->value;
  if (packets) *packets = 1;
  if (reply && *m_sector_replies && !atomic) {  // a packet per sector: 32 B of data or an ack
    const std::uint64_t len = gp.get_data_length();
    const std::uint32_t sectors = req && req->sector_mask
                                      ? memory::popcount8(req->sector_mask)
                                      : static_cast<std::uint32_t>(len > 32 ? (len + 31) / 32 : 1);
    if (sectors > 1) {
      if (packets) *packets = sectors;
      return sectors * static_cast<std::uint32_t>((8 + (carries ? 32 : 0) + f - 1) / f);
    }
  }
  const std::uint64_t bytes = 8 + (carries ? gp.get_data_length() : 0);
  return static_cast<std::uint32_t>((bytes + f - 1) / f);
}

network::packet* network::new_packet() {
  if (m_packet_free.empty()) {
    if (m_packet_chunk_used == k_packet_chunk) {
      m_packet_all.push_back(std::make_unique<packet[]>(k_packet_chunk));
      m_packet_chunk_used = 0;
    }
    return &m_packet_all.back()[m_packet_chunk_used++];
  }
  packet* p = m_packet_free.back();
  m_packet_free.pop_back();
  return p;
}

void network::free_packet(packet* p) {
  p->gp = nullptr;
  p->message = ~0u;
  m_packet_free.push_back(p);
}

void network::add_route(tlm::tlm_generic_payload& gp, std::uint32_t source) {
  noc_route* r;
  if (m_route_free.empty()) {
    m_route_all.push_back(std::make_unique<noc_route>());
    r = m_route_all.back().get();
  } else {
    r = m_route_free.back();
    m_route_free.pop_back();
  }
  r->source = source;
  gp.set_extension(r);
}

bool network::try_inject(tlm::tlm_generic_payload& gp, std::uint32_t source, bool reply,
                         pending_in& held) {
  packet* p = new_packet();
  p->gp = &gp;
  p->reply = reply;
  std::uint32_t packets = 1;
  p->flits = flits_of(gp, reply, &packets);
  p->packets = static_cast<std::uint8_t>(packets);
  if (reply) {
    if (const mem_request* req = payload_pool::find_request(gp)) {
      p->endpoint = req->icnt_port;
    } else {
      const noc_route* r = gp.get_extension<noc_route>();
      p->endpoint = r ? r->source : 0;
    }
  } else {
    p->endpoint = port_of(gp.get_address());
  }
  p->hop = 0;
  route(*p, source);
  buffer& in = m_buffers[p->buffer(0)];
  const std::uint64_t now = clock().now_cycle();
  if (!in.had_room(p->flits, now)) {
    held = {&gp, p->buffer(0), p->flits};
    free_packet(p);
    return false;
  }
  if (!reply) {
    if (mem_request* req = payload_pool::find_request(gp)) {
      req->icnt_port = source;
    } else {
      add_route(gp, source);
    }
  }
  admit(p, now);
  return true;
}

void network::admit(packet* p, std::uint64_t now) {
  buffer& in = m_buffers[p->buffer(0)];
  p->place = in.enter(p->flits);
  p->injected = now;
  ++m_in_flight;
  m_trace_in_flight.set(static_cast<unsigned>(m_in_flight));
  m_trace_busy.set(true);
  p->eligible = now + m_links[p->link(0)].routing_latency;
  if (m_channel_x100) {  // the injection channel carries its flits at the channel rate
    std::uint64_t& free_at = m_inject_free[p->buffer(0)];
    const std::uint64_t start = std::max(now, free_at);
    free_at = start + cycles_at(p->flits, m_channel_x100);
    p->eligible = start + m_links[p->link(0)].routing_latency;
  }
  m_injected.push(p->eligible, p);
  wake_at(p->eligible);
}

// ---------------------------------------------------------------------------------------
// Peer messages (peer_transport.h)

const char* network::peer_unsupported() const {
  return routes_peers() ? nullptr
                        : "this interconnect has no path between SMXs (LATOA needs the mesh)";
}

void network::attach_peer(std::uint32_t smx, peer_receiver& receiver) {
  if (smx < m_peer_receivers.size()) m_peer_receivers[smx] = &receiver;
}

void network::send_peer(std::uint32_t from, std::uint32_t to, std::uint32_t bytes,
                        std::uint64_t tag) {
  std::uint32_t msg;
  if (m_peer_free.empty()) {
    msg = static_cast<std::uint32_t>(m_peer_messages.size());
    m_peer_messages.emplace_back();
  } else {
    msg = m_peer_free.back();
    m_peer_free.pop_back();
  }
  const std::uint32_t packets = std::max<std::uint32_t>(1, packets_of(bytes));
  m_peer_messages[msg] = {from, to, packets, tag};
  for (std::uint32_t k = 0; k < packets; ++k)
    m_peer_out[from].push_back(
        {msg, std::min<std::uint32_t>(128, bytes - std::min(bytes, 128 * k))});
  m_peer_queued += packets;
  wake_at(clock().now_cycle());
}

void network::inject_peers(std::uint64_t now, std::uint64_t& next) {
  const std::uint64_t f = m_flit_size->value;
  for (std::uint32_t i = 0; i < m_peer_out.size(); ++i) {
    std::vector<peer_packet>& q = m_peer_out[i];
    std::size_t& head = m_peer_head[i];
    if (head == q.size()) continue;
    const peer_packet& pp = q[head];
    packet* p = new_packet();
    p->gp = nullptr;
    p->reply = true;
    p->message = pp.message;
    p->packets = 1;
    p->flits = static_cast<std::uint32_t>((8 + pp.bytes + f - 1) / f);
    p->endpoint = m_peer_messages[pp.message].to;
    p->hop = 0;
    route(*p, i);
    if (!m_buffers[p->buffer(0)].had_room(p->flits, now)) {
      free_packet(p);
      next = std::min(next, now + 1);
      continue;
    }
    admit(p, now);
    --m_peer_queued;
    if (++head == q.size()) {
      q.clear();
      head = 0;
    } else {
      next = std::min(next, now + 1);
    }
  }
}

void network::deliver_peer(packet_list& queue, std::uint64_t now) {
  packet* p = queue.head;
  const std::uint32_t msg = p->message;
  p->message = ~0u;
  eject(queue, now);
  peer_message& m = m_peer_messages[msg];
  if (--m.packets_left != 0) return;
  m_peer_free.push_back(msg);
  if (peer_receiver* r = m_peer_receivers[m.to]) r->peer_arrived(m.from, m.tag);
}

tlm::tlm_sync_enum network::smx_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                   sc_core::sc_time&) {
  if (ph == tlm::BEGIN_REQ) {
    if (try_inject(gp, static_cast<std::uint32_t>(id), false, m_smx_pending[id])) {
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    hold(false, static_cast<std::uint32_t>(id), m_smx_pending[id].buffer);
    ++m_injection_stalls;
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP) {
    m_smx_channel[id].end_resp(gp);
    wake_at(clock().now_cycle());
  }
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum network::mem_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                   sc_core::sc_time&) {
  if (ph == tlm::END_REQ) {
    m_mem_channel[id].end_req(gp);
    wake_at(clock().now_cycle());
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::BEGIN_RESP) {
    m_mem_channel[id].end_req(gp);  // implicit END_REQ
    if (try_inject(gp, static_cast<std::uint32_t>(id), true, m_mem_pending[id]))
      return tlm::TLM_COMPLETED;
    hold(true, static_cast<std::uint32_t>(id), m_mem_pending[id].buffer);
    ++m_injection_stalls;
    wake_at(clock().now_cycle());
    return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_ACCEPTED;
}

void network::hold(bool reply, std::uint32_t port, std::uint32_t buffer) {
  (reply ? m_held_mem : m_held_smx).set(port);
  // A packet that left the buffer earlier in this cycle (the network ran first in this
  // instant) made room the port is offered at the next run, as when it came first.
  if (m_buffers[buffer].left_cycle == clock().now_cycle())
    (reply ? m_retry_mem : m_retry_smx).set(port);
  const std::uint32_t code = 2 * port + (reply ? 1 : 0);
  if (m_waiter_listed[code]) return;
  m_waiter_listed[code] = 1;
  if (m_buffer_waiters.size() < m_buffers.size()) m_buffer_waiters.resize(m_buffers.size());
  m_buffer_waiters[buffer].push_back(code);
}

void network::wake_at(std::uint64_t cycle) {
  m_wake.at(cycle);
}

void network::activate(std::uint32_t l) {
  if (!m_links[l].active) {
    m_links[l].active = true;
    m_active.push_back(l);
  }
}

void network::arrive(packet* p, std::uint64_t now) {
  (void)now;
  if (p->hop == p->hops) {  // in the ejection buffer of the network interface
    (p->reply ? m_to_smx : m_to_mem)[p->endpoint].push(p);
    (p->reply ? m_eject_smx : m_eject_mem).set(p->endpoint);
    return;
  }
  const std::uint32_t li = p->link(p->hop);
  link& l = m_links[li];
  const std::uint32_t in = p->buffer(p->hop);
  if (l.slot_of.empty()) {
    l.slot_of.assign(m_buffers.size(), 0);
    l.nonempty.resize(m_buffers.size());
  }
  if (l.slot_of[in] == 0) {
    l.queues.emplace_back();
    l.slot_of[in] = static_cast<std::uint32_t>(l.queues.size());
  }
  const std::uint32_t ahead = p->buffer(p->hop + 1u);
  if (l.ahead == ~0u) l.ahead = ahead;
  else if (l.ahead != ahead) l.ahead = ~1u;
  p->arrival = m_arrivals++;
  l.stalled = false;
  link::input_queue& q = queue_of(l, in);
  if (q.packets.empty()) q.head = head_of(*p);
  q.packets.push(p);
  l.nonempty.set(in);
  ++l.waiting;
  if (!m_trace_waiting.empty()) m_trace_waiting[li].set(l.waiting);
  activate(li);
}

std::uint32_t network::choose(link& l) const {
  if (l.stalled && m_buffers[l.ahead].frees == l.stalled_frees) return none;
  m_sending_seen = false;
  const std::uint32_t in = arbitrate(l);
  // (With FIFO inputs a head may also wait for its input's older packets to leave, and with
  // serial inputs for its input to finish sending, which the buffer ahead's room does not
  // tell.)
  l.stalled = in == none && l.ahead < m_buffers.size() && !m_fifo_inputs && !m_sending_seen;
  if (l.stalled) l.stalled_frees = m_buffers[l.ahead].frees;
  return in;
}

std::uint32_t network::arbitrate(const link& l) const {
  auto head = [&](std::uint32_t in) -> const link::head_info& { return queue_of(l, in).head; };
  auto fits = [&](std::uint32_t in, const link::head_info& h) {
    if (m_serial_inputs && m_buffers[in].sending_until > m_now) {
      m_sending_seen = true;
      m_input_free = std::min(m_input_free, m_buffers[in].sending_until);
      return false;
    }
    return m_buffers[h.ahead].has_room(h.flits) &&
           (!m_fifo_inputs || m_buffers[in].is_head(h.place));
  };
  // A buffer ahead without room even for a one-flit packet blocks every input.
  if (l.ahead < m_buffers.size() && !m_buffers[l.ahead].has_room(1)) return none;
  if (m_arbitration == arbitration::oldest_first) {
    std::uint32_t pick = none;
    std::uint64_t oldest = ~std::uint64_t(0);
    l.nonempty.for_each([&](std::size_t in) {
      const link::head_info& h = head(static_cast<std::uint32_t>(in));
      if (h.arrival < oldest && fits(static_cast<std::uint32_t>(in), h)) {
        oldest = h.arrival;
        pick = static_cast<std::uint32_t>(in);
      }
    });
    return pick;
  }
  // Round robin: the set bits at or after the pointer, then those before it.
  const std::uint32_t inputs = static_cast<std::uint32_t>(m_buffers.size());
  const std::uint32_t words = static_cast<std::uint32_t>(l.nonempty.words.size());
  const std::uint32_t start = l.rr_next < inputs ? l.rr_next : 0;
  for (std::uint32_t pass = 0; pass < 2; ++pass) {
    for (std::uint32_t w = pass ? 0 : start / 64; w < words; ++w) {
      std::uint64_t bits = l.nonempty.words[w];
      if (w == start / 64) {
        const std::uint64_t at_or_after = ~std::uint64_t(0) << (start % 64);
        bits &= pass ? ~at_or_after : at_or_after;
      }
      for (; bits; bits &= bits - 1) {
        const std::uint32_t in = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        if (fits(in, head(in))) return in;
      }
      if (pass && w == start / 64) break;
    }
  }
  return none;
}

// The head packet of `input`'s queue for link li is granted: it moves to the buffer ahead.
void network::traverse(std::uint32_t li, std::uint32_t input, std::uint64_t now) {
  link& l = m_links[li];
  link::input_queue& q = queue_of(l, input);
  packet* p = q.packets.pop();
  if (q.packets.empty())
    l.nonempty.clear(input);
  else
    q.head = head_of(*q.packets.head);
  --l.waiting;
  if (!m_trace_waiting.empty()) m_trace_waiting[li].set(l.waiting);
  buffer& ahead = m_buffers[p->buffer(p->hop + 1u)];
  l.rr_next = input + 1 == m_buffers.size() ? 0 : input + 1;
  buffer& behind = m_buffers[input];
  behind.leave(p->flits, now);
  left(input);
  m_freed = true;
  p->place = ahead.enter(p->flits);
  const std::uint64_t steps = p->flits + std::uint64_t(m_alloc_steps) * p->packets;
  const std::uint64_t ser = cycles_at(steps, m_speedup_x100);
  // Under a gating policy a sleeping router first wakes: the packet starts that much later.
  const std::uint64_t wake =
      m_router_power->gated() ? m_router_power->access(m_routers > 1 ? l.owner : 0, now_fs()) : 0;
  const std::uint64_t start = now + wake;  // (now without a gating policy)
  l.busy_until = start + ser;
  if (m_serial_inputs) behind.sending_until = start + ser;
  l.flits += p->flits;
  m_router_power->record(0, p->flits);
  l.stall_cycles += now - p->eligible;
  ++p->hop;
  // Cut-through: the head goes on to be routed at the next router while the tail streams
  // behind it; only the ejection waits for the tail.
  const std::uint64_t at = p->hop < p->hops
                               ? start + l.channel_latency + m_links[p->link(p->hop)].routing_latency
                               : start + l.channel_latency + ser - 1;
  p->eligible = at;
  m_timed.push(at, p);
}

// The packet at the head of an ejection queue leaves the network: its buffer is freed and
// it is counted; returns its payload.
tlm::tlm_generic_payload* network::eject(packet_list& queue, std::uint64_t now) {
  packet* p = queue.pop();
  buffer& b = m_buffers[p->buffer(p->hops)];
  b.leave(p->flits);
  left(p->buffer(p->hops));
  m_freed = true;
  ++m_packets;
  m_flits_total += p->flits;
  m_latency_sum += now - p->injected;
  --m_in_flight;
  tlm::tlm_generic_payload* gp = p->gp;
  free_packet(p);
  return gp;
}

void network::run() {
  const std::uint64_t now = clock().now_cycle();
  m_wake.fired();
  std::uint64_t next = ~std::uint64_t(0);
  m_freed = false;
  m_now = now;
  m_input_free = ~std::uint64_t(0);

  // Held injections: accept them when their buffer has room again, as it was at the start
  // of this cycle (so whether an injection came before or after this run in the instant
  // makes no difference). Only a port whose buffer a packet has left since it was last tried
  // can have room now (the others are passed over as failing).
  auto retry = [&](bit_set& held, bit_set& again, std::vector<pending_in>& pending, bool reply) {
    held.for_each_also_in(again, [&](std::size_t i) {
      pending_in& h = pending[i];
      // (Room made in this cycle is tried again at the next.)
      if (m_buffers[h.buffer].left_cycle != now) again.clear(i);
      tlm::tlm_generic_payload* gp = h.gp;
      if (!gp || !m_buffers[h.buffer].had_room(h.flits, now) ||
          !try_inject(*gp, static_cast<std::uint32_t>(i), reply, h))
        return;
      again.clear(i);
      h.gp = nullptr;
      held.clear(i);
      tlm::tlm_phase ph = reply ? tlm::END_RESP : tlm::END_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      if (reply)
        (*mem[i])->nb_transport_fw(*gp, ph, t);
      else
        (*smx[i])->nb_transport_bw(*gp, ph, t);
    });
  };
  retry(m_held_smx, m_retry_smx, m_smx_pending, false);
  retry(m_held_mem, m_retry_mem, m_mem_pending, true);
  if (m_peer_queued != 0) inject_peers(now, next);

  // Packets whose link traversal has elapsed, then those whose routing delay after
  // injection has: whether an injection reached the network before or after it moved
  // this cycle's packets makes no difference to their order.
  for (packet* p; m_timed.take_due(now, p);) arrive(p, now);
  for (packet* p; m_injected.take_due(now, p);) arrive(p, now);

  // Link allocation (arbitration: see network.h), once a cycle: a second run in the same
  // cycle (woken by a network interface that ran after this one in the instant) only
  // ejects and injects, so the grants do not depend on the order of the blocks within an
  // instant. Then links left with nothing to send go idle.
  const bool arbitrate_now = m_arbitrated != now;
  m_arbitrated = now;
  if (!arbitrate_now) {
    for (std::uint32_t li : m_active)
      if (m_links[li].busy_until <= now) next = std::min(next, now + 1);
  } else if (m_arbitration != arbitration::islip) {
    for (std::uint32_t li : m_active) {
      link& l = m_links[li];
      if (l.busy_until > now) continue;
      const std::uint32_t in = choose(l);
      if (in != none) traverse(li, in, now);
    }
  } else {
    m_grants.clear();
    for (std::uint32_t li : m_active) {
      link& l = m_links[li];
      if (l.busy_until > now) continue;
      const std::uint32_t in = choose(l);
      if (in != none) m_grants.push_back({li, in});
    }
    if (m_accept_next.size() != m_buffers.size()) m_accept_next.assign(m_buffers.size(), 0);
    const std::uint32_t links = static_cast<std::uint32_t>(m_links.size());
    for (std::size_t g = 0; g < m_grants.size(); ++g) {
      const std::uint32_t in = m_grants[g].input;
      if (in == ~0u) continue;  // already decided
      // Accept: among the grants to this input, the first link at or after its pointer.
      std::size_t best = g;
      auto dist = [&](std::uint32_t li) {  // (li + links - pointer) mod links
        const std::uint32_t d = li + links - m_accept_next[in];
        return d >= links ? d - links : d;
      };
      for (std::size_t h = g + 1; h < m_grants.size(); ++h)
        if (m_grants[h].input == in && dist(m_grants[h].link) < dist(m_grants[best].link)) best = h;
      for (std::size_t h = g; h < m_grants.size(); ++h) {
        if (m_grants[h].input != in) continue;
        if (h != best) next = std::min(next, now + 1);  // not accepted: asks again next cycle
        m_grants[h].input = ~0u;
      }
      m_accept_next[in] = m_grants[best].link + 1 == links ? 0 : m_grants[best].link + 1;
      traverse(m_grants[best].link, in, now);
    }
  }
  for (std::size_t a = 0; a < m_active.size();) {
    const std::uint32_t li = m_active[a];
    link& l = m_links[li];
    if (l.waiting == 0) {
      l.active = false;
      m_active[a] = m_active.back();
      m_active.pop_back();
      continue;
    }
    if (l.busy_until > now) next = std::min(next, l.busy_until);
    ++a;
  }

  // Network interfaces: deliver ejected packets, one per port per cycle (with an ejection
  // rate, once the port's output channel has carried the packet before).
  auto channel_free = [&](std::uint64_t& free_at, const packet_list& q) {
    if (m_channel_x100 == 0) return true;
    if (free_at > now) {
      next = std::min(next, free_at);
      return false;
    }
    free_at = now + cycles_at(q.head->flits, m_channel_x100);
    return true;
  };
  m_eject_mem.for_each([&](std::size_t j) {
    if (m_mem_channel[j].busy() || !channel_free(m_eject_free_mem[j], m_to_mem[j])) return;
    m_mem_channel[j].send(*eject(m_to_mem[j], now));
    if (!m_to_mem[j].empty())
      next = std::min(next, now + 1);
    else
      m_eject_mem.clear(j);
  });
  m_eject_smx.for_each([&](std::size_t i) {
    if (m_to_smx[i].head->message != ~0u) {  // a peer message's packet: to its receiver
      deliver_peer(m_to_smx[i], now);
    } else {
      if (m_smx_channel[i].busy() || !channel_free(m_eject_free_smx[i], m_to_smx[i])) return;
      tlm::tlm_generic_payload* gp = eject(m_to_smx[i], now);
      if (!payload_pool::find_request(*gp))
        if (noc_route* r = gp->get_extension<noc_route>()) {
          gp->clear_extension(r);
          m_route_free.push_back(r);
        }
      m_smx_channel[i].send(*gp);
    }
    if (!m_to_smx[i].empty())
      next = std::min(next, now + 1);
    else
      m_eject_smx.clear(i);
  });

  next = std::min({next, m_timed.next(), m_injected.next(), m_input_free});
  // A link held by a full buffer ahead retries once room was made this cycle.
  if (m_freed && !m_active.empty()) next = std::min(next, now + 1);
  // Room made this cycle is offered to the held injections at the next run.
  auto any_both = [](const bit_set& a, const bit_set& b) {
    for (std::size_t w = 0; w < a.words.size(); ++w)
      if (a.words[w] & b.words[w]) return true;
    return false;
  };
  if (any_both(m_held_smx, m_retry_smx) || any_both(m_held_mem, m_retry_mem))
    next = std::min(next, now + 1);
  m_trace_in_flight.set(static_cast<unsigned>(m_in_flight));
  m_trace_busy.set(m_in_flight != 0);
  if (next != ~std::uint64_t(0)) wake_at(std::max(next, now + 1));
}

}  // namespace gputlm::noc
