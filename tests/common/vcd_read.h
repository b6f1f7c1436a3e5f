// A VCD file read back, for tests of what the waveform writer wrote: every value change by
// the signal's dotted name as the file declares it (scopes joined with '.'; a block
// `smx[3]` is scope smx(3), a signal `kde[0].x` is kde(0).x), in the file's order.
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace gputlm::testing {

struct vcd_file {
  struct change {
    std::uint64_t fs;
    std::string name;
    std::uint64_t value;
  };
  std::uint64_t unit_fs = 0;  // the $timescale (0: the file gives none)
  // Every change in the file's order (two of one signal at one time are both kept).
  std::vector<change> in_order;
  // Per signal: time in the file's units -> the last value written at that time.
  std::map<std::string, std::map<std::uint64_t, std::uint64_t>> changes;
  // Per signal: every change, (fs, value), in order.
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> of;
  std::map<std::string, std::string> code_of;  // name -> identifier code

  explicit vcd_file(const std::string& text) {
    std::map<std::string, std::string> name_of;  // code -> name
    std::vector<std::string> scopes;
    std::istringstream in(text);
    std::string tok;
    std::uint64_t now = 0;
    auto apply = [&](const std::string& code, std::uint64_t v) {
      auto it = name_of.find(code);
      if (it == name_of.end()) return;
      changes[it->second][now] = v;
      in_order.push_back({now * unit_fs, it->second, v});
      of[it->second].emplace_back(now * unit_fs, v);
    };
    while (in >> tok) {
      if (tok == "$timescale") {
        std::string ts;
        while (in >> tok && tok != "$end") ts += tok;
        const std::map<std::string, std::uint64_t> units{
            {"fs", 1}, {"ps", 1000}, {"ns", 1000000}, {"us", 1000000000}};
        const auto digits = ts.find_first_not_of("0123456789");
        const auto unit = units.find(ts.substr(digits));
        if (digits > 0 && unit != units.end())
          unit_fs = std::stoull(ts.substr(0, digits)) * unit->second;
      } else if (tok == "$scope") {
        std::string kind, name;
        in >> kind >> name >> tok;
        scopes.push_back(name);
      } else if (tok == "$upscope") {
        in >> tok;
        if (!scopes.empty()) scopes.pop_back();
      } else if (tok == "$var") {
        std::string type, width, code, name;
        in >> type >> width >> code >> name >> tok;
        std::string full;
        for (const auto& sc : scopes) full += sc + ".";
        name_of[code] = full + name;
        code_of[full + name] = code;
      } else if (tok[0] == '#') {
        now = std::stoull(tok.substr(1));
      } else if (tok[0] == 'b' || tok[0] == 'r') {  // vector or real: the code follows
        std::string code;
        in >> code;
        if (tok[0] == 'b') apply(code, std::stoull(tok.substr(1), nullptr, 2));
      } else if ((tok[0] == '0' || tok[0] == '1') && tok.size() > 1) {
        apply(tok.substr(1), tok[0] == '1');
      }
    }
  }
};

}  // namespace gputlm::testing
