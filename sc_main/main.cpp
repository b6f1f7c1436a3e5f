// `gputlm`: elaborate a platform, replay traces, convert and generate traces.
// Exit status: 0 success, 2 bad input (one line on stderr naming file, line, key), 1 an
// internal error.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "sc_main/commands.h"
#include "sc_main/experiment/runner.h"
#include "sc_main/generated/version.h"
#include "sc_main/host_memory.h"
#include "sc_main/import_config.h"
#include "sc_main/stats_command.h"
#include "traces/footprint.h"
#include "traces/generators/gen_cli.h"
#include "traces/locality.h"
#include "traces/register_hints.h"
#include "traces/trace_cli.h"

namespace {

const char* k_usage =
    "usage: gputlm <command> [options]\n"
    "\n"
    "commands:\n"
    "  elaborate PLATFORM.yaml [--set k=v]... [--dump-config] [--dot FILE]\n"
    "                          build the platform's module tree and print it\n"
    "  run PLATFORM.yaml TRACE [--set k=v]... [--stats FILE.json] [--vcd FILE.vcd]\n"
    "                          replay a trace on a platform\n"
    "  trace info TRACE        kernels, dims, instruction mix, footprint of a trace\n"
    "  trace convert IN OUT    Accel-Sim text <-> gputlm binary\n"
    "  trace gen KERNEL -o DIR write a generated kernel's trace (--list for kernels)\n"
    "  trace locality TRACE -o DIR [--kernel ID] [--granularity 4B|32B|128B]\n"
    "                          the TB locality graph of each kernel (METIS + JSON)\n"
    "  trace footprint TRACE   shared footprint of parent and child TBs (CDP/DTBL traces)\n"
    "  trace hints TRACE [-o FILE]\n"
    "                          Slumber's register hints: next access a write or a read\n"
    "  experiment FILE.yaml [-j N] [-o DIR] [--slurm] [--dry-run]\n"
    "                          run an experiment's matrix; write its table, report and plots\n"
    "  import-config gpgpusim.config [trace.config] -o PLATFORM.yaml\n"
    "                          a GPGPU-Sim/Accel-Sim configuration as a platform\n"
    "  stats FILE.json [--accelsim]\n"
    "                          a statistics file as a summary, or under GPGPU-Sim's names\n"
    "  --version               the commit gputlm was built from\n"
    "\n"
    "Run 'gputlm <command> --help' for a command's options.\n";

// SystemC's warnings, held until the command ends: a command that fails prints its one
// error line alone; one that succeeds prints them, one line each, as it ends.
std::vector<std::string>& systemc_warnings() {
  static std::vector<std::string> w;
  return w;
}

// SystemC reports: warnings are held (above); errors and fatals become exceptions that
// main turns into an exit status, never an abort with a backtrace.
void report_handler(const sc_core::sc_report& r, const sc_core::sc_actions&) {
  if (r.get_severity() == sc_core::SC_INFO) return;
  if (r.get_severity() == sc_core::SC_WARNING) {
    systemc_warnings().push_back(
        gputlm::input_error::one_line(std::string(r.get_msg_type()) + ": " + r.get_msg()));
    return;
  }
  throw r;
}

#ifdef GPUTLM_PROFILE_GENERATE
extern "C" void __gcov_dump();
#endif

[[noreturn]] void finish(int status) {
  if (status == gputlm::exit_ok)
    for (const std::string& w : systemc_warnings()) std::cerr << "warning: " << w << "\n";
  std::cout.flush();
  std::cerr.flush();
  // SystemC's objects may be half-built after an error: leave without running their
  // destructors.
#ifdef GPUTLM_PROFILE_GENERATE
  __gcov_dump();  // (an instrumented build for profile-guided optimisation: write its counts)
#endif
  std::_Exit(status);
}

int trace_main(std::vector<std::string> args) {
  using command = int (*)(const std::vector<std::string>&);
  static const std::pair<const char*, command> commands[] = {
      {"info", gputlm::traces::info_main},         {"convert", gputlm::traces::convert_main},
      {"merge", gputlm::traces::merge_main},       {"gen", gputlm::traces::generators::gen_main},
      {"locality", gputlm::traces::locality_main}, {"footprint", gputlm::traces::footprint_main},
      {"hints", gputlm::traces::hints_main}};
  const std::string sub = args.empty() ? "" : args[0];
  if (!args.empty()) args.erase(args.begin());
  std::vector<std::string> names;
  for (const auto& [name, run] : commands) {
    if (sub == name) return run(args);
    names.push_back(name);
  }
  auto joined = [&](const char* sep) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : sep) + n;
    return out;
  };
  if (sub == "--help" || sub == "-h") {
    std::cout << "usage: gputlm trace " << joined("|") << " ... (each takes --help)\n";
    return gputlm::exit_ok;
  }
  const std::string near = gputlm::closest_match(sub, names);
  throw gputlm::input_error(
      {"<command line>", 0, 0}, "trace " + sub,
      "unknown trace command (" + joined(", ") + ")" +
          (near.empty() ? std::string() : "; did you mean 'trace " + near + "'?"));
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_handler(report_handler);
  gputlm::install_interrupt_handlers();  // SIGINT, SIGTERM: no half-written output
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {  // no command: one error line, then the usage
    std::cerr << "error: <command line>: no command (elaborate, run, trace, experiment, "
                 "import-config, stats)\n"
              << k_usage;
    finish(gputlm::exit_bad_input);
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << k_usage;
    finish(gputlm::exit_ok);
  }
  if (args[0] == "--version") {
    std::cout << "gputlm " << GPUTLM_GIT_COMMIT << "\n";
    finish(gputlm::exit_ok);
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    int status;
    if (command == "elaborate")
      status = gputlm::cli::elaborate_main(args);
    else if (command == "run")
      status = gputlm::cli::run_main(args);
    else if (command == "trace")
      status = trace_main(args);
    else if (command == "experiment")
      status = gputlm::experiment::experiment_main(args);
    else if (command == "import-config")
      status = gputlm::cli::import_config_main(args);
    else if (command == "stats")
      status = gputlm::cli::stats_main(args);
    else {
      const std::string near = gputlm::closest_match(
          command, {"elaborate", "run", "trace", "experiment", "import-config", "stats"});
      throw gputlm::input_error({"<command line>", 0, 0}, command,
                                near.empty() ? "unknown command (try 'gputlm --help')"
                                             : "unknown command; did you mean '" + near + "'?");
    }
    finish(status);
  } catch (const gputlm::input_error& e) {
    std::cerr << "error: " << e.what() << std::endl;
    finish(gputlm::exit_bad_input);
  } catch (const sc_core::sc_report& r) {
    std::cerr << gputlm::input_error::one_line("internal error: SystemC " +
                                               std::string(r.get_msg_type()) + ": " + r.get_msg())
              << std::endl;
    finish(gputlm::exit_internal_error);
  } catch (const std::exception& e) {
    std::cerr << gputlm::input_error::one_line(std::string("internal error: ") + e.what())
              << std::endl;
    finish(gputlm::exit_internal_error);
  }
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  gputlm::prefer_huge_pages();
  return sc_core::sc_elab_and_sim(argc, argv);
}
