// Command-line parsing shared by the `gputlm` subcommands: Boost.Program_options with every
// parse error (unknown option, missing value) turned into bad input (exit status 2).
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "models/base/closest_match.h"
#include "models/base/input_error.h"

namespace gputlm {

inline const source_location command_line{"<command line>", 0, 0};

inline boost::program_options::variables_map parse_command_line(
    const std::vector<std::string>& args, const boost::program_options::options_description& opts,
    const boost::program_options::positional_options_description& pos) {
  namespace po = boost::program_options;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& o : opts.options()) names.push_back("--" + o->long_name());
    const std::string near = closest_match(e.get_option_name(), names);
    throw input_error(
        command_line, "",
        std::string(e.what()) + (near.empty() ? "" : "; did you mean '" + near + "'?"));
  } catch (const po::error& e) {
    throw input_error(command_line, "", e.what());
  }
  return vm;
}

// A `gputlm trace` subcommand's arguments: TRACE as the first positional argument,
// required. Empty when --help was asked (the options are printed on stdout).
inline std::optional<boost::program_options::variables_map> parse_trace_command(
    const std::vector<std::string>& args, const boost::program_options::options_description& opts) {
  boost::program_options::positional_options_description pos;
  pos.add("trace", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return std::nullopt;
  }
  if (!vm.count("trace")) throw input_error(command_line, "TRACE", "no trace given");
  return vm;
}

}  // namespace gputlm
