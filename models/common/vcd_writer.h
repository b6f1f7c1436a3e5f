// Waveform output in VCD (IEEE 1364 §18), written by the model itself rather than by
// SystemC's sc_trace, which samples every traced variable at every delta cycle. Here a
// block's traced_value writes a change only when the block changes it, at the exact
// simulated time, and costs one branch when tracing is off or the signal not selected.
//
// Signals are selected by hierarchical glob (`smx[0].*`, `l2[*].mshr_*`; `*` matches any
// characters, `?` one; a leading `gpu.` is optional). A time window [from, to] keeps long
// runs small: changes outside it are not written, and the values at `from` open the window.
// Scope names are written with ( ) for [ ] (as SystemC's VCD writer does), since GTKWave
// reads brackets as bit ranges: gpu.smx[0] appears as gpu.smx(0).
//
// A signal name may itself be dotted ("bank[3].open_row"): the part before the last dot
// becomes a sub-scope in the VCD, while the GTKWave layout keeps the signal in its block's
// group.
//
// The file appears at its path only when finish() succeeds (written as PATH.partial and
// renamed); finish() also writes PATH-without-.vcd + ".gtkw", a GTKWave save file with the
// signals grouped by block, zoomed so that the whole written window fits the wave pane.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace gputlm {

class vcd_writer {
 public:
  // How the GTKWave layout shows an integer signal: decimal, hexadecimal (for values with an
  // all-ones sentinel), or an analog trace (steps, three rows high: for cumulative counters,
  // whose slope is a rate).
  enum class display { decimal, hex, analog };

  // The GTKWave window the layout asks for, and the width in pixels its wave pane is assumed
  // to have at least: the window minus the signal search tree, the signal names, and a
  // margin for the panes' borders and the vertical scroll bar.
  static constexpr int gtkw_window_width = 1360, gtkw_window_height = 860;
  static constexpr int gtkw_sst_width = 240, gtkw_signals_width = 330;
  static constexpr int gtkw_wave_width =
      gtkw_window_width - gtkw_sst_width - gtkw_signals_width - 100;

  struct options {
    std::vector<std::string> patterns;  // empty: every signal
    std::uint64_t from_fs = 0;
    std::uint64_t to_fs = ~0ull;
  };

  vcd_writer(std::string path, options opts);
  explicit vcd_writer(std::string path) : vcd_writer(std::move(path), options()) {}
  ~vcd_writer();

  // True if the signal `scope.name` is selected by the patterns.
  bool selected(const std::string& scope, const std::string& name) const;
  // True if a pattern names it: for signals too many to trace unless asked for (a cache's
  // per-line power modes), which no pattern at all does not select.
  bool selected_explicitly(const std::string& scope, const std::string& name) const {
    return !m_opts.patterns.empty() && selected(scope, name);
  }

  // Declares a signal under a dotted scope ("gpu.smx[0]"); returns its handle.
  std::uint32_t add_integer(const std::string& scope, const std::string& name, unsigned width,
                            std::uint64_t initial, display how = display::decimal);
  std::uint32_t add_real(const std::string& scope, const std::string& name, double initial);

  void change(std::uint32_t id, std::uint64_t value);
  void change_real(std::uint32_t id, double value);

  // Writes what is left, renames PATH.partial to PATH and writes the .gtkw file; then runs
  // the on_finish() actions (the RTL blocks' own waveforms, in their order).
  void finish();
  // A write failed (the run was stopped at that instant): finish() reports it.
  bool failed() const { return m_failed || !m_out; }
  void on_finish(std::function<void()> action) { m_on_finish.push_back(std::move(action)); }
  const options& opts() const { return m_opts; }
  // A file beside the waveform: FILE.vcd -> FILE.<tag>.vcd (a block's RTL signals).
  std::string beside(const std::string& tag) const;
  // A name as the VCD and the GTKWave layout write it ([ ] as ( )).
  static std::string vcd_name(const std::string& s);
  // The head of a GTKWave save file: its title, the dump and save files (absolute), the
  // first time shown, the window's geometry.
  static void write_gtkw_head(std::ostream& g, const std::string& title,
                              const std::string& vcd_path, const std::string& gtkw_path,
                              std::uint64_t timestart_fs);

  const std::string& path() const { return m_path; }
  std::string gtkw_path() const;
  // The GTKWave layout written beside the VCD file `vcd_path` (FILE.vcd -> FILE.gtkw).
  static std::string gtkw_path_of(const std::string& vcd_path);
  std::size_t signal_count() const { return m_signals.size(); }
  static bool glob_match(const char* pattern, const char* text);
  // GTKWave's zoom for showing `span_fs` in `pixels`: GTKWave draws zoombase^-zoom time units
  // (zoombase 2) per 200-pixel frame (gtkwave/src/analyzer.c, calczoom).
  static double gtkw_zoom(std::uint64_t span_fs, int pixels);

 private:
  struct signal {
    std::string scope, name, code;
    unsigned width;  // 0 = real
    std::uint64_t value;
    double real;
    display how;
    std::string vcd_scope, vcd_var;  // where the VCD declares it (a dotted name nests)
  };
  std::uint32_t add(const std::string& scope, const std::string& name, unsigned width,
                    std::uint64_t initial, double real, display how);
  void open_window(std::uint64_t at_fs);
  bool in_window(std::uint64_t& now);
  void write_value(const signal& s);
  void write_gtkw() const;
  static std::string code_for(std::size_t index);

  std::string m_path;
  options m_opts;
  std::ofstream m_out;
  std::vector<signal> m_signals;
  bool m_open = false;    // header written and the window opened
  bool m_failed = false;  // a write failed: the run was stopped
  std::uint64_t m_last_time = ~0ull;
  std::uint64_t m_end_fs = 0;  // end of the written window (set by finish)
  std::vector<std::function<void()>> m_on_finish;
};

// A value that a block updates; recorded in the VCD when tracing is on and it is selected.
class traced_value {
 public:
  traced_value() = default;
  explicit traced_value(std::uint64_t v) : m_value(v) {}

  void trace(vcd_writer& w, const std::string& scope, const std::string& name, unsigned width,
             vcd_writer::display how = vcd_writer::display::decimal) {
    if (!w.selected(scope, name)) return;
    m_writer = &w;
    m_id = w.add_integer(scope, name, width, m_value, how);
  }
  bool traced() const { return m_writer != nullptr; }
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
