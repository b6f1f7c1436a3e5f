// Reading whole applications: Accel-Sim text traces (kernelslist.g + kernel-N.traceg, plain,
// .xz or .gz) and the gputlm binary form, behind one interface. Streaming with bounded
// memory, like DRAMSys's StlPlayer: a kernel is never loaded whole; a reader thread parses
// thread blocks ahead into a bounded buffer, in the order the TB scheduler announces with
// prefetch(), while read_tb() gives random access by linear TB id. See docs/traces.md.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "models/base/input_error.h"
#include "traces/opcode_table.h"
#include "traces/trace_types.h"

namespace gputlm::traces {

// An opcode the classifier does not know: reported once per kernel, counted every time.
struct unknown_opcode {
  std::string mnemonic;
  source_location first_seen;  // text: file:line:column; binary: file and block
  std::uint64_t count = 0;     // dynamic occurrences in the TBs decoded so far
};

struct open_options {
  // An unknown opcode is an input_error instead of a counted `other` instruction.
  bool strict = false;
  // TBs parsed ahead on the reader thread (per open kernel). 0: no thread, read_tb() parses
  // on the caller's thread.
  std::size_t read_ahead = 32;
  // Binary traces: verify each block's checksum before decoding (off only for fuzzing).
  bool verify_checksums = true;
  // Called once per kernel and unknown mnemonic, on the thread that decoded it.
  std::function<void(const unknown_opcode&)> on_unknown_opcode;
};

class kernel_reader {
 public:
  virtual ~kernel_reader();
  kernel_reader(const kernel_reader&) = delete;
  kernel_reader& operator=(const kernel_reader&) = delete;

  const kernel_info& info() const { return m_info; }
  // Number of TBs in the grid; linear ids are 0 .. tb_count()-1.
  std::uint64_t tb_count() const { return m_info.grid.count(); }
  // The TB with this linear id (x + y*gx + z*gx*gy), in any order. Throws input_error if the
  // trace is bad or lacks the TB, std::out_of_range if id >= tb_count(). One consumer thread.
  std::shared_ptr<const tb_trace> read_tb(std::uint32_t linear_id);
  // The order read_tb() will probably be called in; the reader thread parses ahead along it.
  // Default: 0, 1, 2, ... Replaces the previous order and drops TBs parsed ahead.
  void prefetch(std::vector<std::uint32_t> order);
  // Starts parsing ahead along the order now instead of at the first read_tb(), so that
  // the first TBs are ready when the simulation asks (`gputlm run` calls it for the first
  // kernel before it starts the simulation, the KMU for each queue's next kernel). Nothing
  // happens without a reader thread, or with one already at work.
  void read_ahead();
  // Mnemonics of this kernel's instructions (warp_instruction::opcode indexes it). Grows
  // while TBs are decoded; ids already handed out stay valid.
  const opcode_table& opcodes() const { return m_opcodes; }
  std::vector<unknown_opcode> unknown_opcodes() const;
  // The file this kernel is read from.
  const std::string& source() const { return m_source; }

 protected:
  kernel_reader(std::string source, const open_options& opts);
  // Decodes one TB; runs on the reader thread (or the caller's when read_ahead == 0), one
  // call at a time. The TB comes from new_tb().
  virtual std::shared_ptr<tb_trace> load_tb(std::uint32_t linear_id) = 0;
  // An empty TB whose memory goes back through the reader thread: when the consumer drops
  // the last reference, the TB is queued, and the reader thread frees it the next time it
  // works (its blocks were allocated on that thread; freeing them there spares the
  // consumer's thread the allocator's cross-thread path). Without a reader thread, or once
  // the reader is gone, it is freed at once.
  std::shared_ptr<tb_trace> new_tb();
  // For subclasses reporting unknown opcodes (any thread, one at a time).
  void note_unknown(std::uint16_t opcode, const source_location& where);
  // Must be called by the most-derived destructor before members go away.
  void stop_thread();

