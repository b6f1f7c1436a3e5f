// The generators' outputs as files: determinism, reading them back, the command line and
// its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gen_test_util.h"
#include "models/common/input_error.h"
#include "traces/generators/gen_cli.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::generators::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_text(const fs::path& dir, const std::string& kernel,
                const std::vector<std::string>& params, std::uint32_t arch = 70) {
  auto w = make_text_writer(dir.string());
  generate(kernel, params, arch, *w);
}

TEST(GenDeterminism, SameParametersSameBytes) {
  const fs::path dir = scratch_dir();
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"bfs_dtbl", {"scale=8", "threshold=16"}}, {"spmv_cdp", {"rows=256", "threshold=24"}},
      {"spu_stencil", {"n=32", "b=16"}},         {"histogram", {"n=4096"}},
      {"sgemm_tiled", {"M=32", "N=32", "K=32"}},
  };
  for (const auto& [kernel, params] : cases)
    for (std::uint32_t arch : {70u, 61u}) {
      const fs::path a = dir / (kernel + std::to_string(arch) + "a");
      const fs::path b = dir / (kernel + std::to_string(arch) + "b");
      write_text(a, kernel, params, arch);
      write_text(b, kernel, params, arch);
      std::size_t files = 0;
      for (const auto& e : fs::directory_iterator(a)) {
        ++files;
        const fs::path other = b / e.path().filename();
        ASSERT_TRUE(fs::exists(other)) << other;
        EXPECT_TRUE(slurp(e.path()) == slurp(other)) << kernel << ": " << e.path().filename();
      }
      EXPECT_EQ(files, std::size_t(std::distance(fs::directory_iterator(b), {})));
      EXPECT_GE(files, 2u);
    }
}

void expect_same_instruction(const app_trace& mem, const warp_trace& mw, const warp_instruction& m,
                             const opcode_table& ops, const warp_trace& rw,
                             const warp_instruction& r) {
  EXPECT_EQ(r.pc, m.pc);
  EXPECT_EQ(r.active_mask, m.active_mask);
  EXPECT_EQ(ops[r.opcode].mnemonic, mnemonic(mem, m));
  EXPECT_EQ(r.unit, m.unit);
  EXPECT_EQ(r.space, m.space) << mnemonic(mem, m);
  EXPECT_EQ(r.special, m.special);
  EXPECT_EQ(r.dir, m.dir);
  EXPECT_EQ(r.access_size, m.access_size);
  ASSERT_EQ(r.num_dst, m.num_dst);
  ASSERT_EQ(r.num_src, m.num_src);
  for (int i = 0; i < m.num_dst; ++i) EXPECT_EQ(r.dst[i], m.dst[i]);
  for (int i = 0; i < m.num_src; ++i) EXPECT_EQ(r.src[i], m.src[i]);
  if (m.access_size != 0) {
    EXPECT_EQ(lane_addresses(rw, r), lane_addresses(mw, m));
  }
  if (m.special == special_op::cb_push || m.special == special_op::cb_pop) {
    EXPECT_EQ(r.ext_index, m.ext_index);
  }
  if (m.special == special_op::launch_kernel || m.special == special_op::launch_agg_group) {
    const device_launch& a = mw.launches.at(m.ext_index);
    const device_launch& b = rw.launches.at(r.ext_index);
    EXPECT_EQ(b.child_kernel, a.child_kernel);
    EXPECT_EQ(b.grid, a.grid);
    EXPECT_EQ(b.block, a.block);
    EXPECT_EQ(b.shmem, a.shmem);
    EXPECT_EQ(b.param_addr, a.param_addr);
  }
}

