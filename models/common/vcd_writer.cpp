#include "models/common/vcd_writer.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <systemc>

namespace gputlm {

vcd_writer::vcd_writer(std::string path) : m_path(std::move(path)) {
  m_out.open(m_path + ".partial", std::ios::binary | std::ios::trunc);
  if (!m_out) throw std::runtime_error("cannot write " + m_path + ".partial");
}

vcd_writer::~vcd_writer() {
  if (m_out.is_open()) {  // not finished: leave nothing behind
    m_out.close();
    std::error_code ec;
    std::filesystem::remove(m_path + ".partial", ec);
  }
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

std::uint32_t vcd_writer::add_integer(const std::string& scope, const std::string& name,
                                      unsigned width, std::uint64_t initial) {
  if (m_header_done) throw std::logic_error("VCD signal declared after the first change");
  m_signals.push_back({scope, name, code_for(m_signals.size()), width ? width : 1, initial, 0});
  return static_cast<std::uint32_t>(m_signals.size() - 1);
}

std::uint32_t vcd_writer::add_real(const std::string& scope, const std::string& name,
                                   double initial) {
  if (m_header_done) throw std::logic_error("VCD signal declared after the first change");
  m_signals.push_back({scope, name, code_for(m_signals.size()), 0, 0, initial});
  return static_cast<std::uint32_t>(m_signals.size() - 1);
}

namespace {
std::string binary(std::uint64_t v, unsigned width) {
  if (width == 1) return v ? "1" : "0";
  std::string s = "b";
  bool started = false;
  for (int bit = static_cast<int>(width) - 1; bit >= 0; --bit) {
    bool one = (v >> bit) & 1;
    if (one) started = true;
    if (started) s += one ? '1' : '0';
  }
  if (!started) s += '0';
  return s + " ";
}
}  // namespace

void vcd_writer::write_header() {
  m_header_done = true;
  m_out << "$date gputlm $end\n$version gputlm VCD writer $end\n$timescale 1 fs $end\n";
  // Group signals by scope; scopes nest at the dots.
  std::map<std::string, std::vector<const signal*>> by_scope;
  for (const auto& s : m_signals) by_scope[s.scope].push_back(&s);
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
      m_out << "$scope module " << parts[k] << " $end\n";
      open.push_back(parts[k]);
    }
    for (const signal* s : sigs) {
      if (s->width == 0)
        m_out << "$var real 64 " << s->code << " " << s->name << " $end\n";
      else
        m_out << "$var wire " << s->width << " " << s->code << " " << s->name << " $end\n";
    }
  }
  while (!open.empty()) {
    m_out << "$upscope $end\n";
    open.pop_back();
  }
  m_out << "$enddefinitions $end\n#0\n$dumpvars\n";
  for (const auto& s : m_signals) {
    if (s.width == 0) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "r%.17g ", s.initial_real);
      m_out << buf << s.code << "\n";
    } else {
      m_out << binary(s.initial, s.width) << s.code << "\n";
    }
  }
  m_out << "$end\n";
  m_last_time = 0;
}

void vcd_writer::at_now() {
  if (!m_header_done) write_header();
  std::uint64_t now = sc_core::sc_time_stamp().value();
  if (now != m_last_time) {
    m_out << "#" << now << "\n";
    m_last_time = now;
  }
}

void vcd_writer::change(std::uint32_t id, std::uint64_t value) {
  at_now();
  const signal& s = m_signals[id];
  m_out << binary(value, s.width) << s.code << "\n";
}

void vcd_writer::change_real(std::uint32_t id, double value) {
  at_now();
  char buf[40];
  std::snprintf(buf, sizeof buf, "r%.17g ", value);
  m_out << buf << m_signals[id].code << "\n";
}

void vcd_writer::finish() {
  if (!m_header_done) write_header();
  std::uint64_t now = sc_core::sc_time_stamp().value();
  if (now != m_last_time) m_out << "#" << now << "\n";
  m_out.close();
  if (!m_out) throw std::runtime_error("cannot write " + m_path);
  std::filesystem::rename(m_path + ".partial", m_path);
}

}  // namespace gputlm
