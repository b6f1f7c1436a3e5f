// Plain, xz (liblzma) and gzip (zlib) byte sources and the line reader on top of them.
#include "traces/line_source.h"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "models/base/input_error.h"

namespace gputlm::traces {
namespace {

constexpr std::size_t in_chunk = 64 * 1024;

struct file_handle {
  FILE* f = nullptr;
  explicit file_handle(const std::string& path) : f(std::fopen(path.c_str(), "rb")) {
    if (!f)
      throw input_error(source_location{path, 0, 0}, "file",
                        fmt::format("cannot open: {}", std::strerror(errno)));
  }
  ~file_handle() { std::fclose(f); }
  file_handle(const file_handle&) = delete;
  file_handle& operator=(const file_handle&) = delete;
};

class plain_source final : public byte_source {
 public:
  explicit plain_source(const std::string& path) : m_file(path) {}
  std::size_t read(char* dst, std::size_t n) override { return std::fread(dst, 1, n, m_file.f); }
  void seek(std::uint64_t offset) override {
    if (fseeko(m_file.f, off_t(offset), SEEK_SET) != 0)
      throw std::runtime_error(fmt::format("seek failed: {}", std::strerror(errno)));
  }
  kind what() const override { return kind::plain; }

 private:
  file_handle m_file;
};

// Shared forward-only logic of the compressed sources: seeking backwards restarts.
class compressed_source : public byte_source {
 public:
  explicit compressed_source(const std::string& path) : m_file(path), m_in(in_chunk) {}
  std::size_t read(char* dst, std::size_t n) override {
    std::size_t got = decode(dst, n);
    m_pos += got;
    return got;
  }
  void seek(std::uint64_t offset) override {
    if (offset < m_pos) {
      std::rewind(m_file.f);
      m_pos = 0;
      restart();
    }
    std::vector<char> scratch(in_chunk);
    while (m_pos < offset) {
      std::size_t want = std::size_t(std::min<std::uint64_t>(offset - m_pos, scratch.size()));
      if (read(scratch.data(), want) == 0) break;
    }
  }

 protected:
  virtual std::size_t decode(char* dst, std::size_t n) = 0;
  virtual void restart() = 0;
  std::size_t refill() { return std::fread(m_in.data(), 1, m_in.size(), m_file.f); }

  file_handle m_file;
  std::vector<char> m_in;
  std::uint64_t m_pos = 0;
};

class xz_source final : public compressed_source {
 public:
  explicit xz_source(const std::string& path) : compressed_source(path) { restart(); }
  ~xz_source() override { lzma_end(&m_strm); }
  kind what() const override { return kind::xz; }

 private:
  void restart() override {
    lzma_end(&m_strm);
    m_strm = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&m_strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw std::runtime_error("cannot initialise the xz decoder");
    m_done = false;
  }
  std::size_t decode(char* dst, std::size_t n) override {
    if (m_done) return 0;
    m_strm.next_out = reinterpret_cast<std::uint8_t*>(dst);
    m_strm.avail_out = n;
    while (m_strm.avail_out > 0) {
      lzma_action action = LZMA_RUN;
      if (m_strm.avail_in == 0) {
        std::size_t got = refill();
        m_strm.next_in = reinterpret_cast<const std::uint8_t*>(m_in.data());
        m_strm.avail_in = got;
        if (got == 0) action = LZMA_FINISH;
      }
      lzma_ret r = lzma_code(&m_strm, action);
      if (r == LZMA_STREAM_END) {
        m_done = true;
        break;
      }
      if (r != LZMA_OK) {
        const char* why = r == LZMA_DATA_ERROR     ? "corrupt xz data"
                          : r == LZMA_FORMAT_ERROR ? "not in xz format"
                          : r == LZMA_BUF_ERROR    ? "truncated xz data"
                          : r == LZMA_MEM_ERROR    ? "out of memory"
                                                   : "xz decoder error";
        throw std::runtime_error(why);
      }
    }
    return n - m_strm.avail_out;
  }

  lzma_stream m_strm = LZMA_STREAM_INIT;
  bool m_done = false;
};

class gzip_source final : public compressed_source {
 public:
  explicit gzip_source(const std::string& path) : compressed_source(path) {
    std::memset(&m_strm, 0, sizeof m_strm);
    if (inflateInit2(&m_strm, 15 + 32) != Z_OK)
      throw std::runtime_error("cannot initialise the gzip decoder");
  }
  ~gzip_source() override { inflateEnd(&m_strm); }
  kind what() const override { return kind::gzip; }