void expect_read_back_equal(const std::string& kernel, const std::vector<std::string>& params,
                            std::uint32_t arch, bool binary = false) {
  SCOPED_TRACE(kernel + " arch " + std::to_string(arch) + (binary ? " binary" : " text"));
  const fs::path dir = scratch_dir() / (kernel + std::to_string(arch) + (binary ? ".bin" : ""));
  if (binary) {
    auto w = make_binary_writer(dir.string());
    generate(kernel, params, arch, *w);
  } else {
    write_text(dir, kernel, params, arch);
  }
  const app_trace mem = generate_in_memory(kernel, params, arch);
  open_options opts;
  opts.strict = true;  // every generated mnemonic must be a known opcode
  opts.read_ahead = 0;
  auto file = open_trace(dir.string(), opts);
  ASSERT_EQ(file->commands().size(), mem.commands.size());
  std::size_t kernel_no = 0;
  for (std::size_t i = 0; i < mem.commands.size(); ++i) {
    const command& a = mem.commands[i];
    const command& b = file->commands()[i];
    ASSERT_EQ(b.what, a.what);
    EXPECT_EQ(b.addr, a.addr);
    EXPECT_EQ(b.bytes, a.bytes);
    EXPECT_EQ(b.kernel_file, a.kernel_file);
    if (a.what == command::kind::memcpy_h2d) continue;
    const kernel_trace& mk = mem.kernels.at(kernel_no++);
    kernel_reader& rk = file->kernel(i);
    const kernel_info& ri = rk.info();
    EXPECT_EQ(ri.name, mk.info.name);
    EXPECT_EQ(ri.id, mk.info.id);
    EXPECT_EQ(ri.grid, mk.info.grid);
    EXPECT_EQ(ri.block, mk.info.block);
    EXPECT_EQ(ri.shmem, mk.info.shmem);
    EXPECT_EQ(ri.nregs, mk.info.nregs);
    EXPECT_EQ(ri.binary_version, arch);
    EXPECT_EQ(ri.shmem_base, mk.info.shmem_base);
    EXPECT_EQ(ri.local_base, mk.info.local_base);
    EXPECT_EQ(ri.device_launched, mk.info.device_launched);
    ASSERT_EQ(rk.tb_count(), mk.tbs.size());
    for (const tb_trace& mt : mk.tbs) {
      const auto rt = rk.read_tb(mt.linear_id);
      EXPECT_EQ(rt->index, mt.index);
      ASSERT_EQ(rt->warps.size(), mt.warps.size());
      for (std::size_t w = 0; w < mt.warps.size(); ++w) {
        const warp_trace& mw = mt.warps[w];
        const warp_trace& rw = rt->warps[w];
        ASSERT_EQ(rw.insts.size(), mw.insts.size());
        for (std::size_t j = 0; j < mw.insts.size(); ++j)
          expect_same_instruction(mem, mw, mw.insts[j], rk.opcodes(), rw, rw.insts[j]);
      }
    }
    file->release(i);
  }
  EXPECT_EQ(kernel_no, mem.kernels.size());
}

TEST(GenReadBack, TextTraceEqualsInMemoryTrace) {
  expect_read_back_equal("vectoradd", {"n=300"}, 70);
  expect_read_back_equal("stencil2d", {"nx=20", "ny=20"}, 61);
  expect_read_back_equal("sgemm_tiled", {"M=16", "N=16", "K=32"}, 35);
  expect_read_back_equal("reduction", {"n=600", "final=atomic"}, 70);
  expect_read_back_equal("histogram", {"n=2000"}, 35);
  expect_read_back_equal("bfs_cdp", {"scale=7", "threshold=8"}, 70);
  expect_read_back_equal("spmv_dtbl", {"rows=128", "threshold=16"}, 61);
  expect_read_back_equal("spu_stencil", {"n=32", "b=16"}, 70);
  expect_read_back_equal("spu_stencil", {"n=32", "b=16", "sync=global"}, 35);
}

TEST(GenReadBack, BinaryTraceEqualsInMemoryTrace) {
  expect_read_back_equal("vectoradd", {"n=300"}, 70, true);
  expect_read_back_equal("bfs_dtbl", {"scale=7", "threshold=8"}, 61, true);
  expect_read_back_equal("spu_stencil", {"n=32", "b=16"}, 35, true);
}

