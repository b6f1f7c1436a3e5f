// Read-ahead machinery shared by the text and binary kernel readers, the application
// wrapper, and format detection for open_trace().
#include "traces/trace_reader.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "traces/binary_format.h"
#include "traces/text_reader.h"

namespace gputlm::traces {

// ---------------------------------------------------------------- kernel_reader

namespace {
// Reader threads whose worker has returned, not yet joined: an unjoined thread keeps its
// stack mapped (8 MiB of address space), and a run may start a worker for each of tens of
// thousands of kernels. A worker ending puts its own handle here; the next worker started
// by any reader, and every reader's destruction, joins them.
std::mutex g_finished_mutex;
std::vector<std::thread> g_finished;

void join_finished() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> g(g_finished_mutex);
    done.swap(g_finished);
  }
  for (std::thread& t : done) t.join();
}
}  // namespace

kernel_reader::kernel_reader(std::string source, const open_options& opts)
    : m_opts(opts), m_source(std::move(source)) {
  m_graveyard->direct = m_opts.read_ahead == 0;
}

kernel_reader::~kernel_reader() {
  stop_thread();
  // TBs still held by the consumer are freed where they are dropped from now on.
  m_graveyard->set_direct(true);
  m_graveyard->clear();
}

void kernel_reader::graveyard::bury(tb_trace* tb) {
  {
    std::lock_guard<std::mutex> g(mutex);
    if (!direct) {
      dead.push_back(tb);
      return;
    }
  }
  delete tb;
}

void kernel_reader::graveyard::clear() {
  std::vector<tb_trace*> batch;
  {
    std::lock_guard<std::mutex> g(mutex);
    batch.swap(dead);
  }
  for (tb_trace* tb : batch) delete tb;
  // The batch's own buffer is freed here too; the next one grows again on the consumer's
  // side, so keep one of the usual size.
  std::lock_guard<std::mutex> g(mutex);
  if (dead.capacity() < batch.capacity()) dead.reserve(batch.capacity());
}

std::shared_ptr<tb_trace> kernel_reader::new_tb() {
  return std::shared_ptr<tb_trace>(new tb_trace, [g = m_graveyard](tb_trace* tb) { g->bury(tb); });
}

void kernel_reader::stop_thread() {
  {
    std::lock_guard<std::mutex> g(m_mutex);
    m_stop = true;
  }
  m_cv_work.notify_all();
  m_cv_ready.notify_all();
  if (m_thread.joinable()) m_thread.join();
  join_finished();  // (this reader's worker, if it ended on its own, is among them)
}

kernel_reader::result kernel_reader::load_caught(std::uint32_t id) {
  result r;
  try {
    r.tb = load_tb(id);
  } catch (...) {
    r.error = std::current_exception();
  }
  return r;
}

void kernel_reader::start_worker_locked(std::unique_lock<std::mutex>&) {
  if (m_running || m_stop || m_no_thread) return;
  join_finished();
  m_running = true;
  m_graveyard->set_direct(false);  // TBs dropped from now on are freed by the worker
  try {
    m_thread = std::thread([this] { worker(); });
  } catch (const std::system_error&) {  // out of threads: read on the caller's thread
    m_running = false;
    m_no_thread = true;
    m_graveyard->set_direct(true);
  }
}

bool kernel_reader::next_prefetch_locked(std::uint32_t& id) {
  for (;;) {
    std::uint64_t n = m_identity ? tb_count() : m_order.size();
    if (m_next >= n) return false;
    id = m_identity ? std::uint32_t(m_next) : m_order[m_next];
    ++m_next;
    if (m_taken_early.erase(id) || m_ready.count(id)) continue;
    return true;
  }
}

void kernel_reader::worker() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_stop) {
    std::uint32_t id = 0;
    bool urgent = false;
    if (m_urgent) {
      m_urgent = false;
      id = m_urgent_id;
      if (m_ready.count(id)) continue;
      urgent = true;
    } else if (m_ready.size() >= m_opts.read_ahead ||
               (m_full && m_ready.size() > m_opts.read_ahead / 2)) {
      // Full: refill once half has been taken, not after every read_tb().
      m_full = true;
      m_cv_work.wait(lock);
      continue;
    } else if (!next_prefetch_locked(id)) {
      break;  // nothing left to read ahead: the thread ends, read_tb() restarts it
    } else {
      m_full = false;
    }
    m_loading = true;
    m_loading_id = id;
    lock.unlock();
    m_graveyard->clear();
    result r = load_caught(id);
    lock.lock();
    m_loading = false;
    if (urgent) m_taken_early.insert(id);
    m_ready[id] = std::move(r);
    m_cv_ready.notify_all();
  }
  m_running = false;
  // Out of work: TBs dropped from now on are freed where they are dropped, and those
  // already queued now (a reader whose kernel is done would otherwise hold them all).
  m_graveyard->set_direct(true);
  m_graveyard->clear();
  if (!m_stop) {  // ended on its own: the next worker started (or the destructor) joins it
    std::lock_guard<std::mutex> g(g_finished_mutex);
    g_finished.push_back(std::move(m_thread));
  }
  m_cv_ready.notify_all();
}

