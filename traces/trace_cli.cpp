// `gputlm trace convert` / `gputlm trace info` (docs/traces.md, "Commands").
#include "traces/trace_cli.h"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "models/base/command_line.h"

namespace gputlm::traces {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

const source_location& k_cmdline = command_line;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_device_space(mem_space s) {
  return s != mem_space::none && s != mem_space::shared && s != mem_space::shared_atomic;
}

}  // namespace

void copy_trace(application_trace& in, trace_writer& out) {
  for (const std::string& n : in.notes()) out.note(n);
  const auto& cmds = in.commands();
  for (std::size_t c = 0; c < cmds.size(); ++c) {
    if (cmds[c].what == command::kind::memcpy_h2d) {
      out.memcpy_h2d(cmds[c].addr, cmds[c].bytes);
      continue;
    }
    kernel_reader& k = in.kernel(c);
    kernel_info info = k.info();
    info.device_launched = cmds[c].what == command::kind::device_kernel;
    out.begin_kernel(info);
    for (std::uint64_t id = 0; id < k.tb_count(); ++id) {
      auto tb = k.read_tb(std::uint32_t(id));
      out.write_tb(*tb, k.opcodes());
    }
    out.end_kernel();
    in.release(c);
  }
  out.finish();
}

int convert_main(const std::vector<std::string>& args) {
  po::options_description opts(
      "gputlm trace convert IN OUT [options]\n"
      "Converts between Accel-Sim text traces (a directory with kernelslist.g) and the gputlm\n"
      "binary form (one .gtb file). IN's format is detected. OUT's format: --to if given,\n"
      "else binary when OUT ends in .gtb, else the other format than IN's");
  opts.add_options()("help,h", "show this help")("in", po::value<std::string>(), "input trace")(
      "out", po::value<std::string>(), "output: a directory (text) or a file (binary)")(
      "to", po::value<std::string>(), "output format: text or binary")(
      "strict", "an unknown opcode is an error");
  po::positional_options_description pos;
  pos.add("in", 1).add("out", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("in")) throw input_error(k_cmdline, "IN", "no input trace given");
  if (!vm.count("out")) throw input_error(k_cmdline, "OUT", "no output given");
  const std::string in_path = vm["in"].as<std::string>();
  const std::string out_path = vm["out"].as<std::string>();
  open_options oo;
  oo.strict = vm.count("strict") > 0;
  auto in = open_trace(in_path, oo);
  bool to_binary;
  if (vm.count("to")) {
    std::string to = vm["to"].as<std::string>();
    if (to != "text" && to != "binary")
      throw input_error(k_cmdline, "--to", fmt::format("'{}' is not text or binary", to));
    to_binary = to == "binary";
  } else if (ends_with(out_path, ".gtb")) {
    to_binary = true;
  } else {
    to_binary = in->what() == application_trace::format::text;
  }
  fs::path parent = fs::path(out_path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw input_error(k_cmdline, "OUT",
                      fmt::format("directory '{}' does not exist", parent.string()));
  if (to_binary && fs::is_directory(out_path, ec))
    throw input_error(k_cmdline, "OUT",
                      fmt::format("'{}' is a directory; a binary trace is a file", out_path));
  if (!to_binary && fs::exists(out_path, ec) && !fs::is_directory(out_path, ec))
    throw input_error(k_cmdline, "OUT",
                      fmt::format("'{}' is a file; a text trace is a directory", out_path));
  auto out = to_binary ? make_binary_writer(out_path) : make_text_writer(out_path);
  copy_trace(*in, *out);
  std::cout << fmt::format("gputlm trace convert: {} -> {} ({})\n", in_path, out_path,
                           to_binary ? "binary" : "text");
  return exit_ok;
}

trace_summary summarize(application_trace& app) {
  trace_summary s;
  // 128 B line -> mask of its four 32 B sectors
  std::unordered_map<std::uint64_t, std::uint8_t> total, lines;
  auto count = [](const std::unordered_map<std::uint64_t, std::uint8_t>& m, std::uint64_t& l,
                  std::uint64_t& sec) {
    l = m.size();
    sec = 0;
    for (auto& kv : m) sec += std::uint64_t(__builtin_popcount(kv.second));
  };
  const auto& cmds = app.commands();
  for (std::size_t c = 0; c < cmds.size(); ++c) {
    if (cmds[c].what == command::kind::memcpy_h2d) {
      ++s.memcpy_count;
      s.memcpy_bytes += cmds[c].bytes;
      continue;
    }
    kernel_reader& k = app.kernel(c);
    kernel_summary ks;
    ks.command_index = c;
    ks.info = k.info();
    ks.file = cmds[c].kernel_file;
    ks.tbs = k.tb_count();
    lines.clear();
    for (std::uint64_t id = 0; id < k.tb_count(); ++id) {
      auto tb = k.read_tb(std::uint32_t(id));
      for (const warp_trace& w : tb->warps) {
        if (!w.insts.empty()) ++ks.warps;
        ks.instructions += w.insts.size();
        ks.device_launches += w.launches.size();
        for (const warp_instruction& in : w.insts) {
          ++ks.by_unit[std::size_t(in.unit)];
          if (in.addr_index == warp_instruction::none) continue;
          std::uint64_t addrs[32];
          const std::uint32_t n = expand_addresses(w, in, addrs);
          ks.thread_accesses += n;
          if (!is_device_space(in.space)) continue;
          for (std::uint32_t i = 0; i < n; ++i) {
            std::uint64_t a = addrs[i];
            std::uint64_t last = a + (in.access_size ? in.access_size - 1 : 0);
            for (std::uint64_t sec = a >> 5; sec <= last >> 5; ++sec) {
              auto bit = std::uint8_t(1u << (sec & 3));
              lines[sec >> 2] |= bit;
              total[sec >> 2] |= bit;
            }
          }
        }
      }
    }
    count(lines, ks.lines_128, ks.sectors_32);
    ks.unknown = k.unknown_opcodes();
    app.release(c);
    s.kernels.push_back(std::move(ks));
  }
  count(total, s.lines_128, s.sectors_32);
  return s;
}

void print_summary(std::ostream& os, const application_trace& app, const trace_summary& s) {
  auto dims = [](const dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); };
  os << fmt::format(
      "trace {} ({})\n", app.path(),
      app.what() == application_trace::format::text ? "Accel-Sim text" : "gputlm binary");
  for (const std::string& n : app.notes()) os << "note: " << n << "\n";
  std::uint64_t device = 0;
  for (const auto& k : s.kernels) device += k.info.device_launched;
  os << fmt::format(
      "commands: {} kernels ({} launched from the device), {} host-to-device "
      "copies ({} bytes)\n",
      s.kernels.size(), device, s.memcpy_count, s.memcpy_bytes);
  std::uint64_t total_insts = 0;
  for (const auto& k : s.kernels) {
    const kernel_info& i = k.info;
    os << fmt::format("\nkernel {} {} [{}]{}\n", i.id, i.name, k.file,
                      i.device_launched ? " (device-launched)" : "");
    os << fmt::format(
        "  grid {} block {}  TBs {}  warps {}  shmem {} B  nregs {}  sm_{}  "
        "tracer v{}{}\n",
        dims(i.grid), dims(i.block), k.tbs, k.warps, i.shmem, i.nregs, i.binary_version,
        i.tracer_version, i.lineinfo ? " lineinfo" : "");
    os << fmt::format("  instructions {} (warp-level)", k.instructions);
    for (std::size_t u = 0; u < unit_class_count; ++u)
      if (k.by_unit[u])
        os << fmt::format("  {} {} ({:.1f}%)", to_string(unit_class(u)), k.by_unit[u],
                          100.0 * double(k.by_unit[u]) / double(k.instructions));
    os << "\n";
    os << fmt::format(
        "  memory: {} thread accesses; footprint {} B = {} lines of 128 B, {} "
        "sectors of 32 B\n",
        k.thread_accesses, k.lines_128 * 128, k.lines_128, k.sectors_32);
    if (k.device_launches) os << fmt::format("  device launches: {}\n", k.device_launches);
    for (const auto& u : k.unknown)
      os << fmt::format("  unknown opcode {}: {} times, first at {}\n", u.mnemonic, u.count,
                        u.first_seen.to_string());
    total_insts += k.instructions;
  }
  os << fmt::format(
      "\ntotal: {} warp instructions; footprint {} B = {} lines of 128 B, {} "
      "sectors of 32 B\n",
      total_insts, s.lines_128 * 128, s.lines_128, s.sectors_32);
}

int info_main(const std::vector<std::string>& args) {
  po::options_description opts(
      "gputlm trace info TRACE [options]\n"
      "Kernels, grid and block dims, TBs, warps, dynamic instruction mix by unit, memory\n"
      "footprint (distinct 128 B lines and 32 B sectors of device memory), unknown opcodes");
  opts.add_options()("help,h", "show this help")("trace", po::value<std::string>(),
                                                 "trace: directory, kernelslist.g or .gtb")(
      "strict", "an unknown opcode is an error");
  const auto parsed = parse_trace_command(args, opts);
  if (!parsed) return exit_ok;
  const po::variables_map& vm = *parsed;
  open_options oo;
  oo.strict = vm.count("strict") > 0;
  auto app = open_trace(vm["trace"].as<std::string>(), oo);
  trace_summary s = summarize(*app);
  print_summary(std::cout, *app, s);
  return exit_ok;
}

}  // namespace gputlm::traces
