// Helpers for the kernel generator tests: walking generated warps by mnemonic, per-lane
// addresses, and the device address map as docs/traces.md states it (the tests rebuild
// addresses from the documented layout, not from the generators' code).
#pragma once

#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/generators/registry.h"

namespace gputlm::traces::generators::test {

inline unsigned popcount(std::uint32_t m) { return unsigned(std::bitset<32>(m).count()); }

inline std::uint64_t align256(std::uint64_t v) { return (v + 255) / 256 * 256; }

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

inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path p = std::filesystem::path(GPUTLM_TEST_TMP) / "generators" /
                            (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace gputlm::traces::generators::test
