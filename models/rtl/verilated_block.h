// The simulation side of one Verilated RTL block, shared by the transactors: its context
// and model (the pins), rising clock edges on demand, and its waveform (docs/rtl.md).
// Each edge is clk low, evaluate, clk high, evaluate. When traced, every signal of the RTL
// goes to its own VCD file, in the main waveform's time base (fs): the edges of one
// simulated instant 1 fs apart from that instant on (the transactors clock the RTL within
// the cycle of the block that asks). The file is written as PATH.partial and renamed when
// the main waveform is finished, with a GTKWave layout beside it that groups the RTL top's
// ports and registers under the block's name.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

class VerilatedContext;
class VerilatedVcdC;

namespace gputlm {
class vcd_writer;
}

namespace gputlm::rtl {

template <class Model>
class verilated_block {
 public:
  explicit verilated_block(const char* instance);
  ~verilated_block();
  verilated_block(const verilated_block&) = delete;
  verilated_block& operator=(const verilated_block&) = delete;

  Model& pins() const { return *m_model; }
  void eval() const;
  void edge();
  // The pin convention (docs/rtl.md), for a Model with its ports: rst_n pulsed low with clk
  // low; a request sent (its fields already on the pins): req_valid raised, edges until it
  // is taken, lowered, edges until a response is on the channel; the response taken:
  // rsp_ready high for one edge.
  void reset();
  void send_request();
  void take_response();
  std::uint64_t edges() const { return m_edges; }

  // Records the RTL's signals beside the main waveform `vcd` (FILE.vcd -> FILE.<group>.vcd)
  // from now on, each edge at now_fs() (see above); finished with `vcd`.
  void trace(vcd_writer& vcd, const std::string& group, std::function<std::uint64_t()> now_fs);
  bool traced() const { return m_vcd != nullptr; }

 private:
  void dump();
  void finish_trace(const std::string& gtkw);

  std::unique_ptr<VerilatedContext> m_context;
  std::unique_ptr<Model> m_model;
  std::unique_ptr<VerilatedVcdC> m_vcd;
  std::function<std::uint64_t()> m_now_fs;
  std::uint64_t m_from_fs = 0, m_to_fs = ~0ull;
  std::uint64_t m_last_fs = 0;
  bool m_dumped = false;
  std::string m_path, m_group;
  std::uint64_t m_edges = 0;
};

}  // namespace gputlm::rtl
