// SASS opcode classification: mnemonic (with modifiers) -> functional unit, memory space,
// access size and special meaning, per binary version (Kepler 35, Pascal 60/61, Volta 70;
// 75/80/86 fall back to the Volta rules). Follows Accel-Sim's trace-driven opcode maps
// (see docs/traces.md).
//
// A trace interns each distinct mnemonic once; warp_instruction::opcode is the id.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "traces/trace_types.h"

namespace gputlm::traces {

struct opcode_info {
  std::string mnemonic;            // full SASS mnemonic as traced, e.g. "LDG.E.128.CONSTANT.SYS"
  unit_class unit = unit_class::other;
  mem_space space = mem_space::none;
  special_op special = special_op::none;
  direction dir = direction::none;
  std::uint8_t default_access_size = 0;  // bytes/thread implied by the modifiers (0 = not memory)
  bool known = true;               // false: unknown opcode (counted, executed as `other`)
  // Generic addressing (LD, ST, and ATOM from Volta on): `space` is the global default; the
  // reader resolves each instruction against the kernel's shared/local windows.
  bool generic = false;
};

// Classifies one mnemonic for a binary version; pure function, no state.
opcode_info classify_opcode(std::string_view mnemonic, std::uint32_t binary_version);

// Lower-case names, as used by `gputlm trace info` and docs/traces.md.
const char* to_string(unit_class u);
const char* to_string(mem_space s);
const char* to_string(special_op s);
const char* to_string(direction d);
inline constexpr std::size_t unit_class_count = std::size_t(unit_class::other) + 1;

// Thread safety: one thread may intern() while others read operator[] for ids they
// already received (through a TB handed over under a lock): entries never move once
// created. size() may be read concurrently.
class opcode_table {
 public:
  static constexpr std::size_t max_opcodes = 65536;

  explicit opcode_table(std::uint32_t binary_version = 70) : m_binary_version(binary_version) {}
  opcode_table(const opcode_table& other);
  opcode_table& operator=(const opcode_table& other);

  // Returns the id of `mnemonic`, classifying it on first sight. Throws std::length_error
  // past max_opcodes distinct mnemonics.
  std::uint16_t intern(std::string_view mnemonic);
  const opcode_info& operator[](std::uint16_t id) const {
    return m_chunks[id >> chunk_bits][id & (chunk_size - 1)];
  }
  std::size_t size() const { return m_size.load(std::memory_order_acquire); }
  std::uint32_t binary_version() const { return m_binary_version; }

  // Id of `mnemonic` if already interned (single-writer side only).
  bool find(std::string_view mnemonic, std::uint16_t& id) const;

 private:
  static constexpr unsigned chunk_bits = 8;
  static constexpr std::size_t chunk_size = std::size_t(1) << chunk_bits;

  std::uint32_t m_binary_version;
  // Fixed table of lazily allocated chunks: entries keep their address forever.
  std::array<std::unique_ptr<opcode_info[]>, max_opcodes / chunk_size> m_chunks;
  std::atomic<std::size_t> m_size{0};
  std::unordered_map<std::string_view, std::uint16_t> m_ids;  // keys view entries' mnemonics
};

}  // namespace gputlm::traces
