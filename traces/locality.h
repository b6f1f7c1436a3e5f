// The locality graph of a kernel: vertices are thread blocks (TBs), the weight of edge
// (i, j) is the number of global-memory data references both TBs read, L[i][j] = |S_i ∩ S_j|
// (Tripathy, PhD thesis, UC Riverside 2021, §3.2 "PAVER" and ch. 4 "LocalityGuru"; see
// docs/references.md, "PAVER TB scheduling", and docs/tb-scheduling.md, "The locality graph").
// Built from a trace by streaming its TBs, stored in the METIS graph format, cached beside
// the trace by content key.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace_reader.h"
#include "traces/trace_types.h"

namespace gputlm::traces {

struct locality_graph {
  std::uint32_t tbs = 0;
  // adj[i]: (neighbour j, |S_i ∩ S_j|) for every j != i sharing data with i, sorted by j.
  // Symmetric: (j, w) in adj[i] iff (i, w) in adj[j].
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> adj;

  // What the graph was built from (carried through the METIS file's comment lines).
  std::uint32_t kernel_id = 0;
  std::string kernel_name;
  std::uint32_t granularity = 4;     // bytes per data reference: 4, 32 or 128
  std::uint64_t distinct_lines = 0;  // distinct granules read by the kernel
  std::uint64_t shared_lines = 0;    // of those, read by at least two TBs
  double build_seconds = 0;          // time the build took (when it was built)
  bool from_cache = false;           // loaded from a cache file instead of built

  // Figures derived from adj (summarize() fills them).
  std::uint64_t edges = 0;         // undirected edges
  std::uint64_t total_weight = 0;  // sum of the edge weights, each edge once
  std::uint32_t shared_tbs = 0;    // TBs with at least one edge
  double spscore = 1;              // 1 - nonzero / tbs² (nonzero = 2 * edges)
  // Mean, over the shared TBs, of the fraction of the other TBs each shares data with:
  // 2 * edges / (shared_tbs * (tbs - 1)); 0 without shared TBs (docs/tb-scheduling.md).
  double degree_of_sharing = 0;

  // The weight of (i, j), 0 without an edge (binary search in adj[i]).
  std::uint64_t weight(std::uint32_t i, std::uint32_t j) const;
  // Recomputes edges, total_weight, shared_tbs, spscore and degree_of_sharing from adj.
  void summarize();
};

// One TB of a kernel by linear id, for build_locality_graph.
using tb_source = std::function<std::shared_ptr<const tb_trace>(std::uint32_t linear_id)>;

// Whether `in` is a global read: a load (it has a destination register) from global memory;
// stores, atomics and every other space are not.
bool is_global_read(const warp_instruction& in);

// Streams TBs 0 .. tbs-1 through `tb` once. Memory: one entry per distinct granule read (its
// TB list) plus the graph's edges. `granularity_bytes` must be a power of two (4, 32, 128 in
// the documented use); an access of `access_size` bytes counts every granule it touches.
// Throws std::invalid_argument for a bad granularity; whatever `tb` throws passes through.
locality_graph build_locality_graph(std::uint32_t tbs, const tb_source& tb,
                                    std::uint32_t granularity_bytes);
// The same over a kernel reader (TBs in linear order); kernel id and name from its header.
locality_graph build_locality_graph(kernel_reader& k, std::uint32_t granularity_bytes);

// METIS graph file (METIS 5 manual, §4.1.1): `%` comment lines (ours carry the kernel, the
// granularity, distinct/shared lines and build seconds as `% key value`), the header
// `n m 001` (edge weights), then one line per vertex listing `neighbour weight` pairs with
// 1-based neighbours.
void write_metis(std::ostream& os, const locality_graph& g);
// Writes to `path` through a temporary name and a rename; throws input_error when it cannot.
void write_metis_file(const std::string& path, const locality_graph& g);
// Reads what write_metis writes, and any METIS graph with fmt 0, 1/001, 10/010, 11/011 or
// 100-111 (vertex sizes and weights are skipped; no edge weights means weight 1). Checks the
// edge count and symmetry. Throws input_error (file:line:col) on bad input. `name` is the
// file name used in messages.
locality_graph read_metis(std::istream& is, const std::string& name);
locality_graph read_metis_file(const std::string& path);

// The JSON summary of one graph (no adjacency): id, name, tbs, granularity, distinct_lines,
// shared_lines, edges, total_weight, spscore, shared_tbs, degree_of_sharing, build_seconds,
// cached.
std::string locality_summary_json(const std::vector<locality_graph>& graphs);

// The cache of a trace's locality graphs: the folder `<trace>.locality/` beside the trace
// directory (or the .gtb file; a kernelslist.g path stands for its directory) and the
// content key of the trace (XXH3 of every file of the directory, or of the .gtb file).
struct locality_cache {
  std::string folder;
  std::string trace_key;
  // The cache file for one kernel (command index) at one granularity.
  std::string file_for(std::size_t command_index, std::uint32_t granularity) const;
};
// Hashes the trace's content (reads every byte once). Throws input_error if unreadable.
locality_cache open_locality_cache(const std::string& trace_path);

// The graph of the kernel of command `command_index` of `app` (the trace at `cache`'s path):
// read from the cache file when present and readable, else built and written there (through
// a temporary name), or only built when the folder cannot be created or written. Sets
// *build_seconds (if given) to the time spent building in this call: 0 when reused.
locality_graph cached_locality_graph(const locality_cache& cache, std::size_t command_index,
                                     std::uint32_t granularity, application_trace& app,
                                     double* build_seconds = nullptr);
locality_graph cached_locality_graph(const std::string& trace_path, std::uint32_t kernel_index,
                                     std::uint32_t granularity, application_trace& app,
                                     double* build_seconds = nullptr);

// gputlm trace locality TRACE [--kernel ID] [--granularity 4B|32B|128B] -o DIR [--no-cache]
int locality_main(const std::vector<std::string>& args);

}  // namespace gputlm::traces
