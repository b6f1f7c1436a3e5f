// Packed layouts of the kernel-management control registers (DTBL thesis Fig. 1, §2.2):
// the Kernel Distributor entry (KDE) the KMU writes and the SMX scheduler reads, the
// Thread Block Control Register (TBCR) the scheduler writes into an SMX, and the SMX's
// capability register. Each register is a sequence of 64-bit words, fields at fixed bit
// positions (word, lsb, width); its bytes on a socket are the words in order, each
// little-endian. The C++ models and the RTL (rtl/tb_dispatch) use the same layout, so
// either can sit behind a socket; docs/rtl.md has the tables (a test compares them).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "models/control/control_registers.h"

namespace gputlm::control {

struct reg_field {
  const char* name;
  unsigned word, lsb, width;
};

// A register's words.
template <std::size_t N>
using reg_words = std::array<std::uint64_t, N>;

// Field access in packed words (a field lies within one word).
inline std::uint64_t get_field(const std::uint64_t* w, const reg_field& f) {
  const std::uint64_t v = w[f.word] >> f.lsb;
  return f.width == 64 ? v : v & ((std::uint64_t(1) << f.width) - 1);
}
inline void set_field(std::uint64_t* w, const reg_field& f, std::uint64_t v) {
  const std::uint64_t mask = f.width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << f.width) - 1;
  w[f.word] = (w[f.word] & ~(mask << f.lsb)) | ((v & mask) << f.lsb);
}

namespace kde_layout {
constexpr std::size_t words = 12;
constexpr reg_field kernel{"kernel", 0, 0, 32}, tbs_total{"tbs_total", 0, 32, 32},
    next_tb{"next_tb", 1, 0, 32}, tbs_running{"tbs_running", 1, 32, 32},
    threads{"threads", 2, 0, 32}, regs_per_thread{"regs_per_thread", 2, 32, 32},
    shmem{"shmem", 3, 0, 32}, valid{"valid", 3, 32, 1}, marked{"marked", 3, 33, 1},
    first_time{"first_time", 3, 34, 1}, fcfs_order{"fcfs_order", 4, 0, 64},
    nagei{"nagei", 5, 0, 32}, lagei{"lagei", 5, 32, 32}, grid_x{"grid_x", 6, 0, 32},
    grid_y{"grid_y", 6, 32, 32}, grid_z{"grid_z", 7, 0, 32}, block_x{"block_x", 7, 32, 32},
    block_y{"block_y", 8, 0, 32}, block_z{"block_z", 8, 32, 32}, entry_pc{"entry_pc", 9, 0, 32},
    stream{"stream", 10, 0, 64}, param_addr{"param_addr", 11, 0, 64};
// The words the TB dispatch unit reads (0..4: shape, counts, valid, FCFS order).
constexpr std::size_t dispatch_words = 5;
}  // namespace kde_layout

namespace tbcr_layout {
constexpr std::size_t words = 4;
constexpr reg_field tb{"tb", 0, 0, 32}, kernel{"kernel", 0, 32, 32}, kde{"kde", 1, 0, 32},
    agei{"agei", 1, 32, 32}, threads{"threads", 2, 0, 32},
    regs_per_thread{"regs_per_thread", 2, 32, 32}, shared_memory{"shared_memory", 3, 0, 64};
}  // namespace tbcr_layout

namespace caps_layout {
constexpr std::size_t words = 3;
constexpr reg_field max_tbs{"max_tbs", 0, 0, 32}, max_threads{"max_threads", 0, 32, 32},
    warp_size{"warp_size", 1, 0, 32}, registers{"registers", 1, 32, 32},
    shared_memory{"shared_memory", 2, 0, 64};
}  // namespace caps_layout

// The TB's completion report (tb_report) follows the TBCR's words in the launch payload.
constexpr std::size_t tbcr_report_offset = tbcr_layout::words * sizeof(std::uint64_t);

// Every field of each register, in word and bit order (docs, tests).
const std::vector<reg_field>& kde_fields();
const std::vector<reg_field>& tbcr_fields();
const std::vector<reg_field>& caps_fields();

reg_words<kde_layout::words> pack(const kde_record& r);
kde_record unpack_kde(const std::uint64_t* w);
reg_words<tbcr_layout::words> pack(const tb_descriptor& d);
tb_descriptor unpack_tbcr(const std::uint64_t* w);
reg_words<caps_layout::words> pack(const core::smx_limits& l);
core::smx_limits unpack_caps(const std::uint64_t* w);

// A register's words to and from a payload's bytes.
template <std::size_t N>
void store(unsigned char* bytes, const reg_words<N>& w) {
  std::memcpy(bytes, w.data(), sizeof w);
}
template <std::size_t N>
reg_words<N> load(const unsigned char* bytes) {
  reg_words<N> w;
  std::memcpy(w.data(), bytes, sizeof w);
  return w;
}

}  // namespace gputlm::control
