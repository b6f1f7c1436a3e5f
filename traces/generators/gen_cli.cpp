// Command line of `gputlm trace gen` (Boost.Program_options).
#include "traces/generators/gen_cli.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "traces/generators/registry.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::generators {
namespace fs = std::filesystem;

namespace po = boost::program_options;

namespace {
const source_location k_command_line{"<command line>", 0, 0};

// Creates the output directory only when the generator first writes, so that a parameter
// the generator rejects (e.g. a block size that is not a power of two) leaves nothing behind.
class lazy_text_writer final : public trace_writer {
 public:
  explicit lazy_text_writer(std::string dir) : m_dir(std::move(dir)) {}
  // Kept until the first command: the generator checks its parameters after the note.
  void note(const std::string& text) override {
    check_note(text);
    if (m_out)
      m_out->note(text);
    else
      m_notes.push_back(text);
  }
  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) override {
    get().memcpy_h2d(addr, bytes);
  }
  void begin_kernel(const kernel_info& info) override { get().begin_kernel(info); }
  void write_tb(const tb_trace& tb, const opcode_table& opcodes) override {
    get().write_tb(tb, opcodes);
  }
  void end_kernel() override { get().end_kernel(); }
  void finish() override { get().finish(); }

 private:
  trace_writer& get() {
    if (!m_out) {
      try {
        m_out = make_text_writer(m_dir);
        for (const std::string& n : m_notes) m_out->note(n);
      } catch (const std::runtime_error& e) {
        throw input_error(k_command_line, "--output", e.what());
      }
    }
    return *m_out;
  }

  std::string m_dir;
  std::vector<std::string> m_notes;
  std::unique_ptr<trace_writer> m_out;
};

po::options_description make_options() {
  po::options_description o("Options");
  o.add_options()                                                                //
      ("help,h", "show this help (with KERNEL: that kernel's parameters only)")  //
      ("list", "list the kernels")                                               //
      ("param,p", po::value<std::vector<std::string>>()->composing(),
       "kernel parameter name=value (repeatable)")  //
      ("arch", po::value<std::string>()->default_value("70"),
       "binary version: 35 (Kepler), 61 (Pascal), 70 (Volta)")  //
      ("output,o", po::value<std::string>(), "output directory (kernelslist.g, kernel-N.traceg)")(
          "force", "write into an output directory that is not empty (a trace there is replaced)");
  return o;
}

void print_kernel(std::ostream& out, const kernel_generator& g) {
  out << "  " << std::left << std::setw(13) << g.name << " " << g.description << "\n";
  for (const auto& p : g.params) {
    std::string head = p.name + "=" + p.default_value;
    out << "      " << std::left << std::setw(20) << head << " " << p.description;
    if (p.type == param_desc::kind::choice) {
      out << " (";
      for (std::size_t i = 0; i < p.choices.size(); ++i) out << (i ? "|" : "") << p.choices[i];
      out << ")";
    }
    out << "\n";
  }
}

void print_help(std::ostream& out, const po::options_description& opts, const std::string& kernel) {
  out << "Usage: gputlm trace gen KERNEL [--param name=value]... [--arch 35|61|70] -o DIR\n\n"
         "Runs the thread grid of a CUDA kernel on the CPU and writes its Accel-Sim trace\n"
         "(DIR/kernelslist.g and DIR/kernel-N.traceg): every warp's SASS instructions,\n"
         "active masks, registers and per-lane addresses. Same parameters, same bytes.\n\n"
      << opts << "\n";
  if (!kernel.empty()) {
    out << "Kernel parameters:\n";
    print_kernel(out, find_kernel_generator(kernel));
    return;
  }
  out << "Kernels and their parameters (defaults shown):\n";
  for (const auto& g : kernel_generators()) print_kernel(out, g);
}
}  // namespace

int gen_main(const std::vector<std::string>& args) { return gen_main(args, std::cout); }

int gen_main(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts = make_options();
  po::options_description hidden;
  hidden.add_options()("kernel", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("kernel", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error_with_option_name& e) {
    std::string name = e.get_option_name();
    if (name.empty()) name = "trace gen";
    std::string msg = e.what();
    throw input_error(k_command_line, name, msg);
  } catch (const po::error& e) {
    throw input_error(k_command_line, "trace gen", e.what());
  }

  std::string kernel;
  if (vm.count("kernel")) {
    const auto& k = vm["kernel"].as<std::vector<std::string>>();
    if (k.size() > 1)
      throw input_error(k_command_line, "KERNEL", "one kernel expected, got '" + k[1] + "' too");
    kernel = k[0];
  }
  if (vm.count("help")) {
    print_help(out, opts, kernel);
    return exit_ok;
  }
  if (vm.count("list")) {
    for (const auto& g : kernel_generators())
      out << std::left << std::setw(13) << g.name << " " << g.description << "\n";
    return exit_ok;
  }
  if (kernel.empty())
    throw input_error(k_command_line, "KERNEL", "no kernel given (see gputlm trace gen --list)");
  find_kernel_generator(kernel);  // unknown names fail before anything else

  const std::string arch_text = vm["arch"].as<std::string>();
  std::uint32_t arch = 0;
  for (auto a : supported_arches)
    if (arch_text == std::to_string(a)) arch = a;
  if (arch == 0)
    throw input_error(k_command_line, "--arch", "'" + arch_text + "' is not one of 35, 61, 70");
  if (!vm.count("output"))
    throw input_error(k_command_line, "--output", "no output directory given (-o DIR)");

  std::vector<std::string> params;
  if (vm.count("param")) params = vm["param"].as<std::vector<std::string>>();
  // Checks parameters before creating the output directory.
  param_set(find_kernel_generator(kernel).params, params);

  const std::string out_dir = vm["output"].as<std::string>();
  check_output_folder("--output", out_dir, {});
  std::error_code ec;
  if (!vm.count("force") && fs::is_directory(out_dir, ec) && !fs::is_empty(out_dir, ec))
    throw input_error(k_command_line, "--output",
                      "'" + out_dir + "' exists and is not empty (--force replaces what it holds)");
  lazy_text_writer writer(out_dir);
  generate(kernel, params, arch, writer);
  return exit_ok;
}

}  // namespace gputlm::traces::generators
