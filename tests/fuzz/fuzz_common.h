// Shared by the trace reader fuzz targets: a per-process scratch directory in /dev/shm (or
// /tmp) and the "parse everything, only input_error may escape" driver.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "models/base/input_error.h"
#include "traces/trace_reader.h"

namespace gputlm::traces::fuzz {

inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    auto d = base / ("gputlm-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

inline void write(const std::filesystem::path& p, const std::uint8_t* data, std::size_t n) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data), std::streamsize(n));
}

// Opens `path` and decodes up to a bounded number of TBs of every kernel, in a scrambled
// order so both the index scan and seeks run.
inline void drive(const std::string& path, bool verify_checksums) {
  open_options o;
  o.read_ahead = 0;
  o.verify_checksums = verify_checksums;
  try {
    auto app = open_trace(path, o);
    const auto& cmds = app->commands();
    for (std::size_t c = 0; c < cmds.size() && c < 8; ++c) {
      if (cmds[c].what == command::kind::memcpy_h2d) continue;
      try {
        kernel_reader& k = app->kernel(c);
        std::uint64_t n = k.tb_count() < 16 ? k.tb_count() : 16;
        for (std::uint64_t i = 0; i < n; ++i) {
          std::uint32_t id = std::uint32_t((i * 7 + 3) % n);
          try {
            auto tb = k.read_tb(id);
            // Touch what the simulator touches.
            for (const auto& w : tb->warps)
              for (const auto& in : w.insts) {
                if (in.opcode >= k.opcodes().size()) std::abort();
                if (in.addr_index != warp_instruction::none &&
                    in.addr_index + std::uint64_t(address_slots(in)) > w.addresses.size())
                  std::abort();
                std::uint64_t a[32];
                if (expand_addresses(w, in, a) > 32) std::abort();
              }
          } catch (const input_error&) {
          }
        }
      } catch (const input_error&) {
      }
    }
  } catch (const input_error&) {
  }
}

}  // namespace gputlm::traces::fuzz
