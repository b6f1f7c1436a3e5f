#include "models/memory/cache_config.h"

#include "models/memory/mshr_table.h"
#include "models/memory/sectors.h"

namespace gputlm::memory {

namespace {
// Bounds that keep a cache's tables a sane size (they are allocated at validation).
constexpr std::uint64_t max_lines = std::uint64_t(1) << 24;
constexpr std::uint64_t max_bytes = std::uint64_t(256) << 20;
constexpr std::uint64_t max_mshr_slots = std::uint64_t(1) << 18;
bool power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

cache_config::cache_config(component& c)
    : size(c, "size", {16 * 1024}, "capacity = sets x ways x line_size"),
      sets(c, "sets", 32, "sets (power of two)"),
      ways(c, "ways", 4, "associativity"),
      line_size(c, "line_size", {128}, "line size (power of two)"),
      sectored(c, "sectored", false, "lines of 32 B sectors filled separately"),
      replacement(c, "replacement", "lru", "victim choice", {"lru", "fifo"}),
      write_policy(
          c, "write_policy", "write_back", "write hit handling",
          {"read_only", "write_back", "write_through", "write_evict", "local_wb_global_evict"}),
      allocate(c, "allocate", "on_miss", "when a line is reserved",
               {"on_miss", "on_fill", "streaming"}),
      write_allocate(c, "write_allocate", "none", "write miss handling",
                     {"none", "naive", "fetch_on_write", "lazy_fetch_on_read"}),
      set_index(c, "set_index", "linear", "set index function",
                {"linear", "fermi_hash", "ipoly", "xor"}),
      mshr_entries(c, "mshr_entries", 32, "MSHR entries (distinct outstanding lines)"),
      mshr_merge(c, "mshr_merge", 8,
                 "requests merged into one MSHR entry (with mshr_per_sector: per 32-byte "
                 "sector)"),
      mshr_per_sector(c, "mshr_per_sector", true,
                      "in a sectored cache, an entry takes mshr_merge requests for each "
                      "sector of its line (GPGPU-Sim's sector caches keep an MSHR per sector)"),
      data_port_width(c, "data_port_width", {128}, "data array bytes per cycle") {}

cache_geometry cache_config::geometry() const {
  cache_geometry g;
  g.sets = static_cast<std::uint32_t>(*sets);
  g.ways = static_cast<std::uint32_t>(*ways);
  g.line_size = static_cast<std::uint32_t>(line_size->value);
  g.sectored = *sectored;
  g.fifo = replacement.is("fifo");
  g.index = parse_index_function(*set_index);
  g.write = parse_write_policy(*write_policy);
  g.alloc = parse_alloc_policy(*allocate);
  g.wr_alloc = parse_write_alloc(*write_allocate);
  g.mshr_entries = static_cast<std::uint32_t>(*mshr_entries);
  g.mshr_merge = static_cast<std::uint32_t>(*mshr_merge);
  g.mshr_per_sector = *sectored && *mshr_per_sector;
  return g;
}

void cache_config::validate() const {
  sets.require(power_of_two(*sets), "must be a power of two");
  ways.require(*ways >= 1, "must be at least 1");
  ways.require(*ways <= 65534, "must be at most 65534 (the tag array's way numbers are 16-bit)");
  sets.require(*sets <= max_lines / *ways,
               "sets x ways must be at most " + std::to_string(max_lines) + " lines per cache");
  line_size.require(power_of_two(*line_size), "must be a power of two");
  line_size.require(*line_size <= 4096, "must be at most 4KiB");
  size.require(*size <= max_bytes, "must be at most " + units::format_bytes(max_bytes));
  size.require(*size == *sets * *ways * *line_size,
               "is " + units::format_bytes(*size) +
                   " but sets x ways x line_size = " + std::to_string(*sets) + " x " +
                   std::to_string(*ways) + " x " + std::to_string(line_size->value) + " = " +
                   units::format_bytes(*sets * *ways * *line_size));
  if (*sectored)
    line_size.require(*line_size == 4 * sector_size,
                      "a sectored cache needs 128 B lines (4 sectors of 32 B)");
  if (set_index.is("fermi_hash"))
    set_index.require(*sets == 32 || *sets == 64, "fermi_hash is defined for 32 or 64 sets only");
  if (set_index.is("ipoly"))
    set_index.require(*sets == 16 || *sets == 32 || *sets == 64,
                      "ipoly is defined for 16, 32 or 64 sets only");
  if (write_policy.is("write_back"))
    allocate.require(allocate.is("on_miss"),
                     "write_back with on_fill/streaming allocation would deadlock");
  if (write_allocate.is("fetch_on_write") || write_allocate.is("lazy_fetch_on_read"))
    allocate.require(!allocate.is("on_fill"), "fetch-on-write write-allocate needs on_miss");
  mshr_entries.require(*mshr_entries >= 1, "must be at least 1");
  mshr_entries.require(*mshr_entries <= mshr_table::max_entries,
                       "must be at most " + std::to_string(mshr_table::max_entries));
  mshr_merge.require(*mshr_merge >= 1, "must be at least 1");
  const std::uint64_t per_line = *sectored && *mshr_per_sector ? 4 : 1;
  mshr_merge.require(*mshr_merge * per_line <= max_mshr_slots / *mshr_entries,
                     "mshr_entries x mshr_merge must be at most " + std::to_string(max_mshr_slots));
  if (per_line == 4)
    mshr_merge.require(*mshr_merge * 4 <= 65535,
                       "must be at most 16383 in a sectored cache (4 sectors x merge slots)");
  data_port_width.require(*data_port_width >= 1 && *line_size % *data_port_width == 0,
                          "must divide line_size");
}

void cache_statistics::register_with(component& c, const std::string& miss_queue) {
  c.add_stat("accesses", accesses, "requests looked up");
  c.add_stat("hits", hits, "read hits and write hits");
  c.add_stat("sector_misses", sector_misses, "tag present, a requested sector missing");
  c.add_stat("line_misses", line_misses, "tag absent");
  c.add_stat("mshr_hits", mshr_hits, "secondary misses merged into an MSHR entry");
  c.add_stat("sector_reads", sector_reads,
             "32-byte sectors read lookups asked for (loads, atomics, fetches)");
  c.add_stat("sector_read_misses", sector_read_misses,
             "of sector_reads, those fetched from the next level");
  c.add_stat("evictions", evictions, "valid lines replaced or invalidated");
  c.add_stat("writebacks", writebacks, "dirty lines written back to the next level");
  c.add_stat("reservation_fails.mshr_full", fail_mshr_full, "requests held: MSHR full");
  c.add_stat("reservation_fails.merge_limit", fail_merge_limit, "requests held: merge limit");
  c.add_stat("reservation_fails.no_line", fail_no_line, "requests held: no replaceable line");
  c.add_stat("reservation_fails.miss_queue_full", fail_miss_queue_full,
             "requests held: " + miss_queue + " full");
  c.add_stat("mshr_occupancy", mshr_occupancy, "cycles with n MSHR entries in use");
}

void cache_statistics::count_lookup(access_type type, const access_result& r, bool merged,
                                    std::uint8_t sectors, bool write) {
  if (!write) {
    sector_reads += popcount8(sectors);
    if (r.kind == access_result::miss) sector_read_misses += popcount8(r.fetch);
  }
  if (merged) {
    ++mshr_hits;
    by_access.count(type, access_outcome::mshr_hit);
  }
  switch (r.kind) {
    case access_result::hit:
      ++hits;
      by_access.count(type, access_outcome::hit);
      break;
    case access_result::merged:
      by_access.count(type, access_outcome::hit_reserved);
      break;
    case access_result::miss:
      ++(r.line_miss ? line_misses : sector_misses);
      by_access.count(type, r.line_miss ? access_outcome::miss : access_outcome::sector_miss);
      break;
    case access_result::write_done:  // a write to a present line hits
      if (!r.line_miss) ++hits;
      by_access.count(type, r.line_miss ? access_outcome::miss : access_outcome::hit);
      break;
    case access_result::fail:
      break;
  }
}

}  // namespace gputlm::memory
