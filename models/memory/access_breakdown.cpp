#include "models/memory/access_breakdown.h"

namespace gputlm::memory {

namespace {
constexpr const char* k_types[] = {"global_read",  "local_read",       "constant_read",
                                   "texture_read", "global_write",     "local_write",
                                   "l1_writeback", "instruction_read", "l1_write_allocate"};
constexpr const char* k_outcomes[] = {"hit",         "hit_reserved", "miss",
                                      "sector_miss", "mshr_hit",     "reservation_fail"};
static_assert(std::size(k_types) == access_types && std::size(k_outcomes) == access_outcomes);

// The type of a request of kind `k` as it arrives (a fill's or write-back's own kind aside).
access_type direct_type(access_kind k) {
  switch (k) {
    case access_kind::global_load:
    case access_kind::atomic:     // Accel-Sim traces atomics as global loads (LOAD_OP)
    case access_kind::flag_load:  // a polled status word: a global load
      return access_type::global_read;
    case access_kind::global_store:
    case access_kind::flag_store:
      return access_type::global_write;
    case access_kind::local_load:
      return access_type::local_read;
    case access_kind::local_store:
      return access_type::local_write;
    case access_kind::constant_load:
      return access_type::constant_read;
    case access_kind::texture_load:
      return access_type::texture_read;
    case access_kind::instruction_fetch:
      return access_type::instruction_read;
    case access_kind::writeback:
      return access_type::l1_writeback;
    case access_kind::fill:
    case access_kind::flush:
    case access_kind::carveout:
      break;
  }
  return access_type::none;
}
}  // namespace

const char* to_string(access_type t) {
  return t == access_type::none ? "none" : k_types[static_cast<std::size_t>(t)];
}
const char* to_string(access_outcome o) { return k_outcomes[static_cast<std::size_t>(o)]; }
access_type type_of(const mem_request& r) {
  if (r.kind == access_kind::writeback) return access_type::l1_writeback;
  if (r.kind != access_kind::fill) return direct_type(r.kind);
  // A fill the L1 sends for a load of some kind, or for a store (its write-allocate fetch).
  const access_kind cause = r.cause_kind();
  if (cause == access_kind::global_store || cause == access_kind::local_store)
    return access_type::l1_write_allocate;
  return direct_type(cause);
}

void access_breakdown::register_with(component& c, std::initializer_list<access_type> types) const {
  for (const access_type t : types)
    for (std::size_t o = 0; o < access_outcomes; ++o)
      c.add_stat(std::string("by_access.") + to_string(t) + "." + k_outcomes[o],
                 m_counts[static_cast<std::size_t>(t)][o],
                 std::string("accesses of type ") + gpgpusim_name(t) + " with outcome " +
                     gpgpusim_name(static_cast<access_outcome>(o)) + " (access_breakdown.h)");
}

}  // namespace gputlm::memory
