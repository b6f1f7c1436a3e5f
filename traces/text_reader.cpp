// Accel-Sim text trace reader. The TB index is built lazily: a request for a TB not yet
// indexed scans forward from the furthest point seen (skimming whole TBs, recording each
// `#BEGIN_TB` offset) and stops at the wanted one, so reading in file order never reads a
// line twice, and random order costs one extra skim.
#include "traces/text_reader.h"

#include <fmt/format.h>

#include <filesystem>
#include <unordered_map>

#include "traces/line_source.h"
#include "traces/text_format.h"

namespace gputlm::traces {
namespace {

namespace fs = std::filesystem;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string_view skip_space(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
  return s.substr(i);
}

std::string dims_str(const dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

class text_kernel_reader final : public kernel_reader, private text::unknown_opcode_sink {
 public:
  text_kernel_reader(const std::string& file, const open_options& opts, bool device_launched)
      : kernel_reader(file, opts),
        m_src(file),
        m_parser(m_info, m_opcodes, file, opts.strict, this) {
    read_header();
    m_info.device_launched = device_launched;
    m_src.release();  // reopened at the first TB read (see load_tb)
  }
  ~text_kernel_reader() override { stop_thread(); }

 protected:
  std::shared_ptr<tb_trace> load_tb(std::uint32_t id) override {
    dim3 index;
    bool at_frontier;
    auto it = m_index.find(id);
    if (it != m_index.end()) {
      m_src.seek(it->second.offset, it->second.line);
      std::string_view line;
      m_src.next(line);  // #BEGIN_TB
      index = read_tb_line();
      at_frontier = false;
    } else {
      index = scan_to(id);
      at_frontier = true;
    }
    auto tb = new_tb();
    tb->index = index;
    tb->linear_id = id;
    parse_body(*tb);
    if (at_frontier) {
      m_frontier_off = m_src.offset();
      m_frontier_line = m_src.next_line_no();
    }
    // Once as many TBs have been read as the grid has, the kernel is (most likely) done:
    // its file is closed until a TB is read again, so that only the kernels being read hold
    // a file descriptor and a buffer.
    if (++m_loads >= tb_count()) m_src.release();
    return tb;
  }

 private:
  struct tb_pos {
    std::uint64_t offset, line;
  };

  source_location here(std::uint64_t col = 0) const {
    return source_location{m_src.path(), m_src.line_no(), col};
  }
  source_location at_eof() const { return source_location{m_src.path(), m_src.line_no() + 1, 0}; }

  void unknown(std::uint16_t opcode, const source_location& where) override {
    note_unknown(opcode, where);
  }

  void read_header() {
    std::string_view line;
    bool any_key = false;
    for (;;) {
      std::uint64_t off = m_src.offset(), no = m_src.next_line_no();
      if (!m_src.next(line)) {
        m_frontier_off = off;
        m_frontier_line = no;
        break;
      }
      std::string_view t = text::trim(line);
      if (t.empty()) continue;
      if (t[0] == '-') {
        text::parse_header_line(t, m_info, here());
        any_key = true;
        continue;
      }
      if (starts_with(t, "#BEGIN_TB")) {
        m_frontier_off = off;
        m_frontier_line = no;
        break;
      }
      if (t[0] == '#') continue;
      throw input_error(
          here(), "header",
          fmt::format("expected `-<key> = <value>` or #BEGIN_TB, got '{}'", t.substr(0, 40)));
    }
    if (!any_key)
      throw input_error(source_location{m_src.path(), 1, 0}, "header",
                        "no `-key = value` lines: not an Accel-Sim kernel trace");
    if (m_info.tracer_version == 0) m_info.tracer_version = 3;  // older tracers omit the key
    text::check_header(m_info, source_location{m_src.path(), 1, 0});
    m_opcodes = opcode_table(m_info.binary_version);
  }

  // After a #BEGIN_TB line: the `thread block = x,y,z` line.
  dim3 read_tb_line() {
    std::string_view line;
    do {
      if (!m_src.next(line))
        throw input_error(at_eof(), "thread block", "file ends after #BEGIN_TB");
    } while (text::trim(line).empty());
    dim3 d = text::parse_tb_line(line, here());
    if (d.x >= m_info.grid.x || d.y >= m_info.grid.y || d.z >= m_info.grid.z)
      throw input_error(
          here(), "thread block",
          fmt::format("{} is outside the grid {}", dims_str(d), dims_str(m_info.grid)));
    return d;
  }

  std::uint32_t linear(const dim3& d) const {
    return std::uint32_t(d.x + std::uint64_t(d.y) * m_info.grid.x +
                         std::uint64_t(d.z) * m_info.grid.x * m_info.grid.y);
  }

  // Scans from the frontier, indexing TBs, until TB `id` begins; leaves the source just
  // after its `thread block` line.
  dim3 scan_to(std::uint32_t id) {
    m_src.seek(m_frontier_off, m_frontier_line);
    std::string_view line;
    for (;;) {
      if (!m_src.next(line)) {
        dim3 want{std::uint32_t(id % m_info.grid.x),
                  std::uint32_t(id / m_info.grid.x % m_info.grid.y),
                  std::uint32_t(id / m_info.grid.x / m_info.grid.y)};
        throw input_error(
            source_location{m_src.path(), 0, 0}, "thread block",
            fmt::format("thread block {} (linear id {}) is not in the trace", dims_str(want), id));
      }
      std::string_view t = text::trim(line);
      if (t.empty()) continue;
      if (starts_with(t, "#BEGIN_TB")) {
        tb_pos pos{m_src.line_offset(), m_src.line_no()};
        dim3 d = read_tb_line();
        std::uint32_t lin = linear(d);
        auto [it, fresh] = m_index.emplace(lin, pos);
        if (!fresh && it->second.offset != pos.offset)
          throw input_error(
              here(), "thread block",
              fmt::format("{} appears twice (first at line {})", dims_str(d), it->second.line));
        if (lin == id) return d;
        skim_body(d);
        m_frontier_off = m_src.offset();
        m_frontier_line = m_src.next_line_no();
        continue;
      }
      if (t[0] == '#') continue;
      throw input_error(here(), "#BEGIN_TB",
                        fmt::format("expected #BEGIN_TB, got '{}'", t.substr(0, 40)));
    }
  }

  void skim_body(const dim3& d) {
    std::string_view line;
    for (;;) {
      if (!m_src.next(line))
        throw input_error(at_eof(), "#END_TB",
                          fmt::format("file ends inside thread block {}", dims_str(d)));
      std::string_view t = skip_space(line);
      if (t.empty() || t[0] != '#') continue;
      if (starts_with(t, "#END_TB")) return;
      if (starts_with(t, "#BEGIN_TB"))
        throw input_error(
            here(), "#END_TB",
            fmt::format("#BEGIN_TB before the #END_TB of thread block {}", dims_str(d)));
    }
  }

  void parse_body(tb_trace& tb) {
    const std::uint64_t nwarps = (m_info.block.count() + 31) / 32;
    tb.warps.resize(nwarps);
    std::vector<bool> seen(nwarps, false);
    std::string_view line;
    auto next_nonblank = [&](const char* field) {
      for (;;) {
        if (!m_src.next(line))
          throw input_error(at_eof(), field,
                            fmt::format("file ends inside thread block {}", dims_str(tb.index)));
        std::string_view t = skip_space(line);
        if (!t.empty()) return t;
      }
    };
    for (;;) {
      std::string_view t = next_nonblank("#END_TB");
      if (starts_with(t, "#END_TB")) return;
      if (t[0] == '#' && !starts_with(t, "#BEGIN_TB")) continue;  // a comment
      std::uint64_t wid;
      if (!text::parse_count_line(t, "warp", wid, here())) {
        if (starts_with(t, "#BEGIN_TB"))
          throw input_error(
              here(), "#END_TB",
              fmt::format("#BEGIN_TB before the #END_TB of thread block {}", dims_str(tb.index)));
        throw input_error(
            here(), "warp",
            fmt::format("expected `warp = <n>` or #END_TB, got '{}'", text::trim(t).substr(0, 40)));
      }
      if (wid >= nwarps)
        throw input_error(here(), "warp",
                          fmt::format("warp {} outside the {} warps of block dim {}", wid, nwarps,
                                      dims_str(m_info.block)));
      if (seen[wid])
        throw input_error(here(), "warp", fmt::format("warp {} appears twice in the TB", wid));
      seen[wid] = true;
      std::uint64_t count;
      t = next_nonblank("insts");
      if (!text::parse_count_line(t, "insts", count, here()))
        throw input_error(here(), "insts",
                          fmt::format("expected `insts = <n>` after `warp = {}`", wid));
      source_location insts_at = here();
      warp_trace& w = tb.warps[wid];
      w.insts.reserve(std::size_t(std::min<std::uint64_t>(count, 4096)));
      for (std::uint64_t i = 0; i < count; ++i) {
        std::string_view s;
        for (;;) {
          if (!m_src.next(line))
            throw input_error(at_eof(), "insts",
                              fmt::format("file ends after {} of the {} instructions of warp {} "
                                          "(thread block {})",
                                          i, count, wid, dims_str(tb.index)));
          s = skip_space(line);
          if (!s.empty()) break;
        }
        if (!is_hex_digit(s[0]))
          throw input_error(insts_at, "insts",
                            fmt::format("declares {} instructions but warp {} has {} (line {} "
                                        "is not an instruction)",
                                        count, wid, i, m_src.line_no()));
        m_parser.parse(line, m_src.line_no(), w);
      }
    }
  }

  line_source m_src;
  std::uint64_t m_loads = 0;  // TBs read so far (a TB read twice counts twice)
  text::instruction_parser m_parser;
  std::unordered_map<std::uint32_t, tb_pos> m_index;
  std::uint64_t m_frontier_off = 0, m_frontier_line = 1;
};

class text_application final : public application_trace {
 public:
  text_application(const std::string& list, const open_options& opts)
      : application_trace(list, format::text, opts) {
    fs::path dir = fs::path(list).parent_path();
    std::string name = fs::path(list).filename().string();
    if (name.find(".traceg") != std::string::npos) {  // one kernel file on its own
      command c;
      c.kernel_file = name;
      m_commands.push_back(c);
      m_paths.push_back(list);
      return;
    }
    line_source src(list);
    std::string_view line;
    while (src.next(line)) {
      std::string_view t = text::trim(line);
      if (!t.empty() && t[0] == '#') {
        t.remove_prefix(1);
        if (!t.empty() && t[0] == ' ') t.remove_prefix(1);
        m_notes.emplace_back(t);
        continue;
      }
      if (t.empty()) continue;
      source_location where{list, src.line_no(), 0};
      command c;
      if (starts_with(t, "MemcpyHtoD")) {
        c.what = command::kind::memcpy_h2d;
        parse_memcpy(t, where, c);
      } else {
        std::string_view name = t;
        if (starts_with(t, "DeviceKernel")) {
          std::size_t comma = t.find(',');
          if (comma == std::string_view::npos)
            throw input_error(where, "DeviceKernel", "expected DeviceKernel,<kernel file>");
          name = text::trim(t.substr(comma + 1));
          c.what = command::kind::device_kernel;
        } else {
          c.what = command::kind::kernel_launch;
        }
        if (name.find(".traceg") == std::string_view::npos || name.find(',') != name.npos)
          throw input_error(where, "command",
                            fmt::format("expected MemcpyHtoD,<addr>,<bytes>, DeviceKernel,<file> "
                                        "or a kernel-N.traceg file name, got '{}'",
                                        t.substr(0, 60)));
        c.kernel_file = std::string(name);
        fs::path p = resolve(dir, c.kernel_file);
        if (p.empty())
          throw input_error(where, "kernel file",
                            fmt::format("{}: no such file in {}", c.kernel_file,
                                        dir.empty() ? std::string(".") : dir.string()));
        m_paths.push_back(p.string());
      }
      if (c.what == command::kind::memcpy_h2d) m_paths.emplace_back();
      m_commands.push_back(std::move(c));
    }
  }

 protected:
  std::unique_ptr<kernel_reader> open_kernel(std::size_t i) override {
    return std::make_unique<text_kernel_reader>(m_paths[i], m_opts,
                                                m_commands[i].what == command::kind::device_kernel);
  }

 private:
  // The file, or its .xz/.gz sibling when only the compressed one is there.
  static fs::path resolve(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    for (const char* ext : {"", ".xz", ".gz"}) {
      fs::path p = dir / (name + ext);
      if (fs::is_regular_file(p, ec)) return p;
    }
    return {};
  }

  static void parse_memcpy(std::string_view t, const source_location& where, command& c) {
    std::size_t a = t.find(',');
    std::size_t b = a == t.npos ? t.npos : t.find(',', a + 1);
    if (b == t.npos || t.find(',', b + 1) != t.npos)
      throw input_error(where, "MemcpyHtoD", "expected MemcpyHtoD,<hex address>,<bytes>");
    std::string addr(text::trim(t.substr(a + 1, b - a - 1)));
    std::string bytes(text::trim(t.substr(b + 1)));
    char* end = nullptr;
    errno = 0;
    c.addr = std::strtoull(addr.c_str(), &end, 16);
    if (addr.empty() || *end || errno || addr[0] == '-' || addr[0] == '+')
      throw input_error(where, "MemcpyHtoD address", fmt::format("bad hex number '{}'", addr));
    errno = 0;
    c.bytes = std::strtoull(bytes.c_str(), &end, 10);
    if (bytes.empty() || *end || errno || bytes[0] == '-' || bytes[0] == '+')
      throw input_error(where, "MemcpyHtoD bytes", fmt::format("bad decimal number '{}'", bytes));
  }

  std::vector<std::string> m_paths;  // per command; empty for memcpy
};

}  // namespace

std::unique_ptr<application_trace> open_text_trace(const std::string& list,
                                                   const open_options& opts) {
  return std::make_unique<text_application>(list, opts);
}

std::unique_ptr<kernel_reader> open_text_kernel(const std::string& file, const open_options& opts) {
  return std::make_unique<text_kernel_reader>(file, opts, false);
}

}  // namespace gputlm::traces