  kernel_info m_info;
  opcode_table m_opcodes;
  open_options m_opts;

 private:
  struct result {
    std::shared_ptr<tb_trace> tb;
    std::exception_ptr error;
  };
  // TBs the consumer is done with, for the reader thread to free (see new_tb()).
  struct graveyard {
    std::mutex mutex;
    std::vector<tb_trace*> dead;
    bool direct = false;  // no reader thread to free them (any more): free at once
    void bury(tb_trace* tb);
    void clear();  // frees the queued TBs
    void set_direct(bool d) {
      std::lock_guard<std::mutex> g(mutex);
      direct = d;
    }
  };
  void worker();
  void start_worker_locked(std::unique_lock<std::mutex>& lock);
  bool next_prefetch_locked(std::uint32_t& id);
  result load_caught(std::uint32_t id);

  std::string m_source;
  std::shared_ptr<graveyard> m_graveyard = std::make_shared<graveyard>();

  std::mutex m_load_mutex;  // read_ahead == 0: serialises load_tb
  mutable std::mutex m_mutex;
  std::condition_variable m_cv_work;   // the reader thread waits for room or a request
  std::condition_variable m_cv_ready;  // read_tb() waits for its TB
  std::thread m_thread;
  bool m_running = false;
  bool m_no_thread = false;  // the system refused a reader thread: read_tb() reads itself
  bool m_stop = false;
  std::vector<std::uint32_t> m_order;  // empty and m_identity: 0, 1, 2, ...
  bool m_identity = true;
  std::uint64_t m_next = 0;  // position in the order of the next TB to parse
  std::unordered_map<std::uint32_t, result> m_ready;
  std::unordered_set<std::uint32_t> m_taken_early;  // consumed before the prefetcher got there
  bool m_full = false;                              // buffer filled: wait until half of it is taken
  bool m_urgent = false;
  std::uint32_t m_urgent_id = 0;
  bool m_loading = false;
  std::uint32_t m_loading_id = 0;

  mutable std::mutex m_unknown_mutex;
  std::map<std::uint16_t, unknown_opcode> m_unknown;
};

class application_trace {
 public:
  enum class format { text, binary };
  virtual ~application_trace() = default;

  const std::vector<command>& commands() const { return m_commands; }
  // Notes on the application (trace_writer::note), in order: text, the `#` comment lines of
  // kernelslist.g without the `#` and one following space; binary, the directory's notes.
  const std::vector<std::string>& notes() const { return m_notes; }
  // The kernel launched by commands()[command_index]; opened on first use. Throws
  // std::out_of_range for an index that is not a kernel command.
  kernel_reader& kernel(std::size_t command_index);
  // The kernel named `kernel_file` in kernelslist.g (e.g. "kernel-3.traceg").
  kernel_reader& kernel(const std::string& kernel_file);
  // Closes a kernel's reader (its file and thread); kernel() reopens it.
  void release(std::size_t command_index);
  format what() const { return m_format; }
  const std::string& path() const { return m_path; }

 protected:
  application_trace(std::string path, format f, const open_options& opts)
      : m_path(std::move(path)), m_format(f), m_opts(opts) {}
  virtual std::unique_ptr<kernel_reader> open_kernel(std::size_t command_index) = 0;

  std::string m_path;
  format m_format;
  open_options m_opts;
  std::vector<command> m_commands;
  std::vector<std::string> m_notes;

 private:
  std::mutex m_mutex;
  std::map<std::size_t, std::unique_ptr<kernel_reader>> m_open;
};

// `path` is a directory holding kernelslist.g, a kernelslist.g file, or a gputlm binary
// trace (recognised by its magic). Throws input_error for anything unreadable.
std::unique_ptr<application_trace> open_trace(const std::string& path,
                                              const open_options& opts = {});

// True if `path` is a file starting with the gputlm binary magic.
bool is_binary_trace(const std::string& path);

}  // namespace gputlm::traces
