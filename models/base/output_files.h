// The files a command writes (statistics, waveforms, graphs): checked before any work is
// done, written through a `.partial` name and renamed when complete, and removed if the
// process is interrupted (SIGINT, SIGTERM) so that nothing half-written is left behind.
#pragma once

#include <signal.h>

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gputlm {

// Each output (option, path) must name a file, not a directory, in an existing directory
// the process may write; no two outputs may name the same file, and none may name an input
// (a file, or a file inside an input directory). Paths are compared after resolving `.`,
// `..` and symbolic links. Throws input_error naming the option.
void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::string>& inputs);

// An output folder (option, path), checked before any work: an existing directory, or one
// that can be made (its nearest existing ancestor a directory the process may write); not
// an input, not inside an input directory, and not holding an input (paths resolved as
// above). Throws input_error naming the option.
void check_output_folder(const std::string& option, const std::string& path,
                         const std::vector<std::string>& inputs);

// Writes `content` to `path` through `path.partial` (registered below) and a rename, so that
// a failed or interrupted write never leaves a half-written output; throws input_error
// naming the path when it cannot.
void write_file_atomically(const std::string& path, const std::string& content);
// The same with the content written by `write` (large files are not built in memory).
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);

// The whole content of a file written earlier ("" when it cannot be read: the caller
// tells a missing file by what it expected in it).
std::string read_file_text(const std::string& path);

// A `.partial` file being written: removed by the interrupt handler. Registration is
// cheap; at most 16 files at once (more are not removed on interrupt).
void register_partial(const std::string& path);
void unregister_partial(const std::string& path);

// A staging folder of plain files being filled (one at a time): removed with its files by
// the interrupt handler.
void register_partial_folder(const std::string& path);
void unregister_partial_folder();

// SIGINT and SIGTERM held (delivered when it ends) while a set of outputs is made or moved
// into place together, so that an interrupt finds all of it or none.
class interrupts_held {
 public:
  interrupts_held();
  ~interrupts_held();
  interrupts_held(const interrupts_held&) = delete;
  interrupts_held& operator=(const interrupts_held&) = delete;

 private:
  sigset_t m_old;
};

// SIGINT and SIGTERM: remove the registered `.partial` files, print one line on stderr and
// exit with 128 + the signal number.
void install_interrupt_handlers();

}  // namespace gputlm
