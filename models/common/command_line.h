// Command-line parsing shared by the `gputlm` subcommands: Boost.Program_options with every
// parse error (unknown option, missing value) turned into bad input (exit status 2).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "models/common/input_error.h"

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
  } catch (const po::error& e) {
    throw input_error(command_line, "", e.what());
  }
  return vm;
}

}  // namespace gputlm
