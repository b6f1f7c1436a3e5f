#include "test_util.h"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

namespace gputlm::traces::test {

std::string xz_compress(const std::string& data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t pos = 0;
  lzma_ret r = lzma_easy_buffer_encode(
      6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
      reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  EXPECT_EQ(r, LZMA_OK);
  out.resize(pos);
  return out;
}

std::string gzip_compress(const std::string& data) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&s, uLong(data.size())) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = uInt(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = uInt(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

std::string header(int tracer_version, bool lineinfo, const std::string& grid,
                   const std::string& block, int binary_version) {
  return fmt::format(
      "-kernel name = _Z6vecAddPfS_S_i\n"
      "-kernel id = 1\n"
      "-grid dim = {}\n"
      "-block dim = {}\n"
      "-shmem = 0\n"
      "-nregs = 16\n"
      "-binary version = {}\n"
      "-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f2c60000000\n"
      "-local mem base_addr = 0x00007f2c5e000000\n"
      "-nvbit version = 1.5.5\n"
      "-accelsim tracer version = {}\n"
      "-enable lineinfo = {}\n"
      "\n"
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
      "mem_width [adrrescompress?] [mem_addresses] immediate\n\n",
      grid, block, binary_version, tracer_version, lineinfo ? 1 : 0);
}

std::filesystem::path one_kernel_trace(const std::filesystem::path& dir,
                                       const std::string& kernel_text) {
  write_file(dir / "kernelslist.g", "MemcpyHtoD,0x00007f2c3e000000,4096\nkernel-1.traceg\n");
  write_file(dir / "kernel-1.traceg", kernel_text);
  return dir;
}

void expect_same_tb(const tb_trace& a, const opcode_table& oa, const tb_trace& b,
                    const opcode_table& ob) {
  ASSERT_EQ(a.index, b.index);
  ASSERT_EQ(a.linear_id, b.linear_id);
  ASSERT_EQ(a.warps.size(), b.warps.size());
  for (std::size_t w = 0; w < a.warps.size(); ++w) {
    const warp_trace& x = a.warps[w];
    const warp_trace& y = b.warps[w];
    ASSERT_EQ(x.insts.size(), y.insts.size()) << "warp " << w;
    for (std::size_t i = 0; i < x.insts.size(); ++i) {
      const warp_instruction& p = x.insts[i];
      const warp_instruction& q = y.insts[i];
      SCOPED_TRACE(fmt::format("TB {} warp {} inst {}", a.linear_id, w, i));
      EXPECT_EQ(p.pc, q.pc);
      EXPECT_EQ(p.active_mask, q.active_mask);
      EXPECT_EQ(p.line, q.line);
      EXPECT_EQ(oa[p.opcode].mnemonic, ob[q.opcode].mnemonic);
      EXPECT_EQ(p.unit, q.unit);
      EXPECT_EQ(p.space, q.space);
      EXPECT_EQ(p.special, q.special);
      EXPECT_EQ(p.dir, q.dir);
      EXPECT_EQ(p.access_size, q.access_size);
      EXPECT_EQ(p.num_dst, q.num_dst);
      EXPECT_EQ(p.num_src, q.num_src);
      for (int k = 0; k < p.num_dst; ++k) EXPECT_EQ(p.dst[k], q.dst[k]);
      for (int k = 0; k < p.num_src; ++k) EXPECT_EQ(p.src[k], q.src[k]);
      EXPECT_EQ(p.immediate, q.immediate);
      ASSERT_EQ(p.addr_index == warp_instruction::none, q.addr_index == warp_instruction::none);
      if (p.addr_index != warp_instruction::none) {
        // Compared lane by lane whatever the form: a reader may store compactly what a
        // generator or test wrote as a list.
        std::uint64_t pa[32], qa[32];
        std::uint32_t n = expand_addresses(x, p, pa);
        ASSERT_EQ(n, expand_addresses(y, q, qa));
        for (std::uint32_t k = 0; k < n; ++k) EXPECT_EQ(pa[k], qa[k]) << "lane " << k;
      }
      bool launch =
          p.special == special_op::launch_kernel || p.special == special_op::launch_agg_group;
      if (launch && p.ext_index != warp_instruction::none) {
        ASSERT_NE(q.ext_index, warp_instruction::none);
        const device_launch& l = x.launches[p.ext_index];
        const device_launch& m = y.launches[q.ext_index];
        EXPECT_EQ(l.child_kernel, m.child_kernel);
        EXPECT_EQ(l.grid, m.grid);
        EXPECT_EQ(l.block, m.block);
        EXPECT_EQ(l.shmem, m.shmem);
        EXPECT_EQ(l.param_addr, m.param_addr);
      } else {
        EXPECT_EQ(p.ext_index, q.ext_index);
      }
    }
  }
}

void expect_same_application(application_trace& a, application_trace& b) {
  ASSERT_EQ(a.commands().size(), b.commands().size());
  for (std::size_t c = 0; c < a.commands().size(); ++c) {
    const command& x = a.commands()[c];
    const command& y = b.commands()[c];
    ASSERT_EQ(x.what, y.what) << "command " << c;
    if (x.what == command::kind::memcpy_h2d) {
      EXPECT_EQ(x.addr, y.addr);
      EXPECT_EQ(x.bytes, y.bytes);
      continue;
    }
    kernel_reader& p = a.kernel(c);
    kernel_reader& q = b.kernel(c);
    const kernel_info& i = p.info();
    const kernel_info& j = q.info();
    EXPECT_EQ(i.name, j.name);
    EXPECT_EQ(i.id, j.id);
    EXPECT_EQ(i.grid, j.grid);
    EXPECT_EQ(i.block, j.block);
    EXPECT_EQ(i.shmem, j.shmem);
    EXPECT_EQ(i.nregs, j.nregs);
    EXPECT_EQ(i.binary_version, j.binary_version);
    EXPECT_EQ(i.stream_id, j.stream_id);
    EXPECT_EQ(i.shmem_base, j.shmem_base);
    EXPECT_EQ(i.local_base, j.local_base);
    EXPECT_EQ(i.nvbit_version, j.nvbit_version);
    EXPECT_EQ(i.tracer_version, j.tracer_version);
    EXPECT_EQ(i.lineinfo, j.lineinfo);
    EXPECT_EQ(i.device_launched, j.device_launched);
    ASSERT_EQ(p.tb_count(), q.tb_count());
    for (std::uint32_t t = 0; t < p.tb_count(); ++t) {
      auto ta = p.read_tb(t);
      auto tb = q.read_tb(t);
      expect_same_tb(*ta, p.opcodes(), *tb, q.opcodes());
    }
  }
}

}  // namespace gputlm::traces::test
