// Rodinia nearest neighbour (cuda/nn/nn_cuda.cu, euclid): one thread per record computes
// the distance from the query point (lat, lng) to its record, a LatLong struct of two floats
// (`locations[gid]`, 8-byte stride: LDG of .lat at +0 and .lng at +4), and stores
// `distances[gid]`; the host then picks the k nearest. The grid is 2-D as the original
// sizes it (blocks = ceil(records / block), gridY = ceil(blocks / 65535), gridX =
// ceil(blocks / gridY)), gid = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) +
// threadIdx.x; threads past the records leave through `@P0 EXIT`. sqrt is sqrtf's
// expansion (MUFU.RSQ and FFMAs).
#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
void generate_nn(const param_set& ps, app_builder& app) {
  const std::uint64_t records = ps.u64("records");
  const std::uint32_t block = ps.u32("block");
  constexpr std::uint64_t max_grid_x = 65535;
  const std::uint64_t blocks = (records + block - 1) / block;
  const std::uint64_t grid_y = (blocks + max_grid_x - 1) / max_grid_x;
  const std::uint64_t grid_x = (blocks + grid_y - 1) / grid_y;

  const std::uint64_t locations = app.input(8 * records);
  const std::uint64_t distances = app.output(4 * records);

  program p(app.opcodes(), 13);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::ctaid_y);
  p.s2r(3, sreg::tid_x);
  p.imad(0, 2, rz, 0);   // gridDim.x * blockIdx.y + blockIdx.x
  p.imad(3, 0, rz, 3);   // gid = blockDim.x * (..) + threadIdx.x
  p.isetp("GE", 3, rz);  // gid >= numRecords
  const code head = p.since(m);
  const code exit_oob = p.exit();
  const code addr_loc = p.address(4, 3, rz);  // &locations[gid], 8-byte elements
  const code ld_lat = p.ld_global(6, 4, 4);
  const code ld_lng = p.ld_global(7, 4, 4);  // [R4 + 0x4]
  m = p.here();
  p.fadd(6, 6, rz);  // lat - latLong->lat
  p.fadd(7, 7, rz);  // lng - latLong->lng
  p.fmul(7, 7, 7);
  p.ffma(8, 6, 6, 7);
  fp_sqrt(p, 9, 8);
  p.address(12, 3, rz);  // &distances[gid]
  const code compute = p.since(m);
  const code st = p.st_global(12, 9, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z6euclidP7latLongPfiff", app.reserve_kernel_id(),
                 dim3{std::uint32_t(grid_x), std::uint32_t(grid_y), 1}, dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> gid{};
      std::uint32_t in = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        gid[l] = std::uint64_t(block) * tb.linear_id + lanes.flat[l];
        if (gid[l] < records) in |= 1u << l;
      }
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~in);
      e.run(addr_loc, in);
      e.mem_fn(ld_lat, in, [&](unsigned l) { return locations + 8 * gid[l]; });
      e.mem_fn(ld_lng, in, [&](unsigned l) { return locations + 8 * gid[l] + 4; });
      e.run(compute, in);
      e.mem_fn(st, in, [&](unsigned l) { return distances + 4 * gid[l]; });
      e.run(done, in);
    }
  });
}
}  // namespace

kernel_generator nn_generator() {
  return {"nn",
          "Rodinia nearest neighbour euclid: thread per record, 8-byte LatLong loads, distance",
          {param_desc::integer("records", 65536, 1, 1ull << 28, "number of records"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB")},
          generate_nn};
}

}  // namespace gputlm::traces::generators
