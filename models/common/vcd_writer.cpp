#include "models/common/vcd_writer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <systemc>

#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "models/common/clock_domain.h"

namespace gputlm {
namespace {
// Orders scopes as a person reads them: smx[2] before smx[10].
struct natural_less {
  bool operator()(const std::string& a, const std::string& b) const {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      if (std::isdigit(static_cast<unsigned char>(a[i])) &&
          std::isdigit(static_cast<unsigned char>(b[j]))) {
        std::size_t i2 = i, j2 = j;
        while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
        while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
        const std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
        if (na.size() != nb.size()) return na.size() < nb.size();
        if (na != nb) return na < nb;
        i = i2;
        j = j2;
      } else {
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
      }
    }
    return a.size() - i < b.size() - j;
  }
};
}  // namespace

vcd_writer::vcd_writer(std::string path, options opts)
    : m_path(std::move(path)), m_opts(std::move(opts)) {
  // Registered before it exists: a signal between the two leaves nothing behind.
  register_partial(m_path + ".partial");
  m_out.open(m_path + ".partial", std::ios::binary | std::ios::trunc);
  if (!m_out) {
    unregister_partial(m_path + ".partial");
    throw input_error({m_path, 0, 0}, "--vcd", "cannot be written");
  }
}

vcd_writer::~vcd_writer() {
  if (m_out.is_open()) {  // not finished: leave nothing behind
    m_out.close();
    std::error_code ec;
    std::filesystem::remove(m_path + ".partial", ec);
  }
  unregister_partial(m_path + ".partial");
}

bool vcd_writer::glob_match(const char* p, const char* t) {
  // Iterative glob with backtracking to the last '*'.
  const char* star = nullptr;
  const char* resume = nullptr;
  while (*t) {
    if (*p == '*') {
      star = p++;
      resume = t;
    } else if (*p == '?' || *p == *t) {
      ++p;
      ++t;
    } else if (star) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (*p == '*') ++p;
  return *p == '\0';
}

bool vcd_writer::selected(const std::string& scope, const std::string& name) const {
  if (m_opts.patterns.empty()) return true;
  const std::string full = scope + "." + name;
  const std::string rel = full.rfind("gpu.", 0) == 0 ? full.substr(4) : full;
  for (const auto& p : m_opts.patterns)
    if (glob_match(p.c_str(), full.c_str()) || glob_match(p.c_str(), rel.c_str())) return true;
  return false;
}

std::string vcd_writer::code_for(std::size_t index) {
  // Identifier codes from the printable range '!'..'~'.
  std::string code;
  do {
    code += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index != 0);
  return code;
}

std::string vcd_writer::vcd_name(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (c == '[') c = '(';
    if (c == ']') c = ')';
  }
  return out;
}

std::uint32_t vcd_writer::add(const std::string& scope, const std::string& name, unsigned width,
                              std::uint64_t initial, double real, display how) {
  if (m_open) throw std::logic_error("VCD signal declared after the waveform started");
  signal s{scope, name, code_for(m_signals.size()), width, initial, real, how, scope, name};
  if (const std::size_t dot = name.rfind('.'); dot != std::string::npos) {
    s.vcd_scope = scope + "." + name.substr(0, dot);
    s.vcd_var = name.substr(dot + 1);
  }
  m_signals.push_back(std::move(s));
  return static_cast<std::uint32_t>(m_signals.size() - 1);
}

std::uint32_t vcd_writer::add_integer(const std::string& scope, const std::string& name,
                                      unsigned width, std::uint64_t initial, display how) {
  return add(scope, name, width ? width : 1, initial, 0.0, how);
}

std::uint32_t vcd_writer::add_real(const std::string& scope, const std::string& name,
                                   double initial) {
  return add(scope, name, 0, 0, initial, display::decimal);
}

void vcd_writer::write_value(const signal& s) {
  if (s.width == 0) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "r%.17g ", s.real);
    m_out << buf << s.code << "\n";
    return;
  }
  if (s.width == 1) {
    m_out << (s.value ? '1' : '0') << s.code << "\n";
    return;
  }
  char bits[66];
  int n = 0;
  for (int bit = static_cast<int>(s.width) - 1; bit >= 0; --bit)
    if (n > 0 || (s.value >> bit & 1)) bits[n++] = (s.value >> bit & 1) ? '1' : '0';
  if (n == 0) bits[n++] = '0';
  bits[n] = '\0';
  m_out << 'b' << bits << ' ' << s.code << "\n";
}

