// libFuzzer target: Accel-Sim text traces. The first byte picks what the rest is: a kernel
// file (listed by a fixed kernelslist.g) or a kernelslist.g (with a fixed valid kernel
// file next to it); even values also gzip nothing, odd ones read the same bytes as .traceg.
#include "fuzz_common.h"
#include "traces/trace_writer.h"

using namespace gputlm::traces;

namespace {

const char* k_kernel =
    "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
    "-shmem base_addr = 0x00007f2c60000000\n-accelsim tracer version = 5\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
    "0000 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4 0\n0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n"
    "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 1\n"
    "0000 0000000b 1 R2 LD.E 1 R4 4 2 0x00007f2c60000000 -4 8 0\n#END_TB\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& dir = fuzz::scratch();
  if (data[0] & 1) {
    fuzz::write(dir / "kernelslist.g", data + 1, size - 1);
    fuzz::write(dir / "kernel-1.traceg", reinterpret_cast<const std::uint8_t*>(k_kernel),
                std::char_traits<char>::length(k_kernel));
  } else {
    static const char list[] =
        "MemcpyHtoD,0x1000,64\nkernel-1.traceg\nDeviceKernel,kernel-1.traceg\n";
    fuzz::write(dir / "kernelslist.g", reinterpret_cast<const std::uint8_t*>(list),
                sizeof list - 1);
    fuzz::write(dir / "kernel-1.traceg", data + 1, size - 1);
  }
  fuzz::drive(dir.string(), true);
  return 0;
}
