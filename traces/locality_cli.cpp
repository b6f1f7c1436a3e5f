// `gputlm trace locality`: the locality graph of each kernel of a trace (Tripathy, PhD
// thesis, UC Riverside 2021, §3.2) as METIS graph files plus a JSON summary
// (docs/tb-scheduling.md, "The locality graph").
#include <fmt/format.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "models/base/command_line.h"
#include "models/base/output_files.h"
#include "traces/locality.h"

namespace gputlm::traces {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

std::uint32_t parse_granularity(std::string s) {
  if (!s.empty() && (s.back() == 'B' || s.back() == 'b')) s.pop_back();
  if (s == "4") return 4;
  if (s == "32") return 32;
  if (s == "128") return 128;
  throw input_error(command_line, "--granularity", "not 4B, 32B or 128B");
}

struct selected_kernel {
  std::size_t command_index;
  std::uint32_t id;
};

// The kernel commands of `app`, all or the one with id `only`.
std::vector<selected_kernel> select_kernels(application_trace& app,
                                            std::optional<std::uint32_t> only) {
  std::vector<selected_kernel> all;
  const auto& cmds = app.commands();
  for (std::size_t c = 0; c < cmds.size(); ++c) {
    if (cmds[c].what == command::kind::memcpy_h2d) continue;
    all.push_back({c, app.kernel(c).info().id});
    app.release(c);
  }
  if (!only) return all;
  std::string ids;
  for (const auto& k : all) {
    if (k.id == *only) return {k};
    ids += (ids.empty() ? "" : ", ") + std::to_string(k.id);
  }
  throw input_error(command_line, "--kernel",
                    fmt::format("no kernel with id {} in the trace (ids: {})", *only,
                                ids.empty() ? "none" : ids));
}

// Checks that `out` can become the output folder; returns the staging folder beside it,
// created empty, that the files are written to first.
fs::path make_staging(const fs::path& out) {
  std::error_code ec;
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec))
    throw input_error(command_line, "-o",
                      fmt::format("directory '{}' does not exist", parent.string()));
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw input_error(command_line, "-o", fmt::format("'{}' is not a directory", out.string()));
  fs::path staging = out.string() + fmt::format(".tmp-{}", ::getpid());
  fs::remove_all(staging, ec);
  if (!fs::create_directory(staging, ec) || ec)
    throw input_error(command_line, "-o",
                      fmt::format("cannot create '{}': {}", staging.string(), ec.message()));
  return staging;
}

// Moves the staged files into `out` (renaming the staging folder when `out` is new).
void commit_staging(const fs::path& staging, const fs::path& out) {
  std::error_code ec;
  if (!fs::exists(out, ec)) {
    fs::rename(staging, out, ec);
    if (!ec) return;
  }
  for (const auto& e : fs::directory_iterator(staging)) {
    fs::rename(e.path(), out / e.path().filename(), ec);
    if (ec)
      throw input_error(
          command_line, "-o",
          fmt::format("cannot write '{}': {}", (out / e.path().filename()).string(), ec.message()));
  }
  fs::remove_all(staging, ec);
}

void write_json(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.flush();
  if (!f) throw input_error({path, 0, 0}, "", "cannot write file");
}

std::string summary_line(const locality_graph& g) {
  return fmt::format(
      "kernel {} {}: {} TBs, {} B granules: {} read ({} shared), {} edges, weight {}, "
      "SpScore {:.4f}, shared TBs {}, degree of sharing {:.4f}, {:.3f} s{}",
      g.kernel_id, g.kernel_name, g.tbs, g.granularity, g.distinct_lines, g.shared_lines, g.edges,
      g.total_weight, g.spscore, g.shared_tbs, g.degree_of_sharing, g.build_seconds,
      g.from_cache ? " (cached)" : "");
}

po::options_description options() {
  po::options_description opts(
      "gputlm trace locality TRACE -o DIR [options]\n"
      "The locality graph of each kernel (Tripathy thesis 3.2): vertices are TBs, edge (i,j)\n"
      "weighs |S_i & S_j|, the global-read granules both TBs read. Writes\n"
      "DIR/kernel-<id>.graph (METIS, fmt 001) and DIR/locality.json (per kernel: tbs,\n"
      "distinct lines, edges, total weight, SpScore, shared TBs, degree of sharing). Graphs\n"
      "are cached in TRACE.locality/ beside the trace, keyed by its content");
  opts.add_options()("help,h", "show this help")("trace", po::value<std::string>(),
                                                 "trace: directory, kernelslist.g or .gtb")(
      "kernel", po::value<std::uint32_t>(), "only the kernel with this id (default: every one)")(
      "granularity", po::value<std::string>()->default_value("4B"),
      "bytes per data reference: 4B, 32B or 128B")("output,o", po::value<std::string>(),
                                                   "output directory")(
      "no-cache", "neither read nor write TRACE.locality/")("strict",
                                                            "an unknown opcode is an error");
  return opts;
}

}  // namespace

int locality_main(const std::vector<std::string>& args) {
  const po::options_description opts = options();
  const auto parsed = parse_trace_command(args, opts);
  if (!parsed) return exit_ok;
  const po::variables_map& vm = *parsed;
  if (!vm.count("output")) throw input_error(command_line, "-o", "no output directory given");
  const std::string trace_path = vm["trace"].as<std::string>();
  const std::uint32_t granularity = parse_granularity(vm["granularity"].as<std::string>());
  open_options oo;
  oo.strict = vm.count("strict") > 0;
  auto app = open_trace(trace_path, oo);
  std::optional<std::uint32_t> only;
  if (vm.count("kernel")) only = vm["kernel"].as<std::uint32_t>();
  const std::vector<selected_kernel> kernels = select_kernels(*app, only);
  const fs::path out = vm["output"].as<std::string>();
  check_output_folder("-o", out.string(), {trace_path});  // not into the trace itself
  // The staging folder is made and registered (an interrupt then removes it) with SIGINT
  // and SIGTERM held, and moved into place so at the end: all of it, or none.
  const fs::path staging = [&] {
    interrupts_held held;
    fs::path s = make_staging(out);
    register_partial_folder(s.string());
    return s;
  }();
  try {
    std::optional<locality_cache> cache;
    if (!vm.count("no-cache")) cache = open_locality_cache(trace_path);
    std::vector<locality_graph> graphs;
    for (const selected_kernel& k : kernels) {
      locality_graph g = cache ? cached_locality_graph(*cache, k.command_index, granularity, *app)
                               : build_locality_graph(app->kernel(k.command_index), granularity);
      app->release(k.command_index);
      write_metis_file((staging / fmt::format("kernel-{}.graph", k.id)).string(), g);
      std::cout << summary_line(g) << "\n";
      g.adj = {};  // the summary is all that is kept
      graphs.push_back(std::move(g));
    }
    write_json((staging / "locality.json").string(), locality_summary_json(graphs));
    interrupts_held held;
    commit_staging(staging, out);
    unregister_partial_folder();
  } catch (...) {
    unregister_partial_folder();
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw;
  }
  std::cout << fmt::format("gputlm trace locality: {} kernel(s) -> {}\n", kernels.size(),
                           out.string());
  return exit_ok;
}

}  // namespace gputlm::traces
