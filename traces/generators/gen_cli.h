// `gputlm trace gen KERNEL [--param k=v]... [--arch 35|61|70] -o DIR`: writes the
// Accel-Sim trace of a generated kernel (docs/traces.md, "Generators").
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gputlm::traces::generators {

// `args` exclude the program name and "trace gen". Returns the exit status (0); bad input
// throws gputlm::input_error, which the front end prints as one line (exit status 2).
// --help and --list print to `out`.
int gen_main(const std::vector<std::string>& args);
int gen_main(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gputlm::traces::generators
