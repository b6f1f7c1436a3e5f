// A Verilated block's clock and waveform (verilated_block.h).
#include "models/rtl/verilated_block.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "Vmshr_table.h"
#include "Vmshr_table_off_by_one.h"
#include "Vtb_dispatch.h"
#include "Vtb_dispatch_off_by_one.h"
#include "models/base/output_files.h"
#include "models/common/vcd_writer.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace gputlm::rtl {

template <class Model>
verilated_block<Model>::verilated_block(const char* instance)
    : m_context(std::make_unique<VerilatedContext>()) {
  m_context->traceEverOn(true);  // (before the model: its trace hooks exist from the start)
  m_model = std::make_unique<Model>(m_context.get(), instance);
}

template <class Model>
verilated_block<Model>::~verilated_block() {
  if (m_model) m_model->final();
  if (m_vcd) m_vcd->close();
}

template <class Model>
void verilated_block<Model>::eval() const {
  m_model->eval();
}

template <class Model>
void verilated_block<Model>::dump() {
  const std::uint64_t now = m_now_fs();
  if (now < m_from_fs || now > m_to_fs) return;
  const std::uint64_t t = m_dumped ? std::max(now, m_last_fs + 1) : now;
  m_vcd->dump(t);
  m_last_fs = t;
  m_dumped = true;
}

template <class Model>
void verilated_block<Model>::edge() {
  Model& m = *m_model;
  m.clk = 0;
  m.eval();
  if (m_vcd) dump();
  m.clk = 1;
  m.eval();
  if (m_vcd) dump();
  ++m_edges;
}

template <class Model>
void verilated_block<Model>::reset() {
  Model& m = *m_model;
  m.clk = 0;
  m.rst_n = 0;
  m.eval();
  m.rst_n = 1;
  m.eval();
}

template <class Model>
void verilated_block<Model>::send_request() {
  Model& m = *m_model;
  m.req_valid = 1;
  m.eval();
  while (!m.req_ready) edge();  // back-pressure: the request waits
  edge();                       // taken at this edge
  m.req_valid = 0;
  m.eval();
  while (!m.rsp_valid) edge();
}

template <class Model>
void verilated_block<Model>::take_response() {
  Model& m = *m_model;
  m.rsp_ready = 1;
  m.eval();
  edge();
  m.rsp_ready = 0;
  m.eval();
}

template <class Model>
void verilated_block<Model>::trace(vcd_writer& vcd, const std::string& group,
                                   std::function<std::uint64_t()> now_fs) {
  m_group = group;
  m_path = vcd.beside(group);
  m_now_fs = std::move(now_fs);
  m_from_fs = vcd.opts().from_fs;
  m_to_fs = vcd.opts().to_fs;
  m_vcd = std::make_unique<VerilatedVcdC>();
  m_model->trace(m_vcd.get(), 99);
  m_vcd->set_time_unit("1fs");
  m_vcd->set_time_resolution("1fs");
  register_partial(m_path + ".partial");
  m_vcd->open((m_path + ".partial").c_str());
  std::string gtkw = m_path;
  gtkw.replace(gtkw.size() - 4, 4, ".gtkw");
  vcd.on_finish([this, gtkw] { finish_trace(gtkw); });
}

template <class Model>
void verilated_block<Model>::finish_trace(const std::string& gtkw) {
  if (m_dumped) {
    const std::uint64_t end = std::min(m_now_fs(), m_to_fs);
    if (end > m_last_fs) m_vcd->dump(end);  // (the file spans the run, as the main one)
  }
  m_vcd->close();
  m_vcd.reset();
  std::filesystem::rename(m_path + ".partial", m_path);
  unregister_partial(m_path + ".partial");
  // The layout: the RTL top's ports and registers (its scope's signals but the elements of
  // arrays and the parameters) in one group named after the block.
  std::ifstream in(m_path);
  std::vector<std::string> scopes, signals;
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string k;
    w >> k;
    if (k == "$scope") {
      std::string kind, name;
      w >> kind >> name;
      scopes.push_back(name);
    } else if (k == "$upscope") {
      if (!scopes.empty()) scopes.pop_back();
    } else if (k == "$var" && scopes.size() == 2) {  // TOP.<top module>
      std::string type, width, code, name, range;
      w >> type >> width >> code >> name >> range;
      if (name.find('(') != std::string::npos) continue;
      // (parameters, named in capitals, are constants)
      if (std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
        continue;
      std::string s = scopes[0] + "." + scopes[1] + "." + name;
      if (range.size() > 1 && range[0] == '[') s += range;
      signals.push_back(s);
    } else if (k == "$enddefinitions") {
      break;
    }
  }
  write_file_atomically(gtkw, [&](std::ostream& g) {
    vcd_writer::write_gtkw_head(g, "gputlm waveform layout for the RTL of " + m_group, m_path, gtkw,
                                m_from_fs);
    const std::string name = vcd_writer::vcd_name(m_group) + " (RTL)";
    g << "@800200\n-" << name << "\n";
    for (const std::string& s : signals)
      g << (s.find('[') != std::string::npos ? "@22\n" : "@28\n") << s << "\n";
    g << "@1000200\n-" << name << "\n";
  });
}

template class verilated_block<Vmshr_table>;
template class verilated_block<Vmshr_table_off_by_one>;
template class verilated_block<Vtb_dispatch>;
template class verilated_block<Vtb_dispatch_off_by_one>;

}  // namespace gputlm::rtl
