// The SPU kernel note (kernel_note.h).
#include "models/spu/kernel_note.h"

#include <map>
#include <sstream>

#include "models/base/units.h"

namespace gputlm::spu {

kernel_note parse_kernel_note(const std::string& text, const source_location& at) {
  std::map<std::string, std::string> kv;
  std::istringstream in(text.substr(4));
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw input_error(at, "spu note", "expected key=value, got '" + item + "'");
    if (!kv.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw input_error(at, "spu note " + item.substr(0, eq), "given twice");
  }
  auto take = [&](const char* key) -> std::string {
    auto it = kv.find(key);
    if (it == kv.end()) throw input_error(at, std::string("spu note ") + key, "missing");
    std::string v = it->second;
    kv.erase(it);
    return v;
  };
  auto number = [&](const char* key, std::uint64_t max) {
    const std::string v = take(key);
    const auto n = units::parse_uint(v);
    if (!n || *n > max)
      throw input_error(at, std::string("spu note ") + key,
                        "expected a number up to " + std::to_string(max) + ", got '" + v + "'");
    return *n;
  };
  auto choice = [&](const char* key, const char* yes, const char* no) {
    const std::string v = take(key);
    if (v != yes && v != no)
      throw input_error(at, std::string("spu note ") + key,
                        std::string("expected ") + yes + " or " + no + ", got '" + v + "'");
    return v == yes;
  };
  kernel_note k;
  k.kernel = static_cast<std::uint32_t>(number("kernel", 0xffffffffu));
  k.n = static_cast<std::uint32_t>(number("n", 1u << 16));
  k.k = static_cast<std::uint32_t>(number("k", 1u << 16));
  k.b = static_cast<std::uint32_t>(number("b", 1u << 10));
  number("s", 1u << 10);
  k.global_sync = choice("sync", "global", "pairwise");
  k.iu_in_grid = choice("iu", "ring", "none");
  k.barriers = static_cast<std::uint32_t>(number("barriers", 1u << 20));
  const std::uint64_t max_addr = ~std::uint64_t(0);
  k.a = number("a", max_addr);
  k.north = number("north", max_addr);
  k.west = number("west", max_addr);
  k.out = number("out", max_addr);
  k.east = number("east", max_addr);
  k.south = number("south", max_addr);
  if (!kv.empty()) throw input_error(at, "spu note " + kv.begin()->first, "unknown key");
  if (k.b == 0 || k.n % k.b != 0 || k.k % k.b != 0 || k.k == 0)
    throw input_error(at, "spu note b", "N and K must be non-zero multiples of the tile size b");
  if (k.global_sync && k.barriers == 0)
    throw input_error(at, "spu note barriers", "the global sync needs barriers > 0");
  return k;
}

std::optional<kernel_note> find_kernel_note(const std::vector<std::string>& notes,
                                            std::uint32_t kernel_id, const std::string& file) {
  for (const std::string& n : notes) {
    if (n.rfind("spu ", 0) != 0) continue;
    kernel_note k = parse_kernel_note(n, {file, 0, 0});
    if (k.kernel == kernel_id) return k;
  }
  return std::nullopt;
}

}  // namespace gputlm::spu
