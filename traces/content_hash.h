// Content keys for caches: an XXH3 128-bit hash (libxxhash) of strings, files and trace
// directories. The experiment runner keys generated workloads and finished points by the
// content of every input (docs/experiments.md, "Caching"), never by names or dates.
#pragma once

#include <string>
#include <string_view>

struct XXH3_state_s;

namespace gputlm::traces {

class content_hasher {
 public:
  content_hasher();
  ~content_hasher();
  content_hasher(const content_hasher&) = delete;
  content_hasher& operator=(const content_hasher&) = delete;

  // A string, length-prefixed (so that "ab"+"c" and "a"+"bc" differ).
  content_hasher& add(std::string_view s);
  // A file's bytes; throws input_error when it cannot be read.
  content_hasher& add_file(const std::string& path);
  // A file, or every regular file under a directory (relative names and contents, in name
  // order): a trace directory's kernelslist.g and kernel files.
  content_hasher& add_tree(const std::string& path);
  // 32 lower-case hex digits.
  std::string hex() const;

 private:
  XXH3_state_s* m_state;
};

// The hash of one file's contents, as hex.
std::string hash_of_file(const std::string& path);

}  // namespace gputlm::traces