void vcd_writer::open_window(std::uint64_t at_fs) {
  m_open = true;
  m_out << "$date gputlm $end\n$version gputlm VCD writer $end\n$timescale 1 fs $end\n";
  // Group signals by scope; scopes nest at the dots.
  std::map<std::string, std::vector<const signal*>, natural_less> by_scope;
  for (const auto& s : m_signals) by_scope[s.vcd_scope].push_back(&s);
  std::vector<std::string> open;
  auto split = [](const std::string& scope) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : scope) {
      if (c == '.') {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) parts.push_back(cur);
    return parts;
  };
  for (const auto& [scope, sigs] : by_scope) {
    auto parts = split(scope);
    std::size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    while (open.size() > common) {
      m_out << "$upscope $end\n";
      open.pop_back();
    }
    for (std::size_t k = common; k < parts.size(); ++k) {
      m_out << "$scope module " << vcd_name(parts[k]) << " $end\n";
      open.push_back(parts[k]);
    }
    for (const signal* s : sigs) {
      if (s->width == 0)
        m_out << "$var real 64 " << s->code << " " << vcd_name(s->vcd_var) << " $end\n";
      else
        m_out << "$var wire " << s->width << " " << s->code << " " << vcd_name(s->vcd_var)
              << " $end\n";
    }
  }
  while (!open.empty()) {
    m_out << "$upscope $end\n";
    open.pop_back();
  }
  m_out << "$enddefinitions $end\n#" << at_fs << "\n$dumpvars\n";
  for (const auto& s : m_signals) write_value(s);
  m_out << "$end\n";
  m_last_time = at_fs;
}

bool vcd_writer::in_window(std::uint64_t& now) {
  now = clock_domain::now_fs();
  if (now < m_opts.from_fs || now > m_opts.to_fs) return false;
  if (!m_open) open_window(m_opts.from_fs);  // the values as they were when the window opened
  if (now != m_last_time) {
    // A write that failed (a full disk) stops the run at once rather than at its end: the
    // caller asks failed() after the simulation.
    if (!m_out && !m_failed) {
      m_failed = true;
      sc_core::sc_stop();
    }
    m_out << "#" << now << "\n";
    m_last_time = now;
  }
  return true;
}

void vcd_writer::change(std::uint32_t id, std::uint64_t value) {
  std::uint64_t now;
  const bool write = in_window(now);
  m_signals[id].value = value;
  if (write) write_value(m_signals[id]);
}

void vcd_writer::change_real(std::uint32_t id, double value) {
  std::uint64_t now;
  const bool write = in_window(now);
  m_signals[id].real = value;
  if (write) write_value(m_signals[id]);
}

std::string vcd_writer::gtkw_path() const { return gtkw_path_of(m_path); }

std::string vcd_writer::gtkw_path_of(const std::string& vcd_path) {
  std::string base = vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  return base + ".gtkw";
}

double vcd_writer::gtkw_zoom(std::uint64_t span_fs, int pixels) {
  // Time units per 200-pixel frame that make `span_fs` fill `pixels`; GTKWave never draws
  // less than one time unit per frame.
  const double frame =
      double(std::max<std::uint64_t>(1, span_fs)) * 200.0 / double(std::max(1, pixels));
  return frame <= 1.0 ? 0.0 : -std::log2(frame);
}

void vcd_writer::write_gtkw_head(std::ostream& g, const std::string& title,
                                 const std::string& vcd_path, const std::string& gtkw_path,
                                 std::uint64_t timestart_fs) {
  g << "[*] " << title << "\n";
  g << "[dumpfile] \"" << std::filesystem::absolute(vcd_path).string() << "\"\n";
  g << "[savefile] \"" << std::filesystem::absolute(gtkw_path).string() << "\"\n";
  g << "[timestart] " << timestart_fs << "\n";
  g << "[size] " << gtkw_window_width << " " << gtkw_window_height << "\n[pos] -1 -1\n";
  g << "[sst_width] " << gtkw_sst_width << "\n[signals_width] " << gtkw_signals_width << "\n";
}

