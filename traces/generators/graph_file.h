// Graph inputs of the graph kernels (docs/traces.md, "Graph inputs"): the reader of Matrix
// Market coordinate files (NIST, "The Matrix Market exchange formats", 1996) and plain edge
// lists, and the parameter that chooses a kernel's graph: its built-in generator, a
// citation graph, a banded graph or a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/generators/input_gen.h"
#include "traces/generators/params.h"

namespace gputlm::traces::generators {

constexpr std::uint32_t max_graph_vertices = std::uint32_t(1) << 24;
constexpr std::uint64_t max_graph_edges = std::uint64_t(1) << 28;  // entries or lines read

// Reads `path` by its extension: `.mtx`, a Matrix Market `matrix coordinate` file (pattern,
// real or integer; general or symmetric; square; 1-based indices), one vertex per row; `.el`
// or `.txt`, lines `u v` of 0-based ids, `#` comments, vertices 0..max id. The graph is
// undirected as make_undirected_graph stores it. A file that cannot be read or is malformed
// throws input_error at its file and line, with `key` (the parameter that named the file).
csr_graph read_graph_file(const std::string& path, const std::string& key = "graph");

// The parameter `name` choosing the input (default `builtin`, the kernel's own generator),
// followed by the parameters of the citation and banded kinds. None appears in a trace's
// note while at its default.
std::vector<param_desc> graph_params(const std::string& name, const std::string& builtin,
                                     const std::string& builtin_description);

// The parameters of a breadth-first search on a graph input (bfs*, bfs_merrill*): the
// generated graph's scale, degree and seed, the source vertex, the TB size of the kernel
// `kernel` names, and the graph parameters above.
std::vector<param_desc> graph_search_params(const std::string& kernel);

// The input `name` chooses when it is not the built-in kind `builtin`: `citation`
// (make_citation_graph with `degree` references per paper, undirected) or `banded`
// (make_banded_graph with `degree` edges per vertex) on `vertices` vertices, or a file
// (read_graph_file). Any other value is an input_error naming `name`.
csr_graph graph_input(const param_set& ps, const std::string& name, const std::string& builtin,
                      std::uint32_t vertices, std::uint32_t degree, std::uint64_t seed);

// The graph of bfs, sssp and clr: `graph` = rmat (make_rmat_graph of scale, degree, seed) or
// graph_input over 2^scale vertices.
csr_graph kernel_graph(const param_set& ps);

}  // namespace gputlm::traces::generators
