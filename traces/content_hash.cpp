#include "traces/content_hash.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <new>
#include <vector>

#include "models/base/input_error.h"

namespace gputlm::traces {

namespace fs = std::filesystem;

content_hasher::content_hasher() : m_state(XXH3_createState()) {
  if (!m_state) throw std::bad_alloc();
  XXH3_128bits_reset(m_state);
}

content_hasher::~content_hasher() { XXH3_freeState(m_state); }

content_hasher& content_hasher::add(std::string_view s) {
  const std::uint64_t n = s.size();
  XXH3_128bits_update(m_state, &n, sizeof n);
  XXH3_128bits_update(m_state, s.data(), s.size());
  return *this;
}

content_hasher& content_hasher::add_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error({path, 0, 0}, "", "cannot read file");
  std::vector<char> buf(1 << 20);
  std::uint64_t total = 0;
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    XXH3_128bits_update(m_state, buf.data(), got);
    total += got;
  }
  if (in.bad()) throw input_error({path, 0, 0}, "", "cannot read file");
  XXH3_128bits_update(m_state, &total, sizeof total);
  return *this;
}

content_hasher& content_hasher::add_tree(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return add_file(path);
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), path, ec).string());
  if (ec) throw input_error({path, 0, 0}, "", "cannot list directory: " + ec.message());
  std::sort(files.begin(), files.end());
  add(std::to_string(files.size()));
  for (const auto& f : files) add(f).add_file((fs::path(path) / f).string());
  return *this;
}

std::string content_hasher::hex() const {
  const XXH128_hash_t h = XXH3_128bits_digest(m_state);
  static const char* digits = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 0; i < 16; ++i) {
    s[15 - i] = digits[(h.high64 >> (4 * i)) & 15];
    s[31 - i] = digits[(h.low64 >> (4 * i)) & 15];
  }
  return s;
}

std::string hash_of_file(const std::string& path) { return content_hasher().add_file(path).hex(); }

}  // namespace gputlm::traces