std::shared_ptr<const tb_trace> kernel_reader::read_tb(std::uint32_t linear_id) {
  if (linear_id >= tb_count())
    throw std::out_of_range(
        fmt::format("{}: TB {} outside the grid of {} TBs", m_source, linear_id, tb_count()));
  if (m_opts.read_ahead == 0) {
    std::lock_guard<std::mutex> g(m_load_mutex);
    return load_tb(linear_id);
  }
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    auto it = m_ready.find(linear_id);
    if (it != m_ready.end()) {
      result r = std::move(it->second);
      m_ready.erase(it);
      if (m_ready.size() <= m_opts.read_ahead / 2) m_cv_work.notify_one();
      if (r.error) std::rethrow_exception(r.error);
      return r.tb;
    }
    if (!(m_loading && m_loading_id == linear_id)) {
      m_urgent = true;
      m_urgent_id = linear_id;
      m_cv_work.notify_one();
    }
    start_worker_locked(lock);
    if (!m_running && m_no_thread) {  // no reader thread could be started: read it here
      m_urgent = false;
      lock.unlock();
      std::lock_guard<std::mutex> g(m_load_mutex);
      result r = load_caught(linear_id);
      if (r.error) std::rethrow_exception(r.error);
      return r.tb;
    }
    m_cv_ready.wait(lock);
  }
}

void kernel_reader::prefetch(std::vector<std::uint32_t> order) {
  for (std::uint32_t id : order)
    if (id >= tb_count())
      throw std::out_of_range(fmt::format("{}: prefetch of TB {} outside the grid of {} TBs",
                                          m_source, id, tb_count()));
  if (m_opts.read_ahead == 0) return;
  std::unique_lock<std::mutex> lock(m_mutex);
  m_order = std::move(order);
  m_identity = false;
  m_next = 0;
  m_ready.clear();
  m_taken_early.clear();
  m_full = false;
  start_worker_locked(lock);
  m_cv_work.notify_one();
}

void kernel_reader::read_ahead() {
  if (m_opts.read_ahead == 0) return;
  std::unique_lock<std::mutex> lock(m_mutex);
  start_worker_locked(lock);
}

void kernel_reader::note_unknown(std::uint16_t opcode, const source_location& where) {
  std::lock_guard<std::mutex> g(m_unknown_mutex);
  auto it = m_unknown.find(opcode);
  if (it != m_unknown.end()) {
    ++it->second.count;
    return;
  }
  unknown_opcode u{m_opcodes[opcode].mnemonic, where, 1};
  m_unknown.emplace(opcode, u);
  if (m_opts.on_unknown_opcode) m_opts.on_unknown_opcode(u);
}

std::vector<unknown_opcode> kernel_reader::unknown_opcodes() const {
  std::lock_guard<std::mutex> g(m_unknown_mutex);
  std::vector<unknown_opcode> out;
  for (auto& kv : m_unknown) out.push_back(kv.second);
  return out;
}

// ---------------------------------------------------------------- application_trace

kernel_reader& application_trace::kernel(std::size_t command_index) {
  if (command_index >= m_commands.size() ||
      m_commands[command_index].what == command::kind::memcpy_h2d)
    throw std::out_of_range(
        fmt::format("{}: command {} is not a kernel launch", m_path, command_index));
  std::lock_guard<std::mutex> g(m_mutex);
  auto& slot = m_open[command_index];
  if (!slot) slot = open_kernel(command_index);
  return *slot;
}

kernel_reader& application_trace::kernel(const std::string& kernel_file) {
  for (std::size_t i = 0; i < m_commands.size(); ++i)
    if (m_commands[i].what != command::kind::memcpy_h2d && m_commands[i].kernel_file == kernel_file)
      return kernel(i);
  throw std::out_of_range(fmt::format("{}: no kernel named '{}'", m_path, kernel_file));
}

void application_trace::release(std::size_t command_index) {
  std::unique_ptr<kernel_reader> doomed;
  std::lock_guard<std::mutex> g(m_mutex);
  auto it = m_open.find(command_index);
  if (it == m_open.end()) return;
  doomed = std::move(it->second);
  m_open.erase(it);
}

// ---------------------------------------------------------------- open_trace

bool is_binary_trace(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[sizeof binary::magic];
  bool yes = std::fread(magic, 1, sizeof magic, f) == sizeof magic &&
             std::memcmp(magic, binary::magic, sizeof magic) == 0;
  std::fclose(f);
  return yes;
}

std::unique_ptr<application_trace> open_trace(const std::string& path, const open_options& opts) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    fs::path list = fs::path(path) / "kernelslist.g";
    if (!fs::exists(list, ec))
      throw input_error(source_location{path, 0, 0}, "trace", "directory has no kernelslist.g");
    return open_text_trace(list.string(), opts);
  }
  if (!fs::exists(path, ec))
    throw input_error(source_location{path, 0, 0}, "trace", "no such file or directory");
  // A .gtb file is binary even with a damaged magic, so that the error says so.
  bool gtb = path.size() > 4 && path.compare(path.size() - 4, 4, ".gtb") == 0;
  if (gtb || is_binary_trace(path)) return open_binary_trace(path, opts);
  return open_text_trace(path, opts);
}

}  // namespace gputlm::traces
