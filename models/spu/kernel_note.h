// What the SPU's runtime knows of a stencil kernel beyond its launch header
// (docs/references.md, "SPU runtime and sync"): the tiling (N, K, b; K / b tiles per CTA),
// the block sync the kernel uses, the global-sync loop's barriers per CTA, and the global
// arrays the interface units load the boundary faces from and store the output faces to.
// The spu_stencil generator records it as a note of the application
// (kernelslist.g: `# spu kernel=1 n=128 ...`), which the binary format keeps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/base/input_error.h"

namespace gputlm::spu {

struct kernel_note {
  std::uint32_t kernel = 0;  // the trace's kernel id
  std::uint32_t n = 0, k = 0, b = 0;
  bool global_sync = false;
  bool iu_in_grid = false;     // iu=ring: the IUs' TBs are part of the kernel's grid
  std::uint32_t barriers = 0;  // global sync: BAR.BLOCKSYNCs per CTA (the loop's length)
  std::uint64_t a = 0, north = 0, west = 0, out = 0, east = 0, south = 0;
  std::uint32_t tiles() const { return k / b; }
  std::uint64_t face_bytes() const { return 4ull * b * b; }
};

// A note that starts with "spu ", parsed; an input_error at `at` naming the bad key if it
// does not parse.
kernel_note parse_kernel_note(const std::string& text, const source_location& at);

// The note of kernel `kernel_id` among `notes`, or nothing. A note that starts with "spu "
// but does not parse is an input_error naming `file` and the bad key.
std::optional<kernel_note> find_kernel_note(const std::vector<std::string>& notes,
                                            std::uint32_t kernel_id, const std::string& file);

}  // namespace gputlm::spu
