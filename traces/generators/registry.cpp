// The table of kernel generators and the generate() entry points.
#include "traces/generators/registry.h"

#include "models/common/input_error.h"

namespace gputlm::traces::generators {

const std::vector<kernel_generator>& kernel_generators() {
  static const std::vector<kernel_generator> all = {
      vectoradd_generator(),   stencil2d_generator(),   spu_stencil_generator(),
      sgemm_naive_generator(), sgemm_tiled_generator(), syrk_generator(),
      bfs_generator(),         bfs_cdp_generator(),     bfs_dtbl_generator(),
      spmv_generator(),        spmv_cdp_generator(),    spmv_dtbl_generator(),
      reduction_generator(),   histogram_generator(),
  };
  return all;
}

const kernel_generator& find_kernel_generator(const std::string& name) {
  for (const auto& g : kernel_generators())
    if (g.name == name) return g;
  std::string known;
  for (const auto& g : kernel_generators()) known += (known.empty() ? "" : ", ") + g.name;
  throw input_error(source_location{"<command line>", 0, 0}, "KERNEL",
                    "unknown kernel '" + name + "' (known: " + known + ")");
}

void generate(const std::string& kernel, const std::vector<std::string>& params, std::uint32_t arch,
              trace_writer& out) {
  const kernel_generator& g = find_kernel_generator(kernel);
  bool ok = false;
  for (auto a : supported_arches) ok = ok || a == arch;
  if (!ok)
    throw input_error(source_location{"<command line>", 0, 0}, "--arch",
                      std::to_string(arch) + " is not one of 35, 61, 70");
  const param_set p(g.params, params);
  opcode_table opcodes(arch);
  app_builder app(out, opcodes);
  g.generate(p, app);
  out.finish();
}

app_trace generate_in_memory(const std::string& kernel, const std::vector<std::string>& params,
                             std::uint32_t arch) {
  app_trace app{{}, {}, opcode_table(arch)};
  memory_writer w(app);
  generate(kernel, params, arch, w);
  return app;
}

}  // namespace gputlm::traces::generators
