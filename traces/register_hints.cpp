#include "traces/register_hints.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "models/base/command_line.h"
#include "models/base/output_files.h"

namespace gputlm::traces {
namespace {
namespace po = boost::program_options;
constexpr std::uint16_t no_reg = warp_instruction::no_reg;
}  // namespace

std::size_t registers_of(const warp_instruction& in, std::uint16_t* regs, bool* reads) {
  std::size_t n = 0;
  auto add = [&](std::uint16_t r, bool read) {
    if (r == no_reg) return;
    for (std::size_t k = 0; k < n; ++k)
      if (regs[k] == r) {
        reads[k] = reads[k] || read;
        return;
      }
    regs[n] = r;
    reads[n++] = read;
  };
  for (std::uint32_t k = 0; k < in.num_src && k < 4; ++k) add(in.src[k], true);
  for (std::uint32_t k = 0; k < in.num_dst && k < 2; ++k) add(in.dst[k], false);
  return n;
}

void warp_register_hints(const warp_trace& w, std::vector<std::uint8_t>& bits,
                         std::vector<std::uint8_t>& next) {
  enum : std::uint8_t { none, read, write };
  bits.assign(w.insts.size(), 0);
  std::uint16_t touched[4096];
  std::size_t n_touched = 0;
  bool overflow = false;
  for (std::size_t i = w.insts.size(); i-- > 0;) {
    std::uint16_t regs[6];
    bool reads[6];
    const std::size_t n = registers_of(w.insts[i], regs, reads);
    for (std::size_t r = 0; r < n; ++r) {
      if (next[regs[r]] != read) bits[i] |= std::uint8_t(1u << r);
      if (next[regs[r]] == none) {
        if (n_touched < 4096)
          touched[n_touched++] = regs[r];
        else
          overflow = true;
      }
      next[regs[r]] = reads[r] ? read : write;
    }
  }
  if (overflow)
    std::fill(next.begin(), next.end(), std::uint8_t(none));
  else
    for (std::size_t k = 0; k < n_touched; ++k) next[touched[k]] = none;
}

void static_within_warp(const warp_trace& w, std::vector<std::uint8_t>& bits) {
  std::unordered_map<std::uint64_t, bool> read_somewhere;  // (PC, register) -> an R instance
  auto each = [&](auto fn) {
    for (std::size_t i = 0; i < w.insts.size(); ++i) {
      std::uint16_t regs[6];
      bool reads[6];
      const std::size_t n = registers_of(w.insts[i], regs, reads);
      for (std::size_t r = 0; r < n; ++r) fn(i, r, (std::uint64_t(w.insts[i].pc) << 16) | regs[r]);
    }
  };
  each([&](std::size_t i, std::size_t r, std::uint64_t key) {
    bool& any = read_somewhere[key];
    any = any || !((bits[i] >> r) & 1);
  });
  each([&](std::size_t i, std::size_t r, std::uint64_t key) {
    if (read_somewhere[key]) bits[i] &= std::uint8_t(~(1u << r));
  });
}

void warp_next_uses(const warp_trace& w, std::vector<std::uint8_t>& next,
                    std::vector<std::uint32_t>& at) {
  const std::uint32_t n_insts = static_cast<std::uint32_t>(w.insts.size());
  next.assign(std::size_t(n_insts) * 6, 0);
  for (std::uint32_t i = n_insts; i-- > 0;) {
    std::uint16_t regs[6];
    bool reads[6];
    const std::size_t n = registers_of(w.insts[i], regs, reads);
    for (std::size_t r = 0; r < n; ++r) {
      const std::uint32_t later = at[regs[r]];
      if (later != ~0u) next[std::size_t(i) * 6 + r] = std::uint8_t(std::min(later - i, 255u));
      at[regs[r]] = i;
    }
  }
  for (const warp_instruction& in : w.insts) {  // leaves the scratch as it found it
    std::uint16_t regs[6];
    bool reads[6];
    const std::size_t n = registers_of(in, regs, reads);
    for (std::size_t r = 0; r < n; ++r) at[regs[r]] = ~0u;
  }
}

register_hints derive_register_hints(application_trace& app) {
  register_hints h;
  std::vector<std::uint8_t> next(65536, 0), bits;
  const auto& cmds = app.commands();
  for (std::size_t ci = 0; ci < cmds.size(); ++ci) {
    if (cmds[ci].what == command::kind::memcpy_h2d) continue;
    kernel_reader& k = app.kernel(ci);
    const std::uint32_t id = k.info().id;
    for (std::uint64_t t = 0; t < k.tb_count(); ++t) {
      const auto tb = k.read_tb(static_cast<std::uint32_t>(t));
      for (const warp_trace& w : tb->warps) {
        warp_register_hints(w, bits, next);
        for (std::size_t i = 0; i < w.insts.size(); ++i) {
          std::uint16_t regs[6];
          bool reads[6];
          const std::size_t n = registers_of(w.insts[i], regs, reads);
          for (std::size_t r = 0; r < n; ++r) {
            const bool w_next = (bits[i] >> r) & 1;
            register_hint_counts& c = h.operands[{id, w.insts[i].pc, regs[r]}];
            ++(w_next ? c.next_write : c.next_read);
            ++h.dynamic;
            h.dynamic_write += w_next;
          }
        }
      }
    }
    app.release(ci);
  }
  for (const auto& [key, c] : h.operands) {
    if (c.next_write && c.next_read) ++h.conflicted;
    if (c.static_write()) h.static_write_dynamic += c.next_write;
  }
  return h;
}

int hints_main(const std::vector<std::string>& args) {
  po::options_description opts(
      "gputlm trace hints TRACE [options]\n"
      "Slumber's register hints (Tripathy thesis 6.3.1) from a trace: per register an\n"
      "instruction accesses, whether its next access is a write (W) or a read (R); a JSON\n"
      "summary on stdout");
  opts.add_options()("help,h", "show this help")("trace", po::value<std::string>(),
                                                 "trace: directory, kernelslist.g or .gtb")(
      "output,o", po::value<std::string>(),
      "write the static hints: one line 'kernel pc reg W|R next_write next_read' per "
      "register operand");
  const auto parsed = parse_trace_command(args, opts);
  if (!parsed) return exit_ok;
  const po::variables_map& vm = *parsed;
  const std::string trace = vm["trace"].as<std::string>();
  std::string out;
  if (vm.count("output")) {
    out = vm["output"].as<std::string>();
    check_outputs({{"--output", out}}, {trace});
  }
  auto app = open_trace(trace, open_options{});
  const register_hints h = derive_register_hints(*app);
  if (!out.empty()) {
    std::string text = "# kernel pc reg hint next_write next_read (gputlm trace hints)\n";
    for (const auto& [key, c] : h.operands)
      text +=
          fmt::format("{} {:04x} R{} {} {} {}\n", std::get<0>(key), std::get<1>(key),
                      std::get<2>(key), c.static_write() ? 'W' : 'R', c.next_write, c.next_read);
    write_file_atomically(out, text);
  }
  nlohmann::json j;
  j["register_accesses"] = h.dynamic;
  j["exact_write_share"] = h.dynamic ? double(h.dynamic_write) / double(h.dynamic) : 0.0;
  j["static_write_share"] = h.dynamic ? double(h.static_write_dynamic) / double(h.dynamic) : 0.0;
  j["static_operands"] = h.operands.size();
  j["conflicted_operands"] = h.conflicted;
  std::cout << j.dump(1) << "\n";
  return exit_ok;
}

}  // namespace gputlm::traces
