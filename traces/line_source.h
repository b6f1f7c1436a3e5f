// Line-at-a-time reading of a trace file that may be plain, xz- or gzip-compressed
// (detected by magic bytes), with uncompressed byte offsets for the TB index.
//
// Memory is bounded by the buffer (256 KiB, growing only for a longer line, up to
// max_line_bytes). Seeking backwards in a compressed file restarts decompression from the
// start and skips forward: random access into .xz/.gz costs a re-decompression, sequential
// access costs nothing extra (docs/traces.md, "Compressed traces").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gputlm::traces {

class byte_source {
 public:
  enum class kind { plain, xz, gzip };
  virtual ~byte_source() = default;
  // Up to n bytes; 0 at end of data. Throws std::runtime_error on corrupt compressed data.
  virtual std::size_t read(char* dst, std::size_t n) = 0;
  // The next read() returns the byte at uncompressed offset `offset`.
  virtual void seek(std::uint64_t offset) = 0;
  virtual kind what() const = 0;

  // Opens `path`; throws input_error if it cannot be opened.
  static std::unique_ptr<byte_source> open(const std::string& path);
};

class line_source {
 public:
  static constexpr std::size_t max_line_bytes = std::size_t(16) << 20;

  explicit line_source(const std::string& path);

  // The next line without its '\n'; false at end of file. The view stays valid until the
  // next call. Throws input_error (file:line) on corrupt compressed data or a line longer
  // than max_line_bytes.
  bool next(std::string_view& line);
  std::uint64_t line_no() const { return m_line_no; }            // of the last line returned
  std::uint64_t line_offset() const { return m_line_off; }       // its first byte's offset
  std::uint64_t offset() const { return m_buf_offset + m_pos; }  // of the next line
  std::uint64_t next_line_no() const { return m_line_no + 1; }
  // The next line returned starts at `offset` and is numbered `line_no`.
  void seek(std::uint64_t offset, std::uint64_t line_no);
  const std::string& path() const { return m_path; }
  bool compressed() const { return m_kind != byte_source::kind::plain; }
  // Closes the file and frees the buffer, keeping the position: the next next() or seek()
  // reopens it (a compressed file decompresses again from its start up to the position).
  // A run may hold thousands of kernel traces (device launches); only those being read
  // keep a file descriptor.
  void release();

 private:
  static constexpr std::size_t buffer_bytes = 256 * 1024;
  bool fill();
  void reopen();
  // m_src->seek(offset), its errors as input_error at line `line_no`.
  void seek_source(std::uint64_t offset, std::uint64_t line_no);

  std::string m_path;
  std::unique_ptr<byte_source> m_src;  // null while released
  byte_source::kind m_kind;
  std::unique_ptr<char[]> m_buf;  // uninitialised: filled by reads only
  std::size_t m_cap = 0;
  std::size_t m_pos = 0, m_end = 0;  // unread bytes are m_buf[m_pos, m_end)
  std::uint64_t m_buf_offset = 0;    // file offset of m_buf[0]
  bool m_eof = false;
  std::uint64_t m_line_no = 0;
  std::uint64_t m_line_off = 0;
};

}  // namespace gputlm::traces
