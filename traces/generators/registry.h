// The kernel generators of `gputlm trace gen`: each runs the thread grid of one CUDA kernel
// on the CPU and records every warp's SASS-like instructions (docs/traces.md, "Generators").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/generators/app_builder.h"
#include "traces/generators/params.h"
#include "traces/opcode_table.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::generators {

struct kernel_generator {
  std::string name;
  std::string description;  // one line
  std::vector<param_desc> params;
  void (*generate)(const param_set& params, app_builder& app) = nullptr;
};

// Binary versions the generators emit code for.
constexpr std::uint32_t supported_arches[] = {35, 61, 70};

const std::vector<kernel_generator>& kernel_generators();
// Throws input_error (key "KERNEL") for an unknown name.
const kernel_generator& find_kernel_generator(const std::string& name);

// Generates `kernel` with "name=value" parameter assignments for binary version `arch`
// (35, 61 or 70) into `out`, then calls out.finish(). Throws input_error on bad input.
void generate(const std::string& kernel, const std::vector<std::string>& params, std::uint32_t arch,
              trace_writer& out);
app_trace generate_in_memory(const std::string& kernel, const std::vector<std::string>& params,
                             std::uint32_t arch = 70);

// One factory per kernel family (each in its own source file).
kernel_generator vectoradd_generator();
kernel_generator stencil2d_generator();
kernel_generator spu_stencil_generator();
kernel_generator sgemm_naive_generator();
kernel_generator sgemm_tiled_generator();
kernel_generator syrk_generator();
kernel_generator bfs_generator();
kernel_generator bfs_cdp_generator();
kernel_generator bfs_dtbl_generator();
kernel_generator spmv_generator();
kernel_generator spmv_cdp_generator();
kernel_generator spmv_dtbl_generator();
kernel_generator reduction_generator();
kernel_generator histogram_generator();

}  // namespace gputlm::traces::generators