TEST(GenReadBack, EveryKernelEveryArchIsKnownToTheClassifier) {
  for (const auto& g : kernel_generators())
    for (std::uint32_t arch : supported_arches) {
      std::vector<std::string> small;
      if (g.name == "vectoradd" || g.name == "reduction" || g.name == "histogram")
        small = {"n=512"};
      if (g.name.rfind("bfs", 0) == 0) small = {"scale=6"};
      if (g.name.rfind("spmv", 0) == 0) small = {"rows=64"};
      if (g.name.rfind("sgemm", 0) == 0) small = {"M=16", "N=16", "K=16"};
      if (g.name == "syrk") small = {"n=16", "k=4"};
      if (g.name == "stencil2d") small = {"nx=16", "ny=16"};
      if (g.name == "spu_stencil") small = {"n=16", "b=8"};
      const app_trace app = generate_in_memory(g.name, small, arch);
      for (std::size_t i = 0; i < app.opcodes.size(); ++i)
        EXPECT_TRUE(app.opcodes[std::uint16_t(i)].known)
            << g.name << " arch " << arch << ": " << app.opcodes[std::uint16_t(i)].mnemonic;
    }
}

// The bundled samples (scripts/make-samples.sh) read back in strict mode.
TEST(GenSamples, BundledSamplesAreReadable) {
  const fs::path root = fs::path(GPUTLM_SOURCE_DIR) / "traces" / "samples";
  if (!fs::exists(root / "vectoradd" / "kernelslist.g")) GTEST_SKIP() << "no samples in " << root;
  std::uintmax_t bytes = 0;
  std::size_t samples = 0;
  for (const auto& d : fs::directory_iterator(root)) {
    if (!fs::exists(d.path() / "kernelslist.g")) continue;
    ++samples;
    SCOPED_TRACE(d.path().string());
    for (const auto& f : fs::directory_iterator(d.path())) bytes += fs::file_size(f.path());
    open_options opts;
    opts.strict = true;
    opts.read_ahead = 0;
    auto app = open_trace(d.path().string(), opts);
    std::uint64_t insts = 0;
    for (std::size_t i = 0; i < app->commands().size(); ++i) {
      if (app->commands()[i].what == command::kind::memcpy_h2d) continue;
      kernel_reader& k = app->kernel(i);
      for (std::uint32_t t = 0; t < k.tb_count(); ++t) {
        const auto tb = k.read_tb(t);
        for (const auto& w : tb->warps) insts += w.insts.size();
      }
      app->release(i);
    }
    EXPECT_GT(insts, 0u);
  }
  EXPECT_GE(samples, 9u);
  EXPECT_LT(bytes, 8u << 20) << "samples should stay a few MB";
}

