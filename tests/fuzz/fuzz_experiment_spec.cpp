// libFuzzer target: the experiment-file parser (load_experiment: platforms, configurations
// with --set overrides and mechanisms, workloads with generator parameters and repetitions,
// sweeps, metric expressions, plots). The input is an experiment file written beside a copy
// of yaml/fermi.yaml (`fermi.yaml`), of a mechanism file (`mech.yaml`) and of a one-kernel
// trace folder (`trace/`), from GPUTLM_FUZZ_BASE, _MECH and _TRACE (scripts/fuzz.sh). Any
// input must load or throw input_error; nothing else may escape, crash or trip a sanitizer.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz_common.h"
#include "sc_main/experiment/experiment_spec.h"

using namespace gputlm;

namespace {

// The files an experiment may name, copied once.
void provide_inputs() {
  static bool done = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* base = std::getenv("GPUTLM_FUZZ_BASE"))
      fs::copy_file(base, traces::fuzz::scratch() / "fermi.yaml",
                    fs::copy_options::overwrite_existing, ec);
    if (const char* mech = std::getenv("GPUTLM_FUZZ_MECH"))
      fs::copy_file(mech, traces::fuzz::scratch() / "mech.yaml",
                    fs::copy_options::overwrite_existing, ec);
    if (const char* trace = std::getenv("GPUTLM_FUZZ_TRACE"))
      fs::copy(trace, traces::fuzz::scratch() / "trace",
               fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    return true;
  }();
  (void)done;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  provide_inputs();
  const auto path = traces::fuzz::scratch() / "experiment.yaml";
  traces::fuzz::write(path, data, size);
  try {
    (void)experiment::load_experiment(path.string());
  } catch (const input_error&) {
  }
  return 0;
}
