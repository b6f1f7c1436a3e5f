// An SPU interface unit (Rajasree thesis §2.2.1, §2.2.2, §4.1, Algorithm 2, Table 5.2;
// docs/references.md, "SPU platform" and "SPU runtime and sync"): a border unit between
// global memory and one neighbour link. West and north units load the kernel's boundary
// faces into the link's writer side (or, as virtual IUs, restore faces an earlier pass
// spilled); east and south units take the faces the border SMs push out of the link's
// reader side and store them (or, as virtual IUs, spill them for a later pass). The runtime
// (spu_runtime.h) gives each unit its program, pass by pass, from the plan; the unit runs
// it: face transfers to and from global memory as real requests through the memory
// hierarchy (one 128-byte request a cycle at most, `outstanding` in flight), buffer
// accesses, its link's sync or the global barrier, and waits for a producer pass's spills
// and for a pass to start.
//
// `implementation` says what the unit is built as, for the power model (its power
// component is `interface_unit.truncated_sm` or `interface_unit.dma`): a truncated SM
// (the thesis's IU, Table 5.2) or a DMA engine (§7.2, Table 7.1). Both run the same
// program at the same speed here (the thesis's DMA estimate also keeps time unchanged).
// Sockets (initiators): `mem` (AT, towards its network interface), `cb` (b_transport: the
// link's writer for west/north, reader for east/south), `cb_sync` (the link's sync),
// `global_sync` (the global barrier).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <vector>

#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/common/wakeup.h"
#include "models/memory/tlm_channels.h"
#include "models/spu/pass_plan.h"
#include "models/spu/sync_arrival.h"

namespace gputlm::spu {

class unit_control;

// What a unit asks of the runtime that programs it (the spill counters and pass registers
// of Table 4.1); the runtime hands itself over with the program (unit_control::attach).
class unit_runtime {
 public:
  virtual ~unit_runtime() = default;
  virtual std::uint64_t spill_count(std::uint32_t tag) const = 0;
  virtual void add_spill(std::uint32_t tag) = 0;
  virtual bool pass_started(std::uint32_t pass) const = 0;
  virtual void unit_finished(unit_control& u) = 0;
  // An SM acting as a unit: whether its CTAs of the passes before `pass` have exited, and
  // that its work for `pass` is done.
  virtual bool sm_turn(const unit_control& u, std::uint32_t pass) const = 0;
  virtual void unit_pass_done(const unit_control& u, std::uint32_t pass) = 0;
};

// What a face transfer is for (statistics and the off-chip accounting).
enum class face_purpose : std::uint8_t { load, store, spill, restore, count_ };

// One step of a unit's program.
struct unit_op {
  enum kind : std::uint8_t {
    read_face,    // rows x row_bytes from addr (stride between rows) into the unit
    write_face,   // the same, from the unit to memory
    push,         // bytes into the link's write buffer
    pop,          // bytes out of the link's read buffer
    link_sync,    // the link's directional sync
    global_sync,  // the global barrier
    wait_spills,  // until spill counter `tag` reaches `count` (a producer pass's faces)
    spilled,      // spill counter `tag` + 1
    wait_pass,    // until pass `count` has started (pass by pass)
    // An SM acting as a unit (implementation sm):
    select_link,  // read link `count` (0 north, 1 west) through the SM's link port
    wait_turn,    // until the SM's CTAs of passes before `count` have exited
    pass_done,    // its work for pass `count` is done (the SM may take a later CTA)
  } what;
  face_purpose why = face_purpose::load;
  std::uint64_t addr = 0, stride = 0;
  std::uint32_t rows = 0, row_bytes = 0;
  std::uint32_t tag = 0, count = 0;
};

// What the runtime asks of a unit (its export `control`).
class unit_control : public virtual sc_core::sc_interface {
 public:
  virtual spu::side border_side() const = 0;
  virtual std::uint32_t lane() const = 0;
  // The runtime: its program for the kernel (replacing what is left), and a wake-up when
  // a spill or pass it may wait for has happened.
  virtual void attach(unit_runtime& rt, std::uint32_t kernel) = 0;
  virtual void run_program(std::vector<unit_op> ops) = 0;
  virtual void poke() = 0;
  virtual std::uint64_t faces(face_purpose p) const = 0;
};

class interface_unit : public component, public unit_control {
 public:
  using purpose = face_purpose;
  using op = unit_op;

