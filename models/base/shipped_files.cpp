// The shipped files' folder: the installed tree beside the running binary, or the source tree.
#include "models/base/shipped_files.h"

#include <system_error>

namespace gputlm {

std::filesystem::path shipped_root() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "gputlm";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return fs::path(GPUTLM_SOURCE_DIR);
}

std::filesystem::path shipped_file(const std::string& relative) {
  return shipped_root() / relative;
}

}  // namespace gputlm
