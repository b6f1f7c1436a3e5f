// The packed control registers (models/control/register_layout.h): every field inside its
// word, no two fields overlapping; a KDE, a TBCR and a capability register survive packing
// and unpacking with every field at its extreme values; the bits land where the tables say
// (hand-placed words); and docs/rtl.md's register tables list exactly these fields.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "models/control/register_layout.h"

namespace test_register_layout {

using namespace gputlm::control;

namespace {

void check_layout(const std::vector<reg_field>& fields, std::size_t words) {
  std::vector<std::uint64_t> used(words, 0);
  for (const reg_field& f : fields) {
    ASSERT_LT(f.word, words) << f.name;
    ASSERT_GE(f.width, 1u) << f.name;
    ASSERT_LE(f.lsb + f.width, 64u) << f.name;
    const std::uint64_t mask =
        (f.width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << f.width) - 1) << f.lsb;
    EXPECT_EQ(used[f.word] & mask, 0u) << f.name << " overlaps another field";
    used[f.word] |= mask;
  }
}

// The rows `| word | msb:lsb | `name` |` of the table under `heading` in docs/rtl.md.
std::vector<std::string> doc_rows(const std::string& heading) {
  std::ifstream in(std::string(GPUTLM_SOURCE_DIR) + "/docs/rtl.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const auto at = doc.find(heading);
  EXPECT_NE(at, std::string::npos) << heading;
  if (at == std::string::npos) return {};
  const auto end = doc.find("\n#", at + heading.size());
  const std::string section = doc.substr(at, end - at);
  std::vector<std::string> rows;
  static const std::regex row(R"(\| (\d+) \| (\d+):(\d+) \| `(\w+)` \|)");
  for (std::sregex_iterator it(section.begin(), section.end(), row), e; it != e; ++it) {
    const std::smatch& m = *it;
    rows.push_back(m[1].str() + " " + m[2].str() + ":" + m[3].str() + " " + m[4].str());
  }
  return rows;
}

std::vector<std::string> code_rows(const std::vector<reg_field>& fields) {
  std::vector<std::string> rows;
  for (const reg_field& f : fields)
    rows.push_back(std::to_string(f.word) + " " + std::to_string(f.lsb + f.width - 1) + ":" +
                   std::to_string(f.lsb) + " " + f.name);
  return rows;
}

}  // namespace

TEST(register_layout, fields_fit_their_words_without_overlap) {
  check_layout(kde_fields(), kde_layout::words);
  check_layout(tbcr_fields(), tbcr_layout::words);
  check_layout(caps_fields(), caps_layout::words);
  EXPECT_EQ(kde_fields().size(), 22u);
  // The dispatch unit reads words 0..4: every field it needs is there.
  for (const reg_field* f : {&kde_layout::kernel, &kde_layout::tbs_total, &kde_layout::next_tb,
                             &kde_layout::threads, &kde_layout::regs_per_thread, &kde_layout::shmem,
                             &kde_layout::valid, &kde_layout::fcfs_order})
    EXPECT_LT(f->word, kde_layout::dispatch_words) << f->name;
}

TEST(register_layout, records_survive_packing) {
  kde_record r;
  r.valid = 1;
  r.kernel = 0xfffffffe;
  r.stream = 0x123456789abcdef0ull;
  r.grid = {0x7fffffff, 65535, 3};
  r.block = {1024, 1, 1};
  r.shmem = 0xc000;
  r.nregs = 255;
  r.param_addr = 0xfedcba9876543210ull;
  r.entry_pc = 0xdeadbeef;
  r.tbs_total = 0xffffffff;
  r.next_tb = 12345;
  r.tbs_running = 77;
  r.fcfs_order = 0xffffffffffffffffull;
  r.nagei = 0x80000005;
  r.lagei = 3;
  r.marked = 1;
  r.first_time = 0;
  const kde_record u = unpack_kde(pack(r).data());
  EXPECT_EQ(u.valid, r.valid);
  EXPECT_EQ(u.kernel, r.kernel);
  EXPECT_EQ(u.stream, r.stream);
  EXPECT_EQ(u.grid, r.grid);
  EXPECT_EQ(u.block, r.block);
  EXPECT_EQ(u.shmem, r.shmem);
  EXPECT_EQ(u.nregs, r.nregs);
  EXPECT_EQ(u.param_addr, r.param_addr);
  EXPECT_EQ(u.entry_pc, r.entry_pc);
  EXPECT_EQ(u.tbs_total, r.tbs_total);
  EXPECT_EQ(u.next_tb, r.next_tb);
  EXPECT_EQ(u.tbs_running, r.tbs_running);
  EXPECT_EQ(u.fcfs_order, r.fcfs_order);
  EXPECT_EQ(u.nagei, r.nagei);
  EXPECT_EQ(u.lagei, r.lagei);
  EXPECT_EQ(u.marked, r.marked);
  EXPECT_EQ(u.first_time, r.first_time);

  tb_descriptor d;
  d.kde = 127;
  d.kernel = 9;
  d.tb = 0xfffffff0;
  d.demand.threads = 1024;
  d.demand.regs_per_thread = 64;
  d.demand.shared_memory = 0x1'0000'0000ull;  // beyond 32 bits: the field is 64
  d.agei = group_ref::none;
  const tb_descriptor e = unpack_tbcr(pack(d).data());
  EXPECT_EQ(e.kde, d.kde);
  EXPECT_EQ(e.kernel, d.kernel);
  EXPECT_EQ(e.tb, d.tb);
  EXPECT_EQ(e.demand.threads, d.demand.threads);
  EXPECT_EQ(e.demand.regs_per_thread, d.demand.regs_per_thread);
  EXPECT_EQ(e.demand.shared_memory, d.demand.shared_memory);
  EXPECT_EQ(e.agei, d.agei);

  gputlm::core::smx_limits l;
  l.max_tbs = 32;
  l.max_threads = 2048;
  l.warp_size = 32;
  l.registers = 65536;
  l.shared_memory = 96 * 1024;
  const gputlm::core::smx_limits m = unpack_caps(pack(l).data());
  EXPECT_EQ(m.max_tbs, l.max_tbs);
  EXPECT_EQ(m.max_threads, l.max_threads);
  EXPECT_EQ(m.warp_size, l.warp_size);
  EXPECT_EQ(m.registers, l.registers);
  EXPECT_EQ(m.shared_memory, l.shared_memory);
}

TEST(register_layout, bits_are_where_the_tables_place_them) {
  tb_descriptor d;
  d.tb = 5;
  d.kernel = 6;
  d.kde = 7;
  d.agei = 8;
  d.demand.threads = 96;
  d.demand.regs_per_thread = 24;
  d.demand.shared_memory = 4096;
  const auto w = pack(d);
  EXPECT_EQ(w[0], 5u | std::uint64_t(6) << 32);
  EXPECT_EQ(w[1], 7u | std::uint64_t(8) << 32);
  EXPECT_EQ(w[2], 96u | std::uint64_t(24) << 32);
  EXPECT_EQ(w[3], 4096u);
  kde_record r;
  r.valid = 1;
  r.marked = 0;
  r.first_time = 1;
  r.shmem = 100;
  r.block = {8, 4, 2};  // 64 threads
  const auto k = pack(r);
  EXPECT_EQ(k[3], 100u | std::uint64_t(1) << 32 | std::uint64_t(1) << 34);
  EXPECT_EQ(k[2] & 0xffffffffu, 64u);
  // Bytes on a socket: the words in order, each little-endian.
  unsigned char bytes[8 * tbcr_layout::words];
  store(bytes, w);
  EXPECT_EQ(bytes[0], 5);
  EXPECT_EQ(bytes[4], 6);
  EXPECT_EQ(bytes[8], 7);
  EXPECT_EQ(load<tbcr_layout::words>(bytes), w);
}

TEST(register_layout, the_docs_tables_list_exactly_these_fields) {
  EXPECT_EQ(doc_rows("#### KDE"), code_rows(kde_fields()));
  EXPECT_EQ(doc_rows("#### TBCR"), code_rows(tbcr_fields()));
  EXPECT_EQ(doc_rows("#### SMX capability register"), code_rows(caps_fields()));
}

}  // namespace test_register_layout
