// `gputlm trace merge A B ... -o OUT` (docs/traces.md, "Commands"): several applications as
// the streams of one, run side by side on one GPU, as a multi-programmed workload
// (μC-States' heterogeneous chip, Kayiran et al., PACT 2016, §7). Application i's kernels
// go on stream i, and its device addresses (every space but shared; memory copies too)
// move up by i x `offset` bytes so that the applications share no data. The commands are
// taken in turn, one of each application at a time, so that each application's first
// kernel is launched at once; a kernel waits only for its own stream's. Kernels are
// renumbered in the order written. Applications with more than one stream, or with
// device-side launches, are refused (their streams and child kernels would need mapping).
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <set>

#include "models/base/command_line.h"
#include "traces/trace_cli.h"

namespace gputlm::traces {
namespace {

namespace po = boost::program_options;

bool moves(mem_space s) {
  return s != mem_space::none && s != mem_space::shared && s != mem_space::shared_atomic;
}

// Moves a warp's device addresses up by `by` bytes.
void offset_addresses(warp_trace& w, std::uint64_t by) {
  for (const warp_instruction& in : w.insts) {
    if (!moves(in.space) || in.addr_index == warp_instruction::none) continue;
    const std::size_t n = in.addr_form == address_form::list       ? lane_count(in.active_mask)
                          : in.addr_form == address_form::strided  ? 1
                                                                   : 2;  // a0, a1 (not s0/s1)
    for (std::size_t k = 0; k < n && in.addr_index + k < w.addresses.size(); ++k)
      w.addresses[in.addr_index + k] += by;
  }
}

// Refuses what merge cannot map: a second stream, a device-side launch.
void check_mergeable(application_trace& app, const std::string& path) {
  std::set<std::uint64_t> streams;
  for (std::size_t c = 0; c < app.commands().size(); ++c) {
    const command& cmd = app.commands()[c];
    if (cmd.what == command::kind::memcpy_h2d) continue;
    if (cmd.what == command::kind::device_kernel)
      throw input_error(command_line, path,
                        "has device-side launches (CDP/DTBL); merge takes host kernels only");
    streams.insert(app.kernel(c).info().stream_id);
    app.release(c);
  }
  if (streams.size() > 1)
    throw input_error(command_line, path,
                      fmt::format("uses {} streams; merge takes one-stream applications",
                                  streams.size()));
}

}  // namespace

int merge_main(const std::vector<std::string>& args) {
  po::options_description opts(
      "gputlm trace merge A B [C ...] -o OUT [options]\n"
      "Writes the applications as one, application i on stream i with its device addresses\n"
      "moved up by i x offset; commands alternate between the applications.\n"
      "OUT: a directory (text) or a .gtb file (binary)");
  opts.add_options()("help,h", "show this help")("in", po::value<std::vector<std::string>>(),
                                                 "input traces")(
      "output,o", po::value<std::string>(), "the merged trace")(
      "offset", po::value<std::uint64_t>()->default_value(std::uint64_t(1) << 40),
      "bytes between two applications' address spaces (default 2^40)")(
      "force", "write into an output directory that is not empty");
  po::positional_options_description pos;
  pos.add("in", -1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  const auto ins = vm.count("in") ? vm["in"].as<std::vector<std::string>>()
                                  : std::vector<std::string>{};
  if (ins.size() < 2) throw input_error(command_line, "A B", "merge needs two traces or more");
  if (!vm.count("output")) throw input_error(command_line, "-o", "no output given");
  const std::string out_path = vm["output"].as<std::string>();
  const std::uint64_t offset = vm["offset"].as<std::uint64_t>();
  if (offset == 0 || offset % 4096 != 0)
    throw input_error(command_line, "--offset", "must be a positive multiple of 4096");
  std::vector<std::unique_ptr<application_trace>> apps;
  for (const std::string& p : ins) {
    apps.push_back(open_trace(p));
    check_mergeable(*apps.back(), p);
  }
  const bool binary = out_path.size() > 4 && out_path.compare(out_path.size() - 4, 4, ".gtb") == 0;
  std::error_code ec;
  if (!binary && std::filesystem::exists(out_path, ec) && !vm.count("force") &&
      !std::filesystem::is_empty(out_path, ec))
    throw input_error(command_line, "-o",
                      fmt::format("'{}' is not empty (--force writes into it)", out_path));
  const std::filesystem::path parent = std::filesystem::path(out_path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw input_error(command_line, "-o",
                      fmt::format("directory '{}' does not exist", parent.string()));

  auto out = binary ? make_binary_writer(out_path) : make_text_writer(out_path);
  for (std::size_t i = 0; i < apps.size(); ++i)
    out->note(fmt::format("merged: stream {} = {} (device addresses + {} x {})", i,
                          std::filesystem::path(ins[i]).filename().string(), i,
                          offset));
  std::vector<std::size_t> next(apps.size(), 0);
  std::uint32_t id = 1;
  for (bool left = true; left;) {
    left = false;
    for (std::size_t i = 0; i < apps.size(); ++i) {
      application_trace& app = *apps[i];
      if (next[i] == app.commands().size()) continue;
      left = true;
      const std::size_t c = next[i]++;
      const std::uint64_t by = i * offset;
      const command& cmd = app.commands()[c];
      if (cmd.what == command::kind::memcpy_h2d) {
        out->memcpy_h2d(cmd.addr + by, cmd.bytes);
        continue;
      }
      kernel_reader& k = app.kernel(c);
      kernel_info info = k.info();
      info.id = id++;
      info.stream_id = i;
      out->begin_kernel(info);
      for (std::uint64_t tb = 0; tb < k.tb_count(); ++tb) {
        auto t = k.read_tb(std::uint32_t(tb));
        if (by == 0) {
          out->write_tb(*t, k.opcodes());
          continue;
        }
        tb_trace moved = *t;
        for (warp_trace& w : moved.warps) offset_addresses(w, by);
        out->write_tb(moved, k.opcodes());
      }
      out->end_kernel();
      app.release(c);
    }
  }
  out->finish();
  std::cout << fmt::format("gputlm trace merge: {} applications -> {}\n", apps.size(), out_path);
  return exit_ok;
}

}  // namespace gputlm::traces
