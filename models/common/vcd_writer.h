// Waveform output in VCD (IEEE 1364 §18), written by the model itself rather than by
// SystemC's sc_trace, which samples every traced variable at every delta cycle. Here a
// block's traced_value writes a change only when the block changes it, at the exact
// simulated time, and costs one branch when tracing is off.
//
// Signals are declared before the simulation starts; the file appears at its path only
// when finish() succeeds (written as PATH.partial and renamed).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace gputlm {

class vcd_writer {
 public:
  explicit vcd_writer(std::string path);
  ~vcd_writer();

  // Declares a signal under a dotted scope ("gpu.smx[0]"); returns its handle.
  std::uint32_t add_integer(const std::string& scope, const std::string& name, unsigned width,
                            std::uint64_t initial);
  std::uint32_t add_real(const std::string& scope, const std::string& name, double initial);

  void change(std::uint32_t id, std::uint64_t value);
  void change_real(std::uint32_t id, double value);

  // Writes the remaining header (if no change came) and renames PATH.partial to PATH.
  void finish();

  const std::string& path() const { return m_path; }
  std::size_t signal_count() const { return m_signals.size(); }

 private:
  struct signal {
    std::string scope, name, code;
    unsigned width;  // 0 = real
    std::uint64_t initial;
    double initial_real;
  };
  void write_header();
  void at_now();
  static std::string code_for(std::size_t index);

  std::string m_path;
  std::ofstream m_out;
  std::vector<signal> m_signals;
  bool m_header_done = false;
  std::uint64_t m_last_time = ~0ull;
};

// A value that a block updates; recorded in the VCD when tracing is on.
class traced_value {
 public:
  traced_value() = default;
  explicit traced_value(std::uint64_t v) : m_value(v) {}

  void trace(vcd_writer& w, const std::string& scope, const std::string& name, unsigned width) {
    m_writer = &w;
    m_id = w.add_integer(scope, name, width, m_value);
  }
  void set(std::uint64_t v) {
    if (v == m_value) return;
    m_value = v;
    if (m_writer) m_writer->change(m_id, v);
  }
  std::uint64_t get() const { return m_value; }
  operator std::uint64_t() const { return m_value; }

 private:
  std::uint64_t m_value = 0;
  vcd_writer* m_writer = nullptr;
  std::uint32_t m_id = 0;
};

}  // namespace gputlm
