// Launch sites of the CDP and DTBL generators (see device_launch.h).
#include "traces/generators/device_launch.h"

namespace gputlm::traces::generators {

launch_site::launch_site(program& p, launch_mode mode, reg param, reg w0, reg w1) {
  get_param = p.mov(param);  // pointer returned by cudaGetParameterBuffer
  st_param0 = p.st_global(param, w0, 8);
  st_param1 = p.st_global(param, w1, 8);
  launch = mode == launch_mode::dtbl ? p.dtbl_launch() : p.cdp_launch();
}

void launch_site::emit(warp_emitter& e, std::uint32_t mask,
                       const std::array<device_launch, 32>& what) const {
  e.run(get_param, mask);
  e.mem_fn(st_param0, mask, [&](unsigned l) { return what[l].param_addr; });
  e.mem_fn(st_param1, mask, [&](unsigned l) { return what[l].param_addr + 8; });
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1u) e.launch(launch, 1u << l, what[l]);
}

std::vector<param_desc> with_launch_params(std::vector<param_desc> params, launch_mode mode) {
  params.push_back(param_desc::integer("threshold", 32, 1, 1u << 30,
                                       "launch a child only for work >= threshold items"));
  if (mode == launch_mode::cdp)
    params.push_back(param_desc::integer("child_block", 32, 32, 1024, "threads per child TB"));
  if (mode == launch_mode::dtbl) {
    // Neither is noted at its default, so the existing DTBL traces stay byte-identical.
    param_desc f = param_desc::choice(
        "group_function", {"launcher", "separate"},
        "a group runs in its launcher's function (coalesces into the running launcher) or in "
        "a child function of its own (a KDE miss until a kernel of it runs)");
    f.noted_at_default = false;
    params.push_back(std::move(f));
    param_desc b = param_desc::integer("child_block", 32, 32, 1024,
                                       "threads per group TB with group_function=separate");
    b.noted_at_default = false;
    params.push_back(std::move(b));
  }
  return params;
}

bool separate_group_function(const param_set& ps, launch_mode mode) {
  return mode == launch_mode::dtbl && ps.str("group_function") == "separate";
}

const char* child_function(const param_set& ps, launch_mode mode, const char* launcher,
                           const char* cdp_child, const char* dtbl_child) {
  if (mode == launch_mode::cdp) return cdp_child;
  return separate_group_function(ps, mode) ? dtbl_child : launcher;
}

kernel_generator launch_form(std::string name, std::string description,
                             std::vector<param_desc> params, launch_form_fn generate,
                             launch_mode mode) {
  if (mode != launch_mode::flat) params = with_launch_params(std::move(params), mode);
  return {std::move(name), std::move(description), std::move(params),
          [generate, mode](const param_set& ps, app_builder& app) { generate(ps, app, mode); }};
}

child_start child_prologue(program& cp) {
  const auto m = cp.here();
  cp.prologue();
  cp.s2r(0, sreg::ctaid_x);
  cp.s2r(2, sreg::tid_x);
  cp.imad(3, 0, rz, 2);  // item
  cp.isetp("GE", 3, rz);
  const code head = cp.since(m);
  return {head, cp.exit()};
}

child_lanes child_items(const kernel_info& ci, const tb_trace& tb, std::uint32_t w,
                        std::uint32_t start, std::uint32_t count) {
  const warp_lanes lanes = lanes_of(ci.block, w);
  child_lanes r;
  r.live = lanes.live;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(lanes.live >> l & 1u)) continue;
    const std::uint64_t i = std::uint64_t(tb.index.x) * ci.block.x + lanes.flat[l];
    if (i >= count) continue;
    r.active |= 1u << l;
    r.item[l] = start + std::uint32_t(i);
  }
  return r;
}

child_edge child_edge_load(program& cp) {
  const auto m = cp.here();
  cp.mov(4);  // start
  cp.iadd(5, 4, 3);
  cp.address(6, 5, rz);
  const code addr_col = cp.since(m);
  return {addr_col, cp.ld_global(8, 6, 4)};
}

std::uint32_t child_block_of(const param_set& ps, launch_mode mode, std::uint32_t block) {
  if (mode == launch_mode::cdp || separate_group_function(ps, mode)) return ps.u32("child_block");
  if (mode == launch_mode::dtbl && ps.u32("child_block") != 32)
    param_set::fail("child_block",
                    "applies only with group_function=separate (a group in its "
                    "launcher's function has the launcher's block)");
  return mode == launch_mode::dtbl ? block : 32;
}

device_launch child_grid(app_builder& app, std::uint32_t threads, std::uint32_t block) {
  device_launch d;
  d.child_kernel = app.reserve_kernel_id();
  d.grid = dim3{(threads + block - 1) / block, 1, 1};
  d.block = dim3{block, 1, 1};
  d.param_addr = app.param_buffer(16);
  return d;
}

}  // namespace gputlm::traces::generators