void expect_param_error(const std::string& kernel, const std::vector<std::string>& params,
                        const std::string& key, const std::string& part = "") {
  try {
    generate_in_memory(kernel, params);
    ADD_FAILURE() << "no input_error for " << kernel;
  } catch (const input_error& e) {
    EXPECT_EQ(e.key(), key) << e.what();
    EXPECT_EQ(e.where().file, "<command line>");
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TEST(GenParams, BadNamesAndValuesNameTheParameter) {
  expect_param_error("vectoradd", {"size=3"}, "size", "unknown parameter");
  expect_param_error("vectoradd", {"n=abc"}, "n", "not a non-negative integer");
  expect_param_error("vectoradd", {"n=-4"}, "n");
  expect_param_error("vectoradd", {"n=12x"}, "n");
  expect_param_error("vectoradd", {"block=2048"}, "block", "out of range");
  expect_param_error("vectoradd", {"n=0"}, "n", "out of range");
  expect_param_error("vectoradd", {"n"}, "--param", "name=value");
  expect_param_error("spmv", {"alpha=fast"}, "alpha", "not a number");
  expect_param_error("reduction", {"final=sum"}, "final", "partial, atomic");
  expect_param_error("reduction", {"block=96"}, "block", "power of two");
  expect_param_error("histogram", {"bins=100"}, "bins", "power of two");
  expect_param_error("spu_stencil", {"n=40", "b=16"}, "n", "multiple of b");
  expect_param_error("spu_stencil", {"s=6"}, "s");
  expect_param_error("bfs", {"scale=4", "source=99"}, "source");
  expect_param_error("sgemm_naive", {"block=64"}, "block");
  expect_param_error("no_such_kernel", {}, "KERNEL", "vectoradd");
  // Later assignments win.
  const app_trace app = generate_in_memory("vectoradd", {"n=100", "n=64"});
  EXPECT_EQ(app.commands.at(0).bytes, 256u);
}

void expect_cli_error(const std::vector<std::string>& args, const std::string& key) {
  std::ostringstream out;
  try {
    gen_main(args, out);
    ADD_FAILURE() << "no input_error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.key(), key) << e.what();
  }
}

TEST(GenCli, WritesTheTraceDirectory) {
  const fs::path dir = scratch_dir() / "out";
  std::ostringstream out;
  EXPECT_EQ(gen_main({"vectoradd", "--param", "n=300", "-p", "block=128", "--arch", "61", "-o",
                      dir.string()},
                     out),
            0);
  EXPECT_EQ(slurp(dir / "kernelslist.g"),
            "MemcpyHtoD,0x00007f0000000000,1200\nMemcpyHtoD,0x00007f0000000500,1200\n"
            "kernel-1.traceg\n");
  const std::string k = slurp(dir / "kernel-1.traceg");
  EXPECT_NE(k.find("-binary version = 61"), std::string::npos);
  EXPECT_NE(k.find("-block dim = (128,1,1)"), std::string::npos);
  EXPECT_NE(k.find("XMAD"), std::string::npos);
}

TEST(GenCli, UnwritableOutputIsAnInputError) {
  const fs::path file = scratch_dir() / "a_file";
  std::ofstream(file) << "x";
  expect_cli_error({"vectoradd", "-o", (file / "sub").string()}, "--output");
}

TEST(GenCli, HelpListsKernelsParametersAndDefaults) {
  std::ostringstream help;
  EXPECT_EQ(gen_main({"--help"}, help), 0);
  for (const auto& g : kernel_generators()) {
    EXPECT_NE(help.str().find(g.name), std::string::npos) << g.name;
    for (const auto& p : g.params)
      EXPECT_NE(help.str().find(p.name + "=" + p.default_value), std::string::npos) << p.name;
  }
  std::ostringstream one;
  EXPECT_EQ(gen_main({"bfs_cdp", "--help"}, one), 0);
  EXPECT_NE(one.str().find("threshold=32"), std::string::npos);
  EXPECT_EQ(one.str().find("vectoradd"), std::string::npos);
  std::ostringstream list;
  EXPECT_EQ(gen_main({"--list"}, list), 0);
  const std::string listed = list.str();
  EXPECT_EQ(std::count(listed.begin(), listed.end(), '\n'),
            std::ptrdiff_t(kernel_generators().size()));
}

TEST(GenCli, BadArgumentsAreInputErrors) {
  const std::string dir = (scratch_dir() / "never").string();
  expect_cli_error({"vectoradd", "--arch", "80", "-o", dir}, "--arch");
  expect_cli_error({"vectoradd", "--arch", "sm70", "-o", dir}, "--arch");
  expect_cli_error({"vectoradd"}, "--output");
  expect_cli_error({"-o", dir}, "KERNEL");
  expect_cli_error({"nope", "-o", dir}, "KERNEL");
  expect_cli_error({"vectoradd", "spmv", "-o", dir}, "KERNEL");
  expect_cli_error({"vectoradd", "--bogus", "-o", dir}, "--bogus");
  expect_cli_error({"vectoradd", "-p", "n=zero", "-o", dir}, "n");
  expect_cli_error({"vectoradd", "--param"}, "--param");
  expect_cli_error({"reduction", "-p", "block=96", "-o", dir}, "block");
  expect_cli_error({"spu_stencil", "-p", "n=40", "-o", dir}, "n");
  EXPECT_FALSE(fs::exists(dir)) << "nothing is created for bad input";
}

}  // namespace
}  // namespace gputlm::traces::generators::test