  interface_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;  // names itself at its link's end
  std::string pending_work() const override;

  tlm_utils::simple_initiator_socket<interface_unit> mem{"mem"};
  tlm_utils::simple_initiator_socket<interface_unit> cb{"cb"};
  tlm_utils::simple_initiator_socket_tagged<interface_unit> cb_sync{"cb_sync"};
  tlm_utils::simple_initiator_socket_tagged<interface_unit> global_sync{"global_sync"};

  sc_core::sc_export<unit_control> control{"control"};
  spu::side border_side() const override { return m_side_value; }
  std::uint32_t lane() const override { return m_lane; }
  bool dma() const { return *m_implementation == "dma"; }
  void attach(unit_runtime& rt, std::uint32_t kernel) override {
    m_runtime = &rt;
    m_kernel = kernel;
  }
  void run_program(std::vector<op> ops) override;
  void poke() override;
  bool idle() const { return m_pc >= m_ops.size(); }
  std::uint64_t faces(purpose p) const override { return m_faces[std::size_t(p)].value(); }
  std::uint64_t bytes(purpose p) const { return m_bytes[std::size_t(p)].value(); }
  std::uint64_t sync_wait_cycles() const { return m_sync_wait.value(); }

 private:
  tlm::tlm_sync_enum mem_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum sync_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& t);
  void run();
  // One step of the current op; false when the unit must wait (a wake-up is arranged).
  bool step(std::uint64_t now);
  bool transfer(const op& o, std::uint64_t now);
  bool sync(const op& o, std::uint64_t now);
  void done_op();

  choice_param m_side{
      *this, "side", "west", "the grid border it sits on", {"north", "east", "west", "south"}};
  choice_param m_implementation{
      *this,
      "implementation",
      "truncated_sm",
      "what the unit is built as (power): truncated_sm, dma, or sm (an SM acting as the unit "
      "of a partial pass: no hardware of its own, its events still counted)",
      {"truncated_sm", "dma", "sm"}};
  param<std::uint64_t> m_outstanding{*this, "outstanding", 32, "memory requests in flight at most"};
  param<gputlm::bytes> m_request_size{*this, "request_size", {128}, "bytes per memory request"};

  spu::side m_side_value = spu::side::west;
  std::uint32_t m_lane = 0;
  unit_runtime* m_runtime = nullptr;
  std::uint32_t m_kernel = 0;
  std::vector<op> m_ops;
  std::size_t m_pc = 0;
  std::uint64_t m_busy_until = 0;
  std::uint64_t m_started = 0;
  bool m_finished = true;
  // The current face transfer: requests sent, in flight; the next send's earliest cycle.
  std::uint32_t m_sent = 0, m_in_flight = 0;
  std::uint64_t m_next_send = 0;
  std::array<sync_arrival, 2> m_sync;  // [0] link, [1] global
  bool m_sync_sent = false, m_sync_done = false;
  payload_pool m_pool;
  memory::request_channel m_down;
  wakeup m_wake;
  std::array<counter, std::size_t(purpose::count_)> m_faces, m_bytes;
  counter m_requests, m_sync_wait, m_cb_accesses, m_busy_cycles;
  // `truncated_sm` or `dma` by the implementation; events request, cb_access, sync.
  pm::power_component* m_power = nullptr;
};

const char* purpose_name(interface_unit::purpose p);

}  // namespace gputlm::spu
