// libFuzzer target: the SPU kernel note (models/spu/kernel_note.h), as the runtime reads it:
// every line of the input is a note of the trace (kernelslist.g's comment lines), and the
// note of each kernel id 0..3 is looked up (only notes starting "spu " are parsed). Any
// input must parse or throw input_error; nothing else may escape, crash or trip a sanitizer.
#include <cstdint>
#include <string>
#include <vector>

#include "models/base/input_error.h"
#include "models/spu/kernel_note.h"

using namespace gputlm;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> notes;
  std::string line;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      notes.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(data[i]);
    }
  }
  notes.push_back(line);
  for (std::uint32_t kernel = 0; kernel < 4; ++kernel) {
    try {
      if (auto k = spu::find_kernel_note(notes, kernel, "kernelslist.g")) {
        // What the runtime derives from a note it accepts must be defined arithmetic.
        volatile std::uint64_t side = k->n / k->b;
        (void)side;
        (void)k->tiles();
      }
    } catch (const input_error&) {
    }
  }
  return 0;
}
