#include "sc_main/commands.h"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "models/common/input_error.h"
#include "models/common/units.h"
#include "models/common/vcd_writer.h"
#include "platforms/platform.h"

namespace po = boost::program_options;

namespace gputlm::cli {
namespace {

const source_location k_cmdline{"<command line>", 0, 0};

// Parses options; unknown options and missing values are bad input (exit 2).
po::variables_map parse(const std::vector<std::string>& args, const po::options_description& opts,
                        const po::positional_options_description& pos) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw input_error(k_cmdline, "", e.what());
  }
  return vm;
}

void require_file(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw input_error({path, 0, 0}, what, "no such file or directory");
}

// The output's directory must exist before the simulation starts, so that a run never
// fails after doing all its work.
void require_writable_dir(const std::string& path, const char* option) {
  auto dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    throw input_error(k_cmdline, option, "directory '" + dir.string() + "' does not exist");
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw input_error({path, 0, 0}, "", "cannot write file");
    out << content;
    if (!out.flush()) throw input_error({path, 0, 0}, "", "cannot write file");
  }
  std::filesystem::rename(tmp, path);
}

int elaborate_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm elaborate PLATFORM.yaml [options]");
  opts.add_options()("help,h", "show this help")(
      "platform", po::value<std::string>(), "platform YAML file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a parameter: path.key=value (e.g. smx[3].l1.size=32KiB, smx.count=16)")(
      "dump-config", "print every effective parameter as YAML that reloads to this platform")(
      "dot", po::value<std::string>(), "write a Graphviz view of blocks and bindings to FILE")(
      "quiet,q", "do not print the hierarchy");
  po::positional_options_description pos;
  pos.add("platform", 1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("platform")) throw input_error(k_cmdline, "PLATFORM", "no platform file given");
  if (vm.count("dot")) require_writable_dir(vm["dot"].as<std::string>(), "--dot");
  std::vector<std::string> sets;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();

  auto p = platforms::platform::load(vm["platform"].as<std::string>(), sets);
  if (vm.count("dump-config")) {
    p->dump_config(std::cout);
  } else if (!vm.count("quiet")) {
    std::cout << "platform " << p->spec().name << " (" << p->spec().file << ")\n";
    p->print_hierarchy(std::cout);
  }
  if (vm.count("dot")) {
    std::ostringstream dot;
    p->write_dot(dot);
    write_file_atomically(vm["dot"].as<std::string>(), dot.str());
  }
  return exit_ok;
}

int run_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm run PLATFORM.yaml TRACE [options]");
  opts.add_options()("help,h", "show this help")(
      "platform", po::value<std::string>(), "platform YAML file")(
      "trace", po::value<std::string>(), "trace: a directory with kernelslist.g, or a file")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a parameter: path.key=value")(
      "stats", po::value<std::string>(), "write statistics as JSON to FILE")(
      "vcd", po::value<std::string>(), "write waveforms to FILE.vcd");
  po::positional_options_description pos;
  pos.add("platform", 1).add("trace", 1);
  auto vm = parse(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("platform")) throw input_error(k_cmdline, "PLATFORM", "no platform file given");
  if (!vm.count("trace")) throw input_error(k_cmdline, "TRACE", "no trace given");
  require_file(vm["trace"].as<std::string>(), "TRACE");
  for (const char* o : {"stats", "vcd"})
    if (vm.count(o)) require_writable_dir(vm[o].as<std::string>(), o);
  std::vector<std::string> sets;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();

  auto p = platforms::platform::load(vm["platform"].as<std::string>(), sets);

  std::unique_ptr<vcd_writer> vcd;
  if (vm.count("vcd")) {
    vcd = std::make_unique<vcd_writer>(vm["vcd"].as<std::string>());
    for (const auto& d : p->clocks()) {
      std::uint32_t id = vcd->add_real("clocks." + d->name(), "frequency_mhz", d->frequency() / 1e6);
      vcd_writer* w = vcd.get();
      d->on_change([w, id](const clock_domain& c) { w->change_real(id, c.frequency() / 1e6); });
    }
    for (component* c : p->components()) c->add_traces(*vcd);
  }

  const auto wall_start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  clock_domain& core = p->top().clock();
  auto& stats = p->stats();
  const double seconds = sc_core::sc_time_stamp().to_seconds();
  stats.set_summary_text("platform", p->spec().name);
  stats.set_summary_text("trace", vm["trace"].as<std::string>());
  stats.set_summary("simulated_seconds", seconds);
  stats.set_summary_count("total_cycles", core.cycle_at(sc_core::sc_time_stamp()));

  std::cout << "gputlm run: " << p->spec().name << " (" << p->spec().file << "), trace "
            << vm["trace"].as<std::string>() << "\n";
  stats.write_summary(std::cout);
  std::cout << "  host_seconds: " << units::format_double(wall) << "\n";

  if (vcd) vcd->finish();
  if (vm.count("stats")) write_file_atomically(vm["stats"].as<std::string>(), stats.to_json());
  return exit_ok;
}

}  // namespace gputlm::cli
