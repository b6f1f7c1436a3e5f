// Device-side launches in parent warps, shared by the CDP and DTBL generators (Wang,
// "Characterizing and exploiting dynamic parallelism", PhD thesis, Georgia Tech 2016, ch. 3-4;
// docs/traces.md, "Generators"). A launching thread gets a parameter buffer
// (cudaGetParameterBuffer), fills it with two 8-byte stores, and launches: CDP.LAUNCH of a child
// kernel, or DTBL.LAUNCH of an aggregated group. A warp whose lanes launch together records
// one launch pseudo-instruction per launching lane, in lane order, all at the same PC, each
// with that lane alone in its mask: a timing model charges the per-warp API latency once per
// run of consecutive launches at one PC (x = run length in the thesis' A*x + b model).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "traces/generators/app_builder.h"
#include "traces/generators/params.h"
#include "traces/generators/registry.h"
#include "traces/generators/sass.h"

namespace gputlm::traces::generators {

enum class launch_mode : std::uint8_t { flat, cdp, dtbl };

// The launch point of a parent kernel.
struct launch_site {
  code get_param, st_param0, st_param1, launch;

  // `param` receives the buffer pointer; `w0`, `w1` hold the two 8-byte parameter words.
  launch_site(program& p, launch_mode mode, reg param, reg w0, reg w1);

  // Records the launches of the lanes in `mask`: what[l] (with param_addr) for lane l.
  void emit(warp_emitter& e, std::uint32_t mask, const std::array<device_launch, 32>& what) const;
};

// `params` followed by the parameters common to the device-launch generators: threshold, and
// for CDP child_block. For DTBL, group_function: `launcher` (default) runs a group in its
// launcher's own kernel function with the launcher's TB shape (thesis Fig. 12a), so that it
// coalesces into the running launcher, its TB size the launcher's `block`; `separate` runs
// it in a child function of its own with child_block-thread TBs, so that a group finds an
// eligible KDE only while a kernel of that function runs, and otherwise falls back to a
// device kernel (thesis §4.3, the KDE miss).
std::vector<param_desc> with_launch_params(std::vector<param_desc> params, launch_mode mode);

// Whether a DTBL form's groups run a function of their own (group_function=separate).
bool separate_group_function(const param_set& ps, launch_mode mode);

// The kernel function a child runs: CDP's child kernel `cdp_child`; a DTBL group the
// launcher's own `launcher`, or `dtbl_child` with group_function=separate.
const char* child_function(const param_set& ps, launch_mode mode, const char* launcher,
                           const char* cdp_child, const char* dtbl_child);

// The start of a child kernel or group, one thread per item of work: R3 = the item's index
// (from ctaid.x and tid.x), compared with the work. `head` runs for every live lane,
// `exit_oob` for the lanes past the work.
struct child_start {
  code head, exit_oob;
};
child_start child_prologue(program& cp);

// The items of warp `w` of a child TB `tb` of kernel `ci` (one thread per item, items start,
// start + 1, ..., start + count - 1 in thread order across the grid): `live` the warp's
// live lanes, `active` those with an item, item[l] lane l's.
struct child_lanes {
  std::uint32_t live = 0, active = 0;
  std::array<std::uint32_t, 32> item{};
};
child_lanes child_items(const kernel_info& ci, const tb_trace& tb, std::uint32_t w,
                        std::uint32_t start, std::uint32_t count);

// A graph child's edge: R5 = start (a parameter) + item, R8 = col[R5]. `addr_col` computes
// the address (R6), `ld_col` loads the neighbour.
struct child_edge {
  code addr_col, ld_col;
};
child_edge child_edge_load(program& cp);

// One form of a dynamic-parallelism application: `generate(ps, app, mode)`, with the
// launch parameters added for CDP and DTBL (with_launch_params).
using launch_form_fn = void (*)(const param_set& ps, app_builder& app, launch_mode mode);
kernel_generator launch_form(std::string name, std::string description,
                             std::vector<param_desc> params, launch_form_fn generate,
                             launch_mode mode);

// Threads per child TB: `child_block` for CDP and separate-function DTBL groups, the
// launcher's `block` for DTBL groups in the launcher's function (see above), 32 for flat
// (unused).
std::uint32_t child_block_of(const param_set& ps, launch_mode mode, std::uint32_t block);

// The launch, from one lane, of a child grid of `threads` threads in TBs of `block` threads:
// a kernel id reserved now (ids follow launch order), its grid, and a 16-byte parameter
// buffer. The caller writes the child's traces later under that id.
device_launch child_grid(app_builder& app, std::uint32_t threads, std::uint32_t block);

}  // namespace gputlm::traces::generators
