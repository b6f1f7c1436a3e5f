// libFuzzer target: gputlm binary traces. Checksums are off so mutations reach the
// directory and block decoders (with them on, nearly every input stops at a checksum).
// LLVMFuzzerInitialize writes a valid seed into $GPUTLM_FUZZ_SEED_DIR when set.
#include "fuzz_common.h"
#include "traces/trace_cli.h"
#include "traces/trace_writer.h"

using namespace gputlm::traces;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* seeds = std::getenv("GPUTLM_FUZZ_SEED_DIR");
  if (!seeds) return 0;
  namespace fs = std::filesystem;
  fs::create_directories(seeds);
  opcode_table ops(70);
  kernel_info k;
  k.name = "seed";
  k.id = 1;
  k.grid = {2, 1, 1};
  k.block = {64, 1, 1};
  k.binary_version = 70;
  k.tracer_version = 5;
  k.lineinfo = true;
  auto w = make_binary_writer((fs::path(seeds) / "seed.gtb").string());
  w->memcpy_h2d(0x1000, 64);
  w->begin_kernel(k);
  for (std::uint32_t t = 0; t < 2; ++t) {
    tb_trace tb;
    tb.linear_id = t;
    tb.index = {t, 0, 0};
    tb.warps.resize(2);
    for (auto& wt : tb.warps) {
      warp_instruction a;
      a.opcode = ops.intern("LDG.E.64");
      a.active_mask = t ? 0x8000000fu : 0xffu;
      a.access_size = 8;
      a.addr_index = 0;
      for (int l = 0; l < __builtin_popcount(a.active_mask); ++l)
        wt.addresses.push_back(t ? 0x1000u * l * l : 0x2000u + 8u * l);
      wt.insts.push_back(a);
      warp_instruction c;
      c.opcode = ops.intern("CDP.LAUNCH");
      c.special = special_op::launch_kernel;
      c.ext_index = 0;
      wt.launches.push_back(device_launch{});
      wt.insts.push_back(c);
      warp_instruction p;
      p.opcode = ops.intern("CB.PUSH.EAST");
      p.special = special_op::cb_push;
      p.ext_index = 64;
      wt.insts.push_back(p);
      warp_instruction e;
      e.opcode = ops.intern("EXIT");
      wt.insts.push_back(e);
    }
    w->write_tb(tb, ops);
  }
  w->end_kernel();
  w->finish();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto path = fuzz::scratch() / "t.gtb";
  fuzz::write(path, data, size);
  fuzz::drive(path.string(), false);
  return 0;
}