 private:
  void restart() override {
    inflateReset(&m_strm);
    m_strm.avail_in = 0;
    m_done = false;
    m_member_started = false;
  }
  std::size_t decode(char* dst, std::size_t n) override {
    if (m_done) return 0;
    m_strm.next_out = reinterpret_cast<Bytef*>(dst);
    m_strm.avail_out = uInt(n);
    while (m_strm.avail_out > 0) {
      if (m_strm.avail_in == 0) {
        std::size_t got = refill();
        if (got == 0) {
          if (m_member_started) throw std::runtime_error("truncated gzip data");
          m_done = true;
          break;
        }
        m_strm.next_in = reinterpret_cast<Bytef*>(m_in.data());
        m_strm.avail_in = uInt(got);
      }
      m_member_started = true;
      int r = inflate(&m_strm, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {
        // Concatenated members (`cat a.gz b.gz`) continue; a clean end is fine.
        inflateReset(&m_strm);
        m_member_started = false;
        continue;
      }
      if (r != Z_OK && r != Z_BUF_ERROR)
        throw std::runtime_error(m_strm.msg ? fmt::format("corrupt gzip data: {}", m_strm.msg)
                                            : std::string("corrupt gzip data"));
    }
    return n - m_strm.avail_out;
  }

  z_stream m_strm;
  bool m_done = false;
  bool m_member_started = false;
};

}  // namespace

std::unique_ptr<byte_source> byte_source::open(const std::string& path) {
  unsigned char magic[6] = {0, 0, 0, 0, 0, 0};
  std::size_t got;
  {
    file_handle f(path);
    got = std::fread(magic, 1, sizeof magic, f.f);
  }
  static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
  if (got == 6 && std::memcmp(magic, xz_magic, 6) == 0) return std::make_unique<xz_source>(path);
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return std::make_unique<gzip_source>(path);
  return std::make_unique<plain_source>(path);
}

line_source::line_source(const std::string& path)
    : m_path(path),
      m_src(byte_source::open(path)),
      m_kind(m_src->what()),
      m_buf(new char[buffer_bytes]),
      m_cap(buffer_bytes) {}

void line_source::release() {
  if (!m_src) return;
  m_buf_offset = offset();
  m_src.reset();
  m_buf.reset();
  m_cap = 0;
  m_pos = m_end = 0;
  m_eof = false;
}

void line_source::reopen() {
  m_src = byte_source::open(m_path);
  m_buf.reset(new char[buffer_bytes]);
  m_cap = buffer_bytes;
  m_pos = m_end = 0;
  m_eof = false;
  if (m_buf_offset != 0) seek_source(m_buf_offset, m_line_no + 1);
}

void line_source::seek_source(std::uint64_t offset, std::uint64_t line_no) {
  try {
    m_src->seek(offset);
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const input_error*>(&e)) throw;
    throw input_error(source_location{m_path, line_no, 0}, "file", e.what());
  }
}

bool line_source::fill() {
  if (m_eof) return false;
  if (m_pos > 0) {
    std::memmove(m_buf.get(), m_buf.get() + m_pos, m_end - m_pos);
    m_buf_offset += m_pos;
    m_end -= m_pos;
    m_pos = 0;
  }
  if (m_end == m_cap) {
    if (m_cap >= max_line_bytes)
      throw input_error(source_location{m_path, m_line_no + 1, 0}, "line",
                        fmt::format("longer than {} bytes", max_line_bytes));
    std::unique_ptr<char[]> bigger(new char[m_cap * 2]);
    std::memcpy(bigger.get(), m_buf.get(), m_end);
    m_buf = std::move(bigger);
    m_cap *= 2;
  }
  std::size_t got;
  try {
    got = m_src->read(m_buf.get() + m_end, m_cap - m_end);
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const input_error*>(&e)) throw;
    const char* field = m_src->what() == byte_source::kind::xz ? "xz data" : "gzip data";
    throw input_error(source_location{m_path, m_line_no + 1, 0}, field, e.what());
  }
  if (got == 0) {
    m_eof = true;
    return false;
  }
  m_end += got;
  return true;
}

bool line_source::next(std::string_view& line) {
  if (!m_src) reopen();
  std::size_t scanned = m_pos;
  for (;;) {
    const char* start = m_buf.get() + scanned;
    auto* nl = static_cast<const char*>(std::memchr(start, '\n', m_end - scanned));
    if (nl) {
      line = std::string_view(m_buf.get() + m_pos, std::size_t(nl - (m_buf.get() + m_pos)));
      m_line_off = m_buf_offset + m_pos;
      m_pos = std::size_t(nl - m_buf.get()) + 1;
      ++m_line_no;
      return true;
    }
    std::size_t pending = m_end - m_pos;
    if (!fill()) {
      if (m_pos == m_end) return false;
      line = std::string_view(m_buf.get() + m_pos, m_end - m_pos);
      m_line_off = m_buf_offset + m_pos;
      m_pos = m_end;
      ++m_line_no;
      return true;
    }
    scanned = m_pos + pending;  // fill() moved the unread bytes to m_pos
  }
}

void line_source::seek(std::uint64_t offset, std::uint64_t line_no) {
  m_line_no = line_no - 1;
  if (!m_src) {
    m_buf_offset = offset;
    reopen();
    return;
  }
  if (offset >= m_buf_offset && offset <= m_buf_offset + m_end) {
    m_pos = std::size_t(offset - m_buf_offset);
    return;
  }
  seek_source(offset, line_no);
  m_buf_offset = offset;
  m_pos = m_end = 0;
  m_eof = false;
}

}  // namespace gputlm::traces
