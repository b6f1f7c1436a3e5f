// The gputlm binary trace ("GTB"): one file per application, built for replay speed.
//
//   header (64 B)  magic, format version, directory offset/size, XXH64 checksums
//   blocks         zstd frames of fixed-width TB records, one or more TBs per block
//   directory      zstd frame: commands, per kernel its header fields, opcode mnemonics
//                  and TB index (linear id -> block, offset, size), then the block table
//                  (file offset, sizes, XXH64 of the compressed bytes), then (version 3)
//                  the notes
//
// Layout of every record: docs/traces.md, "Binary format". Little-endian throughout.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "traces/trace_reader.h"

namespace gputlm::traces::binary {

inline constexpr char magic[8] = {'\x89', 'G', 'T', 'B', '\r', '\n', '\x1a', '\n'};
// 2: strided addresses kept compact; 3: version 2 plus the application's notes at the end of
// the directory. A file without notes is written as version 2 (readable by older builds).
inline constexpr std::uint32_t format_version = 3;
inline constexpr std::uint32_t oldest_format_version = 2;
inline constexpr std::size_t header_bytes = 64;
inline constexpr std::size_t inst_record_bytes = 10;  // dynamic record; see the .cpp
inline constexpr std::size_t launch_record_bytes = 40;
// A block is closed once its TBs reach this many uncompressed bytes (a larger TB is a
// block on its own).
inline constexpr std::size_t block_target_bytes = 512 * 1024;
// Largest uncompressed block or directory accepted when reading.
inline constexpr std::uint64_t max_block_bytes = std::uint64_t(1) << 31;

// XXH64 with seed 0 (the checksum of blocks, directory and header).
std::uint64_t checksum(const void* data, std::size_t n);

}  // namespace gputlm::traces::binary

namespace gputlm::traces {

std::unique_ptr<application_trace> open_binary_trace(const std::string& path,
                                                     const open_options& opts);

}  // namespace gputlm::traces
