// Accel-Sim text writer: kernelslist.g plus one kernel-<id>.traceg per kernel, in the
// layout the NVBit tracer's post-processor produces (docs/traces.md). Files are written
// under temporary names and renamed by finish(), kernelslist.g last.
#include "traces/trace_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "traces/text_format.h"

namespace gputlm::traces {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const fs::path& p, const char* what) {
  throw std::runtime_error(fmt::format("{}: {}: {}", p.string(), what, std::strerror(errno)));
}

class text_writer final : public trace_writer {
 public:
  explicit text_writer(const std::string& dir) : m_dir(dir) {
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (!fs::is_directory(m_dir))
      throw std::runtime_error(fmt::format("{}: cannot create trace directory", dir));
  }

  ~text_writer() override {
    if (m_file) std::fclose(m_file);
    if (!m_finished) {
      std::error_code ec;
      for (auto& p : m_pending) fs::remove(p.first, ec);
    }
  }

  void note(const std::string& text) override {
    check_note(text);
    m_list += "# " + text + "\n";
  }

  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) override {
    m_list += fmt::format("MemcpyHtoD,0x{:016x},{}\n", addr, bytes);
  }

  void begin_kernel(const kernel_info& info) override {
    if (m_file) throw std::logic_error("trace_writer: begin_kernel inside a kernel");
    m_info = info;
    if (m_info.tracer_version == 0) m_info.tracer_version = 3;
    // kernel-<id>.traceg as the tracer names it; a repeated id gets a suffix.
    std::string name = fmt::format("kernel-{}.traceg", info.id);
    for (int n = 2; !m_names.insert(name).second; ++n)
      name = fmt::format("kernel-{}-{}.traceg", info.id, n);
    fs::path final_path = m_dir / name;
    fs::path tmp = m_dir / (name + ".partial");
    m_file = std::fopen(tmp.c_str(), "wb");
    if (!m_file) io_error(tmp, "cannot create");
    m_pending.emplace_back(tmp, final_path);
    m_list += info.device_launched ? "DeviceKernel," + name + "\n" : name + "\n";
    m_buf.clear();
    text::format_header(m_buf, m_info);
  }

  void write_tb(const tb_trace& tb, const opcode_table& opcodes) override {
    if (!m_file) throw std::logic_error("trace_writer: write_tb outside a kernel");
    text::format_tb(m_buf, tb, opcodes, m_info);
    if (m_buf.size() >= (1u << 20)) flush();
  }

  void end_kernel() override {
    if (!m_file) throw std::logic_error("trace_writer: end_kernel without begin_kernel");
    flush();
    FILE* f = std::exchange(m_file, nullptr);
    if (std::fclose(f) != 0) io_error(m_pending.back().first, "write failed");
  }

  void finish() override {
    if (m_file) end_kernel();
    for (auto& p : m_pending) {
      std::error_code ec;
      fs::rename(p.first, p.second, ec);
      if (ec)
        throw std::runtime_error(
            fmt::format("{}: cannot rename: {}", p.second.string(), ec.message()));
    }
    fs::path list = m_dir / "kernelslist.g";
    fs::path tmp = m_dir / "kernelslist.g.partial";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) io_error(tmp, "cannot create");
    bool ok = std::fwrite(m_list.data(), 1, m_list.size(), f) == m_list.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok) io_error(tmp, "write failed");
    std::error_code ec;
    fs::rename(tmp, list, ec);
    if (ec)
      throw std::runtime_error(fmt::format("{}: cannot rename: {}", list.string(), ec.message()));
    m_finished = true;
  }

 private:
  void flush() {
    if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
      io_error(m_pending.back().first, "write failed");
    m_buf.clear();
  }

  fs::path m_dir;
  std::string m_list;
  std::vector<std::pair<fs::path, fs::path>> m_pending;  // temporary -> final
  std::set<std::string> m_names;
  FILE* m_file = nullptr;
  kernel_info m_info;
  std::string m_buf;
  bool m_finished = false;
};

}  // namespace

void check_note(const std::string& text) {
  if (text.find_first_of("\r\n") != std::string::npos)
    throw std::logic_error("trace_writer: a note is one line");
}

std::unique_ptr<trace_writer> make_text_writer(const std::string& dir) {
  return std::make_unique<text_writer>(dir);
}

}  // namespace gputlm::traces