void vcd_writer::write_gtkw() const {
  // GTKWave save file: signals grouped by block (flags: 0x800200 group begin, 0x1000200 group
  // end, 0x24 decimal right-justified, 0x22 hexadecimal right-justified, 0x20 right-justified
  // for reals, 0x8024 analog step decimal, 0x20000 a blank row that stretches the analog
  // trace above it; "+{alias} name" shows a signal under another name).
  register_partial(gtkw_path() + ".partial");
  std::ofstream g(gtkw_path() + ".partial", std::ios::trunc);
  const std::uint64_t from = std::min(m_end_fs, m_opts.from_fs);
  write_gtkw_head(g, "gputlm waveform layout for " + std::filesystem::absolute(m_path).string(),
                  m_path, gtkw_path(), from);
  // The whole written window [from, end] fits the wave pane; the marker is unset (-1).
  char zoom[32];
  std::snprintf(zoom, sizeof zoom, "%.6f", gtkw_zoom(m_end_fs - from, gtkw_wave_width));
  g << "*" << zoom << " -1";
  for (int k = 0; k < 26; ++k) g << " -1";  // named markers A..Z
  g << "\n";
  std::map<std::string, std::vector<const signal*>, natural_less> by_scope;
  for (const auto& s : m_signals) by_scope[s.scope].push_back(&s);
  for (const auto& [scope, sigs] : by_scope) {
    const std::string name = vcd_name(scope);
    g << "@800200\n-" << name << "\n";
    for (const signal* s : sigs) {
      // A dotted name keeps its sub-scope in view through an alias without dots (GTKWave
      // shows only the last level of a dotted name): bank[3].open_row as bank(3):open_row.
      std::string trace;
      if (s->vcd_scope != s->scope) {
        std::string alias = vcd_name(s->name);
        std::replace(alias.begin(), alias.end(), '.', ':');
        trace = "+{" + alias + "} ";
      }
      trace += vcd_name(s->vcd_scope) + "." + vcd_name(s->vcd_var);
      if (s->width > 1) trace += "[" + std::to_string(s->width - 1) + ":0]";
      if (s->width == 0)
        g << "@20\n" << trace << "\n";
      else if (s->width == 1)
        g << "@28\n" << trace << "\n";
      else if (s->how == display::analog)
        g << "@8024\n" << trace << "\n@20000\n-\n-\n";
      else if (s->how == display::hex)
        g << "@22\n" << trace << "\n";
      else
        g << "@24\n" << trace << "\n";
    }
    g << "@1000200\n-" << name << "\n";
  }
  g.close();
  if (!g) throw input_error({gtkw_path(), 0, 0}, "--vcd", "cannot write the GTKWave layout");
  std::filesystem::rename(gtkw_path() + ".partial", gtkw_path());
  unregister_partial(gtkw_path() + ".partial");
}

void vcd_writer::finish() {
  const std::uint64_t now = clock_domain::now_fs();
  if (!m_open) open_window(std::min(m_opts.from_fs, now));
  const std::uint64_t end = std::min(now, m_opts.to_fs);
  m_end_fs = end;
  if (end != m_last_time && end > m_last_time) m_out << "#" << end << "\n";
  m_out.close();
  if (!m_out || m_failed) {  // (a full disk): nothing half-written stays
    std::error_code ec;
    std::filesystem::remove(m_path + ".partial", ec);
    unregister_partial(m_path + ".partial");
    throw input_error({m_path, 0, 0}, "--vcd",
                      "cannot write the waveform (disk full?): stopped, nothing written");
  }
  std::filesystem::rename(m_path + ".partial", m_path);
  unregister_partial(m_path + ".partial");
  write_gtkw();
  for (auto& action : m_on_finish) action();
}

std::string vcd_writer::beside(const std::string& tag) const {
  std::string base = m_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
    base.resize(base.size() - 4);
  return base + "." + tag + ".vcd";
}

}  // namespace gputlm
