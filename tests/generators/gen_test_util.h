// Helpers for the kernel generator tests: walking generated warps by mnemonic, per-lane
// addresses, and the device address map as docs/traces.md states it (the tests rebuild
// addresses from the documented layout, not from the generators' code).
#pragma once

#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators::test {

inline unsigned popcount(std::uint32_t m) { return unsigned(std::bitset<32>(m).count()); }

inline std::uint64_t align256(std::uint64_t v) { return (v + 255) / 256 * 256; }

// The device heap's base: a generator's arrays start here, in allocation order, each
// 256-byte aligned (docs/traces.md).
constexpr std::uint64_t heap = 0x7f0000000000ull;

// Per-lane addresses, {lane, address} in lane order, and one dynamic memory instruction of
// a warp: its active mask and those addresses.
using lanes = std::vector<std::pair<unsigned, std::uint64_t>>;
struct access {
  std::uint32_t mask = 0;
  lanes addr;
  bool operator==(const access& o) const { return mask == o.mask && addr == o.addr; }
};
inline std::ostream& operator<<(std::ostream& os, const access& a) {
  os << "{mask " << std::hex << a.mask << std::dec << ":";
  for (auto [l, x] : a.addr) os << " " << l << "@" << std::hex << x << std::dec;
  return os << "}";
}

inline const std::string& mnemonic(const app_trace& app, const warp_instruction& in) {
  return app.opcodes[in.opcode].mnemonic;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Per-lane addresses of a memory instruction: {lane, address} in lane order.
inline std::vector<std::pair<unsigned, std::uint64_t>> lane_addresses(const warp_trace& w,
                                                                      const warp_instruction& in) {
  std::vector<std::pair<unsigned, std::uint64_t>> r;
  if (in.addr_index == warp_instruction::none) return r;
  if (std::size_t(in.addr_index) + address_slots(in) > w.addresses.size())
    throw std::out_of_range("instruction addresses outside warp_trace::addresses");
  std::uint64_t a[32];
  const std::uint32_t n = expand_addresses(w, in, a);
  std::uint32_t k = 0;
  for (unsigned l = 0; l < 32 && k < n; ++l)
    if (in.active_mask >> l & 1u) r.emplace_back(l, a[k++]);
  return r;
}

// Instructions of `w` whose mnemonic starts with `prefix`, in order.
inline std::vector<const warp_instruction*> find(const app_trace& app, const warp_trace& w,
                                                 const std::string& prefix) {
  std::vector<const warp_instruction*> r;
  for (const auto& in : w.insts)
    if (starts_with(mnemonic(app, in), prefix)) r.push_back(&in);
  return r;
}

// Device addresses of the MemcpyHtoD commands, in order (the generators' inputs).
inline std::vector<std::uint64_t> input_addresses(const app_trace& app) {
  std::vector<std::uint64_t> r;
  for (const auto& c : app.commands)
    if (c.what == command::kind::memcpy_h2d) r.push_back(c.addr);
  return r;
}

// Host-launched kernels, in order.
inline std::vector<const kernel_trace*> host_kernels(const app_trace& app) {
  std::vector<const kernel_trace*> r;
  for (const auto& k : app.kernels)
    if (!k.info.device_launched) r.push_back(&k);
  return r;
}

// A trace_writer for the default (large) inputs: keeps every kernel header, counts TBs and
// keeps only the TBs `keep` selects, so nothing like the whole trace is held in memory.
class sampling_writer : public trace_writer {
 public:
  using filter = std::function<bool(const kernel_info&, const tb_trace&)>;
  explicit sampling_writer(filter keep) : m_keep(std::move(keep)) {}

  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) override {
    command c;
    c.what = command::kind::memcpy_h2d;
    c.addr = addr;
    c.bytes = bytes;
    app.commands.push_back(c);
  }
  void begin_kernel(const kernel_info& info) override {
    app.kernels.push_back({info, {}});
    tbs.push_back(0);
  }
  void write_tb(const tb_trace& tb, const opcode_table& opcodes) override {
    m_opcodes = &opcodes;
    ++tbs.back();
    if (m_keep(app.kernels.back().info, tb)) app.kernels.back().tbs.push_back(tb);
  }
  void end_kernel() override {}
  void finish() override {
    if (m_opcodes) app.opcodes = *m_opcodes;
  }

  app_trace app{{}, {}, opcode_table(70)};
  std::vector<std::uint64_t> tbs;  // TBs written per kernel

 private:
  filter m_keep;
  const opcode_table* m_opcodes = nullptr;
};

// sampling_writer's filter for each kernel's last TB (the highest index).
inline bool last_tb(const kernel_info& k, const tb_trace& tb) {
  return tb.index.x + 1 == k.grid.x && tb.index.y + 1 == k.grid.y && tb.index.z + 1 == k.grid.z;
}

// A generator refuses these parameters (throws).
inline void expect_refused(const std::string& kernel, const std::vector<std::string>& params) {
  EXPECT_THROW(generate_in_memory(kernel, params), std::exception) << kernel;
}

inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path p = std::filesystem::path(GPUTLM_TEST_TMP) / "generators" /
                            (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace gputlm::traces::generators::test
