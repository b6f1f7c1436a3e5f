// Communication buffers of one SPU neighbour link (Rajasree thesis §2.2.1, Fig. 2.3,
// §5.2.1; docs/references.md, "SPU platform"): a ping-pong pair of small RAMs between an
// upstream unit (the writer: the SM or IU to the west or north) and a downstream one (the
// reader). The writer fills one buffer while the reader drains the other; a sync on the
// link swaps them, so that the reader sees what the writer wrote. Modelled like shared
// memory, as the thesis does: a multi-banked RAM (`banks` x `bank_width` bytes per cycle)
// with the shared memory's latency, reached from the LDST unit's shared-memory path
// (SPU-Sim: ld/st .cbh/.cbv).
//
// Sockets: `writer` and `reader` (targets, b_transport): a warp's access of
// get_data_length() contiguous bytes (CB.PUSH / CB.POP: each active lane's bytes, lane by
// lane); the delay returned is `latency` plus one cycle per further bank-wide row the access
// spans. Contents are not modelled, their amounts are: bytes pushed into the write buffer
// beyond its capacity, and bytes popped beyond what the read buffer received at its last
// swap, are counted (overflow, underflow), not dropped silently. swap() exchanges the pair.
// Statistics: pushes, pops, bytes each way, swaps, overflow and underflow bytes; `accesses`
// is the thesis's CB_ACC (bank-row accesses, the power model's event).
// Waveforms: `write_fill` and `read_fill` (bytes), `write_buffer` (0 or 1), and
// `writer_waits` / `reader_waits` (1 while that side waits at the sync).
// Power (`communication_buffer.ram`): the pair's 2 x `size` bytes of RAM leaking, and an
// event per bank-row access (CB_ACC), as the thesis models the buffers (§5.2.1, §5.3).
//
// The link's directional block sync (thesis §4.2, Algorithm 3; docs/references.md,
// "SPU runtime and sync"): sockets `writer_sync` and `reader_sync` (targets, non-blocking):
// the writer's n-th output sync (BAR.BLOCKSYNC.EAST or .SOUTH: BEGIN_REQ) meets the
// reader's n-th input sync (.WEST or .NORTH); the first to arrive waits, and when both
// have, the pair swaps and both are released `sync_latency` cycles later (the arriving side
// in its own call, TLM_COMPLETED with the delay; the waiting one by BEGIN_RESP on its
// backward path). A writer waits while the reader still needs the buffer it would write
// next (the pair is full); a reader waits for data (empty). Statistics: the cycles each
// side waited; a wait left at the end is named in the report of a run that cannot finish.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <string>

#include "models/common/component.h"

namespace gputlm::spu {

// A link's buffer pair as the global barrier sees it (its export `swap`).
class link_swap : public virtual sc_core::sc_interface {
 public:
  // The reader's buffer becomes the one just written, the writer's the one just read.
  virtual void swap() = 0;
};

class communication_buffer : public component, public link_swap {
 public:
  communication_buffer(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void add_traces(vcd_writer& vcd) override;

  tlm_utils::simple_target_socket<communication_buffer> writer{"writer"};
  tlm_utils::simple_target_socket<communication_buffer> reader{"reader"};
  tlm_utils::simple_target_socket<communication_buffer> writer_sync{"writer_sync"};
  tlm_utils::simple_target_socket<communication_buffer> reader_sync{"reader_sync"};
  std::string pending_work() const override;

  // The link's sync: the reader's buffer becomes the one just written, the writer's the one
  // just read (emptied). Also the global barrier's, through `swap_export`.
  void swap() override;
  sc_core::sc_export<link_swap> swap_export{"swap"};
  std::uint64_t capacity() const { return m_bytes->value; }
  std::uint64_t write_fill() const { return m_fill[m_write]; }
  std::uint64_t read_fill() const { return m_fill[1 - m_write]; }
  unsigned write_buffer() const { return m_write; }
  // The statistics by name (pushes, pops, swaps, accesses, overflow_bytes, underflow_bytes).
  std::uint64_t count(const std::string& stat) const;
  // Cycles one access of `bytes` occupies the buffer: latency + rows beyond the first.
  std::uint64_t access_cycles(std::uint64_t bytes) const;
  // The units at the link's ends, as they name themselves (a debug write of their name on
  // `writer` or `reader` once bound): for the report of a run that cannot finish.
  static void name_end(tlm::tlm_fw_transport_if<>& fw, const std::string& who);
  const std::string& writer_name() const { return m_end[0]; }
  const std::string& reader_name() const { return m_end[1]; }

 private:
  // The statistics: name, counter, description (registered, and read by count()).
  struct named_counter {
    const char* name;
    const counter* value;
    const char* description;
  };
  std::array<named_counter, 10> counters() const;
  void access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay, bool write);
  unsigned name_end(int end, tlm::tlm_generic_payload& gp);
  unsigned writer_dbg(tlm::tlm_generic_payload& gp) { return name_end(0, gp); }
  unsigned reader_dbg(tlm::tlm_generic_payload& gp) { return name_end(1, gp); }
  void writer_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { access(gp, delay, true); }
  void reader_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { access(gp, delay, false); }

  tlm::tlm_sync_enum sync_fw(bool writer_side, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  tlm::tlm_sync_enum writer_sync_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                    sc_core::sc_time& delay) {
    return sync_fw(true, gp, phase, delay);
  }
  tlm::tlm_sync_enum reader_sync_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                    sc_core::sc_time& delay) {
    return sync_fw(false, gp, phase, delay);
  }

  param<bytes> m_bytes{*this, "size", {4096}, "bytes of each buffer of the pair (thesis: 4 KiB)"};
  param<cycles> m_sync_latency{
      *this, "sync_latency", {0}, "cycles from a link's pairing to the release (SPU-Sim: 0)"};
  param<std::uint64_t> m_banks{*this, "banks", 32, "banks (Fermi shared memory: 32)"};
  param<bytes> m_bank_width{*this, "bank_width", {4}, "bytes per bank and cycle"};
  param<cycles> m_latency{*this, "latency", {26}, "access latency (GTX480 shared memory: 26)"};

  std::string m_end[2];  // writer, reader
  std::uint64_t m_fill[2] = {0, 0};
  std::uint64_t m_popped = 0;  // bytes read from the read buffer since the last swap
  unsigned m_write = 0;
  // The sync: arrivals per side; the side waiting (its payload, since when).
  std::uint64_t m_arrived[2] = {0, 0};  // [0] writer, [1] reader
  tlm::tlm_generic_payload* m_waiting[2] = {nullptr, nullptr};
  std::uint64_t m_waiting_since[2] = {0, 0};
  counter m_wait_cycles[2];
  counter m_pushes, m_pops, m_bytes_pushed, m_bytes_popped, m_swaps, m_overflow, m_underflow,
      m_accesses;
  traced_value m_trace_write_fill, m_trace_read_fill, m_trace_write_buffer;
  traced_value m_trace_writer_waits, m_trace_reader_waits;
  pm::power_component* m_power = nullptr;  // `ram`: both buffers; event `access` (CB_ACC)
};

}  // namespace gputlm::spu
