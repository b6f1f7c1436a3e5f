// libFuzzer target: the platform YAML loader and the --set parser. The first byte picks
// what the rest is: even, a platform file (with yaml/fermi.yaml reachable as a base
// through `base: fermi.yaml`, copied beside it); odd, a --set argument. Any input must load
// or throw input_error; nothing else may escape, crash or trip a sanitizer. (Elaboration
// is not fuzzed here: SystemC elaborates once per process.)
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz_common.h"
#include "platforms/platform_spec.h"

using namespace gputlm;

namespace {

// A base file the fuzzed platform may name: the shipped Fermi, copied once.
void provide_base() {
  static bool done = [] {
    const char* src = std::getenv("GPUTLM_FUZZ_BASE");
    if (src) {
      std::error_code ec;
      std::filesystem::copy_file(src, traces::fuzz::scratch() / "fermi.yaml",
                                 std::filesystem::copy_options::overwrite_existing, ec);
    }
    return true;
  }();
  (void)done;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    if (data[0] & 1) {
      (void)platforms::parse_set_option(
          std::string(reinterpret_cast<const char*>(data + 1), size - 1));
    } else {
      provide_base();
      const auto path = traces::fuzz::scratch() / "platform.yaml";
      traces::fuzz::write(path, data + 1, size - 1);
      (void)platforms::load_platform_yaml(path.string());
    }
  } catch (const input_error&) {
  }
  return 0;
}
